// Cards drawn as SVG in the page: suits are vector symbols (no font needed), the corner
// indices have margins of their own (no pip ever touches them) and are large enough to read
// at phone size, and scoring cards carry a small points badge (power cards that are not
// Jacks a sweep badge). Names and index letters come from the catalogues, so a French deck
// reads R D V and an Arabic screen reader says السنك; written card names and signed numbers
// come as isolated left-to-right elements, so right-to-left text never reorders them.

import { h, s } from "./dom.js";
import { t, has, num } from "./i18n.js";
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

// The face is laid out in three columns of the 100 x 140 box: the corner indices (rank over
// suit) live in the outer margins, x 2-26 at the top left and its turn at the bottom right,
// and every pip or face panel stays in the inner column, x 28-72, so an index never
// touches a pip. The points or sweep mark sits in the free top of the right margin.
const INNER = { left: 28, right: 72, top: 12, bottom: 128 };
const PIP = 14;
const L = INNER.left + 2 + PIP / 2, R = INNER.right - 2 - PIP / 2, M = 50;
const ROW = (INNER.bottom - INNER.top - PIP) / 3;
const Y = [0, 1, 2, 3].map((i) => INNER.top + PIP / 2 + i * ROW);
const MID = (Y[0] + Y[3]) / 2;
const SIDES = (ys) => ys.flatMap((y) => [[L, y], [R, y]]);
const PIPS = {
  2: [[M, Y[0]], [M, Y[3]]],
  3: [[M, Y[0]], [M, MID], [M, Y[3]]],
  4: SIDES([Y[0], Y[3]]),
  5: [...SIDES([Y[0], Y[3]]), [M, MID]],
  6: SIDES([Y[0], MID, Y[3]]),
  7: [...SIDES([Y[0], MID, Y[3]]), [M, (Y[0] + MID) / 2]],
  8: [...SIDES([Y[0], MID, Y[3]]), [M, (Y[0] + MID) / 2], [M, (MID + Y[3]) / 2]],
  9: [...SIDES(Y), [M, MID]],
  10: [...SIDES(Y), [M, (Y[0] + Y[1]) / 2], [M, (Y[2] + Y[3]) / 2]],
};

function suitUse(suit, x, y, size, extra = {}) {
  return s("use", { href: `#suit-${suit}`, x, y, width: size, height: size, ...extra });
}

/** The index letter or number drawn in a card's corner (localized for faces and aces). */
export function rankIndex(rank) {
  return has(`rank.index.${rank}`) ? t(`rank.index.${rank}`) : rank;
}

// The index's own font (presentation attributes: the face needs no stylesheet to be right);
// two characters ("10") are fitted to the margin's width.
const INDEX_FONT = { "font-family": "DejaVu Sans, Liberation Sans, Arial, sans-serif", "font-weight": 800, "font-size": 27 };

function corner(rank, suit, extra = {}) {
  const text = rankIndex(rank);
  const wide = Array.from(text).length > 1;
  return s("g", { class: "card-index", ...extra },
    s("text", { x: 14, y: 28, "text-anchor": "middle", class: "idx-rank", fill: "currentColor", ...INDEX_FONT,
      ...(wide ? { textLength: 22, lengthAdjust: "spacingAndGlyphs" } : {}) }, text),
    suitUse(suit, 7, 35, 14, { class: "idx-suit" }));
}

