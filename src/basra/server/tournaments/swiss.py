"""The Swiss event (issue 27, item 2): its standings and the pairing of each round.

Scoring: a game won scores 1, drawn 0.5, lost 0; a bye scores what its game says (1, a
win); an entrant whose seat the bot played from the start scores 0 for it.

Standings: by score, then Buchholz, then Sonneborn-Berger, then rating, then entrant id.

- Buchholz: the sum of the final scores of the opponents met in the games the entrant
  played; a bye counts as a game won against an opponent whose score is the bye-taker's own
  (not FIDE's virtual opponent). A round the entrant missed (absent, or not paired) counts
  nothing.
- Sonneborn-Berger: the sum of the scores of the opponents beaten, plus half of those drawn
  with (a bye: the entrant's own score, as a win).

Pairing (:func:`swiss_pairs`) pairs only the entrants present, in pairing order: score,
then rating, then id. Every game of two entrants is a meeting, whoever was absent in it;
two entrants who met never meet again unless no pairing avoids it
(:mod:`.dutch`: the score groups, floats, transpositions and exchanges).

- The bye, with an odd count: to the lowest in pairing order of those present with the
  fewest byes (nobody gets a second while someone present has none) whom the others can
  do without: paired with no rematch if any choice of the bye allows that, else with as
  few rematches as any choice allows.
- Seats: who has sat second more often sits first; if even, who sat second last time; if
  that is the same too, the higher of the two alternates from their last seat (first when
  neither has sat yet). Pairs are listed from the top board down.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field, replace

from basra.server.tournaments.dutch import dutch_pairs, groups, natural
from basra.server.tournaments.games import DRAW, WIN, Game, in_order
from basra.server.tournaments.matching import Matching


@dataclass(frozen=True, slots=True)
class SwissRow:
    """One entrant's line of the Swiss standings."""

    entrant: str
    rank: int
    score: float
    buchholz: float
    sonneborn_berger: float
    games: int
    """Games played (byes and games the bot played for them aside)."""
    byes: int
    rating: float
    sheet: tuple[tuple[str | None, float], ...]
    """Per round from the first: (opponent, or None for a bye, an absence or no pairing;
    points)."""


@dataclass(frozen=True, slots=True)
class SwissPairing:
    """One round's pairing."""

    pairs: list[tuple[str, str]]
    """(seat 0, seat 1), from the top board down."""
    bye: str | None


@dataclass(slots=True)
class _Record:
    """What the games say of one entrant."""

    score: float = 0.0
    byes: int = 0
    played: list[tuple[str, int]] = field(default_factory=list)
    """(opponent, outcome) of each game played."""
    met: set[str] = field(default_factory=set)
    seconds: int = 0
    """Games sat second less games sat first."""
    last_seat: int | None = None
    sheet: dict[int, tuple[str | None, float]] = field(default_factory=dict)


def _records(games: Iterable[Game]) -> dict[str, _Record]:
    records: dict[str, _Record] = {}
    for game in in_order(games):
        for seat, entrant in enumerate(game.entrants):
            record = records.setdefault(entrant, _Record())
            others = game.opponents(seat)
            record.met.update(others)
            if entrant in game.absent:
                record.sheet[game.round] = (None, 0.0)
                continue
            points = game.points[seat]
            record.score += points
            if game.bye:
                record.byes += 1
                record.sheet[game.round] = (None, points)
                continue
            record.played += [(other, game.outcome(seat)) for other in others]
            record.seconds += 1 if seat else -1
            record.last_seat = seat
            record.sheet[game.round] = (others[0], points)
    return records


