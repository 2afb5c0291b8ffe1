"""The store on SQLAlchemy 2 (asyncio): SQLite through aiosqlite, PostgreSQL through asyncpg.

One implementation in SQLAlchemy Core for both back ends. Every method runs in one
transaction that is committed before the method returns, so a play the server has stored
is on disk before the server broadcasts it.

- **SQLite** runs in WAL mode with ``synchronous=FULL``: every commit syncs the log, so a
  committed play survives a power cut or an OS crash too (with ``NORMAL`` the last commits
  may roll back then; a killed process loses nothing either way). Foreign keys are on and
  a busy timeout makes a second writer wait instead of failing. SQLAlchemy, not the sqlite3
  module, begins the transactions (the module's legacy mode would run DDL outside any):
  writes with ``BEGIN IMMEDIATE``, which takes the write lock first and so never fails
  half-way for want of it, reads with a plain ``BEGIN`` that does not block writers.
  A store's writes queue on an asyncio lock, so they never wait in SQLite's busy handler
  (which sleeps in steps of up to 100 ms); the busy timeout is left for other processes.
- **PostgreSQL** reads run in REPEATABLE READ, so a table's log is read as of one moment.

:meth:`SqlStore.open` runs the Alembic migrations in one write transaction that holds a
lock first (an advisory lock on PostgreSQL, the write lock on SQLite): two servers started
at once on a new database migrate it once, and the second finds it up to date.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.util import CommandError
from sqlalchemy import (
    ColumnElement,
    Select,
    Table,
    and_,
    bindparam,
    case,
    delete,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Row
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import NullPool

from basra.confusables import lookalike_key
from basra.ratings import Rating, rate_game
from basra.store.base import (
    DELETED_NAME,
    GUEST_SESSION_IDLE,
    SESSION_IDLE,
    SESSION_MAX_AGE,
    AccountRow,
    AlreadyClaimed,
    AnalysisRow,
    ChallengeRow,
    DuplicatePlay,
    HistoryRow,
    LeaderRow,
    PasskeyRow,
    PlayerRow,
    PlayRecord,
    PlayRow,
    RatedGame,
    RatingPoint,
    RatingRow,
    RoundRow,
    SeatRow,
    SessionRow,
    Store,
    StoreError,
    TableLog,
    TableRow,
    TableStatus,
    UsernameLookalike,
    UsernameTaken,
)
from basra.store.schema import (
    UtcDateTime,
    analyses,
    challenges,
    passkeys,
    players,
    plays,
    ratings,
    rounds,
    sessions,
    table_seats,
    tables,
)
from basra.store.urls import Database

MIGRATIONS = Path(__file__).with_name("migrations")
MIGRATION_LOCK = 0x6261_7372_61
"""The PostgreSQL advisory lock the migrations run under ("basra")."""
SQLITE_BUSY_TIMEOUT_MS = 15_000
SQLITE_PRAGMAS = (
    f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}",
    "PRAGMA journal_mode = WAL",
    "PRAGMA synchronous = FULL",
    "PRAGMA foreign_keys = ON",
)
SESSIONS_KEPT = 50
"""The most sessions one player keeps (signed-in devices); a new one ends the oldest."""
READ_ONLY = "basra_read_only"
"""Execution option of the connections that only read (SQLite begins them deferred)."""
PING_TIMEOUT = 5.0
LIVE: tuple[TableStatus, ...] = ("waiting", "playing")
R = TypeVar("R")

CommitHook = Callable[[str, float], None]
"""Told of each committed write: its operation (:func:`operation_of`) and its seconds."""
COMMIT_HOOKS: list[CommitHook] = []
"""Who times every store's commits (the server's metrics add theirs on import); the
store itself imports nothing of the server."""


def operation_of(what: str) -> str:
    """A write's kind, from what it does: its first two words that are not numbers.

    >>> operation_of("set seat 2 of table t1"), operation_of("store 3 plays")
    ('set seat', 'store plays')
    """
    return " ".join([word for word in what.split() if not word.isdigit()][:2])


WriteOp = Callable[[AsyncConnection], Awaitable[R]]
"""A write's statements, run inside a transaction the store opens and commits."""


@dataclass(frozen=True, slots=True)
class Pending:
    """A write waiting for the next group commit: its statements (``op``) or a play."""

    what: str
    op: WriteOp[Any] | None
    play: tuple[str, PlayRow] | None
    future: asyncio.Future[Any]
    asked: float
    """When it was asked for (``time.perf_counter()``)."""


# ---------------------------------------------------------------------------------------
# engines and migrations

log = logging.getLogger("basra.store")


def alembic_config(connection: Connection | None = None) -> Config:
    """Alembic's configuration for the packaged migrations (on ``connection`` if given)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS).replace("%", "%%"))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def migrate(connection: Connection) -> None:
    """Upgrade the schema to head inside ``connection``'s open write transaction, and say in
    the log what it did (a first start creates the schema; a new release migrates it)."""
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
    before = MigrationContext.configure(connection).get_current_revision()
    command.upgrade(alembic_config(connection), "head")
    after = MigrationContext.configure(connection).get_current_revision()
    if before == after:
        log.info("database schema up to date (%s)", after)
    else:
        log.info("database migrated from %s to schema %s", before or "empty", after)


def create_engine(database: Database) -> AsyncEngine:
    """An engine for ``database``, set up as the module's docstring says."""
    if database.is_sqlite:
        engine = create_async_engine(database.url)
        event.listen(engine.sync_engine, "connect", _sqlite_connect)
        event.listen(engine.sync_engine, "begin", _sqlite_begin)
        return engine
    connect_args: dict[str, Any] = {}
    if database.schema:
        connect_args["server_settings"] = {"search_path": database.schema}
    return create_async_engine(database.url, pool_pre_ping=True, connect_args=connect_args)


