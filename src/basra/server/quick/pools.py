"""Where quick-match tickets wait, and the one pairing pass over them.

A :class:`PoolStore` keeps a pool per variant and seating (:class:`Pool`: two players;
three or four alone; two sides of two): :class:`~basra.server.quick.memory.MemoryPools` in
one process, :class:`~basra.server.cluster.pools.RedisQueue` shared by a cluster's nodes.
Both fill a pool's tables the same way, through :func:`pair_waiting`: the pool as
:class:`Waiting` players, :func:`basra.server.quick.pairing.group` (two players:
:func:`~basra.server.quick.pairing.pair`, as many pairs as can be, the smallest sum of
rating gaps; more: the longest waiting first, the closest in rating), the table made by the
lobby (:data:`MakeTable`), rated by :func:`rated_table`. The lobby never asks which one it
holds.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Protocol

from basra.game.rules import VARIANTS, find_variant
from basra.ratings import Rating
from basra.server.quick.pairing import Seeker, group
from basra.store.base import PlayerRow

log = logging.getLogger("basra.quick")


@dataclass(frozen=True, slots=True)
class Pool:
    """One quick-match pool: a variant and a seating (two players; three or four alone;
    ``teams``: two sides of two)."""

    variant: str
    players: int = 2
    teams: bool = False

    @property
    def key(self) -> str:
        """Its name in the pools: ``egyptian``, ``lebanese:3``, ``serbian:2x2``."""
        if self.teams:
            return f"{self.variant}:2x2"
        return self.variant if self.players == 2 else f"{self.variant}:{self.players}"

    @classmethod
    def of_key(cls, key: str) -> Pool:
        """The pool named ``key`` (:attr:`key`'s inverse)."""
        variant, _, seating = key.partition(":")
        if seating == "2x2":
            return cls(variant, 4, True)
        return cls(variant, int(seating or 2))


def every_pool() -> list[Pool]:
    """Every variant's every seating: the pools there are."""
    return [Pool(name, players, teams) for name in VARIANTS
            for players, teams in sorted(find_variant(name).seatings)]


MakeTable = Callable[[Pool, list[PlayerRow], bool], Awaitable[str]]
"""Make a pool's quick-match table of these players in seat order, rated or not; its id."""

Gone = Callable[[], Awaitable[bool]]
"""Whether the client waiting on a ticket hung up."""


def rated_table(humans: list[PlayerRow]) -> bool:
    """Whether a quick match of these players is rated: all of them accounts (whether the
    result then counts is :mod:`basra.server.rated_play`'s rule)."""
    return len(humans) >= 2 and all(h.account for h in humans)


@dataclass(eq=False)
class Ticket:
    """A player waiting in a quick-match pool, as this process sees it. It lives only
    while its owner waits: an open long poll, or one that ended less than
    ``ticket_lapse_seconds`` ago."""

    id: str
    player: PlayerRow
    variant: str
    since: float
    """When it began waiting (``time.monotonic()``)."""
    table_id: str | None = None
    matched: asyncio.Event = field(default_factory=asyncio.Event)
    seen: float = field(default_factory=time.monotonic)
    """When the owner was last waiting on it."""
    polls: int = 0
    """Long polls open on it now."""
    matched_at: float | None = None
    rating: Rating = field(default_factory=Rating)
    """The player's rating in the variant (a guest's is the starting one)."""
    rated: bool = False
    """Whether the match it was paired into is rated."""
    players: int = 2
    teams: bool = False
    """The seating it waits for (with ``variant``: its :attr:`pool`)."""
    party: str | None = None
    """The partnership it queued with (a team pool), if any."""
    partner_left: bool = False
    """Its partner's ticket went (they stopped waiting): out of the pool, and says so."""
    avoid: frozenset[str] = frozenset()
    """Whom its player never sits with (blocks, both ways)."""

    @property
    def pool(self) -> Pool:
        return Pool(self.variant, self.players, self.teams)

    def match(self, table_id: str, rated: bool, now: float | None = None) -> None:
        """Paired into ``table_id`` (or given a bot's table): whoever waits on it wakes."""
        self.table_id = table_id
        self.rated = rated
        self.matched_at = time.monotonic() if now is None else now
        self.matched.set()


@dataclass(frozen=True, slots=True)
class Waiting:
    """A player in a pool as the pairing pass sees them."""

    ticket_id: str
    player: PlayerRow
    waited: float
    """Seconds in the pool."""
    rating: Rating
    last_opponent: str | None = None
    """Whom they were last paired with (no rematch in a row while others wait)."""
    party: str | None = None
    avoid: frozenset[str] = frozenset()

    def seeker(self) -> Seeker:
        return Seeker(self.player.id, self.rating.rating, self.waited,
                      guest=not self.player.account, provisional=self.rating.provisional,
                      last_opponent=self.last_opponent, party=self.party, avoid=self.avoid)


PARTNER_INVITE_SECONDS = 600.0
"""How long a partner invite can be accepted (while its host still waits on it)."""


@dataclass(eq=False)
class PartnerInvite:
    """A player's invitation to a partner to queue together in a team pool: whoever
    accepts it first (by its link, or from a notification) sits on the host's side."""

    code: str
    host: PlayerRow
    pool: Pool
    created: float
    """When it was made (``time.time()``: shared between a cluster's nodes)."""
    seen: float
    """When its host last waited on it (``time.time()``): it lapses as a ticket does."""
    status: str = "waiting"
    """``waiting``, ``accepted``, ``declined`` or ``cancelled``."""
    partner: PlayerRow | None = None
    """Who accepted (or declined) it."""
    host_ticket: str | None = None
    """The host's ticket, once accepted (the partner's has the same ``party``)."""
    partner_ticket: str | None = None
    """The partner's ticket, once accepted."""

    def open(self, now: float, lapse: float) -> bool:
        """Whether it can still be accepted: waiting, not expired, its host still here."""
        return (self.status == "waiting" and now - self.created < PARTNER_INVITE_SECONDS
                and now - self.seen <= lapse)

    def shown_status(self, now: float, lapse: float) -> str:
        """Its status as told: ``expired`` once a waiting one cannot be accepted."""
        if self.status == "waiting" and not self.open(now, lapse):
            return "expired"
        return self.status


def lone_partners(waiting: list[Waiting]) -> list[Waiting]:
    """The tickets of partnerships one of whose two tickets went (both are made at once,
    when the invite is accepted, so one alone means the other left)."""
    parties: dict[str, list[Waiting]] = {}
    for w in waiting:
        if w.party is not None:
            parties.setdefault(w.party, []).append(w)
    return [ws[0] for ws in parties.values() if len(ws) == 1]


Matched = Callable[[list[Waiting], str, bool], Awaitable[None]]
"""Mark the tickets of a table's players (in seat order) matched into it, rated or not."""


async def pair_waiting(pool: Pool, waiting: list[Waiting], make_table: MakeTable,
                       matched: Matched,
                       held: Callable[[], Awaitable[bool]] | None = None) -> int:
    """Fill one pool's tables once: for each table
    :func:`~basra.server.quick.pairing.group` makes (two players: the longer waiting
    first), the table (``make_table``; one that cannot be made leaves its players waiting,
    seated later) and then ``matched`` (the pool marks the tickets and, for two, whom they
    met). ``held``: whether the pass may go on (a cluster's pass stops once its lock is
    lost). How many tables were made."""
    by_player = {w.player.id: w for w in waiting}
    made = 0
    for seated in group([w.seeker() for w in by_player.values()], pool.players, pool.teams):
        people = [by_player[s.id] for s in seated]
        if len(people) == 2 and people[1].waited > people[0].waited:
            people.reverse()  # the longer waiting sits first
        if held is not None and not await held():
            break
        rated = rated_table([w.player for w in people])
        try:
            table_id = await make_table(pool, [w.player for w in people], rated)
        except Exception:  # e.g. the store is down: all wait on, seated later
            log.exception("quick match: a table for %s could not be made", pool.key)
            continue
        await matched(people, table_id, rated)
        made += 1
    return made


class PoolStore(Protocol):
    """Where quick match's tickets wait (one process's memory, or Redis for a cluster)."""

    async def join(self, player: PlayerRow, pool: Pool, rating: Rating,
                   party: str | None = None, avoid: frozenset[str] = frozenset()) -> Ticket:
        """The player's ticket in ``pool``: their waiting one, or a new one (with
        ``party``: queued with a partner, who joins with the same party; ``avoid``: whom
        they never sit with)."""

    async def requeue(self, player: PlayerRow, pool: Pool, waited: float,
                      rating: Rating) -> str:
        """A new ticket at the front of the pool, as if it had waited ``waited`` seconds
        (a matched rival never came); its id."""

    async def find(self, ticket_id: str, player: PlayerRow) -> Ticket | None:
        """The player's ticket of that id, if any."""

    async def wait(self, ticket: Ticket, deadline: float, gone: Gone | None) -> None:
        """Wait until ``deadline`` (monotonic) for a match, the owner counted as present
        meanwhile; ``ticket`` then says whether it was matched (its table, rated)."""

    async def claim(self, ticket: Ticket) -> bool:
        """Take the ticket out of its pool unless it was matched: whether it was free."""

    async def matched(self, ticket: Ticket, table_id: str) -> None:
        """The ticket's owner took a bot's table instead (after :meth:`claim`)."""

    async def leave(self, ticket: Ticket) -> None:
        """The owner leaves the pool."""

    def forget(self, player_id: str) -> None:
        """The player is gone (a deleted account): their tickets here go."""

    def sweep(self, now: float, rematch_window: float) -> None:
        """Drop lapsed tickets, and matched ones older than the rematch window."""

    def held(self) -> int:
        """How many tickets this process holds (``/health``)."""

    async def pair_pools(self, make_table: MakeTable) -> int:
        """Fill every pool's tables once (:func:`pair_waiting`); tables made. A ticket
        whose partner's ticket went leaves its pool, marked ``partner_left``."""

    async def invite(self, host: PlayerRow, pool: Pool) -> PartnerInvite:
        """A new partner invite of ``host`` for ``pool`` (a team pool)."""

    async def invitation(self, code: str, *, by_host: bool = False) -> PartnerInvite | None:
        """The invite of that code, if any (``by_host``: its host is still there)."""

    async def answer(self, code: str, status: str, partner: PlayerRow | None) -> bool:
        """Settle a waiting invite (``accepted``, ``declined``, ``cancelled``) once:
        whether this answer was the one that settled it."""

    async def hand_ticket(self, code: str, host_ticket: str, partner_ticket: str) -> None:
        """The accepted invite's tickets (the host's wait ends)."""

    async def wait_invite(self, code: str, deadline: float) -> PartnerInvite | None:
        """Wait until ``deadline`` (monotonic) for the invite to be answered, its host
        counted as present meanwhile; the invite as it then is."""
