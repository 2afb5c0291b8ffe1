// The lobby: play in one tap (a bot, or a quick match: quick.js), the first tap making a
// guest with a name the server makes up; who you are ("Playing as Swift Falcon 27 1532 ·
// Change": a rename, and an account's rating in the chosen variant); the options (variant,
// bot level, seating) remembered in prefs.js; a private table (rated, for an account at two)
// with an invite link, and a code (private.js); a short match history. Variants, seatings,
// bot levels and nickname lengths are the server's (variants.js).
//
// The page is built once; each part is redrawn on its own (the name line, the options, the
// buttons), so what is typed in one part survives any change in another.

import { h, replace } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { api, me, rename, session, signIn } from "../lib/api.js";
import { cardFace } from "../lib/cards.js";
import { botLevels, defaultVariant, limits, seatingKey, variantNames, variantOf } from "../lib/variants.js";
import { loadPrefs, savePrefs } from "../lib/prefs.js";
import { QuickMatch, takeRequeued } from "./quick.js";
import { PrivateTable } from "./private.js";
import { OpenTables } from "./open_tables.js";
import { announce, errorText, link, navigate, toast, spinner } from "../lib/ui.js";
import { learnNudge } from "../learn/nudge.js";
import { readerOffer } from "../table/offer.js";

/** The bot level offered first, when the player has not chosen one. */
const FIRST_LEVEL = "medium";

export function mount(container, params) {
  const lobby = new Lobby(container, params);
  lobby.start();
  return { unmount: () => lobby.destroy(), relabel: () => lobby.build() };
}

class Lobby {
  constructor(container, params) {
    this.container = container;
    this.params = params;
    const prefs = loadPrefs();
    const levels = botLevels();
    this.variant = variantNames().includes(prefs.variant) ? prefs.variant : defaultVariant();
    this.level = levels.includes(prefs.level) ? prefs.level : levels.includes(FIRST_LEVEL) ? FIRST_LEVEL : levels[0];
    this.seating = prefs.seating || {};
    this.player = null;
    this.checked = false;
    this.editingName = false;
    /** What is typed in the name field, kept across every redraw. */
    this.draft = "";
    this.nameError = "";
    this.busy = "";
    this.quick = new QuickMatch(this);
    this.history = null;
    this.destroyed = false;
    this.parts = {};
    this.privateTable = new PrivateTable(this);
    this.openTables = new OpenTables(this);
  }

  async start() {
    this.container.classList.add("page", "lobby-page");
    this.build();
    await (this.checking = this.check());
    if (this.destroyed) return;
    const requeued = takeRequeued();
    if (requeued && this.player) {
      if (variantNames().includes(requeued.variant)) this.variant = requeued.variant;
      const notice = requeued.notice || "requeued";
      this.quick.wait({ ticket: requeued.ticket, since: Date.now(), offer: requeued.offer !== false, variant: this.variant, players: requeued.players || 2, teams: !!requeued.teams, status: "waiting", notice, partnerName: requeued.partnerName || "" });
      announce(t(`lobby.quick.${notice}`, { name: requeued.partnerName || "" }));
    }
    this.build();
    this.openTables.start();
    if (this.params.notFound) toast(t("lobby.not_found"), "info");
    this.loadHistory();
  }

  async check() { // who the stored session is; an action waits for it (never a second guest)
    try { this.player = await me(); } catch { this.player = session.token ? { nickname: session.nickname, id: session.playerId } : null; }
    this.checked = true;
  }

  destroy() { this.destroyed = true; this.quick.stop(); this.openTables.stop(); }

  prefs() { savePrefs({ variant: this.variant, level: this.level, seating: this.seating }); }

  async loadHistory() {
    if (!this.player) return;
    try {
      const [answer, page] = await Promise.all([api.history(), import("./history.js")]);
      this.historyItem = page.historyItem;
      this.history = answer.matches || [];
    } catch { this.history = []; }
    if (!this.destroyed) this.renderRecent();
  }

  // ---------------------------------------------------------------- the page, once

