"""``basra puzzles``: mine puzzles from self-play and records, re-prove a puzzle file, show
a puzzle (docs/PUZZLES.md).

- ``basra puzzles mine --variant egyptian --count 1000 --seed 1 [--records DIR] --out FILE``
- ``basra puzzles prove FILE...``: every puzzle solved afresh; one line on standard error
  per bad puzzle, exit status 1 when there is one.
- ``basra puzzles show ID [--file FILE] [--json]``: a shipped puzzle (or one of FILE).

Exit status: 0, 1 for a bad file or puzzle (one line on standard error), 2 for bad
arguments.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence

from basra.cliargs import OneLineParser, parse_or_status, whole_number
from basra.errors import BasraError
from basra.puzzles.check import solution_json
from basra.puzzles.mine import mine
from basra.puzzles.model import THEMES, Puzzle, PuzzleError, names
from basra.puzzles.shipped import by_id, read_file, write_file
from basra.puzzles.solve import MARGIN, prove


def build_parser() -> OneLineParser:
    """The ``basra puzzles`` argument parser."""
    parser = OneLineParser(prog="basra puzzles",
                           description="Puzzles: last-deal positions where one play is best "
                                       "by a clear margin, proved by the exact solver.")
    commands = parser.add_subparsers(dest="action", required=True, metavar="ACTION")

    cmd = commands.add_parser("mine", help="mine puzzles from self-play (and records)")
    cmd.add_argument("--variant", default="egyptian",
                     help="egyptian (default), arabic101, lebanese or serbian")
    cmd.add_argument("--count", type=whole_number(1, "count"), default=1000, metavar="N",
                     help="how many distinct puzzles (default 1000)")
    cmd.add_argument("--seed", type=whole_number(0, "seed"), default=1, metavar="S",
                     help="seed of the self-play games (default 1)")
    cmd.add_argument("--records", action="append", default=[], metavar="DIR",
                     help="also mine finished match records (a file or a folder of *.json); "
                          "may be repeated; read before self-play")
    cmd.add_argument("--margin", type=whole_number(1, "margin"), default=MARGIN, metavar="P",
                     help=f"points the best first play must win by (default {MARGIN})")
    cmd.add_argument("--jobs", type=whole_number(1, "jobs"), default=1, metavar="J",
                     help="worker processes (the puzzles do not depend on it)")
    cmd.add_argument("--out", required=True, metavar="FILE",
                     help="the puzzle file to write (.json, or .json.gz compressed)")
    cmd.add_argument("--quiet", action="store_true", help="no progress on standard error")

    cmd = commands.add_parser("prove", help="re-prove every puzzle of puzzle files")
    cmd.add_argument("files", nargs="+", metavar="FILE", help="puzzle files")
    cmd.add_argument("--sample", type=whole_number(1, "sample"), metavar="N",
                     help="prove only N puzzles of each file, drawn with --seed")
    cmd.add_argument("--seed", type=whole_number(0, "seed"), default=0, metavar="S",
                     help="seed of --sample (default 0)")

    cmd = commands.add_parser("show", help="show a puzzle and its solution")
    cmd.add_argument("id", metavar="ID", help="the puzzle's id, e.g. eg-k3j9m2qa")
    cmd.add_argument("--file", metavar="FILE", help="look in FILE, not the shipped puzzles")
    cmd.add_argument("--json", action="store_true",
                     help="print {puzzle, solution} as one JSON object")
    return parser


def _mine(args: argparse.Namespace) -> int:
    progress = None
    if not args.quiet:
        def progress(found: int, games: int) -> None:
            """The running count on standard error."""
            print(f"\rmining {args.variant}: {found} puzzles from {games} games", end="",
                  file=sys.stderr, flush=True)
    start = time.perf_counter()
    report = mine(args.variant, args.count, args.seed, args.records, margin=args.margin,
                  jobs=args.jobs, progress=progress)
    seconds = time.perf_counter() - start
    if progress is not None:
        print(file=sys.stderr)
    for line in report.skipped_records:
        print(f"skipped {line}", file=sys.stderr)
    puzzles = report.puzzles
    variant = puzzles[0].variant if puzzles else args.variant
    write_file(args.out, variant, puzzles, args.margin)
    themes = Counter(t for p in puzzles for t in p.themes)
    print(f"{len(puzzles)} puzzles ({report.from_records} from {report.records} records, "
          f"{report.games} self-play games, {report.candidates} positions solved, "
          f"{report.duplicates} duplicates) in {seconds:.1f} s: "
          f"{len(puzzles) / max(seconds, 1e-9):.1f} puzzles/s; written to {args.out}")
    print("themes: " + ", ".join(f"{t} {themes[t]}" for t in THEMES))
    if len(puzzles) < args.count:
        print(f"only {len(puzzles)} of {args.count} puzzles found", file=sys.stderr)
        return 1
    return 0


def _prove(args: argparse.Namespace) -> int:
    bad = 0
    for path in args.files:
        _, margin, puzzles = read_file(path)
        chosen: Sequence[Puzzle] = puzzles
        if args.sample is not None and args.sample < len(puzzles):
            chosen = random.Random(args.seed).sample(list(puzzles), args.sample)
        seen: set[str] = set()
        bad_here = 0
        for puzzle in chosen:
            problem = prove(puzzle, margin or MARGIN)
            if problem is None and puzzle.id in seen:
                problem = f"{puzzle.id}: appears twice"
            seen.add(puzzle.id)
            if problem is not None:
                bad_here += 1
                print(f"{path}: {problem}", file=sys.stderr)
        bad += bad_here
        print(f"{path}: {len(chosen)} puzzles proved, {bad_here} bad")
    return 1 if bad else 0


def _show(args: argparse.Namespace) -> int:
    puzzle: Puzzle | None
    if args.file:
        puzzle = next((p for p in read_file(args.file)[2] if p.id == args.id), None)
    else:
        puzzle = by_id(args.id)
    if puzzle is None:
        where = args.file or "the shipped puzzles"
        raise PuzzleError(f"no puzzle {args.id!r} in {where}", "puzzle/unknown")
    if args.json:
        print(json.dumps({"puzzle": puzzle.to_json(), "solution": solution_json(puzzle)}))
        return 0
    pos = puzzle.position
    you, them = puzzle.you, 1 - puzzle.you
    points_of = pos.rules.card_points
    print(f"{puzzle.id}  {puzzle.variant}  rating {puzzle.rating}  themes: "
          f"{', '.join(puzzle.themes) or '-'}")
    print(f"you (seat {you}) to play; {puzzle.line_plays} plays of yours to find")
    print(f"your hand:     {names(pos.hands[you])}")
    print(f"opponent hand: {names(pos.hands[them])}")
    print(f"floor:         {names(pos.floor)}")
    for label, seat in (("you", you), ("opponent", them)):
        pile = pos.piles[seat]
        points = sum(points_of[c] for c in range(52) if pile >> c & 1) + pos.bonus[seat]
        print(f"{label:9}      {pile.bit_count()} cards taken, {points} points, "
              f"{pos.basras[seat]} basras")
    if puzzle.position.carry:
        print(f"carry: {puzzle.position.carry}")
    print(f"solution (round margin {puzzle.value:+d}, best by {puzzle.margin}; second best "
          f"{puzzle.second[0]} {puzzle.second[1]:+d}):")
    for seat, play, accepted in puzzle.main_line():
        if seat == you:
            also = [a for a in accepted if a != play]
            extra = f"  (also: {' '.join(also)})" if also else ""
            print(f"  you      {play}{extra}")
        else:
            print(f"  opponent {play}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``basra puzzles``; returns the exit status."""
    parser = build_parser()
    args = parse_or_status(parser, argv)
    if isinstance(args, int):
        return args
    handlers = {"mine": _mine, "prove": _prove, "show": _show}
    try:
        return handlers[args.action](args)
    except BasraError as exc:
        print(" ".join(str(exc).split()), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("basra puzzles: interrupted", file=sys.stderr)
        return 130


__all__ = ["build_parser", "main"]


if __name__ == "__main__":
    sys.exit(main())
