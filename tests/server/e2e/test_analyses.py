"""The expert's analysis of a finished match, over HTTP: asked once, run in the bot workers,
stored, the same numbers as ``basra analyse`` with the same iterations and seed; and the
store's claim of an analysis (one node wins; a dead node's or a failed one is taken)."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from basra.match.analysis import analyse
from basra.match.records import parse_record
from basra.server.reads import analyses as module
from basra.server.wire.errors import ApiError, status_of
from basra.store import open_store
from basra.store.ports import Store
from server_harness import bot_table, new_guest, over, play_out, serve
from store.test_store import bot_table as stored_table
from store_helpers import backend, url  # noqa: F401  (the url fixture and its back ends)

ITERATIONS = 12


async def until_done(http: httpx.AsyncClient, base: str, table: str,
                     timeout: float = 240) -> list[dict[str, Any]]:
    """Every status seen while waiting for the analysis to be done (the last is done)."""
    seen = []
    deadline = time.monotonic() + timeout
    while True:
        status = (await http.get(f"{base}/api/replays/{table}/analysis")).json()
        seen.append(status)
        if status["status"] in ("done", "failed"):
            return seen
        assert time.monotonic() < deadline, seen[-3:]
        await asyncio.sleep(0.2)


def test_a_finished_match_is_analysed_once_as_basra_analyse_would(tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        guest = await new_guest(base, http, "Amira")
        table = await bot_table(base, http, guest)
        await guest.connect(table)
        await guest.until(lambda s: s["view"]["round"] >= 1)
        early = await http.post(f"{base}/api/replays/{table}/analysis")
        assert early.status_code == 409, early.text
        assert early.json()["error"]["code"] == "replay/not_finished"
        assert (await http.get(f"{base}/api/replays/{table}/analysis")).json() == {
            "status": "none"}
        assert over(await play_out(guest))
        await guest.close()

        asked = await http.post(f"{base}/api/replays/{table}/analysis")
        assert asked.status_code == 202, asked.text
        assert asked.json()["status"] in ("queued", "running")
        again = await http.post(f"{base}/api/replays/{table}/analysis")
        assert again.json()["status"] in ("queued", "running")
        seen = await until_done(http, base, table)
        done = seen[-1]
        assert done["status"] == "done", done
        running = [s for s in seen if s["status"] == "running"]
        assert all(0 <= s["done"] <= s["total"] for s in running)

        record = parse_record((await http.get(f"{base}/api/tables/{table}/record")).json())
        expected = analyse(record, iterations=ITERATIONS, seed=0).to_json()
        # The same document but for the names, which the record gives as it is read.
        assert done["analysis"] == {k: v for k, v in expected.items() if k != "players"}
        assert len(expected["plays"]) == sum(len(r.plays) for r in record.rounds)
        assert expected["command"] == f"basra analyse --iterations {ITERATIONS} --seed 0 RECORD"
        assert all(p["margin"] is not None for p in expected["plays"])

        # Asked again: answered from the store at once, the same document.
        later = await http.post(f"{base}/api/replays/{table}/analysis")
        assert later.json() == done
        missing = await http.get(f"{base}/api/replays/no-such-table/analysis")
        assert missing.status_code == 404
        assert (await http.post(f"{base}/api/replays/no-such/analysis")).status_code == 404

    serve(tmp_path, scenario, analysis_iterations=ITERATIONS, bot_workers=1)


def test_claiming_an_analysis(url: str) -> None:  # noqa: F811
    async def main() -> None:
        store: Store = open_store(url)
        await store.open()
        try:
            for name in ("t1", "t2"):
                await stored_table(store, name, status="finished")
            now = datetime.now(UTC)
            stale = now - timedelta(seconds=120)
            assert await store.analysis("t1") is None
            first = await store.claim_analysis("t1", 300, 0, stale)
            assert first is not None
            assert await store.claim_analysis("t1", 300, 0, stale) is None  # running: taken
            row = await store.analysis("t1")
            assert row is not None and row.status == "running" and row.iterations == 300
            assert row.claim == first
            assert await store.update_analysis("t1", first, "running")
            # A node that died: its row stops moving and is taken over; from then on the
            # first claim writes nothing (a late node cannot undo the new one's work).
            second = await store.claim_analysis("t1", 200, 0, now + timedelta(seconds=5))
            assert second is not None and second != first
            assert not await store.update_analysis("t1", first, "running")
            assert await store.update_analysis("t1", second, "failed",
                                               message="the expert could not finish")
            assert not await store.update_analysis("t1", second, "done", analysis={})
            row = await store.analysis("t1")
            assert row is not None and row.status == "failed" and row.message
            third = await store.claim_analysis("t1", 300, 0, stale)  # failed: again
            assert third is not None
            assert await store.update_analysis("t1", third, "done",
                                               analysis={"format": "basra-analysis/1"})
            assert not await store.update_analysis("t1", third, "failed", message="late")
            row = await store.analysis("t1")
            assert row is not None and row.status == "done" and row.message is None
            assert row.analysis == {"format": "basra-analysis/1"}
            assert await store.claim_analysis("t1", 300, 0, now + timedelta(days=1)) is None
            # Two at once: one wins.
            results = await asyncio.gather(*(store.claim_analysis("t2", 300, 0, stale)
                                             for _ in range(4)))
            assert sorted(r is not None for r in results) == [False, False, False, True]
        finally:
            await store.close()

    asyncio.run(main())


def test_each_asker_has_a_share_of_the_queue_and_askers_take_turns(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """One client cannot fill the expert's queue: a player (or a guest's address) holds
    at most PER_ASKER analyses, and their second waits behind everyone's first."""
    class Store:
        async def analysis(self, table_id: str) -> None:
            return None

        async def claim_analysis(self, table_id: str, *_: Any) -> str:
            return f"claim-{table_id}"

    async def idle(self: module.Analyses) -> None:
        await asyncio.Event().wait()  # the first stays running; the rest wait

    monkeypatch.setattr(module.Analyses, "_run", idle)
    record: Any = object()

    async def main() -> None:
        queue = module.Analyses(Store(), None, 1)  # type: ignore[arg-type]
        for table, asker in (("a1", "amira"), ("a2", "amira"), ("o1", "omar"),
                             ("l1", "@192.0.2.7"), ("o2", "omar")):
            await queue.request(table, record, asker)
        assert [t for t, _, _ in queue.queue] == ["a1", "o1", "l1", "a2", "o2"]
        try:
            await queue.request("a3", record, "amira")
            raise AssertionError("a third analysis of one asker was taken")
        except ApiError as refused:
            assert refused.code == "analysis/too_many"
            assert status_of(refused.code) == 429
        status = await queue.status("a2")
        assert status == {"status": "queued", "position": 4}
        assert module.PER_ASKER == 2
        assert queue.task is not None
        queue.task.cancel()

    asyncio.run(main())
