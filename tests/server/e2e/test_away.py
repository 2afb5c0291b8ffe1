"""A seat whose player is away is played by the bot, end to end: a player back is told, once,
every play the bot made for them (``away``: when their clock ran out, and while they were
gone); one who opened the invite but never the table is dropped from the start, so nobody
waits for them."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import httpx

from server_harness import bot_table, join, new_guest, next_message, private_table, serve


def test_a_player_back_is_told_every_play_a_bot_made_for_them(tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await new_guest(base, http, "Amira")
        table_id = await bot_table(base, http, amira)
        await amira.connect(table_id)
        # Her clock runs out once while she is there...
        first = await amira.until(amira.my_turn)
        timed_out = await amira.until(lambda s: s["version"] > first["version"]
                                      and s["view"]["plays"][-1:] != []
                                      and s["view"]["plays"][-1]["seat"] == 0)
        clock_card = timed_out["view"]["plays"][-1]["card"]
        # ...then she leaves; past the grace her bot plays her seat.
        await amira.close()
        await asyncio.sleep(2.0)
        await amira.connect(table_id)
        await amira.receive()  # welcome
        state = await amira.receive()
        assert state["type"] == "state"
        away = await next_message(amira, "away")
        plays = away["plays"]
        assert plays[0] == {**plays[0], "round": 1, "card": clock_card, "reason": "clock"}
        dropped = [p for p in plays if p["reason"] == "dropped"]
        assert dropped, plays
        record = (await http.get(f"{base}/api/tables/{table_id}/record")).json()
        mine = [(n, p["card"]) for n, r in enumerate(record["rounds"], 1)
                for p in r["plays"] if p["seat"] == 0]
        assert [(p["round"], p["card"]) for p in plays] == mine[:len(plays)]
        # Told once: a second connection is not told again.
        await amira.close()
        await amira.connect(table_id)
        await amira.send({"type": "ping"})
        await next_message(amira, "pong")
        assert all(m["type"] != "away" for m in amira.log[amira.log.index(away) + 1:])
        await amira.close()

    serve(tmp_path, scenario, clock_seconds=0.6, grace_seconds=0.3, bot_delay_seconds=0.3)


def test_a_player_who_joins_but_never_connects_is_played_by_the_bot(tmp_path: Path) -> None:
    """At a private table, the one who opened the invite but never the table is dropped
    from the start: after the grace period a bot plays the seat; nobody waits 30 s."""
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await new_guest(base, http, "Amira")
        ghost = await new_guest(base, http, "Ghost")
        table_id, code = await private_table(base, http, amira, bot_level="random")
        await amira.connect(table_id)
        await join(base, http, ghost, code)
        try:
            started = time.monotonic()
            sent = -1
            while len(amira.state.get("view", {}).get("plays", [])) < 4:
                state = await amira.until(
                    lambda s, last=sent: len(s["view"]["plays"]) >= 4
                    or (amira.my_turn(s) and s["version"] > last), 15)
                if amira.my_turn(state) and state["version"] > sent:
                    sent = state["version"]
                    await amira.play_first_legal()
            assert time.monotonic() - started < 10
            assert amira.state["table"]["players"][1]["bot_playing"] is True
        finally:
            await amira.close()

    serve(tmp_path, scenario, grace_seconds=0.5, arrival_seconds=1.0)
