"""Rated quick match's pairing (issue 12): the players waiting for a variant are paired
every couple of seconds so that as many as can be are paired, and among those pairings the
sum of the rating gaps is smallest.

Who may meet whom:

- each player accepts a gap up to their window, which widens the longer they wait
  (:func:`window`): 100 points at first, 20 more every second, at most 800; a pair needs
  a gap both accept;
- guests meet guests and players whose rating is still provisional; an account with an
  established rating meets accounts only;
- the same two players are not paired twice in a row while either has anyone else to meet;
- nobody sits with a player they block or who blocks them (issue 28).

The pairing is exact (a search over the pool) for each group of up to ``EXACT_UP_TO``
players who could meet one another, and by smallest gap first beyond that: a pool that
large pairs nearly everyone either way. Pure: the queue calls :func:`pair` with the pool.

Tables of three or four (issue 28) are filled by :func:`group`, the longest waiting first:

- three or four players alone: everyone at the table within everyone's window of
  everyone else (the guest rule too);
- two sides of two: a side's rating is its players' mean, and the two sides' means must
  be within every player's window. Partners who queued together (``party``) are one side;
  players who came alone are seated as a side (of two solos, the split that makes the
  means closest), and solos seated together must be within each other's windows too;
- among the tables the longest waiting player can join now, the one with the smallest
  gaps (the sides' means, then the spread of the solos), looking at the ``NEAREST``
  players closest in rating. Greedy, as a café's host is: the pass runs again in two
  seconds with every window wider.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

FIRST_WINDOW = 100.0
WIDENING = 20.0
"""Points a second of waiting adds to a player's window."""
WIDEST = 800.0
EXACT_UP_TO = 14
NEAREST = 7
"""How many of the players closest in rating :func:`group` looks at for each table."""


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
    party: str | None = None
    """Partners who queued together share it (a team pool): they sit as one side."""
    avoid: frozenset[str] = frozenset()
    """Whom they never sit with: the players they block and who block them."""


def window(waited: float) -> float:
    """The largest rating gap a player accepts after ``waited`` seconds.

    >>> window(0), window(10), window(60)
    (100.0, 300.0, 800.0)
    """
    return min(WIDEST, FIRST_WINDOW + WIDENING * max(0.0, waited))


def may_meet(a: Seeker, b: Seeker) -> bool:
    """Whether ``a`` and ``b`` may be paired (the rematch rule aside)."""
    if a.id == b.id or b.id in a.avoid or a.id in b.avoid:
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


Unit = tuple[Seeker, ...]
"""Who must sit together: one player, or partners."""


def _units(pool: Sequence[Seeker]) -> list[Unit]:
    """The pool as units, the longest waiting first; partners whose partner is not in the
    pool (yet) wait."""
    parties: dict[str, list[Seeker]] = {}
    units: list[Unit] = []
    for seeker in pool:
        if seeker.party is None:
            units.append((seeker,))
        else:
            parties.setdefault(seeker.party, []).append(seeker)
    units += [tuple(members) for members in parties.values() if len(members) == 2]
    return sorted(units, key=lambda u: -max(s.waited for s in u))


def _mean(side: Sequence[Seeker]) -> float:
    return sum(s.rating for s in side) / len(side)


def _suits(players: Sequence[Seeker], gap: float) -> bool:
    return all(gap <= window(p.waited) for p in players)


def _may_sit(a: Seeker, b: Seeker) -> bool:
    """Whether two players may sit at one table (the guest rule; partners always may)."""
    if a.party is not None and a.party == b.party:
        return True
    if b.id in a.avoid or a.id in b.avoid:
        return False
    return not ((a.guest and not (b.guest or b.provisional))
                or (b.guest and not (a.guest or a.provisional)))


def _solo_table(units: Sequence[Unit]) -> tuple[float, tuple[Seeker, ...]] | None:
    players = [u[0] for u in units]
    if any(len(u) != 1 for u in units):
        return None
    for a, b in itertools.combinations(players, 2):
        if not may_meet(a, b):
            return None
    ratings = [p.rating for p in players]
    players.sort(key=lambda p: -p.waited)  # the longest waiting sits first
    return max(ratings) - min(ratings), tuple(players)


