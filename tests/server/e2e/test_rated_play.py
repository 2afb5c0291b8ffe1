"""Rated play end to end against a real ``basra serve`` (issue 12), on SQLite and on
PostgreSQL: two accounts play a rated quick match and both ratings move as Glicko-2 says;
guests and bot games are never rated; a rated private table; a match resigned before both
sides played is aborted without rating; a player who drops is played by the bot and the
result counts; the pool pairs by rating."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

import httpx
from sqlalchemy import insert

from basra.ratings import Rating, rate_game
from basra.store import open_store
from basra.store.schema import ratings as table
from basra.store.sql import SqlStore
from server.e2e.test_accounts import prove_by_password
from server_harness import (
    Backend,
    Guest,
    backend_fixture,  # noqa: F401
    join,
    new_guest,
    play_out,
    private_table,
    serve,
)


async def account(base: str, http: httpx.AsyncClient, name: str) -> Guest:
    """A guest who claims an account with a password."""
    guest = await new_guest(base, http, name)
    r = await http.post(f"{base}/api/account", headers=guest.headers,
                        json={"username": name, "password": f"{name}-secret-pass"})
    assert r.status_code == 201, r.text
    await prove_by_password(base, http, guest, f"{name}-secret-pass")  # as the browser does
    return guest


async def me(base: str, http: httpx.AsyncClient, guest: Guest) -> dict[str, Any]:
    r = await http.get(f"{base}/api/me", headers=guest.headers)
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


async def quick_pair(base: str, http: httpx.AsyncClient, first: Guest, second: Guest,
                     variant: str = "egyptian") -> dict[str, Any]:
    """Both ask for a quick match and wait: the ticket both got (matched)."""
    tickets = []
    for guest in (first, second):
        r = await http.post(f"{base}/api/quick-match", headers=guest.headers,
                            json={"variant": variant})
        tickets.append(r.json()["ticket"])
    answers = await asyncio.gather(*(
        http.get(f"{base}/api/quick-match/{ticket}?wait=10", headers=guest.headers)
        for guest, ticket in zip((first, second), tickets, strict=True)))
    got = [a.json() for a in answers]
    for i, guest in enumerate((first, second)):  # (paired as the other's wait ran out)
        for _ in range(2):
            if got[i]["status"] != "waiting":
                break
            got[i] = (await http.get(f"{base}/api/quick-match/{tickets[i]}?wait=10",
                                     headers=guest.headers)).json()
    assert got[0]["status"] == got[1]["status"] == "matched", got
    assert got[0]["table"] == got[1]["table"]
    return got[0]


async def at_a_rated_quick_table(base: str, http: httpx.AsyncClient
                                 ) -> tuple[Guest, Guest]:
    """Accounts Amira and Omar paired by quick match, both connected."""
    amira = await account(base, http, "Amira")
    omar = await account(base, http, "Omar")
    ticket = await quick_pair(base, http, amira, omar)
    await amira.connect(ticket["table"])
    await omar.connect(ticket["table"])
    return amira, omar


async def each_plays_once(amira: Guest, omar: Guest) -> None:
    """Both make a play of their own, in turn (so that a rated match counts)."""
    for _ in range(2):
        state = await amira.until(lambda s: s["table"]["phase"] == "playing"
                                  and s["view"]["turn"] is not None, 15)
        player = amira if state["view"]["turn"] == state["you"] else omar
        mine = await player.until(player.my_turn, 15)
        await player.play_legal(0)
        await amira.until(lambda s, v=mine["version"]: s["version"] > v)


async def a_resigned_rated_match(base: str, http: httpx.AsyncClient
                                 ) -> tuple[Guest, Guest, str, dict[str, Any]]:
    """Accounts Amira and Omar at a rated private table: each plays once, then Amira
    resigns; both, the table and Omar's final state."""
    amira = await account(base, http, "Amira")
    omar = await account(base, http, "Omar")
    table_id, code = await private_table(base, http, amira, rated=True)
    await join(base, http, omar, code)
    await amira.connect(table_id)
    await omar.connect(table_id)
    try:
        await each_plays_once(amira, omar)
        await amira.send({"type": "resign"})
        final = await omar.until(lambda s: s["table"]["status"] == "finished")
    finally:
        await amira.close()
        await omar.close()
    return amira, omar, table_id, final


