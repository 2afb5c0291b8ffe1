"""The site's sockets are reached in front of the HTTP middleware
(:mod:`basra.server.http.sockets`): an open socket holds no middleware's or router's
coroutine (each would be walked by every full garbage collection for as long as the page
is open), while the client's address behind a trusted proxy still counts for a socket's
per-address limit, a socket to an unknown path is still closed, and a page's socket still
hears its table."""

from __future__ import annotations

import asyncio
import gc
from collections import Counter
from pathlib import Path
from types import CoroutineType

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from basra.server.config import Limits
from basra.server.http.guard import GuardedHttp
from server_harness import bot_table, new_guest, serve

SOCKETS = 8

PASSING_ON = ("starlette/", "fastapi/", "uvicorn/middleware/", "basra/server/http/headers.py",
              "basra/server/limits.py")
"""The code that only passes a websocket on to its handler: the middleware and routing."""
HELD = {"applications.py:FastAPI.__call__", "applications.py:Starlette.__call__",
        "proxy_headers.py:ProxyHeadersMiddleware.__call__", "websockets.py:WebSocket.receive"}
"""Of those, what a socket still passes through (and its own read, Starlette's)."""


def suspended_in_stack() -> Counter[str]:
    """The coroutines now suspended in the middleware and routing, by function."""
    found: Counter[str] = Counter()
    for thing in gc.get_objects():
        if type(thing) is not CoroutineType:  # (isinstance would ask a dead weak proxy)
            continue
        code = thing.cr_code
        if any(part in code.co_filename for part in PASSING_ON):
            found[f"{code.co_filename.rsplit('/', 2)[-1]}:{code.co_qualname}"] += 1
    return found


def test_an_open_socket_holds_no_middleware(tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        guest = await new_guest(base, http, "Amira")
        table = await bot_table(base, http, guest)
        ws = base.replace("http://", "ws://") + f"/ws/tables/{table}"
        before = suspended_in_stack()  # the lifespan's one pass through the stack
        watchers = [await connect(ws) for _ in range(SOCKETS)]
        try:
            for watcher in watchers:  # each one answered: its handler runs
                assert (await asyncio.wait_for(watcher.recv(), 10))
            during = suspended_in_stack()
            grown = {name: during[name] - before[name] for name in during
                     if during[name] > before[name]}
            # what each socket holds: the app's two entries, the client's address read,
            # the socket's own read (it held 25 when it went through the whole stack)
            assert set(grown) <= HELD, grown
            assert all(count == SOCKETS for count in grown.values()), grown
        finally:
            for watcher in watchers:
                await watcher.close()

    serve(tmp_path, scenario)


def test_a_closed_socket_leaves_nothing_for_the_garbage_collector(tmp_path: Path) -> None:
    """The HTTP protocol a socket's handshake came in on, and its parser, are freed when the
    socket's own protocol takes the connection over: they do not wait in a reference cycle
    for a full collection (at 5,000 pages coming and going, a third of what a full pass
    walked was these)."""
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        guest = await new_guest(base, http, "Amira")
        ws = base.replace("http://", "ws://") + f"/ws/tables/{await bot_table(base, http, guest)}"
        gc.collect()
        gc.disable()  # as the server's pacer freezes: a cycle waits for the full pass
        try:
            before = protocols()
            for _ in range(SOCKETS):
                async with connect(ws) as watcher:
                    assert await asyncio.wait_for(watcher.recv(), 10)
            await asyncio.sleep(0.5)
            assert protocols() == before, (before, protocols())
        finally:
            gc.enable()

    serve(tmp_path, scenario)


def protocols() -> int:
    """The HTTP protocols (``GuardedHttp``) alive or waiting in cycles now."""
    return sum(1 for thing in gc.get_objects() if issubclass(type(thing), GuardedHttp))


def test_a_socket_counts_the_address_a_trusted_proxy_forwards_for(tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        guest = await new_guest(base, http, "Amira")
        ws = base.replace("http://", "ws://") + f"/ws/tables/{await bot_table(base, http, guest)}"
        first = {"X-Forwarded-For": "198.51.100.1"}
        held = [await connect(ws, additional_headers=first) for _ in range(2)]
        with pytest.raises(InvalidStatus) as refused:
            await connect(ws, additional_headers=first)
        assert refused.value.response.status_code == 429
        other = await connect(ws, additional_headers={"X-Forwarded-For": "198.51.100.2"})
        for socket in (*held, other):
            await socket.close()

    serve(tmp_path, scenario, limits=Limits(sockets_per_address=2,
                                            trusted_proxies=("127.0.0.1",)))


def test_a_socket_to_an_unknown_path_is_closed(tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        ws = base.replace("http://", "ws://")
        for path in ("/ws/nothing", "/ws/tables", "/ws/tables/a/b", "/api/variants"):
            with pytest.raises((InvalidStatus, ConnectionClosed)):
                async with connect(ws + path) as socket:
                    await asyncio.wait_for(socket.recv(), 5)
        # and a page's request still goes through the whole stack (its headers)
        answer = await http.get(f"{base}/api/variants")
        assert answer.status_code == 200
        assert "content-security-policy" in answer.headers

    serve(tmp_path, scenario)
