// The table page's state and every change to it, as pure functions: no DOM, no storage, no
// globals, no clock (a caller that needs time passes `now`). A change returns a new object
// and never alters the one it was given; a message that changes nothing (a pong, a stale
// state, an error that needs no change) returns the very same object. The page keeps one
// state, replaces it with what these functions return, and redraws (docs/BROWSER.md).

import { sideOf } from "../lib/variants.js";
import { awayReported, receiveHint } from "./asides.js";
import { initialSayings, receiveSaid, sayRefused } from "./sayings.js";
import { floorOrder } from "./laid.js";

export { awayDismissed, awayReported, hintAsked, nextRoundInfo } from "./asides.js";
export { floorOrder };

/** The state of a table page before the server has said anything. `knownSeat` is the seat
 * this browser had at this table (kept in its evidence), for a table replayed after it left
 * the server's memory, whose welcome names no seat. */
export function initialState({ id = "", knownSeat = null } = {}) {
  return {
    id,
    /** This page's seat, or null (a spectator, or not yet told). */
    seat: null,
    knownSeat,
    /** Welcomes so far: which connection a part was sent on. */
    connectionId: 0,
    /** connecting | open | reconnecting | ended | gone | closed */
    connection: "connecting",
    reconnectAt: 0,
    wasReconnecting: false,
    /** The banner says the connection is back. */
    flash: false,
    /** The game as the server last showed it: {version, you, view, table}, a `state`
     * message with every `played` message since applied to it. */
    game: null,
    /** A full state was asked for (sync): a `played` message did not follow the game. */
    syncing: false,
    /** The floor in the order its cards were laid. */
    floorOrder: [],
    /** The take choice: {card, options: [{card, take}], focus} while a card has several. */
    choice: null,
    /** Floor cards a hovered or focused hand card would take. */
    preview: null,
    /** The version a play was sent on, until a newer state or an error; and its card. */
    sentVersion: null,
    sentCard: null,
    /** {seat, remaining, total, at}: `remaining` ms of `total` as of `at` (the caller's now). */
    clock: null,
    /** When the round waiting for parts began to wait (the caller's now). */
    seedingSince: 0,
    /** round -> connectionId this page sent a part for it on. */
    partSentOn: {},
    /** The round this page said ready for. */
    readyRound: 0,
    /** round -> {plays: [{seat, card}], opening_floor, dealer}: what the fairness check needs. */
    roundLogs: {},
    /** round -> the result of fairness.verifyRound. */
    verifications: {},
    /** The overlay showing ({kind: "round" | "match", round, index}) and the one due next. */
    overlay: null,
    overlayDue: null,
    /** {reason}: the table left the server's memory. */
    closed: null,
    /** {ticket, variant, offer}: back to the quick-match queue. */
    requeued: null,
    /** A rematch table to go to. */
    follow: null,
    /** The wait for the next round: {round, remaining (ms, as of `at`), seconds, waiting}. */
    nextRound: null,
    /** Plays a bot made for this seat, not yet told: [{round, card, take, reason}]. */
    away: [],
    /** The hint the server gave ({version, card, take}) and the version one was asked on. */
    hint: null,
    hintAsked: null,
    /** Quick phrases and reactions (table/sayings.js). */
    sayings: initialSayings(),
  };
}

const with_ = (state, changes) => ({ ...state, ...changes });

// ---------------------------------------------------------------- reading the state

export const view = (state) => (state.game ? state.game.view : null);
export const table = (state) => (state.game ? state.game.table : null);

/** Whether this page is to play (and has something to play). */
export function myTurn(state) {
  const v = view(state);
  return !!v && state.seat !== null && v.turn === state.seat && v.legal.length > 0;
}

/** Whether a tap on a card sends a play now: this page's turn, nothing pending, connected. */
export function canPlay(state) {
  return myTurn(state) && state.sentVersion === null && state.connection === "open";
}

export function mySide(state) {
  const v = view(state);
  return state.seat === null || !v ? null : sideOf(state.seat, v.teams);
}

/** The legal plays of one card in hand. */
export function optionsFor(state, card) {
  const v = view(state);
  return v ? v.legal.filter((p) => p.card === card) : [];
}