def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    """Hand transactions to SQLAlchemy and set the durability pragmas."""
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    for pragma in SQLITE_PRAGMAS:
        _sqlite_pragma(cursor, pragma)
    cursor.close()


def _sqlite_pragma(cursor: Any, pragma: str) -> None:
    """Run a pragma, waiting while another connection holds the database: switching a new
    database to WAL can answer "database is locked" at once, without the busy handler."""
    deadline = time.monotonic() + SQLITE_BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            cursor.execute(pragma)
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def _sqlite_begin(connection: Connection) -> None:
    read_only = connection.get_execution_options().get(READ_ONLY, False)
    connection.exec_driver_sql("BEGIN" if read_only else "BEGIN IMMEDIATE")


async def create_schema(database: Database) -> None:
    """Create the PostgreSQL schema the URL names, if missing (under the migration lock).

    A connection of its own: the store's engine learns its default schema on its first
    connection, so the schema must exist before that one.
    """
    engine = create_async_engine(database.url, poolclass=NullPool)
    try:
        async with engine.begin() as connection:
            await connection.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                                     {"key": MIGRATION_LOCK})
            await connection.execute(text(f'CREATE SCHEMA IF NOT EXISTS "{database.schema}"'))
    finally:
        await engine.dispose()


def reason(error: BaseException) -> str:
    """One line saying why a database operation failed (the driver's own words)."""
    cause = getattr(error, "orig", None) or error
    lines = str(cause).strip().splitlines() or [type(cause).__name__]
    return re.sub(r"^<class '[\w.]+'>: ", "", lines[0])


def now() -> datetime:
    return datetime.now(UTC)


def aware(moment: datetime | None, what: str) -> datetime | None:
    """``moment`` if it is timezone-aware (or None); a StoreError if it is naive."""
    if moment is not None and moment.tzinfo is None:
        raise StoreError(f"{what} {moment} has no timezone: the store keeps aware UTC times")
    return moment


# ---------------------------------------------------------------------------------------
# the store