def expected(result: dict[str, Any]) -> tuple[Rating, Rating]:
    """Seat 0's and seat 1's ratings after their first game, by Glicko-2."""
    winner = result["winner"]
    score = 0.5 if winner is None else 1.0 if winner == 0 else 0.0
    return rate_game(Rating(), Rating(), score)


def test_two_accounts_play_a_rated_quick_match(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await account(base, http, "Amira")
        omar = await account(base, http, "Omar")
        ticket = await quick_pair(base, http, amira, omar)
        assert ticket["rated"] is True
        for guest in (amira, omar):
            await guest.connect(ticket["table"])
        try:
            first = await amira.until(lambda s: s["table"]["players"][1]["name"] != "")
            assert first["table"]["rated"] is True
            assert [p["rating"] for p in first["table"]["players"]] == [
                {"rating": 1500, "label": "1500?"}] * 2
            final = await play_out(amira, omar)
        finally:
            await amira.close()
            await omar.close()
        result = final["table"]["result"]
        seats = {p["name"]: p["seat"] for p in final["table"]["players"]}
        after = expected(result)
        for seat, shown in enumerate(result["ratings"]):
            assert shown["before"] == 1500 and shown["seat"] == seat
            assert shown["after"] == round(after[seat].rating)
            assert shown["change"] == round(after[seat].rating) - 1500
        for guest in (amira, omar):
            rating = (await me(base, http, guest))["ratings"]["egyptian"]
            mine = after[seats[guest.nickname]]
            assert rating["rating"] == round(mine.rating)
            assert rating["games"] == 1 and rating["provisional"] is True
            assert rating["label"] == f"{round(mine.rating)}?"
        history = (await http.get(f"{base}/api/history", headers=amira.headers)).json()
        assert history["matches"][0]["table"] == ticket["table"]

    serve(backend, scenario)


def test_guests_and_bot_games_are_never_rated(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await account(base, http, "Amira")
        guest = await new_guest(base, http, "Gaston")
        ticket = await quick_pair(base, http, amira, guest)  # a provisional account
        assert ticket["rated"] is False
        info = (await http.get(f"{base}/api/tables/{ticket['table']}")).json()
        assert info["table"]["rated"] is False
        r = await http.post(f"{base}/api/tables/bot", headers=amira.headers,
                            json={"rated": True})
        assert r.status_code == 201 and r.json()["table"]["rated"] is False
        r = await http.post(f"{base}/api/tables/private", headers=guest.headers,
                            json={"rated": True})
        assert r.status_code == 403
        assert r.json()["error"]["code"] == "table/rated_needs_account"
        r = await http.post(f"{base}/api/tables/private", headers=amira.headers,
                            json={"rated": True, "variant": "lebanese", "players": 3})
        # a rated table of three (issue 28): every seat an account's
        assert r.status_code == 201 and r.json()["table"]["rated"] is True

    serve(backend, scenario)


def test_a_rated_private_table_resigned_before_both_played_is_aborted(
        backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await account(base, http, "Amira")
        omar = await account(base, http, "Omar")
        guest = await new_guest(base, http, "Gaston")
        table_id, code = await private_table(base, http, amira, rated=True)
        r = await http.post(f"{base}/api/tables/join", headers=guest.headers,
                            json={"invite_code": code})
        assert r.status_code == 403
        assert r.json()["error"]["code"] == "table/rated_needs_account"
        await join(base, http, omar, code)
        await amira.connect(table_id)
        await omar.connect(table_id)
        try:
            state = await amira.until(lambda s: s["table"]["phase"] == "playing", 15)
            assert state["table"]["rated"] is True
            await omar.send({"type": "resign"})  # nobody has played yet
            final = await amira.until(lambda s: s["table"]["status"] == "finished")
        finally:
            await amira.close()
            await omar.close()
        result = final["table"]["result"]
        assert result["aborted"] is True and "ratings" not in result
        assert (await me(base, http, amira))["ratings"] == {}
        assert (await me(base, http, omar))["ratings"] == {}

    serve(backend, scenario)


def test_a_resigned_rated_match_after_both_played_is_lost_and_rated(
        backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        _, omar, _, final = await a_resigned_rated_match(base, http)
        result = final["table"]["result"]
        assert result["winner"] == 1 and result["resigned"] == 0
        assert "aborted" not in result
        lost, won = rate_game(Rating(), Rating(), 0.0)
        assert [r["after"] for r in result["ratings"]] == [round(lost.rating),
                                                           round(won.rating)]
        assert (await me(base, http, omar))["ratings"]["egyptian"]["rating"] == round(
            won.rating)

    serve(backend, scenario)


def test_a_player_who_drops_is_played_by_the_bot_and_the_result_counts(
        backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira, omar = await at_a_rated_quick_table(base, http)
        try:
            state = await omar.until(lambda s: s["table"]["phase"] == "playing", 15)
            omar_seat = state["you"]
            mine = await omar.until(omar.my_turn, 15)  # Omar plays once, then is gone for
            await omar.play_legal(0)                   # good: the bot plays his seat
            await omar.until(lambda s: s["version"] > mine["version"])
            await omar.close()
            final = await play_out(amira)
        finally:
            await amira.close()
        result = final["table"]["result"]
        after = expected(result)
        assert result["ratings"][omar_seat]["after"] == round(after[omar_seat].rating)
        rating = (await me(base, http, omar))["ratings"]["egyptian"]
        assert rating["games"] == 1 and rating["rating"] == round(after[omar_seat].rating)

    serve(backend, scenario)


def test_a_player_who_never_plays_leaves_the_match_unrated(backend: Backend) -> None:
    """Matched, but gone before a play of their own: the bot plays the seat to the end,
    and the match is aborted, not rated."""
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira, omar = await at_a_rated_quick_table(base, http)
        try:
            await omar.until(lambda s: s["view"]["hand"] != [], 15)
            await omar.close()
            final = await play_out(amira)
        finally:
            await amira.close()
        result = final["table"]["result"]
        assert result["aborted"] is True and "ratings" not in result
        assert (await me(base, http, omar))["ratings"] == {}

    serve(backend, scenario)


def test_the_pool_pairs_close_ratings_and_keeps_guests_apart(backend: Backend) -> None:
    """Four settled accounts, two strong and two weaker, ask at once: the pool pairs the
    strong together and the weaker together; a guest waits rather than meet a settled
    player."""
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        names = ("Amira", "Badr", "Camil", "Dina")
        players = [await account(base, http, n) for n in names]
        ratings = {"Amira": 1500, "Badr": 1890, "Camil": 1510, "Dina": 1900}
        await settle(backend, {p.player_id: ratings[p.nickname] for p in players})
        guest = await new_guest(base, http, "Gaston")
        tickets = {}
        for p in (*players, guest):
            r = await http.post(f"{base}/api/quick-match", headers=p.headers, json={})
            tickets[p.nickname] = r.json()["ticket"]
        answers = {}
        for p in players:
            r = await http.get(f"{base}/api/quick-match/{tickets[p.nickname]}?wait=10",
                               headers=p.headers)
            answers[p.nickname] = r.json()
        assert answers["Amira"]["table"] == answers["Camil"]["table"]
        assert answers["Badr"]["table"] == answers["Dina"]["table"]
        assert answers["Amira"]["table"] != answers["Badr"]["table"]
        assert all(a["rated"] for a in answers.values())
        r = await http.get(f"{base}/api/quick-match/{tickets['Gaston']}?wait=0.3",
                           headers=guest.headers)
        assert r.json()["status"] == "waiting"

    serve(backend, scenario)


async def settle(backend: Backend, ratings: dict[str, float]) -> None:
    """Give these players a settled rating (deviation 60) in egyptian, in the store."""
    store = open_store(backend.db_url, backend.data_dir)
    await store.open()
    try:
        assert isinstance(store, SqlStore)
        async with store.engine.begin() as connection:
            await connection.execute(insert(table), [
                {"player_id": pid, "variant": "egyptian", "rating": rating,
                 "deviation": 60.0, "volatility": 0.06, "games": 30,
                 "rated_at": datetime.now(UTC)} for pid, rating in ratings.items()])
    finally:
        await store.close()
