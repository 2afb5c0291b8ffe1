"""PostgreSQL's reads (on this machine's real server: it fails, never skips, when absent): a
read of one SELECT runs on its own, without BEGIN and COMMIT (PostgreSQL answers a single
statement as of one moment by itself), so a point read is two round trips, not four; a read
of several statements still runs in one transaction."""

from __future__ import annotations

import asyncio
import uuid

from sqlalchemy import select, text
from sqlalchemy.engine import Connection

from basra.store.schema import players
from basra.store.sql import SqlStore
from basra.store.urls import database
from postgres_helpers import POSTGRES, drop_schema

# Each statement outside a transaction block is a transaction of its own, with its own id;
# inside one, every statement shares the block's.
XID = text("SELECT txid_current()")


def test_one_select_runs_on_its_own_and_several_in_one_transaction() -> None:
    schema = f"basra_test_{uuid.uuid4().hex[:16]}"

    async def scenario() -> None:
        store = SqlStore(database(f"{POSTGRES}?schema={schema}"))
        await store.open()
        try:
            sql = store.sql

            def two_ids(connection: Connection) -> bool:
                return bool(connection.execute(XID).scalar()
                            != connection.execute(XID).scalar())

            assert await sql.reading(two_ids, one_statement=True) is True  # no BEGIN
            assert await sql.reading(two_ids) is False  # one transaction
            # The store's one-statement reads read what was written.
            await store.create_player("p1", "One", "hash-1")
            found = await store.player("p1")
            assert found is not None and found.nickname == "One"
            rows = await sql.rows(select(players.c.nickname).where(players.c.id == "p1"))
            assert [tuple(r) for r in rows] == [("One",)]
        finally:
            await store.close()
            await drop_schema(schema)

    asyncio.run(scenario())
