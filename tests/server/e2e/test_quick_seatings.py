"""Quick match for every seating against a real ``basra serve`` (issue 28): four guests
meet through a 2x2 pool and play a round; three alone; a rated 2x2 between accounts moves
all four ratings as :func:`basra.ratings.rate_sides` says (each player against the other
side's mean)."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from basra.ratings import Rating, rate_sides
from server.e2e.test_rated_play import account
from server_harness import (
    Backend,
    Guest,
    backend_fixture,
    new_guest,
    over,
    play_turns,
    serve,
)

__all__ = ["backend_fixture"]


async def quick_table(base: str, http: httpx.AsyncClient, guests: list[Guest],
                      **seating: Any) -> dict[str, Any]:
    """Everyone asks quick match for the same variant and seating and waits: the ticket
    they all got (one table)."""
    tickets = []
    for guest in guests:
        r = await http.post(f"{base}/api/quick-match", headers=guest.headers, json=seating)
        assert r.status_code == 200, r.text
        tickets.append(r.json()["ticket"])
    answers = await asyncio.gather(*(
        http.get(f"{base}/api/quick-match/{ticket}?wait=10", headers=guest.headers)
        for guest, ticket in zip(guests, tickets, strict=True)))
    got = [a.json() for a in answers]
    assert {a["status"] for a in got} == {"matched"}, got
    assert len({a["table"] for a in got}) == 1, got
    return got[0]


def round_played(state: dict[str, Any]) -> bool:
    return state["table"]["round"] >= 2 or state["table"]["phase"] != "playing" or bool(
        state["view"]["rounds"])


def test_four_guests_meet_in_a_team_pool_and_play_a_round(tmp_path: Any) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        guests = [await new_guest(base, http, n) for n in ("Amira", "Badr", "Camil", "Dana")]
        ticket = await quick_table(base, http, guests, variant="serbian", players=4,
                                   teams=True)
        assert (ticket["players"], ticket["teams"], ticket["pool"]) == (4, True, "serbian:2x2")
        assert ticket["rated"] is False
        for guest in guests:
            await guest.connect(ticket["table"])
        try:
            state = await guests[0].until(
                lambda s: all(p["name"] for p in s["table"]["players"]))
            assert state["table"]["seats"] == 4 and state["table"]["teams"] is True
            await play_turns(guests, lambda s: bool(s["view"]["results"]))
            final = await guests[0].until(lambda s: bool(s["view"]["results"]))
            assert len(final["view"]["results"][0]["totals"]) == 2  # two sides
        finally:
            for guest in guests:
                await guest.close()

    serve(tmp_path, scenario)


def test_three_alone(tmp_path: Any) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        guests = [await new_guest(base, http, n) for n in ("Eli", "Fadi", "Ghada")]
        ticket = await quick_table(base, http, guests, variant="lebanese", players=3)
        info = (await http.get(f"{base}/api/tables/{ticket['table']}")).json()["table"]
        assert (info["seats"], info["teams"], info["kind"]) == (3, False, "quick")
        assert sorted(p["name"] for p in info["players"]) == ["Eli", "Fadi", "Ghada"]

    serve(tmp_path, scenario)


def test_a_rated_two_by_two_moves_all_four_ratings(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        people = [await account(base, http, n) for n in ("Amira", "Badr", "Camil", "Dana")]
        ticket = await quick_table(base, http, people, variant="lebanese", players=4,
                                   teams=True)
        assert ticket["rated"] is True
        for guest in people:
            await guest.connect(ticket["table"])
        try:
            # everyone makes a play of their own, then one resigns for their side
            await play_turns(people, lambda s: len(s["view"]["plays"]) >= 4)
            state = await people[0].until(lambda s: len(s["view"]["plays"]) >= 4)
            resigner = next(g for g in people if g.nickname == state["table"]["players"][1]
                            ["name"])
            await resigner.send({"type": "resign"})
            final = await people[0].until(over)
        finally:
            for guest in people:
                await guest.close()
        result = final["table"]["result"]
        assert result["winner"] == 0  # seat 1's side resigned: seats 0 and 2 win
        (winners, losers) = rate_sides([[Rating(), Rating()], [Rating(), Rating()]], [0, 1])
        after = {0: winners[0], 2: winners[1], 1: losers[0], 3: losers[1]}
        assert [r["seat"] for r in result["ratings"]] == [0, 1, 2, 3]
        for shown in result["ratings"]:
            assert shown["before"] == 1500
            assert shown["after"] == round(after[shown["seat"]].rating)
        assert result["ratings"][0]["change"] > 0 and result["ratings"][1]["change"] < 0
        for guest in people:
            r = await http.get(f"{base}/api/me", headers=guest.headers)
            assert r.json()["ratings"]["lebanese"]["games"] == 1

    serve(backend, scenario)


def test_an_open_table_is_listed_and_strangers_pick_their_seats(tmp_path: Any) -> None:
    """Item 8: a table its creator lists is in the lobby's open tables (who sits where),
    and anyone takes a free seat in one tap, the one they pick; full, it leaves the list."""
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        host, *others = [await new_guest(base, http, n) for n in ("Host", "Badr", "Camil", "Dana")]
        r = await http.post(f"{base}/api/tables/private", headers=host.headers,
                            json={"variant": "serbian", "players": 4, "teams": True,
                                  "listed": True})
        assert r.status_code == 201, r.text
        table = r.json()["table"]["id"]
        hidden = await http.post(f"{base}/api/tables/private", headers=host.headers,
                                 json={"variant": "egyptian"})
        assert hidden.status_code == 201
        listed = (await http.get(f"{base}/api/tables/open")).json()["tables"]
        assert [t["table"] for t in listed] == [table]
        assert [s["kind"] for s in listed[0]["seats"]] == ["human", "empty", "empty", "empty"]
        assert [s["side"] for s in listed[0]["seats"]] == [0, 1, 0, 1]
        r = await http.post(f"{base}/api/tables/{table}/sit", headers=others[0].headers,
                            json={"seat": 2})  # beside the host: their partner
        assert r.status_code == 200 and r.json()["seat"] == 2, r.text
        r = await http.post(f"{base}/api/tables/{table}/sit", headers=others[1].headers,
                            json={"seat": 2})
        assert r.status_code == 409 and r.json()["error"]["code"] == "table/seat_taken"
        r = await http.post(f"{base}/api/tables/{hidden.json()['table']['id']}/sit",
                            headers=others[1].headers, json={})
        assert r.status_code == 404  # not listed: by its invite only
        for guest in others[1:]:
            r = await http.post(f"{base}/api/tables/{table}/sit", headers=guest.headers,
                                json={})
            assert r.status_code == 200, r.text
        await asyncio.sleep(1.1)  # the list is answered again for a second
        assert (await http.get(f"{base}/api/tables/open")).json()["tables"] == []

    serve(tmp_path, scenario)
