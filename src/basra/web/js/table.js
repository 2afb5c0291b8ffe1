// The table: one websocket, one state at a time. Every `state` message is a full snapshot
// (docs/PROTOCOL.md); the page draws it, animates what changed since the previous one (the
// new entries of view.plays), and only ever sends plays listed in view.legal, with the
// state's version.

import { h, s, clear, replace, reducedMotion } from "./dom.js";
import { t, num, isRTL } from "./i18n.js";
import { api, session, recordUrl, me } from "./api.js";
import { cardBack, cardFace, cardLabel, cardName, cardShort } from "./cards.js";
import { sideCount, sideOf, variantOf } from "./variants.js";
import { roundBreakdown } from "./scoring.js";
import { OWN_TEXT_BYTES, cleanText, freshPart, verifyRound } from "./fairness.js";
import { TableSocket } from "./socket.js";
import { resumeQuickMatch } from "./lobby.js";
import * as motion from "./motion.js";
import { announce, copyText, errorText, link, navigate, playerName, toast } from "./ui.js";

const STORE_PREFIX = "basra.table.";
const PLAYS_PER_ROUND = 48;
/** Rounds of parts kept per table (a match is far shorter). */
const KEEP_ROUNDS = 60;
/** While this page's part is in and others are still choosing, the deal card waits this long
 * before it shows (against bots the round starts at once: no flash). */
const DEAL_CARD_DELAY = 700;

export function mount(container, params) {
  const page = new TablePage(container, params.id);
  page.start();
  return { unmount: () => page.destroy(), relabel: () => page.relabel() };
}

function readStored(id) {
  try { return JSON.parse(localStorage.getItem(STORE_PREFIX + id) || "{}") || {}; } catch { return {}; }
}

/** The last `n` rounds of a {round: value} map. */
function lastRounds(map, n) {
  const keys = Object.keys(map).map(Number).sort((a, b) => a - b).slice(-n);
  return Object.fromEntries(keys.map((k) => [k, map[k]]));
}

function sameList(a, b) {
  return a.length === b.length && a.every((x) => b.includes(x));
}

class TablePage {
  constructor(container, id) {
    this.container = container;
    this.id = id;
    this.state = null;
    this.seat = null;
    this.socket = null;
    this.floorOrder = [];
    this.choice = null;
    this.sentVersion = null;
    this.clock = null;
    this.clockSecond = null;
    this.raf = 0;
    this.connection = "connecting";
    this.reconnectAt = 0;
    this.verifications = new Map();
    this.verifying = new Set();
    this.roundLogs = new Map();
    this.overlay = null;
    this.overlayRound = 0;
    this.readyRound = 0;
    this.destroyed = false;
    this.local = this.loadLocal();
    this.seedInput = null;
    this.seedDirty = false;
    /** Which connection (counted by welcomes) sent a part for which round. */
    this.connectionId = 0;
    this.partSentOn = {};
    this.seedingSince = 0;
    this.closed = null;
    this.knownSeat = null;
    this.onKey = (event) => this.keydown(event);
    this.wasReconnecting = false;
  }

  // ---------------------------------------------------------------- local memory

  // What this page keeps per table in localStorage: the parts it sent for each round, the
  // commitments as first seen while a round was waiting for parts, the rounds whose cards it
  // saw before their commitment, its own cards per deal, the player's own text and seat.
  // Other tabs of the same browser write the same entry: saving merges, never overwrites.

  loadLocal() {
    const data = readStored(this.id);
    return {
      parts: data.parts || {},
      commits: data.commits || {},
      cardsFirst: data.cardsFirst || {},
      hands: data.hands || {},
      ownText: typeof data.ownText === "string" ? data.ownText : cleanText(data.customSeed || ""),
      seat: data.seat || null,
    };
  }

  /** Take in what other tabs saved: parts and hands are unions, the first commitment wins. */
  mergeStored() {
    const stored = this.loadLocal();
    const local = this.local;
    for (const [round, parts] of Object.entries(stored.parts)) {
      const mine = local.parts[round] || (local.parts[round] = []);
      for (const p of parts) if (!mine.includes(p)) mine.push(p);
    }
    for (const [round, commit] of Object.entries(stored.commits)) local.commits[round] = commit;
    for (const [round, early] of Object.entries(stored.cardsFirst)) {
      if (early && !local.commits[round]) local.cardsFirst[round] = true;
    }
    for (const [round, deals] of Object.entries(stored.hands)) {
      const byDeal = local.hands[round] || (local.hands[round] = {});
      for (const [deal, cards] of Object.entries(deals)) {
        const mine = byDeal[deal] || (byDeal[deal] = []);
        for (const c of cards) if (!mine.includes(c)) mine.push(c);
      }
    }
  }

  saveLocal() {
    this.mergeStored();
    const l = this.local;
    const data = {
      parts: lastRounds(l.parts, KEEP_ROUNDS), commits: lastRounds(l.commits, KEEP_ROUNDS),
      cardsFirst: lastRounds(l.cardsFirst, KEEP_ROUNDS), hands: lastRounds(l.hands, KEEP_ROUNDS),
      ownText: l.ownText, seat: l.seat,
    };
    try { localStorage.setItem(STORE_PREFIX + this.id, JSON.stringify(data)); } catch { /* full */ }
  }

  // ---------------------------------------------------------------- life

  start() {
    this.container.classList.add("page", "table-page-host");
    this.build();
    document.addEventListener("keydown", this.onKey);
    this.tick();
    const token = session.token;
    const connect = () => {
      this.socket = new TableSocket(this.id, session.token, {
        onMessage: (m) => this.message(m),
        onStatus: (status, info) => this.status(status, info),
      });
      this.socket.connect();
      window.basraTable = this.socket;
    };
    if (token) {
      me().catch(() => null).finally(connect);
    } else {
      connect();
    }
  }

  destroy() {
    this.destroyed = true;
    cancelAnimationFrame(this.raf);
    clearTimeout(this.overlayTimer);
    clearTimeout(this.flashTimer);
    clearTimeout(this.dealTimer);
    document.removeEventListener("keydown", this.onKey);
    if (this.socket) this.socket.close();
    if (window.basraTable === this.socket) delete window.basraTable;
  }

  relabel() {
    this.build();
    if (this.state) this.render(null);
  }

  // ---------------------------------------------------------------- skeleton

  build() {
    const c = this.container;
    clear(c);
    this.el = {};
    const el = this.el;
    el.banner = h("div", { class: "conn-banner", role: "status", hidden: true });
    el.head = h("div", { class: "table-head" });
    el.scorebar = h("div", { class: "scorebar", role: "group", "aria-label": t("table.scores") });
    el.opponents = h("div", { class: "opponents" });
    el.stock = h("div", { class: "stock" });
    el.floor = h("div", { class: "floor", role: "list", "aria-label": t("table.floor") });
    el.center = h("div", { class: "center-msg" });
    el.choice = h("div", { class: "choice-bar", hidden: true });
    el.meBar = h("div", { class: "me-bar" });
    el.hand = h("div", { class: "hand", role: "toolbar", "aria-label": t("table.hand"), "aria-orientation": "horizontal" });
    el.hand.addEventListener("keydown", (e) => this.handKeys(e));
    el.scores = h("section", { class: "panel scores-panel", "aria-labelledby": "scores-title" });
    el.fair = h("section", { class: "panel fairness-panel", id: "fairness", "aria-labelledby": "fair-title" });
    el.log = h("section", { class: "panel log-panel", "aria-labelledby": "log-title" });
    el.overlay = h("div", { class: "overlay-host" });
    el.fx = h("div", { class: "fx-layer", "aria-hidden": "true" });
    el.felt = h("div", { class: "felt" },
      el.opponents,
      h("div", { class: "middle" },
        el.stock,
        h("div", { class: "floor-wrap" }, el.floor),
        el.center),
      el.choice,
      h("div", { class: "me" }, el.meBar, el.hand));
    el.root = h("section", { class: "table-page", "aria-label": t("table.title") },
      el.banner,
      h("div", { class: "table-main" }, el.head, el.scorebar, el.felt),
      h("aside", { class: "side", "aria-label": t("table.side") }, el.fair, el.scores, el.log),
      el.overlay);
    this.buildFairness();
    c.append(el.root, el.fx);
    if (!this.state) {
      replace(el.center, h("div", { class: "center-card" }, h("span", { class: "spinner" }), h("p", null, t("table.connecting"))));
    }
    this.renderBanner();
  }

  // ---------------------------------------------------------------- connection

