"""Puzzles (issue 29): last-deal positions of two players where one first play is best by
a clear margin, proved by the exact endgame solver (docs/PUZZLES.md).

The server's calls: :func:`load`, :func:`by_id` and :func:`all_puzzles` for the shipped
puzzles; :meth:`Puzzle.to_json` to show one; :func:`check` to judge the player's plays
(no search: it walks the stored solution tree); :func:`position_json` to draw any step;
:meth:`Puzzle.solution_json` to show the solution after.
"""

from __future__ import annotations

from basra.puzzles.check import Step, check, position_json, puzzle_json, solution_json
from basra.puzzles.model import THEMES, Node, Position, Puzzle, PuzzleError
from basra.puzzles.shipped import all_puzzles, by_id, load

__all__ = [
    "THEMES",
    "Node",
    "Position",
    "Puzzle",
    "PuzzleError",
    "Step",
    "all_puzzles",
    "by_id",
    "check",
    "load",
    "position_json",
    "puzzle_json",
    "solution_json",
]
