"""Table leases in Redis: in cluster mode each live table is owned by exactly one node.

A lease is the key ``{prefix}lease:{table}`` holding the owner's node id, with a time to
live. Its owner takes it with ``SET NX`` when it creates or adopts the table, and renews
every lease it holds a few times per time to live, in one round trip; renewing checks the
holder first (a script), so a node never renews a lease another node took. When a node dies
its leases lapse, and a surviving node takes the table over (:mod:`~basra.server.cluster.node`).

The owner also knows locally until when its lease is certainly its own: the moment it last
sent a renewal that succeeded, plus the time to live, less a margin for clock drift between
this process and Redis. :meth:`Leases.holds` answers from that alone (no round trip), and
every write a table makes asks it first (:class:`~basra.server.cluster.fence.FencedTables`): a node
that lost its lease (paused, cut off from Redis) stops writing before another node may
begin. The store's unique (table, round, index) key is the last fence: of two writers of
one play, the second is refused.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from redis.asyncio import Redis

RENEW = """
local lost = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
  else
    table.insert(lost, i)
  end
end
return lost
"""
"""Renew each key still held by ARGV[1]; the 1-based positions of the ones that are not."""

RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""

DRIFT_MARGIN = 0.2
"""The share of a lease's time to live a holder does not count on (clock rate drift,
the time a renewal took to arrive)."""


class Leases:
    """The leases of one node: taking, renewing, releasing, and asking who owns a table."""

    def __init__(self, redis: Redis, node: str, ttl: float, prefix: str = "basra:") -> None:
        self.redis = redis
        self.node = node
        self.ttl = ttl
        self.prefix = prefix
        self.until: dict[str, float] = {}
        """Held leases: until when (monotonic) each is certainly ours."""

    def key(self, table_id: str) -> str:
        return f"{self.prefix}lease:{table_id}"

    def _ours_until(self, sent_at: float) -> float:
        return sent_at + self.ttl * (1 - DRIFT_MARGIN)

    async def acquire(self, table_id: str) -> bool:
        """Take the table's lease if nobody holds it; whether this node holds it now."""
        sent_at = time.monotonic()
        taken = await self.redis.set(self.key(table_id), self.node, nx=True,
                                     px=int(self.ttl * 1000))
        if not taken:
            owner = await self.owner(table_id)
            if owner != self.node:
                return False
        self.until[table_id] = self._ours_until(sent_at)
        return True

    def holds(self, table_id: str, now: float | None = None) -> bool:
        """Whether this node certainly holds the lease now (no round trip)."""
        until = self.until.get(table_id)
        return until is not None and (time.monotonic() if now is None else now) < until

    async def renew(self) -> list[str]:
        """Renew every lease held, in one round trip; returns the tables whose lease was
        lost (another node holds it, or it lapsed): they are no longer this node's."""
        held = list(self.until)
        if not held:
            return []
        sent_at = time.monotonic()
        lost_at = await self.redis.eval(RENEW, len(held), *(self.key(t) for t in held),
                                        self.node, int(self.ttl * 1000))
        lost = {held[int(i) - 1] for i in lost_at}
        until = self._ours_until(sent_at)
        for table_id in held:
            if table_id in lost:
                self.until.pop(table_id, None)
            elif table_id in self.until:  # not released while the renewal was under way
                self.until[table_id] = until
        return sorted(lost)

    async def release(self, table_id: str) -> None:
        """Give a lease up (the table finished, or this node stops): only if still ours."""
        self.until.pop(table_id, None)
        await self.redis.eval(RELEASE, 1, self.key(table_id), self.node)

    async def owner(self, table_id: str) -> str | None:
        found = await self.redis.get(self.key(table_id))
        return found.decode() if isinstance(found, bytes) else found

    async def owners(self, table_ids: Iterable[str]) -> dict[str, str | None]:
        """Who holds each table's lease (None: nobody), in one round trip."""
        ids = list(table_ids)
        if not ids:
            return {}
        found = await self.redis.mget([self.key(t) for t in ids])
        return {t: (o.decode() if isinstance(o, bytes) else o) for t, o in zip(ids, found,
                                                                                strict=True)}
