// The table at one step of a replay, every hand face up: the seats (name, whose turn, the
// one who just played, the dealer, the side's pile and basras, the hand), the stock, the
// floor (the card just laid marked), and the play just made (the card and what it took, a
// basra), the round's leftover on its last step. The same card faces as the table
// (cards.js); the score bar in the table's look.

import { h } from "../lib/dom.js";
import { t, num } from "../lib/i18n.js";
import { cardBack, cardFace, cardLabel, cardName, cardShort, signedTag, withCardNames } from "../lib/cards.js";
import { sideOf } from "../lib/variants.js";
import { botIcon, pileIcon } from "../table/names.js";
import { playersOf, seatLabel, sideLabel } from "./adapter.js";

/** The words of a step: the play made ("Amira played 7♦ and took 5♥, 2♣. Basra, 10
 * points!"), or the deal; then a new deal, the leftover, whose turn. */
export function stepWords(replay, pos) {
  const round = replay.rounds[pos.r];
  const step = round.steps[pos.s];
  const bits = [];
  if (!step.play) {
    bits.push(t("replay.step.deal", { n: num(round.number), name: seatLabel(replay, step.turn ?? 0) }));
  } else {
    const p = step.play;
    const name = seatLabel(replay, p.seat);
    bits.push(p.take.length
      ? t("log.take", { name, card: cardShort(p.card), cards: p.take.map(cardShort).join(t("list.and")) })
      : t("log.lay", { name, card: cardShort(p.card) }));
    if (p.basra) bits.push(t("log.basra", { points: num(p.basra), count: p.basra }));
    const before = round.steps[pos.s - 1];
    if (before && step.deal > before.deal) bits.push(t("replay.step.new_deal", { n: num(step.deal) }));
    if (step.leftover && step.leftover.cards.length) {
      bits.push(t("replay.step.leftover", { cards: step.leftover.cards.map(cardShort).join(t("list.and")), name: sideLabel(replay, step.leftover.side) }));
    }
    if (step.turn === null || step.turn === undefined) bits.push(t("replay.step.round_over", { n: num(round.number) }));
  }
  return bits.join(" ");
}

function seatPlate(replay, round, step, seat, variant) {
  const players = playersOf(replay);
  const player = players[seat];
  const name = seatLabel(replay, seat);
  const side = sideOf(seat, replay.teams);
  const played = step.play && step.play.seat === seat;
  const turn = step.turn === seat;
  const hand = step.hands[seat] || [];
  const pile = step.pile_counts[side] || 0;
  const basras = step.basras[side] || 0;
  const badges = [];
  if (round.dealer === seat) badges.push(h("span", { class: "badge dealer", title: t("seat.dealer") }, t("seat.dealer_short")));
  if (turn) badges.push(h("span", { class: "badge replay-turn-badge" }, t("replay.to_play")));
  if (played) badges.push(h("span", { class: "badge replay-played-badge" }, t("replay.just_played")));
  const initial = player.kind === "human" ? (Array.from(name.trim())[0] || "?").toUpperCase() : "";
  return h("div", {
    class: ["replay-seat", turn && "turn", played && "played"], role: "group",
    "aria-label": t("replay.seat_label", { name, count: hand.length, n: num(hand.length), pile: num(pile) }),
    dataset: { seat: String(seat), key: `seat-${seat}` },
  },
  h("div", { class: "replay-seat-head" },
    h("div", { class: ["avatar", player.kind === "bot" && "bot"], "aria-hidden": "true" },
      player.kind === "bot" ? botIcon() : h("span", { class: "avatar-letter" }, initial)),
    h("div", { class: "replay-seat-who" },
      h("div", { class: "plate-name" }, name),
      badges.length ? h("div", { class: "plate-badges" }, badges) : null),
    h("div", { class: "replay-seat-pile", title: t("score.pile") },
      pileIcon(), h("span", { class: "sr-only" }, t("score.pile_count", { count: pile, n: num(pile) })), h("span", { "aria-hidden": "true" }, num(pile)),
      basras ? h("span", { class: "meta-basra", title: t("score.basras") }, "★", num(basras)) : null)),
  h("div", { class: "replay-hand", role: "list", "aria-label": t("replay.hand_of", { name }), dataset: { hand: String(seat), cards: hand.join(" ") } },
    hand.length ? hand.map((card) => h("div", {
      class: "card replay-card", role: "listitem", "aria-label": cardLabel(card, variant), dataset: { card, key: card },
    }, cardFace(card, variant)))
      : h("span", { class: "muted replay-hand-empty" }, t("replay.hand_empty"))));
}

/** The step in words, under the floor; a take also drawn: the card and the cards it took
 * (a card laid is marked on the floor itself). */
