"""Matches that left memory are answered from the store without crowding the live tables:
rebuilt off the event loop, once per match however many ask, kept once finished, and the
answers that need a rebuild limited per address (issue 25, item 1)."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest

from basra.match.records import parse_record
from basra.match.replay import verify
from basra.server.config import Limits
from basra.server.table.actor import Table
from server_harness import (
    Guest,
    bot_table,
    database,
    new_guest,
    next_message,
    over,
    run,
    running_server,
)

EVICT_FAST = {"rematch_window_seconds": 0.2, "sweep_seconds": 0.1}


async def finished_match(base: str, http: httpx.AsyncClient, name: str) -> tuple[Guest, str]:
    """A bot table its guest resigns at once, then leaves: finished and evicted soon."""
    guest = await new_guest(base, http, name)
    table_id = await bot_table(base, http, guest)
    await guest.connect(table_id)
    await guest.until(lambda s: s["view"]["round"] >= 1 and bool(s["view"]["hand"]))
    await guest.send({"type": "resign"})
    await guest.until(over)
    await guest.close()
    return guest, table_id


async def evicted(base: str, http: httpx.AsyncClient, count: int) -> dict[str, Any]:
    """/health's memory once ``count`` tables were let go."""
    for _ in range(100):
        memory: dict[str, Any] = (await http.get(f"{base}/health")).json()["memory"]
        if memory["evicted"] >= count and memory["tables"] == 0:
            return memory
        await asyncio.sleep(0.1)
    raise AssertionError(f"the tables were not let go: {memory}")


def test_a_finished_match_is_rebuilt_once_off_the_loop_however_many_ask(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    on_loop: list[bool] = []
    restore = Table.restore.__func__  # type: ignore[attr-defined]

    def watched(cls: type[Table], *args: Any, **kwargs: Any) -> Table:
        try:
            asyncio.get_running_loop()
            on_loop.append(True)
        except RuntimeError:  # a thread of its own: no loop runs here
            on_loop.append(False)
        table: Table = restore(cls, *args, **kwargs)
        return table

    monkeypatch.setattr(Table, "restore", classmethod(watched))

    async def scenario(base: str) -> None:
        async with httpx.AsyncClient() as http:
            amira, table_id = await finished_match(base, http, "Amira")
            assert (await evicted(base, http, 1))["rebuilt"] == 0

            async def ask(n: int) -> Any:
                which = n % 3
                if which == 0:
                    return (await http.get(f"{base}/api/tables/{table_id}",
                                           headers=amira.headers)).json()
                if which == 1:
                    return (await http.get(f"{base}/api/tables/{table_id}/record")).json()
                late = Guest(base, f"Late {n}")
                await late.connect(table_id)
                final = await late.until(over)
                assert (await next_message(late, "closed"))["reason"] == "finished"
                await late.close()
                return final

            answers = await asyncio.gather(*(ask(n) for n in range(30)))
            info, record, final = answers[0], answers[1], answers[2]
            assert info["table"]["status"] == "finished" and info["seat"] == 0
            assert verify(parse_record(record)).ok
            assert final["view"]["winner"] is not None
            assert all(a == info for a in answers[0::3])
            assert all(a == record for a in answers[1::3])
            memory = (await http.get(f"{base}/health")).json()["memory"]
            assert memory["rebuilt"] == 1 and memory["kept"] == 1
            assert on_loop == [False]  # one rebuild, in a thread, never on the loop

    with database("sqlite", tmp_path) as store, \
            running_server(store.settings(**EVICT_FAST)) as base:
        run(scenario(base))


def test_rebuilds_are_limited_per_address_and_a_kept_match_is_free(tmp_path: Path) -> None:
    limits = replace(Limits.unlimited(), rebuilds_per_minute=0.5, rebuild_burst=3)

    async def scenario(base: str) -> None:
        async with httpx.AsyncClient() as http:
            ids = [(await finished_match(base, http, f"Player {n}"))[1] for n in range(4)]
            await evicted(base, http, 4)
            for table_id in ids[:3]:
                r = await http.get(f"{base}/api/tables/{table_id}/record")
                assert r.status_code == 200, r.text
            refused = await http.get(f"{base}/api/tables/{ids[3]}")
            assert refused.status_code == 429
            assert refused.json()["error"]["code"] == "rate/limited"
            assert int(refused.headers["Retry-After"]) >= 1
            # A socket asking for it is told so, and closed.
            late = Guest(base, "Late")
            await late.connect(ids[3])
            error = await next_message(late, "error")
            assert error["code"] == "rate/limited"
            await late.close()
            # What is kept costs nothing: answered however often.
            for _ in range(10):
                r = await http.get(f"{base}/api/tables/{ids[0]}")
                assert r.status_code == 200 and r.json()["table"]["status"] == "finished"
            # An unknown id is not found (and not kept).
            r = await http.get(f"{base}/api/tables/no-such-table/record")
            assert r.status_code in (404, 429)
            memory = (await http.get(f"{base}/health")).json()["memory"]
            assert memory["rebuilt"] == 3 and memory["kept"] == 3

    with database("sqlite", tmp_path) as store, \
            running_server(store.settings(**{**EVICT_FAST, "limits": limits})) as base:
        run(scenario(base))
