"""What a puzzle is: a last-deal position (:mod:`basra.puzzles.position`), its proved
solution tree, and how both are written in the shipped data (format ``basra-puzzles/1``,
docs/PUZZLES.md).

The exact endgame solver (:mod:`basra.bots.endgame`) proves what every play is worth, and a
puzzle is a position where one first play beats every other by a clear margin.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from basra.puzzles.position import PREFIX, Position, PuzzleError, names, position_view

FORMAT = "basra-puzzles/1"
"""The ``format`` field of a puzzle file."""

THEMES: tuple[str, ...] = ("basra", "deny-basra", "majority", "ten-of-diamonds",
                           "keep-the-jack", "quiet-play", "smaller-take", "last-take")
"""Every theme a puzzle may carry, in the order they are listed (docs/PUZZLES.md)."""


# --------------------------------------------------------------------------- the tree


@dataclass(frozen=True, slots=True)
class Branch:
    """An accepted play at one of your decision points: the opponent's best reply (none
    when your play ended the round) and your next decision point (none when the line
    ends there)."""

    play: str
    reply: str | None
    after: Node | None


@dataclass(frozen=True, slots=True)
class Node:
    """One of your decision points along the line: every legal play (in the engine's play
    order) with its exact value, and a branch for each accepted play (those worth the
    most)."""

    values: tuple[tuple[str, int], ...]
    branches: tuple[Branch, ...]

    def value_of(self, play: str) -> int | None:
        """The value of the legal play ``play`` (canonical text), or None when it is not
        one."""
        for p, v in self.values:
            if p == play:
                return v
        return None

    def branch_of(self, play: str) -> Branch | None:
        """The branch of the accepted play ``play``, or None when it is not accepted."""
        for b in self.branches:
            if b.play == play:
                return b
        return None

    @property
    def accepted(self) -> tuple[str, ...]:
        """The accepted plays, in play order."""
        return tuple(b.play for b in self.branches)

    @property
    def best(self) -> int:
        """The value of the accepted plays."""
        return max(v for _, v in self.values)

    def to_json(self) -> list[object]:
        """``[[[play, value], ...], [[play, reply, next node], ...]]``."""
        return [[list(pv) for pv in self.values],
                [[b.play, b.reply, None if b.after is None else b.after.to_json()]
                 for b in self.branches]]

    @classmethod
    def from_json(cls, data: Any) -> Node:
        """Read :meth:`to_json`'s shape back."""
        values, branches = data
        return cls(tuple((str(p), int(v)) for p, v in values),
                   tuple(Branch(str(p), None if r is None else str(r),
                                None if a is None else cls.from_json(a))
                         for p, r, a in branches))


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A proved puzzle: the position, what it is worth to you under best play (the round
    margin in points, :func:`~basra.bots.endgame.margin_utility`), by how much the best
    first play beats the second best, the themes, the rating and the solution tree."""

    id: str
    position: Position
    value: int
    margin: int
    second: tuple[str, int]
    """The second-best first play and its value."""
    themes: tuple[str, ...]
    rating: int
    tree: Node

    @property
    def variant(self) -> str:
        """The variant's canonical name."""
        return self.position.variant

    @property
    def you(self) -> int:
        """The seat solving the puzzle."""
        return self.position.turn

    @property
    def best_play(self) -> str:
        """The one right first play."""
        return self.tree.branches[0].play

    def main_line(self) -> list[tuple[int, str, tuple[str, ...]]]:
        """The line, both seats' plays in order, taking the first accepted play at each of
        your decision points: (seat, play, the plays accepted there; empty for a reply)."""
        you, them = self.you, 1 - self.you
        out: list[tuple[int, str, tuple[str, ...]]] = []
        node: Node | None = self.tree
        while node is not None:
            branch = node.branches[0]
            out.append((you, branch.play, node.accepted))
            if branch.reply is not None:
                out.append((them, branch.reply, ()))
            node = branch.after
        return out

    @property
    def line_plays(self) -> int:
        """How many plays of yours the main line asks for."""
        return sum(1 for seat, _, _ in self.main_line() if seat == self.you)

    def to_json(self) -> dict[str, object]:
        """The puzzle as a browser gets it before solving, without the solution:
        ``{"id", "variant", "themes", "rating", "you", "line_plays", "position"}``
        (``line_plays``: how many plays of yours the line asks for; ``position``:
        :func:`~basra.puzzles.position.position_view` at the start)."""
        return {"id": self.id, "variant": self.variant, "themes": list(self.themes),
                "rating": self.rating, "you": self.you, "line_plays": self.line_plays,
                "position": position_view(self.position)}

    def solution_json(self) -> dict[str, object]:
        """The full solution, shown after solving: ``{"id", "value", "margin", "best",
        "second", "first_plays", "line"}``. ``value`` is your round margin under best
        play, ``second`` the second-best first play ``{"play", "value"}``, ``first_plays``
        every first play ``{"play", "value"}`` in play order, ``line`` the main line, each
        step ``{"seat", "play", "accepted", "value"}`` (``accepted``: the plays accepted at
        your decision points, empty for the opponent's replies; ``value``: your round
        margin after the step, under best play)."""
        steps = [{"seat": seat, "play": play, "accepted": list(accepted), "value": self.value}
                 for seat, play, accepted in self.main_line()]
        return {"id": self.id, "value": self.value, "margin": self.margin,
                "best": self.best_play,
                "second": {"play": self.second[0], "value": self.second[1]},
                "first_plays": [{"play": p, "value": v} for p, v in self.tree.values],
                "line": steps}

    def record(self) -> dict[str, object]:
        """The puzzle as a line of a puzzle file."""
        return {"id": self.id, **self.position.to_json(), "value": self.value,
                "margin": self.margin, "second": list(self.second),
                "themes": list(self.themes), "rating": self.rating,
                "tree": self.tree.to_json()}

    @classmethod
    def from_record(cls, variant: str, data: Mapping[str, Any]) -> Puzzle:
        """Read :meth:`record`'s shape back (``PuzzleError`` when it does not read)."""
        try:
            second = data["second"]
            return cls(str(data["id"]), Position.from_json(variant, data), int(data["value"]),
                       int(data["margin"]), (str(second[0]), int(second[1])),
                       tuple(str(t) for t in data["themes"]), int(data["rating"]),
                       Node.from_json(data["tree"]))
        except PuzzleError:
            raise
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            raise PuzzleError(f"puzzle {data.get('id', '?')!r} does not read: "
                              f"{type(exc).__name__} {exc}", "puzzle/bad_file") from None


__all__ = [
    "FORMAT",
    "PREFIX",
    "THEMES",
    "Branch",
    "Node",
    "Position",
    "Puzzle",
    "PuzzleError",
    "names",
]
