"""The Swiss pairing of one round, Dutch style, over players numbered in pairing order
(score, then rating, then id: 0 is the top).

Players of equal score form a score group, paired from the top group down. A bracket is a
score group with the players floated down to it from above (first, in order):

1. each floater, in order, meets the highest resident of the bracket it may;
2. the residents left are halved, top half S1 and bottom half S2 (S2 the larger when odd),
   and the i-th of S1 meets the i-th of S2 (1st against 1st of the lower half);
   where that cannot be, each of S1 in order takes the highest of S2 still free it may
   (a transposition), then the highest of S1 below itself (an exchange);
3. the residents of S2 left meet one another, in order;
4. whoever is left floats down to the next bracket (in a bracket of odd size, the lowest).

"It may" is two questions put to :class:`.matching.Matching` before each pair: can the
bracket's players left still make as many pairs among themselves as before (so a bracket
that can be paired within itself is), and can every player left in the event still be
paired with no rematch (so the last bracket is never stuck: if any pairing of the whole
field without a rematch exists, the one made has none). A pair that keeps the event
pairable but costs its bracket a pair is still preferred to floating; a player none of
the bracket may meet floats. Both answers are exact, so the greedy order above never
backtracks: bounded work, a blossom search or two per pair at most.

When no pairing of the field avoids every rematch, as few rematches as possible are
allowed: the players a maximum rematch-free matching leaves unpaired may meet one another
again (each such pair is one rematch, and no pairing has fewer).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import chain

from basra.server.tournaments.matching import Matching


def groups(players: Sequence[int], scores: Sequence[float]) -> list[list[int]]:
    """The score groups of ``players`` (in pairing order), top first."""
    out: list[list[int]] = []
    for v in players:
        if out and scores[out[-1][0]] == scores[v]:
            out[-1].append(v)
        else:
            out.append([v])
    return out


def natural(group: Sequence[int]) -> list[tuple[int, int]]:
    """The top half against the bottom half, 1st against 1st.

    >>> natural([0, 1, 2, 3, 4])
    [(0, 2), (1, 3)]
    """
    half = len(group) // 2
    return list(zip(group[:half], group[half:2 * half], strict=True))


def dutch_pairs(players: Sequence[int], scores: Sequence[float],
                apart: list[set[int]]) -> list[tuple[int, int]]:
    """The pairs of one round among ``players`` (an even count, in pairing order), where
    ``apart[v]`` holds whom ``v`` met before; each pair is (higher, lower). ``apart`` is
    relaxed in place when rematches cannot all be avoided (the module docstring).

    >>> dutch_pairs(range(4), [1.0, 1.0, 0.0, 0.0], [{1}, {0}, set(), set()])
    [(0, 2), (1, 3)]
    """
    whole = Matching(players, apart)
    whole.seed(chain.from_iterable(natural(g) for g in groups(players, scores)))
    if 2 * whole.complete() < len(players):
        again = set(whole.free())
        for v in again:
            apart[v] = apart[v] - again
        whole.complete()
    pairs: list[tuple[int, int]] = []
    floaters: list[int] = []
    for group in groups(players, scores):
        bracket = _Bracket(floaters + group, len(floaters), whole, apart)
        pairs += bracket.pair()
        floaters = bracket.left()
    if floaters:  # pragma: no cover - the whole matching rules it out
        raise AssertionError(f"the last bracket left {floaters} unpaired")
    return pairs


class _Bracket:
    """One bracket being paired: its own matching beside the event's."""

    __slots__ = ("apart", "floating", "local", "members", "paired", "pairs", "whole")

    def __init__(self, members: list[int], floating: int, whole: Matching,
                 apart: list[set[int]]) -> None:
        self.members = members
        self.floating = floating
        self.whole = whole
        self.apart = apart
        self.local = Matching(members, apart)
        self.local.seed(natural(members[floating:]))
        self.local.complete()
        self.paired: set[int] = set()
        self.pairs: list[tuple[int, int]] = []

    def pair(self) -> list[tuple[int, int]]:
        """Steps 1 to 3 of the module docstring; the pairs made."""
        floaters, residents = self.members[:self.floating], self.members[self.floating:]
        for k, x in enumerate(floaters):
            self._pick(x, chain(residents, floaters[k + 1:]))
        rest = [v for v in residents if v not in self.paired]
        s1, s2 = rest[:len(rest) // 2], rest[len(rest) // 2:]
        for k, x in enumerate(s1):
            self._pick(x, chain(s2, s1[k + 1:]))
        for k, x in enumerate(s2):
            self._pick(x, s2[k + 1:])
        return self.pairs

    def left(self) -> list[int]:
        """Who floats down, in order."""
        return [v for v in self.members if v not in self.paired]

    def _pick(self, x: int, candidates: Iterable[int]) -> None:
        if x in self.paired:
            return
        seen = []
        for y in candidates:
            if y in self.paired or y in self.apart[x]:
                continue
            seen.append(y)
            before = self.local.snapshot()
            if self.local.take(x, y):
                if self.whole.take(x, y):
                    self._made(x, y)
                    return
                self.local.restore(before)
        for y in seen:
            if self.whole.take(x, y):
                self.local.take(x, y, keep=False)
                self._made(x, y)
                return
        self.local.leave(x, keep=False)

    def _made(self, x: int, y: int) -> None:
        self.paired.update((x, y))
        self.pairs.append((min(x, y), max(x, y)))


__all__ = ["dutch_pairs", "groups", "natural"]