function pips(rank, suit) {
  if (rank === "A") return [suitUse(suit, M - 20, 50, 40, { class: "pip" })];
  if (FACES.has(rank)) {
    const { left, right, top, bottom } = INNER;
    return [s("g", { class: "pip face" },
      s("rect", { class: "face-frame", x: left, y: top - 2, width: right - left, height: bottom - top + 4, rx: 5, fill: "#fbf0d2", stroke: "currentColor", "stroke-width": 1.6 }),
      s("rect", { x: left + 4, y: top + 2, width: right - left - 8, height: bottom - top - 4, rx: 3, fill: "none", stroke: "currentColor", "stroke-width": 0.8, opacity: 0.45 }),
      suitUse(suit, M - 9, top + 6, 18),
      s("text", { class: "face-mark", x: M, y: 84, "text-anchor": "middle", fill: "currentColor", "font-family": "Georgia, DejaVu Serif, serif", "font-weight": 700, "font-size": 40 }, rankIndex(rank)),
      suitUse(suit, M - 9, bottom - 24, 18, { transform: `rotate(180 ${M} ${bottom - 15})` }))];
  }
  return PIPS[rank].map(([x, y]) => suitUse(suit, x - PIP / 2, y - PIP / 2, PIP,
    { class: "pip", ...(y > 70 ? { transform: `rotate(180 ${x} ${y})` } : {}) }));
}

/** A card's face as an SVG element (decorative: the container carries the label). Cards
 * never mirror: the face is drawn left to right in every language, its signed mark too. */
export function cardFace(card, variant) {
  const rank = rankOf(card);
  const suit = suitOf(card);
  const color = RED.has(suit) ? "red" : "black";
  const parts = [
    s("rect", { class: "card-paper", x: 1, y: 1, width: 98, height: 138, rx: 9 }),
    corner(rank, suit),
    corner(rank, suit, { transform: "rotate(180 50 70)" }),
    pips(rank, suit),
  ];
  const points = variant ? cardPoints(variant, card) : 0;
  if (points) {
    parts.push(s("g", { class: points > 0 ? "mark mark-plus" : "mark mark-minus" },
      s("circle", { cx: 86, cy: 14, r: 11.5 }),
      s("text", { x: 86, y: 18.5, "text-anchor": "middle", direction: "ltr", "unicode-bidi": "isolate" }, signedNumber(points))));
  } else if (variant && isPower(variant, card)) {
    parts.push(s("g", { class: "mark mark-power" },
      s("circle", { cx: 86, cy: 14, r: 11.5 }),
      s("use", { href: "#sweep", x: 77.5, y: 5.5, width: 17, height: 17 })));
  }
  return s("svg", { class: `card-svg ${color} suit-${suit}`, viewBox: "0 0 100 140", direction: "ltr", "aria-hidden": "true", focusable: "false" }, parts);
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

/** The short form as an element of its own, isolated left to right, so a right-to-left
 * line never splits a card's rank from its suit ("7♥", never "♥7"). */
export function cardTag(card, cls = null) {
  return h("bdi", { class: ["card-name", cls], dir: "ltr" }, cardShort(card));
}

/** Cards' short forms, each isolated, with `sep` between them. */
export function cardTags(cards, sep = " ") {
  return cards.flatMap((card, i) => (i ? [sep, cardTag(card)] : [cardTag(card)]));
}

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** `text` (a catalogue sentence) with every card name in it ("10♦", "R♠") as an isolated
 * left-to-right element: strings and elements, ready to append. */
export function withCardNames(text) {
  const indices = RANKS.map(rankIndex).sort((a, b) => b.length - a.length).map(escape);
  const suits = ["C", "D", "H", "S"].map((suit) => escape(t(`suit.symbol.${suit}`)));
  const pattern = new RegExp(`(?:${indices.join("|")})(?:${suits.join("|")})`, "gu");
  const parts = [];
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) parts.push(text.slice(last, match.index));
    parts.push(h("bdi", { class: "card-name", dir: "ltr" }, match[0]));
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

/** A number with its sign in front ("+3", "−2", "0"), in Latin digits. */
export function signedNumber(n) {
  return n > 0 ? `+${num(n)}` : n < 0 ? `\u2212${num(-n)}` : num(0);
}

/** A signed number as an element that reads left to right in every language. */
export function signedTag(n, cls = null) {
  return h("bdi", { class: ["signed", cls], dir: "ltr" }, signedNumber(n));
}
