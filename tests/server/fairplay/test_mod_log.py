"""The moderators' log is append-only, in the database itself (each back end): rows are
appended and read newest first; an UPDATE or a DELETE is refused by a trigger."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from basra.store import Store
from basra.store.base import ModLogRow
from store.test_social import accounts
from store.test_store import run


def test_the_mod_log_is_append_only_in_the_database(url: str) -> None:
    async def scenario(store: Store) -> None:
        [mona] = await accounts(store, "Mona")
        entry = ModLogRow(datetime.now(UTC), mona, "Mona", "p1", "Karim", "warn", "rude")
        first = await store.append_mod_log(entry)
        second = await store.append_mod_log(replace(entry, action="mute"))
        assert second > first
        assert [e.action for e in await store.mod_log("p1")] == ["mute", "warn"]
        engine = store.sql.engine  # type: ignore[attr-defined]
        for statement in ("UPDATE mod_log SET reason = 'nothing'", "DELETE FROM mod_log"):
            with pytest.raises(DBAPIError, match="append-only"):
                async with engine.begin() as connection:
                    await connection.execute(text(statement))
        assert len(await store.mod_log()) == 2

    run(url, scenario)
