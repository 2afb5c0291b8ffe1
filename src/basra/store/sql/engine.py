"""The one engine every SQL port runs on: connecting, migrating, transactions, group commit.

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

**Every transaction in one go.** A port's reads and writes are plain functions of a
synchronous SQLAlchemy ``Connection`` (:data:`WriteOp`, :data:`ReadOp`), and the engine runs
each whole transaction at once:

- on PostgreSQL with ``AsyncConnection.run_sync`` over asyncpg;
- on SQLite, a write's statements (a group commit's: a millisecond or two for a hundred
  writes) run right in the event loop, on a connection of the standard ``sqlite3`` driver
  kept for it, and its COMMIT (the disk's sync) in the writer thread, while the loop goes
  on; a read runs in one of a few reader threads (WAL: readers never wait for the writer),
  or, a point read on every request's path, in the loop on a connection of its own. With
  aiosqlite each statement, BEGIN and COMMIT was a round trip through a busy loop (a group
  commit of a burst of openings took 300 ms); with the whole write in a thread, the thread
  and the loop took the interpreter's lock from each other at every statement (SQLite lets
  it go while it works) and a group commit of 2 ms took 20-50; with the COMMIT in the loop
  too, the loop stood still for every sync, a fifth of its time at 2,000 tables
  (docs/BENCHMARKS.md, "The wave"). The store's writes queue on an asyncio lock, from
  BEGIN to the end of the COMMIT, so the connection is never used by two at once.

  The writer connection never waits for SQLite's lock in the loop (``busy_timeout`` 0 on
  it): if another process holds the database, the write is done in the writer thread, which
  waits as long as :data:`SQLITE_BUSY_TIMEOUT_MS`.

:meth:`SqlEngine.open` runs the Alembic migrations in one write transaction that holds a
lock first (an advisory lock on PostgreSQL, the write lock on SQLite): two servers started
at once on a new database migrate it once, and the second finds it up to date.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import logging
import re
import sqlite3
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.util import CommandError
from sqlalchemy import ColumnElement, Select, Table, event, insert, select, text, update
from sqlalchemy import create_engine as create_sync_engine
from sqlalchemy.engine import Connection, Engine, Row
from sqlalchemy.exc import OperationalError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import NullPool, QueuePool

from basra.store.base import PlayRow, StoreError
from basra.store.schema import plays
from basra.store.sql.rows import play_values
from basra.store.urls import Database

MIGRATIONS = Path(__file__).parent.parent / "migrations"
MIGRATION_LOCK = 0x6261_7372_61
"""The PostgreSQL advisory lock the migrations run under ("basra")."""
SQLITE_BUSY_TIMEOUT_MS = 15_000
SQLITE_PRAGMAS = (
    f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}",
    "PRAGMA journal_mode = WAL",
    "PRAGMA synchronous = FULL",
    "PRAGMA foreign_keys = ON",
)
READ_ONLY = "basra_read_only"
"""Execution option of the connections that only read (SQLite begins them deferred)."""
PING_TIMEOUT = 5.0
SQLITE_READERS = 2
"""Threads (and connections) that read SQLite beside its one writer (WAL: readers never
wait for the writer)."""
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


WriteOp = Callable[[Connection], R]
"""A write's statements, run inside a transaction the store opens and commits (in one go,
off the event loop: it must not touch the loop or anything the loop changes)."""
ReadOp = Callable[[Connection], R]
"""A read's statements, run inside one read-only transaction (as :data:`WriteOp`)."""


@dataclass(frozen=True, slots=True)
class Pending:
    """A write waiting for the next group commit: its statements (``op``) or a play."""

    what: str
    op: WriteOp[Any] | None
    play: tuple[str, PlayRow] | None
    future: asyncio.Future[Any]
    asked: float
    """When it was asked for (``time.perf_counter()``)."""
    alone: Callable[[], Awaitable[None]] | None = None
    """How a play is stored on its own when its group is refused (the table port's,
    which tells a duplicate from other refusals)."""


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


