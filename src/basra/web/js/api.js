// HTTP calls of docs/PROTOCOL.md section 1, and the guest session kept in localStorage so a
// reload keeps the same player.

import { currentLanguage } from "./i18n.js";

const TOKEN_KEY = "basra.token";
const NICK_KEY = "basra.nickname";
const ID_KEY = "basra.player";

export class ApiError extends Error {
  constructor(status, code, message, retryAfter = 0) {
    super(message);
    this.status = status;
    this.code = code;
    /** Seconds to wait before asking again (a 429's Retry-After), or 0. */
    this.retryAfter = retryAfter;
  }
}

function read(key) {
  try { return localStorage.getItem(key) || ""; } catch { return ""; }
}

function write(key, value) {
  try {
    if (value) localStorage.setItem(key, value);
    else localStorage.removeItem(key);
  } catch { /* storage may be blocked: the session lasts the page */ }
}

export const session = {
  get token() { return read(TOKEN_KEY); },
  get nickname() { return read(NICK_KEY); },
  get playerId() { return read(ID_KEY); },
  save(token, player) {
    write(TOKEN_KEY, token);
    write(NICK_KEY, player.nickname);
    write(ID_KEY, player.id);
  },
  forget() {
    write(TOKEN_KEY, "");
    write(ID_KEY, "");
  },
};

export async function request(method, path, body) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (session.token) headers.Authorization = `Bearer ${session.token}`;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, "network/offline", "");
  }
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) {
    const error = (data && data.error) || {};
    const retry = Number.parseInt(response.headers.get("Retry-After") || "", 10);
    throw new ApiError(response.status, error.code || `http/${response.status}`, error.message || "",
      Number.isFinite(retry) && retry > 0 ? Math.min(retry, 3600) : 0);
  }
  return data;
}

/** Check the stored token: the player, or null when there is none or it is unknown. */
export async function me() {
  if (!session.token) return null;
  try {
    const player = await request("GET", "/api/me");
    write(NICK_KEY, player.nickname);
    write(ID_KEY, player.id);
    return player;
  } catch (err) {
    if (err.status === 401) session.forget();
    if (err.status === 401) return null;
    throw err;
  }
}

/** Become a new guest: called `nickname`, or, without one, a friendly name the server
 * makes up (one tap to play; it can be changed later with `rename`). */
export async function signIn(nickname = "") {
  // Without a nickname the server makes one up, in the reader's language.
  const body = nickname ? { nickname } : { language: currentLanguage() };
  const answer = await request("POST", "/api/guests", body);
  session.save(answer.token, answer.player);
  return answer.player;
}

/** The same guest under a new nickname (for the tables sat down at from now on). */
export async function rename(nickname) {
  const player = await request("PATCH", "/api/me", { nickname });
  write(NICK_KEY, player.nickname);
  write(ID_KEY, player.id);
  return player;
}

export const api = {
  playBot: (options) => request("POST", "/api/tables/bot", options),
  createPrivate: (options) => request("POST", "/api/tables/private", options),
  join: (code) => request("POST", "/api/tables/join", { invite_code: code }),
  addBot: (table, seat, level) => request("POST", `/api/tables/${encodeURIComponent(table)}/bots`, { seat, level }),
  table: (table) => request("GET", `/api/tables/${encodeURIComponent(table)}`),
  record: (table) => request("GET", `/api/tables/${encodeURIComponent(table)}/record`),
  quickMatch: (variant) => request("POST", "/api/quick-match", { variant }),
  quickWait: (ticket, wait) => request("GET", `/api/quick-match/${encodeURIComponent(ticket)}?wait=${wait}`),
  quickBot: (ticket, level) => request("POST", `/api/quick-match/${encodeURIComponent(ticket)}/bot`, { level }),
  quickLeave: (ticket) => request("DELETE", `/api/quick-match/${encodeURIComponent(ticket)}`),
  history: () => request("GET", "/api/history"),
};

export function recordUrl(table) {
  return `/api/tables/${encodeURIComponent(table)}/record`;
}
