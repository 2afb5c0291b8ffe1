// What this browser keeps per table in localStorage["basra.table." + id], for the fairness
// check: the parts it sent for each round, each round's commitment as first seen while the
// round waited for parts, the rounds whose cards it saw before their commitment, its own
// cards per deal, the player's own text and its seat. Tabs of one browser write the same
// entry: saving merges, never overwrites.

import { cleanText } from "../lib/fairness.js";

const STORE_PREFIX = "basra.table.";
/** Rounds kept per table (a match is far shorter). */
const KEEP_ROUNDS = 60;

function readStored(id) {
  try { return JSON.parse(localStorage.getItem(STORE_PREFIX + id) || "{}") || {}; } catch { return {}; }
}

/** The last `n` rounds of a {round: value} map. */
function lastRounds(map, n) {
  const keys = Object.keys(map).map(Number).sort((a, b) => a - b).slice(-n);
  return Object.fromEntries(keys.map((k) => [k, map[k]]));
}

function load(id) {
  const data = readStored(id);
  return {
    parts: data.parts || {},
    commits: data.commits || {},
    cardsFirst: data.cardsFirst || {},
    hands: data.hands || {},
    refused: data.refused || {},
    ownText: typeof data.ownText === "string" ? data.ownText : cleanText(data.customSeed || ""),
    seat: data.seat || null,
  };
}

export class Evidence {
  constructor(id) {
    this.id = id;
    this.data = load(id);
  }

  /** Take in what other tabs saved: parts and hands are unions, the first commitment wins. */
  merge() {
    const stored = load(this.id);
    const local = this.data;
    for (const [round, parts] of Object.entries(stored.parts)) {
      const mine = local.parts[round] || (local.parts[round] = []);
      for (const p of parts) if (!mine.includes(p)) mine.push(p);
    }
    for (const [round, parts] of Object.entries(stored.refused)) {
      const mine = local.refused[round] || (local.refused[round] = []);
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

  save() {
    this.merge();
    const l = this.data;
    const data = {
      parts: lastRounds(l.parts, KEEP_ROUNDS), commits: lastRounds(l.commits, KEEP_ROUNDS),
      cardsFirst: lastRounds(l.cardsFirst, KEEP_ROUNDS), hands: lastRounds(l.hands, KEEP_ROUNDS),
      refused: lastRounds(l.refused, KEEP_ROUNDS),
      ownText: l.ownText, seat: l.seat,
    };
    try { localStorage.setItem(STORE_PREFIX + this.id, JSON.stringify(data)); } catch { /* full */ }
  }

  /** The parts this page (or another tab of this browser) sent for `round`, less those
   * the server refused. */
  partsFor(round) {
    const refused = this.data.refused[round] || [];
    return (this.data.parts[round] || []).filter((p) => !refused.includes(p));
  }

  addPart(round, part) {
    const parts = this.data.parts[round] || (this.data.parts[round] = []);
    parts.push(part);
    this.save();
  }

  /** The server refused `part` for `round` (it came after the round was dealt): it was
   * never used, so it is no part this page sent. Kept as refused (saving merges what is
   * stored, so a part only taken out of the list would come back from storage). */
  dropPart(round, part) {
    const refused = this.data.refused[round] || (this.data.refused[round] = []);
    if (refused.includes(part)) return;
    refused.push(part);
    this.save();
  }

  commitmentSeen(round) {
    this.merge();
    return this.data.commits[round] || null;
  }

  cardsFirst(round) {
    return !!this.data.cardsFirst[round];
  }

  hands(round) {
    return this.data.hands[round] || {};
  }

  get ownText() {
    return this.data.ownText || "";
  }

  setOwnText(text) {
    this.data.ownText = text;
    this.save();
  }

  /** The seat this browser had here, if it was this player's. */
  seatOf(playerId) {
    const s = this.data.seat;
    return s && s.player === playerId ? s.seat : null;
  }

  rememberSeat(seat, playerId) {
    this.data.seat = { seat, player: playerId };
    this.save();
  }

  /** Keep what a state shows: the commitment of a round waiting for parts (as first seen),
   * that a round was dealt before this browser saw its commitment, this seat's cards. */
  record(game, seat) {
    const table = game.table;
    const current = table.fairness && table.fairness.current;
    const view = game.view;
    const l = this.data;
    let changed = false;
    if (current && current.commitment) {
      const round = current.round;
      if (table.phase === "seeding" && !current.client_seed) {
        if (!l.commits[round]) {
          l.commits[round] = current.commitment;
          changed = true;
        }
      } else if (current.client_seed && !l.commits[round] && !l.cardsFirst[round]) {
        // The round is dealt and this page never saw its commitment beforehand (nor did
        // another tab of this browser): it cannot vouch for this round.
        this.merge();
        if (!l.commits[round]) {
          l.cardsFirst[round] = true;
          changed = true;
        }
      }
    }
    if (seat !== null && view.round > 0 && view.hand.length) {
      const byDeal = l.hands[view.round] || (l.hands[view.round] = {});
      const deal = String(view.deal - 1);
      const cards = byDeal[deal] || (byDeal[deal] = []);
      for (const c of view.hand) if (!cards.includes(c)) { cards.push(c); changed = true; }
    }
    if (changed) this.save();
  }
}