def create_sqlite_engine(database: Database) -> Engine:
    """The synchronous engine every SQLite transaction runs on: the standard ``sqlite3``
    driver, a connection for the writer and each reader thread (:data:`SQLITE_READERS`),
    each used by one thread at a time."""
    url = database.url.set(drivername="sqlite+pysqlite")
    engine = create_sync_engine(url, poolclass=QueuePool, pool_size=SQLITE_READERS + 1,
                                max_overflow=SQLITE_READERS + 1,
                                connect_args={"check_same_thread": False})
    event.listen(engine, "connect", _sqlite_connect)
    event.listen(engine, "begin", _sqlite_begin_on_driver)
    return engine


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


def _sqlite_begin_on_driver(connection: Connection) -> None:
    """:func:`_sqlite_begin` straight on the ``sqlite3`` connection (the synchronous
    engine's: a statement through SQLAlchemy costs more than the BEGIN itself)."""
    read_only = connection.get_execution_options().get(READ_ONLY, False)
    connection.connection.driver_connection.execute(  # type: ignore[union-attr]
        "BEGIN" if read_only else "BEGIN IMMEDIATE")


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


# ---------------------------------------------------------------------------------------
# the engine


class SqlEngine:
    """One database's connections, shared by every port of a :class:`~basra.store.sql.SqlStore`:
    read and write transactions, each run in one go (see the module's docstring), and the
    group commit that every write goes through."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self._engine: AsyncEngine | None = None
        self._sqlite: Engine | None = None
        self._writer: ThreadPoolExecutor | None = None
        self._readers: ThreadPoolExecutor | None = None
        self._in_loop: Connection | None = None
        """SQLite's connection for the writes whose statements run in the event loop."""
        self._loop_reader: Connection | None = None
        """SQLite's connection for the point reads run in the event loop."""
        self._writing: asyncio.Lock | None = None
        """Held by a write from its BEGIN to the end of its COMMIT (SQLite)."""
        self._pending: list[Pending] = []
        self._flusher: asyncio.Task[None] | None = None

    @property
    def is_open(self) -> bool:
        return self._sqlite is not None or (self._engine is not None
                                            and not self.database.is_sqlite)

    @property
    def engine(self) -> AsyncEngine:
        """An asyncio engine on the database, for diagnostics and tests (on SQLite one of
        its own, through aiosqlite, made when first asked for); a StoreError if the store
        is closed."""
        if not self.is_open:
            raise StoreError("the store is not open: await store.open() first")
        if self._engine is None:
            self._engine = create_engine(self.database)
        return self._engine

    async def open(self) -> None:
        """Connect and migrate to head; nothing if already open."""
        if self.is_open:
            return
        if self.database.is_sqlite:
            await self._open_sqlite()
        else:
            self._engine = await self._connect()

    async def _open_sqlite(self) -> None:
        path = self.database.sqlite_path
        assert path is not None
        writer = ThreadPoolExecutor(1, thread_name_prefix="basra-store-writer")
        readers = ThreadPoolExecutor(SQLITE_READERS, thread_name_prefix="basra-store-reader")
        engine = create_sqlite_engine(self.database)

        def migrated() -> None:
            path.parent.mkdir(parents=True, exist_ok=True)
            with engine.begin() as connection:
                migrate(connection)

        try:
            await asyncio.get_running_loop().run_in_executor(writer, migrated)
        except (SQLAlchemyError, CommandError, OSError) as error:
            engine.dispose()
            writer.shutdown()
            readers.shutdown()
            raise StoreError(f"cannot open the store {self.database}: {reason(error)}") from error
        self._sqlite, self._writer, self._readers = engine, writer, readers
        self._in_loop, self._writing = engine.connect(), asyncio.Lock()
        driver = self._in_loop.connection.driver_connection
        assert driver is not None
        driver.execute("PRAGMA busy_timeout = 0")  # outside SQLAlchemy's transactions
        self._loop_reader = engine.connect().execution_options(**{READ_ONLY: True})
        driver = self._loop_reader.connection.driver_connection
        assert driver is not None
        driver.execute("PRAGMA busy_timeout = 0")

    async def _connect(self) -> AsyncEngine:
        engine = None
        try:
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
        flusher = self._flusher
        if flusher is not None:  # its writes end (or fail) first, even if it was cancelled
            await asyncio.wait([flusher])
            if not flusher.cancelled():
                flusher.exception()  # retrieved: each write's caller had its own
        engine, self._engine = self._engine, None
        if engine is not None:
            await engine.dispose()
        sqlite, self._sqlite = self._sqlite, None
        writer, readers, self._writer, self._readers = self._writer, self._readers, None, None
        in_loop, self._in_loop = self._in_loop, None
        loop_reader, self._loop_reader = self._loop_reader, None
        for connection in (in_loop, loop_reader):
            if connection is not None:
                connection.close()
        if sqlite is not None:
            assert writer is not None and readers is not None
            await asyncio.get_running_loop().run_in_executor(writer, sqlite.dispose)
            writer.shutdown()
            readers.shutdown()

    async def ping(self) -> bool:
        if not self.is_open:
            return False
        try:
            async with asyncio.timeout(PING_TIMEOUT):
                await self.reading(lambda connection: connection.execute(text("SELECT 1")).scalar())
        except (StoreError, TimeoutError):
            return False
        return True

    # ------------------------------------------------------------------ running

    def _sqlite_of(self) -> tuple[Engine, ThreadPoolExecutor, ThreadPoolExecutor] | None:
        """SQLite's engine and threads (None on PostgreSQL); a StoreError if closed."""
        if not self.is_open:
            raise StoreError("the store is not open: await store.open() first")
        if self._sqlite is None:
            return None
        assert self._writer is not None and self._readers is not None
        return self._sqlite, self._writer, self._readers

    async def transact(self, what: str, op: WriteOp[R]) -> R:
        """Run the write ``op`` in a transaction of its own, committed before this returns
        (not in the group commit: for a write that must not wait for, or fail with, others).
        A refused write (a constraint) or a failing database is a StoreError whose cause
        is SQLAlchemy's error; an error ``op`` raises itself passes as it is."""
        return await self._transact(what, op, own_task=True)

    async def _transact(self, what: str, op: WriteOp[R], *, own_task: bool,
                        committed: Callable[[R], None] | None = None) -> R:
        """:meth:`transact`; ``own_task`` False for the group commit's task, which no
        caller cancels: on SQLite its write then runs in that task rather than in a task
        of its own, and ``committed`` is called with ``op``'s result as soon as the loop
        hears that its COMMIT ended (when it is not called, the caller settles the write
        once this returns). Every task between the writer thread and a waiting table costs
        a turn of the loop, and a turn of a busy loop is milliseconds."""
        try:
            if self._sqlite_of() is not None:
                if not own_task:
                    return await self._sqlite_write(op, committed)
                # run to its end even if the caller is cancelled: the connection is the
                # write's until its COMMIT is over
                write = asyncio.ensure_future(self._sqlite_write(op))
                write.add_done_callback(_retrieved)
                return await asyncio.shield(write)
            async with self.engine.begin() as connection:
                return await connection.run_sync(op)
        except (SQLAlchemyError, sqlite3.Error, OSError) as error:
            raise StoreError(f"cannot {what}: {reason(error)}") from error

    async def _sqlite_write(self, op: WriteOp[R],
                            committed: Callable[[R], None] | None = None) -> R:
        sqlite = self._sqlite_of()
        assert sqlite is not None and self._writing is not None and self._in_loop is not None
        engine, writer, _ = sqlite
        async with self._writing:
            with contextlib.suppress(_Busy):
                return await self._write_beside_loop(self._in_loop, writer, op, committed)
            return await asyncio.get_running_loop().run_in_executor(
                writer, _in_transaction, engine, op, False)

    @staticmethod
    async def _write_beside_loop(connection: Connection, writer: ThreadPoolExecutor,
                                 op: WriteOp[R],
                                 committed: Callable[[R], None] | None = None) -> R:
        """``op``'s statements in a transaction on the loop's own connection, its COMMIT
        in the writer thread (``committed`` called with the result in the turn of the loop
        that hears it ended); :class:`_Busy` if another process holds SQLite's write lock
        (nothing was done)."""
        try:
            transaction = connection.begin()
        except (OperationalError, sqlite3.OperationalError) as error:
            if _is_busy(error):
                raise _Busy from error
            raise
        try:
            result = op(connection)
        except BaseException:
            transaction.rollback()
            raise
        commit = writer.submit(transaction.commit)
        try:
            await _settled(commit, None if committed is None
                           else functools.partial(committed, result))
        except asyncio.CancelledError:
            # the COMMIT goes on in the thread: the connection is its until it ends
            while not commit.done():
                with contextlib.suppress(asyncio.CancelledError):
                    await asyncio.wait([asyncio.wrap_future(commit)])
            if not commit.cancelled() and commit.exception() is not None:
                _close(connection)
            raise
        except BaseException:
            _close(connection)
            raise
        return result

    async def reading(self, op: ReadOp[R], *, in_loop: bool = False,
                      one_statement: bool = False) -> R:
        """Run the read ``op`` in a read-only transaction that sees the database as of one
        moment; a failing database is a StoreError. ``in_loop``: a point read on the path
        of every request (a session by its token), which on SQLite runs in the loop on a
        connection of its own (a few dozen microseconds; a reader thread's hand-over costs
        more than the read), or in a reader thread if SQLite cannot answer at once.
        ``one_statement``: ``op`` runs a single SELECT, which PostgreSQL answers as of one
        moment by itself: it runs without a transaction (no BEGIN and COMMIT, two round
        trips of a point read's four: the pool's ping, BEGIN, the SELECT, COMMIT)."""
        try:
            sqlite = self._sqlite_of()
            if sqlite is not None:
                engine, _, readers = sqlite
                if in_loop and self._loop_reader is not None:
                    with contextlib.suppress(_Busy):
                        return _read_in_loop(self._loop_reader, op)
                return await asyncio.get_running_loop().run_in_executor(
                    readers, _in_transaction, engine, op, True)
            async with self.engine.connect() as connection:
                if one_statement:
                    await connection.execution_options(isolation_level="AUTOCOMMIT")
                    return await connection.run_sync(op)
                await connection.execution_options(isolation_level="REPEATABLE READ")
                async with connection.begin():
                    return await connection.run_sync(op)
        except (SQLAlchemyError, sqlite3.Error, OSError) as error:
            raise StoreError(f"cannot read the store {self.database}: {reason(error)}") from error

    # ------------------------------------------------------------------ writes

    async def batched(self, what: str, op: WriteOp[R]) -> R:
        """Run the write ``op`` in the next group commit; returns its result once committed
        (see :meth:`_flush`)."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending.append(Pending(what, op, None, future, time.perf_counter()))
        self._flush_soon()
        result: R = await future
        return result

    async def batched_play(self, table_id: str, play: PlayRow,
                           alone: Callable[[], Awaitable[None]]) -> None:
        """Store a play in the next group commit, in one INSERT with the other plays of
        the group; ``alone`` stores it by itself if the group is refused."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending.append(Pending(
            f"store play {play.index} of round {play.round_number} of table {table_id}",
            None, (table_id, play), future, time.perf_counter(), alone))
        self._flush_soon()
        await future

    def _flush_soon(self) -> None:
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush())

    async def _flush(self) -> None:
        """Group commit: the writes asked for while the last transaction ran go in the
        next one (the plays together in one statement), so that one commit and one disk
        flush serve them all: every play, and the other writes in the order asked, at most
        :data:`GROUP_WRITES` of them (:func:`group_of`). If the transaction is refused,
        each write is done again alone, so that each caller learns its own outcome."""
        while self._pending:
            batch, self._pending = group_of(self._pending)
            told = False

            def tell(results: list[Any], batch: list[Pending] = batch) -> None:
                # each write's caller hears of its commit in the turn of the loop that
                # heard it from the writer thread: it runs in the next, beside this task
                nonlocal told
                told = True
                for item, result in zip(batch, results, strict=True):
                    self._done(item, result)

            try:
                results = await self._transact(f"store {len(batch)} writes",
                                               functools.partial(_run_batch, batch=batch),
                                               own_task=False, committed=tell)
            except asyncio.CancelledError:  # the node stops: a write not done is failed
                if not told:
                    for item in batch:
                        if not item.future.done():
                            item.future.set_exception(StoreError(
                                f"cannot {item.what}: the store is closing"))
                raise
            except Exception:  # one of them is refused (a duplicate?): one by one
                if told:  # committed (what failed came after): nothing to do again
                    continue
                for item in batch:
                    await self._alone(item)
                continue
            if not told:
                tell(results)

    async def _alone(self, item: Pending) -> None:
        result: Any = None
        try:
            if item.alone is not None:
                await item.alone()
            else:
                assert item.op is not None
                result = await self.transact(item.what, item.op)
        except Exception as error:
            if not item.future.done():
                item.future.set_exception(error)
            return
        self._done(item, result)

    @staticmethod
    def _done(item: Pending, result: Any) -> None:
        if not item.future.done():
            item.future.set_result(result)
        if COMMIT_HOOKS:
            operation, seconds = operation_of(item.what), time.perf_counter() - item.asked
            for hook in COMMIT_HOOKS:
                try:
                    hook(operation, seconds)
                except Exception:  # a count that fails never holds a write
                    log.exception("a commit hook failed")

    async def update_existing(self, table: Table, where: ColumnElement[bool], what: str,
                              **values: Any) -> None:
        """Update the rows ``where`` selects in a group commit; a StoreError ``no {what}``
        if there is none."""
        def op(connection: Connection) -> None:
            done = connection.execute(update(table).where(where).values(**values))
            if done.rowcount == 0:
                raise StoreError(f"no {what}")

        await self.batched(f"update {what}", op)

    # ------------------------------------------------------------------ reads

    async def rows(self, query: Select[Any], parameters: Mapping[str, Any] | None = None,
                   *, in_loop: bool = False) -> Sequence[Row[Any]]:
        return await self.reading(lambda connection: connection.execute(query, parameters).all(),
                                  in_loop=in_loop, one_statement=True)

    async def first(self, query: Select[Any]) -> Row[Any] | None:
        rows = await self.rows(query.limit(1))
        return rows[0] if rows else None

    async def find(self, table: Table, where: ColumnElement[bool],
                   record: Callable[[Row[Any]], R]) -> R | None:
        """The record of the first row of ``table`` that matches ``where``, if any."""
        row = await self.first(select(table).where(where))
        return None if row is None else record(row)


