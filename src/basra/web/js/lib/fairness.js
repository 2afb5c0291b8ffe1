// basra-shuffle-v1 (FAIRNESS.md) with Web Crypto, the deal of RULES.md section 2, and the
// check a browser makes after a round. No DOM and no text: the page turns check ids into
// words. Exactly the same bytes as basra.game.shuffle and any other verifier must give.

import { isForbidden, limits, variantOf } from "./variants.js";

export const SUITS = Object.freeze(["C", "D", "H", "S"]);
export const RANKS = Object.freeze(["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]);
/** The canonical order: AC 2C ... KC AD ... KS (index 0 is AC). */
export const CANONICAL = Object.freeze(SUITS.flatMap((s) => RANKS.map((r) => r + s)));

const PREFIX = "basra-shuffle-v1|";
const SEAT_PREFIX = "basra-seat-seed-v1|";
const encoder = new TextEncoder();

/** A seat's part of the client seed: 1 to max_part_bytes of UTF-8 (the server's limits), no
 * "|", no control characters. */
export const maxPartBytes = () => limits().max_part_bytes;
/** How much of a player's own text goes into a part (the rest is "." and 8 random bytes). */
export const ownTextBytes = () => limits().own_text_bytes;

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

async function hmacKey(serverSeed) {
  return subtle().importKey("raw", seedBytes(serverSeed), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

/** hex(SHA-256(the 32 raw bytes of the server seed)). */
export async function commitmentOf(serverSeed) {
  return bytesToHex(await subtle().digest("SHA-256", seedBytes(serverSeed)));
}

/** The stream of FAIRNESS.md read as big-endian u32s: block k is
 * HMAC-SHA256(server_seed, "basra-shuffle-v1|" + client_seed + "|" + nonce + "|" + k). */
async function u32Stream(serverSeed, clientSeed, nonce) {
  const key = await hmacKey(serverSeed);
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

/** The part the server supplies for a seat (a bot, or a player who sent none): the first 16
 * hex digits of HMAC-SHA256(server_seed, "basra-seat-seed-v1|" + nonce + "|" + seat). */
export async function seatPart(serverSeed, nonce, seat) {
  if (!Number.isInteger(nonce) || nonce < 1) throw new Error("the nonce is a round number from 1");
  if (!Number.isInteger(seat) || seat < 0) throw new Error("a seat is a number from 0");
  const mac = await subtle().sign("HMAC", await hmacKey(serverSeed), encoder.encode(`${SEAT_PREFIX}${nonce}|${seat}`));
  return bytesToHex(mac).slice(0, 16);
}

const isControl = (cp) => cp < 0x20 || (cp >= 0x7f && cp < 0xa0);

/** Why `part` cannot be a seat's part ("empty", "long", "bar", "control"), or null. */
export function partProblem(part) {
  if (typeof part !== "string" || part.length === 0) return "empty";
  if (encoder.encode(part).length > maxPartBytes()) return "long";
  if (part.includes("|")) return "bar";
  for (const ch of part) {
    const cp = ch.codePointAt(0);
    if (isControl(cp) || (cp >= 0xd800 && cp <= 0xdfff)) return "control";
  }
  return null;
}

/** `text` without what a part may not hold ("|", control characters, lone surrogates),
 * cut at a character boundary to at most `max` UTF-8 bytes. */
export function cleanText(text, max = ownTextBytes()) {
  let out = "";
  let size = 0;
  for (const ch of String(text || "")) {
    const cp = ch.codePointAt(0);
    if (ch === "|" || isControl(cp) || (cp >= 0xd800 && cp <= 0xdfff)) continue;
    const n = encoder.encode(ch).length;
    if (size + n > max) break;
    out += ch;
    size += n;
  }
  return out;
}

/** `n` bytes from the browser's secure generator, as hex. */
export function randomHex(n) {
  const bytes = new Uint8Array(n);
  globalThis.crypto.getRandomValues(bytes);
  return bytesToHex(bytes);
}

/** A fresh part for one round, as FAIRNESS.md's reference clients make it: 16 random bytes
 * as hex, or the player's own text (cut to own_text_bytes), ".", and 8 random bytes as hex. */
export function freshPart(ownText = "") {
  const own = cleanText(String(ownText || "").trim(), ownTextBytes());
  return own ? `${own}.${randomHex(8)}` : randomHex(16);
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
  const most = limits().max_client_seed_bytes;
  if (bytes.length > most) throw new Error(`a client seed is at most ${most} bytes`);
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
export function dealRound(deck, { variant, seats, dealer, handSize = dealSize(variant), floorSize = variantOf(variant).floor_size }) {
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

/** Cards a seat gets in each deal of this variant. */
export function dealSize(variant) {
  return variantOf(variant).deal_size;
}

/** Which deal (0-based) the i-th play of a round (0-based) belongs to. */
export function dealOfPlay(index, seats, handSize) {
  return Math.floor(index / (seats * handSize));
}

const sameSet = (a, b) => a.length === b.length && a.every((c) => b.includes(c));

/**
 * FAIRNESS.md check 3: the client seed has one part per seat, every bot seat's part is
 * part(seat), and this page's own part is one it sent for the round (part(seat) if it sent
 * none). `kinds` names each seat ("human", "bot"); `sentParts` the parts this page sent for
 * this round, or null when it cannot know (it was not open before the round).
 */
async function checkParts(round, { seats, kinds, seat, sentParts }) {
  const parts = String(round.client_seed).split("|");
  const derived = [];
  for (let i = 0; i < Math.max(seats, parts.length); i++) derived.push(await seatPart(round.server_seed, round.nonce, i));
  const isBot = (i) => kinds && (kinds[i] === "bot" || String(kinds[i]).startsWith("bot:"));
  const list = parts.map((part, i) => ({
    seat: i, part, derived: part === derived[i], bot: !!isBot(i), own: i === seat,
  }));
  const countOk = parts.length === seats;
  const badBots = list.filter((p) => p.bot && !p.derived).map((p) => p.seat);
  let own = null;
  if (seat !== null && seat !== undefined && seat < seats) {
    const part = parts[seat];
    if (sentParts === null || sentParts === undefined) {
      own = { ok: null, part, sent: false };
    } else {
      const expected = sentParts.length ? sentParts : [derived[seat]];
      own = { ok: expected.includes(part), part, sent: sentParts.length > 0, expected };
    }
    if (list[seat]) list[seat].ok = own.ok;
  }
  for (const p of list) if (p.bot) p.ok = p.derived;
  const reason = !countOk ? "count" : badBots.length ? "bot" : own && own.ok === false ? "own"
    : own && own.ok === null ? "own_unknown" : null;
  const ok = countOk && badBots.length === 0 && (!own || own.ok !== false);
  return { ok, count: parts.length, seats, parts: list, badBots, ownPart: own, reason };
}

/**
 * The browser's own check of a finished round. `round` gives what the server revealed
 * ({server_seed, client_seed, nonce, commitment}); `seen` what this page saw:
 * {variant, seats, dealer, commitment (published before the round, if seen), opening_floor,
 *  plays (every play of the round: {seat, card}), hands ({deal: [cards]} of this seat),
 *  seat (this page's seat or null), kinds (each seat's "human" or "bot"),
 *  sentParts (the parts this page sent for this round; null if it was not there to send),
 *  cardsFirst (true when the page saw the round's cards before its commitment)}.
 * Returns {fair, verdict ("fair" | "unfair" | "unverifiable"), deck, checks: [{id, ok, ...}]}.
 * `fair` needs every check ok; a check with ok === null is informational. A round whose
 * cards came before its commitment is "unverifiable" unless a check fails.
 */
export async function verifyRound(round, seen) {
  const checks = [];
  const add = (id, ok, detail = {}) => checks.push({ id, ok, ...detail });
  let deck = null;
  const done = () => {
    const failed = checks.some((c) => c.ok === false);
    const verdict = failed ? "unfair" : seen.cardsFirst ? "unverifiable" : "fair";
    return { fair: verdict === "fair", verdict, deck, checks };
  };
  if (seen.cardsFirst) add("commitment_first", null);
  try {
    const commitment = await commitmentOf(round.server_seed);
    add("commitment", commitment === round.commitment, { computed: commitment });
    if (seen.commitment) {
      add("commitment_published", seen.commitment === round.commitment);
    }
    deck = await shuffledDeck(round.server_seed, round.client_seed, round.nonce);
  } catch (err) {
    add("seed_format", false, { error: String(err && err.message) });
    return done();
  }
  // The deal is re-done with the rule book the server serves: a variant it does not name
  // cannot be checked (never re-dealt under another variant's rules).
  const rules = variantOf(seen.variant);
  if (!rules || rules.name !== seen.variant) {
    add("rules_known", false, { variant: seen.variant });
    return done();
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
      const deal = dealOfPlay(index, seen.seats, dealSize(seen.variant));
      const hand = (dealt.hands[deal] || [])[play.seat] || [];
      if (!hand.includes(play.card)) wrong.push({ index, ...play });
    });
    add("plays", wrong.length === 0, { wrong, count: seen.plays.length });
  }
  const parts = await checkParts(round, seen);
  add("parts", parts.ok, parts);
  return done();
}
