"""A crowd of spectators cannot take a table or slow it (issue 25, item 8): spectators are
limited per address and per table, with places kept for accounts; ``sync`` is limited
apart and the spectators' full state is encoded once for a crowd; an address's messages
are budgeted across all its sockets."""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from basra.server.config import Limits
from basra.server.table import snapshot
from basra.server.wire.server_messages import ServerMessage, State
from server_harness import bot_table, database, new_guest, run, running_server


async def spectator(base: str, table_id: str, source: str = "127.0.0.1",
                    token: str | None = None) -> ClientConnection:
    url = base.replace("http://", "ws://") + f"/ws/tables/{table_id}"
    ws = await connect(url + ("?auth=1" if token else ""), local_addr=(source, 0))
    if token:
        await ws.send(json.dumps({"type": "hello", "token": token}))
    return ws


async def first(ws: ClientConnection) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 10))
    return message


async def refused(ws: ClientConnection) -> tuple[dict[str, Any], int | None]:
    """The error a refused spectator is told, and its close code."""
    error = await first(ws)
    try:
        await asyncio.wait_for(ws.recv(), 10)
    except ConnectionClosed as closed:
        return error, closed.rcvd.code if closed.rcvd else None
    raise AssertionError("still open")


def serve_with(tmp_path: Path, limits: Limits, scenario: Any) -> None:
    with database("sqlite", tmp_path) as store, \
            running_server(store.settings(limits=limits)) as base:
        run(scenario(base))


def test_spectators_are_limited_per_address_with_places_kept_for_accounts(
        tmp_path: Path) -> None:
    limits = replace(Limits.unlimited(), spectators_per_table=5, spectators_reserved=2,
                     spectators_per_address=2)

    async def scenario(base: str) -> None:
        async with httpx.AsyncClient() as http:
            amira = await new_guest(base, http, "Amira")
            table_id = await bot_table(base, http, amira)
            held = [await spectator(base, table_id) for _ in range(2)]
            for ws in held:
                assert (await first(ws))["type"] == "welcome"
            error, code = await refused(await spectator(base, table_id))  # a third
            assert error["code"] == "table/too_many_spectators" and code == 1013
            assert "one address" in error["message"]
            # One leaves: its address has a place again.
            await held.pop(0).close()
            await asyncio.sleep(0.3)
            held.append(await spectator(base, table_id))
            assert (await first(held[-1]))["type"] == "welcome"
            held.append(await spectator(base, table_id, "127.0.0.2"))
            assert (await first(held[-1]))["type"] == "welcome"
            # Three guests' places of five: the last two are kept for accounts.
            error, _ = await refused(await spectator(base, table_id, "127.0.0.3"))
            assert error["code"] == "table/too_many_spectators"
            assert "as many spectators" in error["message"]
            omar = await new_guest(base, http, "Omar")
            r = await http.post(f"{base}/api/account", headers=omar.headers,
                                json={"username": "Omar", "password": "a long secret 1"})
            assert r.status_code == 201, r.text
            held.append(await spectator(base, table_id, "127.0.0.3", token=omar.token))
            assert (await first(held[-1]))["type"] == "welcome"
            for ws in held:
                await ws.close()

    serve_with(tmp_path, limits, scenario)


def test_sync_is_limited_and_a_crowd_costs_one_encoding(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    limits = replace(Limits.unlimited(), syncs_per_minute=0.5, sync_burst=2)
    encoded: list[int] = []
    made: list[tuple[tuple[int, int], float]] = []  # (version, spectators), when: each one
    real = snapshot.encode

    def counting(message: ServerMessage) -> str:
        if isinstance(message, State) and message.you is None:
            encoded.append(message.version)
            made.append(((message.version, message.table["spectators"]), time.monotonic()))
        return real(message)

    monkeypatch.setattr(snapshot, "encode", counting)

    async def scenario(base: str) -> None:
        async with httpx.AsyncClient() as http:
            amira = await new_guest(base, http, "Amira")
            table_id = await bot_table(base, http, amira)  # nobody plays: nothing moves
            crowd = [await spectator(base, table_id, f"127.0.1.{n}") for n in range(8)]
            try:
                states = []
                for ws in crowd:
                    assert (await first(ws))["type"] == "welcome"
                    states.append(await first(ws))
                versions = {s["version"] for s in states}
                assert len(versions) == 1
                # One encoding served each count of spectators (the count is in the state): the
                # same state is encoded again only once the last encoding is no longer fresh
                # (on a loaded machine the crowd may take longer than that to come in).
                assert len(set(encoded)) == 1
                for (key, at), (again, later) in itertools.combinations(made, 2):
                    if key == again:
                        assert later - at > snapshot.SPECTATOR_STATE_FRESH
                before = len(encoded)
                ws = crowd[0]
                for _ in range(3):
                    await ws.send(json.dumps({"type": "sync"}))
                answers = [await first(ws) for _ in range(3)]  # the refusal may come first
                assert sorted(a["type"] for a in answers) == ["error", "state", "state"]
                error = next(a for a in answers if a["type"] == "error")
                assert error["code"] == "protocol/rate_limited"
                assert "full states a minute" in error["message"]
                assert len(encoded) == before  # the same state again: not encoded anew
            finally:  # a failed check leaves no socket open for the next test
                for ws in crowd:
                    await ws.close()

    serve_with(tmp_path, limits, scenario)


def test_an_address_has_one_message_budget_across_its_sockets(tmp_path: Path) -> None:
    limits = replace(Limits.unlimited(), messages_per_second=100, message_burst=100,
                     address_messages_per_second=0.1, address_message_burst=4)

    async def scenario(base: str) -> None:
        async with httpx.AsyncClient() as http:
            amira = await new_guest(base, http, "Amira")
            table_id = await bot_table(base, http, amira)
            sockets = [await spectator(base, table_id) for _ in range(3)]
            for ws in sockets:
                await first(ws)
                await first(ws)
            for ws in sockets:
                for _ in range(2):
                    await ws.send(json.dumps({"type": "ping"}))
            answers: list[list[str]] = []
            for ws in sockets:  # each socket's answers to its pings (the table's own
                got: list[str] = []  # changes may come in between)
                while len(got) < (2 if ws is not sockets[-1] else 1):
                    message = await first(ws)
                    if message["type"] in ("pong", "error"):
                        got.append(message.get("code", message["type"]))
                answers.append(got)
            # The address's burst of four, whatever its sockets; the third socket's two
            # pings were dropped (told once).
            assert answers == [["pong", "pong"], ["pong", "pong"],
                               ["protocol/rate_limited"]]
            other = await spectator(base, table_id, "127.0.0.2")
            await first(other)
            await first(other)
            await other.send(json.dumps({"type": "ping"}))
            assert (await first(other))["type"] == "pong"
            for ws in [*sockets, other]:
                await ws.close()

    serve_with(tmp_path, limits, scenario)
