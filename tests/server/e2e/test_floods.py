"""Floods of messages (issue 8), end to end: a spectator's flood leaves the seated player's
plays as fast as ever and is closed for it; over the rate a message is dropped, with one
coded warning a second; a flood spaced out to slip between refills is closed too."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from basra.server.config import Limits
from server.e2e.play_times import SLOW_MS, p99, timed_match
from server_harness import at_a_bot_table, bot_table, new_guest, serve


def test_a_flood_from_a_spectator_leaves_the_seated_player_unharmed(tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await new_guest(base, http, "Amira")
        table_id = await bot_table(base, http, amira)
        await amira.connect(table_id)
        ws = base.replace("http://", "ws://") + f"/ws/tables/{table_id}"
        sent = 0
        closes: list[int | None] = []

        async def flood() -> None:
            """60,000 messages as fast as they go; a closed socket is opened again."""
            nonlocal sent
            frame = json.dumps({"type": "ping"})
            while sent < 60_000:
                async with connect(ws, max_queue=None) as spectator:
                    try:
                        while sent < 60_000:
                            await spectator.send(frame)
                            sent += 1
                            if sent % 100 == 0:
                                await asyncio.sleep(0)
                    except ConnectionClosed as exc:
                        closes.append(exc.rcvd.code if exc.rcvd else None)

        try:
            flooding = asyncio.create_task(flood())
            times = await timed_match(amira)
            await flooding
            assert sent == 60_000
            # closed for flooding (1008), or for not reading its answers fast enough
            assert closes and set(closes) <= {1008, 1013} and 1008 in closes, closes
            assert p99(times) < SLOW_MS, (p99(times), max(times))
        finally:
            await amira.close()

    # Amira plays at machine speed, so her own rate is wide; the flooder's 30k a second is
    # far past it all the same.
    limits = Limits(messages_per_second=300, message_burst=300, sockets_per_address=1000)
    serve(tmp_path, scenario, limits=limits)


def test_the_rate_limit_answers_with_a_code_and_drops_the_message(tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await at_a_bot_table(base, http)
        await amira.until(lambda s: True)
        for _ in range(15):  # burst 10: five over the limit, each dropped
            await amira.send({"type": "ping"})
        await asyncio.sleep(1.2)  # refilled
        await amira.send({"type": "ping"})
        deadline = time.monotonic() + 10
        while len([m for m in amira.log if m["type"] == "pong"]) < 11:
            await amira.receive(max(0.1, deadline - time.monotonic()))
        await asyncio.sleep(0.3)
        _, _ = await amira.ping()
        pongs = [m for m in amira.log if m["type"] == "pong"]
        codes = [e["code"] for e in amira.errors]
        assert codes.count("protocol/rate_limited") == 1, codes  # one warning a second
        assert len(pongs) == 12, len(pongs)  # ten of fifteen, the late one and this one
        await amira.close()

    limits = Limits(messages_per_second=5, message_burst=10)
    serve(tmp_path, scenario, limits=limits)


def test_a_flood_spaced_out_to_slip_between_refills_is_closed_too(tmp_path: Path) -> None:
    """Twice the allowed rate, evenly spaced: every other message passes, yet the drops
    add up and the socket is closed (a count of drops in a row would never close it)."""
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await new_guest(base, http, "Amira")
        table_id = await bot_table(base, http, amira)
        ws = base.replace("http://", "ws://") + f"/ws/tables/{table_id}"
        started = time.monotonic()
        with pytest.raises(ConnectionClosed) as closed:
            async with connect(ws, max_queue=None) as spectator:
                for _ in range(400):  # 4 s at 100 a second, against a limit of 50
                    await spectator.send(json.dumps({"type": "ping"}))
                    await asyncio.sleep(0.01)
                pytest.fail("400 messages at twice the rate, and still open")
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        assert time.monotonic() - started < 4

    limits = Limits(messages_per_second=50, message_burst=5, flood_close=30)
    serve(tmp_path, scenario, limits=limits)
