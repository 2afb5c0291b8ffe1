"""The spectators of benchmarks/load.py's matches (``--spectators``, ``--slow-spectators``).

Each match a guest opens gets, at once, ``--spectators`` reading spectators (websockets with
no token, as a browser watching: permessage-deflate asked unless ``--no-deflate``) and
``--slow-spectators`` that never read (the handshake, then not a byte: a receive buffer of
4 KiB, as serving.py's :class:`~serving.RawSocket`). A reading spectator measures, for each
of the guest's plays sent in the window, the time from the guest sending it to this
spectator's first message with a higher version (the guest's own figure, seen from the
stands); it counts what it receives, and any close that is not its own (the server's: a
close frame, or the connection dropped). When the guest's match ends (or the step does)
the match's spectators stop: the reading ones close, and each slow one is read out to its
end to tell whether the server had closed it (a close frame or the end of the stream
behind what it had sent), then closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

SLOW_RECEIVE_BUFFER = 4096
"""A slow spectator's SO_RCVBUF (the kernel doubles it): small, as a phone's that went
away, so that what the server sends piles up on the server's side."""

QUIET_S = 1.0
"""Reading out a slow spectator at the end: nothing more for this long, and it is still
open (the server had not closed it)."""

CHECK_S = 5.0
"""The longest read-out of one slow spectator."""


@dataclass
class SpectatorStats:
    """What one load-generator process's spectators measured."""

    delay_ms: list[float] = field(default_factory=list)
    """Per guest play sent in the window and seen by a reading spectator: the time from
    the guest sending it to that spectator's first message with a higher version."""
    messages: dict[str, int] = field(default_factory=dict)
    """Messages the reading spectators received in the window, by type."""
    opened: int = 0
    """Reading spectator sockets opened (over the whole step, the ramp included)."""
    closed_by_server: dict[str, int] = field(default_factory=dict)
    """Reading spectator sockets the server closed while their match went on, by close
    code ("1006": dropped without a close frame)."""
    connect_errors: int = 0
    slow_opened: int = 0
    slow_closed: int = 0
    """Slow spectators the server had closed by the time their match ended."""
    slow_closes: dict[str, int] = field(default_factory=dict)
    """How: the close frame's code and reason ("1013 not read for 5 s"), or "end of
    stream" or "reset" with no close frame."""
    slow_open: int = 0
    """Slow spectators still open when their match ended."""
    slow_bytes: int = 0
    """What the slow spectators had been sent, all told (read out at the end)."""
    slow_errors: int = 0
    slow_gone_s: list[float] = field(default_factory=list)
    """Per match with slow spectators whose spectator count (as the server tells its
    guest) fell below the match's spectators after having reached them: the seconds from
    the match opening to the first message with the lower count (when the server let a
    spectator go; to within the gap between two messages)."""
    counted: dict[str, int] = field(default_factory=dict)
    """The server's own count of a table's spectators (``spectators`` in a ``state``'s
    table or a ``played`` message, contract section 2) as the guests received it in the
    window: value -> messages."""


def server_count(message: dict[str, Any]) -> int | None:
    """The spectator count a ``state`` or ``played`` message carries, if any.

    >>> server_count({"type": "played", "spectators": 3})
    3
    >>> server_count({"type": "state", "table": {"status": "playing"}}) is None
    True
    """
    kind = message.get("type")
    if kind == "played":
        value = message.get("spectators")
    elif kind == "state":
        value = (message.get("table") or {}).get("spectators")
    else:
        return None
    return value if isinstance(value, int) else None


def count(counts: dict[str, int], key: str) -> None:
    counts[key] = counts.get(key, 0) + 1


