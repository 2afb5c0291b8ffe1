"""Who sits where: seats, teams, and the scoring side of each seat (RULES.md 1 and 2).

Seats are numbered from 0 in turn order. Without teams every seat is its own side; with
teams (four players) seats 0 and 2 play against seats 1 and 3.

>>> from basra.game.rules import find_variant
>>> s = Seating.choose(find_variant("egyptian"), 4)
>>> s.teams, s.sides, s.side_of(3), s.seats_of(0)
(True, 2, 1, (0, 2))
>>> s.side_names(["amira", "nour", "sami", "rana"])
['amira & sami', 'nour & rana']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from basra.game.engine import side_count, side_of
from basra.game.rules import Rules


@dataclass(frozen=True, slots=True)
class Seating:
    """A match's seating: how many seats and whether they play in teams."""

    seats: int
    teams: bool = False

    @classmethod
    def choose(cls, rules: Rules, players: int, teams: bool = False) -> Seating:
        """The seating to play ``players`` with: where the variant plays that many only in
        teams, they play in teams. Raises :class:`~basra.errors.SeatingError` for a seating
        the variant forbids."""
        if not teams and (players, False) not in rules.seatings \
                and (players, True) in rules.seatings:
            teams = True
        rules.check_seating(players, teams)
        return cls(players, teams)

    @property
    def sides(self) -> int:
        return side_count(self.seats, self.teams)

    def side_of(self, seat: int) -> int:
        """The scoring side of ``seat`` (the engine states the rule once)."""
        return side_of(seat, self.teams)

    def seats_of(self, side: int) -> tuple[int, ...]:
        """The seats that score for ``side``, in seat order."""
        return tuple(s for s in range(self.seats) if self.side_of(s) == side)

    def side_names(self, names: Sequence[str]) -> list[str]:
        """A label per side from a name per seat: the seat's name, or the partners' names
        joined by `` & `` in a team game."""
        return [" & ".join(names[s] for s in self.seats_of(side)) for side in range(self.sides)]

    def describe(self) -> str:
        """``2 players`` or ``4 players in teams``."""
        return f"{self.seats} players" + (" in teams" if self.teams else "")


__all__ = ["Seating"]
