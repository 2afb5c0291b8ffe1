// The practice table's hints (issue 29): a table started by the learn page's "Practice
// against an easy bot with hints" has hints on (sessionStorage, keyed by the table id).
// There the head's Hint button asks no server: a good play is chosen here from the seat's
// legal plays (view.legal, the server's), marked like the server's hint, and said with why
// in plain words. The rules it weighs are the served rule book's (GET /api/variants: power
// cards and their basra conditions, card points), never the page's own:
//   1. a basra (the biggest);
//   2. the take worth the most points, then the most cards (a 7♦ or Jack sweep only when
//      it scores: a basra or card points, or when nothing else takes);
//   3. else the safest card to lay: one that leaves the next player no basra to make and
//      the fewest points and cards to take, keeping sweepers and point cards in hand.

import { h } from "../lib/dom.js";
import { t, num } from "../lib/i18n.js";
import { cardTag, cardTags } from "../lib/cards.js";
import { cardPoints, isPower, rankOf, variantOf } from "../lib/variants.js";
import { announce, fill, toast } from "../lib/ui.js";
import { receiveHint } from "./asides.js";
import { canPlay, table, view } from "./state.js";

const KEY = "basra.hints.";

/** Turn hints on for a table (the practice button, before opening it). */
export function enableHints(tableId) {
  try { sessionStorage.setItem(KEY + tableId, "1"); } catch { /* storage blocked: no hints */ }
}

/** Whether this table has the practice hints on. */
export function hintsOn(tableId) {
  try { return sessionStorage.getItem(KEY + tableId) === "1"; } catch { return false; }
}

const VALUE = { A: 1, J: 0, Q: 0, K: 0 };
/** A card's value in a sum (A 1, 2..10, faces 0). */
function valueOf(card) {
  const rank = rankOf(card);
  return rank in VALUE ? VALUE[rank] : Number(rank);
}

/** The basra points the served rules give `card` taking `take` from `floor`. */
export function basraOf(variant, card, take, floor, last) {
  const v = variantOf(variant);
  if (!v || !take.length || take.length !== floor.length) return 0;
  if (last && !v.last_play_basra) return 0;
  const group = v.power.find((g) => g.cards.includes(card));
  if (!group) {
    if (v.basra_floor_limit !== null && floor.length > v.basra_floor_limit) return 0;
    return v.basra_points;
  }
  const single = take.length === 1 && rankOf(take[0]) === rankOf(card);
  if (group.kind === "never") return 0;
  if (group.kind === "unless-single-same-rank") return single ? 0 : group.points;
  if (group.kind === "only-single-same-rank") return single ? group.points : 0;
  if (take.some((c) => valueOf(c) === 0)) return 0;
  return take.reduce((sum, c) => sum + valueOf(c), 0) <= group.limit ? group.points : 0;
}

/** Whether one card played next could clear `floor` for a basra (the next player's
 * chance: a match of every card, or matches and sums to one value). */
function basraRisk(variant, floor) {
  const v = variantOf(variant);
  if (!v || !floor.length) return false;
  if (v.basra_floor_limit !== null && floor.length > v.basra_floor_limit) return false;
  const values = floor.map(valueOf);
  for (let value = 1; value <= 10; value++) {
    const rest = values.filter((x) => x !== value);
    if (rest.some((x) => x === 0 || x >= value)) continue;
    const sum = rest.reduce((a, b) => a + b, 0);
    if (sum === 0) return true;
    if (rest.length >= 2 && (sum === value || (v.sum_sets === "max-cards" && sum % value === 0))) return true;
  }
  return false;
}

const pointsOf = (variant, cards) => cards.reduce((sum, c) => sum + cardPoints(variant, c), 0);

/** The hint for a view: {card, take, why: {key, params}} (null without a legal play). */
export function chooseHint(v, variant) {
  if (!v || !v.legal.length) return null;
  const floor = v.floor;
  const last = v.stock_count === 0 && v.hand_counts.reduce((a, b) => a + b, 0) === 1;
  const plays = v.legal.map((p) => {
    const take = p.take;
    const basra = take.length ? basraOf(variant, p.card, take, floor, last) : 0;
    const points = take.length ? pointsOf(variant, [p.card, ...take]) : 0;
    return { ...p, basra, points, gained: pointsOf(variant, take), sweep: take.length > 0 && isPower(variant, p.card) };
  });
  const best = (list, score) => list.reduce((a, b) => (score(b) > score(a) ? b : a));
  const basras = plays.filter((p) => p.basra > 0);
  if (basras.length) {
    const p = best(basras, (x) => x.basra * 100 + x.points * 10 + x.take.length);
    return { card: p.card, take: p.take, why: { key: "hint.why.basra", card: p.card, take: p.take, points: p.basra } };
  }
  const takes = plays.filter((p) => p.take.length);
  // A sweeper kept for later unless the floor it sweeps holds points (its own point is
  // scored whenever it takes).
  const worth = takes.filter((p) => !p.sweep || p.gained > 0);
  const pool = worth.length ? worth : takes;
  if (pool.length) {
    const p = best(pool, (x) => x.points * 100 + x.take.length * 10 - (x.sweep ? 5 : 0)
      - (basraRisk(variant, floor.filter((c) => !x.take.includes(c))) ? 50 : 0));
    const key = p.sweep ? (p.gained > 0 ? "hint.why.sweep" : "hint.why.sweep_cards")
      : p.points > 0 ? "hint.why.take_points" : "hint.why.take";
    return { card: p.card, take: p.take, why: { key, card: p.card, take: p.take, points: p.points } };
  }
  // Nothing to take: the card that leaves the least.
  const risk = (p) => {
    const after = [...floor, p.card];
    return (basraRisk(variant, after) ? 1000 : 0) + pointsOf(variant, after) * 20 + after.length
      + (isPower(variant, p.card) ? 200 : 0) + cardPoints(variant, p.card) * 30 + (valueOf(p.card) === 0 ? -3 : 0);
  };
  const p = plays.reduce((a, b) => (risk(b) < risk(a) ? b : a));
  const safe = !basraRisk(variant, [...floor, p.card]);
  return { card: p.card, take: [], why: { key: safe ? "hint.why.lay" : "hint.why.lay_risky", card: p.card, take: [], points: 0 } };
}

/** The hint's why, as nodes (card names isolated left to right). */
export function hintWords(why) {
  return fill(why.key, {
    card: cardTag(why.card),
    cards: h("span", null, cardTags(why.take, t("list.and"))),
    points: h("bdi", { dir: "ltr" }, num(why.points)),
  });
}

/** The Hint button at a practice table: mark the chosen play and say why. */
export function practiceHint(page) {
  const st = page.st;
  if (!canPlay(st)) return;
  const hint = chooseHint(view(st), table(st).variant);
  if (!hint) return;
  page.update(receiveHint(st, { type: "hint", version: st.game.version, card: hint.card, take: hint.take }));
  const words = hintWords(hint.why);
  toast(h("span", { class: "practice-hint", dataset: { hint: hint.card } }, words), "info", 7000);
  announce(words.map((part) => (typeof part === "string" ? part : part.textContent)).join(""));
}
