"""The fence of cluster mode: a node writes a table's rounds and plays only while it holds
the table's lease.

:class:`FencedTables` stands in front of the node's table store (the only port a table
writes through). Every write about a table asks
:meth:`~basra.server.cluster.leases.Leases.holds` first and is refused with :class:`LeaseLost`
when the lease is not certainly this node's; a write the database refuses because another
node wrote first (the unique (table, round, index) key of a play, the (table, number) key of
a round) is refused the same way. Either way the node is told (``on_fenced``) and lets the
table go: its owner is someone else, or it rebuilds the table from the store. Reads, and
every other port (players, ratings, analyses: none of them a live table's), are not fenced.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from basra.server.cluster.leases import Leases
from basra.store import base
from basra.store.base import DuplicatePlay, StoreError
from basra.store.ports import TableStore


class LeaseLost(StoreError):
    """A write for a table whose lease this node does not hold (or lost to a writer)."""


class FencedTables:
    """A :class:`~basra.store.ports.TableStore` whose writes are fenced by this node's
    leases."""

    def __init__(self, inner: TableStore, leases: Leases,
                 on_fenced: Callable[[str], None]) -> None:
        self.inner = inner
        self.leases = leases
        self.on_fenced = on_fenced

    def _check(self, table_id: str) -> None:
        if not self.leases.holds(table_id):
            self.on_fenced(table_id)
            raise LeaseLost(f"table {table_id}: this node does not hold its lease")

    def _conflict(self, table_id: str, error: StoreError) -> LeaseLost:
        self.on_fenced(table_id)
        return LeaseLost(f"table {table_id}: another node wrote first ({error})")

    # ------------------------------------------------------------------ reads

    async def table(self, table_id: str) -> base.TableRow | None:
        return await self.inner.table(table_id)

    async def table_by_code(self, invite_code: str) -> base.TableRow | None:
        return await self.inner.table_by_code(invite_code)

    async def rematch_of(self, table_id: str) -> str | None:
        return await self.inner.rematch_of(table_id)

    async def live_tables(self) -> list[str]:
        return await self.inner.live_tables()

    async def finished_tables(self, variant: str, seats: int, limit: int) -> list[str]:
        return await self.inner.finished_tables(variant, seats, limit)

    async def load(self, table_id: str) -> base.TableLog | None:
        return await self.inner.load(table_id)

    # ------------------------------------------------------------------ fenced writes

    async def create_table(self, table: base.TableRow, seats: list[base.SeatRow]) -> None:
        self._check(table.id)
        await self.inner.create_table(table, seats)

    async def set_status(self, table_id: str, status: base.TableStatus) -> None:
        self._check(table_id)
        await self.inner.set_status(table_id, status)

    async def set_seat(self, table_id: str, seat: base.SeatRow) -> None:
        self._check(table_id)
        await self.inner.set_seat(table_id, seat)

    async def finish_table(self, table_id: str, result: dict[str, Any],
                           rated: base.RatedGame | None = None) -> dict[str, Any]:
        self._check(table_id)
        return await self.inner.finish_table(table_id, result, rated)

    async def add_round(self, table_id: str, number: int, server_seed: str,
                        commitment: str) -> None:
        self._check(table_id)
        try:
            await self.inner.add_round(table_id, number, server_seed, commitment)
        except StoreError as error:
            if await self._round_exists(table_id, number):
                raise self._conflict(table_id, error) from error
            raise

    async def start_round(self, table_id: str, number: int, client_seed: str) -> None:
        self._check(table_id)
        try:
            await self.inner.start_round(table_id, number, client_seed)
        except StoreError as error:  # started with another seed: another node did it
            raise self._conflict(table_id, error) from error

    async def add_play(self, table_id: str, play: base.PlayRow) -> None:
        self._check(table_id)
        try:
            await self.inner.add_play(table_id, play)
        except DuplicatePlay as error:
            raise self._conflict(table_id, error) from error

    async def _round_exists(self, table_id: str, number: int) -> bool:
        found = await self.inner.load(table_id)
        return found is not None and any(r.number == number for r in found.rounds)
