"""What a table reads beyond its own record: each player's rating, to show at a rated
table, whether a result between two players may be rated
(:mod:`basra.server.rated_play`), whom a player blocks (their phrases are not delivered)
and whether a moderator muted a player. A port of the table's actor, so that the table's own
record (:class:`~basra.store.ports.TableStore`) stays the only store it writes."""

from __future__ import annotations

import itertools
from datetime import datetime
from typing import Protocol

from basra.ratings import Rating
from basra.server.config import RatedRules
from basra.server.rated_play import not_eligible
from basra.store.base import RatedGame
from basra.store.ports import Store


class Standing(Protocol):
    """The players' standing, as a rated table asks it."""

    async def rating(self, player_id: str, variant: str) -> Rating:
        """The player's rating in ``variant`` (a newcomer's: the start)."""

    async def unrated_reason(self, game: RatedGame, now: datetime,
                             rules: RatedRules) -> str | None:
        """Why ``game``'s result may not be rated (None: it may)."""

    async def avoided(self, player_id: str) -> frozenset[str]:
        """The players the player blocks or is blocked by: their phrases never reach the
        player's seat."""

    async def muted(self, player_id: str) -> bool:
        """Whether a moderator muted the player's phrases (issue 31)."""


class StoredStanding:
    """The players' standing as the store keeps it."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def rating(self, player_id: str, variant: str) -> Rating:
        for row in await self.store.ratings(player_id):
            if row.variant == variant:
                return Rating(row.rating, row.deviation, row.volatility)
        return Rating()

    async def unrated_reason(self, game: RatedGame, now: datetime,
                             rules: RatedRules) -> str | None:
        opponents = [(game.players[a], game.players[b])
                     for a, b in itertools.combinations(range(len(game.players)), 2)
                     if game.side_of(a) != game.side_of(b)]
        return await not_eligible(self.store, game.players, now, rules, opponents)

    async def avoided(self, player_id: str) -> frozenset[str]:
        return frozenset(await self.store.blocked_ids(player_id))

    async def muted(self, player_id: str) -> bool:
        return (await self.store.standing(player_id)).muted
