// basra-shuffle-v1 (FAIRNESS.md) with Web Crypto, the deal of RULES.md section 2, and the
// check a browser makes after a round. No DOM and no text: the page turns check ids into
// words. Exactly the same bytes as basra.shuffle and any other verifier must give.

import { isForbidden } from "./variants.js";

export const SUITS = Object.freeze(["C", "D", "H", "S"]);
export const RANKS = Object.freeze(["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]);
/** The canonical order: AC 2C ... KC AD ... KS (index 0 is AC). */
export const CANONICAL = Object.freeze(SUITS.flatMap((s) => RANKS.map((r) => r + s)));

const PREFIX = "basra-shuffle-v1|";
const encoder = new TextEncoder();

export function hexToBytes(hex) {
  if (typeof hex !== "string" || !/^(?:[0-9a-fA-F]{2})*$/.test(hex)) {
    throw new Error("not hex");
  }
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function bytesToHex(bytes) {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

function subtle() {
  if (!globalThis.crypto || !globalThis.crypto.subtle) {
    throw new Error("Web Crypto is not available (the page must be served over https or from localhost)");
  }
  return globalThis.crypto.subtle;
}

function seedBytes(serverSeed) {
  const bytes = hexToBytes(serverSeed);
  if (bytes.length !== 32) throw new Error("a server seed is 32 bytes (64 hex digits)");
  return bytes;
}

/** hex(SHA-256(the 32 raw bytes of the server seed)). */
export async function commitmentOf(serverSeed) {
  return bytesToHex(await subtle().digest("SHA-256", seedBytes(serverSeed)));
}

/** The stream of FAIRNESS.md read as big-endian u32s: block k is
 * HMAC-SHA256(server_seed, "basra-shuffle-v1|" + client_seed + "|" + nonce + "|" + k). */
async function u32Stream(serverSeed, clientSeed, nonce) {
  const key = await subtle().importKey("raw", seedBytes(serverSeed),
    { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  let block = 0;
  let view = null;
  let offset = 32;
  return async function next() {
    if (offset >= 32) {
      const message = encoder.encode(`${PREFIX}${clientSeed}|${nonce}|${block}`);
      view = new DataView(await subtle().sign("HMAC", key, message));
      block += 1;
      offset = 0;
    }
    const value = view.getUint32(offset, false);
    offset += 4;
    return value;
  };
}

const TWO_32 = 2 ** 32;

/** An unbiased index below n: reject u32s at or above 2^32 - (2^32 mod n). */
async function below(next, n) {
  const limit = TWO_32 - (TWO_32 % n);
  for (;;) {
    const x = await next();
    if (x < limit) return x % n;
  }
}

/** The deck of a round, top first (deck[0] is dealt first), as card names. */
export async function shuffledDeck(serverSeed, clientSeed, nonce) {
  const bytes = encoder.encode(clientSeed);
  if (bytes.length > 256) throw new Error("a client seed is at most 256 bytes");
  if (!Number.isInteger(nonce) || nonce < 1) throw new Error("the nonce is a round number from 1");
  const next = await u32Stream(serverSeed, clientSeed, nonce);
  const deck = CANONICAL.slice();
  for (let i = 51; i >= 1; i--) {
    const j = await below(next, i + 1);
    const t = deck[i];
    deck[i] = deck[j];
    deck[j] = t;
  }
  return deck;
}

/**
 * Deal a round from a deck (RULES.md 2): every deal gives one card at a time to each seat,
 * starting after the dealer, until each holds 4; in the first deal the floor follows, and a
 * card forbidden on the opening floor is taken out and put back into the stock at
 * index len(stock) // 2 (the stock after removal), then another card is drawn.
 * Returns {hands: [deal][seat] -> cards, floor, buried, stock (after the first deal)}.
 */
export function dealRound(deck, { variant, seats, dealer, handSize = 4, floorSize = 4 }) {
  const stock = deck.slice();
  const deals = [];
  const floor = [];
  const buried = [];
  let afterFirst = null;
  while (stock.length > 0) {
    const hands = Array.from({ length: seats }, () => []);
    for (let k = 0; k < handSize; k++) {
      for (let step = 1; step <= seats; step++) {
        const seat = (dealer + step) % seats;
        if (stock.length === 0) throw new Error("the deck ran out in a deal");
        hands[seat].push(stock.shift());
      }
    }
    if (deals.length === 0) {
      while (floor.length < floorSize) {
        const card = stock.shift();
        if (isForbidden(variant, card)) {
          buried.push(card);
          stock.splice(Math.floor(stock.length / 2), 0, card);
        } else {
          floor.push(card);
        }
      }
      afterFirst = stock.slice();
    }
    deals.push(hands);
  }
  return { hands: deals, floor, buried, stock: afterFirst };
}

/** Which deal (0-based) the i-th play of a round (0-based) belongs to. */
export function dealOfPlay(index, seats, handSize = 4) {
  return Math.floor(index / (seats * handSize));
}

const sameSet = (a, b) => a.length === b.length && a.every((c) => b.includes(c));

/**
 * The browser's own check of a finished round. `round` gives what the server revealed
 * ({server_seed, client_seed, nonce, commitment}); `seen` what this page saw:
 * {variant, seats, dealer, commitment (published before the round, if seen), opening_floor,
 *  plays (every play of the round: {seat, card}), hands ({deal: [cards]} of this seat),
 *  seat (this page's seat or null), sentSeeds (client seeds this page sent)}.
 * Returns {fair, deck, checks: [{id, ok, ...detail}]}; `fair` needs every check ok.
 * A check with ok === null is informational (it could not be made).
 */
export async function verifyRound(round, seen) {
  const checks = [];
  const add = (id, ok, detail = {}) => checks.push({ id, ok, ...detail });
  let deck = null;
  try {
    const commitment = await commitmentOf(round.server_seed);
    add("commitment", commitment === round.commitment, { computed: commitment });
    if (seen.commitment) {
      add("commitment_published", seen.commitment === round.commitment);
    }
    deck = await shuffledDeck(round.server_seed, round.client_seed, round.nonce);
  } catch (err) {
    add("seed_format", false, { error: String(err && err.message) });
    return { fair: false, deck: null, checks };
  }
  const dealt = dealRound(deck, { variant: seen.variant, seats: seen.seats, dealer: seen.dealer });
  if (seen.opening_floor && seen.opening_floor.length) {
    add("opening_floor", sameSet(dealt.floor, seen.opening_floor), { expected: dealt.floor });
  }
  if (seen.seat !== null && seen.seat !== undefined && seen.hands) {
    const wrong = [];
    for (const [deal, cards] of Object.entries(seen.hands)) {
      const hand = (dealt.hands[Number(deal)] || [])[seen.seat] || [];
      for (const card of cards) if (!hand.includes(card)) wrong.push(card);
    }
    add("own_hands", wrong.length === 0, { wrong, deals: Object.keys(seen.hands).length });
  }
  if (seen.plays) {
    const wrong = [];
    seen.plays.forEach((play, index) => {
      const deal = dealOfPlay(index, seen.seats);
      const hand = (dealt.hands[deal] || [])[play.seat] || [];
      if (!hand.includes(play.card)) wrong.push({ index, ...play });
    });
    add("plays", wrong.length === 0, { wrong, count: seen.plays.length });
  }
  if (seen.seat !== null && seen.seat !== undefined && seen.sentSeeds && seen.sentSeeds.length) {
    const part = String(round.client_seed).split("|")[seen.seat];
    add("own_seed", seen.sentSeeds.includes(part) ? true : null, { part });
  }
  const fair = checks.every((c) => c.ok !== false);
  return { fair, deck, checks };
}
