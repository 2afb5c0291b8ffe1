"""SQLite's writes run their statements in the event loop (:mod:`basra.store.sql.engine`) and
never stall it: a write that finds another process holding the database waits for it in a
thread, and the COMMIT (the disk's sync) is always done in a thread."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, cast

import pytest

from basra.store.base import PlayRow, StoreError
from basra.store.sql import SqlStore
from basra.store.sql import engine as engine_module
from basra.store.sql.engine import GROUP_WRITES, Pending, group_of
from basra.store.urls import database


def test_a_write_waits_for_another_process_in_a_thread_not_in_the_loop(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with opened(tmp_path) as store:
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

    asyncio.run(scenario())


@contextlib.asynccontextmanager
async def opened(tmp_path: Path) -> AsyncIterator[SqlStore]:
    """A SQLite store in ``tmp_path``, open for the block and closed after it."""
    store = SqlStore(database(f"sqlite+aiosqlite:///{tmp_path / 'basra.sqlite3'}"))
    await store.open()
    try:
        yield store
    finally:
        await store.close()


def _slow_commits(store: SqlStore, monkeypatch: pytest.MonkeyPatch, seconds: float) -> None:
    """Every COMMIT of the store's SQLite engine takes ``seconds`` more (a slow disk's
    sync), and must be run off the event loop's thread."""
    engine = store.sql._sqlite
    assert engine is not None
    commit = engine.dialect.do_commit
    loop_thread = threading.get_ident()

    def slow(dbapi_connection: object) -> None:
        assert threading.get_ident() != loop_thread, "a COMMIT in the event loop"
        time.sleep(seconds)
        commit(dbapi_connection)

    monkeypatch.setattr(engine.dialect, "do_commit", slow)


