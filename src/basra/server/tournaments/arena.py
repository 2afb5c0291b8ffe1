"""The arena (issue 27, item 1; lichess's arena): its standings and the pairing of whoever
is free.

Scoring: a match won scores :data:`WIN_POINTS`, drawn :data:`DRAW_POINTS`, lost 0. After
:data:`FIRE_AFTER` wins in a row an entrant is on fire: each further win scores double (4)
and a draw double (2); anything but a win (a draw, a loss, a game their seat's bot played
from the start) puts the fire out. An absent entrant's game scores 0 and counts as lost.

Standings: by score, then performance (the mean rating of the opponents met plus
:data:`PERFORMANCE_SPREAD` times (wins - losses) / games; with no games, the entrant's own
rating), then rating, then entrant id: a total order, ranks 1, 2, 3...

Pairing (:func:`arena_pairs`), in order of importance:

1. never the same opponent twice in a row while others wait: two free entrants meet only if
   neither's last opponent was the other, unless they are the only two free;
2. as many pairs as can be (an exact maximum matching: :mod:`.matching`);
3. with an odd count, the one left out is the one who waited least (ties: the lowest in
   the standings), or the next such if the rest could not all be paired without him;
4. each pair close in the standings and in rating: down the standings, each entrant still
   free takes the one of the next :data:`LOOK_AHEAD` free below them who costs least, a
   place apart in the standings costing as much as :data:`RANK_WEIGHT` rating points; an
   entrant this leaves without a partner is paired by the shortest exchange that frees one.

The pair is given better ranked first; the director picks the seats.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from basra.server.tournaments.games import DRAW, WIN, Game, in_order
from basra.server.tournaments.matching import FREE, Matching

WIN_POINTS = 2
DRAW_POINTS = 1
FIRE_AFTER = 2
"""Wins in a row after which a win or a draw scores double."""
PERFORMANCE_SPREAD = 400.0
RANK_WEIGHT = 100.0
"""The rating points one place in the standings counts as, when choosing whom to pair."""
LOOK_AHEAD = 3
"""How many free entrants below a free entrant they may be paired with at first."""
SIT_OUT_TRIES = 8
"""Who may sit out is tried in order this many times in a large field (all in a small one)
before the most pairs that can be made are made whoever sits out."""


@dataclass(frozen=True, slots=True)
class ArenaRow:
    """One entrant's line of the arena's standings."""

    entrant: str
    rank: int
    score: int
    games: int
    wins: int
    draws: int
    losses: int
    fire: bool
    """On a streak now: the next win (or draw) scores double."""
    performance: float
    sheet: tuple[int, ...]
    """The points of each game in order (``(2, 2, 4, 0, 1)``), for the UI."""


@dataclass(slots=True)
class _Tally:
    score: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    streak: int = 0
    opponents_rating: float = 0.0
    sheet: list[int] = field(default_factory=list)

    def add(self, outcome: int, opponents_rating: float) -> None:
        fire = self.streak >= FIRE_AFTER
        if outcome == WIN:
            points = WIN_POINTS * (2 if fire else 1)
            self.wins += 1
            self.streak += 1
        elif outcome == DRAW:
            points = DRAW_POINTS * (2 if fire else 1)
            self.draws += 1
            self.streak = 0
        else:
            points = 0
            self.losses += 1
            self.streak = 0
        self.score += points
        self.opponents_rating += opponents_rating
        self.sheet.append(points)


def performance(opponents_rating: float, wins: int, losses: int, games: int,
                own: float) -> float:
    """The performance rating over ``games``, ``opponents_rating`` the sum of each game's
    opponent's rating; with no games, the entrant's ``own`` rating.

    >>> performance(3000.0, 2, 0, 2, 1400.0), performance(0.0, 0, 0, 0, 1400.0)
    (1900.0, 1400.0)
    """
    if games == 0:
        return own
    return (opponents_rating + PERFORMANCE_SPREAD * (wins - losses)) / games


def arena_standings(entrants: Mapping[str, float], games: Iterable[Game]) -> list[ArenaRow]:
    """The standings of every joined entrant (``entrants``: id -> rating), games or not.

    >>> games = [Game(w, ("a", "b"), (1.0, 0.0)) for w in range(1, 5)]
    >>> [(r.entrant, r.score, r.fire, r.sheet) for r in arena_standings(
    ...     {"a": 1500.0, "b": 1500.0, "c": 1600.0}, games)]
    [('a', 12, True, (2, 2, 4, 4)), ('c', 0, False, ()), ('b', 0, False, (0, 0, 0, 0))]
    """
    tallies = {entrant: _Tally() for entrant in entrants}
    for game in in_order(games):
        for seat, entrant in enumerate(game.entrants):
            tally = tallies.get(entrant)
            if tally is None:
                continue
            others = [s for s in range(len(game.entrants)) if s != seat]
            met = (sum(game.rating(s, entrants) for s in others) / len(others) if others
                   else entrants[entrant])
            tally.add(game.outcome(seat), met)
    # Ordered first, then made with their rank (a frozen row copied with its rank cost
    # half of the standings' time at 2,000 entrants).
    keyed = []
    for entrant, tally in tallies.items():
        played = tally.wins + tally.draws + tally.losses
        perf = performance(tally.opponents_rating, tally.wins, tally.losses, played,
                           entrants[entrant])
        keyed.append(((-tally.score, -perf, -entrants[entrant], entrant), played, perf, tally))
    keyed.sort(key=lambda item: item[0])
    return [ArenaRow(key[3], rank, tally.score, played, tally.wins, tally.draws, tally.losses,
                     tally.streak >= FIRE_AFTER, perf, tuple(tally.sheet))
            for rank, (key, played, perf, tally) in enumerate(keyed, 1)]


@dataclass(frozen=True, slots=True)
class Free:
    """An entrant free to be paired now."""

    entrant: str
    rank: int
    """Their place in the arena's standings now."""
    rating: float
    last_opponent: str | None
    waited: float
    """Seconds free."""


