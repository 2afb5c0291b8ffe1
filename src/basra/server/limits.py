"""Limits on what one connection and one client address may do: token buckets for message
rates and for creating guests and tables, a count of open sockets per address, and a bound
on request bodies (docs/PROTOCOL.md, "Limits").

The client address is ``scope["client"]``; behind a reverse proxy that the operator names
(``--trusted-proxy``), uvicorn's ``ProxyHeadersMiddleware`` has already replaced it with the
address the proxy saw (``X-Forwarded-For``), and from anyone else the header is ignored.
"""

from __future__ import annotations

import ipaddress
import json
import math
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from basra.server.wire.errors import RateLimited, error_json, status_of

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class TokenBucket:
    """``burst`` tokens at most, refilled at ``rate`` a second; a take costs one.

    >>> bucket = TokenBucket(rate=1.0, burst=2, now=0.0)
    >>> bucket.take(0.0), bucket.take(0.0), bucket.take(0.0)
    (True, True, False)
    >>> bucket.take(1.0)
    True
    """

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: int, now: float | None = None) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.stamp = time.monotonic() if now is None else now

    def _refill(self, now: float) -> None:
        if now > self.stamp:
            self.tokens = min(float(self.burst), self.tokens + (now - self.stamp) * self.rate)
            self.stamp = now

    def take(self, now: float | None = None) -> bool:
        """Take a token if there is one; whether there was."""
        self._refill(time.monotonic() if now is None else now)
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def retry_after(self) -> float:
        """Seconds until the next token."""
        return max(0.0, (1.0 - self.tokens) / self.rate) if self.rate > 0 else math.inf

    def full(self, now: float) -> bool:
        self._refill(now)
        return self.tokens >= self.burst


class AddressBuckets:
    """One :class:`TokenBucket` per client address, for one kind of action. Holds at most
    ``most`` addresses (the least recently seen go first), so memory stays bounded."""

    def __init__(self, per_minute: float, burst: int, most: int = 100_000) -> None:
        self.rate = per_minute / 60.0
        self.burst = burst
        self.most = most
        self.buckets: OrderedDict[str, TokenBucket] = OrderedDict()
        self.takes = 0

    def take(self, address: str, now: float | None = None) -> float | None:
        """Take one for ``address``: ``None`` if allowed, else the seconds to wait."""
        now = time.monotonic() if now is None else now
        self.takes += 1
        if self.takes % 1024 == 0:
            self.prune(now)
        bucket = self.buckets.get(address)
        if bucket is None:
            bucket = self.buckets[address] = TokenBucket(self.rate, self.burst, now)
            if len(self.buckets) > self.most:
                self.buckets.popitem(last=False)
        else:
            self.buckets.move_to_end(address)
        if bucket.take(now):
            return None
        return bucket.retry_after()

    def prune(self, now: float | None = None) -> None:
        """Forget addresses whose bucket is full again (they are as if never seen)."""
        now = time.monotonic() if now is None else now
        for address in [a for a, b in self.buckets.items() if b.full(now)]:
            del self.buckets[address]


class AddressLimit:
    """One kind of action limited per client address (guests, tables): raises
    :class:`~basra.server.wire.errors.RateLimited` past its bucket."""

    def __init__(self, what: str, per_minute: float, burst: int) -> None:
        self.what = what
        self.buckets = AddressBuckets(per_minute, burst)

    def check(self, scope: Scope, what: str | None = None) -> None:
        """Take one for the scope's client address (``what`` names the action in the
        refusal, if not this limit's own)."""
        wait = self.buckets.take(address_key(client_address(scope)))
        if wait is not None:
            raise RateLimited.too_many(what or self.what, wait)


class AddressAndPlayerLimit:
    """One kind of action limited per client address and, with a session, per player too
    (a player on many addresses, or many players on one, are each held to it)."""

    def __init__(self, what: str, per_minute: float, burst: int) -> None:
        self.what = what
        self.addresses = AddressBuckets(per_minute, burst)
        self.players = AddressBuckets(per_minute, burst)

    def check(self, scope: Scope, what: str | None = None, player_id: str | None = None
              ) -> None:
        """Take one for the scope's client address and for ``player_id`` if given."""
        wait = self.addresses.take(address_key(client_address(scope)))
        if wait is None and player_id is not None:
            wait = self.players.take(player_id)
        if wait is not None:
            raise RateLimited.too_many(what or self.what, wait)


class SocketCounts:
    """Open websockets per client address."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.open: dict[str, int] = {}

    def acquire(self, address: str) -> bool:
        count = self.open.get(address, 0)
        if count >= self.most:
            return False
        self.open[address] = count + 1
        return True

    def release(self, address: str) -> None:
        count = self.open.get(address, 0) - 1
        if count > 0:
            self.open[address] = count
        else:
            self.open.pop(address, None)


def address_key(address: str) -> str:
    """What a per-address limit counts by: an IPv4 address, or an IPv6 address's /64 (one
    subscriber's whole network, which it can hop across at will).

    >>> address_key("2001:db8:1:2:aaaa::1"), address_key("192.0.2.7")
    ('2001:db8:1:2::/64', '192.0.2.7')
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def client_address(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


class BodyLimit:
    """ASGI middleware: an HTTP request body over ``most`` bytes is answered 413
    ``request/too_large`` before the app parses it (by its Content-Length, or as it
    streams in without one)."""

    def __init__(self, app: ASGIApp, most: int, larger: dict[str, int] | None = None) -> None:
        self.app = app
        self.most = most
        self.larger = larger or {}
        """A larger allowance for the requests to an exact path (``POST /api/replays``:
        a record file)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        most = self.larger.get(scope.get("path", ""), self.most)
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = 0
                if declared > most:
                    await self._refuse(send, most)
                    return
        seen = 0
        refused = False
        started = False

        async def limited_receive() -> Message:
            nonlocal seen, refused
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > most:
                    refused = True
                    raise _TooLarge
            return message

        async def guarded_send(message: Message) -> None:
            """Once the body was refused, whatever the app answers (it may make a 400 of
            the failed read) becomes the 413."""
            nonlocal started
            if refused:
                if not started:
                    started = True
                    await self._refuse(send, most)
                return
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, guarded_send)
        except Exception:
            if not refused:
                raise
        if refused and not started:
            await self._refuse(send, most)

    @staticmethod
    async def _refuse(send: Send, most: int) -> None:
        code = "request/too_large"
        body = json.dumps(error_json(
            code, f"a request body may be at most {most} bytes")).encode()
        await send({"type": "http.response.start", "status": status_of(code),
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})


class _TooLarge(Exception):
    pass
