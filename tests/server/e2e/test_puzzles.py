"""Puzzles end to end (``/api/puzzles/...``, docs/PROTOCOL.md 1.8): a real server on SQLite
and on PostgreSQL (the PostgreSQL runs fail, never skip, when it is down).

A guest is served a puzzle near their rating, solves it along the shipped solution (the
test reads it from :mod:`basra.puzzles`, the server never sends it before the end) and is
rated once, as :func:`basra.ratings.rate_game` says; a wrong play, a hint or the solution
asked for first make the first try a loss; later tries rate nothing. The daily puzzle is
the same for everyone; a streak counts only what the server re-walks; bad input is a coded
one-line refusal."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from basra.puzzles.model import Puzzle
from basra.puzzles.shipped import by_id, load
from basra.ratings import Rating, rate_game
from basra.server.learning.puzzles import PUZZLE_DEVIATION
from server_harness import (
    Backend,
    backend_fixture,  # noqa: F401  (the backend fixture)
    new_guest,
    serve,
)


def mine(puzzle: Puzzle) -> list[str]:
    """The player's plays along the main line."""
    return [play for seat, play, _ in puzzle.main_line() if seat == puzzle.you]


def wrong_first(puzzle: Puzzle) -> str:
    """A legal first play that is not accepted."""
    accepted = set(puzzle.tree.accepted)
    return next(play for play, _ in puzzle.tree.values if play not in accepted)


async def solve(base: str, http: httpx.AsyncClient, headers: dict[str, str],
                puzzle: Puzzle) -> dict[str, Any]:
    plays: list[str] = []
    step: dict[str, Any] = {}
    for play in mine(puzzle):
        plays.append(play)
        r = await http.post(f"{base}/api/puzzles/{puzzle.id}/play", headers=headers,
                            json={"plays": plays})
        assert r.status_code == 200, r.text
        step = r.json()
        assert step["verdict"] in ("right", "solved"), step
        assert "rated" in step
    assert step["verdict"] == "solved"
    return step


def code_of(r: httpx.Response) -> str:
    code: str = r.json()["error"]["code"]
    return code


