// Cards drawn as SVG in the page: suits are vector symbols (no font needed), the corner
// index is large enough to read at phone size, and scoring cards carry a small points
// badge (power cards that are not Jacks a sweep badge). Names and index letters come from
// the catalogues, so a French deck reads R D V and an Arabic screen reader says السنك.

import { s } from "./dom.js";
import { t, has } from "./i18n.js";
import { cardPoints, isPower, rankOf } from "./variants.js";

export const RED = new Set(["D", "H"]);
const FACES = new Set(["J", "Q", "K"]);

export function suitOf(card) {
  return card.slice(-1);
}

const SUIT_SHAPES = {
  H: () => [s("path", { d: "M50 92C22 70 2 52 2 31 2 15 14 4 28 4c10 0 17 5 22 14C55 9 62 4 72 4c14 0 26 11 26 27 0 21-20 39-48 61z" })],
  D: () => [s("path", { d: "M50 2 90 50 50 98 10 50z" })],
  S: () => [s("path", { d: "M50 2C78 26 98 42 98 61c0 15-11 25-24 25-9 0-16-4-20-11 1 11 5 18 13 25H33c8-7 12-14 13-25-4 7-11 11-20 11C13 86 2 76 2 61 2 42 22 26 50 2z" })],
  C: () => [
    s("circle", { cx: 50, cy: 27, r: 22 }),
    s("circle", { cx: 25, cy: 59, r: 22 }),
    s("circle", { cx: 75, cy: 59, r: 22 }),
    s("circle", { cx: 50, cy: 52, r: 12 }),
    s("path", { d: "M46 58c0 18-4 30-13 40h34c-9-10-13-22-13-40z" }),
  ],
};

