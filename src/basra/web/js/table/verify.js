// The page's own check of every revealed round (fairness.verifyRound, in Web Crypto), with
// what it saw: the round's plays and opening floor (kept in the state), its own cards, the
// commitment as first seen and the parts it sent (the evidence). When it missed part of a
// round (it was not open for all of it) it checks against the match record.

import { api } from "../lib/api.js";
import { announce } from "../lib/ui.js";
import { variantOf } from "../lib/variants.js";
import { verifyRound } from "../lib/fairness.js";
import { table, verified } from "./state.js";
import { verdictTitle } from "./fairpanel.js";

async function verifyOne(ctrl, r) {
  const st = ctrl.st;
  const tb = table(st);
  const seats = tb.seats;
  let log = st.roundLogs[r.round];
  let source = "seen";
  if (!log || log.plays.length < variantOf(tb.variant).plays_per_round) {
    source = "record";
    const record = await api.record(tb.id);
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
  const ev = ctrl.ev;
  const seenCommit = ev.commitmentSeen(r.round);
  const result = await verifyRound(r, {
    variant: tb.variant,
    seats,
    dealer: log.dealer ?? (r.round - 1) % seats,
    commitment: seenCommit,
    opening_floor: log.opening_floor,
    plays: log.plays,
    hands: st.seat !== null ? ev.hands(r.round) : null,
    seat: st.seat,
    kinds: tb.players.map((p) => (p.kind === "bot" || String(p.name || "").startsWith("bot:") ? "bot" : p.kind)),
    // Only a page that was there before the round knows which part it sent (or that it sent none).
    sentParts: seenCommit ? ev.partsFor(r.round).slice() : null,
    cardsFirst: !seenCommit && ev.cardsFirst(r.round),
  });
  result.source = source;
  return result;
}

/** Check every revealed round not yet checked; each result goes into the state. */
export async function verifyRevealed(ctrl) {
  const tb = table(ctrl.st);
  if (!tb) return;
  for (const r of tb.fairness.revealed) {
    if (ctrl.st.verifications[r.round] || ctrl.verifying.has(r.round)) continue;
    ctrl.verifying.add(r.round);
    try {
      const result = await verifyOne(ctrl, r);
      if (ctrl.destroyed) return;
      ctrl.update(verified(ctrl.st, r.round, result));
      if (ctrl.st.overlay && ctrl.st.overlay.round === r.round) announce(verdictTitle(result, r.round));
    } catch (err) {
      if (ctrl.destroyed) return;
      ctrl.update(verified(ctrl.st, r.round, { fair: false, verdict: "unfair", checks: [{ id: "seed_format", ok: false, error: String(err) }], deck: null }));
    } finally {
      ctrl.verifying.delete(r.round);
    }
  }
}
