"""The store (basra.store) against real databases: every test runs on both back ends.

SQLite runs in a file in the test's temporary directory; PostgreSQL on the server at
``$BASRA_TEST_POSTGRES`` (default ``postgresql+asyncpg://root@127.0.0.1:5432/test``), each
test in a schema of its own that is dropped afterwards. When PostgreSQL cannot be reached,
its tests fail: they never skip.

The tests are plain functions that run their scenario with :func:`asyncio.run`.
"""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import event, text
from sqlalchemy.engine import Connection

from basra.store import SqlStore, Store, StoreError, open_store
from basra.store.base import DuplicatePlay, PlayRow, SeatRow, TableRow
from basra.store.schema import metadata
from postgres_helpers import POSTGRES, drop_schema

BACKENDS = ("sqlite", "postgresql")
T0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)

Scenario = Callable[[Store], Awaitable[Any]]


# ---------------------------------------------------------------------------------------
# databases


def run(url: str | None, scenario: Scenario, data_dir: Path | None = None) -> None:
    """Open a store at ``url``, run ``scenario`` on it and close it."""
    async def main() -> None:
        store = open_store(url, data_dir)
        await store.open()
        try:
            await scenario(store)
        finally:
            await store.close()

    asyncio.run(main())


def sql_store(store: Store) -> SqlStore:
    assert isinstance(store, SqlStore)
    return store


async def scalars(store: Store, query: str) -> list[Any]:
    async with sql_store(store).engine.connect() as connection:
        return list((await connection.execute(text(query))).scalars())


# ---------------------------------------------------------------------------------------
# rows


def table(table_id: str = "t1", **changes: Any) -> TableRow:
    row = TableRow(id=table_id, kind="private", variant="egyptian", seats=2, teams=False,
                   clock_seconds=30.0, bot_level="medium", status="waiting", created_at=T0)
    return replace(row, **changes)


def seat(number: int, player: str | None = None, bot: str | None = None,
         client_seed: str = "") -> SeatRow:
    return SeatRow(seat=number, player_id=player, bot_level=bot,
                   client_seed=client_seed or f"seed-{number}")


def play(round_number: int, index: int, card: str = "5H", take: str = "",
         by_bot: bool = False) -> PlayRow:
    return PlayRow(round_number=round_number, index=index, seat=(index - 1) % 2, card=card,
                   take=tuple(take.split()), by_bot=by_bot,
                   created_at=T0 + timedelta(seconds=round_number * 100 + index))


async def bot_table(store: Store, table_id: str = "t1", **changes: Any) -> None:
    """A two-seat table: player p1 against an easy bot (p1 is created if missing)."""
    if await store.player("p1") is None:
        await store.create_player("p1", "Amal", "hash-p1")
    await store.create_table(table(table_id, **changes),
                             [seat(0, player="p1"), seat(1, bot="easy")])


async def table_with_round(store: Store, table_id: str = "t1") -> None:
    await bot_table(store, table_id, status="playing")
    await store.add_round(table_id, 1, "server-seed-1", "commitment-1")
    await store.start_round(table_id, 1, "client-seed-1")


# ---------------------------------------------------------------------------------------
# opening and migrations


def test_open_migrates_to_head_and_is_idempotent(url: str) -> None:
    async def first(store: Store) -> None:
        await store.open()  # again on the open store: nothing happens
        assert await scalars(store, "SELECT version_num FROM alembic_version") == ["0012"]
        await bot_table(store)

    async def second(store: Store) -> None:
        assert await scalars(store, "SELECT version_num FROM alembic_version") == ["0012"]
        assert await store.table("t1") is not None

    run(url, first)
    run(url, second)


def test_two_stores_open_a_new_database_at_once(url: str) -> None:
    async def main() -> None:
        stores = [open_store(url) for _ in range(3)]
        await asyncio.gather(*(store.open() for store in stores))
        try:
            await stores[0].create_player("p1", "Amal", "hash-p1")
            assert await stores[2].player("p1") is not None
            assert await scalars(stores[1], "SELECT version_num FROM alembic_version") == [
                "0012"]
        finally:
            for store in stores:
                await store.close()

    asyncio.run(main())


def test_migrated_schema_matches_the_metadata(url: str) -> None:
    def differences(connection: Connection) -> list[Any]:
        return list(compare_metadata(MigrationContext.configure(connection), metadata))

    async def scenario(store: Store) -> None:
        async with sql_store(store).engine.connect() as connection:
            assert await connection.run_sync(differences) == []

    run(url, scenario)


