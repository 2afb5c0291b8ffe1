"""The tournaments' HTTP API and socket against a real server: the list, making an event
(accounts only, three to come at most), joining (passwords, rated events, the end),
withdrawing and pausing, and every refusal with its code."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
from websockets.asyncio.client import connect

from server.e2e.test_accounts import an_account, code_of
from server.e2e.tournament_kit import an_event
from server_harness import new_guest, serve


def test_making_listing_joining_and_leaving_an_event(tmp_path: Any) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        guest = await new_guest(base, http, "Guest")
        r = await http.post(f"{base}/api/tournaments", headers=guest.headers,
                            json={"name": "Cup", "minutes": 30})
        assert (r.status_code, code_of(r)) == (403, "tournament/needs_account")
        owner = await an_account(base, http, "Organiser")
        r = await http.post(f"{base}/api/tournaments", headers=owner.headers,
                            json={"name": "Cup", "format": "swiss", "rounds": 2})
        assert (r.status_code, code_of(r)) == (400, "tournament/bad_options")
        assert "3 to 11 rounds" in r.json()["error"]["message"]

        open_event = await an_event(base, http, owner, starts_in=600, minutes=30,
                                    rated=False)
        rated = await an_event(base, http, owner, starts_in=600, minutes=30,
                               name="Rated Cup")
        hidden = await an_event(base, http, owner, starts_in=600, format="swiss", rounds=3,
                                private=True, password="sesame", rated=False)
        assert hidden["private"] and hidden["password"]
        r = await http.post(f"{base}/api/tournaments", headers=owner.headers,
                            json={"name": "Fourth", "minutes": 30})
        assert (r.status_code, code_of(r)) == (429, "tournament/too_many")

        listed = (await http.get(f"{base}/api/tournaments")).json()
        assert {e["id"] for e in listed["upcoming"]} == {open_event["id"], rated["id"]}
        assert listed["running"] == [] and listed["finished"] == []

        # Joining: a guest joins a casual event, not a rated one; a password is asked.
        path = f"{base}/api/tournaments"
        r = await http.post(f"{path}/{open_event['id']}/join", headers=guest.headers,
                            json={})
        assert r.json() == {"entrant": guest.player_id, "status": "active"}
        r = await http.post(f"{path}/{rated['id']}/join", headers=guest.headers, json={})
        assert (r.status_code, code_of(r)) == (403, "tournament/needs_account")
        r = await http.post(f"{path}/{hidden['id']}/join", headers=guest.headers,
                            json={"password": "open"})
        assert (r.status_code, code_of(r)) == (403, "tournament/password")
        r = await http.post(f"{path}/{hidden['id']}/join", headers=guest.headers,
                            json={"password": "sesame"})
        assert r.status_code == 200
        r = await http.post(f"{path}/{hidden['id']}/pause", headers=guest.headers)
        assert (r.status_code, code_of(r)) == (400, "tournament/bad_options")
        r = await http.post(f"{path}/{hidden['id']}/withdraw", headers=guest.headers)
        assert r.json()["status"] == "withdrawn"
        r = await http.post(f"{path}/{hidden['id']}/join", headers=guest.headers, json={})
        assert r.json()["status"] == "active"  # back, no password asked of an entrant
        r = await http.post(f"{path}/{open_event['id']}/pause", headers=guest.headers)
        assert r.json()["status"] == "paused"
        r = await http.post(f"{path}/{rated['id']}/withdraw", headers=guest.headers)
        assert (r.status_code, code_of(r)) == (409, "tournament/not_joined")
        r = await http.get(f"{path}/nope")
        assert (r.status_code, code_of(r)) == (404, "tournament/not_found")

        # One event, as its page gets it (the standings at most a second old), and its
        # socket (a watcher's, then a player's).
        state = await fresh(http, f"{path}/{open_event['id']}",
                            lambda s: [r["status"] for r in s["standings"]] == ["paused"])
        assert state["type"] == "tournament" and state["event"]["status"] == "upcoming"
        (row,) = state["standings"]
        assert (row["entrant"], row["status"], row["score"]) == (guest.player_id, "paused", 0)
        ws = base.replace("http://", "ws://")
        async with connect(f"{ws}/ws/tournaments/{open_event['id']}") as page:
            first = json.loads(await page.recv())
            assert first["type"] == "tournament" and first["event"]["id"] == open_event["id"]
            await http.post(f"{path}/{open_event['id']}/join", headers=guest.headers,
                            json={})
            # (the pause's own news may come first, pushed late on a loaded machine)
            news = json.loads(await page.recv())
            while news.get("type") != "standings" or news["rows"][0]["status"] == "paused":
                news = json.loads(await asyncio.wait_for(page.recv(), 10))
            assert news["type"] == "standings"
            assert news["rows"][0]["entrant"] == guest.player_id
            assert news["rows"][0]["status"] == "active"
        async with connect(f"{ws}/ws/tournaments/nope") as page:
            refused = json.loads(await page.recv())
            assert refused["code"] == "tournament/not_found"
        results = (await http.get(f"{path}/{open_event['id']}/results")).json()
        assert results["rounds"] == [] and results["podium"] == []

    serve(tmp_path, scenario, tournament_tick_seconds=0.1)


async def fresh(http: httpx.AsyncClient, url: str, ready: Any) -> dict[str, Any]:
    """The event as ``url`` reads it once ``ready`` says so (a read sees the standings
    counted at most a second before)."""
    for _ in range(40):
        state: dict[str, Any] = (await http.get(url)).json()
        if ready(state):
            return state
        await asyncio.sleep(0.1)
    raise AssertionError(f"{url} never got there: {state}")


def test_a_join_to_an_event_nobody_directs_yet_reaches_its_pages(tmp_path: Any) -> None:
    """Two hours before its start an event has no director: a join taken then still
    reaches the pages, as their pages of the standings and the counts."""
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        owner = await an_account(base, http, "Organiser")
        event = await an_event(base, http, owner, starts_in=7200, minutes=30, rated=False)
        guest = await new_guest(base, http, "Early Bird")
        ws = base.replace("http://", "ws://")
        async with connect(f"{ws}/ws/tournaments/{event['id']}") as page:
            first = json.loads(await page.recv())
            assert (first["count"], first["standings"]) == (0, [])
            r = await http.post(f"{base}/api/tournaments/{event['id']}/join",
                                headers=guest.headers, json={})
            assert r.status_code == 200
            one = await a_page(page, 1)
            assert [(row["entrant"], row["rank"]) for row in one["rows"]] == [
                (guest.player_id, 1)]

    serve(tmp_path, scenario, tournament_tick_seconds=0.1)


async def a_page(socket: Any, number: int) -> dict[str, Any]:
    """The next ``standings`` message of page ``number`` (the news of the page shown before
    may come first: it was on its way when the page was asked for)."""
    for _ in range(20):
        message: dict[str, Any] = json.loads(await asyncio.wait_for(socket.recv(), 10))
        if message["type"] == "standings" and message["page"] == number:
            return message
    raise AssertionError(f"page {number} never came")


def test_a_page_hears_its_own_page_of_the_standings_and_asks_for_others(tmp_path: Any) -> None:
    """45 entrants make three pages of 20: a player's page opens on the page of their own
    row (and hears that row by itself), a watcher's on the first or the one it names; a
    page asked for over the socket comes whole, a join is heard on every page, and what
    is not an ask is dropped."""
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        owner = await an_account(base, http, "Organiser")
        event = await an_event(base, http, owner, starts_in=600, minutes=30, rated=False)
        path = f"{base}/api/tournaments/{event['id']}"
        guests = [await new_guest(base, http, f"Player {n:02}") for n in range(46)]
        for guest in guests[:45]:
            r = await http.post(f"{path}/join", headers=guest.headers, json={})
            assert r.status_code == 200
        state = await fresh(http, f"{path}?page=3", lambda s: s["count"] == 45)
        assert (state["page"], state["pages"], state["count"]) == (3, 3, 45)
        assert len(state["standings"]) == 5
        assert [row["rank"] for row in state["standings"]] == list(range(41, 46))
        last = state["standings"][-1]["entrant"]
        who = next(g for g in guests if g.player_id == last)
        assert (await http.get(f"{path}?page=0")).status_code == 422

        ws = base.replace("http://", "ws://")
        async with connect(f"{ws}/ws/tournaments/{event['id']}?auth=1") as mine, \
                connect(f"{ws}/ws/tournaments/{event['id']}?page=2") as watcher:
            await mine.send(json.dumps({"type": "hello", "token": who.token}))
            first = json.loads(await mine.recv())
            assert (first["type"], first["page"]) == ("tournament", 3)
            own = json.loads(await mine.recv())
            assert (own["type"], own["row"]["entrant"], own["row"]["rank"]) == (
                "mine", last, 45)
            seen = json.loads(await watcher.recv())
            assert (seen["page"], len(seen["standings"])) == (2, 20)
            assert seen["standings"][0]["rank"] == 21

            await mine.send("not json")
            await mine.send(json.dumps({"type": "page", "page": "two"}))
            await mine.send(json.dumps({"type": "page", "page": 1}))
            one = await a_page(mine, 1)
            assert len(one["rows"]) == 20
            assert [row["rank"] for row in one["rows"]] == list(range(1, 21))
            await mine.send(json.dumps({"type": "page", "page": 99}))  # the last there is
            await a_page(mine, 3)
            await mine.send(json.dumps({"type": "page", "page": 2}))
            await a_page(mine, 2)
            await mine.send(json.dumps({"type": "page", "me": True}))
            back = await a_page(mine, 3)
            assert last in {row["entrant"] for row in back["rows"]}

            # A 46th entrant: every page hears the new count.
            r = await http.post(f"{path}/join", headers=guests[45].headers, json={})
            assert r.status_code == 200
            for page in (mine, watcher):
                for _ in range(20):
                    news = json.loads(await asyncio.wait_for(page.recv(), 10))
                    if news["type"] == "counts" and news["count"] == 46:
                        break
                assert (news["type"], news["count"], news["pages"]) == ("counts", 46, 3)

    serve(tmp_path, scenario, tournament_tick_seconds=0.1)