def _sides(units: Sequence[Unit]) -> list[tuple[Unit, Unit]]:
    """The ways to make two sides of two of ``units`` (partners stay together)."""
    parties = [u for u in units if len(u) == 2]
    solos = [u[0] for u in units if len(u) == 1]
    if len(parties) == 2:
        return [(parties[0], parties[1])]
    if len(parties) == 1:
        return [(parties[0], (solos[0], solos[1]))]
    a, b, c, d = solos
    return [((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))]


def _team_table(units: Sequence[Unit]) -> tuple[float, tuple[Seeker, ...]] | None:
    players = [p for u in units for p in u]
    if any(not _may_sit(a, b) for a, b in itertools.combinations(players, 2)):
        return None
    solos = [u[0] for u in units if len(u) == 1]
    if any(not may_meet(a, b) for a, b in itertools.combinations(solos, 2)):
        return None
    spread = (max(s.rating for s in solos) - min(s.rating for s in solos)) if solos else 0.0
    best: tuple[float, tuple[Seeker, ...]] | None = None
    for first, second in _sides(units):
        gap = abs(_mean(first) - _mean(second))
        if not _suits(players, gap):
            continue
        if max(s.waited for s in second) > max(s.waited for s in first):
            first, second = second, first  # the longest waiting side sits first
        first, second = (tuple(sorted(side, key=lambda s: -s.waited))  # and player
                         for side in (first, second))
        seats = (first[0], second[0], first[1], second[1])  # seats 0 and 2 against 1 and 3
        cost = gap + spread / 4
        if best is None or cost < best[0]:
            best = cost, seats
    return best


def _nearest(k: int, by_rating: list[int], at: int, means: list[float],
             taken: set[int]) -> list[int]:
    """The ``NEAREST`` units not taken closest in rating to unit ``k`` (at ``at`` in
    ``by_rating``), walking out both ways from it."""
    near: list[int] = []
    low, high = at - 1, at + 1
    while len(near) < NEAREST and (low >= 0 or high < len(by_rating)):
        below = by_rating[low] if low >= 0 else None
        above = by_rating[high] if high < len(by_rating) else None
        if above is None or (below is not None
                             and means[k] - means[below] <= means[above] - means[k]):
            low -= 1
            chosen = below
        else:
            high += 1
            chosen = above
        if chosen is not None and chosen not in taken:
            near.append(chosen)
    return near


def group(pool: Sequence[Seeker], seats: int, teams: bool) -> list[tuple[Seeker, ...]]:
    """The tables of ``seats`` players to make now, each in seat order (with ``teams``,
    seats 0 and 2 are one side, 1 and 3 the other); the rest wait on. Two seats alone
    are :func:`pair`'s.

    >>> pool = [Seeker(n, r, w) for n, r, w in (("a", 1500, 9), ("b", 1520, 5),
    ...                                          ("c", 1480, 4), ("d", 1900, 3),
    ...                                          ("e", 1510, 1))]
    >>> [[s.id for s in t] for t in group(pool, 3, False)]
    [['a', 'b', 'e']]
    >>> [[s.id for s in t] for t in group(pool, 4, True)]  # a & e (3010) v b & c (3000)
    [['a', 'b', 'e', 'c']]
    """
    if seats == 2 and not teams:
        return [(a, b) for a, b in pair(pool)]
    units = _units(pool)
    means = [_mean(u) for u in units]
    by_rating = sorted(range(len(units)), key=means.__getitem__)
    place = {k: i for i, k in enumerate(by_rating)}
    taken: set[int] = set()
    tables: list[tuple[Seeker, ...]] = []
    for k, anchor in enumerate(units):
        if k in taken:
            continue
        near = _nearest(k, by_rating, place[k], means, taken)
        best: tuple[float, tuple[int, ...], tuple[Seeker, ...]] | None = None
        for size in range(1, seats):
            for others in itertools.combinations(near, size):
                chosen = [anchor, *(units[j] for j in others)]
                if sum(len(u) for u in chosen) != seats:
                    continue
                found = _team_table(chosen) if teams else _solo_table(chosen)
                if found is not None and (best is None or found[0] < best[0]):
                    best = found[0], others, found[1]
        if best is not None:
            taken.add(k)
            taken.update(best[1])
            tables.append(best[2])
    return tables


__all__ = ["Seeker", "group", "may_meet", "pair", "window"]