def test_durability_settings(url: str, backend: str) -> None:
    async def scenario(store: Store) -> None:
        if backend == "sqlite":
            assert await scalars(store, "PRAGMA journal_mode") == ["wal"]
            assert await scalars(store, "PRAGMA synchronous") == [2]  # FULL
            assert await scalars(store, "PRAGMA foreign_keys") == [1]
        else:
            assert await scalars(store, "SHOW synchronous_commit") == ["on"]
            assert (await scalars(store, "SELECT current_schema()"))[0].startswith(
                "basra_test_")

    run(url, scenario)


def test_ping(url: str) -> None:
    async def main() -> None:
        store = open_store(url)
        assert not await store.ping()
        await store.open()
        assert await store.ping()
        await store.close()
        assert not await store.ping()

    asyncio.run(main())


@pytest.mark.parametrize(("bad", "says"), [
    ("mysql://root@localhost/basra", "unsupported database URL"),
    ("postgresql+psycopg2://root@localhost/basra", "unsupported database URL"),
    ("not a url", "bad database URL"),
    ("sqlite+aiosqlite://", "it needs a file"),
    ("sqlite+aiosqlite:///:memory:", "it needs a file"),
    ("postgresql://root@localhost/test?schema=Bad-Name", "bad schema"),
])
def test_bad_url_is_one_line_store_error(bad: str, says: str) -> None:
    """Factory checks, no database: parametrized over URLs of both back ends."""
    with pytest.raises(StoreError, match=says) as error:
        open_store(bad)
    assert "\n" not in str(error.value)


def test_password_is_not_shown(backend: str) -> None:
    bad = ("mysql://root:secret@localhost/basra" if backend == "sqlite"
           else "postgresql+asyncpg://root:secret@127.0.0.1:1/test")
    async def main() -> None:
        await open_store(bad).open()

    with pytest.raises(StoreError) as error:
        asyncio.run(main())
    assert "secret" not in str(error.value)


