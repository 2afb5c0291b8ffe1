// Each round's fairness proof: what the server's verifier said of it (the record's seeds,
// the nonce and the seats' parts, basra verify's checks), and this page's own check of the
// same seeds in Web Crypto (fairness.verifyRound, as the table checks a round), drawn by the
// table's fairness panel.

import { h } from "../lib/dom.js";
import { t, num } from "../lib/i18n.js";
import { verifyRound } from "../lib/fairness.js";
import { renderFairResults } from "../table/fairpanel.js";
import { playersOf, tableState } from "./adapter.js";

/** What this page saw of round r, as verifyRound wants it: everything, face up. */
function seen(replay, round) {
  const plays = round.steps.slice(1).map((step) => ({ seat: step.play.seat, card: step.play.card }));
  return {
    variant: replay.variant, seats: replay.seats, dealer: round.dealer,
    opening_floor: round.steps[0].floor, plays, hands: null, seat: null,
    kinds: playersOf(replay).map((p) => p.kind), sentParts: null, cardsFirst: false,
  };
}

/** Check every round with fairness data, one after another; `done(number, result)` after
 * each (until `alive()` says the page is gone). */
export async function verifyAll(replay, done, alive) {
  for (const round of replay.rounds) {
    if (!round.fairness) continue;
    const fair = round.fairness;
    let result;
    try {
      result = await verifyRound({ round: round.number, ...fair }, seen(replay, round));
    } catch (err) {
      result = { fair: false, verdict: "unfair", checks: [{ id: "seed_format", ok: false, error: String(err) }], deck: null };
    }
    if (!alive()) return;
    done(round.number, result);
  }
}

/** The proof of round r: the server's verdict, then the page's (the table's panel). */
export function renderProof(replay, r, verifications) {
  const round = replay.rounds[r];
  const title = h("h2", { id: "replay-proof-title" }, t("fair.title"));
  if (!round.fairness) {
    return h("section", { class: "panel replay-proof", "aria-labelledby": "replay-proof-title", dataset: { round: String(round.number) } },
      title, h("p", { class: "muted replay-no-proof" }, t("replay.proof.none", { n: num(round.number) })));
  }
  const fair = round.fairness;
  const server = h("p", { class: ["replay-server-verdict", fair.fair ? "ok" : "bad"], dataset: { fair: fair.fair ? "true" : "false" } },
    h("span", { class: "check-mark", "aria-hidden": "true" }, fair.fair ? "✓" : "✗"), " ",
    fair.fair ? t("replay.proof.server_ok") : t("replay.proof.server_bad"),
    fair.problem ? [" ", h("code", { class: "replay-problem", dir: "ltr" }, fair.problem)] : null);
  return h("section", { class: "panel replay-proof", "aria-labelledby": "replay-proof-title", dataset: { round: String(round.number) } },
    title,
    server,
    h("p", { class: "hint" }, t("replay.proof.page")),
    renderFairResults(tableState(replay, r, verifications)));
}
