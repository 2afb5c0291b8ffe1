"""Cluster mode's placement of tables (:class:`~basra.server.lobby.placement.Placement` over
Redis): a table runs on the node that holds its lease; a table nobody holds (its node died)
is adopted by whichever node asks first; a table another node runs is reached through that
node (:class:`NodeTable`: seatings are calls answered by the owner, sockets are forwarded).
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

from redis.exceptions import RedisError

from basra.server import metrics
from basra.server.cluster.messages import CallOp, FillBotCall, JoinCall, Refused, SignedOutMessage
from basra.server.cluster.node import Cluster, Forwarded
from basra.server.cluster.relay import EVERY_NODE
from basra.server.ids import new_id
from basra.server.lobby.placement import RemoteTable
from basra.server.lobby.tables import LobbyError
from basra.server.table.outbox import Outbox
from basra.server.table.seats import SeatError
from basra.store.base import PlayerRow


@dataclass(eq=False, slots=True)
class NodeLink:
    """A socket of this node forwarded to the table's owner."""

    cluster: Cluster
    entry: Forwarded

    def pass_on(self, text: str) -> None:
        self.cluster.pass_on(self.entry, text)

    def close(self) -> None:
        self.cluster.unforward(self.entry)


@dataclass(frozen=True, slots=True)
class NodeTable:
    """A live table another node (``owner``) runs."""

    cluster: Cluster
    owner: str
    table_id: str

    async def join(self, player: PlayerRow, seat: int | None = None) -> int:
        return await self._call(JoinCall(self.table_id, player.id, player.nickname,
                                         player.account, player.username, seat))

    async def fill_bot(self, seat: int | None, level: str, player_id: str) -> int:
        return await self._call(FillBotCall(self.table_id, seat, level, player_id))

    def connect(self, outbox: Outbox, player_id: str | None, address: str,
                account: bool) -> NodeLink:
        entry = self.cluster.forward(new_id(), self.table_id, self.owner, outbox, player_id,
                                     address, account)
        return NodeLink(self.cluster, entry)

    async def _call(self, op: CallOp) -> int:
        """A seating asked of the owner: its seat, or its refusal as the table made it."""
        try:
            answer = await self.cluster.ask(self.owner, op)
        except TimeoutError:
            raise LobbyError("the table's server did not answer: try again",
                             "table/unavailable") from None
        if isinstance(answer, Refused):
            raise SeatError(answer.message, answer.error)
        return answer.seat


class ClusterPlacement:
    """Which node runs each table: leases in Redis (:mod:`~basra.server.cluster.leases`)."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster

    def at_start(self, live: list[str]) -> list[str]:
        return []  # the adoption loop takes the tables nobody holds, shared among nodes

    async def claim_new(self, table_id: str) -> None:
        await self.cluster.leases.acquire(table_id)  # a new id: nobody else can hold it
        metrics.lease_moved("acquired")

    async def locate(self, table_id: str) -> RemoteTable | bool:
        owner = await self.cluster.owner(table_id)
        if owner is None:
            return True
        if owner == self.cluster.node:
            return False
        return NodeTable(self.cluster, owner, table_id)

    async def adopt(self, table_id: str) -> bool:
        return await self.cluster.leases.acquire(table_id)

    async def release(self, table_id: str) -> None:
        self.cluster.forget_table(table_id)
        await self.cluster.leases.release(table_id)

    async def handed_over(self, table_id: str) -> None:
        self.cluster.forget_table(table_id)
        # Stopped here: the lease goes at once if its key still names this node (only
        # then: the script compares), so that the table is adopted now, not when the key
        # lapses (a lease counted lost here can live in Redis for seconds more). With
        # Redis away the key lapses by itself.
        with contextlib.suppress(RedisError, OSError):
            await self.cluster.leases.release(table_id)

    def signed_out(self, player_id: str, session_id: str | None, keep: str | None) -> None:
        self.cluster.relay.publish(EVERY_NODE, SignedOutMessage(player_id, session_id, keep))

    async def live_matches(self, here: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return await self.cluster.live_matches(here)