def test_a_puzzle_solved_rates_once_as_glicko_says(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        guest = await new_guest(base, http, "Amal")
        r = await http.get(f"{base}/api/puzzles/next?variant=egyptian",
                           headers=guest.headers)
        assert r.status_code == 200, r.text
        shown = r.json()
        assert "tree" not in shown and "solution" not in shown and shown["rated"]
        assert shown["position"]["legal"] and shown["you_rating"] == "1500?"
        # Without a session: practice, and no puzzle rating to show.
        visitor = (await http.get(f"{base}/api/puzzles/next?variant=egyptian")).json()
        assert visitor["rated"] is False and visitor["you_rating"] is None
        puzzle = by_id(shown["id"])
        assert puzzle is not None and puzzle.variant == "egyptian"
        step = await solve(base, http, guest.headers, puzzle)
        expected, _ = rate_game(Rating(), Rating(float(puzzle.rating), PUZZLE_DEVIATION), 1.0)
        assert step["rated"]["solved"] and step["rated"]["after"] == round(expected.rating)
        # Solved again: practice, nothing rated.
        again = await solve(base, http, guest.headers, puzzle)
        assert again["rated"] is None
        me = (await http.get(f"{base}/api/puzzles/me", headers=guest.headers)).json()
        assert me["played"] == 1 and me["solved"] == 1
        # The next puzzle is another one.
        r = await http.get(f"{base}/api/puzzles/next?variant=egyptian", headers=guest.headers)
        assert r.json()["id"] != puzzle.id

    serve(backend, scenario)


def test_a_wrong_play_hint_or_solution_first_is_a_loss(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        guest = await new_guest(base, http, "Badr")
        first = (await http.get(f"{base}/api/puzzles/next?variant=arabic101",
                                headers=guest.headers)).json()
        puzzle = by_id(first["id"])
        assert puzzle is not None
        r = await http.post(f"{base}/api/puzzles/{puzzle.id}/play", headers=guest.headers,
                            json={"plays": [wrong_first(puzzle)]})
        step = r.json()
        assert step["verdict"] == "wrong" and step["cost"] > 0
        assert set(step["accepted"]) == set(puzzle.tree.accepted)
        assert step["rated"] is not None and not step["rated"]["solved"]
        assert step["rated"]["change"] < 0
        # Trying again and solving it rates nothing more.
        assert (await solve(base, http, guest.headers, puzzle))["rated"] is None

        other = (await http.get(f"{base}/api/puzzles/next?variant=arabic101",
                                headers=guest.headers)).json()
        hinted = by_id(other["id"])
        assert hinted is not None and hinted.id != puzzle.id
        r = await http.post(f"{base}/api/puzzles/{hinted.id}/hint", headers=guest.headers,
                            json={"plays": []})
        hint = r.json()
        assert hint["card"] == mine(hinted)[0].split(":")[0]
        assert hint["rated"] is not None and not hint["rated"]["solved"]

        third = (await http.get(f"{base}/api/puzzles/next?variant=arabic101",
                                headers=guest.headers)).json()
        r = await http.post(f"{base}/api/puzzles/{third['id']}/solution",
                            headers=guest.headers)
        solution = r.json()
        shipped = by_id(third["id"])
        assert shipped is not None
        assert solution["best"] == shipped.best_play and solution["margin"] >= 3
        assert solution["rated"] is not None and not solution["rated"]["solved"]
        assert solution["end"]["played"] == shipped.position.played + len(shipped.main_line())
        me = (await http.get(f"{base}/api/puzzles/me", headers=guest.headers)).json()
        assert me["played"] == 3 and me["solved"] == 0

    serve(backend, scenario)


def test_the_daily_puzzle_the_streak_and_no_session(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        one = await new_guest(base, http, "Chadi")
        two = await new_guest(base, http, "Dina")
        a = (await http.get(f"{base}/api/puzzles/daily", headers=one.headers)).json()
        b = (await http.get(f"{base}/api/puzzles/daily", headers=two.headers)).json()
        assert a["id"] == b["id"] and a["mode"] == "daily" and a["day"]
        daily = by_id(a["id"])
        assert daily is not None and daily.line_plays >= 2
        assert (await solve(base, http, one.headers, daily))["rated"]["solved"]

        # Without a session: served and judged, nothing rated.
        anyone = (await http.get(f"{base}/api/puzzles/next")).json()
        puzzle = by_id(anyone["id"])
        assert puzzle is not None and anyone["rated"] is False
        assert (await solve(base, http, {}, puzzle))["rated"] is None

        # A streak: three solved, the fourth missed.
        seed = 4242
        lines: list[list[str]] = []
        ratings = []
        for index in range(3):
            r = await http.get(f"{base}/api/puzzles/streak/{index}?seed={seed}")
            shown = r.json()
            found = by_id(shown["id"])
            assert found is not None and shown["index"] == index
            ratings.append(found.rating)
            assert (await solve(base, http, one.headers, found))["rated"] is None
            lines.append(mine(found))
        r = await http.post(f"{base}/api/puzzles/streak", headers=one.headers,
                            json={"seed": seed, "lines": [*lines, ["2C"]]})
        assert r.json() == {"streak": 3, "best": 3}
        # A claimed streak that was not solved counts for nothing.
        r = await http.post(f"{base}/api/puzzles/streak", headers=two.headers,
                            json={"seed": seed, "lines": [lines[1], lines[0]]})
        assert r.status_code == 422 or r.json()["streak"] == 0
        # Without a session a streak is not kept.
        r = await http.post(f"{base}/api/puzzles/streak", json={"seed": seed, "lines": lines})
        assert r.status_code == 401

    serve(backend, scenario)


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_bad_input_is_a_coded_refusal(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        r = await http.get(f"{base}/api/puzzles/eg-nothing")
        assert r.status_code == 404 and code_of(r) == "puzzle/not_found"
        r = await http.get(f"{base}/api/puzzles/next?variant=whist")
        assert r.status_code == 404 and code_of(r) == "puzzle/unknown_variant"
        first = (await http.get(f"{base}/api/puzzles/next")).json()
        puzzle = by_id(first["id"])
        assert puzzle is not None
        url = f"{base}/api/puzzles/{puzzle.id}/play"
        not_in_hand = next(name for name in ("AS", "2S", "3S", "4S", "5S", "6S")
                           if name not in first["position"]["hand"])
        for plays, code in (([], "puzzle/no_play"), (["xyz"], "puzzle/bad_notation"),
                            ([not_in_hand], "puzzle/illegal_play")):
            r = await http.post(url, json={"plays": plays})
            assert r.status_code in (409, 422) and code_of(r) == code, (plays, r.text)
            assert "\n" not in r.json()["error"]["message"]
        r = await http.post(url, json={"plays": ["2C"] * 25})
        assert r.status_code == 422 and code_of(r) == "request/invalid"
        r = await http.get(f"{base}/api/puzzles/streak/999?seed=1")
        assert r.status_code == 422 and code_of(r) == "puzzle/streak_over"

    serve(backend, scenario)


def test_what_is_rated_is_the_servers_to_say(backend: Backend) -> None:
    """Only a puzzle served rated is rated, once, and it comes back until tried; a puzzle
    opened by its link is practice; a play sent after a wrong one loses the try; first
    tries settled at once by one player all count (none rated from a stale rating)."""
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        guest = await new_guest(base, http, "Eman")
        # A puzzle opened by its link, never served: practice, whatever is sent.
        other = next(p for p in load("serbian"))
        shown = (await http.get(f"{base}/api/puzzles/{other.id}", headers=guest.headers)).json()
        assert shown["rated"] is False and shown["mode"] == "practice"
        assert (await solve(base, http, guest.headers, other))["rated"] is None

        # Served rated: asking again gives the same puzzle until it is tried.
        first = (await http.get(f"{base}/api/puzzles/next?variant=lebanese",
                                headers=guest.headers)).json()
        again = (await http.get(f"{base}/api/puzzles/next?variant=lebanese",
                                headers=guest.headers)).json()
        assert first["id"] == again["id"] and again["rated"]
        linked = (await http.get(f"{base}/api/puzzles/{first['id']}",
                                 headers=guest.headers)).json()
        assert linked["rated"]  # a reloaded page: still the open rated try
        puzzle = by_id(first["id"])
        assert puzzle is not None
        # A wrong first play hidden behind a second one: the try is lost all the same.
        r = await http.post(f"{base}/api/puzzles/{puzzle.id}/play", headers=guest.headers,
                            json={"plays": [wrong_first(puzzle), mine(puzzle)[0]]})
        assert r.status_code == 422 and code_of(r) == "puzzle/after_wrong"
        me = (await http.get(f"{base}/api/puzzles/me", headers=guest.headers)).json()
        assert me["played"] == 1 and me["solved"] == 0
        assert (await solve(base, http, guest.headers, puzzle))["rated"] is None

        # Five tries open at once (a puzzle of each variant and the daily one), then all
        # settled at once: five results, none rated from a stale rating.
        fresh = await new_guest(base, http, "Fadi")
        open_tries = [(await http.get(f"{base}/api/puzzles/daily",
                                      headers=fresh.headers)).json()]
        for variant in ("egyptian", "arabic101", "lebanese", "serbian"):
            open_tries.append((await http.get(f"{base}/api/puzzles/next?variant={variant}",
                                              headers=fresh.headers)).json())
        assert all(t["rated"] for t in open_tries) and len({t["id"] for t in open_tries}) == 5
        found = [by_id(t["id"]) for t in open_tries]
        answers = await asyncio.gather(*(
            http.post(f"{base}/api/puzzles/{p.id}/play", headers=fresh.headers,
                      json={"plays": [wrong_first(p) if i % 2 else mine(p)[0]]})
            for i, p in enumerate(found) if p is not None))
        rated = [a.json()["rated"] for a in answers]
        assert all(r is not None for r in rated[1::2])
        me = (await http.get(f"{base}/api/puzzles/me", headers=fresh.headers)).json()
        assert me["played"] == sum(1 for r in rated if r is not None)
        assert me["played"] >= 2

    serve(backend, scenario)