class SqlStore(Store):
    """The :class:`Store` on SQLite or PostgreSQL (see the module's docstring)."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self._engine: AsyncEngine | None = None
        self._writer: AbstractAsyncContextManager[Any] = (
            asyncio.Lock() if database.is_sqlite else nullcontext())
        self._pending: list[Pending] = []
        self._flusher: asyncio.Task[None] | None = None

    def __repr__(self) -> str:
        return f"SqlStore({self.database})"

    @property
    def engine(self) -> AsyncEngine:
        """The open engine (for diagnostics and tests); a StoreError if the store is closed."""
        if self._engine is None:
            raise StoreError("the store is not open: await store.open() first")
        return self._engine

    async def open(self) -> None:
        """Connect and migrate to head; nothing if already open."""
        if self._engine is None:
            self._engine = await self._connect()

    async def _connect(self) -> AsyncEngine:
        path = self.database.sqlite_path
        engine = None
        try:
            if path is not None:
                path.parent.mkdir(parents=True, exist_ok=True)
            if self.database.schema:
                await create_schema(self.database)
            engine = create_engine(self.database)
            async with engine.begin() as connection:
                await connection.run_sync(migrate)
        except (SQLAlchemyError, CommandError, OSError) as error:
            if engine is not None:
                await engine.dispose()
            raise StoreError(f"cannot open the store {self.database}: {reason(error)}") from error
        return engine

    async def close(self) -> None:
        if self._flusher is not None:
            with contextlib.suppress(Exception):
                await self._flusher
        engine, self._engine = self._engine, None
        if engine is not None:
            await engine.dispose()

    async def ping(self) -> bool:
        if self._engine is None:
            return False
        try:
            async with asyncio.timeout(PING_TIMEOUT), self._read() as connection:
                await connection.execute(text("SELECT 1"))
        except (StoreError, TimeoutError):
            return False
        return True

    @asynccontextmanager
    async def _write(self, what: str) -> AsyncIterator[AsyncConnection]:
        """A write transaction, committed on leaving. A refused write (a constraint) or a
        failing database is a StoreError whose cause is SQLAlchemy's error."""
        try:
            async with self._writer, self.engine.begin() as connection:
                yield connection
        except (SQLAlchemyError, OSError) as error:
            raise StoreError(f"cannot {what}: {reason(error)}") from error

    async def _batched(self, what: str, op: WriteOp[R]) -> R:
        """Run the write ``op`` in the next group commit; returns its result once committed
        (see :meth:`_flush`)."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending.append(Pending(what, op, None, future, time.perf_counter()))
        self._flush_soon()
        result: R = await future
        return result

    def _flush_soon(self) -> None:
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush())

    async def _flush(self) -> None:
        """Group commit: every write asked for while the last transaction ran goes in the
        next one (in the order asked; the plays together in one statement), so that one
        commit and one disk flush serve them all. If the transaction is refused, each
        write is done again alone, so that each caller learns its own outcome."""
        while self._pending:
            batch, self._pending = self._pending, []
            results: list[Any] = []
            try:
                async with self._write(f"store {len(batch)} writes") as connection:
                    for item in batch:
                        results.append(None if item.op is None else await item.op(connection))
                    rows = [play_values(*item.play) for item in batch if item.play]
                    if rows:
                        await connection.execute(insert(plays), rows)
            except Exception:  # one of them is refused (a duplicate?): one by one
                for item in batch:
                    await self._alone(item)
                continue
            for item, result in zip(batch, results, strict=True):
                self._done(item, result)

    async def _alone(self, item: Pending) -> None:
        result: Any = None
        try:
            if item.play is not None:
                await self._add_play_alone(*item.play)
            else:
                assert item.op is not None
                async with self._write(item.what) as connection:
                    result = await item.op(connection)
        except Exception as error:
            if not item.future.done():
                item.future.set_exception(error)
            return
        self._done(item, result)

    @staticmethod
    def _done(item: Pending, result: Any) -> None:
        if COMMIT_HOOKS:
            operation, seconds = operation_of(item.what), time.perf_counter() - item.asked
            for hook in COMMIT_HOOKS:
                hook(operation, seconds)
        if not item.future.done():
            item.future.set_result(result)

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[AsyncConnection]:
        """A read-only transaction that sees the database as of one moment."""
        try:
            async with self.engine.connect() as connection:
                if connection.dialect.name == "postgresql":
                    await connection.execution_options(isolation_level="REPEATABLE READ")
                await connection.execution_options(**{READ_ONLY: True})
                async with connection.begin():
                    yield connection
        except (SQLAlchemyError, OSError) as error:
            raise StoreError(f"cannot read the store {self.database}: {reason(error)}") from error

    async def _rows(self, query: Select[Any],
                    parameters: Mapping[str, Any] | None = None) -> Sequence[Row[Any]]:
        async with self._read() as connection:
            rows: Sequence[Row[Any]] = (await connection.execute(query, parameters)).all()
        return rows

    async def _first(self, query: Select[Any]) -> Row[Any] | None:
        rows = await self._rows(query.limit(1))
        return rows[0] if rows else None

    async def _find(self, table: Table, where: ColumnElement[bool],
                    record: Callable[[Row[Any]], R]) -> R | None:
        """The record of the first row of ``table`` that matches ``where``, if any."""
        row = await self._first(select(table).where(where))
        return None if row is None else record(row)

    # players

    async def create_player(self, player_id: str, nickname: str, token_hash: str) -> PlayerRow:
        """A new guest with its first session (whose token hashes to ``token_hash``)."""
        row = PlayerRow(player_id, nickname, now())

        async def op(connection: AsyncConnection) -> None:
            await connection.execute(insert(players).values(
                id=row.id, nickname=row.nickname, token_hash=token_hash,
                created_at=row.created_at))
            await connection.execute(insert(sessions).values(
                id=f"first-{player_id}", player_id=player_id, token_hash=token_hash,
                kind="guest", created_at=row.created_at))

        await self._batched(f"create player {player_id}", op)
        return row

    async def rename_player(self, player_id: str, nickname: str) -> None:
        async def op(connection: AsyncConnection) -> None:
            done = await connection.execute(
                update(players).where(players.c.id == player_id).values(nickname=nickname))
            if done.rowcount == 0:
                raise StoreError(f"no player {player_id}")

        await self._batched(f"rename player {player_id}", op)

    async def player_by_token(self, token_hash: str) -> PlayerRow | None:
        rows = await self._rows(PLAYER_BY_TOKEN, {"token_hash": token_hash,
                                                  **alive_at(now())})
        return player_row(rows[0]) if rows else None

    async def touch_session(self, token_hash: str) -> None:
        async def op(connection: AsyncConnection) -> None:
            await connection.execute(update(sessions).where(
                sessions.c.token_hash == token_hash).values(last_seen_at=now()))

        await self._batched("touch a session", op)

    async def player(self, player_id: str) -> PlayerRow | None:
        return await self._find(players, players.c.id == player_id, player_row)

    # accounts and sessions

    async def claim_account(self, player_id: str, username: str,
                            password_hash: str | None) -> PlayerRow:
        key, look = username_key(username), lookalike_key(username)

        async def op(connection: AsyncConnection) -> None:
            taken = (await connection.execute(select(players.c.id).where(
                players.c.username_key == key, players.c.id != player_id))).first()
            if taken is not None:
                raise UsernameTaken(f"the username {username!r} is taken")
            like = (await connection.execute(select(players.c.username).where(
                players.c.username_skeleton == look, players.c.id != player_id,
                players.c.deleted_at.is_(None)))).first()
            if like is not None:
                raise UsernameLookalike(
                    f"the username {username!r} looks like {like.username!r}")
            done = await connection.execute(
                update(players).where(players.c.id == player_id,
                                      players.c.deleted_at.is_(None),
                                      players.c.username.is_(None))
                .values(username=username, username_key=key, username_skeleton=look,
                        password_hash=password_hash))
            if done.rowcount == 0:
                raise AlreadyClaimed(f"player {player_id} is not a guest that may be claimed")

        try:
            await self._batched(f"claim account {player_id}", op)
        except (UsernameTaken, UsernameLookalike, AlreadyClaimed):
            raise
        except StoreError as error:
            if isinstance(error.__cause__, IntegrityError):  # claimed at the same moment
                raise UsernameTaken(f"the username {username!r} is taken") from error
            raise
        found = await self.player(player_id)
        assert found is not None
        return found

    async def account(self, username: str) -> AccountRow | None:
        row = await self._first(select(players).where(
            players.c.username_key == username_key(username), players.c.deleted_at.is_(None)))
        return None if row is None else AccountRow(player_row(row), row.password_hash)

    async def lookalike(self, username: str) -> str | None:
        row = await self._first(select(players.c.username).where(
            players.c.username_skeleton == lookalike_key(username),
            players.c.deleted_at.is_(None)).order_by(players.c.created_at).limit(1))
        return None if row is None else str(row.username)

    async def set_password(self, player_id: str, password_hash: str) -> None:
        await self._update(players, players.c.id == player_id, f"player {player_id}",
                           password_hash=password_hash)

    async def delete_account(self, player_id: str) -> None:
        async def op(connection: AsyncConnection) -> None:
            done = await connection.execute(
                update(players).where(players.c.id == player_id).values(
                    nickname=DELETED_NAME, username=None, username_key=None,
                    username_skeleton=None,
                    password_hash=None, deleted_at=now()))
            if done.rowcount == 0:
                raise StoreError(f"no player {player_id}")
            for table in (sessions, passkeys, challenges, ratings):
                await connection.execute(delete(table).where(table.c.player_id == player_id))

        await self._batched(f"delete account {player_id}", op)

    async def add_session(self, session: SessionRow, token_hash: str) -> None:
        """A new session; past :data:`SESSIONS_KEPT` of the player's, the oldest end."""
        async def op(connection: AsyncConnection) -> None:
            await connection.execute(insert(sessions).values(
                id=session.id, player_id=session.player_id, token_hash=token_hash,
                kind=session.kind, created_at=aware(session.created_at, "created_at"),
                user_agent=session.user_agent, address=session.address,
                proved_at=aware(session.proved_at, "proved_at")))
            kept = (select(sessions.c.id).where(sessions.c.player_id == session.player_id)
                    .order_by(sessions.c.created_at.desc(), sessions.c.id.desc())
                    .limit(SESSIONS_KEPT))
            await connection.execute(delete(sessions).where(
                sessions.c.player_id == session.player_id, sessions.c.id.not_in(kept)))

        await self._batched(f"add session of player {session.player_id}", op)

    async def session_by_token(self, token_hash: str) -> SessionRow | None:
        rows = await self._rows(SESSION_BY_TOKEN, {"token_hash": token_hash,
                                                   **alive_at(now())})
        return session_row(rows[0]) if rows else None

    async def sessions(self, player_id: str) -> list[SessionRow]:
        query = (select(sessions).where(sessions.c.player_id == player_id)
                 .order_by(sessions.c.created_at.desc(), sessions.c.id))
        return [session_row(row) for row in await self._rows(query)]

    async def prove_session(self, session_id: str, token_hash: str) -> bool:
        async def op(connection: AsyncConnection) -> bool:
            done = await connection.execute(update(sessions).where(
                sessions.c.id == session_id).values(proved_at=now(), token_hash=token_hash))
            return bool(done.rowcount)

        return await self._batched(f"prove session {session_id}", op)

    async def revoke_sessions(self, player_id: str, session_id: str | None = None,
                              keep: str | None = None) -> int:
        where = sessions.c.player_id == player_id
        if session_id is not None:
            where = where & (sessions.c.id == session_id)
        if keep is not None:
            where = where & (sessions.c.id != keep)

        async def op(connection: AsyncConnection) -> int:
            done = await connection.execute(delete(sessions).where(where))
            return int(done.rowcount)

        return await self._batched(f"revoke sessions of player {player_id}", op)

    async def add_passkey(self, passkey: PasskeyRow) -> None:
        async def op(connection: AsyncConnection) -> None:
            await connection.execute(insert(passkeys).values(
                credential_id=passkey.credential_id, player_id=passkey.player_id,
                public_key=passkey.public_key, sign_count=passkey.sign_count,
                name=passkey.name, transports=" ".join(passkey.transports),
                created_at=aware(passkey.created_at, "created_at"),
                last_used_at=aware(passkey.last_used_at, "last_used_at"),
                added_by=passkey.added_by, added_from=passkey.added_from))

        await self._batched(f"add passkey of player {passkey.player_id}", op)

    async def passkey(self, credential_id: str) -> PasskeyRow | None:
        return await self._find(passkeys, passkeys.c.credential_id == credential_id,
                                passkey_row)

    async def passkeys(self, player_id: str) -> list[PasskeyRow]:
        query = (select(passkeys).where(passkeys.c.player_id == player_id)
                 .order_by(passkeys.c.created_at, passkeys.c.credential_id))
        return [passkey_row(row) for row in await self._rows(query)]

    async def passkey_used(self, credential_id: str, sign_count: int) -> None:
        await self._update(passkeys, passkeys.c.credential_id == credential_id,
                           f"passkey {credential_id}", sign_count=sign_count,
                           last_used_at=now())

    async def remove_passkey(self, player_id: str, credential_id: str) -> bool:
        async def op(connection: AsyncConnection) -> bool:
            done = await connection.execute(delete(passkeys).where(
                passkeys.c.player_id == player_id, passkeys.c.credential_id == credential_id))
            return bool(done.rowcount)

        return await self._batched(f"remove passkey of player {player_id}", op)

    async def put_challenge(self, challenge: ChallengeRow) -> None:
        async def op(connection: AsyncConnection) -> None:
            # the expired ones go as new ones come: the table stays small
            await connection.execute(delete(challenges).where(challenges.c.expires_at < now()))
            await connection.execute(insert(challenges).values(
                id=challenge.id, challenge=challenge.challenge, purpose=challenge.purpose,
                player_id=challenge.player_id,
                expires_at=aware(challenge.expires_at, "expires_at")))

        await self._batched("put challenge", op)

    async def take_challenge(self, challenge_id: str) -> ChallengeRow | None:
        async def op(connection: AsyncConnection) -> ChallengeRow | None:
            row = (await connection.execute(  # taken and deleted in one statement: once
                delete(challenges).where(challenges.c.id == challenge_id)
                .returning(*challenges.c))).first()
            if row is None:
                return None
            return ChallengeRow(row.id, bytes(row.challenge), row.purpose, row.player_id,
                                row.expires_at)

        return await self._batched("take challenge", op)

    async def _update(self, table: Table, where: ColumnElement[bool], what: str,
                      **values: Any) -> None:
        async def op(connection: AsyncConnection) -> None:
            done = await connection.execute(update(table).where(where).values(**values))
            if done.rowcount == 0:
                raise StoreError(f"no {what}")

        await self._batched(f"update {what}", op)

    # ratings

    async def ratings(self, player_id: str) -> list[RatingRow]:
        query = (select(ratings).where(ratings.c.player_id == player_id)
                 .order_by(ratings.c.variant))
        return [rating_row(row) for row in await self._rows(query)]

    async def rating_history(self, player_id: str, limit: int = 500) -> list[RatingPoint]:
        query = (select(tables.c.id, tables.c.variant, tables.c.finished_at,
                        table_seats.c.rating_before, table_seats.c.rating_after,
                        table_seats.c.deviation_after)
                 .join(table_seats, table_seats.c.table_id == tables.c.id)
                 .where(table_seats.c.player_id == player_id, tables.c.rated.is_(True),
                        tables.c.status == "finished", table_seats.c.rating_after.is_not(None))
                 .order_by(tables.c.finished_at.desc(), tables.c.id).limit(limit))
        rows = await self._rows(query)
        return [RatingPoint(row.id, row.variant, row.finished_at, row.rating_after,
                            row.deviation_after, row.rating_after - row.rating_before)
                for row in reversed(rows)]

    async def leaderboard(self, variant: str, since: datetime, limit: int = 100,
                          max_deviation: float = 75.0) -> list[LeaderRow]:
        query = (select(ratings, players.c.username, players.c.nickname)
                 .join(players, players.c.id == ratings.c.player_id)
                 .where(ratings.c.variant == variant, ratings.c.deviation < max_deviation,
                        ratings.c.rated_at >= aware(since, "since"),
                        players.c.deleted_at.is_(None), players.c.username.is_not(None))
                 .order_by(ratings.c.rating.desc(), ratings.c.games.desc(),
                           players.c.username_key)
                 .limit(limit))
        return [LeaderRow(row.player_id, row.username, row.nickname, row.rating, row.deviation,
                          row.games, row.rated_at) for row in await self._rows(query)]

    # tables and seats

    async def create_table(self, table: TableRow, seats: list[SeatRow]) -> None:
        values = table_values(table)

        async def op(connection: AsyncConnection) -> None:
            await connection.execute(insert(tables).values(values))
            if seats:
                await connection.execute(insert(table_seats),
                                         [seat_values(table.id, seat) for seat in seats])

        await self._batched(f"create table {table.id}", op)

    async def table(self, table_id: str) -> TableRow | None:
        return await self._find(tables, tables.c.id == table_id, table_row)

    async def table_by_code(self, invite_code: str) -> TableRow | None:
        return await self._find(tables, tables.c.invite_code == invite_code, table_row)

    async def analysis(self, table_id: str) -> AnalysisRow | None:
        row = await self._first(select(analyses).where(analyses.c.table_id == table_id))
        return None if row is None else AnalysisRow(**row._mapping)

    async def claim_analysis(self, table_id: str, iterations: int, seed: int,
                             stale_before: datetime) -> str | None:
        claim = secrets.token_hex(8)
        try:
            taken = await self._claim_analysis(table_id, claim, iterations, seed,
                                               stale_before)
        except StoreError as error:
            if isinstance(error.__cause__, IntegrityError):  # another node made the row
                return None
            raise
        return claim if taken else None

    async def _claim_analysis(self, table_id: str, claim: str, iterations: int, seed: int,
                              stale_before: datetime) -> bool:
        moment = now()
        async with self._write(f"claim the analysis of {table_id}") as connection:
            taken = await connection.execute(
                update(analyses).where((analyses.c.table_id == table_id) & (
                    (analyses.c.status == "failed") | ((analyses.c.status == "running")
                                                       & (analyses.c.updated_at
                                                          < stale_before))))
                .values(status="running", claim=claim, iterations=iterations, seed=seed,
                        requested_at=moment, updated_at=moment, analysis=None, message=None))
            if taken.rowcount:
                return True
            exists = await connection.execute(
                select(analyses.c.table_id).where(analyses.c.table_id == table_id))
            if exists.first() is not None:
                return False
            await connection.execute(insert(analyses).values(
                table_id=table_id, status="running", claim=claim, iterations=iterations,
                seed=seed,
                requested_at=moment, updated_at=moment))
        return True

    async def update_analysis(self, table_id: str, claim: str, status: str,
                              analysis: dict[str, Any] | None = None,
                              message: str | None = None) -> bool:
        values: dict[str, Any] = {"status": status, "updated_at": now()}
        if status != "running":
            values.update(analysis=analysis, message=message)
        async with self._write(f"store the analysis of {table_id}") as connection:
            done = await connection.execute(
                update(analyses).where((analyses.c.table_id == table_id)
                                       & (analyses.c.claim == claim)
                                       & (analyses.c.status == "running")).values(**values))
        return bool(done.rowcount)

    async def rematch_of(self, table_id: str) -> str | None:
        row = await self._first(select(tables.c.id).where(tables.c.rematch_of == table_id))
        return None if row is None else str(row[0])

    async def set_status(self, table_id: str, status: TableStatus) -> None:
        await self._update_table(table_id, status=status)

    async def finish_table(self, table_id: str, result: dict[str, Any],
                           rated: RatedGame | None = None) -> dict[str, Any]:
        if rated is None:
            # A rated table whose result was not rated (``unrated``: its players may not
            # play rated now) is kept as the casual match it was.
            unrated = {"rated": False} if result.get("unrated") else {}
            await self._update_table(table_id, status="finished", result=result,
                                     finished_at=now(), **unrated)
            return result

        async def op(connection: AsyncConnection) -> dict[str, Any]:
            before = (await connection.execute(
                select(tables.c.status, tables.c.result).where(tables.c.id == table_id)
                .with_for_update())).first()
            if before is not None and before.status == "finished":  # rated once only
                kept: dict[str, Any] = before.result or result
                return kept
            finished = now()
            rates = await rate(connection, table_id, rated, finished)
            stored = result if rates is None else {**result, "ratings": rates}
            done = await connection.execute(
                update(tables).where(tables.c.id == table_id).values(
                    status="finished", result=stored, finished_at=finished))
            if done.rowcount == 0:
                raise StoreError(f"no table {table_id}")
            return stored

        return await self._batched(f"finish rated table {table_id}", op)

    async def _update_table(self, table_id: str, **values: Any) -> None:
        async def op(connection: AsyncConnection) -> None:
            done = await connection.execute(
                update(tables).where(tables.c.id == table_id).values(**values))
            if done.rowcount == 0:
                raise StoreError(f"no table {table_id}")

        await self._batched(f"update table {table_id}", op)

    async def set_seat(self, table_id: str, seat: SeatRow) -> None:
        key = (table_seats.c.table_id == table_id) & (table_seats.c.seat == seat.seat)
        async def op(connection: AsyncConnection) -> None:
            await connection.execute(delete(table_seats).where(key))
            await connection.execute(insert(table_seats).values(seat_values(table_id, seat)))

        await self._batched(f"set seat {seat.seat} of table {table_id}", op)

    async def live_tables(self) -> list[str]:
        query = (select(tables.c.id).where(tables.c.status.in_(LIVE))
                 .order_by(tables.c.created_at, tables.c.id))
        return [row.id for row in await self._rows(query)]

    async def load(self, table_id: str) -> TableLog | None:
        async with self._read() as connection:
            table = (await connection.execute(
                select(tables).where(tables.c.id == table_id))).first()
            if table is None:
                return None
            seats = await connection.execute(seats_query([table_id]))
            round_rows = await connection.execute(
                select(rounds).where(rounds.c.table_id == table_id).order_by(rounds.c.number))
            play_rows = await connection.execute(
                select(plays).where(plays.c.table_id == table_id)
                .order_by(plays.c.round_number, plays.c["index"]))
            return TableLog(table_row(table), tuple(seat_row(row) for row in seats),
                            tuple(round_row(row) for row in round_rows),
                            tuple(play_row(row) for row in play_rows))

    # rounds and plays

    async def add_round(self, table_id: str, number: int, server_seed: str,
                        commitment: str) -> None:
        async def op(connection: AsyncConnection) -> None:
            await connection.execute(insert(rounds).values(
                table_id=table_id, number=number, server_seed=server_seed,
                commitment=commitment, client_seed=None, started_at=None))

        await self._batched(f"add round {number} to table {table_id}", op)

    async def start_round(self, table_id: str, number: int, client_seed: str) -> None:
        """Fix the client seed once; starting again with the same seed changes nothing,
        with another one is refused (the deck is already determined)."""
        key = (rounds.c.table_id == table_id) & (rounds.c.number == number)

        async def op(connection: AsyncConnection) -> None:
            done = await connection.execute(
                update(rounds).where(key, rounds.c.client_seed.is_(None))
                .values(client_seed=client_seed, started_at=now()))
            if done.rowcount == 1:
                return
            stored = (await connection.execute(select(rounds.c.client_seed).where(key))).first()
            if stored is None:
                raise StoreError(f"no round {number} in table {table_id}")
            if stored.client_seed != client_seed:
                raise StoreError(f"round {number} of table {table_id} has already started "
                                 "with another client seed")

        await self._batched(f"start round {number} of table {table_id}", op)

    async def add_play(self, table_id: str, play: PlayRow) -> None:
        """Append a play, durably, before returning. Plays stored at the same moment by
        different tables are committed together in one statement of one transaction
        (group commit, :meth:`_flush`); each caller returns only after its own commit."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending.append(Pending(
            f"store play {play.index} of round {play.round_number} of table {table_id}",
            None, (table_id, play), future, time.perf_counter()))
        self._flush_soon()
        await future

    async def _add_play_alone(self, table_id: str, play: PlayRow) -> None:
        values = play_values(table_id, play)
        where = f"play {play.index} of round {play.round_number} of table {table_id}"
        try:
            async with self._write(f"store {where}") as connection:
                await connection.execute(insert(plays).values(values))
        except StoreError as error:
            if isinstance(error.__cause__, IntegrityError) and await self._has_play(
                    table_id, play.round_number, play.index):
                raise DuplicatePlay(f"{where} is already stored") from error
            raise

    async def _has_play(self, table_id: str, round_number: int, index: int) -> bool:
        query = select(plays.c.seat).where(
            plays.c.table_id == table_id, plays.c.round_number == round_number,
            plays.c["index"] == index)
        return await self._first(query) is not None

    # history

    async def history(self, player_id: str, limit: int = 50) -> list[HistoryRow]:
        finished = func.coalesce(tables.c.finished_at, tables.c.created_at)
        query = (select(tables, func.min(table_seats.c.seat).label("my_seat"),
                        func.max(table_seats.c.rating_before).label("before"),
                        func.max(table_seats.c.rating_after).label("after"))
                 .join(table_seats, table_seats.c.table_id == tables.c.id)
                 .where(table_seats.c.player_id == player_id, tables.c.status == "finished")
                 .group_by(tables.c.id)
                 .order_by(finished.desc(), tables.c.id)
                 .limit(limit))
        async with self._read() as connection:
            matches = (await connection.execute(query)).all()
            seats = (await connection.execute(seats_query(row.id for row in matches))).all()
        names = seat_names(seats)
        return [history_row(row, names.get(row.id, ((), ()))) for row in matches]

    async def play_record(self, player_id: str, since: datetime) -> PlayRecord:
        finished = (select(func.count(func.distinct(tables.c.id)))
                    .join(table_seats, table_seats.c.table_id == tables.c.id)
                    .where(table_seats.c.player_id == player_id,
                           tables.c.status == "finished"))
        # A day's rated matches finished without ratings: the player's aborts are those
        # whose result names their seat (who never played, who resigned too early).
        unrated = (select(table_seats.c.seat, tables.c.result)
                   .join(table_seats, table_seats.c.table_id == tables.c.id)
                   .where(table_seats.c.player_id == player_id,
                          tables.c.status == "finished", tables.c.rated.is_(True),
                          table_seats.c.rating_after.is_(None),
                          tables.c.finished_at >= since)
                   .limit(1000))
        async with self._read() as connection:
            count = int((await connection.execute(finished)).scalar_one())
            rows = (await connection.execute(unrated)).all()
        aborted = sum(1 for seat, result in rows
                      if isinstance(result, dict) and result.get("aborted")
                      and seat in (result.get("aborted_by") or []))
        return PlayRecord(count, aborted)

    async def rated_between(self, first: str, second: str, since: datetime) -> int:
        one, two = table_seats.alias("one"), table_seats.alias("two")
        query = (select(func.count(func.distinct(tables.c.id)))
                 .join(one, one.c.table_id == tables.c.id)
                 .join(two, two.c.table_id == tables.c.id)
                 .where(one.c.player_id == first, two.c.player_id == second,
                        one.c.rating_after.is_not(None), tables.c.status == "finished",
                        tables.c.finished_at >= since))
        async with self._read() as connection:
            return int((await connection.execute(query)).scalar_one())


# ---------------------------------------------------------------------------------------
# rating a match


async def rate(connection: AsyncConnection, table_id: str, game: RatedGame,
               finished: datetime) -> list[dict[str, Any]] | None:
    """Rate a finished two-player match inside its finishing transaction: both players'
    ratings as stored now (locked, in player order, so that two nodes finishing matches
    of one player at once rate them one after the other; their deviations grown with the
    days since each last played), the new ones stored, and each seat's before and after
    kept with the match. Returns the result's ``ratings``: per seat, the ratings shown
    (whole points); None, rating nothing, if a player's account was deleted meanwhile."""
    deleted = (await connection.execute(select(players.c.id).where(
        players.c.id.in_(list(game.players)), players.c.deleted_at.is_not(None)))).first()
    if deleted is not None:
        return None
    found = {row.player_id: row for row in (await connection.execute(
        select(ratings).where(ratings.c.variant == game.variant,
                              ratings.c.player_id.in_(list(game.players)))
        .order_by(ratings.c.player_id).with_for_update())).all()}
    before: list[Rating] = []
    idle_days: list[float] = []
    for player in game.players:
        row = found.get(player)
        before.append(Rating() if row is None else
                      Rating(row.rating, row.deviation, row.volatility))
        idle_days.append(0.0 if row is None else
                         max(0.0, (finished - row.rated_at).total_seconds() / 86400))
    after = rate_game(before[0], before[1], game.first_score,
                      first_idle_days=idle_days[0], second_idle_days=idle_days[1])
    out: list[dict[str, Any]] = []
    for seat, (player, old, new) in enumerate(zip(game.players, before, after, strict=True)):
        games = 1 + (found[player].games if player in found else 0)
        values = {"rating": new.rating, "deviation": new.deviation,
                  "volatility": new.volatility, "games": games, "rated_at": finished}
        if player in found:
            await connection.execute(update(ratings).where(
                ratings.c.player_id == player, ratings.c.variant == game.variant)
                .values(**values))
        else:
            await connection.execute(insert(ratings).values(
                player_id=player, variant=game.variant, **values))
        await connection.execute(update(table_seats).where(
            table_seats.c.table_id == table_id, table_seats.c.seat == seat).values(
            rating_before=old.rating, rating_after=new.rating,
            deviation_after=new.deviation))
        out.append({"seat": seat, "before": round(old.rating), "after": round(new.rating),
                    "change": round(new.rating) - round(old.rating),
                    "deviation": round(new.deviation), "label": new.label})
    return out


