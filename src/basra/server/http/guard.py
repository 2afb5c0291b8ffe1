"""HTTP connections a stranger cannot hold for free (issue 25: slowloris).

uvicorn times out an idle keep-alive connection, but not a request that is sent slowly: a
peer may open a connection and send nothing, or one header line a minute, or a body byte
at a time, and hold a file descriptor for as long as it likes; a thousand of them exhaust the
process's open files. :func:`guarded_http` makes uvicorn's HTTP protocol (httptools) with
two bounds of our own:

- **deadlines**: a request's head must arrive within ``head_seconds`` of the connection
  opening (or of the first byte of the next request on a kept-alive connection), and its body
  within ``body_seconds`` of the head; otherwise the connection is closed. A websocket
  upgrade is past both once its head is in (the socket then has its own pings and limits).
- **connections per address**: at most ``per_address`` HTTP connections from one address at
  once (a websocket leaves the count when it is upgraded: the app counts sockets on its
  own); one more is closed at once, before anything is read. Trusted reverse proxies
  (``--trusted-proxy``) are not counted: everyone comes from them.

The process's own open-files limit is checked at start by :func:`open_files_limit`.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import resource
from collections import Counter
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from basra.server.config import Settings

log = logging.getLogger("basra.http")

OPEN_FILES_LEAST = 4096
"""The open-files limit (``ulimit -n``) ``basra serve`` needs: every player holds a socket,
and so does every spectator and page; it raises its soft limit up to the hard one and refuses
to start below this."""


class GuardedHttp(HttpToolsProtocol):
    """uvicorn's httptools protocol with the deadlines and the per-address count above (the
    limits are class attributes, set by :func:`guarded_http` for one server)."""

    head_seconds: ClassVar[float] = 10.0
    body_seconds: ClassVar[float] = 30.0
    per_address: ClassVar[int] = 0
    """0: no cap."""
    trusted: ClassVar[tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]] = ()
    open: ClassVar[Counter[str]]
    """Open HTTP connections by address (this server's)."""
    refused: ClassVar[int] = 0
    timed_out: ClassVar[int] = 0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.deadline: asyncio.TimerHandle | None = None
        self.counted: str | None = None

    # ------------------------------------------------------------------ the connection

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else ""
        if address and self.per_address and not self._trusted(address):
            cls = type(self)
            if cls.open[address] >= self.per_address:
                cls.refused += 1
                transport.abort()  # before uvicorn knows of it: nothing to undo
                return
            cls.open[address] += 1
            self.counted = address
        super().connection_made(transport)
        self._arm(self.head_seconds)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._uncount()
        if self.transport is None:  # refused in connection_made
            return
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.deadline is None and self.cycle is not None and self.cycle.response_complete:
            self._arm(self.head_seconds)  # the first bytes of the next request
        super().data_received(data)

    # ------------------------------------------------------------------ the parser's steps

    def on_headers_complete(self) -> None:
        if self.parser.should_upgrade() and self._should_upgrade():
            self._disarm()  # a websocket: its own limits from here
        else:
            self._arm(self.body_seconds)
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._disarm()
        super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        self._disarm()
        self._uncount()
        super().handle_websocket_upgrade()
        # The websocket's own protocol has the connection now. This one and its parser hold
        # each other (the parser calls the protocol's methods back), so they would wait in a
        # reference cycle, with the transport, for the next full garbage collection: 30
        # objects a socket ever opened (docs/BENCHMARKS.md). Let go, and reference counting
        # frees them now, as uvicorn's connection_lost does for a plain request.
        self.parser = None  # type: ignore[assignment]

    # ------------------------------------------------------------------ deadlines

    def _arm(self, seconds: float) -> None:
        self._disarm()
        if seconds > 0:
            self.deadline = self.loop.call_later(seconds, self._too_slow)

    def _disarm(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def _too_slow(self) -> None:
        self.deadline = None
        if self.transport is not None and not self.transport.is_closing():
            type(self).timed_out += 1
            self.transport.close()

    def _uncount(self) -> None:
        if self.counted is not None:
            cls = type(self)
            cls.open[self.counted] -= 1
            if cls.open[self.counted] <= 0:
                del cls.open[self.counted]
            self.counted = None

    def _trusted(self, address: str) -> bool:
        if not self.trusted:
            return False
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in self.trusted)


def guarded_http(settings: Settings) -> type[GuardedHttp]:
    """The HTTP protocol class of one server, with ``settings``' deadlines and caps."""
    trusted = []
    for proxy in settings.limits.trusted_proxies:
        try:
            trusted.append(ipaddress.ip_network(proxy, strict=False))
        except ValueError:
            continue  # a name: uvicorn's own concern, never an address we compare
    attributes: dict[str, Any] = {
        "head_seconds": settings.request_head_seconds,
        "body_seconds": settings.request_body_seconds,
        "per_address": settings.limits.http_connections_per_address,
        "trusted": tuple(trusted),
        "open": Counter(),
        "refused": 0,
        "timed_out": 0,
    }
    return type("GuardedHttp", (GuardedHttp,), attributes)


def open_files_limit(least: int = OPEN_FILES_LEAST) -> int:
    """Raise this process's open-files soft limit to its hard limit (at most 1,048,576) and
    give it; a :class:`RuntimeError` with a one-line reason when it stays below ``least``."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 1_048_576
    wanted = min(wanted, 1_048_576)
    if soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    if soft < least:
        raise RuntimeError(
            f"the open-files limit is {soft}, below the {least} basra serve needs: raise it "
            f"(ulimit -n {least}, or LimitNOFILE={least} in the systemd unit)")
    return soft


__all__ = ["OPEN_FILES_LEAST", "GuardedHttp", "guarded_http", "open_files_limit"]
