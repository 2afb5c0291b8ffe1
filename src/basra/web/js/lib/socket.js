// The table's websocket (basra-ws/2) with reconnection: when the socket closes without our
// asking, it reconnects by itself with a growing, jittered delay (at most about 3 s, so a
// player is back soon after the server is), and at once when the browser says it is back
// online; when the browser says it went offline the socket is given up at once (it would
// only die later), so the page says so. The server answers every new connection with a full
// snapshot, so nothing else is needed to resume. A `closed` message (the table left the
// server's memory: it is over) ends it for good: no reconnecting after that; so does a close
// with code 4401 (the session the socket was opened with ended: signed out). A tournament's
// socket (TournamentSocket, at the end) is the same with another address and first message.

const DELAYS = [500, 1000, 2000, 3000];
/** The close code of a socket whose session ended (signed out elsewhere...): never retried. */
export const SIGNED_OUT = 4401;
const PING_EVERY = 15000;
const SILENCE_LIMIT = 45000;

export class TableSocket {
  /** handlers: onMessage(msg), onStatus(status, info) with status connecting | open |
   * reconnecting | gone (the table does not exist) | ended (the server closed the table) |
   * signed-out (closed 4401: the session ended; info.token is the one it used) | closed (by
   * us). */
  constructor(tableId, token, handlers) {
    this.tableId = tableId;
    this.token = token;
    this.handlers = handlers;
    this.ws = null;
    this.attempt = 0;
    this.timer = null;
    this.pinger = null;
    this.stopped = false;
    this.lastHeard = 0;
    this.onOnline = () => { if (!this.isOpen()) this.reconnectNow(); };
    this.onOffline = () => this.drop();
    window.addEventListener("online", this.onOnline);
    window.addEventListener("offline", this.onOffline);
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    // A player's token goes in the first message (hello), never in the address.
    const query = this.token ? "?auth=1" : "";
    return `${scheme}//${location.host}${this.path()}${query}`;
  }

  path() {
    return `/ws/tables/${encodeURIComponent(this.tableId)}`;
  }

  /** Whether `message` says the connection is up (the table's welcome). */
  opens(message) {
    return message.type === "welcome";
  }

  /** Whether `message` says there is nothing to connect to (never retried). */
  gone(message) {
    return message.type === "error" && message.code === "table/not_found";
  }

  isOpen() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  connect() {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.handlers.onStatus(this.attempt ? "reconnecting" : "connecting", { attempt: this.attempt });
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      if (ws !== this.ws) return;
      if (this.token) ws.send(JSON.stringify({ type: "hello", token: this.token }));
      this.lastHeard = Date.now();
      this.startPinging();
    };
    ws.onmessage = (event) => {
      if (ws !== this.ws) return;
      this.lastHeard = Date.now();
      let message;
      try { message = JSON.parse(event.data); } catch { return; }
      if (this.opens(message)) {
        this.attempt = 0;
        this.handlers.onStatus("open", {});
      }
      if (this.gone(message)) {
        this.stopped = true;
        this.handlers.onStatus("gone", {});
      }
      if (message.type === "closed") this.stopped = true;
      this.handlers.onMessage(message);
    };
    ws.onclose = (event) => {
      if (ws !== this.ws) return;
      this.stopPinging();
      this.ws = null;
      if (event && event.code === SIGNED_OUT) {
        // The session this socket was opened with has ended: no reconnecting with it.
        const already = this.stopped;
        this.shutdown();
        if (!already) this.handlers.onStatus("signed-out", { token: this.token });
        return;
      }
      if (!this.stopped) this.scheduleReconnect();
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  scheduleReconnect() {
    const base = DELAYS[Math.min(this.attempt, DELAYS.length - 1)];
    const delay = Math.round(base * (0.8 + Math.random() * 0.4));
    this.attempt += 1;
    this.handlers.onStatus("reconnecting", { attempt: this.attempt, delay, at: Date.now() + delay });
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  reconnectNow() {
    if (this.stopped) return;
    clearTimeout(this.timer);
    if (this.ws) {
      const old = this.ws;
      this.ws = null;
      try { old.close(); } catch { /* already closed */ }
    }
    this.connect();
  }

  startPinging() {
    this.stopPinging();
    this.pinger = setInterval(() => {
      if (!this.isOpen()) return;
      if (Date.now() - this.lastHeard > SILENCE_LIMIT) {
        this.reconnectNow();
        return;
      }
      this.send({ type: "ping" });
    }, PING_EVERY);
  }

  stopPinging() {
    clearInterval(this.pinger);
    this.pinger = null;
  }

  /** Send a message; false when the socket is not open (nothing is queued). */
  send(message) {
    if (!this.isOpen()) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /** Drop the connection as a network failure would (it reconnects by itself). */
  drop() {
    if (this.ws) this.ws.close();
  }

  /** Stop for good without reconnecting (the server said the table is closed). */
  end() {
    const already = this.stopped && !this.ws;
    this.shutdown(1000);
    if (!already) this.handlers.onStatus("ended", {});
  }

  close() {
    this.shutdown();
    this.handlers.onStatus("closed", {});
  }

  /** No more reconnecting or pinging; the socket, if any, is closed (with `code`). */
  shutdown(code) {
    this.stopped = true;
    clearTimeout(this.timer);
    this.stopPinging();
    window.removeEventListener("online", this.onOnline);
    window.removeEventListener("offline", this.onOffline);
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      try { ws.close(code); } catch { /* already closed */ }
    }
  }
}

/** A tournament's socket (/ws/tournaments/ID, docs/PROTOCOL.md "Tournaments"): the same
 * hello, reconnecting and giving up; its first message is the event with one page of its
 * standings (`tournament`), and it asks for other pages. The event's socket answers no ping (the server's own websocket pings keep
 * it open), so none is sent and a quiet event is not taken for a dead connection. */
export class TournamentSocket extends TableSocket {
  path() {
    return `/ws/tournaments/${encodeURIComponent(this.tableId)}`;
  }

  /** With the page of the standings asked last (a reconnection opens on it again; none
   * asked: the player's own, or the first). */
  url() {
    const base = super.url();
    if (!this.page) return base;
    return `${base}${base.includes("?") ? "&" : "?"}page=${this.page}`;
  }

  /** Show page `n` of the standings (its rows come as a `standings` message). */
  askPage(n) {
    this.page = n;
    return this.send({ type: "page", page: n });
  }

  /** Show the page that holds this player's own row. */
  askMine() {
    this.page = null;
    return this.send({ type: "page", me: true });
  }

  opens(message) {
    return message.type === "tournament";
  }

  gone(message) {
    return message.type === "error" && message.code === "tournament/not_found";
  }

  startPinging() { /* nothing: see above */ }
}