  build() {
    if (this.destroyed) return;
    const c = this.container;
    const p = this.parts;
    p.buttons = h("div", { class: "start-buttons" });
    p.quick = h("div", { class: "quick-option", "aria-live": "polite" });
    p.summary = h("p", { class: "start-summary muted" });
    p.name = h("div", { class: "name-line" });
    p.options = h("div", { class: "options-body" });
    p.private = h("div", { class: "private-body" });
    p.recent = h("section", { class: "card-box recent", "aria-labelledby": "recent-title" });
    p.open = h("section", { class: "card-box open-box", "aria-labelledby": "open-title" });
    replace(c,
      readerOffer(() => c.querySelector("#play-bot")?.focus()),
      learnNudge(),
      this.hero(),
      h("section", { class: "card-box start", "aria-labelledby": "start-title" },
        h("h2", { id: "start-title", class: "sr-only" }, t("nav.play")),
        h("div", { class: "start-row" }, p.buttons, p.quick),
        p.summary,
        p.name),
      h("div", { class: "lobby-grid" },
        h("section", { class: "card-box options", "aria-labelledby": "options-title" },
          h("h2", { id: "options-title" }, t("lobby.options.title")), p.options),
        h("div", { class: "lobby-col" },
          h("section", { class: "card-box private", "aria-labelledby": "private-title" },
            h("h2", { id: "private-title" }, t("lobby.private.title")), p.private),
          p.open,
          p.recent)));
    this.renderButtons();
    this.renderName();
    this.renderOptions();
    this.privateTable.redraw();
    this.openTables.redraw();
    this.renderRecent();
  }

  hero() {
    const fan = ["JS", "2C", "10D"].map((card, i) => h("div", { class: `hero-card hero-card-${i}` }, cardFace(card, defaultVariant())));
    return h("header", { class: "hero" },
      h("div", { class: "hero-text" },
        h("h1", null, t("app.name")),
        h("p", { class: "tagline" }, t("lobby.tagline"))),
      h("div", { class: "hero-fan", "aria-hidden": "true" }, fan));
  }

  // ---------------------------------------------------------------- the parts

  /** The one-tap buttons and the line saying what they start. */
  renderButtons() {
    const { buttons, summary } = this.parts;
    if (!buttons || !buttons.isConnected) return;
    replace(buttons,
      h("button", { type: "button", class: "btn primary huge", id: "play-bot", disabled: !!this.busy, "aria-describedby": "start-summary", on: { click: () => this.playBot() } },
        this.busy === "bot" ? spinner() : null, t("lobby.bot.start")));
    this.quick.redraw();
    const variant = variantOf(this.variant);
    const seating = t(`seating.${seatingKey(this.seatingOf(variant))}`);
    const words = { variant: t(`variant.${this.variant}.name`), level: t(`bot.level.${this.level}`), seating };
    replace(summary, h("span", { id: "start-summary" }, t(variant.seatings.length > 1 ? "lobby.start.summary_seats" : "lobby.start.summary", words)));
  }

  renderName() {
    const box = this.parts.name;
    if (!box || !box.isConnected) return;
    if (!this.checked) { replace(box, h("p", { class: "muted" }, spinner(), " ", t("lobby.loading"))); return; }
    if (this.player && !this.editingName) {
      const rating = (this.player.ratings || {})[this.variant];
      replace(box, h("p", { class: "identity" },
        h("span", { class: "avatar", "aria-hidden": "true" }, (Array.from(this.player.nickname)[0] || "?").toUpperCase()),
        h("span", { class: "who" }, t("lobby.name.playing_as"), " ", h("strong", { class: "nickname" }, this.player.nickname),
          rating ? [" ", h("bdi", { class: "badge my-rating", dir: "ltr", title: t("rated.lobby_rating", { variant: t(`variant.${this.variant}.name`) }) }, rating.label)] : null,
          h("button", { type: "button", class: "btn ghost small", id: "rename", "aria-label": t("lobby.name.change_label"), on: { click: () => this.editName() } }, t("lobby.name.change")))));
      return;
    }
    replace(box, this.nameForm());
  }

