"""Solving a puzzle, a play at a time: :func:`check` walks the stored solution tree with
the player's plays (no search, a few microseconds), and :func:`position_json` gives what a
browser draws at any step.

A *line* here is every play made since the puzzle's position, both seats', as
``str(Play)`` texts (``"7D:3C+4H"``, ``"QS"``); the player's plays are theirs alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from basra.puzzles.model import Node, Puzzle
from basra.puzzles.position import (
    Position,
    PuzzleError,
    canonical,
    position_view,
    replay_line,
)

Verdict = Literal["right", "solved", "wrong"]


@dataclass(frozen=True, slots=True)
class Step:
    """What :func:`check` says of the player's last play.

    ``verdict``: ``right`` (accepted, more to find), ``solved`` (accepted, the line is
    finished) or ``wrong`` (legal but not accepted). ``reply`` is the opponent's answer to
    an accepted play (``None`` when the play ended the round, and when wrong).
    ``accepted`` lists every play accepted at that point (the right ones, ties included).
    ``cost`` is the points a wrong play gives away (0 otherwise). ``line`` is every play
    since the puzzle's position after this step, both seats' (a wrong play is not in it),
    and ``position`` the :func:`position_json` after it: after the reply, or, when wrong,
    the position before the wrong play, to try again."""

    verdict: Verdict
    reply: str | None
    accepted: tuple[str, ...]
    cost: int
    line: tuple[str, ...]
    position: dict[str, object]

    def to_json(self) -> dict[str, object]:
        """``{verdict, reply, accepted, cost, line, position}``."""
        return {"verdict": self.verdict, "reply": self.reply, "accepted": list(self.accepted),
                "cost": self.cost, "line": list(self.line), "position": self.position}


def check(puzzle: Puzzle, plays: Sequence[str]) -> Step:
    """Walk ``puzzle``'s solution tree with the player's plays so far and judge the last.

    Every play but the last must have been accepted. Raises :class:`PuzzleError` (a
    ``ValueError``) for no plays, a text that is no play, a play that is not legal there,
    a play after a wrong one, or a play after the line is solved."""
    if not plays:
        raise PuzzleError("no play given", "puzzle/no_play")
    node: Node | None = puzzle.tree
    line: list[str] = []
    reply: str | None = None
    accepted: tuple[str, ...] = ()
    last = len(plays) - 1
    for i, text in enumerate(plays):
        if node is None:
            raise PuzzleError(f"play {i + 1}: the line is already solved", "puzzle/solved")
        play = canonical(text)
        value = node.value_of(play)
        if value is None:
            legal = " ".join(p for p, _ in node.values)
            raise PuzzleError(f"play {i + 1}: {play} is not a legal play here (legal: "
                              f"{legal})", "puzzle/illegal_play")
        branch = node.branch_of(play)
        if branch is None:
            if i != last:
                raise PuzzleError(f"play {i + 1}: {play} was not accepted, so no play "
                                  "follows it", "puzzle/after_wrong")
            return Step("wrong", None, node.accepted, node.best - value, tuple(line),
                        position_view(puzzle.position, line))
        accepted = node.accepted
        reply = branch.reply
        line.append(play)
        if reply is not None:
            line.append(reply)
        node = branch.after
    return Step("solved" if node is None else "right", reply, accepted, 0, tuple(line),
                position_view(puzzle.position, line))


def position_json(puzzle: Puzzle | Position, line: Sequence[str] = ()) -> dict[str, object]:
    """What a browser draws of a puzzle (or a bare position) after ``line``, both seats'
    plays since its position: see :func:`~basra.puzzles.position.position_view` for the
    shape. :class:`PuzzleError` when a play of ``line`` is not legal."""
    position = puzzle.position if isinstance(puzzle, Puzzle) else puzzle
    return position_view(position, line)


def puzzle_json(puzzle: Puzzle) -> dict[str, object]:
    """:meth:`Puzzle.to_json`: the puzzle without its solution."""
    return puzzle.to_json()


def solution_json(puzzle: Puzzle) -> dict[str, object]:
    """:meth:`Puzzle.solution_json`: the full solution, shown after solving."""
    return puzzle.solution_json()


__all__ = ["Step", "Verdict", "canonical", "check", "position_json", "puzzle_json",
           "replay_line", "solution_json"]