def arena_pairs(free: Sequence[Free]) -> list[tuple[str, str]]:
    """The pairs to make now among the ``free`` entrants (module docstring: who meets whom).

    >>> free = [Free("a", 1, 1700.0, "b", 3.0), Free("b", 2, 1650.0, "a", 3.0),
    ...         Free("c", 3, 1600.0, None, 9.0), Free("d", 4, 1550.0, None, 1.0)]
    >>> arena_pairs(free)
    [('a', 'c'), ('b', 'd')]
    >>> arena_pairs(free[:2])
    [('a', 'b')]
    """
    order = sorted(free, key=lambda f: (f.rank, -f.rating, f.entrant))
    if len(order) < 2:
        return []
    apart = _apart(order)
    everyone = _pairable(apart)
    if len(everyone) % 2 == 0:
        pairs = _pairing(order, apart, everyone)
    else:
        pairs = _sitting_out(order, apart, everyone)
    return [(order[a].entrant, order[b].entrant) for a, b in sorted(pairs)]


def _apart(order: Sequence[Free]) -> list[set[int]]:
    """Who may not meet whom: the pairs where one's last opponent was the other (none when
    only two are free)."""
    apart: list[set[int]] = [set() for _ in order]
    if len(order) == 2:
        return apart
    place = {f.entrant: v for v, f in enumerate(order)}
    for v, f in enumerate(order):
        w = place.get(f.last_opponent) if f.last_opponent is not None else None
        if w is not None and w != v:
            apart[v].add(w)
            apart[w].add(v)
    return apart


def _pairable(apart: Sequence[set[int]]) -> list[int]:
    """The free entrants who may meet one of the others (one who may meet none of them
    waits, and so on until everyone left may meet someone)."""
    everyone = list(range(len(apart)))
    while True:
        here = set(everyone)
        alone = {v for v in everyone if len(apart[v] & here) >= len(everyone) - 1}
        if not alone:
            return everyone
        everyone = [v for v in everyone if v not in alone]


def _sitting_out(order: Sequence[Free], apart: Sequence[set[int]],
                 everyone: list[int]) -> list[tuple[int, int]]:
    """An odd field: leave out the one who waited least whom the rest can do without."""
    ask = sorted(everyone, key=lambda v: (order[v].waited, -order[v].rank, order[v].entrant))
    tries = len(ask) if len(ask) <= 4 * SIT_OUT_TRIES else SIT_OUT_TRIES
    for out in ask[:tries]:
        rest = [v for v in everyone if v != out]
        pairs = _pairing(order, apart, rest)
        if 2 * len(pairs) == len(rest):
            return pairs
    return _pairing(order, apart, everyone)


def _pairing(order: Sequence[Free], apart: Sequence[set[int]],
             members: list[int]) -> list[tuple[int, int]]:
    """A maximum pairing of ``members``, near ones first (the module docstring's rule 4)."""
    matching = Matching(members, apart)
    matching.seed(_down_the_standings(order, apart, members))
    matching.complete()
    mate = matching.mate
    return [(v, mate[v]) for v in members if mate[v] != FREE and v < mate[v]]


def _down_the_standings(order: Sequence[Free], apart: Sequence[set[int]],
                        members: list[int]) -> list[tuple[int, int]]:
    taken = [False] * len(order)
    pairs = []
    for k, v in enumerate(members):
        if taken[v]:
            continue
        best, cost, looked = -1, 0.0, 0
        for j in range(k + 1, len(members)):
            w = members[j]
            if taken[w] or w in apart[v]:
                continue
            gap = (abs(order[w].rank - order[v].rank) * RANK_WEIGHT
                   + abs(order[w].rating - order[v].rating))
            if best < 0 or gap < cost:
                best, cost = w, gap
            looked += 1
            if looked == LOOK_AHEAD:
                break
        if best >= 0:
            taken[v] = taken[best] = True
            pairs.append((v, best))
    return pairs


__all__ = ["DRAW_POINTS", "FIRE_AFTER", "LOOK_AHEAD", "PERFORMANCE_SPREAD", "RANK_WEIGHT",
           "WIN_POINTS", "ArenaRow", "Free", "arena_pairs", "arena_standings", "performance"]
