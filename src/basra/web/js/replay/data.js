// The replay's HTTP calls (docs/PROTOCOL.md): a finished match's replay by id, a record file
// sent as it is, and the expert's analysis (ask for it, then poll while it is queued or
// running). Errors are api.js's ApiError (its code and the server's one-line message).

import { request, requestText } from "../lib/api.js";

/** The largest record file the server takes (POST /api/replays: 512 KiB). */
export const MAX_RECORD_BYTES = 512 * 1024;  // the server's limit (routes/replays.py)

const path = (id) => `/api/replays/${encodeURIComponent(id)}`;

export const fetchReplay = (id) => request("GET", path(id));

/** A record file's text, POSTed as it is (not parsed here: the server checks it as
 * `basra replay` does, and answers 422 replay/bad_record with its one-line error). */
export const postRecord = (text) => requestText("POST", "/api/replays", text);

export const fetchAnalysis = (id) => request("GET", `${path(id)}/analysis`);
export const askAnalysis = (id) => request("POST", `${path(id)}/analysis`);

/** The place of a record's problem in its one-line error ("round 2, play 17: ..."):
 * {round, play} (play null for a round's problem), or null for the whole record's. */
export function problemPlace(message) {
  const m = /^round (\d+)(?:, play (\d+))?:/.exec(String(message || ""));
  return m ? { round: Number(m[1]), play: m[2] === undefined ? null : Number(m[2]) } : null;
}
