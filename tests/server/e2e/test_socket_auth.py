"""A player's socket carries its session token in its first message, never in its address
(issue 25, item 3): ``?token=`` is refused, ``?auth=1`` waits for a ``hello``."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from basra.server.http.routes import play_socket
from server_harness import bot_table, new_guest, serve


async def messages_until_closed(ws: Any) -> tuple[list[dict[str, Any]], int | None]:
    got = []
    try:
        while True:
            got.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
    except ConnectionClosed as closed:
        return got, closed.rcvd.code if closed.rcvd else None


def test_the_token_goes_in_the_hello_never_in_the_address(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(play_socket, "HELLO_SECONDS", 0.5)

    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await new_guest(base, http, "Amira")
        table_id = await bot_table(base, http, amira)
        ws_base = base.replace("http://", "ws://") + f"/ws/tables/{table_id}"

        async with connect(f"{ws_base}?token={amira.token}") as ws:
            got, code = await messages_until_closed(ws)
        assert [m["type"] for m in got] == ["error"] and code == 4400
        assert got[0]["code"] == "auth/token_in_url"

        async with connect(f"{ws_base}?auth=1") as ws:
            await ws.send(json.dumps({"type": "hello", "token": amira.token}))
            welcome = json.loads(await ws.recv())
            state = json.loads(await ws.recv())
        assert welcome["type"] == "welcome" and welcome["seat"] == 0
        assert state["type"] == "state" and state["view"]["hand"] is not None

        for first in ({"type": "sync"}, {"type": "hello"}, {"type": "hello", "token": 5},
                      "not json", {"type": "hello", "token": "x" * 300}):
            async with connect(f"{ws_base}?auth=1") as ws:
                await ws.send(first if isinstance(first, str) else json.dumps(first))
                got, code = await messages_until_closed(ws)
            assert [m["code"] for m in got] == ["auth/no_hello"] and code == 4400, first

        async with connect(f"{ws_base}?auth=1") as ws:  # says nothing
            got, code = await messages_until_closed(ws)
        assert [m["code"] for m in got] == ["auth/no_hello"] and code == 4400

        # A hello with a token that names nobody: a spectator, as without one.
        async with connect(f"{ws_base}?auth=1") as ws:
            await ws.send(json.dumps({"type": "hello", "token": "nobody-has-this"}))
            welcome = json.loads(await ws.recv())
        assert welcome["seat"] is None
        async with connect(ws_base) as ws:
            welcome = json.loads(await ws.recv())
        assert welcome["seat"] is None

    serve(tmp_path, scenario)