/** The round waiting for parts (phase "seeding", its commitment out, not yet dealt), or null. */
export function pendingRound(state) {
  const t = state && table(state);
  const current = t && t.fairness && t.fairness.current;
  if (!t || t.phase !== "seeding" || !current || current.client_seed) return null;
  return current.round;
}

/** Whether this seat's part for the pending round is in: one this browser sent (`parts`,
 * from its evidence) held by the server, or one sent on this very connection. */
export function partIn(state, parts = []) {
  const round = pendingRound(state);
  if (round === null || state.seat === null) return false;
  const player = table(state).players[state.seat];
  const held = player && player.client_seed;
  return (!!held && parts.includes(held)) || state.partSentOn[round] === state.connectionId;
}

/** Whether the page sends this seat's part as soon as the pending round waits for it: the
 * first round, or one the player asked to be dealt (Continue). A later round waits for the
 * player, who is looking at the last round's summary. */
export function partDue(state) {
  const round = pendingRound(state);
  return round !== null && (round === 1 || state.readyRound === round);
}

/** Whether the match is under way for this seat: leaving it hands the cards to a bot. */
export function inMatch(state) {
  const t = table(state);
  return !!t && state.seat !== null && t.status === "playing" && !state.closed;
}

/** Whether this page sent its part or said ready for the pending round. */
export function readied(state, parts = []) {
  const t = table(state);
  const current = t && t.fairness && t.fairness.current;
  return partIn(state, parts) || (!!current && state.readyRound === current.round);
}

// ---------------------------------------------------------------- server messages

/** The state after a server message (basra-ws/2: welcome, state, played, error, pong,
 * requeued, closed, said). `now` is the caller's clock (ms), for the turn clock and the wait for
 * parts. A `played` message that does not follow the game (a version gap) sets `syncing`:
 * the page then asks for a full state (`sync`, again while none comes), and takes no
 * `played` message until one does. */
export function receive(state, message, now = 0) {
  switch (message && message.type) {
    case "welcome":
      return with_(state, { connectionId: state.connectionId + 1, seat: message.seat ?? null });
    case "state":
      return receiveState(state, message, now);
    case "played":
      return receivePlayed(state, message, now);
    case "error":
      return receiveError(state, message, now);
    case "said":
      return receiveSaid(state, message, now);
    case "closed":
      return with_(state, { closed: { reason: message.reason || "finished" }, connection: "ended" });
    case "away":
      return awayReported(state, message.plays || []);
    case "hint":
      return receiveHint(state, message);
    case "requeued": {
      const table = state.game ? state.game.table : {};
      return with_(state, { requeued: { ticket: message.ticket, variant: message.variant || table.variant || "", players: table.seats || 2, teams: !!table.teams, offer: message.bot_offer !== false } });
    }
    default:
      return state;
  }
}

function receiveError(state, message, now) {
  const code = message.code || "";
  if (code.startsWith("say/")) return sayRefused(state, code, now);
  if (code.startsWith("play/") || code === "protocol/rate_limited") {
    // The play was refused or dropped: the hand is free to play again. A dropped message
    // may have been this round's part, so the page sends another.
    const changes = { sentVersion: null, sentCard: null };
    if (code === "protocol/rate_limited") changes.partSentOn = {};
    return with_(state, changes);
  }
  return state;
}