def test_a_slow_commit_never_stops_the_loop(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The disk's sync (the COMMIT) happens in the writer thread: while it lasts, the loop
    goes on and the point reads of every request are answered; the writes that come
    meanwhile wait for it and go in the next commit."""
    async def scenario() -> None:
        async with opened(tmp_path) as store:
            await store.create_player("p1", "One", "hash-1")
            _slow_commits(store, monkeypatch, 0.3)
            writes = [asyncio.create_task(store.create_player(f"p{n}", f"P{n}", f"h{n}"))
                      for n in range(2, 6)]
            started = time.perf_counter()
            ticks = 0
            while time.perf_counter() - started < 0.2:
                await asyncio.sleep(0.01)
                ticks += 1
            assert ticks >= 10 and not any(write.done() for write in writes)
            reads = await store.sql.reading(
                lambda connection: connection.exec_driver_sql("SELECT 1").scalar(),
                in_loop=True)
            assert reads == 1
            assert [(await write).nickname for write in writes] == ["P2", "P3", "P4", "P5"]
            monkeypatch.undo()
            assert (await store.player("p5")) is not None

    asyncio.run(scenario())


def test_a_write_whose_caller_gives_up_is_still_done_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A caller cancelled while its write commits (a request whose client went away) does
    not leave the connection half-used: the write commits, and the next one works."""
    async def scenario() -> None:
        async with opened(tmp_path) as store:
            _slow_commits(store, monkeypatch, 0.2)
            write = asyncio.create_task(store.create_player("p1", "One", "hash-1"))
            await asyncio.sleep(0.05)
            write.cancel()
            with pytest.raises(asyncio.CancelledError):
                await write
            monkeypatch.undo()
            await store.create_player("p2", "Two", "hash-2")
            assert (await store.player("p1")) is not None
            assert (await store.player("p2")) is not None

    asyncio.run(scenario())


def test_a_group_commit_cut_short_at_shutdown_is_still_done_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The group commit's own task, cancelled while its COMMIT syncs (a node stopping),
    lets the COMMIT end before it stops: the writes are stored, the next write works."""
    async def scenario() -> None:
        async with opened(tmp_path) as store:
            _slow_commits(store, monkeypatch, 0.2)
            write = asyncio.create_task(store.create_player("p1", "One", "hash-1"))
            await asyncio.sleep(0.05)
            flusher = store.sql._flusher
            assert flusher is not None and not flusher.done()
            flusher.cancel()
            with pytest.raises(asyncio.CancelledError):
                await flusher
            write.cancel()
            monkeypatch.undo()
            await store.create_player("p2", "Two", "hash-2")
            assert (await store.player("p1")) is not None
            assert (await store.player("p2")) is not None

    asyncio.run(scenario())


def test_a_group_commit_cut_short_before_its_turn_fails_its_writes_and_no_more(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The group's task, cancelled while another write holds the connection (a node
    stopping), did nothing of its writes: their callers hear so at once (never wait for
    ever), and the store goes on."""
    async def scenario() -> None:
        async with opened(tmp_path) as store:
            _slow_commits(store, monkeypatch, 0.3)
            alone = asyncio.create_task(store.sql.transact(
                "set nothing", lambda connection: connection.exec_driver_sql("SELECT 1")))
            await asyncio.sleep(0.05)  # it holds the connection until its COMMIT ends
            write = asyncio.create_task(store.create_player("p1", "One", "hash-1"))
            await asyncio.sleep(0.05)
            flusher = store.sql._flusher
            assert flusher is not None and not flusher.done()
            flusher.cancel()
            with pytest.raises(StoreError, match="closing"):
                await asyncio.wait_for(write, 5)
            await alone
            monkeypatch.undo()
            await store.create_player("p2", "Two", "hash-2")
            assert await store.player("p1") is None
            assert (await store.player("p2")) is not None

    asyncio.run(scenario())


def test_a_commit_that_fails_while_its_group_is_cut_short_is_rolled_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The group's task cancelled during its COMMIT, which then fails (a full disk): the
    connection's transaction is rolled back, the write's caller hears it failed, and the
    next write works."""
    async def scenario() -> None:
        async with opened(tmp_path) as store:
            engine = store.sql._sqlite
            assert engine is not None

            def failing(dbapi_connection: object) -> None:
                time.sleep(0.2)
                raise sqlite3.OperationalError("disk I/O error")

            monkeypatch.setattr(engine.dialect, "do_commit", failing)
            write = asyncio.create_task(store.create_player("p1", "One", "hash-1"))
            await asyncio.sleep(0.05)
            flusher = store.sql._flusher
            assert flusher is not None and not flusher.done()
            flusher.cancel()
            with pytest.raises(StoreError):
                await asyncio.wait_for(write, 5)
            monkeypatch.undo()
            await store.create_player("p2", "Two", "hash-2")
            assert await store.player("p1") is None
            assert (await store.player("p2")) is not None

    asyncio.run(scenario())


def test_a_commit_that_fails_leaves_the_connection_ready_for_the_next_write(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A COMMIT that fails (refused as busy, a full disk) fails its writes, each told so
    (the group's writes are tried again one by one, and fail too), and ends its
    transaction on the connection: the writes after it work (they could not begin one)."""
    async def scenario() -> None:
        async with opened(tmp_path) as store:
            engine = store.sql._sqlite
            assert engine is not None

            def failing(dbapi_connection: object) -> None:
                raise sqlite3.OperationalError("database is full")

            monkeypatch.setattr(engine.dialect, "do_commit", failing)
            with pytest.raises(StoreError, match="full"):
                await asyncio.wait_for(store.create_player("p1", "One", "hash-1"), 5)
            with pytest.raises(StoreError, match="full"):
                await asyncio.wait_for(store.sql.transact(
                    "set nothing", lambda c: c.exec_driver_sql("SELECT 1")), 5)
            monkeypatch.undo()
            await asyncio.wait_for(store.create_player("p2", "Two", "hash-2"), 5)
            assert await store.player("p1") is None
            assert (await store.player("p2")) is not None

    asyncio.run(scenario())


def test_a_commit_hook_that_fails_never_holds_a_write(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """What listens to the commits (the metrics) failing is logged; the writes go on."""
    def broken(operation: str, seconds: float) -> None:
        raise ValueError("a broken count")

    monkeypatch.setattr(engine_module, "COMMIT_HOOKS", [broken])

    async def scenario() -> None:
        async with opened(tmp_path) as store:
            await asyncio.wait_for(store.create_player("p1", "One", "hash-1"), 5)
            await asyncio.wait_for(store.create_player("p2", "Two", "hash-2"), 5)
            assert (await store.player("p2")) is not None

    asyncio.run(scenario())


def test_a_group_commits_writers_hear_of_it_in_the_next_turn_of_the_loop(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a busy node each turn of the loop takes milliseconds (every table's messages of
    that moment), so every turn between a COMMIT's end in the writer thread and the
    waiting table is time its players wait to see the play (docs/BENCHMARKS.md). The
    turn that hears the thread settles each write, and each waiter runs in the next (it
    took five: the write ran in a task of its own, behind shields, and the group's task
    settled the writes when it resumed)."""
    async def scenario() -> None:
        async with opened(tmp_path) as store:
            loop = asyncio.get_running_loop()
            turns = 0
            busy = True

            def turn() -> None:  # a busy loop: each turn holds it a millisecond
                nonlocal turns
                turns += 1
                time.sleep(0.001)
                if busy:
                    loop.call_soon(turn)

            try:
                engine = store.sql._sqlite
                assert engine is not None
                commit = engine.dialect.do_commit
                ended: list[int] = []

                def noted(dbapi_connection: object) -> None:
                    commit(dbapi_connection)
                    ended.append(turns)

                monkeypatch.setattr(engine.dialect, "do_commit", noted)
                loop.call_soon(turn)
                heard: list[int] = []
                for n in range(5):
                    await store.create_player(f"p{n}", f"P{n}", f"h{n}")
                    heard.append(turns - ended[-1])
                assert max(heard) <= 2, heard  # a second if the thread ends mid-turn
            finally:
                busy = False

    asyncio.run(scenario())


def test_a_point_read_that_fails_leaves_the_loops_connection_ready(tmp_path: Path) -> None:
    """A read in the loop that raises (a bug in it, say) ends its transaction: the next
    read on the same connection works."""
    async def scenario() -> None:
        async with opened(tmp_path) as store:
            def broken(connection: object) -> None:
                raise LookupError("a bug")

            with pytest.raises(LookupError):
                await store.sql.reading(broken, in_loop=True)
            one = await store.sql.reading(
                lambda connection: connection.exec_driver_sql("SELECT 1").scalar(),
                in_loop=True)
            assert one == 1

    asyncio.run(scenario())


def test_a_burst_of_writes_goes_in_bounded_groups_and_the_loop_runs_between(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A group commit's statements run in the loop: a burst (the bell rung for every
    entrant at an event's start) is cut into groups of at most GROUP_WRITES writes, and
    the loop runs between them (while each COMMIT syncs in the writer thread)."""
    async def scenario() -> None:
        async with opened(tmp_path) as store:
            groups: list[int] = []
            transact = store.sql._transact

            async def counted(what: str, op: Any, **how: Any) -> Any:
                if what.startswith("store ") and what.endswith(" writes"):
                    groups.append(int(what.split()[1]))
                return await transact(what, op, **how)

            monkeypatch.setattr(store.sql, "_transact", counted)
            ticks = 0

            async def ticker() -> None:
                nonlocal ticks
                while True:
                    await asyncio.sleep(0)
                    ticks += 1

            ticking = asyncio.create_task(ticker())
            await asyncio.gather(*(store.create_player(f"p{n}", f"P{n}", f"h{n}")
                                   for n in range(200)))
            ticking.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await ticking
            assert sum(groups) == 200 and max(groups) == GROUP_WRITES, groups
            assert len(groups) >= 4 and ticks >= len(groups)
            for n in range(200):
                assert await store.player(f"p{n}") is not None

    asyncio.run(scenario())


def _pending(what: str, play: bool) -> Pending:
    return Pending(what, None if play else (lambda _connection: None),
                   ("t1", cast(PlayRow, None)) if play else None,
                   cast("asyncio.Future[Any]", None), 0.0)


def test_a_group_takes_every_play_then_the_first_writes_in_order() -> None:
    writes = [_pending(f"write {n}", play=False) for n in range(GROUP_WRITES + 10)]
    plays = [_pending(f"play {n}", play=True) for n in range(3)]
    pending = writes[:5] + plays[:1] + writes[5:] + plays[1:]
    group, rest = group_of(pending)
    assert [item.what for item in group] == (
        [f"play {n}" for n in range(3)] + [f"write {n}" for n in range(GROUP_WRITES)])
    assert [item.what for item in rest] == [f"write {n}" for n in range(GROUP_WRITES,
                                                                        GROUP_WRITES + 10)]
    assert group_of(writes[:3]) == (writes[:3], [])