  nameForm() {
    const renaming = !!this.player;
    const input = h("input", {
      id: "nickname", name: "nickname", type: "text", autocomplete: "nickname", dir: "auto",
      minlength: limits().nickname_min, maxlength: limits().nickname_max,
      required: renaming, value: this.draft, placeholder: renaming ? "" : t("lobby.name.placeholder"),
      "aria-describedby": "nickname-hint nickname-error", "aria-invalid": this.nameError ? "true" : "false",
      on: { input: (e) => { this.draft = e.target.value; } },
    });
    return h("form", { class: ["name-form", renaming && "renaming"], novalidate: true, on: { submit: (e) => { e.preventDefault(); this.saveName(); } } },
      h("label", { for: "nickname" }, t(renaming ? "lobby.name.label" : "lobby.name.optional")),
      h("div", { class: "row" }, input,
        h("button", { type: "submit", class: "btn primary", disabled: this.busy === "name" }, t("lobby.name.save")),
        renaming ? h("button", { type: "button", class: "btn ghost", on: { click: () => this.stopEditing() } }, t("lobby.name.cancel")) : null),
      h("p", { id: "nickname-hint", class: "hint" }, t(renaming ? "lobby.name.change_hint" : "lobby.name.hint")),
      h("p", { id: "nickname-error", class: "field-error", role: "alert" }, this.nameError));
  }

  editName() {
    this.editingName = true;
    this.draft = this.player.nickname;
    this.renderName();
    const input = this.container.querySelector("#nickname");
    if (input) { input.focus(); input.select(); }
  }

  stopEditing() {
    this.editingName = false;
    this.nameError = "";
    this.draft = "";
    this.renderName();
    this.container.querySelector("#rename")?.focus();
  }

  /** The options: variant, bot level, seating. A choice changes only what it must. */
  renderOptions() {
    const box = this.parts.options;
    if (!box || !box.isConnected) return;
    const variants = variantNames().map((name) => {
      const id = `variant-${name}`;
      return h("div", { class: ["variant-option", this.variant === name && "chosen"], dataset: { variant: name } },
        h("input", { type: "radio", name: "variant", id, value: name, checked: this.variant === name, on: { change: () => this.chooseVariant(name) } }),
        h("label", { for: id },
          h("span", { class: "variant-title" }, t(`variant.${name}.name`)),
          h("span", { class: "variant-desc" }, t(`variant.${name}.short`))),
        h("a", { class: "variant-rules", href: `/rules/${name}`, "aria-label": t("lobby.variant.rules_of", { name: t(`variant.${name}.name`) }), on: { click: (e) => { e.preventDefault(); navigate(`/rules/${name}`); } } }, t("lobby.variant.rules")));
    });
    const levels = h("div", { class: "segmented", role: "radiogroup", "aria-labelledby": "level-title" },
      botLevels().map((level) => h("label", { class: ["seg", this.level === level && "on"], dataset: { level } },
        h("input", { type: "radio", name: "level", value: level, checked: this.level === level, on: { change: () => this.chooseLevel(level) } }),
        h("span", null, t(`bot.level.${level}`)))));
    this.parts.seating = h("div", { class: "seating-field" });
    replace(box,
      h("h3", { id: "variant-title" }, t("lobby.variant.title")),
      h("div", { class: "variant-list", role: "radiogroup", "aria-labelledby": "variant-title" }, variants),
      h("h3", { id: "level-title" }, t("lobby.bot.level")),
      levels,
      this.parts.seating);
    this.renderSeating();
  }

  renderSeating() {
    const box = this.parts.seating;
    const variant = variantOf(this.variant);
    if (variant.seatings.length < 2) { replace(box); return; }
    const chosen = seatingKey(this.seatingOf(variant));
    replace(box, h("label", { class: "inline-field" },
      h("span", null, t("lobby.seating.label")),
      h("select", { id: "bot-seating", on: { change: (e) => { this.seating[this.variant] = e.target.value; this.prefs(); this.renderButtons(); this.privateTable.redraw(); } } },
        variant.seatings.map((s) => h("option", { value: seatingKey(s), selected: seatingKey(s) === chosen }, t(`seating.${seatingKey(s)}`))))));
  }

