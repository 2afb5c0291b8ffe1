"""The ``basra`` command: ``replay``, ``shuffle``, ``verify`` (RECORDS.md), ``analyse``,
``bench``, and
``serve``, ``bot-worker``, ``play``, ``engine``, ``arena``, ``puzzles``, ``records``,
``admin`` (which
hand their arguments to :mod:`basra.server.main`, :mod:`basra.workers.worker`,
:mod:`basra.terminal.command`, :mod:`basra.bot_protocol`, :mod:`basra.arena.command`,
:mod:`basra.puzzles.command`, :mod:`basra.cli.records` and :mod:`basra.cli.admin`).

A thin layer: parse the arguments, call the module that does the work, print the result.
Every failure is one line on standard error, never a traceback: exit status 1 for a
bad record or file, 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Callable, Sequence

from rich.console import Console
from rich.table import Table

from basra.cli.bench import run_bench
from basra.cliargs import OneLineParser, parse_or_status, seconds, whole_number
from basra.errors import BasraError, RecordError
from basra.game.cards import NAMES
from basra.game.seating import Seating
from basra.game.shuffle import check_client_seed, check_nonce, commitment, seed_bytes, shuffled_deck
from basra.match.analysis import ANALYSIS_ITERATIONS, Analysis, analyse
from basra.match.records import MatchRecord, parse_record
from basra.match.replay import ReplayResult, replay, replay_json, verify

Handler = Callable[[argparse.Namespace], int]
MISTAKE = 1.0
"""Points a play must cost to be listed by ``basra analyse`` without ``--all``."""
BENCH_SECONDS = 5.0
"""How long ``basra bench`` measures when ``--seconds`` is not given."""


def _checked(check: Callable[[str], object]) -> Callable[[str], str]:
    """An argparse type that runs ``check`` and turns its error into a usage error."""

    def convert(text: str) -> str:
        try:
            check(text)
        except BasraError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
        return text

    return convert


def _nonce(text: str) -> int:
    """The ``--nonce`` argument: a whole number from 1 up."""
    try:
        return check_nonce(int(text))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"nonce must be a whole number from 1 up, got {text!r}") from None


def _read(source: str) -> MatchRecord:
    """Read and parse a record from a path, or from standard input for ``-``."""
    try:
        if source == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(source, "rb") as f:
                data = f.read()
    except OSError as exc:
        raise RecordError(f"record: cannot read {source!r}: {exc.strerror or exc}") from None
    return parse_record(data)


def _cmd_replay(args: argparse.Namespace) -> int:
    result = replay(_read(args.record))
    if args.json:
        print(json.dumps(replay_json(result)))
    else:
        _print_table(result)
    return 0


def _print_table(result: ReplayResult) -> None:
    """The replay as a table: a section per round, a row per side, then the winner."""
    record, match = result.record, result.match
    sides = Seating(len(record.players), record.teams).side_names(record.players)
    multi_set = match.rules.sets_to_win > 1
    short = " (short match)" if match.rules.length == "short" else ""
    table = Table(title=f"{match.rules.name}{short}: {', '.join(record.players)}")
    for column in ("round", "side", "cards", "basras", "points", "carry", "totals"):
        table.add_column(column, justify="left" if column == "side" else "right")
    if multi_set:
        table.add_column("set won")
    for number, res in enumerate(result.results, 1):
        for side, name in enumerate(sides):
            first = side == 0
            row = [str(number) if first else "", name, str(res.cards[side]),
                   str(res.basras[side]), str(res.points[side]),
                   str(res.carry) if first else "", str(res.totals[side])]
            if multi_set:
                row.append("yes" if res.set_winner == side else "")
            table.add_row(*row)
        table.add_section()
    console = Console(file=sys.stdout, highlight=False)
    console.print(table)
    if match.in_round and match.round is not None:
        console.print(f"round {match.rounds_started} in progress: "
                      f"{match.round.played} plays so far")
    if multi_set:
        console.print("sets: " + ", ".join(f"{n} {s}" for n, s in zip(sides, match.sets,
                                                                          strict=True)))
    winner = "undecided" if match.winner is None else sides[match.winner]
    console.print(f"winner: {winner}")


def _cmd_verify(args: argparse.Namespace) -> int:
    outcome = verify(_read(args.record))
    for line in outcome.lines:
        print(line)
    if outcome.failure is not None:
        print(outcome.failure, file=sys.stderr)
        return 1
    return 0


def _cmd_shuffle(args: argparse.Namespace) -> int:
    seed = args.server_seed.lower()
    deck = [NAMES[c] for c in shuffled_deck(seed, args.client_seed, args.nonce)]
    if args.json:
        print(json.dumps({"commitment": commitment(seed), "deck": deck}))
    else:
        print(commitment(seed))
        print(" ".join(deck))
    return 0


def _cmd_analyse(args: argparse.Namespace) -> int:
    record = _read(args.record)
    progress = None
    if not args.quiet and sys.stderr.isatty():
        def progress(done: int, total: int) -> None:
            print(f"\ranalysing: play {done} of {total}", end="", file=sys.stderr,
                  flush=True)
    result = analyse(record, iterations=args.iterations, seed=args.seed, progress=progress)
    if progress is not None:
        print(file=sys.stderr)
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        _print_analysis(result, args.all)
    return 0


def _print_analysis(result: Analysis, every: bool) -> None:
    """The plays that cost something (every play with ``every``), then each seat's total."""
    table = Table(title=f"{result.variant}: {', '.join(result.players)} "
                        f"(expert, {result.iterations} iterations a play)")
    for column in ("round", "play", "seat", "played", "best", "value", "best value", "cost"):
        table.add_column(column, justify="left" if column in ("played", "best") else "right")
    for p in result.plays:
        if every or p.cost >= MISTAKE:
            table.add_row(str(p.round), str(p.number), result.players[p.seat], str(p.play),
                          str(p.best), f"{p.value:+.1f}", f"{p.best_value:+.1f}",
                          f"{p.cost:.1f}")
    console = Console(file=sys.stdout, highlight=False)
    console.print(table)
    for name, cost in zip(result.players, result.cost_by_seat(), strict=True):
        console.print(f"{name}: {cost:.1f} points given away over the match")


