// The lobby: who you are (a guest with a remembered nickname), which variant, and the ways
// to a table: a bot, a quick match, a private table with an invite link, a code. Also the
// landing page of an invite link (/join/CODE) and a short match history.

import { h, replace } from "./dom.js";
import { t, num, dateTime } from "./i18n.js";
import { api, me, session, signIn, recordUrl } from "./api.js";
import { cardFace } from "./cards.js";
import { BOT_LEVELS, VARIANT_NAMES, variantOf } from "./variants.js";
import { announce, errorText, link, navigate, playerName, toast, spinner } from "./ui.js";

const PREFS = "basra.prefs";
const REQUEUED = "basra.requeued";
/** Seconds one long poll of a quick-match ticket waits (the server allows 30). The ticket
 * lapses a few seconds after its owner stops waiting, so a new poll follows at once. A poll
 * only ends early on a match, so until the bot offer is shown the polls are short: the offer
 * comes with an answer. */
/** A long poll's seconds: the server answers sooner on a match or when a bot is offered. */
const QUICK_WAIT = 25;
const QUICK_RETRY_MS = 700;

/** Hand a quick-match ticket to the lobby (the table's matched opponent never came): the
 * lobby opens on the waiting view for it, with the bot offer and a word on why. */
export function resumeQuickMatch(info) {
  try { sessionStorage.setItem(REQUEUED, JSON.stringify({ ...info, at: Date.now() })); } catch { /* ignore */ }
}

function takeRequeued() {
  let info = null;
  try {
    info = JSON.parse(sessionStorage.getItem(REQUEUED) || "null");
    sessionStorage.removeItem(REQUEUED);
  } catch { info = null; }
  return info && info.ticket && Date.now() - info.at < 60000 ? info : null;
}

function loadPrefs() {
  try { return JSON.parse(localStorage.getItem(PREFS) || "{}"); } catch { return {}; }
}

function savePrefs(prefs) {
  try { localStorage.setItem(PREFS, JSON.stringify(prefs)); } catch { /* ignore */ }
}