function lastPlay(replay, pos, variant) {
  const step = replay.rounds[pos.r].steps[pos.s];
  const p = step.play;
  const small = (card, cls) => h("div", { class: ["card", "replay-mini", cls], role: "listitem", "aria-label": cardName(card), dataset: { card } }, cardFace(card, variant));
  return h("div", {
    class: ["replay-last", p && (p.take.length ? "took" : "laid"), p && p.basra && "basra"],
    dataset: p ? { seat: String(p.seat), card: p.card, take: p.take.join(" ") } : { deal: "" },
  },
  p && p.take.length ? h("div", { class: "replay-last-cards", role: "list", "aria-label": t("replay.last_play") },
    small(p.card, "played-card"), h("span", { class: "replay-arrow", "aria-hidden": "true" }, "+"), p.take.map((card) => small(card, "taken-card"))) : null,
  p && p.basra ? h("span", { class: "replay-basra" }, t("replay.basra"), " ", h("bdi", { dir: "ltr" }, `+${num(p.basra)}`)) : null,
  h("p", { class: "replay-words" }, withCardNames(stepWords(replay, pos))));
}

function middle(replay, pos, variant) {
  const step = replay.rounds[pos.r].steps[pos.s];
  const laid = step.play && !step.play.take.length ? step.play.card : null;
  const left = step.leftover && step.leftover.cards.length ? step.leftover : null;
  const floorCards = step.floor.length ? step.floor : (left ? left.cards : []);
  return h("div", { class: "replay-middle" },
    h("div", { class: "replay-stock" },
      step.stock_count > 0 ? h("div", { class: "stock-pile", role: "img", "aria-label": t("table.stock", { count: step.stock_count, n: step.stock_count }) },
        h("span", { class: "card small" }, cardBack()), h("span", { class: "stock-count" }, num(step.stock_count))) : null),
    h("div", {
      class: ["floor", "replay-floor", !floorCards.length && "empty", left && !step.floor.length && "leftover"], role: "list",
      "aria-label": left && !step.floor.length ? t("replay.leftover_floor", { name: sideLabel(replay, left.side) }) : t("table.floor"),
      title: left && !step.floor.length ? t("replay.leftover_short", { name: sideLabel(replay, left.side) }) : null,
      dataset: { floor: step.floor.join(" "), size: floorCards.length > 10 ? "xl" : floorCards.length > 6 ? "l" : "n" },
    }, floorCards.length ? floorCards.map((card) => h("div", {
      class: ["card", "floor-card", card === laid && "replay-laid"], role: "listitem",
      "aria-label": card === laid ? t("replay.laid_card", { card: cardLabel(card, variant) }) : cardLabel(card, variant),
      dataset: { card, key: card },
    }, cardFace(card, variant))) : h("span", { class: "floor-empty-text" }, t("table.floor_empty"))),
    lastPlay(replay, pos, variant));
}

/** The felt at position `pos`: the other seats above the floor, seat 0 under it. */
export function renderBoard(replay, pos) {
  const round = replay.rounds[pos.r];
  const step = round.steps[pos.s];
  const variant = replay.variant;
  const top = [];
  for (let seat = 1; seat < replay.seats; seat++) top.push(seatPlate(replay, round, step, seat, variant));
  return h("div", { class: "felt replay-felt", dataset: { round: String(round.number), step: String(pos.s), key: "felt" } },
    h("div", { class: "replay-seats top", dataset: { count: String(top.length) } }, top),
    middle(replay, pos, variant),
    h("div", { class: "replay-seats bottom" }, seatPlate(replay, round, step, 0, variant)));
}

/**
 * The score at a step, per side: the total before the round with this round's points so far
 * (its basras; the cards count only at the round's end), then, at the round's end, its
 * points and the new totals from the result.
 */
export function renderScore(replay, pos) {
  const round = replay.rounds[pos.r];
  const step = round.steps[pos.s];
  const end = pos.s === round.steps.length - 1 && round.result;
  const chips = [];
  for (let side = 0; side < replay.sides; side++) {
    const before = round.totals_before[side] || 0;
    const points = end ? round.result.points[side] : (step.basra_points[side] || 0);
    const total = end ? round.result.totals[side] : before;
    const turnSide = step.turn !== null && step.turn !== undefined && sideOf(step.turn, replay.teams) === side;
    const won = end && pos.r === replay.rounds.length - 1 && replay.winner === side;
    const name = sideLabel(replay, side);
    chips.push(h("div", {
      class: ["side-chip", "replay-side-chip", turnSide && "turn", won && "winner"], role: "group",
      "aria-label": t(end ? "replay.score_end" : "replay.score_label", { name, total: num(total), points: num(points) }),
      dataset: { side: String(side), key: `side-${side}`, total: String(total), points: String(points) },
    },
    h("span", { class: "side-name" }, name),
    h("span", { class: "side-total", "aria-hidden": "true" }, num(total)),
    h("span", { class: "side-meta", "aria-hidden": "true" },
      end || points ? h("span", { class: "replay-round-points", title: t(end ? "replay.round_points" : "replay.running_points") },
        signedTag(points),
        " ", end ? t("replay.points_round") : t("replay.points_so_far")) : null,
      h("span", { class: "meta-pile", title: t("score.pile") }, pileIcon(), num(step.pile_counts[side] || 0)),
      (step.basras[side] || 0) > 0 ? h("span", { class: "meta-basra", title: t("score.basras") }, "★", num(step.basras[side])) : null)));
  }
  return h("div", { class: "scorebar replay-scorebar", role: "group", "aria-label": t("table.scores"), dataset: { key: "scorebar" } }, chips);
}
