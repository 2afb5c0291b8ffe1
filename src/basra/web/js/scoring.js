// The end-of-round breakdown, derived from what every seat saw: the round's public plays
// and leftover floor give each side's pile, the variant's card-points table gives each
// scoring card, the view gives basras, and the majority is what remains of the round's
// points (so the breakdown always adds up to the server's figures).

import { cardPoints, sideCount, sideOf, variantOf, rankOf } from "./variants.js";

/** Cards each side captured in a finished round (plays and the leftover floor). */
export function capturedBySide(view) {
  const sides = sideCount(view.seats, view.teams);
  const piles = Array.from({ length: sides }, () => []);
  for (const play of view.plays) {
    if (play.take.length) piles[sideOf(play.seat, view.teams)].push(play.card, ...play.take);
  }
  if (view.leftover && view.leftover.length) {
    const taker = view.last_taker ?? view.dealer ?? 0;
    piles[sideOf(taker, view.teams)].push(...view.leftover);
  }
  return piles;
}

function specMatches(spec, card) {
  return spec === card || (spec.length === 1 && rankOf(card) === spec);
}

/**
 * The breakdown of the last finished round in `view` (its plays must be that round's).
 * Returns {round, sides, cards, lines: [{spec, each, counts, points}], basras, basraPoints,
 *  majority, carryIn, carryOut, tie, points, totals, setWinner, exact} or null.
 */
export function roundBreakdown(view) {
  const results = view.results || [];
  if (!results.length) return null;
  const result = results[results.length - 1];
  const prev = results.length > 1 ? results[results.length - 2] : null;
  const sides = sideCount(view.seats, view.teams);
  const piles = capturedBySide(view);
  const variant = variantOf(view.variant);
  const lines = variant.cardPoints.map(([spec, each]) => {
    const counts = piles.map((pile) => pile.filter((c) => specMatches(spec, c)).length);
    return { spec, each, counts, points: counts.map((n) => n * each) };
  });
  const cardPts = piles.map((pile) => pile.reduce((sum, c) => sum + cardPoints(view.variant, c), 0));
  const basraPoints = view.basra_points || Array(sides).fill(0);
  const majority = result.points.map((p, side) => p - cardPts[side] - (basraPoints[side] || 0));
  const carryIn = prev && prev.set_winner === undefined ? prev.carry : 0;
  const pileSizes = piles.map((p) => p.length);
  const exact = majority.every((m) => m >= 0) && pileSizes.every((n, i) => n === result.cards[i]);
  return {
    round: view.round,
    sides,
    cards: result.cards,
    lines,
    basras: view.basras || Array(sides).fill(0),
    basraPoints,
    majority,
    carryIn,
    carryOut: result.carry,
    tie: result.carry > carryIn,
    points: result.points,
    totals: result.totals,
    setWinner: result.set_winner,
    exact,
  };
}
