"""Where quick-match tickets wait, and the one pairing pass over them.

A :class:`PoolStore` keeps each variant's pool: :class:`~basra.server.quick.memory.MemoryPools`
in one process, :class:`~basra.server.cluster.pools.RedisQueue` shared by a cluster's nodes.
Both pair a pool the same way, through :func:`pair_waiting`: the pool as
:class:`Waiting` players, :func:`basra.server.quick.pairing.pair` (as many pairs as can be, the
smallest sum of rating gaps), the longer waiting seated first, the table made by the lobby
(:data:`MakeTable`), rated by :func:`rated_pair`. The lobby never asks which one it holds.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Protocol

from basra.ratings import Rating
from basra.server.quick.pairing import Seeker, pair
from basra.store.base import PlayerRow

log = logging.getLogger("basra.quick")

MakeTable = Callable[[PlayerRow, PlayerRow, str, bool], Awaitable[str]]
"""Make the quick-match table of two players (the longer waiting first) for a variant,
rated or not; its id."""

Gone = Callable[[], Awaitable[bool]]
"""Whether the client waiting on a ticket hung up."""


def rated_pair(humans: list[PlayerRow]) -> bool:
    """Whether a quick match of these players is rated: two accounts (whether the result
    then counts is :mod:`basra.server.rated_play`'s rule)."""
    return len(humans) == 2 and all(h.account for h in humans)


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

    def seeker(self) -> Seeker:
        return Seeker(self.player.id, self.rating.rating, self.waited,
                      guest=not self.player.account, provisional=self.rating.provisional,
                      last_opponent=self.last_opponent)


async def pair_waiting(variant: str, waiting: list[Waiting], make_table: MakeTable,
                       matched: Callable[[Waiting, Waiting, str, bool], Awaitable[None]],
                       held: Callable[[], Awaitable[bool]] | None = None) -> int:
    """Pair one variant's pool once: for each pair :func:`~basra.server.quick.pairing.pair`
    makes, the table (``make_table``; one that cannot be made leaves both waiting, paired
    later) and then ``matched`` (the pool marks both tickets and whom they met). ``held``:
    whether the pass may go on (a cluster's pass stops once its lock is lost). How many
    tables were made."""
    by_player = {w.player.id: w for w in waiting}
    made = 0
    for first, second in pair([w.seeker() for w in by_player.values()]):
        a, b = by_player[first.id], by_player[second.id]
        if b.waited > a.waited:  # the longer waiting sits first
            a, b = b, a
        if held is not None and not await held():
            break
        rated = rated_pair([a.player, b.player])
        try:
            table_id = await make_table(a.player, b.player, variant, rated)
        except Exception:  # e.g. the store is down: both wait on, paired later
            log.exception("quick match: a table for %s could not be made", variant)
            continue
        await matched(a, b, table_id, rated)
        made += 1
    return made


class PoolStore(Protocol):
    """Where quick match's tickets wait (one process's memory, or Redis for a cluster)."""

    async def join(self, player: PlayerRow, variant: str, rating: Rating) -> Ticket:
        """The player's ticket in ``variant``'s pool: their waiting one, or a new one."""

    async def requeue(self, player: PlayerRow, variant: str, waited: float,
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
        """Pair every variant's pool once (:func:`pair_waiting`); tables made."""
