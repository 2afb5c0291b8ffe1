// The state's asides, pure like state.js (which applies them): the plays a bot made for
// this seat that the player is to be told of ("While you were away"), and the hint the
// server gave for this turn, the wait for the next round.

const with_ = (state, changes) => ({ ...state, ...changes });

/** The bot's plays for this seat to tell the player of, added to those not yet told (each
 * play once: `round` and `card` name it). */
export function awayReported(state, plays) {
  const known = new Set(state.away.map((p) => `${p.round}:${p.card}`));
  const fresh = [];
  for (const p of plays) {
    if (!p || !p.card) continue;
    const key = `${p.round}:${p.card}`;
    if (known.has(key)) continue;
    known.add(key);
    fresh.push({ round: p.round, card: p.card, take: (p.take || []).slice(), reason: p.reason || "away" });
  }
  return fresh.length ? with_(state, { away: [...state.away, ...fresh] }) : state;
}

/** The player read the "While you were away" panel. */
export function awayDismissed(state) {
  return state.away.length ? with_(state, { away: [] }) : state;
}

export function receiveHint(state, message) {
  const game = state.game;
  if (!game || message.version !== game.version || !message.card) return state;
  return with_(state, { hint: { version: message.version, card: message.card, take: (message.take || []).slice() }, hintAsked: null });
}

/** A hint was asked for on the version shown. */
export function hintAsked(state) {
  return state.game ? with_(state, { hintAsked: state.game.version }) : state;
}

/** Where the wait for the next round stands at `now`: {round, left (ms), second, waiting}. */
export function nextRoundInfo(state, now) {
  const n = state.nextRound;
  if (!n) return null;
  const left = Math.max(0, n.remaining - (now - n.at));
  return { round: n.round, left, second: Math.ceil(left / 1000), waiting: n.waiting };
}
