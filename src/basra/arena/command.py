"""``basra arena``: two players, many duplicate deals, figures with 95% intervals.

This module is the command: its arguments, the configuration they make, and the exit
status. The games are :mod:`basra.arena.games` (players, duplicate deals, every round
seeded from ``--seed`` and played through the match driver, worker processes); the figures
and the table are :mod:`basra.arena.stats` (paired t intervals, Wilson intervals for match
wins, think times).
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from collections.abc import Sequence
from dataclasses import replace

from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.progress import Progress as RichProgress

from basra.arena.games import (
    DEFAULT_ROUNDS,
    ArenaConfig,
    GameResult,
    Mode,
    PlayerSpec,
    Progress,
    parse_player,
    play_deals,
    play_game,
    read_openings,
    run_games,
)
from basra.arena.stats import (
    ArenaReport,
    deal_difference,
    mean_interval,
    print_table,
    report,
    wilson,
)
from basra.cliargs import OneLineParser, parse_or_status, seconds, whole_number
from basra.engine_protocol.outside_bots import PLAY_TIMEOUT
from basra.errors import BasraError
from basra.game.rulebook import short_matches
from basra.game.rules import MATCH_LENGTHS, find_variant
from basra.game.seating import Seating


def run(cfg: ArenaConfig, jobs: int = 1, progress: Progress | None = None) -> ArenaReport:
    """Play the arena and report it; interrupted (Ctrl-C), the report is over the deals
    finished by then and says so (``partial``: the deals done and asked for)."""
    played = run_games(cfg, jobs, progress)
    if played.interrupted:
        if not played.games:
            raise KeyboardInterrupt
        rep = report(replace(cfg, deals=played.deals), played.games)
        rep["partial"] = {"deals_done": played.deals, "deals_asked": cfg.deals}
        return rep
    return report(cfg, played.games)


class Bar:
    """The progress bar on a terminal (standard error): deals done, the running A - B
    difference a round with its 95% interval, and the time left."""

    def __init__(self, cfg: ArenaConfig) -> None:
        self.diffs: list[float] = []
        self.bar = RichProgress(
            TextColumn("[bold]basra arena[/]"), BarColumn(), MofNCompleteColumn(),
            TextColumn("deals  {task.fields[diff]}"), TimeElapsedColumn(),
            TextColumn("left"), TimeRemainingColumn(),
            console=Console(stderr=True), transient=True)
        self.task = self.bar.add_task("deals", total=cfg.deals, diff="A - B: …")

    def __call__(self, games: list[GameResult]) -> None:
        self.diffs.append(deal_difference(games))
        shown = "A - B: …"
        if len(self.diffs) >= 2:
            x = mean_interval(self.diffs)
            shown = f"A - B {x['mean']:+.2f} [{x['low']:+.2f}, {x['high']:+.2f}] a round"
        self.bar.update(self.task, advance=1, diff=escape(shown))

    def __enter__(self) -> Bar:
        self.bar.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.bar.stop()


def _player(text: str) -> PlayerSpec:
    try:
        return parse_player(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def build_parser() -> OneLineParser:
    """The ``basra arena`` argument parser."""
    parser = OneLineParser(
        prog="basra arena",
        description="Play two players against each other on duplicate deals and report "
                    "points, basras, match wins and think time with 95% intervals.",
        epilog="PLAYER: random, easy, medium, hard, expert; hard/ITERATIONS, hard@SECONDS "
               "or hard/ITERATIONS@SECONDS (expert likewise) for a budget (no time cap "
               "unless @ is given); "
               "oracle: perfect play that sees every hand and the stock (a yardstick, "
               "the arena's alone); "
               "cmd:COMMAND for an external program speaking basra-engine/1.")
    parser.add_argument("--a", required=True, type=_player, metavar="PLAYER",
                        help="player A")
    parser.add_argument("--b", required=True, type=_player, metavar="PLAYER",
                        help="player B")
    parser.add_argument("--variant", default="egyptian",
                        help="egyptian (default), arabic101, lebanese or serbian")
    parser.add_argument("--length", default="full", choices=list(MATCH_LENGTHS), metavar="L",
                        help="with --matches: full (default: the variant's own target) or "
                             f"short: shorter matches ({short_matches()})")
    parser.add_argument("--players", type=whole_number(1), metavar="N",
                        help="number of players (default: 2, or 4 with --teams)")
    parser.add_argument("--teams", action="store_true",
                        help="four players in two teams (implied where 4 only play in teams)")
    count = parser.add_mutually_exclusive_group()
    count.add_argument("--rounds", type=whole_number(1), metavar="N",
                       help=f"play N duplicate deals of one round each (default "
                            f"{DEFAULT_ROUNDS})")
    count.add_argument("--matches", type=whole_number(1), metavar="N",
                       help="play N duplicate deals of a whole match each")
    parser.add_argument("--openings", metavar="FILE",
                        help="play the deals of FILE (a line a deal: its decks, each the 52 "
                             "card names top first, decks separated by |); the deals' count "
                             "is the file's unless --rounds or --matches asks for fewer")
    parser.add_argument("--seed", type=whole_number(0, "seed"), metavar="S",
                        help="seed of the decks and bots (default: random, reported)")
    parser.add_argument("--jobs", type=whole_number(1), default=1, metavar="J",
                        help="worker processes (results do not depend on it)")
    parser.add_argument("--timeout", type=seconds("timeout"), default=PLAY_TIMEOUT, metavar="S",
                        help=f"seconds an external program may take a play (default "
                             f"{PLAY_TIMEOUT:g})")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument("--progress", dest="progress", action="store_true",
                       default=sys.stderr.isatty(),
                       help="show a progress bar on standard error (default: on a terminal)")
    shown.add_argument("--no-progress", dest="progress", action="store_false",
                       help="no progress bar")
    return parser


def config_from_args(args: argparse.Namespace) -> ArenaConfig:
    """The arena's configuration; raises :class:`~basra.errors.BasraError` for a bad
    combination (a usage error: exit status 2)."""
    rules = find_variant(args.variant, args.length)
    players = args.players or (4 if args.teams else min(rules.player_counts))
    seating = Seating.choose(rules, players, bool(args.teams))
    mode: Mode = "matches" if args.matches else "rounds"
    if rules.length != "full" and mode != "matches":
        raise BasraError(f"--length {rules.length} is the length of a match: play whole "
                         "matches with --matches N")
    openings = read_openings(args.openings) if args.openings else ()
    deals = args.matches or args.rounds or (len(openings) if openings else DEFAULT_ROUNDS)
    if openings and deals > len(openings):
        raise BasraError(f"--openings: {args.openings} holds {len(openings)} deals, not "
                         f"{deals}")
    seed = args.seed if args.seed is not None else secrets.randbelow(2**32)
    return ArenaConfig(a=args.a, b=args.b, variant=rules.name, players=players,
                       teams=seating.teams,
                       mode=mode, deals=deals, seed=seed, timeout=args.timeout,
                       openings=openings[:deals], length=rules.length)


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``basra arena``. Exit status: 0, 1 when a player fails (one line on standard
    error), 2 for bad arguments."""
    parser = build_parser()
    args = parse_or_status(parser, argv)
    if isinstance(args, int):  # bad arguments, or --help
        return args
    try:
        cfg = config_from_args(args)
    except BasraError as exc:
        return parser.complain(str(exc))
    try:
        if args.progress:
            with Bar(cfg) as bar:
                rep = run(cfg, args.jobs, bar)
        else:
            rep = run(cfg, args.jobs)
    except BasraError as exc:
        print(" ".join(str(exc).split()), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("basra arena: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # never a traceback
        print(f"basra arena: internal error: {type(exc).__name__}: "
              f"{' '.join(str(exc).split())}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(rep))
    else:
        print_table(replace(cfg, deals=rep["deals"]), rep)
    partial = rep.get("partial")
    if partial is not None:
        print(f"basra arena: interrupted after {partial['deals_done']} of "
              f"{partial['deals_asked']} deals: the figures are over those", file=sys.stderr)
        return 130
    return 0


__all__ = [
    "ArenaConfig",
    "ArenaReport",
    "GameResult",
    "PlayerSpec",
    "build_parser",
    "main",
    "mean_interval",
    "parse_player",
    "play_deals",
    "play_game",
    "report",
    "run",
    "run_games",
    "wilson",
]


if __name__ == "__main__":
    sys.exit(main())
