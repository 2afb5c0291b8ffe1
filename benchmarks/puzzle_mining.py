"""Puzzle mining speed (issue 29): how fast ``basra puzzles mine`` proves puzzles on one
core, and how long :func:`basra.puzzles.check` takes a call.

Mines ``--count`` puzzles of ``--variant`` from self-play with ``--seed`` in this process
(one core, ``jobs=1``), exactly as ``basra puzzles mine`` does, and splits the time between
the solver (every candidate position's first plays, the tree, the themes: everything in
:func:`basra.puzzles.solve.build`) and the rest (the bots playing the games to their last
deal). Stops early, reporting what it found, after ``--max-seconds``. Then times
:func:`~basra.puzzles.check.check` over the mined puzzles: a right first play and a wrong
one each, ``--check-rounds`` times over.

    .venv/bin/python benchmarks/puzzle_mining.py [--count 1000] [--variant egyptian]
        [--seed 1] [--max-seconds 300] [--json]

Goal: 1,000 egyptian puzzles in under 2 minutes, and check() well under 1 ms a call.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence

import basra.puzzles.mine as mining
from basra.puzzles import check
from basra.puzzles.model import Position, Puzzle
from basra.puzzles.solve import build


class _OutOfTime(Exception):
    """The run passed --max-seconds."""


def measure_check(puzzles: Sequence[Puzzle], rounds: int) -> tuple[float, int]:
    """Mean microseconds a check() call takes, and how many calls were timed."""
    calls: list[tuple[Puzzle, list[str]]] = []
    for puzzle in puzzles:
        calls.append((puzzle, [puzzle.best_play]))
        calls.append((puzzle, [puzzle.second[0]]))
    start = time.perf_counter()
    for _ in range(rounds):
        for puzzle, plays in calls:
            check(puzzle, plays)
    elapsed = time.perf_counter() - start
    total = len(calls) * rounds
    return elapsed / max(total, 1) * 1e6, total


def run(variant: str, count: int, seed: int, max_seconds: float,
        check_rounds: int) -> dict[str, object]:
    """Mine and time; the figures as one JSON-ready object."""
    solving = [0.0]

    def timed_build(position: Position, margin: int = mining.MARGIN) -> Puzzle | None:
        start = time.perf_counter()
        try:
            return build(position, margin)
        finally:
            solving[0] += time.perf_counter() - start

    start = time.perf_counter()

    def progress(found: int, games: int) -> None:
        if time.perf_counter() - start > max_seconds:
            raise _OutOfTime

    mining.build = timed_build  # type: ignore[assignment]
    finished = True
    try:
        report = mining.mine(variant, count, seed, progress=progress)
        puzzles = report.puzzles
        games, candidates = report.games, report.candidates
    except _OutOfTime:
        finished = False
        puzzles, games, candidates = [], 0, 0
    finally:
        mining.build = build
    seconds = time.perf_counter() - start
    check_us, check_calls = measure_check(puzzles, check_rounds)
    return {"variant": variant, "count": count, "seed": seed, "finished": finished,
            "puzzles": len(puzzles), "games": games, "positions_solved": candidates,
            "seconds": round(seconds, 2),
            "puzzles_per_second": round(len(puzzles) / seconds, 1) if seconds else 0.0,
            "solver_seconds": round(solving[0], 2),
            "bot_seconds": round(seconds - solving[0], 2),
            "check_us": round(check_us, 1), "check_calls": check_calls}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="egyptian")
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-seconds", type=float, default=300.0)
    parser.add_argument("--check-rounds", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = run(args.variant, args.count, args.seed, args.max_seconds, args.check_rounds)
    if args.json:
        print(json.dumps(result))
        return
    if not result["finished"]:
        print(f"stopped after {args.max_seconds:g} s before {args.count} puzzles")
    print(f"{result['puzzles']} {args.variant} puzzles from {result['games']} games "
          f"({result['positions_solved']} positions solved) in {result['seconds']} s: "
          f"{result['puzzles_per_second']} puzzles/s")
    print(f"solver {result['solver_seconds']} s, bots (playing to the last deal) "
          f"{result['bot_seconds']} s")
    print(f"check(): {result['check_us']} µs a call ({result['check_calls']} calls)")


if __name__ == "__main__":
    main()
