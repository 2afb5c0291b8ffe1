// Quick phrases and reactions at a table, as state: pure like state.js (which applies
// them). The server sends ids only (`said`: seat, phrase or reaction, the seat's count);
// each page shows them in its reader's language (phrases.js draws them). What a page keeps:
// the last things said (each shown a moment by its seat), when this seat last sent one
// (the gap between two), the seats this player muted and whether a spectator hid them all.
// The limits are the server's (GET /api/variants: limits.sayings_per_match, saying_gap_ms).

import { limits } from "../lib/variants.js";

/** The fixed lists (docs/PROTOCOL.md): the ids the server knows, in the order shown, as
 * GET /api/variants lists them (limits.phrases, limits.reactions); the words and the
 * pictures are the client's (phrases.js). */
const served = (name, fallback) => (Array.isArray(limits()[name]) ? limits()[name] : fallback);
export const PHRASES = Object.freeze(served("phrases", ["hello", "good_luck", "have_fun", "well_played", "thanks", "good_game", "bye"]).slice());
export const REACTIONS = Object.freeze(served("reactions", ["clap", "laugh", "wow", "sad", "heart"]).slice());
/** How long a bubble shows by its seat's name (ms). */
export const BUBBLE_MS = 4000;
/** How many said things the page keeps (the log shows the last of them). */
const KEEP = 20;

const with_ = (state, changes) => ({ ...state, ...changes });
const withSayings = (state, changes) => with_(state, { sayings: { ...state.sayings, ...changes } });

export function initialSayings() {
  return {
    /** What was said, oldest first: {id, seat, phrase | reaction, at (the caller's now)}. */
    items: [],
    next: 1,
    /** When this seat last sent one (the caller's now), or null. */
    sentAt: null,
    /** The phrase panel is open. */
    panel: false,
    /** Seats this player muted (their phrases are not shown). */
    muted: [],
    /** A spectator turned phrases off altogether. */
    hidden: false,
  };
}

/** The server's limits, with the contract's numbers until it says. */
export function sayLimits() {
  const l = limits();
  return { perMatch: l.sayings_per_match ?? 12, gap: l.saying_gap_ms ?? 2000 };
}

function players(state) {
  return state.game ? state.game.table.players : [];
}

/** How many this page's seat has said this match (the server's count). */
export function ownCount(state) {
  const p = state.seat !== null ? players(state)[state.seat] : null;
  return (p && p.said) || 0;
}

export function sayingsLeft(state) {
  return Math.max(0, sayLimits().perMatch - ownCount(state));
}

/** Ms left of the gap after this seat's last one, at `now`. */
export function gapLeft(state, now) {
  const at = state.sayings.sentAt;
  return at === null ? 0 : Math.max(0, at + sayLimits().gap - now);
}

/** Whether this page may send one now: a seat, connected, some left, the gap over. */
export function canSay(state, now) {
  if (!state.game || state.seat === null || state.closed || state.connection !== "open") return false;
  return sayingsLeft(state) > 0 && gapLeft(state, now) === 0;
}

/** Whether a seat's phrases are shown on this page: not muted here, and not hidden by a
 * spectator (the choice is a spectator's only: a seated player mutes seats). */
export function shown(state, seat) {
  const s = state.sayings;
  return !(s.hidden && state.seat === null) && !s.muted.includes(seat);
}

/** The game with `seat`'s count set (`players[i].said`), as the server's next state has it. */
function withCount(game, seat, count) {
  const list = game.table.players;
  if (!list[seat] || typeof count !== "number") return game;
  const next = list.map((p, i) => (i === seat ? { ...p, said: count } : p));
  return { ...game, table: { ...game.table, players: next } };
}

/** A `said` message: the seat's count taken, and the phrase kept to show unless that seat is
 * muted here (or phrases are hidden); an id outside the lists is ignored. */
export function receiveSaid(state, m, now) {
  const phrase = PHRASES.includes(m.phrase) ? m.phrase : null;
  const reaction = REACTIONS.includes(m.reaction) ? m.reaction : null;
  if ((!phrase && !reaction) || typeof m.seat !== "number") return state;
  const game = state.game ? withCount(state.game, m.seat, m.count) : null;
  const s = state.sayings;
  const changes = { game };
  const sayings = {};
  // The gap runs from the server's taking it.
  if (m.seat === state.seat) sayings.sentAt = now;
  if (shown(state, m.seat)) {
    const item = { id: s.next, seat: m.seat, at: now, ...(phrase ? { phrase } : { reaction }) };
    sayings.items = [...s.items, item].slice(-KEEP);
    sayings.next = s.next + 1;
  }
  return with_(state, { ...changes, sayings: { ...s, ...sayings } });
}

/** The newest thing said that a seat's bubble shows at `now`, or null. */
export function bubbleOf(state, seat, now) {
  const items = state.sayings.items;
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (item.seat !== seat) continue;
    return now - item.at < BUBBLE_MS && shown(state, seat) ? item : null;
  }
  return null;
}

/** This page sent one at `now`. */
export function saySent(state, now) {
  return withSayings(state, { sentAt: now });
}

/** The server refused one (`say/limit`: none left; `say/too_fast`: the gap runs again). */
export function sayRefused(state, code, now) {
  if (code === "say/too_fast") return saySent(state, now);
  if (code === "say/limit" && state.game && state.seat !== null) {
    return with_(state, { game: withCount(state.game, state.seat, sayLimits().perMatch) });
  }
  return state;
}

export function sayPanel(state, open) {
  return state.sayings.panel === open ? state : withSayings(state, { panel: open });
}

/** The seats this player muted (from the table's sessionStorage, or a toggle). */
export function setMutedSeats(state, seats) {
  const muted = [...new Set(seats.filter((n) => Number.isInteger(n)))].sort((a, b) => a - b);
  const items = state.sayings.items.filter((item) => !muted.includes(item.seat));
  return withSayings(state, { muted, items });
}

export function setPhrasesHidden(state, hidden) {
  return !!hidden === state.sayings.hidden ? state : withSayings(state, { hidden: !!hidden });
}
