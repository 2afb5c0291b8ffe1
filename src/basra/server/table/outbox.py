"""One connection's way out: a bounded send queue drained by the connection's own writer.

A table never awaits a socket. It puts each message in the connection's :class:`Outbox`
(which never blocks) and goes on; the writer task sends them in order. A connection whose
queue overflows, or where one send or one queued message has waited longer than
``stall_seconds`` (the peer stopped reading, or reads too slowly to keep up), is closed: the
outbox says so at once (``closed``), so the table counts the seat as dropped without waiting
for the socket to die.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

from basra.server.wire.server_messages import ServerMessage, encode

log = logging.getLogger("basra.outbox")

CLOSE_TOO_SLOW = 1013
"""Close code for a connection that does not read what it is sent ("try again later")."""


class Socket(Protocol):
    """What an outbox needs of a websocket (Starlette's ``WebSocket`` has it)."""

    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


class Outbox:
    """The send side of one connection. :meth:`put` is for the table; :meth:`run` is the
    writer, one task per connection."""

    def __init__(self, socket: Socket, *, limit: int = 256, stall_seconds: float = 5.0,
                 on_closed: Callable[[Outbox], Awaitable[None]] | None = None) -> None:
        self.socket = socket
        self.limit = limit
        self.stall_seconds = stall_seconds
        self.on_closed = on_closed
        self.queue: collections.deque[tuple[float, str]] = collections.deque()
        """What waits to be sent, each with the time it was put."""
        self.ready = asyncio.Event()
        self.closed = False
        self.close_reason: str | None = None
        self.sent = 0
        """How many messages the writer has handed to the socket."""
        self.queued = 0
        """How many messages were ever put (``sent`` catches up as the writer drains)."""
        self.sending_since: float | None = None
        self.opened = time.monotonic()
        self.closing: asyncio.Task[None] | None = None
        """Closing the socket in the background, once :meth:`close` was called."""
        self.close_after: tuple[int, str] | None = None
        """Close with this code and reason once what is queued has been sent."""

    # ------------------------------------------------------------------ the table's side

    def put(self, message: ServerMessage | str) -> bool:
        """Queue a message (or its text,
        :func:`~basra.server.wire.server_messages.encode`-d once for many connections); False
        (and the connection closing) when the queue is full or the connection is closed
        already. Never blocks."""
        if self.closed or self.close_after is not None:
            return False
        if len(self.queue) >= self.limit:
            self.close("send queue overflow")
            return False
        now = time.monotonic()
        if self.queue and now - self.queue[0][0] > self.stall_seconds:
            # draining, but too slowly: its oldest message has waited past the limit
            self.close(f"a message waited over {self.stall_seconds:g} s")
            return False
        self.queue.append((now, message if isinstance(message, str) else encode(message)))
        self.queued += 1
        self.ready.set()
        return True

    def delivered(self, count: int) -> bool:
        """Whether the first ``count`` messages ever put have been handed to the socket."""
        return self.sent >= count

    def stalled(self, now: float | None = None) -> bool:
        """Whether one send has been waiting longer than the stall limit."""
        started = self.sending_since
        return started is not None and (now or time.monotonic()) - started > self.stall_seconds

    def close(self, reason: str, code: int = CLOSE_TOO_SLOW, *, flush: bool = False) -> None:
        """Give up on this connection: drop what is queued and close the socket in the
        background (a peer that does not read may never take a close frame either). With
        ``flush``, what is queued is sent first (a goodbye), then the socket is closed."""
        if self.closed:
            return
        if flush and self.queue:
            self.close_after = (code, reason)
            return
        self.closed = True
        self.close_reason = reason
        self.queue.clear()
        self.ready.set()
        log.info("closing a connection: %s", reason)
        self.closing = asyncio.get_running_loop().create_task(self._close_socket(code, reason))

    async def _close_socket(self, code: int, reason: str) -> None:
        with contextlib.suppress(Exception):
            async with asyncio.timeout(self.stall_seconds):  # no task: no cycle kept
                await self.socket.close(code, reason)
        if self.on_closed is not None:
            await self.on_closed(self)

    # ------------------------------------------------------------------ the writer

    async def run(self) -> None:
        """Send queued messages in order until the connection closes."""
        while True:
            await self.ready.wait()
            if self.closed:
                return
            if not self.queue:
                self.ready.clear()
                continue
            put_at, text = self.queue.popleft()
            self.sending_since = time.monotonic()
            if self.sending_since - put_at > self.stall_seconds:
                self.close(f"a message waited over {self.stall_seconds:g} s")
                return
            try:
                async with asyncio.timeout(self.stall_seconds):  # no task a send
                    await self.socket.send_text(text)
            except TimeoutError:
                self.close(f"not read for {self.stall_seconds:g} s")
                return
            except Exception:  # the socket is gone: the reader notices and detaches
                self.closed = True
                self.close_reason = "socket gone"
                return
            finally:
                self.sending_since = None
            self.sent += 1
            if not self.queue and self.close_after is not None:
                self.close(self.close_after[1], self.close_after[0])
                return