  status(status, info) {
    if (this.destroyed) return;
    if (status === "reconnecting") {
      this.connection = "reconnecting";
      this.wasReconnecting = true;
      this.reconnectAt = info.at || 0;
      this.choice = null;
    } else if (status === "open") {
      this.connection = "open";
      if (this.wasReconnecting) {
        this.wasReconnecting = false;
        this.flashBanner(t("conn.back"));
        announce(t("conn.back"));
      }
    } else if (status === "ended") {
      this.connection = "ended";
    } else if (status === "gone") {
      this.connection = "gone";
      replace(this.el.center, h("div", { class: "center-card" },
        h("p", null, t("table.not_found")), link("/", { class: "btn primary" }, t("nav.lobby"))));
    } else {
      this.connection = status;
    }
    this.renderBanner();
    if (status === "reconnecting" && this.state) this.render(null);
  }

  renderBanner() {
    const b = this.el.banner;
    if (this.connection === "reconnecting") {
      const left = Math.max(0, Math.ceil((this.reconnectAt - Date.now()) / 1000));
      const text = navigator.onLine === false ? t("conn.offline")
        : left > 0 ? t("conn.lost_retry", { count: left, seconds: left }) : t("conn.lost");
      replace(b, h("span", { class: "spinner small" }), h("span", { class: "conn-text" }, text),
        h("button", { class: "btn small", type: "button", on: { click: () => this.socket && this.socket.reconnectNow() } }, t("conn.retry")));
      b.hidden = false;
      b.dataset.state = "lost";
    } else if (b.dataset.state !== "back") {
      b.hidden = true;
      b.dataset.state = "";
    }
  }

  flashBanner(text) {
    const b = this.el.banner;
    replace(b, h("span", { class: "conn-text" }, text));
    b.hidden = false;
    b.dataset.state = "back";
    clearTimeout(this.flashTimer);
    this.flashTimer = setTimeout(() => {
      if (b.dataset.state === "back") { b.hidden = true; b.dataset.state = ""; }
    }, 2500);
  }

  send(message) {
    if (!this.socket || !this.socket.send(message)) {
      toast(t("conn.not_sent"), "error");
      return false;
    }
    return true;
  }

  // ---------------------------------------------------------------- messages

  message(m) {
    if (this.destroyed) return;
    if (m.type === "welcome") {
      this.connectionId += 1;
      this.seat = m.seat;
      if (m.seat !== null && m.seat !== undefined) {
        this.local.seat = { seat: m.seat, player: session.playerId };
        this.saveLocal();
      } else if (this.local.seat && this.local.seat.player === session.playerId) {
        // A table that left the server's memory is replayed to anyone as to a spectator:
        // this page still knows whose seat it was.
        this.knownSeat = this.local.seat.seat;
      }
    } else if (m.type === "state") {
      this.receive(m);
    } else if (m.type === "closed") {
      this.tableClosed(m);
    } else if (m.type === "requeued") {
      this.requeued(m);
    } else if (m.type === "error") {
      this.error(m);
    }
  }

  error(m) {
    const code = m.code || "";
    if (code === "seed/round_started" || code === "seed/wrong_round") return;
    if (code === "seed/reused") {
      // A part is never used twice: choose another fresh one for the pending round.
      if (this.state) this.seedRound(this.state, { force: true });
      return;
    }
    if (code.startsWith("play/") || code === "protocol/rate_limited") {
      this.sentVersion = null;
      if (this.state) this.render(null);
    }
    if (code === "protocol/rate_limited") {
      // A message was dropped: if it was this round's part, the next look sends another.
      this.partSentOn = {};
      if (this.state) this.seedRound(this.state);
      toast(errorText(m), "error", 3000);
      return;
    }
    if (code !== "table/not_found") toast(errorText(m), "error");
  }

  /** The table left the server's memory: keep showing its last state, never reconnect. */
  tableClosed(m) {
    this.closed = { reason: m.reason || "finished" };
    if (this.closed.reason === "replaced") toast(t("table.replaced"), "info", 8000);
    if (this.socket) this.socket.end();
    this.connection = "ended";
    this.renderBanner();
    if (this.state) this.render(null);
  }

  /** A quick-match opponent never came: back to the lobby, waiting on the new ticket. */
  requeued(m) {
    resumeQuickMatch({ ticket: m.ticket, variant: m.variant || (this.state && this.variant()), offer: m.bot_offer !== false });
    if (this.socket) this.socket.end();
    navigate("/", { replace: true });
  }

  receive(state) {
    const prev = this.state;
    if (prev && state.version < prev.version) return;
    const rects = prev ? this.snapshot() : null;
    this.state = state;
    const view = state.view;
    const table = state.table;
    if (state.you !== undefined) this.seat = state.you;
    if (this.seat === null && this.knownSeat !== null && (table.status === "finished" || table.status === "abandoned")) {
      this.seat = this.knownSeat;
    }
    if (table.rematch_table && prev && !prev.table.rematch_table) {
      navigate(`/table/${encodeURIComponent(table.rematch_table)}`);
      return;
    }
    this.sentVersion = null;
    this.preview = null;
    // A new round or a changed floor: keep the floor in the order cards were laid.
    this.updateFloorOrder(prev, state);
    // Clock.
    if (table.clock) {
      this.clock = { seat: table.clock.seat, end: performance.now() + table.clock.remaining_ms, total: table.clock.seconds * 1000 };
    } else {
      this.clock = null;
    }
    this.clockSecond = null;
    // Choice ends when the turn does.
    if (this.choice && (!this.myTurn() || !view.hand.includes(this.choice.card))) this.choice = null;
    this.remember(state);
    const pending = this.pendingRound(state);
    if (pending !== null && pending !== this.pendingRound(prev)) {
      this.seedingSince = performance.now();
      clearTimeout(this.dealTimer);
      this.dealTimer = setTimeout(() => { if (this.state && this.pendingRound() === pending) this.render(null); }, DEAL_CARD_DELAY + 20);
    }
    this.seedRound(state);
    this.render(prev ? { prev, rects } : null);
    this.roundEvents(prev, state);
    this.verifyRevealed();
  }

  updateFloorOrder(prev, state) {
    const floor = state.view.floor;
    if (!prev || prev.view.round !== state.view.round) {
      this.floorOrder = state.view.plays.length ? floor.slice() : (state.view.opening_floor.length ? state.view.opening_floor.filter((c) => floor.includes(c)) : floor.slice());
      for (const c of floor) if (!this.floorOrder.includes(c)) this.floorOrder.push(c);
      return;
    }
    const kept = this.floorOrder.filter((c) => floor.includes(c));
    const added = [];
    for (const play of state.view.plays.slice(prev.view.plays.length)) {
      if (!play.take.length && floor.includes(play.card)) added.push(play.card);
    }
    for (const c of floor) if (!kept.includes(c) && !added.includes(c)) added.push(c);
    this.floorOrder = kept.concat(added);
  }

  /** What this page saw, kept for the fairness check: commitments (as first seen while a
   * round waited for parts), rounds whose cards came first, own hands, the round's plays. */
  remember(state) {
    const table = state.table;
    const current = table.fairness && table.fairness.current;
    const view = state.view;
    let changed = false;
    if (current && current.commitment) {
      const round = current.round;
      if (table.phase === "seeding" && !current.client_seed) {
        if (!this.local.commits[round]) {
          this.local.commits[round] = current.commitment;
          changed = true;
        }
      } else if (current.client_seed && !this.local.commits[round] && !this.local.cardsFirst[round]) {
        // The round is dealt and this page never saw its commitment beforehand (nor did
        // another tab of this browser): it cannot vouch for this round.
        this.mergeStored();
        if (!this.local.commits[round]) {
          this.local.cardsFirst[round] = true;
          changed = true;
        }
      }
    }
    if (this.seat !== null && view.round > 0 && view.hand.length) {
      const rounds = this.local.hands;
      const byDeal = rounds[view.round] || (rounds[view.round] = {});
      const deal = String(view.deal - 1);
      const cards = byDeal[deal] || (byDeal[deal] = []);
      for (const c of view.hand) if (!cards.includes(c)) { cards.push(c); changed = true; }
    }
    if (view.round > 0) {
      this.roundLogs.set(view.round, {
        plays: view.plays.map((p) => ({ seat: p.seat, card: p.card })),
        opening_floor: view.opening_floor.slice(),
        dealer: view.dealer,
      });
    }
    if (changed) this.saveLocal();
  }

  /** The round waiting for parts (phase "seeding", its commitment out, not yet dealt). */
  pendingRound(state = this.state) {
    const table = state && state.table;
    const current = table && table.fairness && table.fairness.current;
    if (!table || table.phase !== "seeding" || !current || current.client_seed) return null;
    return current.round;
  }

  /** The parts this page (or another tab of this browser) sent for `round`. */
  partsFor(round) {
    return this.local.parts[round] || [];
  }

  /** Whether this seat's part for the pending round is in: one this page sent, held by the
   * server, or sent on this very connection and on its way. */
  partIn(state = this.state) {
    const round = this.pendingRound(state);
    if (round === null || this.seat === null) return false;
    const held = state.table.players[this.seat] && state.table.players[this.seat].client_seed;
    return (held && this.partsFor(round).includes(held)) || this.partSentOn[round] === this.connectionId;
  }

