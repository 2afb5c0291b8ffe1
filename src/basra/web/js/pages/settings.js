// /settings (issue 30): how the game looks and behaves for this player: theme (as the
// device, light, dark), deck colours (two, or four: clubs green, diamonds blue), contrast,
// card size, animations (normal, slow, off), sound, continuing after a round by itself,
// confirming each play, the screen-reader table, and the language. Each change is made at
// once (lib/settings.js draws it on the whole site: a preview row of cards shows it here)
// and kept in this browser, and for an account on the server too (lib/accountsettings.js:
// the account's settings are read as the page opens). Radio groups and checkboxes in
// fieldsets with legends, each a finger's size.

import { h, replace } from "../lib/dom.js";
import { LANGUAGES, currentLanguage, setLanguage, t } from "../lib/i18n.js";
import { CHOICES, motionOff, onSettings, settings } from "../lib/settings.js";
import { isAccount, loadAccountSettings, saveLanguage, saveSettings } from "../lib/accountsettings.js";
import { cardFace, cardLabel } from "../lib/cards.js";
import { me } from "../lib/api.js";
import { announce, loadStyle } from "../lib/ui.js";

const STYLES = [new URL("../../css/settings.css", import.meta.url)];

/** The preview's cards: a diamond and a club (the four-colour deck), a heart, a spade's face. */
const PREVIEW = ["7D", "10C", "AH", "QS"];

/** The choice groups, in the page's order: [section, [setting, words key]]. */
const GROUPS = {
  look: [["theme", "settings.theme"], ["deck", "settings.deck"], ["contrast", "settings.contrast"], ["cardSize", "settings.card_size"]],
  play: [["motion", "settings.motion"]],
};
const FLAGS = [
  ["sound", "settings.sound", null],
  ["autoContinue", "settings.auto_continue", "settings.auto_continue_hint"],
  ["confirmPlay", "settings.confirm_play", "settings.confirm_play_hint"],
  ["reader", "settings.reader", "settings.reader_hint"],
];
/** The words key of each setting's value (cardSize's "small": settings.card_size.small). */
const valueKey = (key, value) => `${key}.${value}`;

export function mount(container) {
  const page = new SettingsPage(container);
  page.start();
  return { unmount: () => page.stop(), relabel: () => page.render() };
}

class SettingsPage {
  constructor(container) {
    this.container = container;
    this.alive = true;
    this.account = isAccount();
    this.offServer = false;
  }

  async start() {
    this.container.classList.add("page", "settings-page");
    this.stopHearing = onSettings(() => { if (this.alive) this.render(); });
    await Promise.all(STYLES.map(loadStyle));
    if (!this.alive) return;
    this.render();
    // An account's settings, as the server keeps them (another device's changes).
    try {
      const player = await me().catch(() => null);
      this.account = !!(player && player.account);
      if (this.account) await loadAccountSettings();
    } catch {
      this.offServer = true;
    }
    if (this.alive) this.render();
  }

  stop() {
    this.alive = false;
    if (this.stopHearing) this.stopHearing();
  }

  render() {
    const focused = document.activeElement && this.container.contains(document.activeElement) ? document.activeElement.id : "";
    const now = settings();
    replace(this.container,
      h("h1", null, t("settings.title")),
      h("p", { class: "lead settings-kept", id: "settings-kept" },
        t(this.account ? "settings.kept_account" : "settings.kept_here"),
        this.offServer ? [" ", t("settings.offline")] : null),
      this.preview(now),
      h("form", { class: "settings-form", id: "settings-form", on: { submit: (e) => e.preventDefault() } },
        h("section", { class: "settings-section", "aria-labelledby": "settings-look" },
          h("h2", { id: "settings-look" }, t("settings.look")),
          GROUPS.look.map(([name, key]) => this.group(name, key, now[name]))),
        h("section", { class: "settings-section", "aria-labelledby": "settings-play" },
          h("h2", { id: "settings-play" }, t("settings.play")),
          GROUPS.play.map(([name, key]) => this.group(name, key, now[name],
            motionOff() && now.motion !== "off" ? t("settings.motion.device_off") : null)),
          h("fieldset", { class: "settings-group settings-flags" },
            h("legend", null, t("settings.behaviour")),
            FLAGS.map(([name, key, hint]) => this.flag(name, key, hint, now[name])))),
        h("section", { class: "settings-section", "aria-labelledby": "settings-language-title" },
          h("h2", { id: "settings-language-title" }, t("settings.language")),
          this.language())));
    if (focused) {
      const again = document.getElementById(focused);
      if (again) again.focus({ preventScroll: true });
    }
  }

  /** A row of cards as the table draws them, in the chosen deck, size and contrast. */
  preview() {
    return h("div", { class: "settings-preview", role: "group", "aria-label": t("settings.preview") },
      h("div", { class: "settings-preview-cards", role: "list" },
        PREVIEW.map((card) => h("div", { class: "card settings-card", role: "listitem", "aria-label": cardLabel(card) }, cardFace(card)))));
  }

  /** One setting's choices as radio buttons in a fieldset. */
  group(name, key, value, note = null) {
    const hintId = note ? `settings-${name}-note` : null;
    return h("fieldset", { class: "settings-group", id: `settings-${name}`, "aria-describedby": hintId },
      h("legend", null, t(key)),
      h("div", { class: "settings-choices" },
        CHOICES[name].map((choice) => {
          const id = `settings-${name}-${choice}`;
          return h("label", { class: "settings-choice", for: id },
            h("input", { type: "radio", id, name: `settings-${name}`, value: choice, checked: value === choice,
              on: { change: () => this.change(name, choice) } }),
            h("span", null, t(valueKey(key, choice))));
        })),
      note ? h("p", { class: "hint", id: hintId }, note) : null);
  }

  /** One on/off setting as a checkbox. */
  flag(name, key, hint, value) {
    const id = `settings-${name}`;
    const hintId = hint ? `${id}-hint` : null;
    return h("div", { class: "settings-flag" },
      h("label", { class: "settings-choice", for: id },
        h("input", { type: "checkbox", id, name: id, checked: !!value, "aria-describedby": hintId,
          on: { change: (e) => this.change(name, e.target.checked) } }),
        h("span", null, t(key))),
      hint ? h("p", { class: "hint", id: hintId }, t(hint)) : null);
  }

  language() {
    const select = h("select", { id: "settings-language", on: { change: (e) => this.changeLanguage(e.target.value) } },
      LANGUAGES.map((code) => h("option", { value: code, lang: code, selected: code === currentLanguage() }, t(`lang.${code}`))));
    return h("div", { class: "settings-language" },
      h("label", { for: "settings-language" }, t("settings.language_label")), select);
  }

  change(name, value) {
    saveSettings({ [name]: value });
    announce(t("settings.saved"));
  }

  async changeLanguage(code) {
    if (!LANGUAGES.includes(code)) return;
    await setLanguage(code);
    saveLanguage(code);
    announce(t("settings.saved"));
  }
}
