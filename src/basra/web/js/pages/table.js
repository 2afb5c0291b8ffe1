// The table page (/table/ID): one state (state.js) and its lifecycle. Every server message
// goes through state.receive (a `played` message is applied to the game held; one that does
// not follow it makes the page ask for a full state, `sync`); the page then keeps what the
// fairness check needs (table/evidence.js), sends this seat's part when a round waits for
// one (table/seeding.js), redraws every region from the state (one redraw: each region's
// renderer builds it afresh and dom.morph writes only what changed), animates what changed
// (motion.js), announces the plays and checks revealed rounds (table/verify.js). Clicks,
// keys and hovers reach one delegated handler through data-action attributes; only entries
// of view.legal are ever sent, with the state's version (table/playing.js, docs/BROWSER.md).
// Phrases: table/phrases.js. Basra TV mounts it with `tv: true` (a spectator, no rematch
// followed, `onEnd`).
// A tournament's table leads back to its event when the match ends (table/back.js).

import { morph, motionPace, reducedMotion } from "../lib/dom.js";
import { setting } from "../lib/settings.js";
import { t } from "../lib/i18n.js";
import { me, session, sessionEnded } from "../lib/api.js";
import * as S from "../table/state.js";
import { TableSocket } from "../lib/socket.js";
import { resumeQuickMatch } from "./quick.js";
import * as motion from "../table/motion.js";
import { announce, errorText, navigate, toast } from "../lib/ui.js";
import { Evidence } from "../table/evidence.js";
import { buildLayout } from "../table/layout.js";
import { bannerSecond, renderBanner } from "../table/banner.js";
import { renderHead, renderScorebar } from "../table/head.js";
import { renderMe, renderOpponents } from "../table/seats.js";
import { renderFloor, renderStock } from "../table/floor.js";
import { DEAL_CARD_DELAY, renderCenter } from "../table/center.js";
import { renderChoice, renderHand } from "../table/hand.js";
import { renderLog, renderScores } from "../table/log.js";
import { renderOverlay } from "../table/overlay.js";
import { renderFairCurrent, renderFairResults } from "../table/fairpanel.js";
import { bindEvents } from "../table/events.js";
import { startClock } from "../table/clock.js";
import { partRefused, ready, seedRound } from "../table/seeding.js";
import { verifyRevealed } from "../table/verify.js";
import { awayText, botPlayed, hiddenState, renderAway, tellHidden } from "../table/away.js";
import { hintText, markHint } from "../table/tools.js";
import { cue, markTurn } from "../table/alerts.js";
import { muted, setMuted } from "../table/sound.js";
import { guardLeaving } from "../table/leave.js";
import { openRules } from "../table/rulesheet.js";
import { heard, keptSayings, renderSay } from "../table/phrases.js";
import { followEvent } from "../table/back.js";
import { buildReader, drawReader, drawReaderClock, focusOnStart, focusReader, tellNews } from "../table/reader.js";

/** Each region of the layout (its key in buildLayout's elements) and its renderer, in the
 * order the redraw builds them; every renderer is (state, ctx) => the region's new content
 * (those that need no ctx ignore it). */
const REGIONS = [
  ["banner", renderBanner], ["head", renderHead], ["scorebar", renderScorebar],
  ["opponents", renderOpponents], ["stock", renderStock], ["floor", renderFloor],
  ["center", renderCenter], ["hand", renderHand], ["meBar", renderMe], ["say", renderSay], ["choice", renderChoice],
  ["scores", renderScores], ["fairCurrent", renderFairCurrent],
  ["fairResults", renderFairResults], ["log", renderLog], ["overlay", renderOverlay],
  ["away", renderAway],
];

/** How long the last play of a round takes to land before its summary shows. */
const OVERLAY_WAIT = 1300;
/** How long the page waits for the full state it asked for before asking again (a message
 * over the rate limit is dropped). */
const SYNC_AGAIN = 3000;

export function mount(container, params) {
  const page = new TablePage(container, params.id, { tv: !!params.tv, onEnd: params.onEnd || null });
  page.start();
  return { unmount: () => page.destroy(), relabel: () => page.relabel() };
}

