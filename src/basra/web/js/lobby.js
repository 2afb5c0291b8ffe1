// The lobby: who you are (a guest with a remembered nickname), which variant, and the ways
// to a table: a bot, a quick match (quick.js), a private table with an invite link, a code.
// Also the landing page of an invite link (/join/CODE) and a short match history. Variants,
// seatings, bot levels and nickname lengths are the server's (variants.js).

import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { api, me, session, signIn } from "./api.js";
import { cardFace } from "./cards.js";
import { botLevels, defaultVariant, limits, seatingKey, variantNames, variantOf } from "./variants.js";
import { loadPrefs, savePrefs } from "./prefs.js";
import { QuickMatch, takeRequeued } from "./quick.js";
import { historyItem } from "./history.js";
import { announce, errorText, link, navigate, toast, spinner } from "./ui.js";

/** The bot level offered first, when the player has not chosen one. */
const FIRST_LEVEL = "medium";

export function mount(container, params) {
  const lobby = new Lobby(container, params);
  lobby.start();
  return { unmount: () => lobby.destroy(), relabel: () => lobby.render() };
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
    this.nameError = "";
    this.busy = "";
    this.quick = new QuickMatch(this);
    this.history = null;
    this.joinError = "";
    this.destroyed = false;
  }

  async start() {
    this.container.classList.add("page", "lobby-page");
    this.render();
    try {
      this.player = await me();
    } catch {
      this.player = session.token ? { nickname: session.nickname, id: session.playerId } : null;
    }
    this.checked = true;
    if (this.destroyed) return;
    if (this.params.join && this.player) {
      this.join(this.params.join);
      return;
    }
    const requeued = this.params.join ? null : takeRequeued();
    if (requeued && this.player) {
      if (variantNames().includes(requeued.variant)) this.variant = requeued.variant;
      this.quick.wait({ ticket: requeued.ticket, since: Date.now(), offer: requeued.offer !== false, variant: this.variant, status: "waiting", notice: "requeued" });
      announce(t("lobby.quick.requeued"));
    }
    this.render();
    if (this.params.notFound) toast(t("lobby.not_found"), "info");
    this.loadHistory();
  }

  destroy() {
    this.destroyed = true;
    this.quick.stop();
  }

  prefs() {
    savePrefs({ variant: this.variant, level: this.level, seating: this.seating });
  }

  async loadHistory() {
    if (!this.player) return;
    try {
      const answer = await api.history();
      this.history = answer.matches || [];
    } catch {
      this.history = [];
    }
    if (!this.destroyed) this.renderRecent();
  }

  // ---------------------------------------------------------------- render

  render() {
    if (this.destroyed) return;
    const c = this.container;
    if (this.params.join) {
      replace(c, this.hero(), this.inviteCard());
      return;
    }
    this.recentBox = h("section", { class: "card-box recent", "aria-labelledby": "recent-title" });
    replace(c,
      this.hero(),
      h("div", { class: "lobby-grid" },
        h("div", { class: "lobby-col" },
          this.nameCard(),
          this.variantCard()),
        h("div", { class: "lobby-col" },
          this.playCard(),
          this.recentBox)));
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

  nameCard() {
    const box = h("section", { class: "card-box name-box", "aria-labelledby": "name-title" },
      h("h2", { id: "name-title" }, t("lobby.name.title")));
    if (!this.checked) {
      box.append(h("p", { class: "muted" }, spinner(), " ", t("lobby.loading")));
      return box;
    }
    if (this.player && !this.editingName) {
      box.append(h("div", { class: "identity" },
        h("span", { class: "avatar big", "aria-hidden": "true" }, h("span", { class: "avatar-letter" }, (Array.from(this.player.nickname)[0] || "?").toUpperCase())),
        h("p", null, t("lobby.name.playing_as"), " ", h("strong", { class: "nickname" }, this.player.nickname)),
        h("button", { type: "button", class: "btn ghost small", on: { click: () => { this.editingName = true; this.render(); this.container.querySelector("#nickname")?.focus(); } } }, t("lobby.name.change"))));
      return box;
    }
    box.append(this.nameForm(() => this.render()));
    return box;
  }

  nameForm(after) {
    const input = h("input", {
      id: "nickname", name: "nickname", type: "text", autocomplete: "nickname",
      minlength: limits().nickname_min, maxlength: limits().nickname_max,
      required: true, value: session.nickname || "", "aria-describedby": "nickname-hint nickname-error",
      "aria-invalid": this.nameError ? "true" : "false",
    });
    const form = h("form", {
      class: "name-form",
      on: { submit: async (e) => {
        e.preventDefault();
        const ok = await this.saveName(input.value);
        if (ok) after();
      } },
    },
    h("label", { for: "nickname" }, t("lobby.name.label")),
    h("div", { class: "row" }, input, h("button", { type: "submit", class: "btn primary" }, t("lobby.name.save"))),
    h("p", { id: "nickname-hint", class: "hint" }, this.player ? t("lobby.name.change_hint") : t("lobby.name.hint")),
    h("p", { id: "nickname-error", class: "field-error", role: "alert" }, this.nameError));
    return form;
  }

  async saveName(raw) {
    const nickname = String(raw || "").trim();
    const length = Array.from(nickname).length;
    if (length < limits().nickname_min || length > limits().nickname_max) {
      this.nameError = errorText({ code: "guest/bad_nickname" });
      this.render();
      this.container.querySelector("#nickname")?.focus();
      return false;
    }
    try {
      this.player = await signIn(nickname);
      this.nameError = "";
      this.editingName = false;
      this.history = [];
      return true;
    } catch (err) {
      this.nameError = errorText(err);
      this.render();
      this.container.querySelector("#nickname")?.focus();
      return false;
    }
  }

  /** Make sure there is a guest before an action; false (with the form showing why) if not. */
  async ensurePlayer() {
    if (this.player) return true;
    const input = this.container.querySelector("#nickname");
    return this.saveName(input ? input.value : "");
  }

  variantCard() {
    const options = variantNames().map((name) => {
      const id = `variant-${name}`;
      return h("div", { class: ["variant-option", this.variant === name && "chosen"] },
        h("input", {
          type: "radio", name: "variant", id, value: name, checked: this.variant === name,
          on: { change: () => { this.variant = name; this.prefs(); this.render(); this.container.querySelector(`#${id}`)?.focus(); } },
        }),
        h("label", { for: id },
          h("span", { class: "variant-title" }, t(`variant.${name}.name`)),
          h("span", { class: "variant-desc" }, t(`variant.${name}.short`))),
        h("a", { class: "variant-rules", href: `/rules/${name}`, "aria-label": t("lobby.variant.rules_of", { name: t(`variant.${name}.name`) }), on: { click: (e) => { e.preventDefault(); navigate(`/rules/${name}`); } } }, t("lobby.variant.rules")));
    });
    return h("section", { class: "card-box variants", "aria-labelledby": "variant-title" },
      h("h2", { id: "variant-title" }, t("lobby.variant.title")),
      h("div", { class: "variant-list", role: "radiogroup", "aria-labelledby": "variant-title" }, options));
  }

  seatingSelect(id) {
    const variant = variantOf(this.variant);
    if (variant.seatings.length < 2) return null;
    const chosen = this.seating[this.variant] || seatingKey(variant.seatings[0]);
    return h("label", { class: "inline-field" },
      h("span", null, t("lobby.seating.label")),
      h("select", {
        id,
        on: { change: (e) => { this.seating[this.variant] = e.target.value; this.prefs(); } },
      }, variant.seatings.map((s) => h("option", { value: seatingKey(s), selected: seatingKey(s) === chosen }, t(`seating.${seatingKey(s)}`)))));
  }

  tableOptions(extra = {}) {
    const variant = variantOf(this.variant);
    const key = this.seating[this.variant] || seatingKey(variant.seatings[0]);
    const seating = variant.seatings.find((s) => seatingKey(s) === key) || variant.seatings[0];
    return { variant: this.variant, players: seating.players, teams: seating.teams, ...extra };
  }

  playCard() {
    const busy = (name) => this.busy === name;
    const levelGroup = h("div", { class: "segmented", role: "radiogroup", "aria-label": t("lobby.bot.level") },
      botLevels().map((level) => h("label", { class: ["seg", this.level === level && "on"] },
        h("input", { type: "radio", name: "level", value: level, checked: this.level === level, on: { change: () => { this.level = level; this.prefs(); this.render(); this.container.querySelector(`input[name=level][value=${level}]`)?.focus(); } } }),
        h("span", null, t(`bot.level.${level}`)))));
    const bot = h("div", { class: "play-option bot-option" },
      h("h3", null, t("lobby.bot.title")),
      h("p", { class: "muted" }, t("lobby.bot.text")),
      levelGroup,
      this.seatingSelect("bot-seating"),
      h("button", { type: "button", class: "btn primary big", id: "play-bot", disabled: !!this.busy, on: { click: () => this.playBot() } },
        busy("bot") ? spinner() : null, t("lobby.bot.start")));
    const quick = h("div", { class: "play-option quick-option", "aria-live": "polite" }, this.quick.content());
    const priv = h("div", { class: "play-option private-option" },
      h("h3", null, t("lobby.private.title")),
      h("p", { class: "muted" }, t("lobby.private.text")),
      this.seatingSelect("private-seating"),
      h("button", { type: "button", class: "btn big", id: "create-private", disabled: !!this.busy, on: { click: () => this.createPrivate() } },
        busy("private") ? spinner() : null, t("lobby.private.create")));
    const code = h("input", { id: "invite-code", type: "text", autocomplete: "off", autocapitalize: "characters", spellcheck: "false", maxlength: 40, placeholder: t("lobby.join.placeholder") });
    const join = h("form", { class: "play-option join-option", on: { submit: (e) => { e.preventDefault(); this.joinCode(code.value); } } },
      h("h3", null, h("label", { for: "invite-code" }, t("lobby.join.title"))),
      h("div", { class: "row" }, code, h("button", { type: "submit", class: "btn", disabled: !!this.busy }, t("lobby.join.button"))),
      this.joinError ? h("p", { class: "field-error", role: "alert" }, this.joinError) : null);
    return h("section", { class: "card-box play", "aria-labelledby": "play-title" },
      h("h2", { id: "play-title" }, t("lobby.play.title", { variant: t(`variant.${this.variant}.name`) })),
      h("div", { class: "play-options" }, bot, quick, priv, join));
  }

  renderRecent() {
    const box = this.recentBox;
    if (!box) return;
    const items = (this.history || []).slice(0, 4);
    replace(box,
      h("h2", { id: "recent-title" }, t("lobby.recent.title")),
      !this.player ? h("p", { class: "muted" }, t("lobby.recent.no_player"))
        : this.history === null ? h("p", { class: "muted" }, spinner())
          : items.length ? h("ul", { class: "history-list compact" }, items.map((m) => historyItem(m))) : h("p", { class: "muted" }, t("lobby.recent.none")),
      this.player ? link("/history", { class: "more" }, t("lobby.recent.all")) : null);
  }

  inviteCard() {
    const code = this.params.join;
    const box = h("section", { class: "card-box invite-box", "aria-labelledby": "invite-title" },
      h("h2", { id: "invite-title" }, t("lobby.invite.title")),
      h("p", null, t("lobby.invite.text", { code })));
    if (!this.checked || this.busy === "join") {
      box.append(h("p", { class: "muted" }, spinner(), " ", t("lobby.invite.joining")));
    } else if (this.joinError) {
      box.append(h("p", { class: "field-error", role: "alert" }, this.joinError), link("/", { class: "btn" }, t("nav.lobby")));
    } else if (!this.player) {
      box.append(this.nameForm(() => this.join(code)));
    }
    return box;
  }

  // ---------------------------------------------------------------- actions

  async act(name, fn) {
    if (this.busy) return;
    if (!(await this.ensurePlayer())) return;
    this.busy = name;
    this.render();
    try {
      await fn();
    } catch (err) {
      toast(errorText(err), "error");
    } finally {
      this.busy = "";
      if (!this.destroyed) this.render();
    }
  }

  playBot() {
    return this.act("bot", async () => {
      const answer = await api.playBot(this.tableOptions({ bot_level: this.level }));
      navigate(`/table/${encodeURIComponent(answer.table.id)}`);
    });
  }

  createPrivate() {
    return this.act("private", async () => {
      const answer = await api.createPrivate(this.tableOptions({ bot_level: this.level }));
      navigate(`/table/${encodeURIComponent(answer.table.id)}`);
    });
  }

  joinCode(raw) {
    let code = String(raw || "").trim();
    const match = code.match(/\/join\/([^/?#\s]+)/);
    if (match) code = match[1];
    if (!code) return;
    this.joinError = "";
    return this.act("join", async () => {
      try {
        const answer = await api.join(code);
        navigate(`/table/${encodeURIComponent(answer.table.id)}`);
      } catch (err) {
        this.joinError = errorText(err);
      }
    });
  }

  async join(code) {
    this.busy = "join";
    this.render();
    try {
      const answer = await api.join(code);
      navigate(`/table/${encodeURIComponent(answer.table.id)}`, { replace: true });
    } catch (err) {
      this.busy = "";
      this.joinError = errorText(err);
      if (!this.destroyed) this.render();
    }
  }
}