# ---------------------------------------------------------------------------------------
# rows in and out


def username_key(username: str) -> str:
    """What makes a username unique: the name case-folded (``Amira`` is ``amira``)."""
    return username.casefold()


def seats_query(table_ids: Iterable[str]) -> Select[Any]:
    """The seats of these tables with their players' nicknames, by table and seat."""
    joined = table_seats.outerjoin(players, table_seats.c.player_id == players.c.id)
    return (select(table_seats, players.c.nickname, players.c.username).select_from(joined)
            .where(table_seats.c.table_id.in_(list(table_ids)))
            .order_by(table_seats.c.table_id, table_seats.c.seat))


def table_values(table: TableRow) -> dict[str, Any]:
    return {
        "id": table.id, "kind": table.kind, "variant": table.variant, "seats": table.seats,
        "teams": table.teams, "clock_seconds": table.clock_seconds,
        "bot_level": table.bot_level, "status": table.status,
        "created_at": aware(table.created_at, "created_at"),
        "invite_code": table.invite_code, "owner_id": table.owner_id,
        "finished_at": aware(table.finished_at, "finished_at"),
        "result": table.result, "rematch_of": table.rematch_of, "rated": table.rated,
    }


def seat_values(table_id: str, seat: SeatRow) -> dict[str, Any]:
    return {"table_id": table_id, "seat": seat.seat, "player_id": seat.player_id,
            "bot_level": seat.bot_level, "client_seed": seat.client_seed}


