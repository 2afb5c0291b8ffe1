// HTTP calls of docs/PROTOCOL.md section 1, and the session kept in localStorage so a reload
// keeps the same player: a guest's token, or an account's once signed in (signing in
// replaces the guest's token; signing out forgets it, and the next play makes a new guest).
// The last /api/me body is kept too (the header names an account before the check answers);
// onSession(fn) hears every change of it. A stored account session that stops working (a
// 401 from /api/me, a table socket closed 4401) is forgotten and the user told, once.

import { currentLanguage, t } from "./i18n.js";
import { announce, toast } from "./ui.js";

const TOKEN_KEY = "basra.token";
const NICK_KEY = "basra.nickname";
const ID_KEY = "basra.player";
const ME_KEY = "basra.me";

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

const listeners = new Set();
let mine = readMe();

function readMe() {
  try { return JSON.parse(read(ME_KEY) || "null"); } catch { return null; }
}

/** Keep `player` (a /api/me body, or null once signed out) and tell every listener. */
function keep(player) {
  if (player) {
    // Only what the answer holds: a guest's POST /api/guests gives {id, nickname}.
    mine = { ...(mine && mine.id === player.id ? mine : {}), ...player };
    write(ME_KEY, JSON.stringify(mine));
    write(NICK_KEY, player.nickname);
    write(ID_KEY, player.id);
  } else {
    mine = null;
    write(ME_KEY, "");
  }
  for (const fn of listeners) fn(mine);
}

// Another tab signed in or out: this one follows.
window.addEventListener("storage", (event) => {
  if (event.key !== ME_KEY && event.key !== TOKEN_KEY) return;
  mine = read(TOKEN_KEY) ? readMe() : null;
  for (const fn of listeners) fn(mine);
});