/** Put the suit symbols and the card-back pattern into the page once. */
export function ensureSprites() {
  if (document.getElementById("basra-sprites")) return;
  const defs = s("defs", null,
    Object.entries(SUIT_SHAPES).map(([suit, shapes]) =>
      s("symbol", { id: `suit-${suit}`, viewBox: "0 0 100 100" }, shapes())),
    s("pattern", { id: "back-lattice", width: 10, height: 10, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
      s("rect", { width: 10, height: 10, fill: "var(--back-a, #8d1c2c)" }),
      s("rect", { width: 5, height: 5, fill: "var(--back-b, #a3263a)" }),
      s("circle", { cx: 7.5, cy: 7.5, r: 1.2, fill: "rgba(255,255,255,.25)" })),
    s("symbol", { id: "sweep", viewBox: "0 0 24 24" },
      s("path", { d: "M13 2 4 14h6l-1 8 9-12h-6z" })),
  );
  const sprite = s("svg", { id: "basra-sprites", width: 0, height: 0, "aria-hidden": "true", focusable: "false", style: { position: "absolute" } }, defs);
  document.body.prepend(sprite);
}

const L = 35, M = 50, R = 65, T = 34, B = 106, C = 70;
const FOUR = [[L, T], [R, T], [L, B], [R, B]];
const PIPS = {
  2: [[M, T], [M, B]],
  3: [[M, T], [M, C], [M, B]],
  4: FOUR,
  5: [...FOUR, [M, C]],
  6: [...FOUR, [L, C], [R, C]],
  7: [...FOUR, [L, C], [R, C], [M, 52]],
  8: [...FOUR, [L, C], [R, C], [M, 52], [M, 88]],
  9: [...FOUR, [L, 58], [R, 58], [L, 82], [R, 82], [M, C]],
  10: [...FOUR, [L, 58], [R, 58], [L, 82], [R, 82], [M, 46], [M, 94]],
};

function suitUse(suit, x, y, size, extra = {}) {
  return s("use", { href: `#suit-${suit}`, x, y, width: size, height: size, ...extra });
}

/** The index letter or number drawn in a card's corner (localized for faces and aces). */
export function rankIndex(rank) {
  return has(`rank.index.${rank}`) ? t(`rank.index.${rank}`) : rank;
}

function corner(rank, suit) {
  const text = rankIndex(rank);
  return s("g", { class: "card-index" },
    s("text", { x: 16, y: 33, "text-anchor": "middle", class: text.length > 1 ? "rank rank-wide" : "rank" }, text),
    suitUse(suit, 6.5, 38, 19));
}

/** A card's face as an SVG element (decorative: the container carries the label). */
export function cardFace(card, variant) {
  const rank = rankOf(card);
  const suit = suitOf(card);
  const color = RED.has(suit) ? "red" : "black";
  const parts = [
    s("rect", { class: "card-paper", x: 1, y: 1, width: 98, height: 138, rx: 9 }),
    corner(rank, suit),
    s("g", { transform: "rotate(180 50 70)" }, corner(rank, suit)),
  ];
  if (FACES.has(rank)) {
    parts.push(
      s("rect", { class: "face-panel", x: 25, y: 24, width: 50, height: 92, rx: 6 }),
      s("text", { class: "face-letter", x: 50, y: 78, "text-anchor": "middle" }, rankIndex(rank)),
      suitUse(suit, 40, 86, 20),
      suitUse(suit, 40, 34, 20, { transform: "rotate(180 50 44)" }),
    );
  } else if (rank === "A") {
    parts.push(suitUse(suit, 22, 42, 56));
  } else {
    for (const [x, y] of PIPS[rank]) {
      const size = 17;
      const extra = y > 70 ? { transform: `rotate(180 ${x} ${y})` } : {};
      parts.push(suitUse(suit, x - size / 2, y - size / 2, size, extra));
    }
  }
  const points = variant ? cardPoints(variant, card) : 0;
  if (points) {
    parts.push(s("g", { class: points > 0 ? "mark mark-plus" : "mark mark-minus" },
      s("circle", { cx: 85, cy: 15, r: 12 }),
      s("text", { x: 85, y: 19.5, "text-anchor": "middle" }, points > 0 ? `+${points}` : `${points}`)));
  } else if (variant && isPower(variant, card)) {
    parts.push(s("g", { class: "mark mark-power" },
      s("circle", { cx: 85, cy: 15, r: 12 }),
      s("use", { href: "#sweep", x: 76, y: 6, width: 18, height: 18 })));
  }
  return s("svg", { class: `card-svg ${color}`, viewBox: "0 0 100 140", "aria-hidden": "true", focusable: "false" }, parts);
}

export function cardBack() {
  return s("svg", { class: "card-svg back", viewBox: "0 0 100 140", "aria-hidden": "true", focusable: "false" },
    s("rect", { class: "back-paper", x: 1, y: 1, width: 98, height: 138, rx: 9 }),
    s("rect", { x: 8, y: 8, width: 84, height: 124, rx: 5, fill: "url(#back-lattice)" }),
    s("circle", { cx: 50, cy: 70, r: 17, class: "back-emblem" }),
    suitUse("D", 40, 60, 20, { class: "back-suit" }));
}

/** The card's name in the current language ("10 of diamonds", "السنك"). */
export function cardName(card) {
  if (has(`card.special.${card}`)) return t(`card.special.${card}`);
  return t("card.name", { rank: t(`rank.name.${rankOf(card)}`), suit: t(`suit.name.${suitOf(card)}`) });
}

/** The card's label for screen readers, with its points or power in this variant. */
export function cardLabel(card, variant) {
  const name = cardName(card);
  const points = variant ? cardPoints(variant, card) : 0;
  if (points) return t("card.with_points", { card: name, count: points, points });
  if (variant && isPower(variant, card)) return t("card.power", { card: name });
  return name;
}

/** A short written form: index and suit symbol ("10♦", "V♠"). */
export function cardShort(card) {
  return `${rankIndex(rankOf(card))}${t(`suit.symbol.${suitOf(card)}`)}`;
}
