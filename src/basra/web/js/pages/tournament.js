// /tournament/ID: one event (docs/PROTOCOL.md, "Tournaments"). Its socket
// (/ws/tournaments/ID, with the player's hello when they have a token: their open page is
// what makes them present, so paired) gives the event and one page of its standings first,
// then its news, applied by tournament/model.js: that page whenever its rows change (another
// page when asked for: the pages' buttons, "My place"), the matches of the best placed, this
// player's own row, the event itself. The page: the head (name, marks, the countdown to the start or the end, or the
// round; after the end, until when the results are provisional), Join / Withdraw / Pause
// (a password asked first when the event has one; a visitor becomes a guest on the way),
// the matches being played now (one click to watch), the standings (tournament/standings.js)
// and, once it is over, the podium and the full results (GET .../results). When this
// player is paired the page opens their table at once (said in a live region too); a
// reconnect that finds them at a table they have not finished goes there as well. A join
// refused for a leaver's wait shows the wait ticking (lib/standing.js).

import { h, morph, replace } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { TournamentSocket } from "../lib/socket.js";
import { cachedMe, me, onSession, request, session, signIn } from "../lib/api.js";
import { announce, loadStyle, navigate, setPageTitle, spinner } from "../lib/ui.js";
import { fairplayRefusal, leaverNotice } from "../lib/standing.js";
import * as M from "../tournament/model.js";
import { myRow, rememberEntrant, wasLeft } from "../tournament/mine.js";
import { eventChips, provisional, refusalText, standingTag, timeOfDay } from "../tournament/words.js";
import { pageLink, renderPlaying, renderPodium, renderResults, renderStandings } from "../tournament/standings.js";

const STYLE = new URL("../../css/tournament.css", import.meta.url);

export function mount(container, params) {
  const page = new EventPage(container, String(params.id || ""));
  page.start();
  return { unmount: () => page.destroy(), relabel: () => page.build() };
}

class EventPage {
  constructor(container, id) {
    Object.assign(this, { container, id, st: M.initialState(), socket: null, el: null, destroyed: false });
    this.missing = false;
    this.connection = "connecting";
    this.busy = false;
    this.error = "";
    this.asking = false;  // the password form is open
    this.override = null;  // {entrant, status} a join or a leave answered, until the row comes
    this.results = null;
    this.loadingResults = false;
    this.said = "";  // the live region's words ("You are paired")
    this.onClick = (event) => this.click(event);
    this.onSubmit = (event) => this.submit(event);
  }

  start() {
    this.container.classList.add("page", "tour-page");
    this.container.addEventListener("click", this.onClick);
    this.container.addEventListener("submit", this.onSubmit);
    this.build();
    loadStyle(STYLE);
    this.unlisten = onSession(() => { if (this.socket && this.socket.token !== session.token) this.connect(); this.draw(); });
    this.ticker = setInterval(() => this.drawHead(), 1000);
    if (session.token) me().catch(() => null).finally(() => this.connect());
    else this.connect();
  }

  destroy() {
    this.destroyed = true;
    clearInterval(this.ticker);
    this.container.removeEventListener("click", this.onClick);
    this.container.removeEventListener("submit", this.onSubmit);
    if (this.unlisten) this.unlisten();
    if (this.socket) this.socket.close();
    if (window.basraEvent === this.socket) delete window.basraEvent;
  }

  /** (Re)open the event's socket with the session held now. */
  connect() {
    if (this.destroyed) return;
    if (this.socket) this.socket.close();
    const socket = new TournamentSocket(this.id, session.token, {
      onMessage: (m) => { if (socket === this.socket) this.message(m); },
      onStatus: (status) => { if (socket === this.socket) this.status(status); },
    });
    this.socket = socket;
    socket.connect();
    window.basraEvent = socket;  // the tests drop it as a network failure would
  }

  // ---------------------------------------------------------------- drawing

  /** The page's skeleton (again in a new language), then every region. */
  build() {
    const section = (key, title) => {
      const body = h("div", { class: `tour-${key}-body` });
      const el = h("section", { class: ["tour-section", `tour-${key}-section`], "aria-labelledby": `tour-${key}-title` },
        h("h2", { id: `tour-${key}-title` }, title), body);
      return { el, body };
    };
    const now = section("now", t("tournament.playing_now"));
    const standings = section("standings", t("tournament.standings"));
    const podium = section("podium", t("tournament.podium"));
    const results = section("results", t("tournament.results"));
    this.el = {
      head: h("header", { class: "tour-head" }), actions: h("div", { class: "tour-actions" }),
      said: h("p", { class: "tour-said", role: "status", "aria-live": "assertive" }),
      now, standings, podium, results,
    };
    replace(this.container, this.el.head, this.el.said, this.el.actions, podium.el, now.el, standings.el, results.el);
    this.draw();
  }

