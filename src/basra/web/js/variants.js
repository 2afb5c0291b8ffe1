// The four rule sets as data (RULES.md section 6): only what the page needs to draw cards,
// offer seatings, score a round and re-deal a shuffled deck. No text: names and
// descriptions are in the i18n catalogues under "variant.<name>.*".

/** A card-points line: "J" or "A" for every Jack or Ace, otherwise one card ("10D"). */
export const VARIANTS = Object.freeze({
  egyptian: {
    seatings: [[2, false], [4, true]],
    forbidden: ["J", "7D"],
    power: ["J", "7D"],
    sumSets: "one-set",
    majority: { kind: "27-of-52", points: 30 },
    cardPoints: [["J", 1], ["A", 1], ["2C", 2], ["10D", 3]],
    basra: 10,
    target: 121,
    setsToWin: 1,
  },
  arabic101: {
    seatings: [[2, false]],
    forbidden: ["J"],
    power: ["J", "7D"],
    sumSets: "one-set",
    majority: { kind: "27-of-52", points: 30 },
    cardPoints: [["J", 1], ["A", 1], ["2C", 2], ["10D", 3]],
    basra: 10,
    target: 101,
    setsToWin: 1,
  },
  lebanese: {
    seatings: [[2, false], [3, false], [4, false], [4, true]],
    forbidden: ["J"],
    power: ["J"],
    sumSets: "one-set",
    majority: { kind: "most-cards", points: 3 },
    cardPoints: [["A", 1], ["J", 1], ["2C", 2], ["10D", 3]],
    basra: 10,
    target: 100,
    setsToWin: 1,
  },
  serbian: {
    seatings: [[2, false], [4, true]],
    forbidden: ["J", "7D"],
    power: ["J", "7D"],
    sumSets: "max-cards",
    majority: { kind: "27-of-52", points: 30 },
    cardPoints: [["J", 1], ["A", 1], ["2S", -2], ["10D", -3]],
    basra: 10,
    jackBasra: 20,
    target: 101,
    decidingTarget: 162,
    setsToWin: 3,
  },
});

export const VARIANT_NAMES = Object.freeze(["egyptian", "arabic101", "lebanese", "serbian"]);
export const BOT_LEVELS = Object.freeze(["random", "easy", "medium", "hard"]);

export function variantOf(name) {
  return VARIANTS[name] || VARIANTS.egyptian;
}

/** The rank part of a card name ("10D" -> "10"). */
export function rankOf(card) {
  return card.slice(0, -1);
}

function matches(spec, card) {
  return spec === card || (spec.length === 1 && rankOf(card) === spec);
}

/** Whether a card is drawn and buried when it turns up for the opening floor. */
export function isForbidden(variant, card) {
  return variantOf(variant).forbidden.some((spec) => matches(spec, card));
}

/** Whether a card sweeps the whole floor in this variant. */
export function isPower(variant, card) {
  return variantOf(variant).power.some((spec) => matches(spec, card));
}

/** Points a card is worth in a pile at the end of a round (0 for most cards). */
export function cardPoints(variant, card) {
  let points = 0;
  for (const [spec, value] of variantOf(variant).cardPoints) {
    if (matches(spec, card)) points += value;
  }
  return points;
}

/** The scoring side of a seat: the seat itself, or its team (seats 0+2, 1+3). */
export function sideOf(seat, teams) {
  return teams ? seat % 2 : seat;
}

export function sideCount(seats, teams) {
  return teams ? 2 : seats;
}
