"""The PostgreSQL server the tests use, and a way to drop a test's schema afterwards."""

from __future__ import annotations

import os

from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.pool import NullPool

POSTGRES = os.environ.get("BASRA_TEST_POSTGRES", "postgresql+asyncpg://root@127.0.0.1:5432/test")
"""The server of the PostgreSQL tests (this machine's, trust auth); they fail without it."""


async def drop_schema(schema: str) -> None:
    """Drop a test's schema and everything in it."""
    engine = create_async_engine(POSTGRES, poolclass=NullPool)
    try:
        async with engine.begin() as connection:
            await connection.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
    except OSError:  # the server is down: the test has failed already
        pass
    finally:
        await engine.dispose()
