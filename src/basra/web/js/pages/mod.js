// /mod, for moderators (issue 31; anyone else is told the page is theirs only): three tabs —
// the report queue (mod/queue.js) beside the file of the player chosen (mod/dossier.js,
// with its actions: mod/actions.js), the moderators' log and the words of the names' list
// (mod/lists.js). Each part is redrawn on its own, the focus kept by id (or by a button's
// data-focus-key); side by side on a wide screen, one under the other on a phone (opening
// a file moves the focus to its heading).

import { h, replace } from "../lib/dom.js";
import { isRTL, t } from "../lib/i18n.js";
import { me, request } from "../lib/api.js";
import { announce, errorText, loadStyle, spinner, toast } from "../lib/ui.js";
import { isModerator } from "../lib/standing.js";
import { renderQueue } from "../mod/queue.js";
import { renderDossier } from "../mod/dossier.js";
import { actionDialog } from "../mod/actions.js";
import { renderLog, renderWords } from "../mod/lists.js";

const STYLES = ["../../css/mod.css", "../../css/overlay.css"].map((path) => new URL(path, import.meta.url));
const TABS = ["reports", "log", "words"];
const LOG_PAGE = 50;

export function mount(container) {
  const page = new ModPage(container);
  page.start();
  return { unmount: () => { page.alive = false; }, relabel: () => page.render() };
}

class ModPage {
  constructor(container) {
    Object.assign(this, { container, alive: true, checked: false, allowed: false, tab: "reports", busy: "" });
    Object.assign(this, { status: "open", reports: null, openCount: null, queueError: "" });
    Object.assign(this, { fileId: null, file: null, fileError: "", reportCtx: null, refunds: null });
    Object.assign(this, { log: null, logMore: true, logError: "", words: null, wordDraft: "", wordError: "" });
    this.parts = {};
  }

  async start() {
    this.container.classList.add("page", "mod-page");
    this.render();
    let player = null;
    try { [player] = await Promise.all([me(), ...STYLES.map(loadStyle)]); } catch { player = null; }
    if (!this.alive) return;
    this.checked = true;
    this.allowed = isModerator(player);
    this.render();
    if (this.allowed) this.loadReports();
  }

  // ---------------------------------------------------------------- drawing

  render() {
    if (!this.alive) return;
    const c = this.container;
    const title = h("h1", null, t("mod.title"));
    if (!this.checked) { replace(c, title, h("p", { class: "muted" }, spinner(), " ", t("lobby.loading"))); return; }
    if (!this.allowed) { replace(c, title, h("p", { class: "mod-denied" }, t("error.fairplay.not_moderator"))); return; }
    const p = this.parts;
    p.tabs = h("div", { class: "mod-tabs", role: "tablist", "aria-label": t("mod.title"), on: { keydown: (e) => this.tabKey(e) } });
    p.queue = h("div", { class: "mod-queue" });
    p.file = h("section", { class: "mod-file", "aria-labelledby": "mod-file-title" });
    p.log = h("div", { class: "mod-log-part" });
    p.words = h("div", { class: "mod-words-part" });
    const panel = (tab, ...children) => h("div", { role: "tabpanel", id: `mod-panel-${tab}`, "aria-labelledby": `mod-tab-${tab}`, class: `mod-panel mod-panel-${tab}`, hidden: this.tab !== tab }, ...children);
    replace(c, title, p.tabs,
      panel("reports", h("div", { class: "mod-split" }, p.queue, p.file)),
      panel("log", p.log),
      panel("words", p.words));
    for (const part of ["tabs", "queue", "file", "log", "words"]) this.draw(part);
  }

  draw(part) {
    const box = this.parts[part];
    if (!box || !box.isConnected) return;
    const active = document.activeElement;
    const held = active && box.contains(active) ? (active.id ? `#${CSS.escape(active.id)}` : active.dataset.focusKey ? `[data-focus-key="${CSS.escape(active.dataset.focusKey)}"]` : "") : "";
    const drawn = { tabs: () => this.tabs(), queue: () => renderQueue(this), file: () => renderDossier(this), log: () => renderLog(this), words: () => renderWords(this) }[part]();
    replace(box, drawn);
    if (held) box.querySelector(held)?.focus({ preventScroll: true });
  }

  tabs() {
    return TABS.map((tab) => h("button", {
      type: "button", role: "tab", id: `mod-tab-${tab}`, class: "mod-tab", "aria-selected": tab === this.tab ? "true" : "false",
      "aria-controls": `mod-panel-${tab}`, tabindex: tab === this.tab ? "0" : "-1", on: { click: () => this.show(tab) },
    }, t(`mod.tab.${tab}`), tab === "reports" && this.openCount ? [" ", h("span", { class: "mod-count", "aria-hidden": "true" }, `${this.openCount}${this.openMore ? "+" : ""}`)] : null));
  }

  /** The tabs' keys: the arrows move along them (mirrored right to left), Home and End. */
  tabKey(event) {
    const at = TABS.indexOf(this.tab);
    const step = { ArrowRight: isRTL() ? -1 : 1, ArrowLeft: isRTL() ? 1 : -1 }[event.key];
    let next = null;
    if (step) next = TABS[(at + step + TABS.length) % TABS.length];
    else if (event.key === "Home") next = TABS[0];
    else if (event.key === "End") next = TABS[TABS.length - 1];
    if (!next) return;
    event.preventDefault();
    this.show(next);
    document.getElementById(`mod-tab-${next}`)?.focus();
  }