  draw() {
    if (this.destroyed || !this.el) return;
    const { el, st } = this;
    this.drawHead();
    this.el.said.textContent = this.said;
    morph(el.actions, this.actions());
    const event = st.event;
    const over = !!event && ["finished", "cancelled"].includes(event.status);
    el.now.el.hidden = !event || event.status !== "running";
    el.podium.el.hidden = !event || event.status !== "finished" || !st.standings.length;
    el.results.el.hidden = !over;
    el.standings.el.hidden = !event;
    morph(el.now.body, h("div", { class: "tour-now-body" }, renderPlaying(st)));
    morph(el.standings.body, h("div", { class: "tour-standings-body" }, renderStandings(st, { mine: this.mine() })));
    if (!el.podium.el.hidden) morph(el.podium.body, h("div", { class: "tour-podium-body" }, renderPodium(st, this.results && this.results.podium)));
    if (over) morph(el.results.body, h("div", { class: "tour-results-body" }, renderResults(st, this.results)));
  }

  drawHead() {
    if (this.destroyed || !this.el) return;
    const event = this.st.event;
    let body;
    if (this.missing) {
      body = [h("h1", null, t("tournament.title")), h("p", { class: "field-error", role: "alert" }, t("tournament.not_found")),
        pageLink("/tournaments", { class: "btn" }, t("tournament.all"))];
    } else if (!event) {
      body = [h("h1", null, t("tournament.title")), h("p", { class: "muted" }, spinner(), " ", t("lobby.loading"))];
    } else {
      setPageTitle(t("tournament.page_title", { name: event.name }));
      const now = Date.now();
      const times = [];
      if (event.status === "upcoming") times.push(t("tournament.starts_at", { time: timeOfDay(event.starts_at) }));
      if (event.ends_at && event.status !== "finished") times.push(t("tournament.ends_at", { time: timeOfDay(event.ends_at) }));
      if (event.finished_at) times.push(t("tournament.ended_at", { time: timeOfDay(event.finished_at) }));
      body = [
        h("p", { class: "tour-crumbs" }, pageLink("/tournaments", null, t("tournament.all"))),
        h("h1", { class: "tour-title" }, h("bdi", null, event.name)),
        h("p", { class: "tour-chips" }, eventChips(event)),
        standingTag(event, now, { class: "tour-big-when" }),
        times.length ? h("p", { class: "tour-times muted" }, times.join(" · ")) : null,
        provisional(event, now) ? h("p", { class: "tour-provisional", dataset: { until: event.final_at } }, t("tournament.provisional", { time: timeOfDay(event.final_at) })) : null,
        this.connection === "reconnecting" ? h("p", { class: "tour-conn", role: "status" }, t("conn.lost")) : null,
      ];
    }
    morph(this.el.head, h("header", { class: "tour-head" }, body));
  }

  /** This player's row (with what a join or leave just answered), or null: the one the
   * server said is theirs (`mine`), else theirs among the rows shown. */
  mine() {
    const me_ = cachedMe();
    const row = this.st.mine || myRow(M.rows(this.st), { player: session.playerId, tournament: this.id, username: me_ && me_.username });
    if (this.override && (!row || row.entrant === this.override.entrant)) {
      return { ...(row || { entrant: this.override.entrant, playing: false }), status: this.override.status };
    }
    return row;
  }

  actions() {
    const event = this.st.event;
    const box = (...children) => h("div", { class: "tour-actions" }, ...children);
    if (!event) return box();
    const open = event.status === "upcoming" || (event.status === "running"
      && !(event.format === "swiss" && event.rounds && event.round >= event.rounds));
    const mine = this.mine();
    const wait = this.error && this.errorCode === "fairplay/leaver_wait" ? leaverNotice(cachedMe()) : null;
    const error = wait || (this.error ? h("p", { class: "field-error tour-error", role: "alert" }, this.error) : null);
    const table = mine && mine.table;
    const parts = [];
    if (table) parts.push(pageLink(`/table/${encodeURIComponent(table)}`, { class: "btn primary tour-mine" }, t("tournament.your_table")));
    if (!open) return box(parts, error);
    const me_ = cachedMe();
    const account = !!(me_ && me_.account);
    const active = mine && mine.status === "active";
    if (active) {
      parts.push(h("p", { class: "tour-in" }, t(event.status === "running" ? "tournament.in_running" : "tournament.in_upcoming")));
      const buttons = [h("button", { type: "button", class: "btn", disabled: this.busy, dataset: { action: "withdraw" } }, t("tournament.withdraw"))];
      if (event.format === "arena") buttons.push(h("button", { type: "button", class: "btn ghost", disabled: this.busy, dataset: { action: "pause" } }, t("tournament.pause")));
      parts.push(h("div", { class: "tour-buttons" }, buttons));
    } else if ((event.rated || event.min_rating !== null || event.max_rating !== null) && !account) {
      parts.push(h("p", { class: "tour-note" }, t(event.rated ? "tournament.rated_needs_account" : "tournament.range_needs_account"), " ",
        pageLink(`/account?next=${encodeURIComponent(`/tournament/${this.id}`)}`, null, t("rated.create_account"))));
    } else if (this.asking) {
      parts.push(h("form", { class: "tour-password", dataset: { form: "join" } },
        h("label", { for: "tour-password" }, t("tournament.password")),
        h("div", { class: "row" },
          h("input", { type: "password", id: "tour-password", name: "password", required: true, autocomplete: "off", maxlength: "64" }),
          h("button", { type: "submit", class: "btn primary", disabled: this.busy }, t("tournament.join"))),
        h("button", { type: "button", class: "btn ghost small", dataset: { action: "cancel" } }, t("tournament.cancel"))));
    } else {
      const again = mine && mine.status !== "active";
      if (again) parts.push(h("p", { class: "tour-in muted" }, t(`tournament.you_${mine.status}`)));
      parts.push(h("button", { type: "button", class: "btn primary big tour-join", disabled: this.busy, dataset: { action: "join" } },
        t(again ? "tournament.join_again" : "tournament.join")));
    }
    return box(parts, error);
  }

