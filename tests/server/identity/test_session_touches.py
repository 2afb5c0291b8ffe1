"""A session's use is written (``last_seen_at``, which its expiry counts from) at most once
per SESSION_TOUCH, in the background; a session made a moment ago is not touched again at
its first uses (it was seen when made): a new guest's table and socket write nothing more."""

from __future__ import annotations

import asyncio
from typing import Any

from basra.server.http.deps import SessionTouches
from basra.store.base import SESSION_TOUCH


class Touched:
    """A store that only counts its session touches."""

    def __init__(self) -> None:
        self.touched: list[str] = []

    async def touch_session(self, hashed: str) -> None:
        self.touched.append(hashed)


def test_a_session_is_touched_once_a_window_and_a_fresh_one_not_at_all() -> None:
    async def scenario() -> list[str]:
        store: Any = Touched()
        touches = SessionTouches()
        touches.fresh("new", now=100.0)
        for at in (100.0, 101.0, 150.0):  # the new session's first uses
            touches.used(store, "new", now=at)
            touches.used(store, "old", now=at)  # an older session: once in the window
        later = 100.0 + SESSION_TOUCH.total_seconds() + 1
        touches.used(store, "new", now=later)  # a window later: written
        await asyncio.gather(*touches.pending)
        return store.touched

    assert asyncio.run(scenario()) == ["old", "new"]
