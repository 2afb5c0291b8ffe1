// An event page's state, pure: what the event's socket said (docs/PROTOCOL.md,
// "Tournaments"). `receive(state, message)` gives the next state: a `tournament` message
// (STATE, the first of every connection) replaces everything; `standings` rows replace
// those of the same entrant (a delta: the rows not named stay as they were); `pairings`
// adds the matches begun and drops the ones decided; `event` replaces the event. The rows
// are read in rank order (`rows`), the matches being played in the order they began.

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

/** The standings in rank order (then by name, for rows that share a rank). */
export function rows(state) {
  return [...state.standings.values()].sort((a, b) => (a.rank - b.rank) || String(a.name).localeCompare(String(b.name)));
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