class TablePage {
  constructor(container, id, { tv = false, onEnd = null } = {}) {
    this.container = container;
    Object.assign(this, { tv, onEnd, endTold: false });  // TV: only ever a spectator
    this.ev = new Evidence(id);
    this.st = keptSayings(S.initialState({ id, knownSeat: tv ? null : this.ev.seatOf(session.playerId) }));
    this.sayTimers = new Set();  // redraws due when a bubble, or the gap between two, is over
    this.socket = null;
    this.el = null;
    this.timers = {};
    this.verifying = new Set();
    this.lastParts = [];  // the parts sent ({round, part}), latest last: a refused one is dropped
    this.seedDirty = false;
    this.destroyed = false;
    this.bannerAt = null;
    this.countdownAt = null;
    /** The bot's plays for this seat while the page was hidden, told when it shows again. */
    this.hiddenPlays = [];
    /** Whether the next state is a new connection's first (after its welcome). */
    this.newConnection = true;
    this.onVisibility = () => tellHidden(this);
    /** A tournament's table: its event and the way back (table/back.js). */
    this.event = undefined;
  }

  // ---------------------------------------------------------------- life

  start() {
    this.container.classList.add("page", "table-page-host");
    this.leave = guardLeaving(this);
    document.addEventListener("visibilitychange", this.onVisibility);
    this.el = buildLayout(this.container, { ownText: this.ev.ownText });
    buildReader(this);
    this.redraw();
    this.unbind = bindEvents(this);
    this.stopClock = startClock(this, (now) => this.frame(now));
    if (session.token && !this.tv) me().catch(() => null).finally(() => this.connect());
    else this.connect();
  }

  /** Open the table's socket with the session held now. */
  connect() {
    if (this.destroyed) return;
    if (!this.tv) this.st = S.rememberSeat(this.st, this.ev.seatOf(session.playerId));
    this.socket = new TableSocket(this.st.id, this.tv ? "" : session.token, {
      onMessage: (m) => this.message(m),
      onStatus: (status, info) => this.status(status, info),
    });
    this.socket.connect();
    window.basraTable = this.socket;
  }

  destroy() {
    this.destroyed = true;
    document.body.dataset.playing = "false";
    if (this.stopClock) this.stopClock();
    for (const timer of Object.values(this.timers)) clearTimeout(timer);
    for (const timer of this.sayTimers) clearTimeout(timer);
    if (this.unbind) this.unbind();
    if (this.leave) this.leave.stop();
    document.removeEventListener("visibilitychange", this.onVisibility);
    markTurn(false);
    if (this.socket) this.socket.close();
    if (window.basraTable === this.socket) delete window.basraTable;
  }

  relabel() {
    this.el = buildLayout(this.container, { ownText: this.ev.ownText });
    buildReader(this);
    this.redraw();
  }

  /** Take a new state and redraw (nothing when it is the same). */
  update(next) {
    if (next === this.st) return;
    this.st = next;
    // A seated player in a match: an incoming challenge waits until it is over.
    const game = next.game;
    const playing = !!(game && game.you !== null && game.you !== undefined && game.table && game.table.status === "playing");
    document.body.dataset.playing = playing ? "true" : "false";
    this.redraw();
  }

  send(message) {
    if (!this.socket || !this.socket.send(message)) {
      toast(t("conn.not_sent"), "error");
      return false;
    }
    return true;
  }

  // ---------------------------------------------------------------- the one redraw

