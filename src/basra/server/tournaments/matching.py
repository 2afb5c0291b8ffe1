"""Who can still be paired: a maximum matching of "may meet" among the players left, kept
maximum as pairs are taken out of it (Edmonds' blossom search for augmenting paths).

Both systems pair greedily, in their own order of preference, and ask this one question
before each pair they make: if these two meet now, can the rest still be paired as fully
as before? A greedy pairing cannot see that by itself (the last few players left may all
have met); with the answer exact, a greedy pairing never paints itself into a corner and
never needs to undo anything.

Players are numbers (their places in the caller's order); ``apart[v]`` holds whom ``v``
may not meet (the caller keeps it symmetric). The graph is dense (nearly everyone may meet
nearly everyone) and never built: a search walks the members outward from a player's own
place, so what it finds first is near in the caller's order. A search costs about one pass
over the members when it succeeds, as it nearly always does in a dense graph.

>>> apart = [{1}, {0}, set(), set()]          # 0 and 1 met before
>>> m = Matching(range(4), apart)
>>> m.seed([(0, 1), (2, 3)]); m.complete()   # (0, 1) may not meet: seeded without it
2
>>> m.take(2, 3)                             # 0 and 1 would be left with each other
False
>>> m.take(0, 2), m.size
(True, 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from collections.abc import Set as AbstractSet

FREE = -1


class Matching:
    """A maximum matching of ``members`` (in order) where ``v`` may not meet ``apart[v]``."""

    __slots__ = ("_alive", "_apart", "_members", "_where", "count", "mate", "size")

    def __init__(self, members: Iterable[int], apart: Sequence[AbstractSet[int]]) -> None:
        self._apart = apart
        self._members = list(members)
        self._where = {v: k for k, v in enumerate(self._members)}
        self._alive = [False] * len(apart)
        for v in self._members:
            self._alive[v] = True
        self.mate = [FREE] * len(apart)
        """Each player's partner in the matching, or :data:`FREE`."""
        self.size = 0
        """Pairs in the matching."""
        self.count = len(self._members)
        """Members still here."""

    def may_meet(self, a: int, b: int) -> bool:
        """Whether ``a`` and ``b`` are both still here and may meet."""
        return a != b and self._alive[a] and self._alive[b] and b not in self._apart[a]

    def seed(self, pairs: Iterable[tuple[int, int]]) -> None:
        """Start from these pairs (those that may meet and are both free), before
        :meth:`complete`."""
        mate = self.mate
        for a, b in pairs:
            if mate[a] == FREE and mate[b] == FREE and self.may_meet(a, b):
                mate[a], mate[b] = b, a
                self.size += 1

    def complete(self) -> int:
        """Make the matching maximum; its size. (One search from each free player is
        enough: a player with no augmenting path now has none after other augmentations.)"""
        for v in self._members:
            if self._alive[v] and self.mate[v] == FREE:
                self._grow(v)
        return self.size

    def free(self) -> list[int]:
        """The members left without a partner, in order."""
        return [v for v in self._members if self._alive[v] and self.mate[v] == FREE]

    def snapshot(self) -> tuple[list[int], list[bool], int, int]:
        """The matching as it is, for :meth:`restore`."""
        return self.mate.copy(), self._alive.copy(), self.size, self.count

    def restore(self, saved: tuple[list[int], list[bool], int, int]) -> None:
        """Back to a :meth:`snapshot`."""
        self.mate, self._alive, self.size, self.count = saved

    def take(self, x: int, y: int, *, keep: bool = True) -> bool:
        """Pair ``x`` with ``y`` (who may meet) and take them out, if the rest still has a
        matching one pair smaller than now, as large as it could be; else change nothing and
        answer False. With ``keep=False`` take them out anyway, the rest as large as it can."""
        mate = self.mate
        if mate[x] == y:
            self._out(x)
            self._out(y)
            self.size -= 1
            return True
        saved = self.snapshot() if keep else None
        target = self.size - 1
        freed = [mate[v] for v in (x, y) if mate[v] != FREE]
        self._out(x)
        self._out(y)
        self.size -= len(freed)
        if len(freed) == 2 and self.may_meet(*freed):
            a, b = freed
            mate[a], mate[b] = b, a
            self.size += 1
        else:
            for v in freed:
                if self.size < target:
                    self._grow(v)
        if self.size >= target or saved is None:
            return True
        self.restore(saved)
        return False

    def leave(self, x: int, *, keep: bool = True) -> bool:
        """Take ``x`` out unpaired, if the rest keeps a matching as large as now; else change
        nothing and answer False. With ``keep=False`` take it out anyway."""
        partner = self.mate[x]
        saved = self.snapshot() if keep else None
        self._out(x)
        if partner == FREE:
            return True
        self.size -= 1
        if 2 * self.size < self.count - 1 and self._augment(partner):
            self.size += 1
            return True
        if saved is None:
            return True
        self.restore(saved)
        return False

    def _out(self, v: int) -> None:
        partner = self.mate[v]
        if partner != FREE:
            self.mate[partner] = FREE
        self.mate[v] = FREE
        self._alive[v] = False
        self.count -= 1

    def _grow(self, v: int) -> None:
        """One more pair through the free ``v`` if there is one (no search when at most one
        player is left over: the matching is maximum)."""
        if 2 * self.size < self.count - 1 and self._augment(v):
            self.size += 1

    def _around(self, v: int) -> Iterator[int]:
        """The members still here, nearest to ``v``'s place first (below, then above)."""
        members, alive = self._members, self._alive
        low, high = self._where[v] - 1, self._where[v] + 1
        while low >= 0 or high < len(members):
            if high < len(members):
                w = members[high]
                high += 1
                if alive[w]:
                    yield w
            if low >= 0:
                w = members[low]
                low -= 1
                if alive[w]:
                    yield w

    def _augment(self, root: int) -> bool:
        """One more pair through the free ``root``, if there is an augmenting path from it:
        the shortest kinds first, then the full search."""
        return self._short(root) or self._search(root)

    def _short(self, root: int) -> bool:
        """An augmenting path of one edge (``root`` meets a free player) or three (``root``
        takes a near player whose partner meets a free player): in a dense graph, nearly
        always one of them, found in about one pass."""
        mate, apart, alive = self.mate, self._apart, self._alive
        others = [f for f in self._members if alive[f] and mate[f] == FREE and f != root]
        banned = apart[root]
        for f in others:
            if f not in banned:
                mate[root], mate[f] = f, root
                return True
        if not others:
            return False
        for v in self._around(root):
            if v in banned:
                continue
            partner = mate[v]
            for f in others:
                if f not in apart[partner]:
                    mate[root], mate[v], mate[partner], mate[f] = v, root, f, partner
                    return True
        return False

    def _search(self, root: int) -> bool:
        """Search for an augmenting path from the free ``root`` (Edmonds: blossoms are
        shrunk into their base as they are found); flip it and answer True if there is one."""
        count = len(self.mate)
        mate, apart = self.mate, self._apart
        parent = [FREE] * count
        base = list(range(count))
        queued = [False] * count
        queued[root] = True
        queue = [root]
        head = 0
        while head < len(queue):
            v = queue[head]
            head += 1
            banned = apart[v]
            for to in self._around(v):
                if to in banned or base[v] == base[to] or mate[v] == to:
                    continue
                if to == root or (mate[to] != FREE and parent[mate[to]] != FREE):
                    top = self._common_base(v, to, base, parent)
                    blossom = self._blossom(v, to, top, base, parent)
                    for w in self._members:
                        if self._alive[w] and blossom[base[w]]:
                            base[w] = top
                            if not queued[w]:
                                queued[w] = True
                                queue.append(w)
                elif parent[to] == FREE:
                    parent[to] = v
                    if mate[to] == FREE:
                        while to != FREE:
                            back = mate[parent[to]]
                            mate[to], mate[parent[to]] = parent[to], to
                            to = back
                        return True
                    queued[mate[to]] = True
                    queue.append(mate[to])
        return False

    def _common_base(self, a: int, b: int, base: list[int], parent: list[int]) -> int:
        mate = self.mate
        seen = [False] * len(mate)
        while True:
            a = base[a]
            seen[a] = True
            if mate[a] == FREE:
                break
            a = parent[mate[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[mate[b]]

    def _blossom(self, v: int, to: int, top: int, base: list[int],
                 parent: list[int]) -> list[bool]:
        """The bases on the cycle closed by the edge ``v``-``to`` through ``top``, marked;
        the paths' odd players now lead back both ways."""
        mate = self.mate
        blossom = [False] * len(mate)
        for a, child in ((v, to), (to, v)):
            while base[a] != top:
                blossom[base[a]] = blossom[base[mate[a]]] = True
                parent[a] = child
                child = mate[a]
                a = parent[mate[a]]
        return blossom


__all__ = ["FREE", "Matching"]
