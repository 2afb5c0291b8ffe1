"""``basra play``: a whole match against bots in the terminal.

The person sits in seat 0; every other seat is a bot of the chosen level (with ``--teams``
and four players, seat 2 is the person's partner). Each round's deck is the fair shuffle of
FAIRNESS.md: a fresh server seed whose commitment is shown before the round, mixed with a
client seed of one part per seat joined by ``|`` in seat order, and revealed after the
round. The parts follow FAIRNESS.md's "Seat parts": the person's is made afresh for each
round after its commitment is shown (their own text, if any, then fresh random bytes:
:func:`~basra.game.shuffle.fresh_part`) and never reused; each bot's is
:func:`~basra.game.shuffle.seat_part` of the round's server seed, fixed by the commitment. The
match is written as a basra-record/1 file (RECORDS.md), which passes ``basra verify``,
when it ends, when the person quits, and when the input ends.

This module is the command: its arguments, checked before the match starts. The match is
:mod:`basra.terminal.session` (the driver, the prompts, the seeds, saving the record), with
:mod:`basra.terminal.answers` (the person's answers checked) and :mod:`basra.terminal.seeds`, shown
by :mod:`basra.terminal.screen` (rich rendering of cards, the table, plays and scores) with
:mod:`basra.terminal.help_words`'s rules help. Everything the person sees goes through a
:class:`rich.console.Console`; every answer comes from ``input_fn``.
"""

from __future__ import annotations

from rich.console import Console

from basra.bots import LEVELS, level_argument
from basra.cliargs import OneLineParser, parse_or_status
from basra.errors import BasraError
from basra.game.rulebook import short_matches
from basra.game.rules import MATCH_LENGTHS, find_variant
from basra.game.seating import Seating
from basra.terminal.seeds import own_text_problem
from basra.terminal.session import InputFn, Session


def build_parser() -> OneLineParser:
    """The ``basra play`` argument parser."""
    parser = OneLineParser(
        prog="basra play",
        description="Play a match of Basra against bots in the terminal. You sit in seat 0.",
    )
    parser.add_argument("--variant", default="egyptian", metavar="V",
                        help="egyptian (default), arabic101, lebanese or serbian")
    parser.add_argument("--length", default="full", choices=list(MATCH_LENGTHS),
                        metavar="L",
                        help="full (default: the variant's own target) or short: a shorter "
                        f"match ({short_matches()})")
    parser.add_argument("--bot", default="medium", type=level_argument, metavar="LEVEL",
                        help=f"the bots' level: {', '.join(LEVELS)} (default medium)")
    parser.add_argument("--players", type=int, default=2, metavar="N",
                        help="players at the table, you included (default 2)")
    parser.add_argument("--teams", action="store_true",
                        help="four players in two teams: seat 2 is your partner")
    parser.add_argument("--seed", metavar="S",
                        help="make bots and seeds reproducible (for testing: the server seeds "
                        "and your random parts are then derived from S, so the game is not "
                        "provably fair)")
    parser.add_argument("--client-seed", metavar="TEXT",
                        help="your own text in your part of each round's client seed (fresh "
                        "random bytes are added every round; otherwise you are asked, Enter "
                        "for none)")
    parser.add_argument("--name", metavar="NAME",
                        help="your name in the match record (not starting with 'bot:')")
    parser.add_argument("--save", default=".", metavar="DIR",
                        help="where to save the match record (default: the current directory)")
    return parser


def main(argv: list[str] | None = None, *, input_fn: InputFn = input,
         console: Console | None = None) -> int:
    """Run ``basra play``; returns the exit status (2 for bad arguments)."""
    parser = build_parser()
    args = parse_or_status(parser, argv)
    if isinstance(args, int):  # bad arguments, or --help
        return args
    try:
        rules = find_variant(args.variant, args.length)
        seating = Seating.choose(rules, args.players, args.teams)
        if args.client_seed is not None:
            problem = own_text_problem(args.client_seed)
            if problem is not None:
                raise BasraError(f"--client-seed: {problem[0].lower()}{problem[1:-1]}")
        if args.name is not None and args.name.lower().startswith("bot:"):
            raise BasraError("--name may not start with 'bot:' (it marks a bot's seat in the "
                             "match record)")
    except BasraError as exc:
        return parser.complain(str(exc))
    out = console if console is not None else Console(highlight=False)
    return Session(args, rules, seating, out, input_fn).run()


__all__ = ["build_parser", "main"]
