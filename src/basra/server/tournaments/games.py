"""What an event's standings are made of: its finished games, as the director records them.

An entrant is an opaque id: one player today, a pair of partners in a team event later, so
nothing here reads a player into it. A game's ``points`` are its result per entrant (1 a
win, 0.5 a draw, 0 a loss); an entrant in ``absent`` had their seat played by the bot from
the start and scores nothing, whatever the bot did.

>>> game = Game(1, ("amira", "badr"), (1.0, 0.0), ratings=(1520.0, 1480.0))
>>> game.outcome(0), game.outcome(1), game.opponents(0)
(1, -1, ('badr',))
>>> Game(3, ("camil",), (1.0,)).bye
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from basra.ratings import START_RATING

WIN, DRAW, LOSS = 1, 0, -1
"""A game's outcome for one entrant (:meth:`Game.outcome`)."""


@dataclass(frozen=True, slots=True)
class Game:
    """One finished pairing of an event as the standings see it."""

    round: int
    """Swiss round (1-based) or arena wave number (increasing in time)."""
    entrants: tuple[str, ...]
    """In seat order; one entrant alone is a bye (Swiss)."""
    points: tuple[float, ...]
    """The result per entrant: 1 win, 0.5 draw, 0 loss (a bye: ``(1.0,)``)."""
    absent: frozenset[str] = frozenset()
    """Entrants whose seat a bot played from the start: they score nothing in the event."""
    ratings: tuple[float, ...] = ()
    """Each entrant's rating when paired (for performance), or empty when not known."""

    @property
    def bye(self) -> bool:
        """Whether this is a bye: one entrant, nobody to play."""
        return len(self.entrants) == 1

    def outcome(self, seat: int) -> int:
        """:data:`WIN`, :data:`DRAW` or :data:`LOSS` for the entrant in ``seat`` (an absent
        entrant loses)."""
        if self.entrants[seat] in self.absent:
            return LOSS
        points = self.points[seat]
        return WIN if points > 0.5 else DRAW if points == 0.5 else LOSS

    def opponents(self, seat: int) -> tuple[str, ...]:
        """The other entrants of the game (none for a bye)."""
        return self.entrants[:seat] + self.entrants[seat + 1:]

    def rating(self, seat: int, known: Mapping[str, float]) -> float:
        """The rating of the entrant in ``seat`` when paired: the game's own record of it,
        else ``known`` (today's), else the starting rating."""
        if len(self.ratings) == len(self.entrants):
            return self.ratings[seat]
        return known.get(self.entrants[seat], START_RATING)


def in_order(games: Iterable[Game]) -> list[Game]:
    """The games by round (wave), keeping the given order within one."""
    return sorted(games, key=lambda game: game.round)


__all__ = ["DRAW", "LOSS", "WIN", "Game", "in_order"]
