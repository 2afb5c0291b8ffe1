"""Command-line argument parsing shared by the ``basra`` subcommands."""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are a single line on stderr, exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(self.complain(message))

    def complain(self, message: str) -> int:
        """Write the one-line usage error for ``message`` on stderr and return its exit
        status, 2, without exiting (for checks made after parsing)."""
        print(f"{self.prog}: error: {' '.join(message.split())}", file=sys.stderr)
        return 2


def parse_or_status(parser: argparse.ArgumentParser, argv: Sequence[str] | None
                    ) -> argparse.Namespace | int:
    """The parsed arguments, or the exit status where argparse would exit: 2 after a bad
    argument (its one-line error written), 0 after ``--help``."""
    try:
        return parser.parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else int(exc.code is not None)


def whole_number(minimum: int, name: str = "") -> Callable[[str], int]:
    """An argparse type: a whole number from ``minimum`` up (``name`` starts the error)."""
    prefix = f"{name} " if name else ""

    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = minimum - 1
        if value < minimum:
            raise argparse.ArgumentTypeError(
                f"{prefix}must be a whole number from {minimum} up, got {text!r}")
        return value

    return convert


def seconds(name: str = "", *, zero: bool = False) -> Callable[[str], float]:
    """An argparse type: a finite number of seconds, above 0 (or from 0 up with ``zero``)."""
    prefix = f"{name} " if name else ""
    bound = "from 0 up" if zero else "above 0"

    def convert(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not (value >= 0 if zero else value > 0) or value == math.inf:
            raise argparse.ArgumentTypeError(
                f"{prefix}must be a number of seconds {bound}, got {text!r}")
        return value

    return convert
