"""The store on SQLAlchemy 2 Core: SQLite through the ``sqlite3`` driver, PostgreSQL through
asyncpg (each transaction run whole: :mod:`.engine`).

One implementation in SQLAlchemy Core for both back ends, in two layers:

- :mod:`.engine`: one :class:`SqlEngine` per database, that connects, migrates, and runs
  every statement in a transaction: reads as of one moment, writes through one group
  commit (a write asked for while the last transaction ran goes in the next one, so one
  commit and one disk flush serve them all). The back ends' differences (SQLite's pragmas
  and its one writer, PostgreSQL's schemas and isolation) live there and only there.
- one class per port of :mod:`basra.store.ports`, each a :class:`SqlPort` holding that one
  engine: :class:`SqlTables` (:mod:`.tables`), :class:`SqlIdentity` (:mod:`.identity`),
  :class:`SqlRatings` (:mod:`.ratings`), :class:`SqlAnalyses` (:mod:`.analyses`),
  :class:`SqlHistory` (:mod:`.history`), :class:`SqlTournaments` (:mod:`.tournaments`),
  :class:`SqlSocial` (:mod:`.social`), :class:`SqlLearning` (:mod:`.learning`);
  :mod:`.rows` turns records into column values and rows back into records for all of
  them.

:class:`SqlStore` is every port at once over one engine, with the lifecycle: the
:class:`~basra.store.ports.Store` the composition root opens. The ports are joined by
inheritance rather than delegation because each already *is* its methods over the shared
engine: joining them adds no code, and every write of every port still meets the others in
one group commit (a port built alone over an engine of its own would not). Every method
runs in one transaction that is committed before it returns, so a play the server has
stored is on disk before the server broadcasts it.
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from basra.store.sql.analyses import SqlAnalyses
from basra.store.sql.engine import (
    COMMIT_HOOKS,
    CommitHook,
    SqlEngine,
    SqlPort,
    alembic_config,
    create_engine,
    migrate,
    operation_of,
)
from basra.store.sql.history import SqlHistory
from basra.store.sql.identity import SqlIdentity
from basra.store.sql.learning import SqlLearning
from basra.store.sql.moderation import SqlModeration
from basra.store.sql.ratings import SqlRatings
from basra.store.sql.social import SqlSocial
from basra.store.sql.tables import SqlTables
from basra.store.sql.tournaments import SqlTournaments
from basra.store.urls import Database

__all__ = [
    "COMMIT_HOOKS",
    "CommitHook",
    "SqlAnalyses",
    "SqlEngine",
    "SqlHistory",
    "SqlIdentity",
    "SqlLearning",
    "SqlModeration",
    "SqlPort",
    "SqlRatings",
    "SqlSocial",
    "SqlStore",
    "SqlTables",
    "SqlTournaments",
    "alembic_config",
    "create_engine",
    "migrate",
    "operation_of",
]


class SqlStore(SqlTables, SqlIdentity, SqlRatings, SqlAnalyses, SqlHistory, SqlTournaments,
               SqlSocial, SqlLearning, SqlModeration):
    """The :class:`~basra.store.ports.Store` on SQLite or PostgreSQL: every port over one
    :class:`SqlEngine` (see the package's docstring)."""

    def __init__(self, database: Database) -> None:
        super().__init__(SqlEngine(database))
        self.database = database

    def __repr__(self) -> str:
        return f"SqlStore({self.database})"

    @property
    def engine(self) -> AsyncEngine:
        """The open engine (for diagnostics and tests); a StoreError if the store is closed."""
        return self.sql.engine

    async def open(self) -> None:
        """Connect and migrate to head; nothing if already open."""
        await self.sql.open()

    async def close(self) -> None:
        await self.sql.close()

    async def ping(self) -> bool:
        return await self.sql.ping()