  chooseVariant(name) {
    this.variant = name;
    this.prefs();
    for (const el of this.container.querySelectorAll(".variant-option")) el.classList.toggle("chosen", el.dataset.variant === name);
    this.renderSeating();
    this.renderButtons();
    this.privateTable.redraw();
    if (!this.editingName) this.renderName();
  }

  chooseLevel(level) {
    this.level = level;
    this.prefs();
    for (const el of this.container.querySelectorAll(".seg")) el.classList.toggle("on", el.dataset.level === level);
    this.renderButtons();
  }

  seatingOf(variant) {
    const key = this.seating[variant.name] || seatingKey(variant.seatings[0]);
    return variant.seatings.find((s) => seatingKey(s) === key) || variant.seatings[0];
  }

  tableOptions(extra = {}) {
    const seating = this.seatingOf(variantOf(this.variant));
    return { variant: this.variant, players: seating.players, teams: seating.teams, ...extra };
  }

  renderRecent() {
    const box = this.parts.recent;
    if (!box || !box.isConnected) return;
    const items = (this.history || []).slice(0, 4);
    replace(box,
      h("h2", { id: "recent-title" }, t("lobby.recent.title")),
      !this.player ? h("p", { class: "muted" }, t("lobby.recent.no_player"))
        : this.history === null ? h("p", { class: "muted" }, spinner())
          : items.length ? h("ul", { class: "history-list compact" }, items.map((m) => this.historyItem(m))) : h("p", { class: "muted" }, t("lobby.recent.none")),
      this.player ? link("/history", { class: "more" }, t("lobby.recent.all")) : null);
  }

  // ---------------------------------------------------------------- actions

  /** Save the typed name: a new guest called so, or (already a guest) a rename. */
  async saveName() {
    if (this.busy) return false;
    const nickname = this.draft.trim();
    if (!this.validName(nickname)) return false;
    this.busy = "name";
    this.renderButtons();
    try {
      this.player = this.player ? await rename(nickname) : await signIn(nickname);
      this.nameError = "";
      this.editingName = false;
      this.draft = "";
      announce(t("lobby.name.saved", { name: this.player.nickname }));
      return true;
    } catch (err) {
      this.nameError = errorText(err);
      return false;
    } finally {
      this.busy = "";
      this.afterName();
    }
  }

  validName(nickname) {
    const length = Array.from(nickname).length;
    if (length >= limits().nickname_min && length <= limits().nickname_max) return true;
    this.nameError = errorText({ code: "guest/bad_nickname" });
    this.afterName();
    return false;
  }

  afterName() {
    if (this.destroyed) return;
    this.renderName();
    this.renderButtons();
    if (this.nameError) this.container.querySelector("#nickname")?.focus();
    else if (!this.history) this.loadHistory();
  }

  /** A guest before an action: the one typed in the name field, else a made-up name. */
  async ensurePlayer() {
    if (!this.checked && this.checking) await this.checking;
    if (this.player) return true;
    const typed = this.draft.trim();
    if (typed && !this.validName(typed)) return false;
    try {
      this.player = await signIn(typed);
    } catch (err) {
      this.nameError = errorText(err);
      this.afterName();
      return false;
    }
    this.draft = "";
    this.nameError = "";
    if (!this.destroyed) this.renderName();
    return true;
  }

  async act(name, fn) {
    if (this.busy) return;
    this.busy = name;
    this.renderButtons();
    this.privateTable.redraw();
    try {
      if (await this.ensurePlayer()) await fn();
    } catch (err) {
      toast(errorText(err), "error");
    } finally {
      // Off to a table: the buttons stay busy while its page loads.
      if (!this.opening) this.busy = "";
      if (!this.destroyed && !this.opening) { this.renderButtons(); this.privateTable.redraw(); }
    }
  }

  open(table) { this.opening = true; navigate(`/table/${encodeURIComponent(table)}`); }

  playBot() {
    return this.act("bot", async () => {
      const answer = await api.playBot(this.tableOptions({ bot_level: this.level }));
      this.open(answer.table.id);
    });
  }
}
