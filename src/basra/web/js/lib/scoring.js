// The end-of-round breakdown, read from the engine's own figures: every round summary in
// view.results carries `carry_in` and, per side, `scores` ({cards, majority, carry,
// card_points, card_counts, basras, basra_points, points}); the lines' labels and points
// come from the variant's card-points table (GET /api/variants). Nothing is recomputed.

import { lineSpec, variantOf } from "./variants.js";

/**
 * The breakdown of round `index` (0-based in view.results; the last by default), titled
 * `round`. Returns {round, sides, cards, majority, carry, carryIn, carryOut, tie,
 * lines: [{spec, each, cards, counts, points}], basras, basraPoints, points, totals,
 * setWinner, majorityRule, exact} or null. `exact` is false when the summary has no
 * per-side scores (then only the points and totals are shown).
 */
export function roundBreakdown(view, { index = (view.results || []).length - 1, round = view.round } = {}) {
  const result = (view.results || [])[index];
  if (!result) return null;
  const sides = result.points.length;
  const scores = Array.isArray(result.scores) && result.scores.length === sides ? result.scores : null;
  const variant = variantOf(view.variant);
  const table = variant ? variant.card_points : [];
  const carryIn = result.carry_in || 0;
  const lines = scores ? table.map((line, i) => {
    const counts = scores.map((s) => (s.card_counts || [])[i] || 0);
    return { spec: lineSpec(line), each: line.points, cards: line.cards.length, counts, points: counts.map((n) => n * line.points) };
  }) : [];
  return {
    round,
    sides,
    cards: result.cards,
    majority: scores ? scores.map((s) => s.majority + s.carry) : [],
    carry: scores ? scores.map((s) => s.carry) : [],
    carryIn,
    carryOut: result.carry,
    tie: result.carry > carryIn,
    lines,
    basras: scores ? scores.map((s) => s.basras) : result.basras,
    basraPoints: scores ? scores.map((s) => s.basra_points) : [],
    points: result.points,
    totals: result.totals,
    setWinner: result.set_winner,
    majorityRule: variant ? variant.majority : null,
    exact: !!scores,
  };
}
