"""Where live tables run: the lobby's port to placement, and its implementation for one process.

A table lives in exactly one process at a time. With one process that is always this one: a
table in the store marked live is rebuilt here at start, a new table is simply ours, and every
other table is not live (:class:`LocalPlacement`). A cluster implements the same port over
Redis (:class:`basra.server.cluster.placement.ClusterPlacement`): leases say which node runs
a table, a table whose node died is adopted, and a table another node runs is reached
through it (:class:`RemoteTable`). The lobby never asks which of the two it has (boardgame.io's
``InMemoryPubSub`` habit: one process is the in-memory implementation of the cluster's ports).
"""

from __future__ import annotations

from typing import Any, Protocol

from basra.server.table.outbox import Outbox
from basra.store.base import PlayerRow


class RemoteLink(Protocol):
    """A socket of this process attached to a table another process runs."""

    def pass_on(self, text: str) -> None:
        """What the client sent (checked and limited here), for the table."""

    def close(self) -> None:
        """The socket closed: the table detaches it."""


class RemoteTable(Protocol):
    """A live table another process runs, reached through it."""

    @property
    def table_id(self) -> str: ...

    async def join(self, player: PlayerRow, seat: int | None = None) -> int:
        """Seat the player (in ``seat``, or the first free; a
        :class:`~basra.server.table.seats.SeatError` as the table refused it); their seat
        number."""

    async def fill_bot(self, seat: int | None, level: str, player_id: str) -> int:
        """A bot of ``level`` in an empty seat; its number."""

    def connect(self, outbox: Outbox, player_id: str | None, address: str,
                account: bool) -> RemoteLink:
        """Attach a socket of this process (its outbox gets what the table sends)."""


class Placement(Protocol):
    """Which process runs each live table."""

    def at_start(self, live: list[str]) -> list[str]:
        """Of the tables the store holds live, the ones this process rebuilds as it starts."""

    async def claim_new(self, table_id: str) -> None:
        """A table just made here (a new id: nobody else can hold it)."""

    async def locate(self, table_id: str) -> RemoteTable | bool:
        """A table not in this process's memory: the table another process runs, True when
        nobody runs it and this process may adopt it, False when it is not live."""

    async def adopt(self, table_id: str) -> bool:
        """Take a live table nobody runs (its process died); False if another got it."""

    async def release(self, table_id: str) -> None:
        """This process let the table go (finished and evicted, or not rebuilt): another may
        take it."""

    async def handed_over(self, table_id: str) -> None:
        """The table was taken from this process (lease lost or a write fenced)."""

    def signed_out(self, player_id: str, session_id: str | None, keep: str | None) -> None:
        """Sessions ended here: their sockets in other processes close too."""

    async def live_matches(self, here: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The live list of the whole site, given this process's own summaries."""


class LocalPlacement:
    """One process runs every table: the in-memory implementation of :class:`Placement`."""

    def at_start(self, live: list[str]) -> list[str]:
        return live

    async def claim_new(self, table_id: str) -> None:
        return None

    async def locate(self, table_id: str) -> RemoteTable | bool:
        return False  # every live table was rebuilt at start or made here since

    async def adopt(self, table_id: str) -> bool:
        return False

    async def release(self, table_id: str) -> None:
        return None

    async def handed_over(self, table_id: str) -> None:
        return None

    def signed_out(self, player_id: str, session_id: str | None, keep: str | None) -> None:
        return None

    async def live_matches(self, here: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return here
