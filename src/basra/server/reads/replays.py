"""Building replays (:func:`basra.match.steps.replay_steps`) without letting them crowd the
tables: one build at a time per process (a build is pure Python: it shares the interpreter
with the event loop, however it is threaded), one build per match however many ask at once,
and a finished match's encoded replay kept for :data:`FRESH_SECONDS` (the names in it are
the record's when it was read: a renamed or deleted player's show anew within a minute)."""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable

from basra.server.reads.once import Once

CACHED = 64
"""Finished matches' replays kept encoded."""
FRESH_SECONDS = 60.0


class Replays:
    def __init__(self) -> None:
        self.kept: OrderedDict[str, tuple[float, bytes]] = OrderedDict()
        self.building: Once[str, bytes] = Once()
        self.one_at_a_time = asyncio.Semaphore(1)

    def cached(self, table_id: str) -> bytes | None:
        entry = self.kept.get(table_id)
        if entry is None or time.monotonic() - entry[0] > FRESH_SECONDS:
            return None
        self.kept.move_to_end(table_id)
        return entry[1]

    async def build(self, table_id: str | None,
                    make: Callable[[], Awaitable[bytes]]) -> bytes:
        """``make()``'s answer, one build at a time; for a match (``table_id``), joined by
        whoever asks for the same one meanwhile, and kept."""
        if table_id is None:
            async with self.one_at_a_time:
                return await make()

        async def one_at_a_time() -> bytes:
            async with self.one_at_a_time:
                return await make()

        body = await self.building.run(table_id, one_at_a_time)
        self.kept[table_id] = (time.monotonic(), body)
        while len(self.kept) > CACHED:
            self.kept.popitem(last=False)
        return body


__all__ = ["CACHED", "FRESH_SECONDS", "Replays"]
