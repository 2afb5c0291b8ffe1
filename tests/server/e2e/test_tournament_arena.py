"""A 16-player arena played to the end against a real server by websocket clients: each
is paired as soon as it is free, plays its table, and is paired again; one drops in its
first match (its bot plays on, and it is paired no more), one never comes to its table (a
bot plays its seat from the start: it scores nothing and is paused). The standings are
checked against the arena's scoring done again by hand from the stored pairings."""

from __future__ import annotations

import asyncio
from collections import Counter
from datetime import datetime, timedelta
from typing import Any

import httpx

from server.e2e.test_accounts import an_account
from server.e2e.tournament_kit import Entrant, an_event, arena_points, sheets, until_status
from server_harness import new_guest, serve

SETTINGS: dict[str, Any] = {"tournament_tick_seconds": 0.1,
                            "tournament_last_pairing_seconds": 20.0,
                            # long enough for a loaded machine's players to come,
                            # short for the one who never does
                            "arrival_seconds": 1.0, "tournament_arrival_seconds": 3.0}


def test_an_arena_of_sixteen_is_played_to_the_end(tmp_path: Any) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        owner = await an_account(base, http, "Organiser")
        event = await an_event(base, http, owner, format="arena", minutes=1, rated=False,
                               variant="egyptian", length="short")
        assert event["status"] == "upcoming" and event["length"] == "short"
        guests = [await an_account(base, http, "Zeina")]  # an account: its profile
        guests += [await new_guest(base, http, f"Player {n}") for n in range(1, 16)]
        entrants = [Entrant(g, event["id"]) for g in guests]
        for entrant in entrants:
            await entrant.join(http)
            await entrant.open_page()
        dropper, absentee = entrants[14], entrants[15]
        stop = asyncio.Event()
        tasks = [asyncio.create_task(e.play_on(stop)) for e in entrants[:14]]
        tasks.append(asyncio.create_task(dropper.play_on(stop, drop_after=2)))
        tasks.append(asyncio.create_task(absentee.play_on(stop, never_come=True)))
        try:
            final = await until_status(base, http, event["id"], "finished", 150)
        finally:
            stop.set()
            await asyncio.gather(*tasks)
            for entrant in entrants:
                await entrant.close_page()

        results = (await http.get(f"{base}/api/tournaments/{event['id']}/results")).json()
        by_id = {row["entrant"]: row for row in results["standings"]}
        played = sheets(results["rounds"])

        # Every pairing decided, each table a short match that ended.
        pairings = [p for r in results["rounds"] for p in r["pairings"]]
        assert len(pairings) >= 16, "several matches a player"
        assert all(p["points"] is not None for p in pairings)
        ends_at = datetime.fromisoformat(final["event"]["ends_at"])
        for pairing in pairings:
            # (a pairing is stamped as it is stored, a moment after its tick's decision)
            assert datetime.fromisoformat(pairing["created_at"]) <= ends_at - timedelta(
                seconds=SETTINGS["tournament_last_pairing_seconds"] - 1)
        table = pairings[0]["table"]
        record = (await http.get(f"{base}/api/tables/{table}/record")).json()
        assert record["length"] == "short"

        # An entrant plays one table at a time; the scoring, by hand.
        for entrant_id, games in played.items():
            rounds = [g[0] for g in games]
            assert len(rounds) == len(set(rounds))
            sheet = arena_points([(g[2], g[3]) for g in games])
            assert by_id[entrant_id]["sheet"] == sheet, (entrant_id, games)
            assert by_id[entrant_id]["score"] == sum(sheet)

        # The one who never came: one match, played by its bot, worth nothing; paused.
        absent_games = played[absentee.guest.player_id]
        assert len(absent_games) == 1 and absent_games[0][3]
        assert by_id[absentee.guest.player_id]["score"] == 0
        assert by_id[absentee.guest.player_id]["status"] == "paused"
        # The one who dropped: counted as its table ended, and paired no more.
        assert len(played[dropper.guest.player_id]) == 1
        assert not played[dropper.guest.player_id][0][3]

        # Standings: by score, then performance; the podium is the first three.
        scores = [(row["score"], row["performance"]) for row in results["standings"]]
        assert scores == sorted(scores, reverse=True)
        assert [row["rank"] for row in results["standings"]] == list(range(1, 17))
        assert results["podium"] == results["standings"][:3]
        # Each player's page heard the standings move as deltas and its own pairings.
        heard = Counter(m["type"] for m in entrants[0].heard)
        assert heard["tournament"] == 1 and heard["standings"] >= 1 and heard["paired"] >= 2
        assert final["event"]["provisional"]

        # The podium's accounts have a trophy on their profile.
        profile = (await http.get(f"{base}/api/players/zeina")).json()
        rank = by_id[guests[0].player_id]["rank"]
        assert [(t["tournament"], t["place"]) for t in profile["trophies"]] == (
            [(event["id"], rank)] if rank <= 3 else [])

    serve(tmp_path, scenario, **SETTINGS)
