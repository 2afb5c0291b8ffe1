"""The engine protocol, basra-engine/1 (docs/ENGINE_PROTOCOL.md): bots as programs.

Like UCI for chess engines, a Basra engine is a program that reads one JSON object a line
on standard input and answers each with one JSON object a line on standard output. The
protocol lives in three modules, and this one is ``basra engine``'s command line
(``python -m basra.bot_protocol`` runs it too):

- :mod:`basra.engine_protocol.messages`: the protocol's name, the error codes and the
  message shapes;
- :mod:`basra.engine_protocol.our_bots`: :func:`serve` (``basra engine``), our bots behind the
  protocol, so any program in any language can use them;
- :mod:`basra.engine_protocol.outside_bots`: :class:`ExternalBot`, any program that speaks the
  protocol, used as a bot (``basra arena --b cmd:"python3 examples/random_bot.py"``). Its
  replies are checked: a play that is not one of ``view.legal``, a timeout, a crash or a
  line that is not the protocol is an :class:`ExternalBotError` with a one-line message
  naming the program.

The names of the protocol's public interface are importable from here as well.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Sequence

from basra.bots import LEVELS, level_argument
from basra.bots.hard import DEFAULT_ITERATIONS, DEFAULT_TIME_CAP
from basra.cliargs import OneLineParser, parse_or_status, seconds, whole_number
from basra.engine_protocol.messages import ERROR_CODES, PROTOCOL, encode
from basra.engine_protocol.our_bots import DEFAULT_LEVEL, BotOptions, BotServer, serve
from basra.engine_protocol.outside_bots import ExternalBot, ExternalBotError


def _seed(text: str) -> int | str:
    try:
        return int(text)
    except ValueError:
        return text


def build_parser() -> argparse.ArgumentParser:
    """The ``basra engine`` argument parser; the options give the protocol options' first
    values (a client can change them with ``option`` messages)."""
    parser = OneLineParser(
        prog="basra engine",
        description=f"Speak {PROTOCOL} (docs/ENGINE_PROTOCOL.md) on standard input and "
                    "output: one JSON object a line in, one JSON object a line out.")
    parser.add_argument("--level", type=level_argument, default=DEFAULT_LEVEL, metavar="LEVEL",
                        help=f"the bot's level: {', '.join(LEVELS)} "
                             f"(default {DEFAULT_LEVEL})")
    parser.add_argument("--iterations", type=whole_number(1), metavar="N",
                        help=f"hard, expert: search iterations per play (default "
                             f"{DEFAULT_ITERATIONS}; the expert plays at 3000 elsewhere)")
    parser.add_argument("--time-cap", type=seconds(zero=True), metavar="S",
                        help=f"hard, expert: seconds per play at most, 0 for none (default "
                             f"{DEFAULT_TIME_CAP:g})")
    parser.add_argument("--seed", type=_seed, metavar="SEED",
                        help="seed of the bot's random choices (default: fresh)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``basra engine``: serve the protocol on standard input and output. Returns the
    exit status: 0 after ``quit`` or the end of the input, 2 for bad arguments."""
    args = parse_or_status(build_parser(), argv)
    if isinstance(args, int):  # bad arguments, or --help
        return args
    stdin, stdout = sys.stdin, sys.stdout
    for stream in (stdin, stdout):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):
                reconfigure(encoding="utf-8", errors="replace")
    # Only protocol lines reach the real standard output; a stray print goes to stderr.
    sys.stdout = sys.stderr
    try:
        return serve(stdin, stdout, BotOptions(args.level, args.seed, args.iterations,
                                               args.time_cap))
    except KeyboardInterrupt:
        return 130
    finally:
        sys.stdout = stdout


__all__ = [
    "ERROR_CODES",
    "PROTOCOL",
    "BotOptions",
    "BotServer",
    "ExternalBot",
    "ExternalBotError",
    "build_parser",
    "encode",
    "main",
    "serve",
]


if __name__ == "__main__":
    sys.exit(main())