class Plays:
    """A match's guest plays as its spectators measure them: [version sent at, time sent]
    in order (NaN: refused, not measured). A spectator keeps its place in the list (how
    many plays it has seen).

    >>> plays = Plays()
    >>> plays.add(4, 10.0); plays.add(6, 12.0); plays.refused(); plays.add(6, 13.0)
    >>> plays.before(5)          # a spectator whose first state has version 5
    1
    >>> plays.shown(1, 7)        # then version 7: the play sent at 13 (12 was refused)
    (3, [13.0])
    """

    def __init__(self) -> None:
        self.sent: list[list[float]] = []

    def add(self, version: int, at: float) -> None:
        self.sent.append([version, at])

    def refused(self) -> None:
        if self.sent:
            self.sent[-1][1] = math.nan

    def before(self, version: int) -> int:
        """The place of a spectator whose first state has this version (the plays it shows
        were made before the spectator came: not its to measure)."""
        return sum(1 for v, _ in self.sent if v < version)

    def shown(self, place: int, version: int) -> tuple[int, list[float]]:
        """A message of this version, to a spectator at ``place``: its new place, and
        when the plays the message is the first to show it were sent."""
        times = []
        while place < len(self.sent) and self.sent[place][0] < version:
            at = self.sent[place][1]
            if not math.isnan(at):
                times.append(at)
            place += 1
        return place, times


def close_frame_at(data: bytes | bytearray, at: int) -> tuple[str | None, int]:
    """Walk the server's (unmasked) websocket frames in ``data`` from offset ``at``: the
    close frame's code and reason if a whole one is there, and where the walk stopped.

    >>> close_frame_at(bytes([0x81, 2]) + b"{}" + bytes([0x88, 4, 3, 0xF3]) + b"ok", 0)
    ('1011 ok', 4)
    >>> close_frame_at(bytes([0x81, 126, 1, 0]) + b"x" * 100, 0)
    (None, 0)
    """
    while at + 2 <= len(data):
        opcode, length = data[at] & 0x0F, data[at + 1] & 0x7F
        head = 2
        if length == 126:
            head = 4
            if at + head > len(data):
                break
            length = int.from_bytes(data[at + 2:at + 4], "big")
        elif length == 127:
            head = 10
            if at + head > len(data):
                break
            length = int.from_bytes(data[at + 2:at + 10], "big")
        if data[at + 1] & 0x80:
            head += 4
        if at + head + length > len(data):
            break
        if opcode == 8:
            body = bytes(data[at + head:at + head + length])
            code = int.from_bytes(body[:2], "big") if len(body) >= 2 else 1005
            return f"{code} {body[2:].decode('utf-8', 'replace')}".strip(), at
        at += head + length
    return None, at