def play_values(table_id: str, play: PlayRow) -> dict[str, Any]:
    return {"table_id": table_id, "round_number": play.round_number, "index": play.index,
            "seat": play.seat, "card": play.card, "take": " ".join(play.take),
            "by_bot": play.by_bot, "created_at": aware(play.created_at, "created_at")}


def player_row(row: Row[Any]) -> PlayerRow:
    return PlayerRow(id=row.id, nickname=row.nickname, created_at=row.created_at,
                     username=row.username, has_password=row.password_hash is not None)


def session_row(row: Row[Any]) -> SessionRow:
    return SessionRow(id=row.id, player_id=row.player_id, kind=row.kind,
                      created_at=row.created_at, user_agent=row.user_agent,
                      address=row.address, last_seen_at=row.last_seen_at,
                      proved_at=row.proved_at)


_MOMENT = UtcDateTime()
"""One instance of the type for the statements below (each new one makes a class)."""


def _session_alive() -> ColumnElement[bool]:
    """Whether a session (joined with its player) has not expired: younger than
    :data:`SESSION_MAX_AGE` and used within :data:`SESSION_IDLE` (a guest's within
    :data:`GUEST_SESSION_IDLE`), at the moment :func:`alive_at` gives its parameters."""
    seen = func.coalesce(sessions.c.last_seen_at, sessions.c.created_at, type_=_MOMENT)
    idle = case((players.c.username.is_(None), bindparam("guest_seen_after", type_=_MOMENT)),
                else_=bindparam("seen_after", type_=_MOMENT))
    return and_(sessions.c.created_at > bindparam("made_after", type_=_MOMENT), seen > idle)