class _Busy(Exception):
    """Another process holds SQLite's write lock."""


def _is_busy(error: Exception) -> bool:
    """Whether SQLite refused because another connection holds the database."""
    said = str(getattr(error, "orig", None) or error)
    return "locked" in said or "busy" in said


def _read_in_loop(connection: Connection, op: ReadOp[R]) -> R:
    """``op`` in a read transaction on the loop's reader connection; :class:`_Busy` if
    SQLite cannot begin it at once (another process recovering the log, say)."""
    try:
        transaction = connection.begin()
        try:
            return op(connection)
        finally:
            transaction.rollback()  # it only read: nothing to commit, nor to sync
    except (OperationalError, sqlite3.OperationalError) as error:
        if _is_busy(error):
            raise _Busy from error
        raise


def _close(connection: Connection) -> None:
    """End what is left of a write's transaction whose COMMIT failed, so the connection
    can begin the next: SQLAlchemy keeps its transaction, inactive, until it is rolled
    back, and SQLite may keep its own open (a COMMIT refused as busy does)."""
    with contextlib.suppress(SQLAlchemyError, sqlite3.Error):
        if connection.get_transaction() is not None:
            connection.rollback()
        driver = connection.connection.driver_connection
        if isinstance(driver, sqlite3.Connection) and driver.in_transaction:
            driver.rollback()


