"""SQLite's writes run in the event loop (:mod:`basra.store.sql.engine`), and never stall it:
a write that finds another process holding the database waits for it in a thread, and a
disk whose commits are slow moves the writes to that thread for good."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import pytest

from basra.store.sql import SqlStore
from basra.store.sql import engine as sql_engine
from basra.store.urls import database


def test_a_write_waits_for_another_process_in_a_thread_not_in_the_loop(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = SqlStore(database(f"sqlite+aiosqlite:///{tmp_path / 'basra.sqlite3'}"))
        await store.open()
        try:
            await store.create_player("p1", "One", "hash-1")
            other = sqlite3.connect(tmp_path / "basra.sqlite3", isolation_level=None)
            other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
            write = asyncio.create_task(store.create_player("p2", "Two", "hash-2"))
            started = time.perf_counter()
            ticks = 0
            while time.perf_counter() - started < 0.3:  # the loop goes on meanwhile
                await asyncio.sleep(0.01)
                ticks += 1
            assert ticks >= 10 and not write.done()
            other.execute("COMMIT")
            other.close()
            assert (await write).nickname == "Two"
            assert (await store.player("p2")) is not None
            await store.create_player("p3", "Three", "hash-3")  # in the loop again
            assert store.sql._in_loop is not None
        finally:
            await store.close()

    asyncio.run(scenario())


def test_slow_commits_move_the_writes_to_a_thread(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sql_engine, "SLOW_COMMIT_SECONDS", 1e-9)  # every commit is slow

    async def scenario() -> None:
        store = SqlStore(database(f"sqlite+aiosqlite:///{tmp_path / 'basra.sqlite3'}"))
        await store.open()
        try:
            await store.create_player("p1", "One", "hash-1")
            assert store.sql._in_loop is not None  # one slow write is not a slow disk
            for number in range(3, 40):
                await store.create_player(f"p{number}", f"P{number}", f"hash-{number}")
            assert store.sql._in_loop is None  # moved for good
            await store.create_player("p2", "Two", "hash-2")  # in the writer thread
            assert [p.nickname for p in [await store.player("p1"), await store.player("p2")]
                    if p is not None] == ["One", "Two"]
        finally:
            await store.close()

    asyncio.run(scenario())
