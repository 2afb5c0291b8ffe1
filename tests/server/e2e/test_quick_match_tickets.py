"""Quick-match tickets without ghosts (issue 8), end to end: a ticket whose owner went away
(a long poll given up on) lapses and is paired with nobody; a player matched who never opens
the table is dropped from the start, the other requeued with the bot offer and paired at the
next pass; a long poll ends when the bot offer falls due."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import httpx
import pytest

from server_harness import (
    Backend,
    backend_fixture,  # noqa: F401  (the backend fixture)
    new_guest,
    next_message,
    serve,
)

QUICK = {"ticket_lapse_seconds": 1.0, "arrival_seconds": 1.0,
         "quick_match_bot_offer_seconds": 20.0}


def test_a_ticket_lapses_when_its_owner_goes_away(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        ghost = await new_guest(base, http, "Ghost")
        real = await new_guest(base, http, "Real")
        r = await http.post(f"{base}/api/quick-match", headers=ghost.headers, json={})
        assert r.json()["status"] == "waiting"
        ticket = r.json()["ticket"]
        # a long poll that the client gives up on does not keep the ticket alive
        with pytest.raises(httpx.ReadTimeout):
            await http.get(f"{base}/api/quick-match/{ticket}?wait=25",
                           headers=ghost.headers, timeout=0.3)
        await asyncio.sleep(2.5)
        r = await http.post(f"{base}/api/quick-match", headers=real.headers, json={})
        assert r.json()["status"] == "waiting", "paired with a ghost"
        gone = await http.get(f"{base}/api/quick-match/{ticket}", headers=ghost.headers)
        assert gone.status_code == 404 and gone.json()["error"]["code"] == "queue/not_found"
        health = (await http.get(f"{base}/health")).json()
        assert health["memory"]["tickets"] == 1

    serve(backend, scenario, **QUICK)


def test_a_matched_player_who_never_connects_is_dropped_from_the_start(
        backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await new_guest(base, http, "Amira")
        ghost = await new_guest(base, http, "Ghost")
        omar = await new_guest(base, http, "Omar")
        first = (await http.post(f"{base}/api/quick-match", headers=ghost.headers,
                                 json={})).json()
        poll = asyncio.create_task(http.get(
            f"{base}/api/quick-match/{first['ticket']}?wait=10", headers=ghost.headers))
        await asyncio.sleep(0.1)
        matched = (await http.post(f"{base}/api/quick-match", headers=amira.headers,
                                   json={})).json()
        matched = (await http.get(f"{base}/api/quick-match/{matched['ticket']}?wait=5",
                                  headers=amira.headers)).json()
        assert matched["status"] == "matched"
        await poll  # the ghost was matched, and never opens the table
        await amira.connect(matched["table"])
        try:
            started = time.monotonic()
            state = await amira.until(lambda s: s["table"]["status"] == "abandoned", 10)
            assert state["view"]["hand"] == []  # no card was dealt, no clock ran
            assert time.monotonic() - started < 5
            requeued = await next_message(amira, "requeued")
            assert requeued["bot_offer"] is True
            ticket = requeued["ticket"]
            r = (await http.get(f"{base}/api/quick-match/{ticket}",
                                headers=amira.headers)).json()
            assert r["status"] == "waiting" and r["bot_offer"] is True
            # the next player is matched with Amira at the next pairing
            third = (await http.post(f"{base}/api/quick-match", headers=omar.headers,
                                     json={})).json()
            third = (await http.get(f"{base}/api/quick-match/{third['ticket']}?wait=5",
                                    headers=omar.headers)).json()
            assert third["status"] == "matched"
            again = (await http.get(f"{base}/api/quick-match/{ticket}",
                                    headers=amira.headers)).json()
            assert again["table"] == third["table"]
        finally:
            await amira.close()

    serve(backend, scenario, **QUICK)


def test_a_long_poll_ends_when_the_bot_offer_falls_due(tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await new_guest(base, http, "Amira")
        ticket = (await http.post(f"{base}/api/quick-match", headers=amira.headers,
                                  json={})).json()
        assert ticket["bot_offer"] is False
        started = time.monotonic()
        r = await http.get(f"{base}/api/quick-match/{ticket['ticket']}?wait=25",
                           headers=amira.headers, timeout=30)
        assert r.json()["bot_offer"] is True and r.json()["status"] == "waiting"
        assert time.monotonic() - started < 5

    serve(tmp_path, scenario, quick_match_bot_offer_seconds=1.0)
