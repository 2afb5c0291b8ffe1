"""Cluster mode's quick match: the queues, tickets and presence in Redis, so that players
waiting on different nodes meet.

- ``{prefix}queue:{pool}``: a list of ticket ids, longest waiting first, per pool (a
  variant and a seating: :attr:`~basra.server.quick.pools.Pool.key`, e.g. ``egyptian``,
  ``lebanese:3``, ``serbian:2x2``);
- ``{prefix}ticket:{id}``: a hash: ``player``, ``nickname``, ``username`` (empty for a
  guest), ``variant``, ``players``, ``teams``, ``party`` (partners queued together),
  ``avoid`` (whom the player never sits with, comma separated),
  ``rating`` and ``deviation`` (the player's in the variant),
  ``since`` and ``seen`` (``time.time()``: when the ticket was made, and when its owner
  last waited on it: their presence), ``table`` once matched (and ``rated``); it expires
  a while after its last use;
- ``{prefix}last:{player}``: whom the player was last paired with (for an hour);
- ``{prefix}partner:{code}``: a partner invite, a hash: its host and pool, ``created`` and
  ``seen`` (the host's presence), ``answer`` (set once, with ``HSETNX``: ``accepted``,
  ``declined`` or ``cancelled``), the partner who answered and the host's ticket once
  accepted; it expires after ``PARTNER_INVITE_SECONDS`` and the rematch window;
- ``{prefix}qlock:{pool}``: the lock (redis-py's) under which a pool is paired, so that
  two nodes never seat one ticket twice.

It is cluster mode's :class:`~basra.server.quick.pools.PoolStore`, paired by the one pass
(:func:`~basra.server.quick.pools.pair_waiting`) the pools of one process use: every node
tries each pool every ``pairing_seconds``, and the one that gets its lock pairs
it; a ticket whose owner stopped waiting lapses. The node that pairs creates the table and
owns it; a waiting owner on any node sees ``table`` set within a quarter second. Times
between nodes are wall-clock times (NTP-synced machines).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from datetime import UTC, datetime
from typing import Any, cast

from redis.asyncio import Redis
from redis.asyncio.lock import Lock
from redis.exceptions import LockError

from basra.ratings import Rating
from basra.server.config import Settings
from basra.server.ids import new_id, new_invite_code
from basra.server.quick.pools import (
    PARTNER_INVITE_SECONDS,
    Gone,
    MakeTable,
    PartnerInvite,
    Pool,
    Ticket,
    Waiting,
    every_pool,
    lone_partners,
    pair_waiting,
)
from basra.store.base import PlayerRow

log = logging.getLogger("basra.quick_queue")

POLL_SECONDS = 0.25
"""How often a waiting owner looks at their ticket (and says they are still there)."""

LAST_OPPONENT_SECONDS = 3600


def text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def shared_ticket(ticket_id: str, player: PlayerRow, fields: dict[str, str]) -> Ticket:
    """A ticket of the shared pools as this node sees it, from its hash (``since``, a
    ``time.time()``, made monotonic here)."""
    since = time.monotonic() - (time.time() - float(fields["since"]))
    return Ticket(ticket_id, player, fields["variant"], since,
                  table_id=fields.get("table") or None, rated=bool(fields.get("rated")),
                  players=int(fields.get("players") or 2), teams=bool(fields.get("teams")),
                  party=fields.get("party") or None,
                  partner_left=bool(fields.get("partner_left")))


class RedisQueue:
    """Quick-match queues shared by every node."""

    def __init__(self, redis: Redis, settings: Settings) -> None:
        self.redis = redis
        self.settings = settings
        self.prefix = settings.redis_prefix

    def _queue(self, pool: Pool) -> str:
        return f"{self.prefix}queue:{pool.key}"

    def _ticket(self, ticket_id: str) -> str:
        return f"{self.prefix}ticket:{ticket_id}"

    @property
    def _keep_ms(self) -> int:
        """How long an untouched ticket is kept (after a match: the rematch window)."""
        settings = self.settings
        return int((settings.rematch_window_seconds + settings.ticket_lapse_seconds
                    + settings.quick_match_bot_offer_seconds + 60) * 1000)

    def lock(self, pool: Pool) -> Lock:
        return self.redis.lock(f"{self.prefix}qlock:{pool.key}", timeout=15,
                               blocking_timeout=15)

    async def _read(self, ticket_id: str) -> dict[str, str] | None:
        found = await self.redis.hgetall(self._ticket(ticket_id))
        if not found:
            return None
        return {text(k): text(v) for k, v in found.items()}

    async def _write(self, ticket_id: str, fields: dict[str, str]) -> None:
        key = self._ticket(ticket_id)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(key, mapping=cast(Any, fields))
            pipe.pexpire(key, self._keep_ms)
            await pipe.execute()

    def _alive(self, fields: dict[str, str], now: float) -> bool:
        return now - float(fields.get("seen", 0)) <= self.settings.ticket_lapse_seconds

    # ------------------------------------------------------------------ the lobby's side

    async def join(self, player: PlayerRow, pool: Pool, rating: Rating,
                   party: str | None = None, avoid: frozenset[str] = frozenset()) -> Ticket:
        """The player's ticket in ``pool`` (their waiting one, or a new one)."""
        async with self.lock(pool):
            now = time.time()
            for ticket_id, fields in await self._tickets(pool):
                if (fields.get("player") == player.id and self._alive(fields, now)
                        and (fields.get("party") or None) == party):
                    await self._write(ticket_id, {"seen": repr(now)})
                    return shared_ticket(ticket_id, player, fields)
            ticket_id = new_id()
            fields = await self._write_ticket(ticket_id, player, pool, now, rating, party,
                                              avoid)
            await self.redis.rpush(self._queue(pool), ticket_id)
            return shared_ticket(ticket_id, player, fields)

    async def requeue(self, player: PlayerRow, pool: Pool, waited: float,
                      rating: Rating) -> str:
        """A new ticket at the front (a matched rival never came)."""
        async with self.lock(pool):
            ticket_id = new_id()
            await self._write_ticket(ticket_id, player, pool, time.time() - waited, rating)
            await self.redis.lpush(self._queue(pool), ticket_id)
            return ticket_id

    async def _tickets(self, pool: Pool) -> list[tuple[str, dict[str, str]]]:
        """The queue's tickets in order; lapsed and lost ones leave it (holds the lock)."""
        queue = self._queue(pool)
        ids = [text(i) for i in await self.redis.lrange(queue, 0, -1)]
        out = []
        now = time.time()
        for ticket_id in ids:
            fields = await self._read(ticket_id)
            if fields is None or fields.get("table") or not self._alive(fields, now):
                await self.redis.lrem(queue, 0, ticket_id)
                continue
            out.append((ticket_id, fields))
        return out

    async def _write_ticket(  # noqa: PLR0913 - a ticket's every field
            self, ticket_id: str, player: PlayerRow, pool: Pool, since: float,
            rating: Rating, party: str | None = None,
            avoid: frozenset[str] = frozenset()) -> dict[str, str]:
        """Write a new ticket (holds the lock; the caller queues it); its fields."""
        fields = {"player": player.id, "nickname": player.nickname,
                  "username": player.username or "", "variant": pool.variant,
                  "players": str(pool.players), "teams": "1" if pool.teams else "",
                  "party": party or "", "avoid": ",".join(sorted(avoid)),
                  "rating": repr(rating.rating),
                  "deviation": repr(rating.deviation), "since": repr(since),
                  "seen": repr(time.time()), "table": ""}
        await self._write(ticket_id, fields)
        return fields

    async def pair_pools(self, make_table: MakeTable) -> int:
        """Fill each pool whose lock is free now; how many tables were made."""
        made = 0
        for pool in every_pool():
            if not await self.redis.llen(self._queue(pool)):
                continue
            lock = self.redis.lock(f"{self.prefix}qlock:{pool.key}", timeout=15,
                                   blocking_timeout=0)
            if not await lock.acquire():
                continue  # another node pairs it now
            try:
                made += await self._pair_pool(pool, lock, make_table)
            finally:
                with contextlib.suppress(LockError):
                    await lock.release()
        return made

    async def _pair_pool(self, pool: Pool, lock: Lock, make_table: MakeTable) -> int:
        now = time.time()
        tickets = {fields["player"]: (ticket_id, fields)
                   for ticket_id, fields in await self._tickets(pool)}
        waiting = []
        for player_id, (ticket_id, fields) in tickets.items():
            last = await self.redis.get(f"{self.prefix}last:{player_id}")
            player = PlayerRow(player_id, fields.get("nickname", ""), datetime.now(UTC),
                               username=fields.get("username") or None)
            rating = Rating(float(fields.get("rating", 1500)),
                            float(fields.get("deviation", 500)))
            waiting.append(Waiting(ticket_id, player, now - float(fields["since"]), rating,
                                   None if last is None else text(last),
                                   fields.get("party") or None,
                                   frozenset(filter(None, fields.get("avoid", "").split(",")))))
        for lone in lone_partners(waiting):
            await self.redis.lrem(self._queue(pool), 0, lone.ticket_id)
            await self._write(lone.ticket_id, {"partner_left": "1"})
            waiting.remove(lone)

        async def matched(seated: list[Waiting], table_id: str, rated: bool) -> None:
            for me in seated:
                await self.redis.lrem(self._queue(pool), 0, me.ticket_id)
            for me in seated:
                await self._write(me.ticket_id, {"table": table_id, "matched_at": repr(now),
                                                 "rated": "1" if rated else ""})
            if len(seated) == 2:  # whom each last met: the rematch rule's
                a, b = seated
                for me, rival in ((a, b), (b, a)):
                    await self.redis.set(f"{self.prefix}last:{me.player.id}",
                                         rival.player.id, ex=LAST_OPPONENT_SECONDS)

        # a pass that outlived its lock stops
        return await pair_waiting(pool, waiting, make_table, matched, lock.owned)

    async def find(self, ticket_id: str, player: PlayerRow) -> Ticket | None:
        """The player's ticket of that id, if any."""
        fields = await self._read(ticket_id) if len(ticket_id) <= 64 else None
        if fields is None or fields.get("player") != player.id:
            return None
        return shared_ticket(ticket_id, player, fields)

    async def wait(self, ticket: Ticket, deadline: float, gone: Gone | None) -> None:
        """Wait until ``deadline`` (monotonic) for a match, saying every poll that the
        owner is still here."""
        while True:
            fields = await self._read(ticket.id)
            if fields is None:
                return
            if fields.get("table"):
                ticket.table_id = fields["table"]
                ticket.rated = bool(fields.get("rated"))
                return
            if fields.get("partner_left"):
                ticket.partner_left = True
                return
            await self._write(ticket.id, {"seen": repr(time.time())})
            left = deadline - time.monotonic()
            if left <= 0:
                return
            await asyncio.sleep(min(left, POLL_SECONDS))
            if gone is not None and await gone():
                return

    async def claim(self, ticket: Ticket) -> bool:
        """Take the ticket out of its queue unless it was matched; whether it was free."""
        async with self.lock(ticket.pool):
            fields = await self._read(ticket.id)
            if fields is not None and fields.get("table"):
                return False
            await self.redis.lrem(self._queue(ticket.pool), 0, ticket.id)
            return True

    async def matched(self, ticket: Ticket, table_id: str) -> None:
        await self._write(ticket.id, {"table": table_id, "matched_at": repr(time.time())})
        ticket.match(table_id, rated=False)

    async def leave(self, ticket: Ticket) -> None:
        async with self.lock(ticket.pool):
            await self.redis.lrem(self._queue(ticket.pool), 0, ticket.id)
            await self.redis.delete(self._ticket(ticket.id))

    def forget(self, player_id: str) -> None:
        """Nothing: a deleted player's shared tickets lapse within ``ticket_lapse_seconds``
        (nobody waits on them)."""

    def sweep(self, now: float, rematch_window: float) -> None:
        """Nothing: shared tickets expire in Redis."""

    def held(self) -> int:
        """None: the tickets are in Redis."""
        return 0

    # ------------------------------------------------------------------ partner invites

    def _partner(self, code: str) -> str:
        return f"{self.prefix}partner:{code}"

    async def invite(self, host: PlayerRow, pool: Pool) -> PartnerInvite:
        now = time.time()
        invite = PartnerInvite(new_invite_code(), host, pool, now, now)
        key = self._partner(invite.code)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(key, mapping={
                "host": host.id, "nickname": host.nickname, "username": host.username or "",
                "variant": pool.variant, "players": str(pool.players),
                "teams": "1" if pool.teams else "", "created": repr(now), "seen": repr(now)})
            pipe.expire(key, int(PARTNER_INVITE_SECONDS + self.settings.rematch_window_seconds))
            await pipe.execute()
        return invite

    async def invitation(self, code: str, *, by_host: bool = False) -> PartnerInvite | None:
        if len(code) > 32:
            return None
        found = await self.redis.hgetall(self._partner(code))
        if not found:
            return None
        fields = {text(k): text(v) for k, v in found.items()}
        if by_host:
            fields["seen"] = repr(time.time())
            await self.redis.hset(self._partner(code), "seen", fields["seen"])
        host = PlayerRow(fields["host"], fields.get("nickname", ""), datetime.now(UTC),
                         username=fields.get("username") or None)
        partner = None
        if fields.get("partner"):
            partner = PlayerRow(fields["partner"], fields.get("partner_nickname", ""),
                                datetime.now(UTC),
                                username=fields.get("partner_username") or None)
        return PartnerInvite(code, host, Pool(fields["variant"], int(fields["players"]),
                                              bool(fields.get("teams"))),
                             float(fields["created"]), float(fields["seen"]),
                             fields.get("answer") or "waiting", partner,
                             fields.get("host_ticket") or None,
                             fields.get("partner_ticket") or None)

    async def answer(self, code: str, status: str, partner: PlayerRow | None) -> bool:
        invite = await self.invitation(code)
        if invite is None or not invite.open(time.time(), self.settings.ticket_lapse_seconds):
            return False
        key = self._partner(code)
        if not await self.redis.hsetnx(key, "answer", status):
            return False  # someone answered first
        if partner is not None:
            await self.redis.hset(key, mapping={
                "partner": partner.id, "partner_nickname": partner.nickname,
                "partner_username": partner.username or ""})
        return True

    async def hand_ticket(self, code: str, host_ticket: str, partner_ticket: str) -> None:
        await self.redis.hset(self._partner(code), mapping={
            "host_ticket": host_ticket, "partner_ticket": partner_ticket})

    async def wait_invite(self, code: str, deadline: float) -> PartnerInvite | None:
        while True:
            invite = await self.invitation(code, by_host=True)
            if invite is None or invite.status not in ("waiting", "accepted") or (
                    invite.status == "accepted" and invite.host_ticket):
                return invite
            left = deadline - time.monotonic()
            if left <= 0:
                return invite
            await asyncio.sleep(min(left, POLL_SECONDS))