def _cmd_bench(args: argparse.Namespace) -> int:
    return run_bench(args)


FORWARDED = {
    "serve": ("basra.server.main", "start the game server (SQLite by default)"),
    "bot-worker": ("basra.workers.worker", "answer searching bots' decisions from Redis "
                                           "(cluster mode)"),
    "play": ("basra.terminal.command", "play a match against bots in the terminal"),
    "engine": ("basra.engine_protocol.command",
               "speak the basra-engine/1 protocol on stdin/stdout"),
    "arena": ("basra.arena.command", "measure two players against each other on duplicate deals"),
    "puzzles": ("basra.puzzles.command", "mine, prove and show puzzles (last deals with one "
                                         "best play)"),
    "records": ("basra.cli.records", "write the server's finished matches as anonymised "
                                     "record files"),
    "admin": ("basra.cli.admin", "the operator's commands: grant NAME moderator, ..."),
}
"""Subcommands whose arguments go, untouched, to the ``main`` of their own module."""


def _forward(command: str, rest: Sequence[str]) -> int:
    module = importlib.import_module(FORWARDED[command][0])
    status: int = module.main(list(rest))
    return status


def build_parser() -> argparse.ArgumentParser:
    """The ``basra`` argument parser."""
    parser = OneLineParser(prog="basra", description="Basra, the fishing card game.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    cmd = commands.add_parser("replay", help="replay a match record, checking every play")
    cmd.add_argument("--json", action="store_true", help="print the scores as one JSON object")
    cmd.add_argument("record", metavar="RECORD", help="a basra-record/1 file, or - for stdin")
    cmd.set_defaults(handler=_cmd_replay)

    cmd = commands.add_parser("shuffle", help="print a fair shuffle's commitment and deck")
    cmd.add_argument("--server-seed", required=True, metavar="HEX", type=_checked(seed_bytes),
                     help="64 hex digits")
    cmd.add_argument("--client-seed", required=True, metavar="TEXT",
                     type=_checked(check_client_seed), help="0 to 256 bytes of UTF-8")
    cmd.add_argument("--nonce", required=True, metavar="N", type=_nonce,
                     help="the round's number, 1 for the first")
    cmd.add_argument("--json", action="store_true", help="print one JSON object")
    cmd.set_defaults(handler=_cmd_shuffle)

    cmd = commands.add_parser("verify", help="check the fair shuffle of every round: "
                              "commitment, deck, plays, and each bot's client seed part")
    cmd.add_argument("record", metavar="RECORD", help="a basra-record/1 file, or - for stdin")
    cmd.set_defaults(handler=_cmd_verify)

    cmd = commands.add_parser("analyse", aliases=["analyze"],
                              help="the expert's value of every play of a match record and "
                                   "of its best play: the points each mistake cost")
    cmd.add_argument("--iterations", type=whole_number(1), default=ANALYSIS_ITERATIONS,
                     metavar="N", help=f"the expert's budget a play (default "
                                       f"{ANALYSIS_ITERATIONS}); more is slower and surer")
    cmd.add_argument("--seed", type=whole_number(0, "seed"), default=0, metavar="S",
                     help="seed of the expert's sampling (default 0)")
    cmd.add_argument("--all", action="store_true",
                     help=f"list every play, not only those that cost {MISTAKE:g} point or "
                          "more")
    cmd.add_argument("--quiet", action="store_true", help="no progress on standard error")
    cmd.add_argument("--json", action="store_true", help="print one JSON object")
    cmd.add_argument("record", metavar="RECORD", help="a basra-record/1 file, or - for stdin")
    cmd.set_defaults(handler=_cmd_analyse)

    cmd = commands.add_parser("bench", help="measure the engine's speed")
    cmd.add_argument("target", choices=["engine"], help="what to measure")
    cmd.add_argument("--seconds", type=seconds(), default=BENCH_SECONDS, metavar="S",
                     help=f"how long to measure (default {BENCH_SECONDS:g})")
    cmd.add_argument("--json", action="store_true", help="print one JSON object")
    cmd.set_defaults(handler=_cmd_bench)

    for name, (_, summary) in FORWARDED.items():
        commands.add_parser(name, help=summary, add_help=False)  # listed; main() forwards
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``basra`` command; returns the exit status (2 for bad arguments)."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list and args_list[0] in FORWARDED:
        return _forward(args_list[0], args_list[1:])
    args = parse_or_status(build_parser(), args_list)
    if isinstance(args, int):  # bad arguments, or --help
        return args
    handler: Handler = args.handler
    try:
        return handler(args)
    except BasraError as exc:
        print(" ".join(str(exc).split()), file=sys.stderr)
        return 1


__all__ = ["build_parser", "main"]
