"""The store tests' databases (a plugin of tests/conftest.py): ``backend`` is each back end
in turn, ``url`` a fresh, empty database of it (PostgreSQL must be reachable: the tests
fail, never skip, without it). A module that imports server_harness's ``backend`` gets that
one instead."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from postgres_helpers import POSTGRES, drop_schema

BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def url(backend: str, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database of the back end: a new SQLite file or PostgreSQL schema."""
    if backend == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'db' / 'basra.sqlite3'}"
        return
    schema = f"basra_test_{uuid.uuid4().hex[:16]}"
    yield f"{POSTGRES}?schema={schema}"
    asyncio.run(drop_schema(schema))