def alive_at(at: datetime) -> dict[str, datetime]:
    """The parameters of the session statements below: alive at ``at``."""
    return {"made_after": at - SESSION_MAX_AGE, "seen_after": at - SESSION_IDLE,
            "guest_seen_after": at - GUEST_SESSION_IDLE}


# Built once: the store asks them on every request, and building a statement makes
# objects in reference cycles (garbage the cycle collector must find).
PLAYER_BY_TOKEN = (select(players).join(sessions, sessions.c.player_id == players.c.id)
                   .where(sessions.c.token_hash == bindparam("token_hash"),
                          players.c.deleted_at.is_(None), _session_alive()).limit(1))
SESSION_BY_TOKEN = (select(sessions).join(players, sessions.c.player_id == players.c.id)
                    .where(sessions.c.token_hash == bindparam("token_hash"),
                           _session_alive()).limit(1))


def passkey_row(row: Row[Any]) -> PasskeyRow:
    return PasskeyRow(credential_id=row.credential_id, player_id=row.player_id,
                      public_key=bytes(row.public_key), sign_count=row.sign_count,
                      name=row.name, created_at=row.created_at,
                      transports=tuple(row.transports.split()),
                      last_used_at=row.last_used_at, added_by=row.added_by,
                      added_from=row.added_from)


