"""Migration 0008 (tournaments) on SQLite and PostgreSQL: a database of revision 0007 with a
match in it is carried to head and back without losing a seat, a round or a play. On SQLite
the check on a table's kind is widened in place, not by rebuilding ``tables``: a rebuild
would drop the table, and the drop's implicit delete would cascade to its seats, rounds and
plays."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa
from alembic import command
from sqlalchemy.ext.asyncio import AsyncEngine

from basra.store import Store, StoreError
from basra.store.schema import UtcDateTime
from basra.store.sql import alembic_config, create_engine
from basra.store.sql.engine import create_schema
from basra.store.urls import database
from store.test_store import run, scalars, seat, table

AT = datetime(2025, 1, 1, 11, tzinfo=UTC)


def columns(name: str, *names: str, moments: tuple[str, ...] = ()) -> sa.TableClause:
    """Table ``name`` as revision 0007 had it: only the columns named (and times)."""
    return sa.table(name, *(sa.column(n) for n in names),
                    *(sa.column(n, UtcDateTime()) for n in moments))


async def migrated(url: str, revision: str, down: bool = False) -> AsyncEngine:
    """An engine on the database at ``url``, taken up (or down) to ``revision``."""
    where = database(url, None)
    if where.sqlite_path is not None:
        where.sqlite_path.parent.mkdir(parents=True, exist_ok=True)
    if where.schema:
        await create_schema(where)
    engine = create_engine(where)
    move = command.downgrade if down else command.upgrade
    async with engine.begin() as connection:
        await connection.run_sync(lambda sync: move(alembic_config(sync), revision))
    return engine


async def a_0007_match(url: str) -> None:
    """A database at 0007 holding Amal's finished match against a bot: two seats, a round,
    two plays."""
    engine = await migrated(url, "0007")
    async with engine.begin() as connection:
        await connection.execute(sa.insert(columns(
            "players", "id", "nickname", "token_hash", moments=("created_at",))).values(
            id="p1", nickname="Amal", token_hash="hash-p1", created_at=AT))
        await connection.execute(sa.insert(columns(
            "tables", "id", "kind", "variant", "seats", "teams", "clock_seconds", "bot_level",
            "status", moments=("created_at",))).values(
            id="t1", kind="quick", variant="egyptian", seats=2, teams=False,
            clock_seconds=30.0, bot_level="easy", status="finished", created_at=AT))
        await connection.execute(sa.insert(columns(
            "table_seats", "table_id", "seat", "player_id", "bot_level", "client_seed")), [
            {"table_id": "t1", "seat": 0, "player_id": "p1", "bot_level": None,
             "client_seed": "seed-a"},
            {"table_id": "t1", "seat": 1, "player_id": None, "bot_level": "easy",
             "client_seed": "seed-b"}])
        await connection.execute(sa.insert(columns(
            "rounds", "table_id", "number", "server_seed", "commitment", "client_seed")).values(
            table_id="t1", number=1, server_seed="server-1", commitment="commit-1",
            client_seed="client-1"))
        await connection.execute(sa.insert(columns(
            "plays", "table_id", "round_number", "index", "seat", "card", "take", "by_bot",
            moments=("created_at",))), [
            {"table_id": "t1", "round_number": 1, "index": 1, "seat": 0, "card": "5H",
             "take": "", "by_bot": False, "created_at": AT},
            {"table_id": "t1", "round_number": 1, "index": 2, "seat": 1, "card": "5S",
             "take": "5H", "by_bot": True, "created_at": AT}])
    await engine.dispose()


async def the_match_is_whole(store: Store) -> None:
    log = await store.load("t1")
    assert log is not None
    assert [(s.seat, s.player_id, s.bot_level) for s in log.seats] == [
        (0, "p1", None), (1, None, "easy")]
    assert [r.client_seed for r in log.rounds] == ["client-1"]
    assert [(p.card, p.take) for p in log.plays] == [("5H", ()), ("5S", ("5H",))]


def test_a_0007_database_goes_to_0008_and_back_whole(url: str) -> None:
    asyncio.run(a_0007_match(url))

    async def upgraded(store: Store) -> None:
        assert await scalars(store, "SELECT version_num FROM alembic_version") == ["0012"]
        if url.startswith("sqlite"):  # the definition edited in place is sound
            assert await scalars(store, "PRAGMA integrity_check") == ["ok"]
            assert await scalars(store, "PRAGMA foreign_key_check") == []
        await the_match_is_whole(store)
        old = await store.table("t1")
        assert old is not None and (old.length, old.tournament_id) == ("full", None)
        await store.create_table(table("t2", kind="tournament", tournament_id="e1",
                                       length="short"), [seat(0, player="p1")])
        for refused in (table("t3", kind="ladder"), table("t3", length="long")):
            with pytest.raises(StoreError, match="cannot create table t3"):
                await store.create_table(refused, [])

    run(url, upgraded)

    async def downgraded() -> None:
        engine = await migrated(url, "0007", down=True)
        async with engine.connect() as connection:
            kinds = await connection.execute(sa.text("SELECT id, kind FROM tables ORDER BY id"))
            assert kinds.all() == [("t1", "quick"), ("t2", "quick")]
            with pytest.raises(sa.exc.IntegrityError):
                await connection.execute(sa.text("UPDATE tables SET kind = 'tournament'"))
        await engine.dispose()

    asyncio.run(downgraded())
    run(url, the_match_is_whole)  # and up again