export function seatingKey([players, teams]) {
  return teams ? `${players}t` : String(players);
}

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
    this.variant = VARIANT_NAMES.includes(prefs.variant) ? prefs.variant : "egyptian";
    this.level = BOT_LEVELS.includes(prefs.level) ? prefs.level : "medium";
    this.seating = prefs.seating || {};
    this.player = null;
    this.checked = false;
    this.editingName = false;
    this.nameError = "";
    this.busy = "";
    this.quick = null;
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
      if (VARIANT_NAMES.includes(requeued.variant)) this.variant = requeued.variant;
      this.startWaiting({ ticket: requeued.ticket, since: Date.now(), offer: requeued.offer !== false, variant: this.variant, status: "waiting", notice: "requeued" });
      announce(t("lobby.quick.requeued"));
    }
    this.render();
    if (this.params.notFound) toast(t("lobby.not_found"), "info");
    this.loadHistory();
  }

  destroy() {
    this.destroyed = true;
    clearInterval(this.quickTimer);
    if (this.quick && this.quick.ticket && this.quick.status === "waiting") {
      api.quickLeave(this.quick.ticket).catch(() => null);
    }
    this.quick = null;
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
    const fan = ["JS", "2C", "10D"].map((card, i) => h("div", { class: `hero-card hero-card-${i}` }, cardFace(card, "egyptian")));
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
      id: "nickname", name: "nickname", type: "text", autocomplete: "nickname", minlength: 2, maxlength: 20,
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
    if (Array.from(nickname).length < 2 || Array.from(nickname).length > 20) {
      this.nameError = t("error.guest.bad_nickname");
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
    const options = VARIANT_NAMES.map((name) => {
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
    return { variant: this.variant, players: seating[0], teams: seating[1], ...extra };
  }

  playCard() {
    const busy = (name) => this.busy === name;
    const levelGroup = h("div", { class: "segmented", role: "radiogroup", "aria-label": t("lobby.bot.level") },
      BOT_LEVELS.map((level) => h("label", { class: ["seg", this.level === level && "on"] },
        h("input", { type: "radio", name: "level", value: level, checked: this.level === level, on: { change: () => { this.level = level; this.prefs(); this.render(); this.container.querySelector(`input[name=level][value=${level}]`)?.focus(); } } }),
        h("span", null, t(`bot.level.${level}`)))));
    const bot = h("div", { class: "play-option bot-option" },
      h("h3", null, t("lobby.bot.title")),
      h("p", { class: "muted" }, t("lobby.bot.text")),
      levelGroup,
      this.seatingSelect("bot-seating"),
      h("button", { type: "button", class: "btn primary big", id: "play-bot", disabled: !!this.busy, on: { click: () => this.playBot() } },
        busy("bot") ? spinner() : null, t("lobby.bot.start")));
    const quick = h("div", { class: "play-option quick-option", "aria-live": "polite" }, this.quickContent());
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

  quickContent() {
    const q = this.quick;
    if (!q) {
      return [
        h("h3", null, t("lobby.quick.title")),
        h("p", { class: "muted" }, t("lobby.quick.text", { variant: t(`variant.${this.variant}.name`) })),
        h("button", { type: "button", class: "btn big", id: "quick-match", disabled: !!this.busy, on: { click: () => this.quickMatch() } }, t("lobby.quick.start")),
      ];
    }
    const seconds = Math.floor((Date.now() - q.since) / 1000);
    const time = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
    return [
      h("h3", null, t("lobby.quick.title")),
      q.notice ? h("p", { class: "notice quick-notice", dataset: { notice: q.notice } }, t(`lobby.quick.${q.notice}`)) : null,
      h("p", { class: "waiting-line" }, spinner(), " ", t("lobby.quick.waiting", { variant: t(`variant.${q.variant}.name`) }), " ", h("span", { class: "elapsed" }, time)),
      q.offer ? h("div", { class: "offer" },
        q.notice ? null : h("p", null, t("lobby.quick.offer")),
        h("button", { type: "button", class: "btn primary", id: "quick-bot", on: { click: () => this.quickBot() } }, t("lobby.quick.take_bot", { level: t(`bot.level.${this.level}`) }))) : null,
      h("button", { type: "button", class: "btn ghost", id: "quick-cancel", on: { click: () => this.quickCancel() } }, t("lobby.quick.cancel")),
    ];
  }

  renderQuick() {
    const box = this.container.querySelector(".quick-option");
    if (box) replace(box, this.quickContent());
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

  quickMatch() {
    return this.act("quick", async () => {
      const answer = await api.quickMatch(this.variant);
      if (answer.status === "matched" && answer.table) {
        navigate(`/table/${encodeURIComponent(answer.table)}`);
        return;
      }
      this.startWaiting({ ticket: answer.ticket, since: Date.now(), offer: answer.bot_offer, variant: this.variant, status: answer.status });
    });
  }

  /** Wait on a ticket: one long poll open at all times, and the elapsed time ticking. */
  startWaiting(q) {
    this.quick = q;
    clearInterval(this.quickTimer);
    this.pollQuick();
    this.quickTimer = setInterval(() => {
      if (this.destroyed || !this.quick) { clearInterval(this.quickTimer); return; }
      const el = this.container.querySelector(".quick-option .elapsed");
      if (el) {
        const seconds = Math.floor((Date.now() - this.quick.since) / 1000);
        el.textContent = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
      }
    }, 1000);
  }

  async pollQuick() {
    while (this.quick && !this.destroyed) {
      const q = this.quick;
      let answer;
      try {
        answer = await api.quickWait(q.ticket, QUICK_WAIT);
      } catch (err) {
        if (this.quick !== q) return;
        if (err.code === "queue/not_found") {
          this.quick = null;
          clearInterval(this.quickTimer);
          this.render();
          toast(t("lobby.quick.lapsed"), "info");
          return;
        }
        // Ask again soon: the ticket lapses a few seconds after the last poll.
        await new Promise((r) => setTimeout(r, QUICK_RETRY_MS));
        continue;
      }
      if (this.quick !== q) return;
      q.status = answer.status;
      if (answer.status === "matched" && answer.table) {
        navigate(`/table/${encodeURIComponent(answer.table)}`);
        return;
      }
      if (answer.bot_offer && !q.offer) {
        q.offer = true;
        this.renderQuick();
      }
    }
  }

  async quickCancel() {
    const q = this.quick;
    this.quick = null;
    clearInterval(this.quickTimer);
    this.render();
    if (q) await api.quickLeave(q.ticket).catch(() => null);
  }

  async quickBot() {
    const q = this.quick;
    if (!q) return;
    try {
      const answer = await api.quickBot(q.ticket, this.level);
      this.quick = null;
      navigate(`/table/${encodeURIComponent(answer.table)}`);
    } catch (err) {
      toast(errorText(err), "error");
    }
  }
}

/** One finished match in a history list (shared with the history page). */
export function historyItem(m) {
  const mySide = m.teams ? m.seat % 2 : m.seat;
  const result = m.winner === null || m.winner === undefined ? "draw" : m.winner === mySide ? "won" : "lost";
  const all = m.players.map((name, seat) => ({ name, seat, kind: String(name).startsWith("bot:") ? "bot" : "human" }));
  const names = all.map((player, seat) => (seat === m.seat ? t("seat.you") : playerName(player, all)));
  const opponents = names.filter((_, seat) => seat !== m.seat);
  return h("li", { class: ["history-item", result], dataset: { table: m.table } },
    h("span", { class: ["result-badge", result] }, t(`history.${result}`)),
    h("div", { class: "history-main" },
      h("div", { class: "history-title" },
        h("strong", null, t(`variant.${m.variant}.name`)), " · ",
        h("span", null, t("history.vs", { names: opponents.join(t("list.sep")) }))),
      h("div", { class: "history-meta muted" },
        h("span", { class: "history-score" }, m.totals.map((n) => num(n)).join(" – ")), " · ",
        h("time", { datetime: m.finished_at }, dateTime(m.finished_at)))),
    h("a", { class: "btn small", href: m.record || recordUrl(m.table), download: `basra-${m.table}.json`, "aria-label": t("history.download_label", { variant: t(`variant.${m.variant}.name`), date: dateTime(m.finished_at) }) }, t("history.download")));
}