  /** The moment a round waits for parts, send this seat's: fresh for that round, never one
   * used before. After a reconnect (or from a new tab) it sends again only when the server
   * holds none of this browser's parts for the round. `force` sends a new one regardless. */
  seedRound(state, { force = false } = {}) {
    const round = this.pendingRound(state);
    if (round === null || this.seat === null) return;
    if (!force) {
      this.mergeStored();
      if (this.partIn(state)) return;
    }
    this.sendPart(round);
  }

  sendPart(round) {
    const part = freshPart(this.local.ownText);
    if (!this.socket || !this.socket.send({ type: "seed", round, client_seed: part })) return false;
    this.partSentOn[round] = this.connectionId;
    const parts = this.local.parts[round] || (this.local.parts[round] = []);
    parts.push(part);
    this.saveLocal();
    return true;
  }

  ready() {
    const table = this.state && this.state.table;
    if (!table || table.phase !== "seeding") return;
    const round = this.pendingRound();
    this.readyRound = table.fairness.current ? table.fairness.current.round : 0;
    // A part says ready too; without one (it could not be sent) send it now.
    if (round !== null && !this.partIn()) this.sendPart(round);
    else this.send({ type: "ready" });
    this.closeOverlay();
    this.render(null);
  }

  // ---------------------------------------------------------------- helpers

  view() { return this.state.view; }
  table() { return this.state.table; }
  variant() { return this.state.table.variant; }
  teams() { return this.state.table.teams; }
  seats() { return this.state.table.seats; }

  myTurn() {
    const v = this.state && this.state.view;
    return !!v && this.seat !== null && v.turn === this.seat && v.legal.length > 0;
  }

  mySide() {
    return this.seat === null ? null : sideOf(this.seat, this.teams());
  }

  seatName(seat) {
    if (seat === this.seat) return t("seat.you");
    return playerName(this.table().players[seat], this.table().players);
  }

  /** A side's name: "You", a player's name, or both partners' names. */
  sideName(side) {
    const seats = [];
    for (let seat = 0; seat < this.seats(); seat++) if (sideOf(seat, this.teams()) === side) seats.push(seat);
    if (this.teams()) {
      if (seats.includes(this.seat)) return t("side.us");
      return seats.map((st) => this.seatName(st)).join(t("side.join"));
    }
    return this.seatName(seats[0]);
  }

  optionsFor(card) {
    return this.view().legal.filter((p) => p.card === card);
  }

  // ---------------------------------------------------------------- render

