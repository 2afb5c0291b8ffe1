// An event page's state, pure: what the event's socket said (docs/PROTOCOL.md,
// "Tournaments"). `receive(state, message)` gives the next state: a `tournament` message
// (the first of every connection) replaces everything; a `standings` message is one page of
// the standings, whole (the page this socket shows: its news, or the answer to an ask for
// another page); `playing` replaces the matches shown (those of the best placed) and how
// many are being played; `counts` says how many entrants, pages and matches there are;
// `mine` is this player's own row, wherever it stands (it follows a connection's first
// message); `event` replaces the event. The page never holds every row: a 2,000-entrant
// event is a hundred pages of twenty.

export function initialState() {
  return {
    event: null, standings: [], page: 1, pages: 1, count: 0, playing: [], live: 0,
    mine: null, v: 0, connections: 0,
  };
}

export function receive(state, m) {
  switch (m.type) {
    case "tournament":
      return {
        ...state, event: m.event, v: m.v, standings: m.standings || [],
        page: m.page || 1, pages: m.pages || 1, count: m.count || 0,
        playing: m.playing || [], live: m.live || 0, mine: null,
        connections: state.connections + 1,
      };
    case "standings":
      return {
        ...state, standings: m.rows || [], v: m.v, page: m.page || state.page,
        pages: m.pages || state.pages, count: m.count ?? state.count,
      };
    case "playing":
      return { ...state, playing: m.matches || [], live: m.live || 0, v: m.v };
    case "counts":
      return { ...state, count: m.count || 0, pages: m.pages || 1, live: m.live || 0, v: m.v };
    case "mine":
      return { ...state, mine: m.row || null, v: m.v };
    case "event":
      return { ...state, event: m.event, v: m.v };
    default:
      return state;
  }
}

/** The rows of the page shown, in the server's order, each with its rank. */
export function rows(state) {
  return state.standings;
}

/** The matches shown (those of the best placed first). */
export function playing(state) {
  return state.playing;
}

/** A pairing's entrant's name (the event's own words for one it does not know). */
export function nameIn(pairing, index, unknown = "?") {
  const name = pairing && pairing.names ? pairing.names[index] : "";
  return name || unknown;
}

/** The account of a one-player entrant (its profile), or null for a guest. */
export function usernameOf(row) {
  const names = (row && row.usernames) || [];
  return names.length === 1 && names[0] ? names[0] : null;
}
