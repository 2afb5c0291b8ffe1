"""Rated quick match's pairing (issue 12): the players waiting for a variant are paired
every couple of seconds so that as many as can be are paired, and among those pairings the
sum of the rating gaps is smallest.

Who may meet whom:

- each player accepts a gap up to their window, which widens the longer they wait
  (:func:`window`): 100 points at first, 20 more every second, at most 800; a pair needs
  a gap both accept;
- guests meet guests and players whose rating is still provisional; an account with an
  established rating meets accounts only;
- the same two players are not paired twice in a row while either has anyone else to meet.

The pairing is exact (a search over the pool) for each group of up to ``EXACT_UP_TO``
players who could meet one another, and by smallest gap first beyond that: a pool that
large pairs nearly everyone either way. Pure: the queue calls :func:`pair` with the pool.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

FIRST_WINDOW = 100.0
WIDENING = 20.0
"""Points a second of waiting adds to a player's window."""
WIDEST = 800.0
EXACT_UP_TO = 14


@dataclass(frozen=True, slots=True)
class Seeker:
    """A player waiting to be paired."""

    id: str
    rating: float
    waited: float
    """Seconds in the pool."""
    guest: bool = False
    provisional: bool = True
    last_opponent: str | None = None
    """Whom they played last (no rematch in a row while others wait)."""


def window(waited: float) -> float:
    """The largest rating gap a player accepts after ``waited`` seconds.

    >>> window(0), window(10), window(60)
    (100.0, 300.0, 800.0)
    """
    return min(WIDEST, FIRST_WINDOW + WIDENING * max(0.0, waited))


def may_meet(a: Seeker, b: Seeker) -> bool:
    """Whether ``a`` and ``b`` may be paired (the rematch rule aside)."""
    if a.id == b.id:
        return False
    if (a.guest and not (b.guest or b.provisional)) or (
            b.guest and not (a.guest or a.provisional)):
        return False
    gap = abs(a.rating - b.rating)
    return gap <= window(a.waited) and gap <= window(b.waited)


def _edges(pool: Sequence[Seeker]) -> dict[int, dict[int, float]]:
    """Who may meet whom, by index, with the gap; a rematch in a row only when neither
    has another choice."""
    near: dict[int, dict[int, float]] = {i: {} for i in range(len(pool))}
    for i, a in enumerate(pool):
        for j in range(i + 1, len(pool)):
            b = pool[j]
            if may_meet(a, b):
                gap = abs(a.rating - b.rating)
                near[i][j] = gap
                near[j][i] = gap
    for i, a in enumerate(pool):
        for j in list(near[i]):
            b = pool[j]
            again = a.last_opponent == b.id or b.last_opponent == a.id
            if again and (len(near[i]) > 1 or len(near[j]) > 1):
                near[i].pop(j, None)
                near[j].pop(i, None)
    return near


def _groups(near: dict[int, dict[int, float]]) -> list[list[int]]:
    seen: set[int] = set()
    groups = []
    for start, neighbours in near.items():
        if start in seen or not neighbours:
            continue
        group, todo = [], [start]
        seen.add(start)
        while todo:
            i = todo.pop()
            group.append(i)
            for j in near[i]:
                if j not in seen:
                    seen.add(j)
                    todo.append(j)
        groups.append(sorted(group))
    return groups


def _exact(group: list[int], near: dict[int, dict[int, float]]) -> list[tuple[int, int]]:
    """The most pairs, then the smallest sum of gaps, by a search over who is left."""
    index = {p: k for k, p in enumerate(group)}

    @cache
    def best(left: int) -> tuple[int, float, tuple[tuple[int, int], ...]]:
        if left == 0:
            return 0, 0.0, ()
        first = (left & -left).bit_length() - 1
        rest = left & ~(1 << first)
        count, cost, pairs = best(rest)  # the first one left waits
        choice = (count, -cost, pairs)
        a = group[first]
        for b, gap in near[a].items():
            k = index[b]
            if rest >> k & 1:
                c, g, p = best(rest & ~(1 << k))
                if (c + 1, -(g + gap)) > choice[:2]:
                    choice = (c + 1, -(g + gap), ((a, b), *p))
        return choice[0], -choice[1], choice[2]

    return list(best((1 << len(group)) - 1)[2])


def _greedy(group: list[int], near: dict[int, dict[int, float]]) -> list[tuple[int, int]]:
    edges = sorted((gap, i, j) for i in group for j, gap in near[i].items() if i < j)
    taken: set[int] = set()
    pairs = []
    for _, i, j in edges:
        if i not in taken and j not in taken:
            taken.update((i, j))
            pairs.append((i, j))
    return pairs


def pair(pool: Sequence[Seeker]) -> list[tuple[Seeker, Seeker]]:
    """The pairs to make now (the rest wait on, their windows widening).

    >>> pool = [Seeker("a", 1500, 0), Seeker("b", 1530, 0), Seeker("c", 1900, 0)]
    >>> [(x.id, y.id) for x, y in pair(pool)]
    [('a', 'b')]
    """
    near = _edges(pool)
    pairs: list[tuple[int, int]] = []
    for group in _groups(near):
        pairs += _exact(group, near) if len(group) <= EXACT_UP_TO else _greedy(group, near)
    return [(pool[i], pool[j]) for i, j in sorted(pairs)]


__all__ = ["Seeker", "may_meet", "pair", "window"]
