// The signed-in page's socket (/ws/me, docs/PROTOCOL.md 1.8), for an account: one per page,
// opened when an account is signed in and closed when it signs out. It carries the bell's
// notifications (a challenge, its answer, a tournament starting), friends coming online or
// going, and challenges withdrawn. While it is open the player is online for their
// friends. It reconnects by itself (1 s, doubling to 30 s). Pages listen with onNotify().

import { cachedMe, onSession, session } from "./api.js";

const listeners = new Set();
let socket = null;
let wanted = false;
let backoff = 1000;
let timer = 0;
let unread = 0;

/** Hear every message of the socket (and {type: "unread", unread} when the count moves);
 * returns the unsubscribe. */
export function onNotify(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function unreadCount() { return unread; }

/** The bell's count changed here (notifications read). */
export function setUnread(count) {
  unread = Math.max(0, count);
  emit({ type: "unread", unread });
}

function emit(message) {
  for (const fn of listeners) {
    try { fn(message); } catch (err) { console.error(err); } // eslint-disable-line no-console
  }
}

function connect() {
  clearTimeout(timer);
  if (!wanted || socket) return;
  const token = session.token;
  if (!token) return;
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws/me`);
  socket = ws;
  ws.onopen = () => { ws.send(JSON.stringify({ type: "hello", token })); };
  ws.onmessage = (event) => {
    let message;
    try { message = JSON.parse(event.data); } catch { return; }
    if (message.type === "hello") {
      backoff = 1000;
      setUnread(message.unread || 0);
      return;
    }
    if (message.type === "notification") setUnread(unread + 1);
    emit(message);
  };
  ws.onclose = (event) => {
    if (socket === ws) socket = null;
    if (!wanted || event.code === 4401) return; // signed out: not again
    timer = setTimeout(connect, backoff);
    backoff = Math.min(backoff * 2, 30000);
  };
}

function follow(player) {
  const account = !!(player && player.account);
  if (account && !wanted) {
    wanted = true;
    connect();
  } else if (!account && wanted) {
    wanted = false;
    clearTimeout(timer);
    if (socket) socket.close();
    socket = null;
    setUnread(0);
  }
}

/** Open the socket whenever an account is signed in (from the page's start). */
export function startNotify() {
  follow(cachedMe());
  onSession(follow);
}
