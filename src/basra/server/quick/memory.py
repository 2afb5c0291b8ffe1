"""The quick-match pools of one process: the in-memory :class:`~basra.server.quick.pools.PoolStore`.

Each pool (a variant and a seating, by its key) is a list of tickets, longest waiting first
(a requeued ticket goes to the front); a long poll waits on its ticket's event, so a match
wakes it at once. One lock
covers the pools: joining, pairing, claiming and leaving never interleave. Whom each player
last met is kept for the rematch rule, bounded (the oldest half goes past 100,000)."""

from __future__ import annotations

import asyncio
import contextlib
import time

from basra.ratings import Rating
from basra.server.ids import new_id, new_invite_code
from basra.server.quick.pools import (
    PARTNER_INVITE_SECONDS,
    Gone,
    MakeTable,
    PartnerInvite,
    Pool,
    Ticket,
    Waiting,
    lone_partners,
    pair_waiting,
)
from basra.store.base import PlayerRow

LAST_OPPONENTS_KEPT = 100_000


class MemoryPools:
    """Quick-match pools held by this process."""

    def __init__(self, lapse_seconds: float) -> None:
        self.lapse_seconds = lapse_seconds
        """A ticket nobody waits on lapses this long after its last long poll."""
        self.pools: dict[str, list[Ticket]] = {}
        self.tickets: dict[str, Ticket] = {}
        self.last_opponent: dict[str, str] = {}
        self.lock = asyncio.Lock()
        self.invites: dict[str, PartnerInvite] = {}
        self.answered: dict[str, asyncio.Event] = {}

    def alive(self, ticket: Ticket, now: float) -> bool:
        """Whether the ticket's owner is still waiting (see :class:`Ticket`)."""
        return ticket.polls > 0 or now - ticket.seen <= self.lapse_seconds

    async def join(self, player: PlayerRow, pool: Pool, rating: Rating,
                   party: str | None = None, avoid: frozenset[str] = frozenset()) -> Ticket:
        async with self.lock:
            waiting = self.pools.setdefault(pool.key, [])
            for ticket in waiting:
                if ticket.player.id == player.id and ticket.party == party:
                    ticket.seen = time.monotonic()
                    return ticket
            ticket = Ticket(new_id(), player, pool.variant, time.monotonic(), rating=rating,
                            players=pool.players, teams=pool.teams, party=party, avoid=avoid)
            self.tickets[ticket.id] = ticket
            waiting.append(ticket)
            return ticket

    async def requeue(self, player: PlayerRow, pool: Pool, waited: float,
                      rating: Rating) -> str:
        async with self.lock:
            ticket = Ticket(new_id(), player, pool.variant, since=time.monotonic() - waited,
                            rating=rating, players=pool.players, teams=pool.teams)
            self.tickets[ticket.id] = ticket
            self.pools.setdefault(pool.key, []).insert(0, ticket)
            return ticket.id

    async def find(self, ticket_id: str, player: PlayerRow) -> Ticket | None:
        ticket = self.tickets.get(ticket_id)
        return ticket if ticket is not None and ticket.player.id == player.id else None

    async def wait(self, ticket: Ticket, deadline: float, gone: Gone | None) -> None:
        ticket.polls += 1
        try:
            while not ticket.matched.is_set():
                left = deadline - time.monotonic()
                if left <= 0:
                    return
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(ticket.matched.wait(), min(left, 0.5))
                if gone is not None and await gone():
                    return
        finally:
            ticket.polls -= 1
            ticket.seen = time.monotonic()

    async def claim(self, ticket: Ticket) -> bool:
        async with self.lock:
            if ticket.table_id is not None:
                return False
            self._out(ticket)
            return True

    async def matched(self, ticket: Ticket, table_id: str) -> None:
        ticket.match(table_id, rated=False)

    async def leave(self, ticket: Ticket) -> None:
        async with self.lock:
            self._out(ticket)
            self.tickets.pop(ticket.id, None)

    def forget(self, player_id: str) -> None:
        for ticket in [t for t in self.tickets.values() if t.player.id == player_id]:
            self._out(ticket)
            del self.tickets[ticket.id]

    def sweep(self, now: float, rematch_window: float) -> None:
        wall = time.time()
        for code, invite in list(self.invites.items()):
            if wall - invite.created > PARTNER_INVITE_SECONDS + rematch_window:
                del self.invites[code]
                self.answered.pop(code, None)
        for ticket in list(self.tickets.values()):
            if ticket.table_id is None and not self.alive(ticket, now):
                self._out(ticket)
                del self.tickets[ticket.id]
            elif ticket.matched_at is not None and now - ticket.matched_at > rematch_window:
                del self.tickets[ticket.id]

    def held(self) -> int:
        return len(self.tickets)

    def _out(self, ticket: Ticket) -> None:
        pool = self.pools.get(ticket.pool.key, [])
        if ticket in pool:
            pool.remove(ticket)

    async def pair_pools(self, make_table: MakeTable) -> int:
        made = 0
        async with self.lock:
            now = time.monotonic()
            for key, pool in self.pools.items():
                for lapsed in [t for t in pool if not self.alive(t, now)]:
                    pool.remove(lapsed)
                    self.tickets.pop(lapsed.id, None)
                waiting = [Waiting(t.id, t.player, now - t.since, t.rating,
                                   self.last_opponent.get(t.player.id), t.party, t.avoid)
                           for t in pool if t.table_id is None]
                for lone in lone_partners(waiting):
                    ticket = self.tickets[lone.ticket_id]
                    pool.remove(ticket)
                    ticket.partner_left = True
                    ticket.matched.set()  # its wait ends, and says so
                    waiting.remove(lone)

                async def matched(seated: list[Waiting], table_id: str, rated: bool,
                                  pool: list[Ticket] = pool) -> None:
                    for me in seated:
                        ticket = self.tickets[me.ticket_id]
                        pool.remove(ticket)
                        ticket.match(table_id, rated, now)
                    if len(seated) == 2:  # whom each last met: the rematch rule's
                        a, b = seated
                        self.last_opponent[a.player.id] = b.player.id
                        self.last_opponent[b.player.id] = a.player.id

                made += await pair_waiting(Pool.of_key(key), waiting, make_table, matched)
            if len(self.last_opponent) > LAST_OPPONENTS_KEPT:  # the oldest half goes
                for key in list(self.last_opponent)[:LAST_OPPONENTS_KEPT // 2]:
                    del self.last_opponent[key]
        return made

    # ------------------------------------------------------------------ partner invites

    async def invite(self, host: PlayerRow, pool: Pool) -> PartnerInvite:
        now = time.time()
        invite = PartnerInvite(new_invite_code(), host, pool, now, now)
        self.invites[invite.code] = invite
        self.answered[invite.code] = asyncio.Event()
        return invite

    async def invitation(self, code: str, *, by_host: bool = False) -> PartnerInvite | None:
        invite = self.invites.get(code)
        if invite is not None and by_host:
            invite.seen = time.time()
        return invite

    async def answer(self, code: str, status: str, partner: PlayerRow | None) -> bool:
        invite = self.invites.get(code)
        if invite is None or not invite.open(time.time(), self.lapse_seconds):
            return False
        invite.status = status
        invite.partner = partner
        if status != "accepted":
            self.answered[code].set()
        return True

    async def hand_ticket(self, code: str, host_ticket: str, partner_ticket: str) -> None:
        invite = self.invites.get(code)
        if invite is not None:
            invite.host_ticket = host_ticket
            invite.partner_ticket = partner_ticket
            self.answered[code].set()

    async def wait_invite(self, code: str, deadline: float) -> PartnerInvite | None:
        invite = self.invites.get(code)
        event = self.answered.get(code)
        if invite is None or event is None:
            return None
        while not event.is_set():
            invite.seen = time.time()
            left = deadline - time.monotonic()
            if left <= 0:
                break
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), min(left, 1.0))
        invite.seen = time.time()
        return invite