function receiveState(state, game, now) {
  const prev = state.game;
  if (prev && game.version < prev.version) return state;
  const v = game.view;
  const t = game.table;
  let seat = game.you !== undefined ? game.you : state.seat;
  if (seat === null && state.knownSeat !== null && (t.status === "finished" || t.status === "abandoned")) {
    seat = state.knownSeat;
  }
  const next = with_(state, {
    game, seat, syncing: false, sentVersion: null, sentCard: null, preview: null,
    floorOrder: floorOrder(prev, game, state.floorOrder),
    clock: t.clock ? { seat: t.clock.seat, remaining: t.clock.remaining_ms, total: t.clock.seconds * 1000, at: now } : null,
    nextRound: t.next_round ? {
      round: t.next_round.round, remaining: t.next_round.remaining_ms, seconds: t.next_round.seconds,
      waiting: (t.next_round.waiting_for || []).slice(), at: now,
    } : null,
  });
  if (state.hint && state.hint.version !== game.version) next.hint = null;
  if (state.hintAsked !== null && state.hintAsked !== game.version) next.hintAsked = null;
  // The next round is dealt: its summary, and "While you were away" (plays of a round gone),
  // have been seen long enough; the new floor is left clear.
  if (state.overlay && state.overlay.kind === "round" && v.round > state.overlay.round) next.overlay = null;
  if (state.away.length && v.round > Math.max(...state.away.map((p) => p.round))) next.away = [];
  if (t.rematch_table && prev && !prev.table.rematch_table) next.follow = t.rematch_table;
  next.choice = narrowChoice(next, state.choice);
  if (v.round > 0) {
    next.roundLogs = { ...state.roundLogs, [v.round]: {
      plays: v.plays.map((p) => ({ seat: p.seat, card: p.card })),
      opening_floor: v.opening_floor.slice(),
      dealer: v.dealer,
    } };
  }
  const pending = pendingRound(next);
  if (pending !== null && pending !== pendingRound(state)) next.seedingSince = now;
  // The breakdown or the match end, due once the last play has landed.
  if (t.status === "finished" && (!prev || prev.table.status !== "finished")) {
    next.overlayDue = { kind: "match", round: v.round, index: v.results.length - 1 };
  } else if (prev && v.results.length > prev.view.results.length && t.status !== "finished") {
    next.overlayDue = { kind: "round", round: v.round, index: v.results.length - 1 };
  } else if (!prev && t.status === "playing" && pending !== null && pending > 1 && v.results.length) {
    // Opened while the next round waits: the summary it waits behind.
    next.overlayDue = { kind: "round", round: v.round, index: v.results.length - 1 };
  }
  return next;
}

/** The fields of a `played` message that replace the view's own, and those that make the
 * play appended to `view.plays` (docs/PROTOCOL.md, 2.1). */
const PLAYED_VIEW = ["round", "turn", "deal", "hand", "hand_counts", "floor", "stock_count",
  "pile_counts", "basras", "basra_points", "last_taker", "legal"];
const PLAYED_PLAY = ["seat", "card", "take", "basra"];

/** The game once a `played` message is applied to it: a new game, the very one a full state
 * of that version would be; null when the message does not follow `game` (not its next
 * version, another round, a field missing). The number watching (`spectators`) comes with
 * every `played` message and goes to the table. */
export function applyPlayed(game, m) {
  if (!game || m.version !== game.version + 1 || m.round !== game.view.round) return null;
  if (![...PLAYED_VIEW, ...PLAYED_PLAY, "clock"].every((k) => m[k] !== undefined)) return null;
  const view = { ...game.view };
  for (const k of PLAYED_VIEW) view[k] = m[k];
  view.plays = [...game.view.plays, Object.fromEntries(PLAYED_PLAY.map((k) => [k, m[k]]))];
  const table = { ...game.table, clock: m.clock };
  if (typeof m.spectators === "number") table.spectators = m.spectators;
  return { ...game, version: m.version, view, table };
}

function receivePlayed(state, message, now) {
  const game = state.game;
  // Already in the game (a snapshot came after it), or a full state is on its way.
  if ((game && message.version <= game.version) || state.syncing) return state;
  const next = applyPlayed(game, message);
  return next ? receiveState(state, next, now) : with_(state, { syncing: true });
}

/** The choice, if still open: this page's turn, the card still in hand, and the card's takes
 * as the new state lists them (fewer than two: no choice left to make). */
function narrowChoice(state, choice) {
  if (!choice || !myTurn(state) || !view(state).hand.includes(choice.card)) return null;
  const options = optionsFor(state, choice.card);
  if (options.length < 2) return null;
  const focused = choice.options[choice.focus];
  const at = focused ? options.findIndex((o) => sameList(o.take, focused.take)) : -1;
  return { card: choice.card, options, focus: at >= 0 ? at : 0 };
}

/** The seat this browser had at this table (from its evidence, once the player is known). */
export function rememberSeat(state, knownSeat) {
  return knownSeat === state.knownSeat ? state : with_(state, { knownSeat });
}

/** The state after the socket's status changes (socket.js: connecting, open, reconnecting,
 * ended, gone, closed); `info.at` is when the next attempt is due (wall-clock ms). */
export function connectionStatus(state, status, info = {}) {
  if (status === "reconnecting") {
    return with_(state, { connection: "reconnecting", wasReconnecting: true, reconnectAt: info.at || 0, choice: null, flash: false });
  }
  if (status === "open") {
    return with_(state, { connection: "open", wasReconnecting: false, flash: state.wasReconnecting || state.flash });
  }
  return with_(state, { connection: status });
}

