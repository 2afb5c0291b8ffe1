// The replay in the shape the table's renderers read (a watcher's state: no seat of its
// own), so the round breakdown (table/breakdown.js, scoring.js) and the fairness verdicts
// (table/fairpanel.js) are drawn by the table's own code, never written twice.

import { t } from "../lib/i18n.js";
import { playerName } from "../lib/ui.js";
import { sideOf } from "../lib/variants.js";

/** The seats as the table knows its players: {seat, name, kind}. */
export function playersOf(replay) {
  return replay.players.map((name, seat) => ({
    seat, name: String(name), kind: String(name).startsWith("bot:") ? "bot" : "human",
  }));
}

/** A seat's name in the page's language (bots by level, numbered when there are several). */
export function seatLabel(replay, seat) {
  const players = playersOf(replay);
  return playerName(players[seat], players);
}

/** A side's name: its player, or both partners. */
export function sideLabel(replay, side) {
  const seats = [];
  for (let seat = 0; seat < replay.seats; seat++) if (sideOf(seat, replay.teams) === side) seats.push(seat);
  return seats.map((seat) => seatLabel(replay, seat)).join(t("side.join"));
}

/**
 * A watcher's table state for round r: the table (players, seating, the round's revealed
 * fairness), a view whose results are the replay's round results (with the carry each round
 * began with), and the page's verifications.
 */
export function tableState(replay, r, verifications = {}) {
  const round = replay.rounds[r];
  const fair = round && round.fairness;
  const revealed = fair ? [{
    round: round.number, commitment: fair.commitment, server_seed: fair.server_seed,
    client_seed: fair.client_seed, nonce: fair.nonce,
  }] : [];
  return {
    seat: null,
    verifications,
    game: {
      table: {
        id: replay.table, variant: replay.variant, seats: replay.seats, teams: replay.teams,
        players: playersOf(replay), fairness: { current: null, revealed },
      },
      view: {
        variant: replay.variant, seats: replay.seats, teams: replay.teams,
        round: round ? round.number : 0,
        results: replay.rounds.map((rd) => (rd.result ? { carry_in: rd.carry_before, ...rd.result } : null)),
      },
    },
  };
}