/** Hear every change of the player (its /api/me body, or null); returns the unsubscribe. */
export function onSession(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** The last /api/me body this browser was given (may be older than the server's). */
export function cachedMe() {
  return session.token ? mine : null;
}

export const session = {
  get token() { return read(TOKEN_KEY); },
  get nickname() { return read(NICK_KEY); },
  get playerId() { return read(ID_KEY); },
  save(token, player) {
    write(TOKEN_KEY, token);
    keep(player);
  },
  /** A proof (a password or a passkey) gives the session a new token: keep it (a copy of
   * the old one names nobody any more). */
  renew(token) {
    if (token) write(TOKEN_KEY, token);
  },
  /** Forget the session (`all`: the nickname too, as after signing an account out). */
  forget({ all = false } = {}) {
    write(TOKEN_KEY, "");
    write(ID_KEY, "");
    if (all) write(NICK_KEY, "");
    keep(null);
  },
};

export function request(method, path, body) {
  return requestText(method, path, body === undefined ? undefined : JSON.stringify(body));
}

/** A call whose body is JSON text already (a record file, sent as it is). */
export async function requestText(method, path, text) {
  const headers = { Accept: "application/json" };
  if (text !== undefined) headers["Content-Type"] = "application/json";
  if (session.token) headers.Authorization = `Bearer ${session.token}`;
  let response;
  try {
    response = await fetch(path, { method, headers, body: text });
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

let checking = null;

/** Check the stored token: the player (the /api/me body), or null when there is none or it
 * is unknown (signed out elsewhere). Calls made while one is on its way share its answer. */
export function me() {
  if (!session.token) return Promise.resolve(null);
  const token = session.token;
  if (checking && checking.token === token) return checking.answer;
  const answer = request("GET", "/api/me").then((player) => {
    if (session.token === token) keep(player);
    return player;
  }, (err) => {
    if (err.status !== 401) throw err;
    sessionEnded(token);
    return null;
  }).finally(() => { if (checking && checking.answer === answer) checking = null; });
  checking = { token, answer };
  return answer;
}

/** The token this page last told its user had stopped working (told once). */
let toldEnded = "";

/** The stored session `token` stopped working on the server (a 401 from /api/me, or a
 * table's socket closed with 4401): signed out on another device, everywhere, by a new
 * password, or the account deleted. It is forgotten (if it is still the one held) and,
 * when it was an account's (the cached me said so) or `always`, the user is told once.
 * True when it was told (now or before). */
export function sessionEnded(token, { always = false } = {}) {
  if (!token) return false;
  const held = session.token === token;
  const wasAccount = held && !!(mine && mine.account);
  if (held) session.forget();
  if (toldEnded === token) return true;
  if (!wasAccount && !always) return false;
  toldEnded = token;
  const text = t("account.signed_out_here");
  toast(text, "info", 8000);
  announce(text);
  return true;
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
  keep(player);
  return player;
}

/** A new username, when a moderator required one (issue 31): the new /api/me body. */
export async function changeUsername(username) {
  const player = await request("PUT", "/api/me/username", { username });
  keep(player);
  return player;
}

/** Make this guest an account (`password` optional): the /api/me body. */
export async function createAccount(username, password) {
  const player = await request("POST", "/api/account", password ? { username, password } : { username });
  keep(player);
  // A proof that fails (busy) only means the next guarded action asks for one.
  if (password) await prove(password).catch(() => null);
  return player;
}

/** Prove who holds this session with the password just typed (after making the account
 * or changing the password): the session goes on with a new token, kept here. */
export async function prove(password) {
  const answer = await request("POST", "/api/sessions/current/proof", { password });
  session.renew(answer.token);
  return answer;
}

/** A sign-in's answer ({token, player}) replaces the session held (a guest's, if any). */
export function adopt(answer) {
  session.save(answer.token, answer.player);
  return answer.player;
}

export async function signInWithPassword(username, password) {
  return adopt(await request("POST", "/api/sessions", { username, password }));
}

/** Sign out here (`everywhere`: every session of the account); the token is forgotten even
 * when the server had ended the session already. */
export async function signOut({ everywhere = false } = {}) {
  try {
    return await request("DELETE", everywhere ? "/api/sessions" : "/api/sessions/current");
  } catch (err) {
    if (err.status !== 401) throw err;
    return { revoked: 0 };
  } finally {
    session.forget({ all: true });
  }
}

/** After the account is deleted, or its password changed elsewhere: the player once more. */
export function forgetPlayer() {
  session.forget({ all: true });
}

/** A file the server gives only with the token (the data export): saved as it names it. */
export async function download(path, fallbackName) {
  let response;
  try {
    response = await fetch(path, { headers: { Authorization: `Bearer ${session.token}` } });
  } catch {
    throw new ApiError(0, "network/offline", "");
  }
  if (!response.ok) {
    let error = {};
    try { error = (await response.json()).error || {}; } catch { error = {}; }
    throw new ApiError(response.status, error.code || `http/${response.status}`, error.message || "");
  }
  const disposition = response.headers.get("Content-Disposition") || "";
  const utf8 = /filename\*=UTF-8''([^;\s]+)/i.exec(disposition);
  const plain = /filename="([^"]+)"/i.exec(disposition);
  let name = plain ? plain[1] : fallbackName;
  try { if (utf8) name = decodeURIComponent(utf8[1]); } catch { /* the plain name stays */ }
  const url = URL.createObjectURL(await response.blob());
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

export const api = {
  playBot: (options) => request("POST", "/api/tables/bot", options),
  createPrivate: (options) => request("POST", "/api/tables/private", options),
  join: (code) => request("POST", "/api/tables/join", { invite_code: code }),
  addBot: (table, seat, level) => request("POST", `/api/tables/${encodeURIComponent(table)}/bots`, { seat, level }),
  table: (table) => request("GET", `/api/tables/${encodeURIComponent(table)}`),
  record: (table) => request("GET", `/api/tables/${encodeURIComponent(table)}/record`),
  quickMatch: (options) => request("POST", "/api/quick-match", options),
  quickWait: (ticket, wait) => request("GET", `/api/quick-match/${encodeURIComponent(ticket)}?wait=${wait}`),
  quickBot: (ticket, level) => request("POST", `/api/quick-match/${encodeURIComponent(ticket)}/bot`, { level }),
  quickLeave: (ticket) => request("DELETE", `/api/quick-match/${encodeURIComponent(ticket)}`),
  partnerInvite: (options) => request("POST", "/api/partners", options),
  partnerInvitation: (code, wait = 0) => request("GET", `/api/partners/${encodeURIComponent(code)}?wait=${wait}`),
  partnerAccept: (code) => request("POST", `/api/partners/${encodeURIComponent(code)}/accept`),
  partnerDecline: (code) => request("POST", `/api/partners/${encodeURIComponent(code)}/decline`),
  partnerCancel: (code) => request("DELETE", `/api/partners/${encodeURIComponent(code)}`),
  partnerSend: (code, to) => request("POST", `/api/partners/${encodeURIComponent(code)}/send`, { to }),
  history: () => request("GET", "/api/history"),
  sessions: () => request("GET", "/api/sessions"),
  revokeSession: (id) => request("DELETE", `/api/sessions/${encodeURIComponent(id)}`),
  changePassword: async (password, current) => {
    const answer = await request("PUT", "/api/account/password", current ? { current, password } : { password });
    await prove(password).catch(() => null);
    return answer;
  },
  deleteAccount: (confirm) => request("DELETE", "/api/account", { confirm }),
  passkeys: () => request("GET", "/api/passkeys"),
  removePasskey: (id) => request("DELETE", `/api/passkeys/${encodeURIComponent(id)}`),
};

export function recordUrl(table) {
  return `/api/tables/${encodeURIComponent(table)}/record`;
}
