// The rules as the server serves them (GET /api/variants, basra-variants/1), fetched once
// when the page starts and read through the accessors below. This module's top-level await
// means no other module runs before the data is in, so nothing can read a rule too early.
// No rule is written here: seatings, targets, card points, power and forbidden cards,
// plays per round, bot levels and the seed limits are the server's. Names and
// descriptions in words are in the i18n catalogues under "variant.<name>.*".

const RETRY_MS = [300, 1000, 3000];

async function fetchBook() {
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await fetch("/api/variants", { headers: { Accept: "application/json" } });
      if (response.ok) {
        const data = await response.json();
        if (data && Array.isArray(data.variants) && data.variants.length) return data;
      }
    } catch { /* offline or refused: try again */ }
    // Out of tries, or the browser knows it is offline: the page says so at once.
    if (attempt >= RETRY_MS.length || !navigator.onLine) return null;
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS[attempt]));
  }
}

const book = await fetchBook();
const byName = new Map((book ? book.variants : []).map((v) => [v.name, v]));

/** Whether the rules came (the page cannot work without them). */
export function loaded() {
  return book !== null;
}

/** The whole basra-variants/1 document, as served. */
export function rulebook() {
  return book;
}

export function variantNames() {
  return book ? book.variants.map((v) => v.name) : [];
}

export function defaultVariant() {
  return book ? book.default : "";
}

/** One variant's rules as served (the default one for an unknown name). */
export function variantOf(name) {
  return byName.get(name) || byName.get(defaultVariant()) || null;
}

export function botLevels() {
  return book ? book.bot_levels.slice() : [];
}

/** The limits a client keeps to: max_part_bytes, own_text_bytes, max_client_seed_bytes,
 * nickname_min, nickname_max. */
export function limits() {
  return (book && book.limits) || {};
}

/** The rank part of a card name ("10D" -> "10"). */
export function rankOf(card) {
  return card.slice(0, -1);
}

/** Whether a card is drawn and buried when it turns up for the opening floor. */
export function isForbidden(variant, card) {
  const v = variantOf(variant);
  return !!v && v.opening_forbidden.includes(card);
}

/** Whether a card sweeps the whole floor in this variant. */
export function isPower(variant, card) {
  const v = variantOf(variant);
  return !!v && v.power.some((group) => group.cards.includes(card));
}

/** Points a card is worth in a pile at the end of a round (0 for most cards). */
export function cardPoints(variant, card) {
  const v = variantOf(variant);
  let points = 0;
  if (v) for (const line of v.card_points) if (line.cards.includes(card)) points += line.points;
  return points;
}

/** What a card-points line counts: a rank ("J", every Jack) or one card ("10D"). It names
 * the line's words in the catalogues (breakdown.line.<spec>). */
export function lineSpec(line) {
  if (line.cards.length === 1) return line.cards[0];
  const ranks = new Set(line.cards.map(rankOf));
  return ranks.size === 1 ? [...ranks][0] : line.label;
}

/** The power cards to show, one card for a whole rank (the spade: JS for every Jack). */
export function powerCardsShown(variant) {
  const v = variantOf(variant);
  const cards = v ? [...new Set(v.power.flatMap((group) => group.cards))] : [];
  const shown = [];
  for (const card of cards) {
    const rank = rankOf(card);
    const all = cards.filter((c) => rankOf(c) === rank);
    const one = all.length === 4 ? `${rank}S` : card;
    if (!shown.includes(one)) shown.push(one);
  }
  return shown;
}

/** A seating's key in the catalogues and the lobby's preferences ("2", "4t"). */
export function seatingKey({ players, teams }) {
  return teams ? `${players}t` : String(players);
}

/** The scoring side of a seat: the seat itself, or its team (seats 0+2, 1+3). */
export function sideOf(seat, teams) {
  return teams ? seat % 2 : seat;
}

export function sideCount(seats, teams) {
  return teams ? 2 : seats;
}
