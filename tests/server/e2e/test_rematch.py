"""Rematches end to end against a real server: at a private table one ask is noted and the
second makes a new table for both (asking again, even five times, sends nothing new); against
a bot the player's own ask is enough; the new table is playable. A spectator watching the
whole match never sees a hand or a legal play, and can neither play, send a part, say ready
nor ask for a rematch."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx

from server.e2e.refusals import refused
from server_harness import (
    Backend,
    Guest,
    backend_fixture,  # noqa: F401  (the backend fixture)
    bot_table,
    changes,
    new_guest,
    over,
    play_out,
    play_turns,
    rematch,
    serve,
    two_at_a_private_table,
)


def test_rematch_at_a_private_table_and_against_a_bot_spectators_see_no_hand(
        backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await new_guest(base, http, "Amira")
        omar = await new_guest(base, http, "Omar")
        watcher = Guest(base, "Watcher")
        created = (await http.post(f"{base}/api/tables/private", headers=amira.headers,
                                   json={"variant": "egyptian"})).json()
        table_id = created["table"]["id"]
        await amira.connect(table_id)
        await watcher.connect(table_id)
        await http.post(f"{base}/api/tables/join", headers=omar.headers,
                        json={"invite_code": created["table"]["invite_code"]})
        await omar.connect(table_id)
        guests = (amira, omar, watcher)
        try:
            state = await watcher.until(lambda s: s["view"]["turn"] is not None)
            assert state["you"] is None and "invite_code" not in state["table"]
            await refused(amira, {"type": "rematch"}, "rematch/not_over")
            await refused(watcher, {"type": "play", "version": state["version"],
                                    "card": "5H", "take": []}, "play/not_seated")
            await refused(watcher, {"type": "seed", "round": 1, "client_seed": "x"},
                          "seed/not_seated")
            await refused(watcher, {"type": "ready"}, "ready/not_seated")
            watching = asyncio.create_task(watcher.until(over, 120))
            await play_out(amira, omar)
            await watching
            # the spectator saw the whole match, and never a hand or a legal play
            states = watcher.seen
            assert len(states) > 100
            assert all(m["view"]["hand"] == [] and m["view"]["legal"] == []
                       for m in states)
            assert all(m["hand"] == [] and m["legal"] == [] for m in watcher.log
                       if m["type"] == "played")
            assert max(len(m["view"]["plays"]) for m in states) > 40
            await refused(watcher, {"type": "rematch"}, "rematch/not_seated")

            # One asks: noted, no table yet. The other asks: a new table for both.
            await amira.send({"type": "rematch"})
            asked = await omar.until(lambda s: s["table"]["players"][0]["rematch"])
            assert asked["table"]["rematch_table"] is None
            await omar.send({"type": "rematch"})
            done = await amira.until(lambda s: s["table"]["rematch_table"] is not None)
            new_id = done["table"]["rematch_table"]
            assert new_id != table_id
            seen = await watcher.until(lambda s: s["table"]["rematch_table"] is not None)
            assert seen["table"]["rematch_table"] == new_id
            await amira.send({"type": "rematch"})  # asking again changes nothing
            version, before = await amira.ping()
            assert version == amira.state["version"]
            assert not changes(before)
            assert amira.state["table"]["rematch_table"] == new_id
        finally:
            for g in guests:
                await g.close()

        info = (await http.get(f"{base}/api/tables/{new_id}")).json()["table"]
        assert info["status"] == "playing" and info["kind"] == "private"
        assert [p["name"] for p in info["players"]] == ["Amira", "Omar"]
        await amira.connect(new_id)
        await omar.connect(new_id)
        try:  # the new table is playable: a few turns each
            await play_turns([amira, omar], lambda s: len(s["view"]["plays"]) >= 6)
            assert amira.state["you"] == 0 and omar.state["you"] == 1
        finally:
            await amira.close()
            await omar.close()

        # Against a bot, the player's own request is enough.
        against_bot = await bot_table(base, http, amira, variant="egyptian")
        await amira.connect(against_bot)
        try:
            await play_out(amira)
            rematch_id = await rematch(amira)
            await amira.close()
            await amira.connect(rematch_id)
            state = await amira.until(amira.my_turn)
            assert state["table"]["players"][1]["name"] == "bot:random"
            await amira.play_first_legal()
            await amira.until(lambda s: s["version"] > state["version"])
        finally:
            await amira.close()
        history = (await http.get(f"{base}/api/history", headers=amira.headers)).json()
        # (the rematch tables may be over too by now: their bots play the left seats)
        assert {table_id, against_bot} <= {m["table"] for m in history["matches"]}

    serve(backend, scenario)


def test_asking_for_a_rematch_twice_sends_nothing_new(tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        _, amira, omar = await two_at_a_private_table(base, http)
        try:
            await play_out(amira, omar)
            await amira.send({"type": "rematch"})
            state = await amira.until(lambda s: s["table"]["players"][0]["rematch"])
            version = state["version"]
            for _ in range(5):
                await amira.send({"type": "rematch"})
            pong, before = await amira.ping()
            assert pong == version and not changes(before)
        finally:
            await amira.close()
            await omar.close()

    serve(tmp_path, scenario)
