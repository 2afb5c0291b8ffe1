"""Which database a store uses: database URLs read, checked and given their async driver.

Accepted (``--db`` on the command line):

- nothing: SQLite, the file ``basra.sqlite3`` in the data directory (``$BASRA_DATA_DIR``,
  else ``./data``);
- ``sqlite+aiosqlite:///PATH`` (or ``sqlite:///PATH``): SQLite in that file;
- ``postgresql+asyncpg://USER@HOST:PORT/DB`` (or ``postgresql://``, ``postgres://``):
  PostgreSQL. An optional ``?schema=NAME`` keeps the store's tables in that schema
  (created if missing), so that several stores can share one database (the tests do).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from basra.store.base import StoreError

SQLITE_FILE = "basra.sqlite3"
DEFAULT_DATA_DIR = "data"
DATA_DIR_VARIABLE = "BASRA_DATA_DIR"

SQLITE_DRIVER = "sqlite+aiosqlite"
POSTGRES_DRIVER = "postgresql+asyncpg"
DRIVERS = {
    "sqlite": SQLITE_DRIVER,
    SQLITE_DRIVER: SQLITE_DRIVER,
    "postgresql": POSTGRES_DRIVER,
    "postgres": POSTGRES_DRIVER,
    POSTGRES_DRIVER: POSTGRES_DRIVER,
}
EXPECTED = "use sqlite+aiosqlite:///PATH or postgresql+asyncpg://USER@HOST:PORT/DB"
SCHEMA_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")


@dataclass(frozen=True, slots=True)
class Database:
    """A database to open: its URL (with the async driver) and, for PostgreSQL, a schema."""

    url: URL
    schema: str | None = None

    @property
    def is_sqlite(self) -> bool:
        return self.url.get_backend_name() == "sqlite"

    @property
    def sqlite_path(self) -> Path | None:
        """The SQLite file (None for PostgreSQL)."""
        return Path(str(self.url.database)) if self.is_sqlite else None

    def __str__(self) -> str:
        """The URL as it may be shown: without its password."""
        shown = self.url.render_as_string(hide_password=True)
        return f"{shown} (schema {self.schema})" if self.schema else shown


def data_dir_default() -> Path:
    """``$BASRA_DATA_DIR``, else ``./data``."""
    return Path(os.environ.get(DATA_DIR_VARIABLE) or DEFAULT_DATA_DIR)


def database(url: str | None, data_dir: Path | None = None) -> Database:
    """The database that ``url`` names (None: SQLite in ``data_dir``), or a StoreError."""
    if url is None:
        path = (data_dir or data_dir_default()) / SQLITE_FILE
        return Database(URL.create(SQLITE_DRIVER, database=str(path)))
    parsed = _parse(url)
    driver = DRIVERS.get(parsed.drivername)
    if driver is None:
        raise StoreError(f"unsupported database URL {_redact(url)!r}: {EXPECTED}")
    parsed = parsed.set(drivername=driver)
    if driver == SQLITE_DRIVER:
        return _sqlite(parsed, url)
    return _postgres(parsed)


def _parse(url: str) -> URL:
    try:
        return make_url(url)
    except ArgumentError:
        raise StoreError(f"bad database URL {_redact(url)!r}: {EXPECTED}") from None


def _sqlite(url: URL, given: str) -> Database:
    if not url.database or url.database == ":memory:" or "schema" in url.query:
        raise StoreError(f"bad SQLite URL {_redact(given)!r}: it needs a file, "
                         "as in sqlite+aiosqlite:///data/basra.sqlite3")
    return Database(url)


def _postgres(url: URL) -> Database:
    schema = url.query.get("schema")
    if schema is None:
        return Database(url)
    if not isinstance(schema, str) or not SCHEMA_NAME.fullmatch(schema):
        raise StoreError(f"bad schema {schema!r} in the database URL: "
                         "one lowercase name of letters, digits and _")
    return Database(url.difference_update_query(["schema"]), schema)


def _redact(url: str) -> str:
    """A URL as text without a password in it."""
    return re.sub(r"(://[^:/@]*):[^@/]*@", r"\1:***@", url)