  // ---------------------------------------------------------------- the server

  status(status) {
    if (this.destroyed) return;
    if (status === "gone") this.missing = true;
    this.connection = status === "reconnecting" && this.st.event ? "reconnecting" : status;
    this.draw();
  }

  message(m) {
    if (this.destroyed) return;
    if (m.type === "error") {
      if (m.code === "tournament/not_found") this.missing = true;
      this.draw();
      return;
    }
    if (m.type === "paired") {
      if (m.tournament === this.id) this.toTable(m.table);
      return;
    }
    const before = this.st;
    this.st = M.receive(before, m);
    if (this.st === before) return;
    if (this.override && ((m.type === "mine" && m.row && m.row.entrant === this.override.entrant)
      || (m.type === "standings" && (m.rows || []).some((row) => row.entrant === this.override.entrant && row.status === this.override.status)))) this.override = null;
    if (m.type === "mine" && this.st.connections > 1 && !this.backChecked) {
      // Back after a drop (the own row follows the first message): a pairing told
      // meanwhile was missed, so a table of this player's that they have not finished is
      // theirs to go to.
      this.backChecked = true;
      const table = m.row && m.row.table;
      if (table && !wasLeft(table)) { this.toTable(table); return; }
    }
    if (m.type === "tournament") this.backChecked = false;
    const event = this.st.event;
    if (event && ["finished", "cancelled"].includes(event.status) && !this.results && !this.loadingResults) this.loadResults();
    this.draw();
  }

  /** This player's table is ready: say so, and open it. */
  toTable(table) {
    this.said = t("tournament.paired");
    announce(this.said);
    this.draw();
    navigate(`/table/${encodeURIComponent(table)}`);
  }

  async loadResults() {
    this.loadingResults = true;
    try {
      this.results = await request("GET", `/api/tournaments/${encodeURIComponent(this.id)}/results`);
    } catch {
      this.results = { rounds: [], podium: [], failed: true };
    }
    this.loadingResults = false;
    this.draw();
  }

  // ---------------------------------------------------------------- the player

  click(event) {
    const a = event.target.closest ? event.target.closest("a[data-nav]") : null;
    if (a && this.container.contains(a)) {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      navigate(a.getAttribute("href"));
      return;
    }
    const button = event.target.closest ? event.target.closest("button[data-action]") : null;
    if (!button || !this.container.contains(button) || button.disabled) return;
    const action = button.dataset.action;
    if (action === "page" || action === "my-page") {
      if (!this.socket) return;
      if (action === "page") this.socket.askPage(Number(button.dataset.page));
      else this.socket.askMine();
      return;
    }
    if (action === "join") {
      if (this.st.event && this.st.event.password && !(this.mine())) {
        this.asking = true;
        this.error = "";
        this.draw();
        const input = this.container.querySelector("#tour-password");
        if (input) input.focus();
        return;
      }
      this.act("join", { password: null });
    } else if (action === "cancel") {
      this.asking = false;
      this.error = "";
      this.draw();
      this.container.querySelector("[data-action=join]")?.focus();
    } else if (action === "withdraw" || action === "pause") {
      this.act(action);
    }
  }

  submit(event) {
    const form = event.target;
    if (!form.dataset || form.dataset.form !== "join") return;
    event.preventDefault();
    this.act("join", { password: form.elements.password.value });
  }

  /** Join (a visitor first becomes a guest, and the socket says hello with it),
   * withdraw or pause. */
  async act(action, body = undefined) {
    this.busy = true;
    this.error = "";
    this.draw();
    try {
      // A new guest's token reopens the socket with its hello (onSession).
      if (!session.token) await signIn();
      const answer = await request("POST", `/api/tournaments/${encodeURIComponent(this.id)}/${action}`, body);
      rememberEntrant(session.playerId, this.id, answer.entrant);
      this.override = { entrant: answer.entrant, status: answer.status };
      this.asking = false;
      announce(t(`tournament.you_${answer.status}`));
    } catch (err) {
      if (fairplayRefusal(err)) await me().catch(() => null);
      this.error = refusalText(err);
      this.errorCode = err.code;
      if (err.code === "fairplay/leaver_wait") announce(this.error);
    }
    this.busy = false;
    if (this.destroyed) return;
    this.draw();
    const focus = this.container.querySelector(".tour-actions button:not([disabled])");
    if (focus && !this.container.contains(document.activeElement)) focus.focus();
  }
}
