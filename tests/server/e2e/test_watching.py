"""Watching and talking, over the wire: the spectators' count at a table, the live list
(``GET /api/live``), and quick phrases and reactions with their limits."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx

from basra.server.wire import sayings
from server_harness import (
    Guest,
    bot_table,
    new_guest,
    next_message,
    over,
    play_out,
    private_table,
    serve,
    two_at_a_private_table,
)


async def said(guest: Guest, timeout: float = 10) -> dict[str, Any]:
    """The next ``said`` message the guest gets (read on from now)."""
    deadline = time.monotonic() + timeout
    while True:
        message = await guest.receive(max(0.1, deadline - time.monotonic()))
        if message["type"] == "said":
            return message


async def refusal(guest: Guest, timeout: float = 10) -> str:
    """The code of the next ``error`` the guest gets."""
    deadline = time.monotonic() + timeout
    while True:
        message = await guest.receive(max(0.1, deadline - time.monotonic()))
        if message["type"] == "error":
            return str(message["code"])


def test_phrases_and_reactions_reach_everyone_within_their_limits(tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        table, amira, omar = await two_at_a_private_table(base, http)
        watcher = Guest(base, "watcher")
        await watcher.connect(table)
        for guest in (amira, omar, watcher):
            await guest.until(lambda s: s["table"]["status"] == "playing")

        await amira.send({"type": "say", "phrase": "good_luck"})
        for guest in (amira, omar, watcher):
            message = await said(guest)
            assert message == {"type": "said", "seat": 0, "phrase": "good_luck", "count": 1}
        await omar.send({"type": "react", "reaction": "clap"})
        for guest in (amira, omar, watcher):
            assert await said(guest) == {"type": "said", "seat": 1, "reaction": "clap",
                                         "count": 1}
        # The count is in the table's state for everyone, and nothing else moved.
        version = amira.state["version"]
        await amira.send({"type": "sync"})
        state = await next_message(amira, "state")
        state = await amira.until(lambda s: [p["said"] for p in s["table"]["players"]]
                                  == [1, 1])
        assert state["version"] == version

        await watcher.send({"type": "say", "phrase": "hello"})
        assert await refusal(watcher) == "say/not_seated"
        for bad in ({"type": "say", "phrase": "you lose"}, {"type": "say"},
                    {"type": "react", "reaction": "hello"},
                    {"type": "say", "phrase": ["hello"]}):
            await amira.send(bad)
            assert await refusal(amira) == "say/unknown", bad

        # At most PER_MATCH a match (the gap is 0.05 s here), never faster than the gap.
        for n in range(2, sayings.PER_MATCH + 1):
            await asyncio.sleep(0.06)
            await amira.send({"type": "say", "phrase": "thanks"})
            assert (await said(omar))["count"] == n
        await asyncio.sleep(0.06)
        await amira.send({"type": "say", "phrase": "bye"})
        assert await refusal(amira) == "say/limit"
        await omar.send({"type": "say", "phrase": "hello"})
        await omar.send({"type": "say", "phrase": "hello"})
        assert await refusal(omar) == "say/too_fast"
        for guest in (amira, omar, watcher):
            await guest.close()

    serve(tmp_path, scenario, saying_gap_seconds=0.05)


def test_the_gap_between_phrases_holds_by_default(tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        variants = (await http.get(f"{base}/api/variants")).json()["limits"]
        assert variants["sayings_per_match"] == sayings.PER_MATCH
        assert variants["saying_gap_ms"] == 2000
        assert variants["phrases"] == list(sayings.PHRASES)
        _, amira, omar = await two_at_a_private_table(base, http)
        for guest in (amira, omar):  # both at the table (their sockets attached)
            await guest.until(lambda s: all(p["connected"] for p in s["table"]["players"]))
        await amira.send({"type": "say", "phrase": "hello"})
        await said(omar)
        await amira.send({"type": "say", "phrase": "have_fun"})
        assert await refusal(amira) == "say/too_fast"
        await asyncio.sleep(2.05)
        await amira.send({"type": "say", "phrase": "have_fun"})
        assert (await said(omar))["phrase"] == "have_fun"
        await amira.close()
        await omar.close()

    serve(tmp_path, scenario)


def test_spectators_are_counted_and_the_live_list_shows_public_matches_only(
        tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await new_guest(base, http, "Amira")
        bot_id = await bot_table(base, http, amira)
        owner = await new_guest(base, http, "Omar")
        private_id, _ = await private_table(base, http, owner)
        await amira.connect(bot_id)
        state = await amira.until(lambda s: s["table"]["status"] == "playing")
        assert state["table"]["spectators"] == 0

        watchers = [Guest(base, f"w{i}") for i in range(3)]
        for watcher in watchers:
            await watcher.connect(bot_id)
            seen = await watcher.until(lambda s: s["table"]["status"] == "playing")
            assert seen["you"] is None and seen["view"]["hand"] == []
        # The count reaches the seats with the next play, and the live list has it.
        await amira.until(lambda s: s["view"]["round"] >= 1 and amira.my_turn(s))
        await amira.play_legal(0)
        state = await amira.until(lambda s: s["table"]["spectators"] == 3)
        answer = (await http.get(f"{base}/api/live")).json()
        [match] = answer["matches"]  # the private table is waiting, and private anyway
        assert match["table"] == bot_id and match["spectators"] == 3
        assert match["players"][0]["name"] == "Amira"
        assert match["players"][0]["username"] is None  # a guest: no profile to link
        assert match["players"][1]["kind"] == "bot"
        assert match["variant"] == "egyptian" and match["round"] == 1
        assert match["rating"] is None
        assert {"totals", "sets", "target", "started_at", "kind"} <= set(match)
        by_rating = (await http.get(f"{base}/api/live?order=rating")).json()
        assert [m["table"] for m in by_rating["matches"]] == [bot_id]
        assert (await http.get(f"{base}/api/live?order=worst")).status_code == 422
        assert private_id not in str(answer)

        await watchers[0].close()
        await asyncio.sleep(1.1)  # the list is answered again for a second
        await amira.until(lambda s: amira.my_turn(s) or over(s))
        answer = (await http.get(f"{base}/api/live")).json()
        assert answer["matches"][0]["spectators"] == 2
        await play_out(amira)
        await asyncio.sleep(1.1)
        assert (await http.get(f"{base}/api/live")).json()["matches"] == []
        for guest in (amira, *watchers[1:]):
            await guest.close()

    serve(tmp_path, scenario)


def test_a_match_with_no_person_at_it_is_not_live(tmp_path: Path) -> None:
    """The only human left (the bot plays their seat): the match leaves the live list, and
    comes back when they do (issue 28's newcomer saw one player in two live matches)."""
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await new_guest(base, http, "Amira")
        table = await bot_table(base, http, amira, level="random")
        await amira.connect(table)
        await amira.until(lambda s: s["table"]["status"] == "playing")
        await asyncio.sleep(1.1)
        assert [m["table"] for m in (await http.get(f"{base}/api/live")).json()["matches"]] \
            == [table]
        await amira.close()
        await asyncio.sleep(1.5)  # past the grace: the bot plays her seat
        assert (await http.get(f"{base}/api/live")).json()["matches"] == []
        await amira.connect(table)
        await amira.until(lambda s: s["table"]["status"] == "playing")
        await asyncio.sleep(1.1)
        assert [m["table"] for m in (await http.get(f"{base}/api/live")).json()["matches"]] \
            == [table]
        await amira.close()

    serve(tmp_path, scenario, bot_delay_seconds=0.5)