class Spectators:
    """One match's spectators: :meth:`start` when the match opens, :meth:`stop` when it
    ends (cancels the readers, reads out and closes the slow ones)."""

    def __init__(self, base: str, table_id: str, reading: int, slow: int,
                 stats: SpectatorStats, measured: Callable[[float], bool],
                 version_of: Callable[[dict[str, Any]], int | None], *,
                 deflate: bool, timeout: float) -> None:
        self.base = base
        self.path = f"/ws/tables/{table_id}"
        self.reading, self.slow = reading, slow
        self.stats = stats
        self.measured = measured
        self.version_of = version_of
        self.deflate = deflate
        self.timeout = timeout
        self.plays = Plays()
        self.tasks: list[asyncio.Task[None]] = []
        self.slow_sockets: list[socket.socket] = []
        self.started = math.inf
        self.all_counted = False
        """Whether the server's count has reached this match's spectators."""
        self.let_go = False

    def told(self, message: dict[str, Any], now: float) -> None:
        """A message to the match's guest: note the server's spectator count in it."""
        counted = server_count(message)
        if counted is None:
            return
        if self.measured(now):
            count(self.stats.counted, str(counted))
        if counted >= self.reading + self.slow:
            self.all_counted = True
        elif self.all_counted and self.slow and not self.let_go:
            self.let_go = True
            self.stats.slow_gone_s.append(now - self.started)

    def start(self) -> None:
        self.started = time.monotonic()
        self.tasks = [*(asyncio.create_task(self._watch()) for _ in range(self.reading)),
                      *(asyncio.create_task(self._open_slow()) for _ in range(self.slow))]

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        sockets, self.slow_sockets = self.slow_sockets, []
        await asyncio.gather(*(self._read_out(s) for s in sockets), return_exceptions=True)

    # ------------------------------------------------------------ reading spectators

    async def _watch(self) -> None:
        stats = self.stats
        url = self.base.replace("http://", "ws://", 1) + self.path
        try:
            async with connect(url, compression="deflate" if self.deflate else None,
                               open_timeout=self.timeout, close_timeout=2,
                               ping_interval=None) as ws:
                stats.opened += 1
                place = -1  # no state yet
                while True:  # ends when the match does (cancelled) or the server closes
                    raw = await ws.recv()
                    now = time.monotonic()
                    message = orjson.loads(raw)
                    if self.measured(now):
                        count(stats.messages, str(message.get("type")))
                    version = self.version_of(message)
                    if version is None:
                        continue
                    if place < 0:
                        place = self.plays.before(version)
                        continue
                    place, times = self.plays.shown(place, version)
                    stats.delay_ms.extend((now - at) * 1000 for at in times
                                          if self.measured(at))
        except ConnectionClosed as exc:
            if exc.sent is None or exc.rcvd_then_sent:  # not a close of its own
                count(stats.closed_by_server, str(exc.rcvd.code if exc.rcvd else 1006))
        except (OSError, InvalidHandshake, TimeoutError):
            stats.connect_errors += 1

    # ------------------------------------------------------------ slow spectators

    async def _open_slow(self) -> None:
        loop = asyncio.get_running_loop()
        host, port = self.base.removeprefix("http://").split(":")
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, SLOW_RECEIVE_BUFFER)
        sock.setblocking(False)
        request = (f"GET {self.path} HTTP/1.1\r\nHost: {host}:{port}\r\n"
                   "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                   "Sec-WebSocket-Key: bG9hZCBzcGVjdGF0b3IhIQ==\r\n"
                   "Sec-WebSocket-Version: 13\r\n\r\n").encode()
        kept = False
        try:
            async with asyncio.timeout(self.timeout):
                await loop.sock_connect(sock, (host, int(port)))
                await loop.sock_sendall(sock, request)
                head = b""
                while b"\r\n\r\n" not in head:  # a byte at a time: nothing past the head
                    chunk = await loop.sock_recv(sock, 1)
                    if not chunk:
                        raise ConnectionError("closed in the handshake")
                    head += chunk
            if not head.startswith(b"HTTP/1.1 101"):
                raise ConnectionError("no websocket upgrade")
            self.slow_sockets.append(sock)
            self.stats.slow_opened += 1
            kept = True
        except (OSError, TimeoutError):
            self.stats.slow_errors += 1
        finally:
            if not kept:
                sock.close()

    async def _read_out(self, sock: socket.socket) -> None:
        """Read all a slow spectator was sent: closed by the server (a close frame, the end
        of the stream, a reset), or still open (nothing more for QUIET_S)."""
        loop = asyncio.get_running_loop()
        data = bytearray()
        at, how = 0, None
        try:
            async with asyncio.timeout(CHECK_S):
                while how is None:
                    try:
                        async with asyncio.timeout(QUIET_S):
                            chunk = await loop.sock_recv(sock, 1 << 16)
                    except TimeoutError:
                        break
                    if not chunk:
                        how = "end of stream"
                        break
                    data += chunk
                    how, at = close_frame_at(data, at)
        except (ConnectionResetError, BrokenPipeError):
            how = "reset"
        except (OSError, TimeoutError):
            pass
        finally:
            self.stats.slow_bytes += len(data)
            if how is not None:
                self.stats.slow_closed += 1
                count(self.stats.slow_closes, how)
            else:
                self.stats.slow_open += 1
            with contextlib.suppress(OSError):
                sock.close()