  redraw() {
    if (this.destroyed || !this.el) return;
    const st = this.st;
    const el = this.el;
    const active = document.activeElement;
    const focusKey = active && active.dataset ? active.dataset.focusKey : null;
    const ctx = {
      ev: this.ev, now: performance.now(), wallNow: Date.now(), online: navigator.onLine !== false,
      focusCard: active && el.hand.contains(active) ? active.dataset.card : null, event: this.event,
    };
    for (const [region, render] of REGIONS) morph(el[region], render(st, ctx));
    drawReader(this, ctx);
    if (!st.game) return;
    const tb = S.table(st);
    markHint(this);
    markTurn(S.myTurn(st) && tb.status === "playing");
    this.leave.update();
    const input = el.seedInput;
    if (document.activeElement !== input && !this.seedDirty) input.value = this.ev.ownText;
    input.disabled = st.seat === null;
    el.seedForm.hidden = st.seat === null || tb.status === "finished" || tb.status === "abandoned";
    Object.assign(el.root.dataset, { phase: tb.phase, status: tb.status, turn: S.myTurn(st) ? "mine" : "other", version: String(st.game.version) });
    if (focusKey) {
      let again = this.container.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`);
      // A played card or a chosen option is gone: keyboard users stay in their hand.
      if (!again && /^(hand|option|choice)-/.test(focusKey)) again = el.hand.querySelector('.hand-card[tabindex="0"]');
      if (again && again !== document.activeElement) again.focus({ preventScroll: true });
    }
  }

  /** Every animation frame (clock.js): the banner's countdown, the next round's. */
  frame(now) {
    const next = this.st.overlay ? S.nextRoundInfo(this.st, now) : null;
    const left = next ? next.second : null;
    if (left !== this.countdownAt) {
      this.countdownAt = left;
      this.redraw();
    }
    drawReaderClock(this, now);
    const second = bannerSecond(this.st, Date.now());
    if (second === this.bannerAt) return;
    this.bannerAt = second;
    if (second !== null) this.redraw();
  }

  // ---------------------------------------------------------------- the server

  /** The match is over for good (finished, abandoned, closed, gone): TV is told once. */
  ended(status) {
    if (!this.endTold && this.onEnd) this.onEnd({ status });
    this.endTold = true;
  }

  status(status, info) {
    if (this.destroyed) return;
    if (status === "gone") this.ended("gone");
    if (status === "signed-out") {
      // The session this socket used ended: signed in anew since (another tab), back with
      // that one; else it is forgotten (the user told) and the banner says so.
      if (session.token && session.token !== info.token) { this.connect(); return; }
      sessionEnded(info.token, { always: true });
    }
    const before = this.st;
    this.st = S.connectionStatus(before, status, info);
    if (status === "open" && before.wasReconnecting) {
      announce(t("conn.back"));
      clearTimeout(this.timers.flash);
      this.timers.flash = setTimeout(() => this.update(S.connectionFlashed(this.st)), 2500);
    }
    this.redraw();
  }

  message(m) {
    if (this.destroyed) return;
    const before = this.st;
    const game = m.type === "state" || m.type === "played";
    const rects = game && before.game ? motion.snapshot(this) : null;
    if (m.type === "played" && m.by_bot && before.seat !== null && m.seat === before.seat) botPlayed(this, m);
    this.st = S.receive(before, m, performance.now());
    // The first state of a connection: what a bot played meanwhile comes as `away`.
    if (m.type === "state" && !this.newConnection) hiddenState(this, before, this.st);
    if (m.type === "state" || m.type === "welcome") this.newConnection = m.type === "welcome";
    if (m.type === "welcome") {
      if (m.seat !== null && m.seat !== undefined) this.ev.rememberSeat(m.seat, session.playerId);
    } else if (game) {
      if (this.st.syncing && !before.syncing) this.sync();
      if (this.st.game !== before.game) this.received(before, rects);
    } else if (m.type === "error") {
      this.error(m, before);
    } else if (m.type === "said") {
      if (this.st !== before) heard(this, before, performance.now());
    } else if (m.type === "away" || m.type === "hint") {
      if (this.st === before) return;
      this.redraw();
      if (m.type === "away") announce(awayText(this.st.away));
      else if (this.st.hint) {  // shown in words (a phone has no tooltip) and read out
        toast(hintText(this.st.hint), "info", 5000);
        announce(hintText(this.st.hint));
      }
    } else if (m.type === "closed") {
      if (this.st.closed.reason === "replaced") toast(t("table.replaced"), "info", 8000);
      if (this.socket) this.socket.end();
      this.redraw();
      this.ended(this.st.closed.reason);
    } else if (m.type === "requeued") {
      // A quick-match opponent never came: back to the lobby, waiting on the new ticket.
      resumeQuickMatch(this.st.requeued);
      if (this.socket) this.socket.end();
      navigate("/", { replace: true });
    }
  }

  received(before, rects) {
    const st = this.st;
    if (st.follow && st.follow !== before.follow && !this.tv) {
      navigate(`/table/${encodeURIComponent(st.follow)}`);
      return;
    }
    this.ev.record(st.game, st.seat);
    const pending = S.pendingRound(st);
    if (pending !== null && pending !== S.pendingRound(before)) {
      clearTimeout(this.timers.deal);
      this.timers.deal = setTimeout(() => { if (S.pendingRound(this.st) === pending) this.redraw(); }, DEAL_CARD_DELAY + 20);
    }
    seedRound(this);
    this.redraw();
    cue(this, before);
    const prev = before.game;
    if (prev) motion.animate(this, prev, rects);
    // Each new play told once (table/reader.js: the announcer, or the reader's log).
    tellNews(this, before);
    focusOnStart(this, before);
    // The breakdown is shown once the last play has flown to its pile.
    if (st.overlayDue && st.overlayDue !== before.overlayDue) this.dueOverlay(prev && !reducedMotion() ? OVERLAY_WAIT * motionPace() : 0);
    else this.autoContinue();
    verifyRevealed(this);
    followEvent(this);
    if (["finished", "abandoned"].includes(S.table(st).status)) this.ended(S.table(st).status);
  }

  /** Ask for a full state now, and again every SYNC_AGAIN ms until one comes (a reconnect
   * brings one too). */
  sync() {
    clearTimeout(this.timers.sync);
    if (this.destroyed || !this.st.syncing) return;
    if (this.socket) this.socket.send({ type: "sync" });
    this.timers.sync = setTimeout(() => this.sync(), SYNC_AGAIN);
  }

  error(m, before) {
    const code = m.code || "";
    if (code === "seed/round_started" || code === "seed/wrong_round") { partRefused(this); return; }
    // A part is never used twice: choose another fresh one for the pending round.
    if (code === "seed/reused") { seedRound(this, { force: true }); return; }
    if (this.st !== before) this.redraw();
    if (code.startsWith("say/")) { heard(this, before, performance.now()); toast(errorText(m), "error", 2500); return; }
    if (code === "protocol/rate_limited") {
      // A message was dropped: if it was this round's part, the next look sends another.
      seedRound(this);
      toast(errorText(m), "error", 3000);
      return;
    }
    if (code !== "table/not_found") toast(errorText(m), "error");
  }

  // ---------------------------------------------------------------- overlays

  dueOverlay(wait) {
    const show = () => {
      if (this.destroyed) return;
      const before = this.st;
      this.st = S.openOverlay(before);
      if (this.st.overlay === before.overlay) return;
      this.redraw();
      const first = this.el.overlay.querySelector("[data-autofocus]");
      if (first) first.focus({ preventScroll: true });
      this.autoContinue();
    };
    clearTimeout(this.timers.overlay);
    if (wait > 0) this.timers.overlay = setTimeout(show, wait);
    else show();
  }

  /** The "auto-continue" setting: a round's summary on screen while the next round waits
   * for this player says Continue at once (the summary stays until the deal). */
  autoContinue() {
    const st = this.st;
    if (!setting("autoContinue") || this.tv || !st.overlay || st.overlay.kind !== "round" || st.seat === null) return;
    const round = S.pendingRound(st);
    if (round === null || S.table(st).phase !== "seeding" || S.readied(st, this.ev.partsFor(round))) return;
    this.ready();
  }

  /** Close the overlay; a summary closed while the next round waits for this player says
   * Continue too, unless `looking` (the player went to read the fairness panel). */
  closeOverlay({ looking = false } = {}) {
    if (!this.st.overlay) return;
    const round = S.pendingRound(this.st);
    if (!looking && this.st.overlay.kind === "round" && round !== null && !S.readied(this.st, this.ev.partsFor(round))) ready(this);
    this.update(S.closeOverlay(this.st));
    this.focusHand();
  }

  focusHand() {
    if (focusReader(this)) return;
    const card = this.el.hand.querySelector('.hand-card[tabindex="0"]');
    if (card) card.focus({ preventScroll: true });
  }

  ready() {
    const overlay = !!this.st.overlay;
    ready(this);
    this.redraw();
    if (overlay && !this.st.overlay) this.focusHand();
    else if (this.st.overlay) this.el.overlay.querySelector("[data-autofocus]")?.focus({ preventScroll: true });
  }

  // ---------------------------------------------------------------- told, asked

  dismissAway() {
    this.update(S.awayDismissed(this.st));
    this.focusHand();
  }

  toggleMute() { setMuted(!muted()); this.redraw(); }

  rules() { if (this.st.game) openRules(S.table(this.st).variant); }
}
