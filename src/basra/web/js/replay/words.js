// The expert's analysis in a player's words, shared by the replay's analysis panel and the
// "Learn from your mistakes" page: what a play was (the card, what it took), what the
// expert's play would have done instead ("The 7♦ would have swept the floor (3♣ 4♥): 9
// points."), why it was better (the analysis's `reason` and made_/best_ fields when it has
// them; an older analysis has only the plays, and says "The 7♦ taking 3♣ 4♥ was better by
// about 6 points"), and the cost in whole points of this round. Card names are isolated
// left to right (cardTag), numbers in Latin digits (num), so Arabic reads right.

import { t, num } from "../lib/i18n.js";
import { cardTag, cardTags } from "../lib/cards.js";
import { fill } from "../lib/ui.js";

/** Plays costing less than this are not counted as clear mistakes. */
export const CLEAR = 1;

/** A play as {card, take}: an object ({card, take}), or its notation ("7H", "7H:7C+4D"). */
export function playOf(x) {
  if (x && typeof x === "object") return { card: String(x.card), take: Array.isArray(x.take) ? x.take.map(String) : [] };
  const [card, take] = String(x || "").split(":");
  return { card, take: take ? take.split("+").filter(Boolean) : [] };
}

/** The expert's play of an analysed play (basra-analysis/1) or of a mistakes position. */
export function bestOf(p) {
  if (p.best && typeof p.best === "object") return playOf(p.best);
  if (p.best_card) return { card: p.best_card, take: Array.isArray(p.best_take) ? p.best_take : [] };
  return playOf(p.best);
}

/** The play made. */
export function madeOf(p) {
  if (p.made && typeof p.made === "object") return playOf(p.made);
  const made = playOf(p.play);
  return Array.isArray(p.made_take) ? { card: made.card, take: p.made_take } : made;
}

/** A cost in whole points, never under 1 for a play that cost any. */
export const aboutPoints = (cost) => Math.max(1, Math.round(Number(cost) || 0));

/** Whether the analysis has its words for this play (newer analyses do). */
const hasWords = (p) => typeof p.reason === "string" || typeof p.best_points === "number" || typeof p.best_basra === "boolean";

const cards = (list) => cardTags(list, " ");

/** What the expert's play would have done, as one sentence (parts to append). */
function betterSentence(p, best) {
  const points = typeof p.best_points === "number" ? Math.round(p.best_points) : 0;
  const params = { card: cardTag(best.card), cards: cards(best.take), points: num(points), count: points };
  if (!best.take.length) return fill("analysis.better.lay", { card: cardTag(best.card) });
  if (p.best_basra) return pluralFill("analysis.better.basra", params);
  if (p.best_sweep) return pluralFill("analysis.better.sweep", params);
  return pluralFill("analysis.better.take", params);
}

/** `fill` (ui.js) for a key with plural forms: the form chosen by params.count. */
export function pluralFill(key, params) {
  const marks = Object.fromEntries(Object.keys(params).filter((k) => k !== "count").map((k) => [k, `\u0000${k}\u0000`]));
  const text = t(key, { ...marks, count: params.count });
  return text.split("\u0000").map((part, i) => (i % 2 ? params[part] : part)).filter((part) => part !== "");
}

/**
 * Why the expert's play was better, in sentences (each an array of parts): from the
 * analysis's words when it has them, else the one sentence an older analysis allows.
 */
export function whyWords(p) {
  const best = bestOf(p);
  const made = madeOf(p);
  const n = aboutPoints(p.cost);
  if (!hasWords(p)) {
    return [best.take.length
      ? pluralFill("analysis.better.old_take", { card: cardTag(best.card), cards: cards(best.take), n: num(n), count: n })
      : pluralFill("analysis.better.old_lay", { card: cardTag(best.card), n: num(n), count: n })];
  }
  const out = [];
  if (p.reason === "kept-wrong-card" && best.card !== made.card) {
    out.push(fill("analysis.why.kept", { card: cardTag(best.card), kept: cardTag(made.card) }));
  } else {
    out.push(betterSentence(p, best));
  }
  if (p.reason === "missed-ten-of-diamonds") out.push(fill("analysis.why.ten", { card: cardTag("10D") }));
  if (p.gave_basra && !p.best_gave_basra) out.push([t("analysis.why.gave_basra")]);
  else if (p.reason === "gave-basra") out.push([t("analysis.why.gave_basra")]);
  if (typeof p.made_points === "number" && made.take.length && ["missed-points", "missed-basra", "missed-sweep", "missed-ten-of-diamonds"].includes(p.reason)) {
    const m = Math.round(p.made_points);
    out.push(pluralFill("analysis.why.made_points", { cards: cards(made.take), points: num(m), count: m }));
  }
  if (p.reason === "later") out.push([t("analysis.why.later")]);
  return out;
}

/** "Cost: about 6 points this round." */
export function costWords(cost) {
  const n = aboutPoints(cost);
  return t("analysis.item.cost", { n: num(n), count: n });
}

/** "Round 2, play 14: you played the 4♠ (taking 3♣)." / "… Amal played …" */
export function playedWords(p, name, you) {
  const made = madeOf(p);
  const place = t("analysis.item.place", { round: num(p.round), number: num(p.number) });
  const key = `analysis.item.${you ? "you" : "they"}_${made.take.length ? "take" : "lay"}`;
  return fill(key, { place, name, card: cardTag(made.card), cards: cards(made.take) });
}

/** Sentences joined with spaces, ready to append. */
export function sentences(list) {
  return list.flatMap((parts, i) => (i ? [" ", ...parts] : parts));
}

/**
 * Per seat, its clear mistakes (cost ≥ CLEAR): {seat, count, biggest (the costliest
 * play), plays (costliest first)}; `mistakes_by_seat` gives the count when present.
 */
export function seatMistakes(analysis, seats) {
  const plays = (analysis && analysis.plays) || [];
  return Array.from({ length: seats }, (_, seat) => {
    const mine = plays.filter((p) => p.seat === seat && p.cost >= CLEAR).sort(byCost);
    const given = analysis && Array.isArray(analysis.mistakes_by_seat) ? analysis.mistakes_by_seat[seat] : undefined;
    return { seat, count: typeof given === "number" ? given : mine.length, biggest: mine[0] || null, plays: mine };
  });
}

/** The costliest first; equal costs in the match's order. */
export function byCost(a, b) {
  return b.cost - a.cost || a.round - b.round || a.number - b.number;
}
