// A replay's positions, pure (no DOM): a position is {r, s}, round r (0-based) and step s of
// that round (step 0 the deal, step k just after play k), as basra-replay/1 gives them.
// Moving, the deep-link hash (#r2p17: round 2 after play 17; #r2p0 or #r2 its deal), every
// step of the match in one line (the margin graph's x), and the analysis of each play.

/** The number of steps of round r (the deal and one per play). */
export function stepCount(replay, r) {
  const round = replay.rounds[r];
  return round ? round.steps.length : 0;
}

export const first = () => ({ r: 0, s: 0 });

/** `pos` kept inside the replay (a round that does not exist: the start). */
export function clamp(replay, pos) {
  if (!replay.rounds.length) return first();
  if (!pos || !Number.isInteger(pos.r) || pos.r < 0 || pos.r >= replay.rounds.length) return first();
  const last = stepCount(replay, pos.r) - 1;
  if (!Number.isInteger(pos.s) || pos.s < 0 || pos.s > last) return { r: pos.r, s: 0 };
  return { r: pos.r, s: pos.s };
}

/** One step forward, into the next round's deal after a round's last step (null at the end). */
export function forward(replay, pos) {
  if (pos.s + 1 < stepCount(replay, pos.r)) return { r: pos.r, s: pos.s + 1 };
  if (pos.r + 1 < replay.rounds.length) return { r: pos.r + 1, s: 0 };
  return null;
}

/** One step back, into the previous round's last step from a deal (null at the start). */
export function back(replay, pos) {
  if (pos.s > 0) return { r: pos.r, s: pos.s - 1 };
  if (pos.r > 0) return { r: pos.r - 1, s: stepCount(replay, pos.r - 1) - 1 };
  return null;
}

/** The deal of the round `delta` rounds away (null past either end). */
export function roundAway(replay, pos, delta) {
  const r = pos.r + delta;
  return r >= 0 && r < replay.rounds.length ? { r, s: 0 } : null;
}

export const roundStart = (pos) => ({ r: pos.r, s: 0 });
export const roundEnd = (replay, pos) => ({ r: pos.r, s: stepCount(replay, pos.r) - 1 });

/** The position a hash names (`#r2p17`, `#r2p0`, `#r2`), or null when it names none. */
export function parseHash(hash) {
  const m = /^#?r(\d{1,4})(?:p(\d{1,4}))?$/i.exec(String(hash || ""));
  if (!m) return null;
  return { r: Number(m[1]) - 1, s: m[2] === undefined ? 0 : Number(m[2]) };
}

/** Whether the hash names this position exactly (a bad or out-of-range one does not). */
export function validHash(replay, hash) {
  const pos = parseHash(hash);
  if (!pos) return false;
  const kept = clamp(replay, pos);
  return kept.r === pos.r && kept.s === pos.s;
}

export const hashOf = (pos) => `#r${pos.r + 1}p${pos.s}`;

/** Every step of the match in order: [{r, s}], and where each round starts in it. */
export function timeline(replay) {
  const steps = [];
  const starts = [];
  replay.rounds.forEach((round, r) => {
    starts.push(steps.length);
    round.steps.forEach((_, s) => steps.push({ r, s }));
  });
  return { steps, starts };
}

/** A position's index in the timeline. */
export function indexOf(line, pos) {
  return (line.starts[pos.r] ?? 0) + pos.s;
}

const playKey = (round, number) => `${round}:${number}`;

/** The analysis's plays by "round:number" (both 1-based, as basra-analysis/1 numbers them). */
export function playsByKey(analysis) {
  const map = new Map();
  for (const p of (analysis && analysis.plays) || []) map.set(playKey(p.round, p.number), p);
  return map;
}

/** The analysed play that led to position `pos` (null for a deal or when there is none). */
export function analysedPlay(byKey, pos) {
  return pos.s > 0 ? byKey.get(playKey(pos.r + 1, pos.s)) || null : null;
}

/** The expert's best play as {card, take}: its fields, or read from its play text
 * ("7H", "7H:7C+4D") when an older analysis has only the text. */
export function bestPlay(p) {
  if (!p) return null;
  if (p.best_card) return { card: p.best_card, take: Array.isArray(p.best_take) ? p.best_take : [] };
  const [card, take] = String(p.best || "").split(":");
  return { card, take: take ? take.split("+").filter(Boolean) : [] };
}

/**
 * The expected margin of the match for side 0 at every step of the timeline (two sides only;
 * null elsewhere): at a deal, the totals before the round (side 0 - side 1); after a play, the
 * analysis's `margin` (or, when it has none, the totals before the round plus the play's
 * value signed for side 0). A play the analysis lacks is null.
 */
export function margins(replay, byKey, sideOf) {
  if (replay.sides !== 2) return null;
  const out = [];
  replay.rounds.forEach((round, r) => {
    const before = (round.totals_before[0] || 0) - (round.totals_before[1] || 0);
    round.steps.forEach((step, s) => {
      if (s === 0) { out.push(before); return; }
      const p = byKey.get(playKey(r + 1, s));
      if (!p) out.push(null);
      else if (typeof p.margin === "number") out.push(p.margin);
      else out.push(before + (sideOf(p.seat, replay.teams) === 0 ? p.value : -p.value));
    });
  });
  return out;
}