  show(tab) {
    if (tab === this.tab) return;
    this.tab = tab;
    for (const name of TABS) {
      const panel = document.getElementById(`mod-panel-${name}`);
      if (panel) panel.hidden = name !== tab;
    }
    this.draw("tabs");
    if (tab === "log" && this.log === null) this.loadLog(false);
    if (tab === "words" && this.words === null) this.loadWords();
  }

  // ---------------------------------------------------------------- the queue and a file

  async loadReports() {
    try {
      const answer = await request("GET", `/api/mod/reports?status=${encodeURIComponent(this.status)}&limit=50`);
      this.reports = answer.reports || [];
      this.openCount = Number.isInteger(answer.open) ? answer.open : this.openCount;
      this.openMore = !!answer.open_more;
      this.queueError = "";
    } catch (err) {
      this.queueError = errorText(err);
    }
    if (!this.alive) return;
    this.draw("queue");
    this.draw("tabs");
  }

  setStatus(status) {
    this.status = status;
    this.reports = null;
    this.draw("queue");
    this.loadReports();
  }

  /** Open a player's file (`report`: the one it was opened from, or null). */
  async openDossier(id, report, { focus = true } = {}) {
    const other = id !== this.fileId;
    this.fileId = id;
    this.reportCtx = report || (other ? null : this.reportCtx);
    if (other) { this.file = null; this.refunds = null; }
    this.fileError = "";
    this.draw("queue");
    if (this.tab !== "reports") this.show("reports");
    this.draw("file");
    if (focus) this.focusFile();
    try {
      const file = await request("GET", `/api/mod/players/${encodeURIComponent(id)}`);
      if (this.fileId !== id) return;
      this.file = file;
    } catch (err) {
      if (this.fileId !== id) return;
      this.fileError = errorText(err);
    }
    if (!this.alive) return;
    this.draw("file");
    if (focus) this.focusFile();
  }

  focusFile() {
    const heading = document.getElementById("mod-file-title");
    if (!heading) return;
    heading.focus({ preventScroll: true });
    const top = heading.getBoundingClientRect().top;
    if (top < 60 || top > window.innerHeight - 80) heading.scrollIntoView({ block: "start" });
  }

  /** An action on the file open: asked, done, then the file, the queue and the log again. */
  async act(action) {
    if (!this.file) return;
    const answer = await actionDialog(action, this.file, this.reportCtx);
    if (!answer || !this.alive) return;
    if (action === "ban") this.refunds = answer.refunds || [];
    // The standing the server answered, at once (the whole file follows).
    if (answer.standing && this.file) this.file = { ...this.file, standing: answer.standing };
    const done = t("mod.action.done", { action: t(`mod.log.${action}`) });
    toast(done, "info");
    announce(done);
    if (this.reportCtx) this.reportCtx = { ...this.reportCtx, status: action === "dismiss" ? "dismissed" : "actioned" };
    if (this.log !== null) { this.log = null; this.loadLog(false); }
    this.loadReports();
    await this.openDossier(this.fileId, this.reportCtx, { focus: false });
    // The focus goes back to the file's first action (the button pressed may be gone).
    const button = this.container.querySelector(`.mod-act-${action}`) || this.container.querySelector(".mod-actions button") || document.getElementById("mod-file-title");
    if (button) button.focus();
  }

  // ---------------------------------------------------------------- the log and the words

  async loadLog(older) {
    if (this.busy) return;
    const before = older && this.log && this.log.length ? this.log[this.log.length - 1].id : null;
    this.busy = "log";
    if (older) this.draw("log");
    try {
      const answer = await request("GET", `/api/mod/log?limit=${LOG_PAGE}${before !== null && before !== undefined ? `&before=${encodeURIComponent(before)}` : ""}`);
      const entries = answer.log || [];
      this.log = older ? [...(this.log || []), ...entries] : entries;
      this.logMore = entries.length >= LOG_PAGE;
      this.logError = "";
    } catch (err) {
      this.logError = errorText(err);
    }
    this.busy = "";
    if (!this.alive) return;
    const shown = older ? this.container.querySelectorAll(".mod-log-part .mod-log > li").length : 0;
    this.draw("log");
    // "Older" gone (the log's start reached): the focus goes to the first entry it brought.
    if (older && !document.getElementById("mod-log-older")) {
      const first = this.container.querySelectorAll(".mod-log-part .mod-log > li")[shown];
      if (first) { first.tabIndex = -1; first.focus(); }
    }
  }

  async loadWords() {
    try {
      this.words = (await request("GET", "/api/mod/words")).words || [];
    } catch (err) {
      this.words = [];
      this.wordError = errorText(err);
    }
    if (this.alive) this.draw("words");
  }

  async changeWord(method, path, body, done) {
    if (this.busy) return false;
    this.busy = "word";
    this.wordError = "";
    this.draw("words");
    let ok = false;
    try {
      await request(method, path, body);
      ok = true;
      announce(done);
    } catch (err) {
      this.wordError = errorText(err);
    }
    this.busy = "";
    await this.loadWords();
    return ok;
  }

  async addWord(word) {
    const text = String(word || "").trim();
    if (!text) { this.wordError = t("mod.words.empty_word"); this.draw("words"); document.getElementById("mod-word")?.focus(); return; }
    if (await this.changeWord("POST", "/api/mod/words", { word: text }, t("mod.words.added", { word: text }))) this.wordDraft = "";
    this.draw("words");
    document.getElementById("mod-word")?.focus();
  }

  async removeWord(word) {
    await this.changeWord("DELETE", `/api/mod/words/${encodeURIComponent(word)}`, undefined, t("mod.words.removed", { word }));
    document.getElementById("mod-word")?.focus();
  }
}
