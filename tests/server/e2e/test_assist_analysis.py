"""Every rated match is analysed in the background (issue 31, point 4), end to end: a real
`basra serve` with the background analysis on (the other tests turn it off: it costs a
core for seconds a match). A rated match ends, nobody asks, and its analysis is there and
each person's decisions are summarised for the engine-assistance statistic; a bot game is
never analysed unasked."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from basra.store import open_store
from server.e2e.test_rated_play import a_resigned_rated_match
from server_harness import (
    Backend,
    backend_fixture,  # noqa: F401
    new_guest,
    serve,
)


async def analysis_of(base: str, http: httpx.AsyncClient, table_id: str,
                      wait: float = 60) -> dict[str, Any]:
    """The analysis's status once it is done (or as it stands after ``wait`` seconds)."""
    for _ in range(int(wait / 0.2)):
        known: dict[str, Any] = (await http.get(
            f"{base}/api/replays/{table_id}/analysis")).json()
        if known["status"] in ("done", "failed"):
            return known
        await asyncio.sleep(0.2)
    return known


def test_a_rated_match_is_analysed_unasked_and_summarised(backend: Backend) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira, omar, table_id, final = await a_resigned_rated_match(base, http)
        assert final["table"]["result"]["ratings"]
        known = await analysis_of(base, http, table_id)
        assert known["status"] == "done", known

        # A bot game (never rated) is left alone.
        guest = await new_guest(base, http, "Hala")
        bot = await http.post(f"{base}/api/tables/bot", headers=guest.headers,
                              json={"bot_level": "random"})
        table = bot.json()["table"]["id"]
        await guest.connect(table)
        await guest.send({"type": "resign"})
        await guest.until(lambda s: s["table"]["status"] in ("finished", "abandoned"))
        await guest.close()
        await asyncio.sleep(0.5)
        assert (await http.get(f"{base}/api/replays/{table}/analysis")).json()[
            "status"] == "none"

        # Each person's game is summarised for the statistic, once the analysis is done.
        store = open_store(backend.db_url, backend.data_dir)
        await store.open()
        try:
            for person in (amira, omar):
                rows: list[Any] = []
                for _ in range(50):
                    rows = await store.assist_games(person.player_id, 20)
                    if rows:
                        break
                    await asyncio.sleep(0.1)
                assert len(rows) == 1, person.nickname
                rating, summary = rows[0]
                assert rating > 0 and "decisions" in summary
        finally:
            await store.close()

    serve(backend, scenario, assist_analysis=True)
