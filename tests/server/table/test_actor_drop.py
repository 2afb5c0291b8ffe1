"""Presence at a table's actor, on the in-memory table store: a player whose connection
drops keeps their seat for the grace period, then their bot plays it, and when they come
back the seat is theirs again and they are told what the bot played; a player back within
the grace period never sees their bot; a quick-match table a matched player never came to
is given up, and whoever came is queued again through the lobby's hook."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from basra.server.table.actor import Table
from basra.store.memory import MemoryTableStore
from server.table.actor_kit import Client, fast, in_play, started

GRACE = 0.6


def by_bot_for(client: Client, seat: int) -> list[dict[str, Any]]:
    """The plays a bot made for ``seat``, as ``client`` read them."""
    return [m for m in client.of_type("played") if m["seat"] == seat and m["by_bot"]]


def test_a_dropped_player_is_played_by_their_bot_after_the_grace_period() -> None:
    async def scenario() -> None:
        store = MemoryTableStore()
        # (the bot takes 50 ms a play: played at once, it once ran the match to its last
        # plays before the player was back on a loaded machine, and those came as states)
        table = await started(store, ["amira", "badr"],
                              settings=fast(grace_seconds=GRACE, bot_delay_seconds=0.05))
        amira = Client(table, "amira", plays=True, seed="drop")
        badr = Client(table, "badr", plays=True, seed="drop")
        back = Client(table, "amira", plays=True, seed="back")
        try:
            await amira.attach()
            await badr.attach()
            await badr.until(lambda s: in_play(s) and len(s["view"]["plays"]) >= 4)
            amira.plays = False
            await amira.drop()
            dropped = time.monotonic()
            seen = await badr.until(lambda s: not s["table"]["players"][0]["connected"])
            assert not seen["table"]["players"][0]["bot_playing"]

            # The seat is the bot's once the grace period is over, and only then.
            await badr.until(lambda s: s["table"]["players"][0]["bot_playing"])
            assert time.monotonic() - dropped >= GRACE
            while len(by_bot_for(badr, 0)) < 3:
                await asyncio.sleep(0.01)

            # Back: the seat is theirs, and they are told what their bot played.
            await back.attach()
            away = await back.next_message("away")
            welcome = back.of_type("welcome")[0]
            assert welcome["seat"] == 0
            state = back.of_type("state")[0]
            assert state["table"]["players"][0]["connected"]
            assert not state["table"]["players"][0]["bot_playing"]
            told = [(p["round"], p["card"], sorted(p["take"])) for p in away["plays"]]
            reasons = [p["reason"] for p in away["plays"]]
            # Their clock may have run out once before the drop (a loaded machine): those
            # plays come first; the bot's plays for the dropped seat after.
            assert set(reasons) <= {"clock", "dropped"}
            assert reasons == sorted(reasons, key=lambda reason: reason == "dropped")
            assert reasons.count("dropped") >= 3

            # They play on themselves (their bot is no longer asked).
            await badr.until(lambda s: any(m["seat"] == 0 and not m["by_bot"]
                                           for m in badr.of_type("played")[-4:]))
        finally:
            await table.stop()
            for client in (amira, badr, back):
                await client.close()
        stored = await store.load("t1")
        assert stored is not None
        # What they were told is what their bot played, in order, as stored.
        mine = [p for p in stored.plays if p.seat == 0]
        by_bot = [(p.round_number, p.card, sorted(p.take)) for p in mine if p.by_bot]
        assert any(by_bot[i:i + len(told)] == told for i in range(len(by_bot)))
        assert not mine[-1].by_bot  # and the last of the seat's plays is their own

    asyncio.run(scenario())


def test_a_player_back_within_the_grace_period_never_sees_their_bot() -> None:
    async def scenario() -> None:
        store = MemoryTableStore()
        table = await started(store, ["amira", "badr"], settings=fast(grace_seconds=60.0))
        amira = Client(table, "amira", plays=True, seed="blip")
        badr = Client(table, "badr", plays=True, seed="blip")
        back = Client(table, "amira", plays=True, seed="blip")
        # Amira stops as she reads the second play (not at a poll later: on a busy machine
        # the two could otherwise play the whole match before the test looked).
        amira.stop_when = lambda s: in_play(s) and len(s["view"]["plays"]) >= 2
        try:
            await amira.attach()
            await badr.attach()
            await badr.until(lambda s: in_play(s) and len(s["view"]["plays"]) >= 2)
            amira.plays = False
            await amira.drop()
            await badr.until(lambda s: not s["table"]["players"][0]["connected"])
            await back.attach()
            await badr.until(lambda s: s["table"]["players"][0]["connected"])
            await badr.until(lambda s: len(s["view"]["plays"]) >= 12 or s["view"]["round"] > 1)
        finally:
            await table.stop()
            for client in (amira, badr, back):
                await client.close()
        assert not by_bot_for(badr, 0)
        assert not any(m["table"]["players"][0]["bot_playing"] for m in badr.of_type("state"))
        assert not back.of_type("away")

    asyncio.run(scenario())


def test_a_quick_match_table_a_player_never_came_to_is_given_up() -> None:
    async def scenario() -> None:
        asked: list[tuple[Table, list[str]]] = []

        async def absent(table: Table, present: list[str]) -> dict[str, str]:
            asked.append((table, present))
            return {player: f"ticket-{player}" for player in present}

        store = MemoryTableStore()
        table = await started(store, ["amira", "badr"], kind="quick", on_absent=absent,
                              settings=fast(arrival_seconds=0.3))
        amira = Client(table, "amira")
        try:
            await amira.attach()
            given_up = await amira.until(lambda s: s["table"]["status"] == "abandoned")
            requeued = await amira.next_message("requeued", since=0)
        finally:
            await table.stop()
            await amira.close()
        assert given_up["view"]["round"] == 0  # not a card was dealt
        assert asked == [(table, ["amira"])]
        assert requeued["ticket"] == "ticket-amira" and requeued["variant"] == "egyptian"
        row = await store.table("t1")
        assert row is not None and row.status == "abandoned"
        assert table.finished_at is not None  # the lobby lets it go a while after

    asyncio.run(scenario())


def test_a_tournament_table_waits_its_own_while_for_a_slow_player() -> None:
    """An event's start makes hundreds of tables at once and their players' sockets open
    over several seconds: a tournament's table waits for them its own while from when it
    was made (not the quick match's short wait once one player is there), and a player
    who comes within it plays their seat from the first card."""
    async def scenario() -> None:
        store = MemoryTableStore()
        table = await started(store, ["amira", "badr"], kind="tournament",
                              settings=fast(arrival_seconds=0.1,
                                            tournament_arrival_seconds=1.5))
        amira, badr = Client(table, "amira"), Client(table, "badr")
        try:
            await amira.attach()
            await asyncio.sleep(0.5)  # a quick match's wait is over by now
            assert amira.of_type("state")[-1]["view"]["round"] == 0
            await badr.attach()
            state = await badr.until(in_play)
        finally:
            await table.stop()
            await amira.close()
            await badr.close()
        assert not state["table"]["players"][1]["bot_playing"]
        assert not by_bot_for(amira, 1)

    asyncio.run(scenario())
