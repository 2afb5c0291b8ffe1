"""An 8-player, 3-round Swiss played to the end against a real server by websocket
clients: one never comes (absent at two pairings: not paired, then withdrawn), one drops
after the first round (its page closed at the second pairing: not paired then) and comes
back for the third. Scores, byes, rematches and both tie-breaks are checked by hand from
the stored pairings."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx

from server.e2e.test_accounts import an_account
from server.e2e.tournament_kit import Entrant, an_event, sheets, until_status
from server_harness import new_guest, serve

# Nobody here is meant to miss a table (the absent are absent at pairing time): a long
# window, so that a player slow to its table on a loaded machine is never paused for it.
SETTINGS: dict[str, Any] = {"tournament_tick_seconds": 0.1, "arrival_seconds": 1.0,
                            "tournament_arrival_seconds": 10.0}


def test_a_swiss_of_eight_in_three_rounds(tmp_path: Any) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        owner = await an_account(base, http, "Organiser")
        event = await an_event(base, http, owner, format="swiss", rounds=3, rated=False)
        entrants = [Entrant(await new_guest(base, http, f"Player {n}"), event["id"])
                    for n in range(8)]
        for entrant in entrants:
            await entrant.join(http)
        dropper, never = entrants[6], entrants[7]
        for entrant in entrants[:7]:
            await entrant.open_page()
        stop = asyncio.Event()
        # Round 2's matches wait for the dropper to be back (a loaded machine once played
        # them all before its page opened again, and round 3 was paired without it).
        back = asyncio.Event()
        tasks = [asyncio.create_task(e.play_on(stop, hold=back)) for e in entrants[:6]]

        async def first_table() -> str | None:
            """The dropper's round 1 table, as its page heard it; None: it has the bye.
            (The event's list of matches being played may be a second old: read from it,
            the dropper once missed its table, whose bot then played from the start, and
            it was paused for good.)"""
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                if not dropper.paired.empty():
                    return dropper.paired.get_nowait()
                results = (await http.get(
                    f"{base}/api/tournaments/{event['id']}/results")).json()
                if any(p["entrants"] == [dropper.guest.player_id]
                       for r in results["rounds"] if r["round"] == 1
                       for p in r["pairings"]):
                    return None
                await asyncio.sleep(0.05)
            raise AssertionError("the dropper was neither paired nor given the bye")

        async def drop_and_return() -> None:
            await until_round(base, http, event["id"], 1)
            mine = await first_table()
            await dropper.close_page()  # away at round 2's pairing
            if mine is not None:
                await dropper.play_table(mine)  # to its end
            await until_round(base, http, event["id"], 2)
            heard = len(dropper.heard)
            await dropper.open_page()
            while len(dropper.heard) == heard:  # its page is the event's again
                await asyncio.sleep(0.05)
            back.set()
            await dropper.play_on(stop)

        tasks.append(asyncio.create_task(drop_and_return()))
        try:
            await until_status(base, http, event["id"], "finished", 150)
        finally:
            stop.set()
            await asyncio.gather(*tasks)
            for entrant in entrants:
                await entrant.close_page()

        results = (await http.get(f"{base}/api/tournaments/{event['id']}/results")).json()
        rounds = results["rounds"]
        assert [r["round"] for r in rounds] == [1, 2, 3]
        played = sheets(rounds)
        rows = {row["entrant"]: row for row in results["standings"]}
        never_id, dropper_id = never.guest.player_id, dropper.guest.player_id

        # Absent at pairing time: not paired; absent twice: withdrawn.
        assert never_id not in played
        assert rows[never_id]["status"] == "withdrawn"
        assert [g[0] for g in played[dropper_id]] == [1, 3]
        # Round 1: seven present, one bye; round 2: six, none; round 3: seven, one bye.
        byes = [[p for p in r["pairings"] if len(p["entrants"]) == 1] for r in rounds]
        assert [len(b) for b in byes] == [1, 0, 1]
        bye_takers = [b[0]["entrants"][0] for b in byes if b]
        assert len(set(bye_takers)) == len(bye_takers), "one bye each at most"
        # No rematch.
        met = [frozenset(p["entrants"]) for r in rounds for p in r["pairings"]
               if len(p["entrants"]) == 2]
        assert len(met) == len(set(met))

        # Scores and tie-breaks, by hand (docs/TOURNAMENTS.md: a bye is a win against an
        # opponent who scored what the bye-taker scored).
        score = {e: sum(g[2] for g in games if not g[3]) for e, games in played.items()}
        for entrant_id, games in played.items():
            row = rows[entrant_id]
            mine = score[entrant_id]
            assert row["score"] == mine
            against = [(score[g[1]] if g[1] is not None else mine, g[2]) for g in games]
            assert row["buchholz"] == sum(s for s, _ in against)
            assert row["sonneborn_berger"] == sum(s * p for s, p in against)
        order = [(r["score"], r["buchholz"], r["sonneborn_berger"])
                 for r in results["standings"] if r["entrant"] in played]
        assert order == sorted(order, reverse=True)

    serve(tmp_path, scenario, **SETTINGS)


async def until_round(base: str, http: httpx.AsyncClient, tournament: str,
                      number: int) -> None:
    while True:
        state = (await http.get(f"{base}/api/tournaments/{tournament}")).json()
        if state["event"]["round"] >= number:
            return
        await asyncio.sleep(0.1)