def rating_row(row: Row[Any]) -> RatingRow:
    return RatingRow(variant=row.variant, rating=row.rating, deviation=row.deviation,
                     volatility=row.volatility, games=row.games, rated_at=row.rated_at)


def table_row(row: Row[Any]) -> TableRow:
    return TableRow(
        id=row.id, kind=row.kind, variant=row.variant, seats=row.seats, teams=row.teams,
        clock_seconds=row.clock_seconds, bot_level=row.bot_level, status=row.status,
        created_at=row.created_at, invite_code=row.invite_code, owner_id=row.owner_id,
        finished_at=row.finished_at, result=row.result, rematch_of=row.rematch_of,
        rated=row.rated)


def seat_row(row: Row[Any]) -> SeatRow:
    return SeatRow(seat=row.seat, player_id=row.player_id, bot_level=row.bot_level,
                   client_seed=row.client_seed, nickname=row.nickname,
                   account=row.username is not None, username=row.username)


def round_row(row: Row[Any]) -> RoundRow:
    return RoundRow(number=row.number, server_seed=row.server_seed,
                    commitment=row.commitment, client_seed=row.client_seed,
                    started_at=row.started_at)


def play_row(row: Row[Any]) -> PlayRow:
    return PlayRow(round_number=row.round_number, index=row._mapping["index"],
                   seat=row.seat,
                   card=row.card, take=tuple(row.take.split()), by_bot=row.by_bot,
                   created_at=row.created_at)