def _settled(work: concurrent.futures.Future[R],
             done: Callable[[], None] | None = None) -> asyncio.Future[R]:
    """A future of the loop that ``work`` (a thread's) settles, and that cancelling does
    not cancel ``work``: what :func:`asyncio.shield` of ``run_in_executor`` gives, in one
    turn of the loop rather than three (the thread's callback settles it; the awaiting
    task runs in the next turn). ``done`` is called in the settling turn if ``work``
    succeeded (even if the future was cancelled meanwhile)."""
    loop = asyncio.get_running_loop()
    settled: asyncio.Future[R] = loop.create_future()

    def settle() -> None:
        if work.cancelled():
            if not settled.done():
                settled.cancel()
            return
        error = work.exception()
        if not settled.done():  # else cancelled meanwhile
            if error is not None:
                settled.set_exception(error)
            else:
                settled.set_result(work.result())
        if error is None and done is not None:
            try:
                done()
            except Exception:  # the write is committed whatever its listener does
                log.exception("a committed write's listener failed")

    def heard(_: concurrent.futures.Future[R]) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
            loop.call_soon_threadsafe(settle)

    work.add_done_callback(heard)
    return settled


def _retrieved(task: asyncio.Future[Any]) -> None:
    """A write's outcome, taken even when its caller was cancelled (no "never retrieved")."""
    if not task.cancelled():
        task.exception()