  render(anim) {
    if (!this.state || this.destroyed) return;
    const focusKey = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.focusKey : null;
    this.renderHead();
    this.renderScorebar();
    this.renderOpponents();
    this.renderMiddle();
    this.renderHand();
    this.renderMe();
    this.renderChoice();
    this.renderScores();
    this.renderFairness();
    this.renderLog();
    this.renderOverlay();
    this.el.root.dataset.phase = this.table().phase;
    this.el.root.dataset.status = this.table().status;
    this.el.root.dataset.turn = this.myTurn() ? "mine" : "other";
    this.el.root.dataset.version = String(this.state.version);
    if (focusKey) {
      let again = this.container.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`);
      // A played card or a chosen option is gone: keyboard users stay in their hand.
      if (!again && /^(hand|option|choice)-/.test(focusKey)) again = this.el.hand.querySelector('.hand-card[tabindex="0"]');
      if (again) again.focus({ preventScroll: true });
    }
    if (anim) this.animate(anim.prev, anim.rects);
  }

  renderHead() {
    const table = this.table();
    const view = this.view();
    const variant = variantOf(table.variant);
    const bits = [
      h("span", { class: "variant-name" }, t(`variant.${table.variant}.name`)),
    ];
    if (view.round > 0) bits.push(h("span", { class: "chip" }, t("table.round", { n: num(view.round) })));
    const target = variant.setsToWin > 1 ? t("table.target_set", { n: num(view.target) }) : t("table.target", { n: num(view.target) });
    bits.push(h("span", { class: "chip" }, target));
    if (variant.setsToWin > 1) {
      bits.push(h("span", { class: "chip" }, t("table.sets", { sets: view.sets.map(num).join("–"), n: num(variant.setsToWin) })));
    }
    if (view.carry > 0) bits.push(h("span", { class: "chip chip-carry", title: t("table.carry_hint") }, t("table.carry", { n: num(view.carry) })));
    replace(this.el.head,
      h("div", { class: "head-info" }, bits),
      h("div", { class: "head-actions" },
        h("a", { class: "btn ghost small wide-only", href: `/rules/${table.variant}`, target: "_blank", rel: "noopener" }, t("nav.rules")),
        h("a", { class: "btn ghost small fair-link", href: "#fairness", on: { click: (e) => { e.preventDefault(); this.el.fair.scrollIntoView({ behavior: reducedMotion() ? "auto" : "smooth" }); } } }, t("fair.short")),
        link("/", { class: "btn ghost small wide-only" }, t("nav.lobby"))));
  }

  renderScorebar() {
    const view = this.view();
    const sides = sideCount(view.seats, view.teams);
    const chips = [];
    for (let side = 0; side < sides; side++) {
      const mine = side === this.mySide();
      const turnSide = view.turn !== null && sideOf(view.turn, view.teams) === side;
      chips.push(h("div", {
        class: ["side-chip", mine && "mine", turnSide && "turn", view.winner === side && "winner"],
        dataset: { side: String(side) },
        "aria-label": t("score.side_label", { name: this.sideName(side), points: view.totals[side], cards: view.pile_counts[side] || 0 }),
        role: "group",
      },
      h("span", { class: "side-name" }, this.sideName(side)),
      h("span", { class: "side-total", "data-total": String(view.totals[side]) }, num(view.totals[side])),
      h("span", { class: "side-meta" },
        h("span", { class: "meta-pile", title: t("score.pile") }, pileIcon(), num(view.pile_counts[side] || 0)),
        (view.basras[side] || 0) > 0 ? h("span", { class: "meta-basra", title: t("score.basras") }, "★", num(view.basras[side])) : null)));
    }
    replace(this.el.scorebar, chips);
  }

  renderOpponents() {
    const table = this.table();
    const view = this.view();
    const n = table.seats;
    const order = [];
    if (this.seat === null) for (let i = 0; i < n; i++) order.push(i);
    else for (let i = 1; i < n; i++) order.push((this.seat + i) % n);
    this.el.opponents.dataset.count = String(order.length);
    replace(this.el.opponents, order.map((seat) => this.plate(seat, table.players[seat], view)));
  }

  plate(seat, player, view) {
    const teams = this.teams();
    const partner = teams && this.seat !== null && seat === (this.seat + 2) % 4;
    const turn = view.turn === seat;
    const count = view.hand_counts[seat] || 0;
    const name = playerName(player, this.table().players);
    const badges = [];
    if (partner) badges.push(h("span", { class: "badge partner" }, t("seat.partner")));
    if (view.dealer === seat) badges.push(h("span", { class: "badge dealer", title: t("seat.dealer") }, t("seat.dealer_short")));
    if (player.kind === "human" && player.bot_playing) badges.push(h("span", { class: "badge botplay" }, t("seat.bot_playing")));
    else if (player.kind === "human" && player.connected === false) badges.push(h("span", { class: "badge offline" }, t("seat.offline")));
    if (turn && !this.clock && player.kind !== "empty") badges.push(h("span", { class: "badge thinking" }, t("seat.thinking")));
    const backs = h("div", { class: "mini-hand", dataset: { seatHand: String(seat) } },
      Array.from({ length: Math.min(count, 4) }, () => h("span", { class: "mini-card" })),
      h("span", { class: "mini-count" }, num(count)));
    const pileCount = view.pile_counts[sideOf(seat, teams)] || 0;
    const label = t("seat.label", { name, cards: count, count, pile: pileCount });
    return h("div", {
      class: ["seat-plate", turn && "turn", partner && "partner", player.bot_playing && "bot-playing"],
      dataset: { seat: String(seat) }, role: "group", "aria-label": label,
    },
    this.avatar(seat, player),
    h("div", { class: "plate-info" },
      h("div", { class: "plate-name" }, name),
      h("div", { class: "plate-badges" }, badges)),
    h("div", { class: "plate-cards" },
      backs,
      h("div", { class: "mini-pile", dataset: { pileSeat: String(seat) }, title: t("score.pile") }, pileIcon(), num(pileCount))));
  }

  avatar(seat, player) {
    const name = playerName(player, this.table().players);
    const initial = player.kind === "human" ? Array.from(name.trim())[0] || "?" : "";
    return h("div", { class: ["avatar", player.kind === "bot" && "bot", player.kind === "empty" && "empty"], "aria-hidden": "true" },
      s("svg", { class: "clock-ring", viewBox: "0 0 40 40", dataset: { clockSeat: String(seat) } },
        s("circle", { class: "ring-bg", cx: 20, cy: 20, r: 18 }),
        s("circle", { class: "ring-fg", cx: 20, cy: 20, r: 18, pathLength: 100 })),
      player.kind === "bot" ? botIcon() : h("span", { class: "avatar-letter" }, initial.toUpperCase()));
  }

  renderMiddle() {
    const view = this.view();
    const table = this.table();
    // Stock.
    replace(this.el.stock,
      view.stock_count > 0 ? h("div", { class: "stock-pile", "aria-label": t("table.stock", { count: view.stock_count, n: view.stock_count }), role: "img" },
        h("span", { class: "card small" }, cardBack()), h("span", { class: "stock-count" }, num(view.stock_count))) : null);
    // Floor.
    const choice = this.choice;
    const focused = choice ? choice.options[choice.focus] : null;
    const preview = !choice && this.preview ? this.preview : null;
    const cards = this.floorOrder.filter((c) => view.floor.includes(c));
    const items = cards.map((card) => {
      const optionNumbers = choice ? choice.options.map((o, i) => (o.take.includes(card) ? i + 1 : 0)).filter(Boolean) : [];
      const inFocus = focused && focused.take.includes(card);
      const inPreview = preview && preview.includes(card);
      const el = h("div", {
        class: ["card", "floor-card", optionNumbers.length && "in-option", inFocus && "opt-focus", inPreview && "preview", choice && !optionNumbers.length && "dim"],
        role: "listitem",
        "aria-label": cardLabel(card, table.variant),
        dataset: { card },
        on: { click: () => this.floorClick(card) },
      }, cardFace(card, table.variant),
      optionNumbers.length ? h("span", { class: "opt-badges" }, optionNumbers.map((n) => h("span", { class: ["opt-badge", focused && choice.options.indexOf(focused) + 1 === n && "on"] }, num(n)))) : null);
      return el;
    });
    replace(this.el.floor, items);
    this.el.floor.classList.toggle("empty", cards.length === 0 && view.round > 0);
    this.el.floor.dataset.count = String(cards.length);
    this.el.floor.dataset.size = cards.length > 10 ? "xl" : cards.length > 6 ? "l" : "n";
    // The message over the floor: waiting room, the deal, or nothing.
    this.renderCenter();
  }

  renderCenter() {
    const table = this.table();
    const view = this.view();
    const c = this.el.center;
    if (table.status === "waiting") {
      replace(c, this.waitingRoom());
      c.hidden = false;
      return;
    }
    if (table.phase === "arriving") {
      replace(c, h("div", { class: "center-card arriving-card", dataset: { notice: "arriving" } },
        h("p", null, h("span", { class: "spinner small", "aria-hidden": "true" }), " ", this.arrivingText()),
        h("p", { class: "hint" }, table.kind === "quick" ? t("arriving.hint") : t("arriving.hint_table"))));
      c.hidden = false;
      return;
    }
    if (table.status === "abandoned") {
      replace(c, h("div", { class: "center-card abandoned-card", dataset: { notice: "abandoned" } },
        h("p", null, t("table.abandoned")),
        link("/", { class: "btn primary" }, t("nav.lobby"))));
      c.hidden = false;
      return;
    }
    if (table.phase === "seeding" && !this.overlay) {
      const current = table.fairness.current;
      const round = current ? current.round : view.round + 1;
      const partIn = this.partIn();
      const sent = partIn || this.readyRound === round;
      // This page's part went out with the commitment: against bots the round is dealt a
      // moment later, so the card only shows when others are still choosing.
      if (partIn && performance.now() - this.seedingSince < DEAL_CARD_DELAY) {
        clear(c);
        c.hidden = true;
        return;
      }
      replace(c, h("div", { class: "center-card deal-card" },
        h("h2", null, t("deal.title", { n: num(round) })),
        current ? h("p", { class: "commit-line" }, t("deal.commitment"), " ", h("code", { class: "hash" }, current.commitment.slice(0, 16) + "…")) : null,
        this.seat !== null && partIn ? h("p", { class: "part-line" }, t("deal.part_sent")) : null,
        this.seat !== null ? h("button", { class: "btn primary", type: "button", disabled: sent, dataset: { focusKey: "deal" }, on: { click: () => this.ready() } }, sent ? t("deal.waiting") : t("deal.button")) : null,
        h("p", { class: "hint" }, t("deal.hint"))));
      c.hidden = false;
      return;
    }
    if (view.round > 0 && view.floor.length === 0 && view.turn !== null) {
      replace(c, h("p", { class: "floor-empty-text" }, t("table.floor_empty")));
      c.hidden = false;
      return;
    }
    clear(c);
    c.hidden = true;
  }

  waitingRoom() {
    const table = this.table();
    const code = table.invite_code;
    const linkUrl = code ? `${location.origin}/join/${code}` : "";
    const owner = this.seat === 0 && table.kind === "private";
    const seats = table.players.map((p) => {
      const filled = p.kind !== "empty";
      const row = h("li", { class: ["wait-seat", filled ? "filled" : "open"] },
        h("span", { class: "wait-seat-no" }, t("seat.number", { n: num(p.seat + 1) })),
        h("span", { class: "wait-seat-name" }, filled ? (p.seat === this.seat ? t("seat.you_named", { name: playerName(p, this.table().players) }) : playerName(p, this.table().players)) : t("seat.empty")));
      if (!filled && owner) {
        const level = h("select", { class: "level-select", "aria-label": t("lobby.bot.level") },
          ["random", "easy", "medium", "hard"].map((l) => h("option", { value: l, selected: l === "medium" }, t(`bot.level.${l}`))));
        row.append(level, h("button", {
          class: "btn small", type: "button",
          on: { click: async (e) => {
            e.currentTarget.disabled = true;
            try { await api.addBot(table.id, p.seat, level.value); } catch (err) { toast(errorText(err), "error"); e.currentTarget.disabled = false; }
          } },
        }, t("wait.add_bot")));
      }
      return row;
    });
    const parts = [h("h2", null, t("wait.title")), h("p", null, t("wait.text"))];
    if (code) {
      const input = h("input", { class: "invite-link", type: "text", readonly: true, value: linkUrl, "aria-label": t("wait.link"), on: { focus: (e) => e.target.select() } });
      parts.push(h("div", { class: "invite" },
        input,
        h("button", { class: "btn primary", type: "button", dataset: { focusKey: "copy" }, on: { click: async () => {
          const ok = await copyText(linkUrl);
          toast(ok ? t("wait.copied") : t("wait.copy_failed"), ok ? "info" : "error");
        } } }, t("wait.copy"))),
      h("p", { class: "hint" }, t("wait.code", { code })));
    }
    parts.push(h("ul", { class: "wait-seats" }, seats));
    return h("div", { class: "center-card waiting-room" }, parts);
  }

  renderHand() {
    const view = this.view();
    const variant = this.variant();
    const hand = this.el.hand;
    if (this.seat === null) {
      replace(hand);
      return;
    }
    const mine = this.myTurn() && this.sentVersion === null && this.connection === "open";
    const legalCards = new Set(view.legal.map((p) => p.card));
    const active = document.activeElement && hand.contains(document.activeElement) ? document.activeElement.dataset.card : null;
    const focusCard = this.choice ? this.choice.card : (view.hand.includes(active) ? active : view.hand[0]);
    hand.classList.toggle("my-turn", mine);
    replace(hand, view.hand.map((card, i) => {
      const options = mine ? this.optionsFor(card) : [];
      const takes = options.length === 1 && options[0].take.length;
      const label = [cardLabel(card, variant)];
      if (options.length > 1) label.push(t("hand.choices", { count: options.length, n: options.length }));
      else if (takes) label.push(t("hand.takes", { cards: options[0].take.map(cardName).join(t("list.and")) }));
      const button = h("button", {
        type: "button",
        class: ["card", "hand-card", this.choice && this.choice.card === card && "selected", mine && legalCards.has(card) && "playable", options.length > 1 && "multi"],
        "aria-label": label.join(t("list.sep")),
        "aria-keyshortcuts": String(i + 1),
        "aria-disabled": mine ? "false" : "true",
        tabindex: card === focusCard ? "0" : "-1",
        dataset: { card, focusKey: `hand-${card}`, index: String(i + 1) },
        on: {
          click: () => this.activate(card),
          mouseenter: () => this.setPreview(card),
          mouseleave: () => this.setPreview(null),
          focus: () => this.setPreview(card),
          blur: () => this.setPreview(null),
        },
      }, cardFace(card, variant),
      h("span", { class: "key-hint", "aria-hidden": "true" }, num(i + 1)),
      options.length > 1 ? h("span", { class: "multi-badge", "aria-hidden": "true" }, num(options.length)) : null);
      return button;
    }));
  }

  setPreview(card) {
    if (!this.state || this.choice) return;
    let preview = null;
    if (card && this.myTurn()) {
      const options = this.optionsFor(card);
      if (options.length === 1 && options[0].take.length) preview = options[0].take;
      else if (options.length > 1) preview = [...new Set(options.flatMap((o) => o.take))];
    }
    this.preview = preview;
    for (const el of this.el.floor.querySelectorAll(".floor-card")) {
      el.classList.toggle("preview", !!preview && preview.includes(el.dataset.card));
    }
  }

  /** "Waiting for your opponent…", or for the other players when there are several. */
  arrivingText() {
    const others = this.table().players.filter((p) => p.kind === "human" && p.seat !== this.seat);
    return others.length > 1 ? t("status.arriving_many") : t("status.arriving");
  }

  renderMe() {
    const view = this.view();
    const table = this.table();
    if (this.seat === null) {
      replace(this.el.meBar, h("span", { class: "me-status" }, t("table.spectating")));
      return;
    }
    const player = table.players[this.seat];
    const pile = view.pile_counts[this.mySide()] || 0;
    let status;
    if (table.status === "waiting") status = t("status.waiting_players");
    else if (table.status === "finished") status = t("status.over");
    else if (table.status === "abandoned") status = t("status.abandoned");
    else if (table.phase === "arriving") status = this.arrivingText();
    else if (table.phase === "seeding") status = t("status.seeding");
    else if (this.myTurn()) status = this.choice ? t("status.choose") : t("status.your_turn");
    else if (view.turn !== null) status = t("status.waiting_for", { name: this.seatName(view.turn) });
    else status = "";
    replace(this.el.meBar,
      h("div", { class: ["me-who", this.myTurn() && "turn"] },
        this.avatar(this.seat, player),
        h("span", { class: "me-name" }, playerName(player, this.table().players)),
        view.dealer === this.seat ? h("span", { class: "badge dealer", title: t("seat.dealer") }, t("seat.dealer_short")) : null),
      h("div", { class: "me-status", role: "status" }, status),
      h("div", { class: "me-pile", dataset: { pileSeat: String(this.seat) }, title: t("score.pile"), "aria-label": t("score.pile_count", { count: pile, n: pile }) }, pileIcon(), num(pile)),
      h("div", { class: "turn-clock", role: "timer", hidden: !(this.clock && this.clock.seat === this.seat) },
        h("div", { class: "turn-clock-bar" }), h("span", { class: "turn-clock-text" })));
  }

  renderChoice() {
    const bar = this.el.choice;
    const choice = this.choice;
    if (!choice) {
      bar.hidden = true;
      clear(bar);
      return;
    }
    bar.hidden = false;
    replace(bar,
      h("div", { class: "choice-title", id: "choice-title" }, t("choice.title", { card: cardShort(choice.card) })),
      h("div", { class: "choice-options", role: "group", "aria-labelledby": "choice-title" },
        choice.options.map((option, i) => h("button", {
          type: "button",
          class: ["btn", "choice-option", i === choice.focus && "focus"],
          dataset: { option: String(i), focusKey: `option-${i}` },
          "aria-label": t("choice.option_label", { n: i + 1, cards: option.take.map(cardName).join(t("list.and")) }),
          "aria-keyshortcuts": String(i + 1),
          on: {
            click: () => this.playOption(i),
            mouseenter: () => this.focusOption(i),
            focus: () => this.focusOption(i),
            keydown: (e) => this.choiceKeys(e, i),
          },
        }, h("span", { class: "opt-num" }, num(i + 1)), h("span", { class: "opt-cards" }, option.take.map(cardShort).join(" + "))))),
      h("button", { type: "button", class: "btn ghost small", dataset: { focusKey: "choice-cancel" }, on: { click: () => this.cancelChoice() } }, t("choice.cancel")));
  }

  focusOption(i) {
    if (!this.choice || this.choice.focus === i) return;
    this.choice.focus = i;
    const option = this.choice.options[i];
    for (const el of this.el.floor.querySelectorAll(".floor-card")) {
      el.classList.toggle("opt-focus", option.take.includes(el.dataset.card));
      for (const badge of el.querySelectorAll(".opt-badge")) badge.classList.toggle("on", badge.textContent === num(i + 1));
    }
    for (const b of this.el.choice.querySelectorAll(".choice-option")) b.classList.toggle("focus", b.dataset.option === String(i));
  }

  choiceKeys(event, i) {
    const n = this.choice.options.length;
    const forward = isRTL() ? "ArrowLeft" : "ArrowRight";
    const back = isRTL() ? "ArrowRight" : "ArrowLeft";
    let next = null;
    if (event.key === forward || event.key === "ArrowDown") next = (i + 1) % n;
    if (event.key === back || event.key === "ArrowUp") next = (i - 1 + n) % n;
    if (next !== null) {
      event.preventDefault();
      this.el.choice.querySelector(`[data-option="${next}"]`).focus();
    }
  }

  // ---------------------------------------------------------------- playing

  activate(card) {
    if (!this.state) return;
    if (!this.myTurn()) {
      this.nudge(card, this.table().status === "playing" ? t("hand.not_your_turn") : null);
      return;
    }
    if (this.sentVersion !== null) return;
    const options = this.optionsFor(card);
    if (options.length === 0) return;
    if (options.length === 1) {
      this.play(options[0]);
      return;
    }
    this.choice = { card, options, focus: 0 };
    this.preview = null;
    this.render(null);
    announce(t("choice.announce", { count: options.length, n: options.length, card: cardName(card) }));
    const first = this.el.choice.querySelector(".choice-option");
    if (first) first.focus();
  }

  nudge(card, message) {
    const el = this.el.hand.querySelector(`[data-card="${card}"]`);
    if (el && !reducedMotion()) el.animate([{ transform: "translateX(0)" }, { transform: "translateX(-5px)" }, { transform: "translateX(5px)" }, { transform: "translateX(0)" }], { duration: 240 });
    if (message) toast(message, "info", 1800);
  }

  playOption(i) {
    if (!this.choice) return;
    const option = this.choice.options[i];
    this.play(option);
  }

  cancelChoice() {
    if (!this.choice) return;
    const card = this.choice.card;
    this.choice = null;
    this.render(null);
    const el = this.el.hand.querySelector(`[data-card="${card}"]`);
    if (el) el.focus();
  }

  floorClick(card) {
    if (!this.choice) return;
    const matching = this.choice.options.map((o, i) => (o.take.includes(card) ? i : -1)).filter((i) => i >= 0);
    if (matching.length === 1) {
      this.playOption(matching[0]);
    } else if (matching.length > 1) {
      const at = matching.indexOf(this.choice.focus);
      const next = matching[(at + 1) % matching.length];
      this.focusOption(next);
      const b = this.el.choice.querySelector(`[data-option="${next}"]`);
      if (b) b.focus();
    }
  }

  /** Send a play: only ever one of view.legal, on the version it came with. */
  play(option) {
    const legal = this.view().legal.find((p) => p.card === option.card && sameList(p.take, option.take));
    if (!legal || this.sentVersion !== null) return;
    const message = { type: "play", version: this.state.version, card: legal.card, take: legal.take.slice() };
    if (!this.send(message)) return;
    this.sentVersion = this.state.version;
    this.choice = null;
    this.preview = null;
    this.render(null);
    const el = this.el.hand.querySelector(`[data-card="${legal.card}"]`);
    if (el) el.classList.add("sending");
  }

  handKeys(event) {
    const buttons = Array.from(this.el.hand.querySelectorAll(".hand-card"));
    const index = buttons.indexOf(document.activeElement);
    if (index < 0) return;
    const forward = isRTL() ? "ArrowLeft" : "ArrowRight";
    const back = isRTL() ? "ArrowRight" : "ArrowLeft";
    let next = null;
    if (event.key === forward) next = (index + 1) % buttons.length;
    else if (event.key === back) next = (index - 1 + buttons.length) % buttons.length;
    else if (event.key === "Home") next = 0;
    else if (event.key === "End") next = buttons.length - 1;
    if (next !== null) {
      event.preventDefault();
      buttons.forEach((b, i) => { b.tabIndex = i === next ? 0 : -1; });
      buttons[next].focus();
    }
  }

  keydown(event) {
    if (!this.state || event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT" || target.isContentEditable)) return;
    if (event.key === "Escape") {
      if (this.choice) { event.preventDefault(); this.cancelChoice(); return; }
      if (this.overlay && this.overlay.kind === "round") { event.preventDefault(); this.closeOverlay(); return; }
    }
    if (/^[1-9]$/.test(event.key)) {
      const n = Number(event.key);
      if (this.choice) {
        if (n <= this.choice.options.length) { event.preventDefault(); this.playOption(n - 1); }
        return;
      }
      const card = this.view().hand[n - 1];
      if (card && !this.overlay) { event.preventDefault(); this.activate(card); }
    }
  }

  // ---------------------------------------------------------------- the clock

  tick() {
    const loop = () => {
      if (this.destroyed) return;
      this.raf = requestAnimationFrame(loop);
      if (!this.state || !this.el) return;
      if (this.connection === "reconnecting" && !this.el.banner.hidden) {
        const second = Math.ceil((this.reconnectAt - Date.now()) / 1000);
        if (second !== this.bannerSecond) { this.bannerSecond = second; this.renderBanner(); }
      }
      for (const ring of this.container.querySelectorAll(".clock-ring")) {
        const seat = Number(ring.dataset.clockSeat);
        const on = this.clock && this.clock.seat === seat;
        ring.classList.toggle("on", !!on);
        if (!on) continue;
        const left = Math.max(0, this.clock.end - performance.now());
        const fraction = left / this.clock.total;
        ring.querySelector(".ring-fg").style.strokeDashoffset = String(100 - fraction * 100);
        ring.classList.toggle("low", left < 10000);
      }
      const clockBox = this.el.meBar.querySelector(".turn-clock");
      if (clockBox && this.clock && this.clock.seat === this.seat) {
        const left = Math.max(0, this.clock.end - performance.now());
        clockBox.hidden = false;
        clockBox.style.setProperty("--left", String(left / this.clock.total));
        clockBox.classList.toggle("low", left < 10000);
        const second = Math.ceil(left / 1000);
        if (second !== this.clockSecond) {
          this.clockSecond = second;
          clockBox.querySelector(".turn-clock-text").textContent = t("clock.seconds", { n: num(second) });
          clockBox.setAttribute("aria-label", t("clock.left", { count: second, n: second }));
          if (second === 10) announce(t("clock.left", { count: 10, n: 10 }));
        }
      } else if (clockBox) {
        clockBox.hidden = true;
      }
    };
    this.raf = requestAnimationFrame(loop);
  }

  // ---------------------------------------------------------------- rounds, overlays

  roundEvents(prev, state) {
    const view = state.view;
    const table = state.table;
    const newPlays = prev && prev.view.round === view.round ? view.plays.slice(prev.view.plays.length) : [];
    for (const play of newPlays) this.announcePlay(play);
    // The breakdown is taken from this state (the finished round's plays), and shown once
    // the last play has flown to its pile.
    const wait = prev && !reducedMotion() ? 1300 : 0;
    if (table.status === "finished" && (!prev || prev.table.status !== "finished")) {
      this.openOverlay("match", wait);
      return;
    }
    if (prev && view.results.length > prev.view.results.length && table.status !== "finished") {
      this.openOverlay("round", wait);
    }
  }

  announcePlay(play) {
    const who = this.seatName(play.seat);
    let text = play.take.length
      ? t("log.take", { name: who, card: cardName(play.card), cards: play.take.map(cardName).join(t("list.and")) })
      : t("log.lay", { name: who, card: cardName(play.card) });
    if (play.basra) text += ` ${t("log.basra", { points: play.basra })}`;
    announce(text);
  }

  openOverlay(kind, wait = 0) {
    const view = this.view();
    const overlay = { kind, round: view.round, breakdown: roundBreakdown(view) };
    const show = () => {
      if (this.destroyed || (this.overlay && this.overlay.kind === "match")) return;
      this.overlay = overlay;
      this.render(null);
      const first = this.el.overlay.querySelector("[data-autofocus]");
      if (first) first.focus({ preventScroll: true });
    };
    clearTimeout(this.overlayTimer);
    if (wait > 0) this.overlayTimer = setTimeout(show, wait);
    else show();
  }

  closeOverlay() {
    if (!this.overlay) return;
    this.overlay = null;
    this.render(null);
    const card = this.el.hand.querySelector('.hand-card[tabindex="0"]');
    if (card) card.focus({ preventScroll: true });
  }

  renderOverlay() {
    const host = this.el.overlay;
    if (!this.overlay) {
      clear(host);
      host.hidden = true;
      return;
    }
    host.hidden = false;
    const o = this.overlay;
    const view = this.view();
    const table = this.table();
    const body = [];
    if (o.kind === "match") {
      const mySide = this.mySide();
      const won = view.winner !== null && view.winner === mySide;
      const title = view.winner === null ? t("end.over")
        : this.seat === null ? t("end.winner", { name: this.sideName(view.winner) })
          : won ? t("end.you_won") : t("end.you_lost", { name: this.sideName(view.winner) });
      body.push(h("div", { class: ["end-banner", won ? "won" : "lost"] }, won ? trophy() : null, h("h2", { id: "overlay-title" }, title)));
      body.push(this.totalsTable(view.totals, view.winner));
      if (o.breakdown) body.push(h("details", { class: "last-round" }, h("summary", null, t("end.last_round", { n: num(o.breakdown.round) })), this.breakdownTable(o.breakdown)));
      const me = this.seat !== null ? table.players[this.seat] : null;
      const asked = me && me.rematch;
      const others = table.players.filter((p) => p.kind === "human" && p.seat !== this.seat);
      const actions = [];
      if (table.rematch_table) {
        actions.push(link(`/table/${encodeURIComponent(table.rematch_table)}`, { class: "btn primary", dataset: { autofocus: "", focusKey: "go-rematch" } }, t("end.go_rematch")));
      } else if (this.seat !== null && !this.closed) {
        actions.push(h("button", { class: "btn primary", type: "button", disabled: !!asked, dataset: { autofocus: "", focusKey: "rematch" }, on: { click: () => this.send({ type: "rematch" }) } }, asked ? t("end.rematch_waiting") : t("end.rematch")));
      }
      actions.push(h("a", { class: "btn", href: recordUrl(table.id), download: `basra-${table.id}.json`, dataset: { focusKey: "record", autofocus: actions.length ? undefined : "" } }, t("end.record")));
      actions.push(link("/", { class: "btn ghost" }, t("nav.lobby")));
      body.push(h("div", { class: "overlay-actions" }, actions));
      if (others.length && !this.closed) {
        body.push(h("ul", { class: "rematch-list" }, others.map((p) => h("li", null, playerName(p, this.table().players), " — ", p.rematch ? t("end.wants_rematch") : t("end.no_answer")))));
      }
      if (this.closed) body.push(h("p", { class: "hint closed-note", dataset: { notice: "closed" } }, t("end.closed")));
    } else {
      body.push(h("h2", { id: "overlay-title" }, t("round_end.title", { n: num(o.round) })));
      if (o.breakdown) body.push(this.breakdownTable(o.breakdown));
      const verdict = this.verifications.get(o.round);
      body.push(h("p", { class: ["fair-line", verdict ? verdict.verdict || (verdict.fair ? "fair" : "unfair") : "pending"] },
        verdict ? this.verdictTitle(verdict, o.round) : t("fair.checking"),
        verdict ? h("span", { class: "verdict-detail" }, " ", this.verdictDetail(verdict)) : null,
        " ", h("a", { href: "#fairness", on: { click: (e) => { e.preventDefault(); this.closeOverlay(); this.el.fair.scrollIntoView(); } } }, t("fair.details"))));
      const seeding = table.phase === "seeding" && this.seat !== null;
      const sent = seeding && table.fairness.current && (this.partIn() || this.readyRound === table.fairness.current.round);
      const actions = [];
      if (seeding) {
        actions.push(h("button", { class: "btn primary", type: "button", disabled: sent, dataset: { autofocus: "", focusKey: "next-round" }, on: { click: () => this.ready() } }, sent ? t("deal.waiting") : t("round_end.next")));
      }
      const turn = this.myTurn();
      actions.push(h("button", { class: ["btn", !seeding && "primary", "close-overlay"], type: "button", dataset: { focusKey: "close-overlay", autofocus: seeding ? undefined : "" }, on: { click: () => this.closeOverlay() } }, turn ? t("round_end.play") : t("round_end.close")));
      body.push(h("div", { class: "overlay-actions" }, actions));
      if (seeding) body.push(h("p", { class: "hint" }, t("round_end.soon")));
      else if (turn) body.push(h("p", { class: "hint your-turn-hint" }, t("round_end.your_turn")));
    }
    replace(host, h("div", { class: "overlay-backdrop" },
      h("div", { class: ["overlay-card", `overlay-${o.kind}`], role: "dialog", "aria-modal": "false", "aria-labelledby": "overlay-title" }, body)));
  }

  totalsTable(totals, winner) {
    const rows = totals.map((total, side) => h("tr", { class: [side === this.mySide() && "mine", side === winner && "winner"] },
      h("th", { scope: "row" }, this.sideName(side)), h("td", null, num(total))));
    return h("table", { class: "totals-table" },
      h("caption", { class: "sr-only" }, t("end.final_scores")),
      h("tbody", null, rows));
  }

  breakdownTable(b) {
    const sides = Array.from({ length: b.sides }, (_, i) => i);
    const head = h("tr", null, h("th", { scope: "col" }, h("span", { class: "sr-only" }, t("breakdown.item"))),
      sides.map((side) => h("th", { scope: "col", class: side === this.mySide() ? "mine" : "" }, this.sideName(side))));
    const rows = [];
    // Numbers with signs stay left-to-right inside right-to-left text.
    const row = (label, cells, cls) => rows.push(h("tr", { class: cls }, h("th", { scope: "row" }, label), cells.map((c, i) => h("td", { class: i === this.mySide() ? "mine" : "" }, h("bdi", { dir: "ltr" }, c)))));
    const signed = (n) => (n > 0 ? `+${num(n)}` : n < 0 ? `−${num(-n)}` : "—");
    row(t("breakdown.cards"), b.cards.map((n) => num(n)), "muted");
    if (b.exact) {
      const v = variantOf(this.variant());
      const majLabel = v.majority.kind === "27-of-52" ? t("breakdown.majority27", { n: v.majority.points }) : t("breakdown.majority_most", { n: v.majority.points });
      row(majLabel, b.majority.map((m) => (m > 0 && b.carryIn > 0 && m > v.majority.points ? `${signed(m)} ${t("breakdown.with_carry", { n: num(b.carryIn) })}` : signed(m))));
      for (const line of b.lines) {
        row(t(`breakdown.line.${line.spec}`, { each: line.each }), line.counts.map((count, i) => (count ? `${line.spec.length === 1 ? `×${num(count)} ` : ""}${signed(line.points[i])}` : "—")));
      }
      row(t("breakdown.basras"), b.basras.map((n, i) => (n ? `×${num(n)} ${signed(b.basraPoints[i])}` : "—")));
    }
    row(t("breakdown.round_points"), b.points.map((n) => signed(n)), "sum");
    row(t("breakdown.totals"), b.totals.map((n) => num(n)), "total");
    const notes = [];
    if (b.tie) notes.push(h("p", { class: "note" }, t("breakdown.tie", { n: num(b.carryOut) })));
    if (b.setWinner !== undefined && b.setWinner !== null) notes.push(h("p", { class: "note" }, t("breakdown.set_won", { name: this.sideName(b.setWinner) })));
    return h("div", { class: "breakdown" },
      h("table", { class: "breakdown-table" }, h("caption", { class: "sr-only" }, t("breakdown.caption", { n: b.round })), h("thead", null, head), h("tbody", null, rows)),
      notes);
  }

  renderScores() {
    const view = this.view();
    const sides = sideCount(view.seats, view.teams);
    const panel = this.el.scores;
    const rows = view.results.map((r, i) => h("tr", null,
      h("th", { scope: "row" }, num(i + 1)),
      r.points.map((p, side) => h("td", { class: side === this.mySide() ? "mine" : "" }, num(p), h("small", null, ` (${num(r.totals[side])})`)))));
    replace(panel,
      h("h2", { id: "scores-title" }, t("scores.title")),
      view.results.length ? h("table", { class: "score-sheet" },
        h("thead", null, h("tr", null, h("th", { scope: "col" }, t("scores.round")),
          Array.from({ length: sides }, (_, side) => h("th", { scope: "col", class: side === this.mySide() ? "mine" : "" }, this.sideName(side))))),
        h("tbody", null, rows)) : h("p", { class: "muted" }, t("scores.none")),
      h("p", { class: "muted small" }, t("scores.hint", { n: num(view.target) })),
      h("a", { class: "btn small", href: recordUrl(this.table().id), download: `basra-${this.table().id}.json` }, t("end.record")));
  }

  renderLog() {
    const view = this.view();
    const items = view.plays.slice(-12).reverse().map((p) => h("li", { class: p.basra ? "basra" : "" },
      h("span", { class: "log-who" }, this.seatName(p.seat)),
      " ",
      h("span", { class: "log-card" }, cardShort(p.card)),
      p.take.length ? [" → ", h("span", { class: "log-take" }, p.take.map(cardShort).join(" "))] : null,
      p.basra ? h("span", { class: "log-basra" }, ` ${t("basra.word")} `, h("bdi", { dir: "ltr" }, `+${num(p.basra)}`)) : null));
    replace(this.el.log,
      h("h2", { id: "log-title" }, t("log.title")),
      items.length ? h("ol", { class: "play-log", reversed: true }, items) : h("p", { class: "muted" }, t("log.none")));
  }

  // ---------------------------------------------------------------- fairness panel

  buildFairness() {
    const panel = this.el.fair;
    this.el.fairCurrent = h("div", { class: "fair-current" });
    this.seedInput = h("input", {
      type: "text", id: "own-text", class: "seed-input", maxlength: 4 * OWN_TEXT_BYTES, spellcheck: "false", autocomplete: "off",
      value: this.local.ownText || "", "aria-describedby": "own-text-hint",
      on: { input: () => { this.seedDirty = true; } },
    });
    const form = h("form", {
      class: "seed-form",
      on: { submit: (e) => { e.preventDefault(); this.useText(this.seedInput.value); } },
    },
    h("label", { for: "own-text" }, t("fair.own_text")),
    h("div", { class: "seed-row" }, this.seedInput,
      h("button", { class: "btn small", type: "submit" }, t("fair.use_text")),
      h("button", { class: "btn ghost small", type: "button", on: { click: () => { this.seedInput.value = ""; this.useText(""); } } }, t("fair.clear_text"))),
    h("p", { class: "hint", id: "own-text-hint" }, t("fair.text_hint", { n: num(OWN_TEXT_BYTES) })));
    this.el.seedForm = form;
    this.el.fairResults = h("div", { class: "fair-results" });
    replace(panel,
      h("h2", { id: "fair-title" }, t("fair.title")),
      h("p", { class: "muted small" }, t("fair.intro")),
      h("p", { class: "muted small parts-intro" }, t("fair.parts_intro")),
      this.el.fairCurrent, form, this.el.fairResults);
  }

  /** The player's own text for their part: kept, and (during a seed window) a new fresh
   * part with it is sent for the pending round at once. */
  useText(value) {
    const raw = String(value).trim();
    if (raw.includes("|") || /[\u0000-\u001f\u007f-\u009f]/.test(raw)) {
      toast(t("fair.text_bad"), "error");
      return;
    }
    // Kept whole; each part takes its first 43 bytes (freshPart cuts it).
    const text = cleanText(raw, 4 * OWN_TEXT_BYTES);
    this.local.ownText = text;
    this.seedDirty = false;
    if (this.seedInput) this.seedInput.value = text;
    this.saveLocal();
    const round = this.pendingRound();
    if (round !== null && this.seat !== null) {
      if (this.sendPart(round)) toast(t("fair.text_sent", { n: num(round) }), "info", 2500);
    } else {
      toast(t("fair.text_next"), "info", 2500);
    }
    if (this.state) this.renderFairness();
  }

  renderFairness() {
    const table = this.table();
    const current = table.fairness.current;
    const parts = [];
    if (current) {
      const mine = this.seat !== null ? this.partsFor(current.round) : [];
      const held = this.seat !== null && table.players[this.seat] ? table.players[this.seat].client_seed : null;
      const started = !!current.client_seed;
      // The part that counts: the one the server holds (when it is this browser's), else
      // the latest this page sent, else, once dealt, the one in the client seed.
      let myPart = held && mine.includes(held) ? held : mine[mine.length - 1] || null;
      if (started) myPart = String(current.client_seed).split("|")[this.seat] || myPart;
      const facts = [
        h("dt", null, t("fair.commitment")), h("dd", null, h("code", { class: "hash", dataset: { commitment: current.commitment } }, current.commitment)),
      ];
      if (this.seat !== null) {
        facts.push(h("dt", null, t("fair.your_part")), h("dd", null, myPart
          ? h("code", { class: "hash own-part", dataset: { part: myPart } }, myPart)
          : h("span", { class: "muted" }, started ? t("fair.your_part_none") : t("fair.your_part_pending"))));
      }
      facts.push(
        h("dt", null, t("fair.client_seed")), h("dd", null, started ? h("code", { class: "hash" }, current.client_seed) : h("span", { class: "muted" }, t("fair.client_seed_pending"))),
        h("dt", null, t("fair.server_seed")), h("dd", null, h("span", { class: "muted" }, t("fair.server_seed_hidden"))));
      parts.push(h("h3", null, t("fair.round_n", { n: num(current.round) })));
      parts.push(h("dl", { class: "fair-facts" }, facts));
    }
    replace(this.el.fairCurrent, parts);
    if (this.seedInput && document.activeElement !== this.seedInput && !this.seedDirty) {
      this.seedInput.value = this.local.ownText || "";
    }
    this.seedInput.disabled = this.seat === null;
    this.el.seedForm.hidden = this.seat === null || table.status === "finished" || table.status === "abandoned";
    const revealed = table.fairness.revealed.slice().reverse();
    replace(this.el.fairResults, revealed.map((r) => this.fairResult(r)));
  }

  verdictTitle(result, round) {
    const n = num(round);
    if (!result) return t("fair.checking_round", { n });
    if (result.verdict === "unverifiable") return t("fair.verdict_unverifiable_round", { n });
    return result.fair ? t("fair.verdict_fair_round", { n }) : t("fair.verdict_unfair_round", { n });
  }

  verdictDetail(result) {
    if (!result) return null;
    if (result.verdict === "unverifiable") return t("fair.verdict_unverifiable_detail");
    return result.fair ? t("fair.verdict_fair_detail") : t("fair.verdict_unfair_detail");
  }

  fairResult(r) {
    const result = this.verifications.get(r.round);
    const verdict = !result ? "pending" : result.verdict || (result.fair ? "fair" : "unfair");
    const details = [];
    details.push(h("dl", { class: "fair-facts" },
      h("dt", null, t("fair.server_seed")), h("dd", null, h("code", { class: "hash" }, r.server_seed)),
      h("dt", null, t("fair.commitment")), h("dd", null, h("code", { class: "hash" }, r.commitment)),
      h("dt", null, t("fair.client_seed")), h("dd", null, h("code", { class: "hash" }, r.client_seed)),
      h("dt", null, t("fair.nonce")), h("dd", null, num(r.nonce))));
    if (result) {
      details.push(h("ul", { class: "checks" }, result.checks.map((c) => h("li", { class: c.ok === true ? "ok" : c.ok === false ? "bad" : "info", dataset: { check: c.id } },
        h("span", { class: "check-mark", "aria-hidden": "true" }, c.ok === true ? "✓" : c.ok === false ? "✗" : "•"),
        " ", h("span", { class: "check-text" }, this.checkText(c)),
        c.id === "parts" && c.parts ? this.partsList(c) : null))));
      if (result.deck) {
        details.push(h("details", { class: "deck" }, h("summary", null, t("fair.deck")),
          h("p", { class: "deck-cards", dir: "ltr" }, result.deck.map(cardShort).join(" "))));
      }
      if (result.source === "record") details.push(h("p", { class: "hint" }, t("fair.from_record")));
    }
    const detail = this.verdictDetail(result);
    const icon = verdict === "fair" ? "✓" : verdict === "unfair" ? "✗" : verdict === "unverifiable" ? "?" : "…";
    return h("div", { class: ["fair-result", verdict], dataset: { round: String(r.round), verdict } },
      h("div", { class: "verdict" },
        h("span", { class: "verdict-icon", "aria-hidden": "true" }, icon),
        h("div", null, h("strong", null, this.verdictTitle(result, r.round)), detail ? h("div", { class: "verdict-detail" }, detail) : null)),
      h("details", { class: "fair-details", open: verdict === "unfair" }, h("summary", null, t("fair.details")), details));
  }

  /** Every seat's part of a revealed client seed, whose it is, and what was checked. */
  partsList(c) {
    const players = this.table().players;
    return h("ul", { class: "part-list" }, c.parts.map((p) => {
      const player = players[p.seat];
      const who = p.own ? t("seat.you") : player ? playerName(player, players) : t("seat.number", { n: num(p.seat + 1) });
      let tag;
      if (p.bot) tag = p.derived ? t("fair.part.bot_ok") : t("fair.part.bot_bad");
      else if (p.own) {
        const sent = c.ownPart && c.ownPart.sent;
        tag = p.ok === null ? t("fair.part.own_unknown") : p.ok ? (sent ? t("fair.part.own_ok") : t("fair.part.own_derived")) : (sent ? t("fair.part.own_bad") : t("fair.part.own_derived_bad"));
      } else tag = p.derived ? t("fair.part.player_derived") : t("fair.part.player");
      const state = p.ok === true ? "ok" : p.ok === false ? "bad" : "info";
      return h("li", { class: ["part-item", state], dataset: { seat: String(p.seat) } },
        h("span", { class: "part-who" }, who),
        h("code", { class: "hash part-value", dir: "ltr" }, p.part),
        h("span", { class: "part-tag" }, tag));
    }));
  }

  checkText(c) {
    if (c.id === "parts") {
      const bits = [];
      bits.push(c.count === c.seats ? t("fair.parts.count_ok", { count: c.seats, n: num(c.seats) })
        : t("fair.parts.count_bad", { count: c.count, parts: num(c.count), n: num(c.seats) }));
      if (c.parts && c.parts.some((p) => p.bot)) {
        bits.push(c.badBots.length ? t("fair.parts.bots_bad") : t("fair.parts.bots_ok"));
      }
      const own = c.ownPart;
      if (own) {
        if (own.ok === null) bits.push(t("fair.parts.own_unknown"));
        else if (own.sent) bits.push(own.ok ? t("fair.parts.own_ok") : t("fair.parts.own_bad"));
        else bits.push(own.ok ? t("fair.parts.own_derived_ok") : t("fair.parts.own_derived_bad"));
      }
      return bits.join(" ");
    }
    const key = `fair.check.${c.id}.${c.ok === true ? "ok" : c.ok === false ? "bad" : "info"}`;
    return t(key, {
      count: c.count ?? c.deals ?? 0, n: c.count ?? c.deals ?? 0,
      cards: (c.wrong || []).map((w) => (typeof w === "string" ? cardShort(w) : cardShort(w.card))).join(" "),
    });
  }

  async verifyRevealed() {
    const table = this.table();
    for (const r of table.fairness.revealed) {
      if (this.verifications.has(r.round) || this.verifying.has(r.round)) continue;
      this.verifying.add(r.round);
      try {
        const result = await this.verifyOne(r);
        this.verifications.set(r.round, result);
        if (this.state) {
          this.renderFairness();
          this.renderOverlay();
        }
        if (this.overlay && this.overlay.round === r.round) announce(this.verdictTitle(result, r.round));
      } catch (err) {
        this.verifications.set(r.round, { fair: false, verdict: "unfair", checks: [{ id: "seed_format", ok: false, error: String(err) }], deck: null });
        this.renderFairness();
      } finally {
        this.verifying.delete(r.round);
      }
    }
  }

  async verifyOne(r) {
    const table = this.table();
    const seats = table.seats;
    let log = this.roundLogs.get(r.round);
    let source = "seen";
    if (!log || log.plays.length < PLAYS_PER_ROUND) {
      source = "record";
      const record = await api.record(table.id);
      const round = record.rounds[r.round - 1];
      let seat = (r.round - 1) % seats;
      const plays = round.plays.map((p) => {
        const entry = { seat: p.seat ?? seat, card: p.card };
        seat = (entry.seat + 1) % seats;
        return entry;
      });
      log = { plays, opening_floor: log ? log.opening_floor : [], dealer: (r.round - 1) % seats };
      // Without seats in the record the turn order is assumed: start after the dealer.
      if (round.plays.length && round.plays[0].seat === undefined) {
        let turn = (log.dealer + 1) % seats;
        for (const p of log.plays) { p.seat = turn; turn = (turn + 1) % seats; }
      }
    }
    this.mergeStored();
    const seenCommit = this.local.commits[r.round] || null;
    const result = await verifyRound(r, {
      variant: table.variant,
      seats,
      dealer: log.dealer ?? (r.round - 1) % seats,
      commitment: seenCommit,
      opening_floor: log.opening_floor,
      plays: log.plays,
      hands: this.seat !== null ? this.local.hands[r.round] || {} : null,
      seat: this.seat,
      kinds: table.players.map((p) => (p.kind === "bot" || String(p.name || "").startsWith("bot:") ? "bot" : p.kind)),
      // Only a page that was there before the round knows which part it sent (or that it sent none).
      sentParts: seenCommit ? this.partsFor(r.round).slice() : null,
      cardsFirst: !seenCommit && !!this.local.cardsFirst[r.round],
    });
    result.source = source;
    return result;
  }

  // ---------------------------------------------------------------- motion (motion.js)

  snapshot() {
    return motion.snapshot(this);
  }

  animate(prev, rects) {
    motion.animate(this, prev, rects);
  }

}

function pileIcon() {
  return s("svg", { class: "pile-icon", viewBox: "0 0 20 20", "aria-hidden": "true", focusable: "false" },
    s("rect", { x: 5, y: 2, width: 11, height: 15, rx: 2, transform: "rotate(10 10 10)" }),
    s("rect", { x: 4, y: 3, width: 11, height: 15, rx: 2 }));
}

function botIcon() {
  return s("svg", { class: "bot-icon", viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" },
    s("rect", { x: 4, y: 8, width: 16, height: 12, rx: 3 }),
    s("circle", { cx: 9, cy: 14, r: 1.6, class: "eye" }),
    s("circle", { cx: 15, cy: 14, r: 1.6, class: "eye" }),
    s("path", { d: "M12 8V4M10 4h4", class: "antenna" }));
}

function trophy() {
  return s("svg", { class: "trophy", viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" },
    s("path", { d: "M7 3h10v3a5 5 0 0 1-10 0zM5 4H3v2a4 4 0 0 0 4 4M19 4h2v2a4 4 0 0 1-4 4M12 11v5M8 21h8M9 16h6v5H9z" }));
}