// ---------------------------------------------------------------- playing

function sameList(a, b) {
  return a.length === b.length && a.every((x) => b.includes(x));
}

/** A card in hand is tapped: {state, play}. With one legal play, `play` is it (send it with
 * playMessage); with several the choice opens; otherwise nothing happens. */
export function pick(state, card) {
  if (!myTurn(state) || state.sentVersion !== null) return { state, play: null };
  const options = optionsFor(state, card);
  if (options.length === 1) return { state, play: options[0] };
  if (options.length === 0) return { state, play: null };
  return { state: with_(state, { choice: { card, options, focus: 0 }, preview: null }), play: null };
}

/** Option `i` of the choice gets the focus (its floor cards are highlighted). */
export function focusOption(state, i) {
  const choice = state.choice;
  if (!choice || choice.focus === i || !choice.options[i]) return state;
  return with_(state, { choice: { ...choice, focus: i } });
}

export function cancelChoice(state) {
  return state.choice ? with_(state, { choice: null }) : state;
}

/** Option `i` of the choice is chosen: {state, play}. */
export function chooseOption(state, i) {
  const option = state.choice && state.choice.options[i];
  return { state, play: option || null };
}

/** A floor card is tapped during a choice: the only option that takes it is played; among
 * several the focus moves to the next one that does. {state, play}. */
export function floorPick(state, card) {
  const choice = state.choice;
  if (!choice) return { state, play: null };
  const matching = choice.options.map((o, i) => (o.take.includes(card) ? i : -1)).filter((i) => i >= 0);
  if (matching.length === 1) return { state, play: choice.options[matching[0]] };
  if (matching.length === 0) return { state, play: null };
  const next = matching[(matching.indexOf(choice.focus) + 1) % matching.length];
  return { state: focusOption(state, next), play: null };
}

/** The message for a play: only ever one of view.legal, on the version it came with, and
 * none while another play is pending. Null otherwise. */
export function playMessage(state, option) {
  const v = view(state);
  if (!v || !option || state.sentVersion !== null) return null;
  const legal = v.legal.find((p) => p.card === option.card && sameList(p.take, option.take));
  if (!legal) return null;
  return { type: "play", version: state.game.version, card: legal.card, take: legal.take.slice() };
}

/** A play went out: nothing more is sent until a newer state (or an error) comes. */
export function playSent(state, message) {
  return with_(state, { sentVersion: message.version, sentCard: message.card, choice: null, preview: null, hint: null });
}

/** A hand card is hovered or focused (null: no longer): the floor cards it would take. */
export function setPreview(state, card) {
  if (state.choice || !state.game) return state;
  let preview = null;
  if (card && myTurn(state)) {
    const options = optionsFor(state, card);
    if (options.length === 1 && options[0].take.length) preview = options[0].take;
    else if (options.length > 1) preview = [...new Set(options.flatMap((o) => o.take))];
  }
  const same = preview === state.preview || (preview && state.preview && sameList(preview, state.preview));
  return same ? state : with_(state, { preview });
}

// ---------------------------------------------------------------- fairness, overlays

/** A part went out for `round` on the current connection. */
export function partSent(state, round) {
  return with_(state, { partSentOn: { ...state.partSentOn, [round]: state.connectionId } });
}

/** The player asked for the deal of the pending round. */
export function saidReady(state) {
  const t = table(state);
  const current = t && t.fairness && t.fairness.current;
  return with_(state, { readyRound: current ? current.round : 0 });
}

/** The page's check of a revealed round is done. */
export function verified(state, round, result) {
  return with_(state, { verifications: { ...state.verifications, [round]: result } });
}

/** Show the overlay that was due (a match end is never replaced by a round's). */
export function openOverlay(state, overlay = state.overlayDue) {
  if (!overlay || (state.overlay && state.overlay.kind === "match")) return with_(state, { overlayDue: null });
  return with_(state, { overlay, overlayDue: null });
}

export function closeOverlay(state) {
  return state.overlay ? with_(state, { overlay: null }) : state;
}

export const connectionFlashed = (state) => (state.flash ? with_(state, { flash: false }) : state);
