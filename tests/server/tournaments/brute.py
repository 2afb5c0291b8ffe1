"""Brute force over small fields, the yardstick of the pairing tests: every perfect
matching, every maximum one, written without the code under test."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

T = TypeVar("T")


def perfect_matchings(players: Sequence[T]) -> Iterator[list[tuple[T, T]]]:
    """Every way to pair all of ``players`` (an even count)."""
    if not players:
        yield []
        return
    first, rest = players[0], list(players[1:])
    for k, other in enumerate(rest):
        for more in perfect_matchings(rest[:k] + rest[k + 1:]):
            yield [(first, other), *more]


def most_pairs(players: Sequence[T], may_meet: Callable[[T, T], bool]) -> int:
    """The size of a maximum matching of ``players`` where ``may_meet`` says who may."""
    if len(players) < 2:
        return 0
    first, rest = players[0], list(players[1:])
    best = most_pairs(rest, may_meet)  # the first one sits out
    for k, other in enumerate(rest):
        if may_meet(first, other):
            best = max(best, 1 + most_pairs(rest[:k] + rest[k + 1:], may_meet))
    return best