def swiss_standings(entrants: Mapping[str, float], games: Iterable[Game]) -> list[SwissRow]:
    """The standings of every entrant (``entrants``: id -> rating), games or not.

    >>> games = [Game(1, ("a", "b"), (1.0, 0.0)), Game(1, ("c",), (1.0,)),
    ...          Game(2, ("c", "a"), (0.5, 0.5)), Game(2, ("b",), (1.0,))]
    >>> [(r.entrant, r.score, r.buchholz, r.sonneborn_berger)
    ...  for r in swiss_standings({"a": 1500.0, "b": 1500.0, "c": 1500.0}, games)]
    [('c', 1.5, 3.0, 2.25), ('a', 1.5, 2.5, 1.75), ('b', 1.0, 2.5, 1.0)]
    """
    games = list(games)
    records = _records(games)
    rounds = max((game.round for game in games), default=0)
    rows = []
    for entrant, rating in entrants.items():
        record = records.get(entrant, _Record())
        buchholz = record.byes * record.score
        sonneborn_berger = record.byes * record.score
        for other, outcome in record.played:
            theirs = records[other].score
            buchholz += theirs
            sonneborn_berger += theirs if outcome == WIN else theirs / 2 if outcome == DRAW else 0
        sheet = tuple(record.sheet.get(r, (None, 0.0)) for r in range(1, rounds + 1))
        rows.append(SwissRow(entrant, 0, record.score, buchholz, sonneborn_berger,
                             len(record.played), record.byes, rating, sheet))
    rows.sort(key=lambda r: (-r.score, -r.buchholz, -r.sonneborn_berger, -r.rating, r.entrant))
    return [replace(row, rank=rank) for rank, row in enumerate(rows, 1)]


def swiss_pairs(entrants: Mapping[str, float], games: Iterable[Game],
                present: Collection[str]) -> SwissPairing:
    """The next round's pairing of the ``present`` among ``entrants`` (id -> rating of those
    still in the event); the others are not paired this round (no bye, no points).

    >>> ratings = {"a": 1800.0, "b": 1700.0, "c": 1600.0, "d": 1500.0, "e": 1400.0}
    >>> first = swiss_pairs(ratings, [], ratings)
    >>> first
    SwissPairing(pairs=[('a', 'c'), ('b', 'd')], bye='e')
    >>> games = [Game(1, p, (1.0, 0.0)) for p in first.pairs] + [Game(1, ("e",), (1.0,))]
    >>> swiss_pairs(ratings, games, ratings)
    SwissPairing(pairs=[('b', 'a'), ('c', 'e')], bye='d')
    """
    records = _records(games)
    blank = _Record()
    here = set(present)

    def score(entrant: str) -> float:
        return records.get(entrant, blank).score

    order = sorted((e for e in entrants if e in here),
                    key=lambda e: (-score(e), -entrants[e], e))
    place = {entrant: v for v, entrant in enumerate(order)}
    apart = [{place[o] for o in records.get(e, blank).met if o in place} for e in order]
    scores = [score(e) for e in order]
    players = list(range(len(order)))
    bye = None
    if len(players) % 2:
        byes = [records.get(e, blank).byes for e in order]
        bye = _bye(players, scores, apart, byes)
        players.remove(bye)
    pairs = sorted(dutch_pairs(players, scores, apart))
    return SwissPairing(
        [_seats(order[a], order[b], records.get(order[a], blank),
                records.get(order[b], blank)) for a, b in pairs],
        None if bye is None else order[bye])


def _bye(players: list[int], scores: list[float], apart: list[set[int]],
         byes: list[int]) -> int:
    """The lowest with the fewest byes whom the others can do without (the module
    docstring): one whose leaving keeps the most pairs that avoid a rematch."""
    whole = Matching(players, apart)
    for group in groups(players, scores):
        whole.seed(natural(group))
    whole.complete()
    fewest = min(byes)
    ask = [v for v in reversed(players) if byes[v] == fewest]
    for v in ask:
        if whole.leave(v):
            return v
    return ask[0]


def _seats(high: str, low: str, first: _Record, second: _Record) -> tuple[str, str]:
    """Who sits first of ``high`` (the higher in pairing order) and ``low``."""
    def leaning(record: _Record) -> tuple[int, int]:
        last = {None: 0, 0: -1, 1: 1}[record.last_seat]
        return record.seconds, last

    if leaning(first) != leaning(second):
        return (high, low) if leaning(first) > leaning(second) else (low, high)
    return (low, high) if first.last_seat == 0 else (high, low)


__all__ = ["SwissPairing", "SwissRow", "swiss_pairs", "swiss_standings"]
