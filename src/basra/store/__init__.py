"""The server's durable store: its ports (:mod:`.ports`), rows (:mod:`.base`) and the factory
that picks a back end.

>>> store = open_store("postgresql://basra@db.example:5432/basra")
>>> store
SqlStore(postgresql+asyncpg://basra@db.example:5432/basra)

``open_store`` only reads the URL; ``await store.open()`` connects and migrates, and
``await store.close()`` lets the connections go.
"""

from __future__ import annotations

from pathlib import Path

from basra.store.base import StoreError
from basra.store.ports import Store
from basra.store.sql import SqlStore
from basra.store.urls import Database, database

__all__ = ["Database", "SqlStore", "Store", "StoreError", "database", "open_store"]


def open_store(url: str | None, data_dir: Path | None = None) -> Store:
    """The store at ``url``, not yet open (``await store.open()`` next).

    ``url`` None means SQLite in ``data_dir/basra.sqlite3`` (``data_dir`` defaults to
    ``$BASRA_DATA_DIR``, else ``./data``; it is created on open). Otherwise a
    ``sqlite+aiosqlite:///PATH`` or ``postgresql+asyncpg://USER@HOST:PORT/DB`` URL
    (``postgresql://`` gets the asyncpg driver; ``?schema=NAME`` picks a PostgreSQL
    schema). A URL the store cannot use is a :class:`StoreError` with a one-line message.
    """
    return SqlStore(database(url, data_dir))