def _in_transaction(engine: Engine, op: Callable[[Connection], R], read_only: bool) -> R:
    """In a store thread: ``op`` in one transaction on one of ``engine``'s connections
    (SQLite begins a read deferred, a write immediate: :func:`_sqlite_begin`)."""
    with engine.connect() as connection:
        if read_only:
            connection = connection.execution_options(**{READ_ONLY: True})
        with connection.begin():
            return op(connection)


GROUP_WRITES = 64
"""The most writes other than plays in one group commit. On SQLite a group's statements
run in the event loop: the bell rung for each of 2,000 entrants at an event's start, a
burst of writes asked for at once, went in one group and held the loop 400 ms, and every
table on the node waited (docs/BENCHMARKS.md). A group of 64 holds it 10-20 ms; the rest
goes in the next groups, and the loop runs between them while each COMMIT syncs in the
writer thread."""


def group_of(pending: list[Pending]) -> tuple[list[Pending], list[Pending]]:
    """The next group commit out of ``pending``, and what waits for the one after: every
    play (one INSERT for them all, each a table's player waiting to see it), then the
    first :data:`GROUP_WRITES` other writes in the order asked. A caller awaits its write
    before it asks for the next, so a play never overtakes a write it depends on.

    >>> group_of([])
    ([], [])
    """
    plays = [item for item in pending if item.op is None]
    others = [item for item in pending if item.op is not None]
    if len(others) <= GROUP_WRITES:
        return plays + others, []
    return plays + others[:GROUP_WRITES], others[GROUP_WRITES:]


def _run_batch(connection: Connection, *, batch: list[Pending]) -> list[Any]:
    """A group commit's statements: each write's own, then the plays in one INSERT."""
    results = [None if item.op is None else item.op(connection) for item in batch]
    rows = [play_values(*item.play) for item in batch if item.play]
    if rows:
        connection.execute(insert(plays), rows)
    return results


class SqlPort:
    """What every port's SQL implementation is: its methods, run on one shared engine
    (:class:`~basra.store.sql.SqlStore` is all of them on one)."""

    def __init__(self, sql: SqlEngine) -> None:
        self.sql = sql
