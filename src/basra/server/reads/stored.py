"""Tables that left memory, answered from the store without crowding the live ones.

A table's public info, its record and the last state of a socket opened on it are asked of
matches long over (their ids are public: the live list, profiles, histories). Each such
answer needs the table rebuilt from its stored log (every round dealt again, every play
applied again: tens of milliseconds of pure Python). Here that rebuild runs in a thread, one
at a time per process, once per match however many ask at once; a finished match's rebuilt
table is kept (it never changes but for the rematch offered from it, which is read again
while it may still come). The routes limit, per address, the answers that need a rebuild
(:meth:`StoredTables.needs_build`), so that a stranger cannot make the process rebuild
faster than it serves its tables.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict

from basra.server.config import Settings
from basra.server.reads.once import Once
from basra.server.table.actor import Table
from basra.store.base import TableLog
from basra.store.ports import Store

KEPT = 256
"""Finished tables kept rebuilt (a few hundred KB each at most)."""

REMATCH_FRESH_SECONDS = 5.0
"""While a kept table's rematch may still be made, its rematch is read again at most this
often."""


class NotStored(LookupError):
    """No table of that id in the store."""


class StoredTables:
    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self.kept: OrderedDict[str, tuple[float, Table]] = OrderedDict()
        """Finished tables by id, with when their rematch was last read."""
        self.building: Once[str, Table] = Once()
        self.one_at_a_time = asyncio.Semaphore(1)
        self.builds = 0
        """Rebuilds done (for tests and /health)."""

    def needs_build(self, table_id: str) -> bool:
        """Whether answering for ``table_id`` (not live here) costs a rebuild."""
        return table_id not in self.kept

    async def get(self, table_id: str) -> Table:
        """The stored table ``table_id`` rebuilt (not started: it only answers questions);
        :class:`NotStored` if there is none."""
        entry = self.kept.get(table_id)
        if entry is not None:
            self.kept.move_to_end(table_id)
            read_at, table = entry
            if table.rematch_table is None and self._rematch_open(table, read_at):
                table.rematch_table = await self.store.rematch_of(table_id)
                self.kept[table_id] = (time.monotonic(), table)
            return table
        return await self.building.run(table_id, lambda: self._build(table_id))

    async def _build(self, table_id: str) -> Table:
        table_log = await self.store.load(table_id) if len(table_id) <= 64 else None
        if table_log is None:
            raise NotStored(table_id)
        async with self.one_at_a_time:
            table = await asyncio.to_thread(self._restore, table_log)
        self.builds += 1
        table.rematch_table = await self.store.rematch_of(table_id)
        if table.status == "finished":  # a table still in play elsewhere changes: not kept
            self.kept[table_id] = (time.monotonic(), table)
            while len(self.kept) > KEPT:
                self.kept.popitem(last=False)
        return table

    def _restore(self, table_log: TableLog) -> Table:
        table = Table.restore(table_log, self.store, self.settings)
        if table.status in ("waiting", "playing"):
            # Read here while a process runs it (or is rebuilding it): the state shown once
            # must never outrank the live table's, or a client would ignore those.
            table.flow.version = 0
        return table

    def _rematch_open(self, table: Table, read_at: float) -> bool:
        """Whether a rematch of ``table`` may still be made, and was not read just now."""
        now = time.monotonic()
        if now - read_at < REMATCH_FRESH_SECONDS:
            return False
        finished = table.finished_at or 0.0
        return now - finished < self.settings.rematch_window_seconds + 2 * REMATCH_FRESH_SECONDS


__all__ = ["KEPT", "NotStored", "StoredTables"]
