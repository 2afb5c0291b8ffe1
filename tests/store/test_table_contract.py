"""The table store's contract: the same scenarios on the in-memory store
(:class:`~basra.store.memory.MemoryTableStore`), SQLite and PostgreSQL.

What the table actor's unit tests learn from the memory store holds on the databases only if
both keep tables the same way; each test here is one rule of
:class:`~basra.store.ports.TableStore`, run on all three. PostgreSQL is the server at
``$BASRA_TEST_POSTGRES``, each test in a schema of its own; when it cannot be reached its
tests fail, never skip.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from basra.store import open_store
from basra.store.base import DuplicatePlay, RatedGame, SeatRow, StoreError
from basra.store.memory import MemoryTableStore
from basra.store.ports import Store, TableStore
from postgres_helpers import POSTGRES, drop_schema
from store.test_store import T0, play, seat, table

# ---------------------------------------------------------------------------------------
# the three stores


@dataclass
class Tables:
    """A table store under test, and how to make the players its seats name (the memory
    store keeps them itself; the SQL store in its identity port)."""

    store: TableStore
    add_player: Callable[[str, str], Awaitable[None]]


Scenario = Callable[[Tables], Awaitable[Any]]


@pytest.fixture(params=("memory", "sqlite", "postgresql"))
def kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def url(kind: str, tmp_path: Path) -> Iterator[str | None]:
    """A fresh, empty database of the kind (None: the memory store needs none)."""
    if kind == "memory":
        yield None
    elif kind == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'db' / 'basra.sqlite3'}"
    else:
        schema = f"basra_test_{uuid.uuid4().hex[:16]}"
        yield f"{POSTGRES}?schema={schema}"
        asyncio.run(drop_schema(schema))


@asynccontextmanager
async def opened(url: str | None) -> AsyncIterator[Tables]:
    if url is None:
        memory = MemoryTableStore()

        async def remember(player_id: str, nickname: str) -> None:
            memory.add_player(player_id, nickname)

        yield Tables(memory, remember)
        return
    store: Store = open_store(url)
    await store.open()

    async def create(player_id: str, nickname: str) -> None:
        await store.create_player(player_id, nickname, f"hash-{player_id}")

    try:
        yield Tables(store, create)
    finally:
        await store.close()


def run(url: str | None, scenario: Scenario) -> None:
    async def main() -> None:
        async with opened(url) as tables:
            await scenario(tables)

    asyncio.run(main())


# ---------------------------------------------------------------------------------------
# rows


# table(), seat() and play() are the store tests' own rows (tests/store/test_store.py).


async def bot_table(tables: Tables, table_id: str = "t1", **changes: Any) -> None:
    """A two-seat table: player p1 against an easy bot."""
    await tables.store.create_table(table(table_id, **changes),
                                    [seat(0, player="p1"), seat(1, bot="easy")])


async def table_with_round(tables: Tables, table_id: str = "t1") -> None:
    await bot_table(tables, table_id, status="playing")
    await tables.store.add_round(table_id, 1, "server-seed-1", "commitment-1")
    await tables.store.start_round(table_id, 1, "client-seed-1")


def with_players(scenario: Scenario) -> Scenario:
    """The scenario, after players p1 (Amal) and p2 (Badr) are known."""
    async def prepared(tables: Tables) -> None:
        await tables.add_player("p1", "Amal")
        await tables.add_player("p2", "Badr")
        await scenario(tables)

    return prepared


# ---------------------------------------------------------------------------------------
# the rules


def test_a_table_comes_back_whole_and_in_order(url: str | None) -> None:
    @with_players
    async def scenario(tables: Tables) -> None:
        store = tables.store
        await store.create_table(table("t0", status="finished", finished_at=T0), [])
        cairo = timezone(timedelta(hours=2))
        stored = table("t1", seats=4, teams=True, invite_code="K7Q2", owner_id="p1",
                       rematch_of="t0", clock_seconds=12.5, created_at=T0.astimezone(cairo),
                       result={"note": "kept as JSON"})
        await store.create_table(stored, [seat(3, bot="hard"), seat(0, player="p1"),
                                          seat(1, player="p2"), seat(2)])
        await store.add_round("t1", 2, "server-2", "commit-2")
        await store.add_round("t1", 1, "server-1", "commit-1")
        await store.start_round("t1", 1, "client-1")
        for row in (play(2, 1), play(1, 2, "10D", "5C 5S", by_bot=True), play(1, 1, "JC")):
            await store.add_play("t1", row)

        log = await store.load("t1")
        assert log is not None
        assert log.table == stored and await store.table("t1") == stored
        assert log.table.created_at.tzinfo == UTC
        assert [(s.seat, s.player_id, s.bot_level, s.nickname, s.account) for s in log.seats
                ] == [(0, "p1", None, "Amal", False), (1, "p2", None, "Badr", False),
                      (2, None, None, None, False), (3, None, "hard", None, False)]
        assert [s.client_seed for s in log.seats] == [f"seed-{n}" for n in range(4)]
        assert [(r.number, r.server_seed, r.commitment, r.client_seed) for r in log.rounds] == [
            (1, "server-1", "commit-1", "client-1"), (2, "server-2", "commit-2", None)]
        assert log.rounds[0].started_at is not None and log.rounds[1].started_at is None
        assert log.plays == (play(1, 1, "JC"), play(1, 2, "10D", "5C 5S", by_bot=True),
                             play(2, 1))
        assert await store.rematch_of("t0") == "t1"
        assert await store.rematch_of("t1") is None
        assert await store.load("t9") is None
        assert await store.table("t9") is None

    run(url, scenario)


def test_what_a_table_refers_to_must_exist(url: str | None) -> None:
    @with_players
    async def scenario(tables: Tables) -> None:
        store = tables.store
        with pytest.raises(StoreError, match="cannot create table t1"):
            await store.create_table(table("t1", owner_id="nobody"), [])
        with pytest.raises(StoreError, match="cannot create table t1"):
            await store.create_table(table("t1", rematch_of="t9"), [])
        with pytest.raises(StoreError, match="cannot create table t1"):
            await store.create_table(table("t1"), [seat(0, player="nobody")])
        assert await store.table("t1") is None  # nothing of it was stored
        await bot_table(tables)
        with pytest.raises(StoreError, match="cannot create table t1"):
            await bot_table(tables)  # the same id again

    run(url, scenario)


def test_naive_datetimes_are_refused(url: str | None) -> None:
    @with_players
    async def scenario(tables: Tables) -> None:
        with pytest.raises(StoreError, match="no timezone"):
            await tables.store.create_table(table(created_at=datetime(2025, 1, 1)), [])
        await table_with_round(tables)
        with pytest.raises(StoreError, match="no timezone"):
            await tables.store.add_play(
                "t1", replace(play(1, 1), created_at=datetime(2025, 1, 1)))

    run(url, scenario)


def test_a_round_is_added_once_and_started_once(url: str | None) -> None:
    @with_players
    async def scenario(tables: Tables) -> None:
        store = tables.store
        await table_with_round(tables)
        await store.start_round("t1", 1, "client-seed-1")  # the same seed again: fine
        with pytest.raises(StoreError, match="already started"):
            await store.start_round("t1", 1, "another seed")
        with pytest.raises(StoreError, match="no round 2"):
            await store.start_round("t1", 2, "client")
        with pytest.raises(StoreError, match="cannot add round 1 to table t1"):
            await store.add_round("t1", 1, "server", "commitment")
        with pytest.raises(StoreError, match="cannot add round 1 to table t9"):
            await store.add_round("t9", 1, "server", "commitment")
        log = await store.load("t1")
        assert log is not None and log.rounds[0].client_seed == "client-seed-1"
        assert log.rounds[0].server_seed == "server-seed-1"

    run(url, scenario)


def test_a_play_is_stored_once(url: str | None) -> None:
    @with_players
    async def scenario(tables: Tables) -> None:
        store = tables.store
        await table_with_round(tables)
        await store.add_play("t1", play(1, 1, "5H"))
        with pytest.raises(DuplicatePlay, match="play 1 of round 1 of table t1"):
            await store.add_play("t1", play(1, 1, "5H"))
        with pytest.raises(DuplicatePlay):
            await store.add_play("t1", play(1, 1, "KD", by_bot=True))
        await store.add_play("t1", play(1, 2, "7S"))
        log = await store.load("t1")
        assert log is not None and log.plays == (play(1, 1, "5H"), play(1, 2, "7S"))

    run(url, scenario)


def test_a_play_needs_its_round_and_is_then_no_duplicate(url: str | None) -> None:
    @with_players
    async def scenario(tables: Tables) -> None:
        store = tables.store
        await table_with_round(tables)
        for table_id, row in (("t1", play(2, 1)), ("t9", play(1, 1))):
            with pytest.raises(StoreError) as error:
                await store.add_play(table_id, row)
            assert not isinstance(error.value, DuplicatePlay)
        await store.add_play("t1", play(1, 1))

    run(url, scenario)


def test_plays_of_many_tables_at_once(url: str | None) -> None:
    @with_players
    async def scenario(tables: Tables) -> None:
        for n in range(4):
            await table_with_round(tables, f"t{n}")
        await tables.store.add_play("t2", play(1, 1, "5H"))
        results = await asyncio.gather(
            *(tables.store.add_play(f"t{n}", play(1, 1, "7S")) for n in range(4)),
            return_exceptions=True)
        assert [type(r).__name__ for r in results] == [
            "NoneType", "NoneType", "DuplicatePlay", "NoneType"]
        for n in range(4):
            log = await tables.store.load(f"t{n}")
            assert log is not None
            assert [p.card for p in log.plays] == ["5H" if n == 2 else "7S"]

    run(url, scenario)


def test_a_tables_match_length_and_tournament_come_back(url: str | None) -> None:
    @with_players
    async def scenario(tables: Tables) -> None:
        store = tables.store
        await bot_table(tables, "t1")
        plain = await store.table("t1")
        assert plain is not None and (plain.length, plain.tournament_id) == ("full", None)
        made = table("t2", kind="tournament", length="short", tournament_id="e1")
        await store.create_table(made, [seat(0, player="p1"), seat(1, player="p2")])
        assert await store.table("t2") == made
        log = await store.load("t2")
        assert log is not None and log.table == made
        for refused in (table("t3", length="long"), table("t3", kind="ladder")):
            with pytest.raises(StoreError, match="cannot create table t3"):
                await store.create_table(refused, [])
        assert await store.table("t3") is None

    run(url, scenario)


def test_an_invite_code_finds_its_table_whatever_its_status(url: str | None) -> None:
    @with_players
    async def scenario(tables: Tables) -> None:
        store = tables.store
        await bot_table(tables, "t1", invite_code="ABCD")
        await bot_table(tables, "t2")
        found = await store.table_by_code("ABCD")
        assert found is not None and found.id == "t1"
        assert await store.table_by_code("abcd") is None
        with pytest.raises(StoreError, match="cannot create table t3"):
            await bot_table(tables, "t3", invite_code="ABCD")
        assert await store.table("t3") is None
        await store.finish_table("t1", {"winner": 0})
        found = await store.table_by_code("ABCD")
        assert found is not None and found.status == "finished"

    run(url, scenario)


def test_set_seat_replaces_a_seat(url: str | None) -> None:
    @with_players
    async def scenario(tables: Tables) -> None:
        store = tables.store
        await bot_table(tables)
        await store.set_seat("t1", seat(1, player="p2", client_seed="badr's seed"))
        await store.set_seat("t1", replace(seat(0, player="p1", bot="medium",
                                                client_seed="new"), nickname="ignored"))
        log = await store.load("t1")
        assert log is not None
        assert log.seats == (SeatRow(0, "p1", "medium", "new", nickname="Amal"),
                             SeatRow(1, "p2", None, "badr's seed", nickname="Badr"))
        with pytest.raises(StoreError, match="cannot set seat 0 of table t9"):
            await store.set_seat("t9", seat(0, bot="easy"))
        with pytest.raises(StoreError, match="cannot set seat 1 of table t1"):
            await store.set_seat("t1", seat(1, player="nobody"))
        log = await store.load("t1")
        assert log is not None and log.seats[1].player_id == "p2"  # the old row stays

    run(url, scenario)


def test_status_changes_and_live_tables(url: str | None) -> None:
    @with_players
    async def scenario(tables: Tables) -> None:
        store = tables.store
        for number, status in enumerate(("playing", "waiting", "finished", "abandoned",
                                         "waiting")):
            await bot_table(tables, f"t{number}", status=status,
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
        assert (await store.live_tables())[-1] == "t1"  # unchanged

    run(url, scenario)


def test_finish_table(url: str | None) -> None:
    @with_players
    async def scenario(tables: Tables) -> None:
        store = tables.store
        await bot_table(tables, "t1", status="playing")
        await bot_table(tables, "t2", status="playing", rated=True)
        result = {"winner": 1, "totals": (80, 101), "sets": []}
        assert await store.finish_table("t1", result) is result
        finished = await store.table("t1")
        assert finished is not None and finished.status == "finished"
        assert finished.finished_at is not None and finished.finished_at.tzinfo == UTC
        assert finished.result == {"winner": 1, "totals": [80, 101], "sets": []}  # JSON
        assert not finished.rated
        await store.finish_table("t2", {"winner": 0, "unrated": True})
        casual = await store.table("t2")
        assert casual is not None and not casual.rated  # rated, but its result was not
        assert await store.live_tables() == []
        with pytest.raises(StoreError, match="no table t9"):
            await store.finish_table("t9", {})

    run(url, scenario)


def test_a_rated_match_is_finished_once(url: str | None) -> None:
    """What the memory store keeps of rating: the first finish is the one stored (the SQL
    store rates it there and then; the memory store rates nothing)."""
    @with_players
    async def scenario(tables: Tables) -> None:
        store = tables.store
        await store.create_table(table("t1", status="playing", rated=True),
                                 [seat(0, player="p1"), seat(1, player="p2")])
        game = RatedGame.two("egyptian", ("p1", "p2"), 1.0)
        first = await store.finish_table("t1", {"winner": 0, "totals": [101, 40]}, game)
        again = await store.finish_table("t1", {"winner": 1, "totals": [0, 0]}, game)
        assert again == first and first["winner"] == 0
        finished = await store.table("t1")
        assert finished is not None and finished.status == "finished"
        assert finished.rated and finished.result == first

    run(url, scenario)
