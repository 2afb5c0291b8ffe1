"""Ratings cannot be farmed (issue 25, item 4): a rated result needs a whole round and a
minute of play from both sides, accounts a day old with a few finished matches, no run of
aborts, and at most a few rated matches a day between the same two players. The farm of
the report (throwaway accounts that play one card and resign) moves nothing."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from typing import Any

import httpx

from basra.server.config import RatedRules
from server.e2e.test_rated_play import account, each_plays_once, me
from server_harness import (
    Backend,
    Guest,
    backend_fixture,  # noqa: F401  (the backend fixture)
    join,
    private_table,
    serve,
)

OPEN = RatedRules.open()


async def rated_match(base: str, http: httpx.AsyncClient, host: Guest, rival: Guest,
                      *, rival_plays: bool = True) -> dict[str, Any]:
    """A rated private table of ``host`` that ``rival`` joins; both play a card (unless
    not ``rival_plays``), then ``rival`` resigns: the result."""
    table_id, code = await private_table(base, http, host, rated=True)
    await join(base, http, rival, code)
    await host.connect(table_id)
    await rival.connect(table_id)
    try:
        if rival_plays:
            await each_plays_once(host, rival)
        else:
            await rival.until(lambda s: s["table"]["phase"] == "playing", 15)
        await rival.send({"type": "resign"})
        final = await host.until(lambda s: s["table"]["status"] == "finished")
    finally:
        await host.close()
        await rival.close()
    result: dict[str, Any] = final["table"]["result"]
    history = (await http.get(f"{base}/api/history", headers=host.headers)).json()
    assert history["matches"][0]["table"] == table_id
    result["table_rated"] = history["matches"][0]["rated"]
    return result


def test_the_farm_of_the_report_moves_nothing(backend: Backend) -> None:
    """With the rules as served: one card each, then the throwaway resigns, five times."""
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await account(base, http, "Amira")
        for n in range(5):
            throwaway = await account(base, http, f"Throwaway{n}")
            result = await rated_match(base, http, amira, throwaway)
            assert result["aborted"] is True and "ratings" not in result, result
        assert "egyptian" not in (await me(base, http, amira))["ratings"]

    serve(backend, scenario, rated_rules=RatedRules())


def test_new_accounts_and_newcomers_play_unrated(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await account(base, http, "Amira")
        omar = await account(base, http, "Omar")
        result = await rated_match(base, http, amira, omar)
        assert "ratings" not in result and "aborted" not in result
        assert "account is new" in result["unrated"]
        assert result["table_rated"] is False  # kept as the casual match it was

    serve(backend, scenario, rated_rules=replace(OPEN, account_age=timedelta(days=1)))

    async def newcomers(base: str, http: httpx.AsyncClient) -> None:  # the same store
        rania = await account(base, http, "Rania")
        karim = await account(base, http, "Karim")
        first = await rated_match(base, http, rania, karim)
        assert "finished fewer than 1 matches" in first["unrated"]
        second = await rated_match(base, http, rania, karim)  # both have one now
        assert "unrated" not in second and len(second["ratings"]) == 2

    serve(backend, newcomers, rated_rules=replace(OPEN, first_games=1))


def test_one_pair_plays_few_rated_matches_a_day_and_aborts_count(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await account(base, http, "Amira")
        omar = await account(base, http, "Omar")
        for _ in range(2):
            result = await rated_match(base, http, amira, omar)
            assert "unrated" not in result and len(result["ratings"]) == 2
        third = await rated_match(base, http, amira, omar)
        assert "played 2 rated matches against each other" in third["unrated"]
        # Another pair is not held: Layla has never aborted, nor played Amira.
        layla = await account(base, http, "Layla")
        assert "unrated" not in await rated_match(base, http, amira, layla)
        # Layla aborts one (resigns before playing): the next would be rated, but not.
        aborted = await rated_match(base, http, amira, layla, rival_plays=False)
        assert aborted["aborted"] is True
        after = await rated_match(base, http, layla, amira)
        assert "Layla aborted 1 rated matches" in after["unrated"]

    serve(backend, scenario, rated_rules=replace(OPEN, pair_per_day=2, aborts_per_day=1))
