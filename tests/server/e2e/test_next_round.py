"""The next round waits while its players read the summary, end to end: nothing is dealt and
no clock runs until each of them is ready (a lone player's ready deals it at once) or the
summary window ends, and the wait names who is still reading."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx

from server_harness import Guest, at_a_bot_table, next_message, serve, two_at_a_private_table


async def play_round_one(guest: Guest) -> dict[str, Any]:
    """Play the first legal play on each turn until round 1 is over: the state once round
    2 is committed."""
    sent = -1
    while True:
        state = await guest.until(lambda s, last=sent: bool(s["view"]["results"]) or (
            guest.my_turn(s) and s["version"] > last))
        if state["view"]["results"]:
            return await guest.until(lambda s: s["table"]["phase"] == "seeding")
        sent = state["version"]
        await guest.play_first_legal()


def test_the_next_round_waits_for_the_player_and_no_clock_runs_meanwhile(
        tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await at_a_bot_table(base, http)
        state = await play_round_one(amira)
        table = state["table"]
        assert table["phase"] == "seeding" and table["clock"] is None
        waiting = table["next_round"]
        assert waiting["round"] == 2 and waiting["seconds"] == 30
        assert waiting["waiting_for"] == [0] and 0 < waiting["remaining_ms"] <= 30_000
        # Nothing is dealt while she reads the summary.
        await asyncio.sleep(1.5)
        await amira.send({"type": "ping"})
        await next_message(amira, "pong")
        assert amira.state["view"]["round"] == 1 and amira.state["table"]["clock"] is None
        # She continues: the round is dealt at once, and only now does her clock run.
        await amira.send({"type": "ready"})
        dealt = await amira.until(lambda s: s["view"]["round"] == 2, timeout=5)
        assert dealt["table"]["next_round"] is None and dealt["table"]["phase"] == "playing"
        mine = await amira.until(lambda s: s["table"]["clock"] is not None, timeout=10)
        assert mine["table"]["clock"]["seat"] == 0
        await amira.close()

    serve(tmp_path, scenario, summary_seconds=30.0)


def test_the_summary_wait_ends_by_itself_and_names_who_is_still_reading(
        tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        _, amira, omar = await two_at_a_private_table(base, http)
        states = await asyncio.gather(play_round_one(amira), play_round_one(omar))
        assert states[0]["table"]["next_round"]["waiting_for"] == [0, 1]
        await amira.send({"type": "ready"})
        seen = await omar.until(lambda s: s["table"]["next_round"] is not None
                                and s["table"]["next_round"]["waiting_for"] == [1])
        assert seen["view"]["round"] == 1
        started = time.monotonic()
        await omar.until(lambda s: s["view"]["round"] == 2, timeout=10)
        assert time.monotonic() - started > 0.5  # the window's end dealt it, not Omar
        await amira.close()
        await omar.close()

    serve(tmp_path, scenario, summary_seconds=2.5)
