// What a player types at the screen-reader table (table/reader.js), made comparable and
// read as cards: `normalize` (no marks, Latin digits, one alef, lower case) and `findCard`
// (a card's notation, its name in the reader's language, or a rank alone).

import { t, has } from "../lib/i18n.js";
import { cardName, suitOf } from "../lib/cards.js";
import { rankOf } from "../lib/variants.js";

/** Letters, digits and words as typed, made comparable: no marks (Arabic vowels, accents),
 * Latin digits, one alef, no punctuation, lower case. */
export function normalize(text) {
  return String(text).normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase()
    .replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x660))
    .replace(/[\u06f0-\u06f9]/g, (d) => String(d.charCodeAt(0) - 0x6f0))
    .replace(/[أإآ]/g, "ا").replace(/ى/g, "ي").replace(/ة/g, "ه").replace(/œ/g, "oe")
    .replace(/[.,;:!?؟،()"'«»\-_/]/g, " ").replace(/\s+/g, " ").trim();
}

/** An Arabic word without its article ("السبعة" -> "سبعة"). */
const bare = (word) => (word.length > 3 && word.startsWith("ال") ? word.slice(2) : word);

const CODE = /^(10|[2-9]|t|a|j|q|k)\s*([cdhs♣♦♥♠])$/u;
const SUITS = { "♣": "C", "♦": "D", "♥": "H", "♠": "S" };

/** The cards of `hand` that `text` names: a card's notation (7D, 10♦, TD), its name in the
 * reader's language (with or without the Arabic article, any case, no marks), or a rank
 * alone that only one card in hand has. */
export function findCard(hand, text) {
  const code = CODE.exec(text);
  if (code) {
    const rank = code[1] === "t" ? "10" : code[1].toUpperCase();
    const card = rank + (SUITS[code[2]] || code[2].toUpperCase());
    return hand.includes(card) ? [card] : [];
  }
  const tokens = text.split(" ").map(bare);
  const suitWords = ["C", "D", "H", "S"].map((s) => bare(normalize(t(`suit.name.${s}`))));
  const namesSuit = tokens.some((tok) => suitWords.some((w) => suitHit(tok, w)));
  const full = [];
  const partial = [];
  for (const card of hand) {
    const specials = has(`card.special.${card}`) ? [normalize(t(`card.special.${card}`)), normalize(t(`card.special.${card}`).split("(")[0])] : [];
    if (text === normalize(cardName(card)) || specials.includes(text)) { full.push(card); continue; }
    const rank = rankOf(card);
    const rankWords = [bare(normalize(t(`rank.name.${rank}`))), /^\d+$/.test(rank) ? rank : null];
    const rankHit = tokens.some((tok) => rankWords.includes(tok));
    const suitWord = suitWords["CDHS".indexOf(suitOf(card))];
    if (rankHit && tokens.some((tok) => suitHit(tok, suitWord))) full.push(card);
    else if (rankHit && !namesSuit) partial.push(card);
  }
  return full.length ? full : partial;
}

/** A typed word names a suit: the word, or its start (3 letters at least: "diamond"). */
const suitHit = (token, word) => token === word || (token.length >= 3 && word.startsWith(token));

