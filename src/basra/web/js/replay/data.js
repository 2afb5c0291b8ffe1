// The replay's HTTP calls (docs/PROTOCOL.md): a finished match's replay by id, a record file
// sent as it is, the expert's analysis (ask for it, then poll while it is queued or
// running), the viewer's seat in the match, and a seat's mistakes as positions (the
// mistakes page). Errors are api.js's ApiError (its code and the server's one-line message).

import { request, requestText, session } from "../lib/api.js";

/** The largest record file the server takes (POST /api/replays: 512 KiB). */
export const MAX_RECORD_BYTES = 512 * 1024;  // the server's limit (routes/replays.py)

const path = (id) => `/api/replays/${encodeURIComponent(id)}`;

export const fetchReplay = (id) => request("GET", path(id));

/** A record file's text, POSTed as it is (not parsed here: the server checks it as
 * `basra replay` does, and answers 422 replay/bad_record with its one-line error). */
export const postRecord = (text) => requestText("POST", "/api/replays", text);

export const fetchAnalysis = (id) => request("GET", `${path(id)}/analysis`);
export const askAnalysis = (id) => request("POST", `${path(id)}/analysis`);

/** The seat this page's player had in the match (GET /api/tables/ID gives it), or null:
 * no session, not a player of it, or no answer. */
export async function fetchSeat(id) {
  if (!session.token) return null;
  try {
    const answer = await request("GET", `/api/tables/${encodeURIComponent(id)}`);
    return Number.isInteger(answer.seat) ? answer.seat : null;
  } catch {
    return null;
  }
}

/** A seat's costliest plays of an analysed match as positions (basra-mistakes/1). */
export const fetchMistakes = (id, seat) => request("GET", `${path(id)}/mistakes${seat === null || seat === undefined ? "" : `?seat=${encodeURIComponent(seat)}`}`);

/** The place of a record's problem in its one-line error ("round 2, play 17: ..."):
 * {round, play} (play null for a round's problem), or null for the whole record's. */
export function problemPlace(message) {
  const m = /^round (\d+)(?:, play (\d+))?:/.exec(String(message || ""));
  return m ? { round: Number(m[1]), play: m[2] === undefined ? null : Number(m[2]) } : null;
}