def test_unreachable_database_is_one_line_store_error(backend: str, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    url = (f"sqlite+aiosqlite:///{blocker / 'basra.sqlite3'}" if backend == "sqlite"
           else "postgresql+asyncpg://root@127.0.0.1:1/test")

    async def main() -> None:
        await open_store(url).open()

    with pytest.raises(StoreError, match="cannot open the store") as error:
        asyncio.run(main())
    assert "\n" not in str(error.value)


def test_plain_urls_get_the_async_driver(backend: str, tmp_path: Path) -> None:
    """``sqlite:///`` and ``postgresql://`` URLs open with aiosqlite and asyncpg."""
    schema = f"basra_test_{uuid.uuid4().hex[:16]}"
    url = (f"sqlite:///{tmp_path / 'basra.sqlite3'}" if backend == "sqlite"
           else POSTGRES.replace("+asyncpg", "") + f"?schema={schema}")
    store = open_store(url)
    assert sql_store(store).database.url.drivername in {"sqlite+aiosqlite",
                                                        "postgresql+asyncpg"}
    try:
        run(url, lambda store: store.create_player("p1", "Amal", "hash-p1"))
    finally:
        if backend == "postgresql":
            asyncio.run(drop_schema(schema))


@pytest.mark.parametrize("source", ["argument", "environment"])
def test_default_store_is_sqlite_in_the_data_dir(
        source: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No URL (SQLite by definition): the data directory given, else $BASRA_DATA_DIR,
    created on open."""
    monkeypatch.setenv("BASRA_DATA_DIR", str(tmp_path / "from-env"))
    given = tmp_path / "given" if source == "argument" else None
    store = open_store(None, given)
    expected = (given or tmp_path / "from-env") / "basra.sqlite3"
    assert sql_store(store).database.sqlite_path == expected
    assert not expected.parent.exists()
    run(None, lambda store: store.create_player("p1", "Amal", "hash-p1"), given)
    assert expected.is_file()


# ---------------------------------------------------------------------------------------
# players


def test_players_by_token_and_id(url: str) -> None:
    async def scenario(store: Store) -> None:
        created = await store.create_player("p1", "Amal <b>", "hash-p1")
        assert created.created_at.tzinfo is not None
        assert await store.player_by_token("hash-p1") == created
        assert await store.player("p1") == created
        assert await store.player_by_token("hash-p2") is None
        assert await store.player("p2") is None
        with pytest.raises(StoreError, match="cannot create player p2"):
            await store.create_player("p2", "Badr", "hash-p1")  # the same token
        assert (await store.create_player("p2", "Badr", "hash-p2")).nickname == "Badr"

    run(url, scenario)


# ---------------------------------------------------------------------------------------
# tables, seats, rounds and plays


def test_table_round_trip_through_load(url: str) -> None:
    async def scenario(store: Store) -> None:
        await store.create_player("p1", "Amal", "hash-p1")
        await store.create_player("p2", "Badr", "hash-p2")
        await store.create_table(table("t0", status="finished", finished_at=T0), [])
        cairo = timezone(timedelta(hours=2))
        stored = table("t1", seats=4, teams=True, kind="private", invite_code="K7Q2",
                       owner_id="p1", rematch_of="t0", clock_seconds=12.5,
                       created_at=T0.astimezone(cairo))
        seats = [seat(3, bot="hard"), seat(0, player="p1"), seat(1, player="p2"), seat(2)]
        await store.create_table(stored, seats)
        await store.add_round("t1", 2, "server-2", "commit-2")
        await store.add_round("t1", 1, "server-1", "commit-1")
        await store.start_round("t1", 1, "client-1")
        for row in (play(2, 1), play(1, 2, "10D", "5C 5S", by_bot=True), play(1, 1, "JC")):
            await store.add_play("t1", row)

        log = await store.load("t1")
        assert log is not None
        assert log.table == stored
        assert log.table.created_at.tzinfo == UTC
        assert [(s.seat, s.player_id, s.bot_level, s.nickname) for s in log.seats] == [
            (0, "p1", None, "Amal"), (1, "p2", None, "Badr"), (2, None, None, None),
            (3, None, "hard", None)]
        assert [s.client_seed for s in log.seats] == [f"seed-{n}" for n in range(4)]
        assert [(r.number, r.server_seed, r.commitment, r.client_seed) for r in log.rounds] == [
            (1, "server-1", "commit-1", "client-1"), (2, "server-2", "commit-2", None)]
        assert log.rounds[0].started_at is not None and log.rounds[1].started_at is None
        assert log.plays == (play(1, 1, "JC"), play(1, 2, "10D", "5C 5S", by_bot=True),
                             play(2, 1))
        assert await store.load("t9") is None
        assert await store.table("t9") is None

    run(url, scenario)


def test_naive_datetimes_are_refused(url: str) -> None:
    async def scenario(store: Store) -> None:
        with pytest.raises(StoreError, match="no timezone"):
            await store.create_table(table(created_at=datetime(2025, 1, 1)), [])
        await table_with_round(store)
        with pytest.raises(StoreError, match="no timezone"):
            await store.add_play("t1", replace(play(1, 1), created_at=datetime(2025, 1, 1)))

    run(url, scenario)


def test_start_round_fixes_the_client_seed_once(url: str) -> None:
    async def scenario(store: Store) -> None:
        await table_with_round(store)
        await store.start_round("t1", 1, "client-seed-1")  # the same seed again: fine
        with pytest.raises(StoreError, match="already started"):
            await store.start_round("t1", 1, "another seed")
        with pytest.raises(StoreError, match="no round 2"):
            await store.start_round("t1", 2, "client")
        with pytest.raises(StoreError, match="cannot add round 1"):
            await store.add_round("t1", 1, "server", "commitment")
        log = await store.load("t1")
        assert log is not None and log.rounds[0].client_seed == "client-seed-1"

    run(url, scenario)


def test_duplicate_play_is_refused_and_the_store_goes_on(url: str) -> None:
    async def scenario(store: Store) -> None:
        await table_with_round(store)
        await store.add_play("t1", play(1, 1, "5H"))
        with pytest.raises(DuplicatePlay, match="play 1 of round 1 of table t1"):
            await store.add_play("t1", play(1, 1, "5H"))
        with pytest.raises(DuplicatePlay):
            await store.add_play("t1", play(1, 1, "KD", by_bot=True))
        await store.add_play("t1", play(1, 2, "7S"))
        log = await store.load("t1")
        assert log is not None
        assert log.plays == (play(1, 1, "5H"), play(1, 2, "7S"))

    run(url, scenario)


def test_plays_stored_at_once_are_committed_together(url: str) -> None:
    async def scenario(store: Store) -> None:
        for n in range(8):
            await table_with_round(store, f"t{n}")
        commits = 0
        engine = sql_store(store).engine.sync_engine

        def count(*_: object) -> None:
            nonlocal commits
            commits += 1

        event.listen(engine, "commit", count)
        await asyncio.gather(*(store.add_play(f"t{n}", play(1, i, "7S"))
                               for n in range(8) for i in (1, 2)))
        event.remove(engine, "commit", count)
        assert commits < 16  # fewer transactions than plays: they were grouped
        for n in range(8):
            log = await store.load(f"t{n}")
            assert log is not None
            assert [p.index for p in log.plays] == [1, 2]

    run(url, scenario)


def test_a_duplicate_among_plays_stored_at_once_fails_alone(url: str) -> None:
    async def scenario(store: Store) -> None:
        for n in range(4):
            await table_with_round(store, f"t{n}")
        await store.add_play("t2", play(1, 1, "5H"))
        results = await asyncio.gather(
            *(store.add_play(f"t{n}", play(1, 1, "7S")) for n in range(4)),
            return_exceptions=True)
        assert [type(r).__name__ for r in results] == [
            "NoneType", "NoneType", "DuplicatePlay", "NoneType"]
        for n in range(4):
            log = await store.load(f"t{n}")
            assert log is not None and len(log.plays) == 1
        assert log.plays[0].card == "7S"

    run(url, scenario)


def test_play_of_an_unknown_round_is_not_a_duplicate(url: str) -> None:
    async def scenario(store: Store) -> None:
        await table_with_round(store)
        with pytest.raises(StoreError) as error:
            await store.add_play("t1", play(2, 1))
        assert not isinstance(error.value, DuplicatePlay)
        with pytest.raises(StoreError) as error:
            await store.add_play("t9", play(1, 1))
        assert not isinstance(error.value, DuplicatePlay)
        await store.add_play("t1", play(1, 1))

    run(url, scenario)


def test_table_by_code(url: str) -> None:
    async def scenario(store: Store) -> None:
        await bot_table(store, "t1", invite_code="ABCD")
        await bot_table(store, "t2")
        found = await store.table_by_code("ABCD")
        assert found is not None and found.id == "t1"
        assert await store.table_by_code("abcd") is None
        with pytest.raises(StoreError, match="cannot create table t3"):
            await bot_table(store, "t3", invite_code="ABCD")
        assert await store.table("t3") is None  # nothing of it was stored

    run(url, scenario)


def test_set_seat_replaces_a_seat(url: str) -> None:
    async def scenario(store: Store) -> None:
        await bot_table(store)
        await store.create_player("p2", "Badr", "hash-p2")
        await store.set_seat("t1", seat(1, player="p2", client_seed="badr's seed"))
        await store.set_seat("t1", seat(0, player="p1", bot="medium", client_seed="new"))
        log = await store.load("t1")
        assert log is not None
        assert log.seats == (
            SeatRow(0, "p1", "medium", "new", nickname="Amal"),
            SeatRow(1, "p2", None, "badr's seed", nickname="Badr"))
        with pytest.raises(StoreError, match="cannot set seat 0 of table t9"):
            await store.set_seat("t9", seat(0, bot="easy"))
        with pytest.raises(StoreError, match="cannot set seat 1 of table t1"):
            await store.set_seat("t1", seat(1, player="nobody"))
        log = await store.load("t1")
        assert log is not None and log.seats[1].player_id == "p2"  # the old row stays

    run(url, scenario)


def test_status_changes_and_live_tables(url: str) -> None:
    async def scenario(store: Store) -> None:
        for number, status in enumerate(("playing", "waiting", "finished", "abandoned",
                                         "waiting")):
            await bot_table(store, f"t{number}", status=status,
                            created_at=T0 - timedelta(minutes=number))
        assert await store.live_tables() == ["t4", "t1", "t0"]  # oldest first
        await store.set_status("t1", "playing")
        await store.set_status("t0", "abandoned")
        live = await store.table("t1")
        assert live is not None and live.status == "playing"
        assert await store.live_tables() == ["t4", "t1"]
        with pytest.raises(StoreError, match="no table t9"):
            await store.set_status("t9", "playing")
        with pytest.raises(StoreError, match="cannot update table t1"):
            await store.set_status("t1", "paused")  # type: ignore[arg-type]

    run(url, scenario)


# ---------------------------------------------------------------------------------------
# finished matches and history


def test_finish_table_and_history(url: str) -> None:
    async def scenario(store: Store) -> None:
        for player, name in (("p1", "Amal"), ("p2", "Badr"), ("p3", "Chadi")):
            await store.create_player(player, name, f"hash-{player}")
        await store.create_table(table("old", status="playing"),
                                 [seat(0, player="p1"), seat(1, player="p2")])
        await store.create_table(table("new", status="playing", variant="lebanese",
                                       seats=4, teams=True),
                                 [seat(0, player="p2"), seat(1, bot="hard"),
                                  seat(2, player="p1"), seat(3, bot="easy")])
        await store.create_table(table("others", status="playing"),
                                 [seat(0, player="p2"), seat(1, player="p3")])
        await store.create_table(table("left", status="abandoned"), [seat(0, player="p1")])
        await store.create_table(table("live", status="playing"), [seat(0, player="p1")])
        for table_id, seats in (("old", 2), ("new", 4), ("others", 2)):  # a hand each
            await store.add_round(table_id, 1, "server-seed", "commitment")
            await store.start_round(table_id, 1, "client-seed")
            for index in range(1, 4 * seats + 1):
                await store.add_play(table_id, replace(play(1, index), seat=(index - 1) % seats))
        # a rematch p3 never played a card in: not theirs to count (issue 28)
        await store.create_table(table("unplayed", status="playing"),
                                 [seat(0, player="p3"), seat(1, bot="easy")])
        await store.finish_table("unplayed", {"winner": 0, "totals": [121, 3], "sets": []})
        await store.finish_table("old", {"winner": 1, "totals": [80, 101], "sets": []})
        await store.finish_table("others", {"winner": 0, "totals": [101, 3], "sets": []})
        await store.finish_table("new", {"winner": None, "totals": [120, 120], "sets": []})

        finished = await store.table("new")
        assert finished is not None and finished.status == "finished"
        assert finished.finished_at is not None and finished.finished_at.tzinfo == UTC
        assert finished.result == {"winner": None, "totals": [120, 120], "sets": []}

        history = await store.history("p1")
        assert [row.table_id for row in history] == ["new", "old"]
        new, old = history
        assert (new.variant, new.seat, new.teams, new.winner, new.totals) == (
            "lebanese", 2, True, None, (120, 120))
        assert new.players == ("Badr", "bot:hard", "Amal", "bot:easy")
        assert (old.seat, old.players, old.winner, old.totals) == (
            0, ("Amal", "Badr"), 1, (80, 101))
        assert new.finished_at > old.finished_at
        assert [row.table_id for row in await store.history("p1", limit=1)] == ["new"]
        # the rematch p3 never played a card in is listed, not theirs to count
        listed = await store.history("p3")
        assert [(row.table_id, row.took_part) for row in listed] == [
            ("others", True), ("unplayed", False)]
        assert await store.history("nobody") == []
        with pytest.raises(StoreError, match="no table t9"):
            await store.finish_table("t9", {})

    run(url, scenario)


# ---------------------------------------------------------------------------------------
# durability


def test_everything_survives_close_and_reopen(url: str) -> None:
    saved: list[Any] = []

    async def write(store: Store) -> None:
        await table_with_round(store)
        await store.add_play("t1", play(1, 1, "AS", "AH"))
        saved.append(await store.load("t1"))

    async def read(store: Store) -> None:
        assert await store.load("t1") == saved[0]
        assert await store.live_tables() == ["t1"]
        with pytest.raises(DuplicatePlay):
            await store.add_play("t1", play(1, 1, "AS", "AH"))

    run(url, write)
    run(url, read)


KILLED_WRITER = """
import asyncio, os, signal, sys
from datetime import UTC, datetime
from basra.store import open_store
from basra.store.base import PlayRow, SeatRow, TableRow

async def main(url):
    store = open_store(url)
    await store.open()
    now = datetime.now(UTC)
    await store.create_table(TableRow("t1", "bot", "egyptian", 2, False, 30.0, "easy",
                                      "playing", now), [SeatRow(1, None, "easy", "s")])
    await store.add_round("t1", 1, "server", "commitment")
    await store.start_round("t1", 1, "client")
    await store.add_play("t1", PlayRow(1, 1, 1, "5H", (), True, now))
    print("stored", flush=True)
    os.kill(os.getpid(), signal.SIGKILL)

asyncio.run(main(sys.argv[1]))
"""


def test_a_killed_process_loses_no_committed_play(url: str) -> None:
    """A play is stored as soon as add_play returns: SIGKILL right after loses nothing."""
    done = subprocess.run([sys.executable, "-c", KILLED_WRITER, url], capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert done.stdout == "stored\n"

    async def read(store: Store) -> None:
        log = await store.load("t1")
        assert log is not None
        assert [(p.round_number, p.index, p.card) for p in log.plays] == [(1, 1, "5H")]
        assert log.rounds[0].client_seed == "client"

    run(url, read)
