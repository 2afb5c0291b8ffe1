// An event page's state, pure: what the event's socket said (docs/PROTOCOL.md,
// "Tournaments"). `receive(state, message)` gives the next state: a `tournament` message
// (STATE, the first of every connection) replaces everything; `standings` rows replace
// those of the same entrant (a delta: the rows not named stay as they were); `pairings`
// adds the matches begun and drops the ones decided; `event` replaces the event. The rows
// are read in the server's order (`rows`, ranks numbered again: a delta leaves out the rows
// whose rank alone moved), the matches being played in the order they began.

export function initialState() {
  return { event: null, standings: new Map(), playing: new Map(), v: 0, connections: 0 };
}

export function receive(state, m) {
  switch (m.type) {
    case "tournament":
      return {
        ...state, event: m.event, v: m.v,
        standings: new Map((m.standings || []).map((row) => [row.entrant, row])),
        playing: new Map((m.playing || []).map((p) => [p.id, p])),
        connections: state.connections + 1,
      };
    case "standings": {
      const standings = new Map(state.standings);
      for (const row of m.rows || []) standings.set(row.entrant, row);
      return { ...state, standings, v: m.v };
    }
    case "pairings": {
      const playing = new Map(state.playing);
      for (const p of m.add || []) if (p.table) playing.set(p.id, p);
      for (const p of m.done || []) playing.delete(p.id);
      return { ...state, playing, v: m.v };
    }
    case "event":
      return { ...state, event: m.event, v: m.v };
    default:
      return state;
  }
}

/** Each format's order of the standings, as the server's (docs/PROTOCOL.md): the rows a
 * delta does not name keep their numbers but may move, so the page orders them itself. */
const ORDER = {
  arena: ["score", "performance", "rating"],
  swiss: ["score", "buchholz", "sonneborn_berger", "rating"],
};

/** The standings in order, each row with its rank (1, 2, 3...) as the page shows it. */
export function rows(state) {
  const keys = ORDER[state.event && state.event.format] || ORDER.arena;
  const sorted = [...state.standings.values()].sort((a, b) => {
    for (const key of keys) {
      const d = (Number(b[key]) || 0) - (Number(a[key]) || 0);
      if (d) return d;
    }
    return String(a.entrant) < String(b.entrant) ? -1 : String(a.entrant) > String(b.entrant) ? 1 : 0;
  });
  return sorted.map((row, i) => (row.rank === i + 1 ? row : { ...row, rank: i + 1 }));
}

/** The matches being played, oldest first. */
export function playing(state) {
  return [...state.playing.values()].sort((a, b) => String(a.created_at).localeCompare(String(b.created_at)));
}

/** The table an entrant is playing at now, or null. */
export function tableOf(state, entrant) {
  for (const p of state.playing.values()) if (p.entrants.includes(entrant)) return p.table;
  return null;
}

/** An entrant's name (the event's own words for one it does not know). */
export function nameOf(state, entrant, unknown = "?") {
  const row = state.standings.get(entrant);
  return row ? row.name : unknown;
}

/** The account of a one-player entrant (its profile), or null for a guest. */
export function usernameOf(row) {
  const names = (row && row.usernames) || [];
  return names.length === 1 && names[0] ? names[0] : null;
}