def seat_name(row: Row[Any]) -> str:
    """How history names a seat: the nickname, ``bot:LEVEL``, or ``empty``."""
    if row.player_id is not None:
        return str(row.nickname)
    return f"bot:{row.bot_level}" if row.bot_level else "empty"


def seat_names(seats: Iterable[Row[Any]]
               ) -> dict[str, tuple[tuple[str, ...], tuple[str | None, ...]]]:
    """Each table's seat names and usernames in seat order (``seats`` come by table and
    seat)."""
    names: dict[str, list[str]] = {}
    usernames: dict[str, list[str | None]] = {}
    for row in seats:
        names.setdefault(row.table_id, []).append(seat_name(row))
        usernames.setdefault(row.table_id, []).append(row.username)
    return {table_id: (tuple(seat), tuple(usernames[table_id]))
            for table_id, seat in names.items()}


def history_row(row: Row[Any], seats: tuple[tuple[str, ...], tuple[str | None, ...]]
                ) -> HistoryRow:
    names, usernames = seats
    result: dict[str, Any] = row.result or {}
    winner = result.get("winner")
    return HistoryRow(
        table_id=row.id, variant=row.variant, seat=row.my_seat, players=names,
        teams=row.teams, winner=None if winner is None else int(winner),
        totals=tuple(int(total) for total in result.get("totals", ())),
        finished_at=row.finished_at or row.created_at,
        rated=bool(row.rated) and not result.get("aborted") and row.after is not None,
        change=(None if row.after is None or row.before is None
                else float(round(row.after) - round(row.before))),
        result=result, usernames=usernames)
