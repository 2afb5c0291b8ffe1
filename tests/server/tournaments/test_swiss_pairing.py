"""The Swiss pairing (basra.server.tournaments.swiss.swiss_pairs, basra.server.tournaments.
dutch): checked round after round against brute force on small fields (every perfect
matching): no rematch when any pairing avoids one (and the fewest otherwise), score groups
kept whenever the field can be paired within them, the bye to the lowest who has none and
whom the rest can do without, the absent left out, seats alternating."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from basra.server.tournaments.games import Game
from basra.server.tournaments.swiss import SwissPairing, swiss_pairs
from server.tournaments.brute import perfect_matchings


class Field:
    """What the games say, worked out again from the rules: scores, meetings, byes."""

    def __init__(self, ratings: Mapping[str, float], games: Sequence[Game]) -> None:
        self.ratings = ratings
        self.score: defaultdict[str, float] = defaultdict(float)
        self.byes: Counter[str] = Counter()
        self.met: set[frozenset[str]] = set()
        self.seats: dict[str, list[int]] = {e: [] for e in ratings}
        for game in sorted(games, key=lambda g: g.round):
            for seat, entrant in enumerate(game.entrants):
                if entrant not in game.absent:
                    self.score[entrant] += game.points[seat]
                    if len(game.entrants) == 2:
                        self.seats[entrant].append(seat)
            if len(game.entrants) == 1:
                self.byes[game.entrants[0]] += 1
            else:
                self.met.add(frozenset(game.entrants))

    def order(self, entrants: Sequence[str]) -> list[str]:
        """Pairing order: score, rating, id."""
        return sorted(entrants, key=lambda e: (-self.score[e], -self.ratings[e], e))

    def rematches(self, pairs: Sequence[tuple[str, str]]) -> int:
        return sum(frozenset(pair) in self.met for pair in pairs)

    def fewest_rematches(self, players: Sequence[str]) -> int:
        return min(self.rematches(m) for m in perfect_matchings(list(players)))

    def in_groups(self, players: Sequence[str]) -> bool:
        """Whether some pairing of ``players`` has no rematch and every pair level."""
        return any(self.rematches(m) == 0 and all(
            self.score[a] == self.score[b] for a, b in m)
            for m in perfect_matchings(list(players)))


def check(ratings: Mapping[str, float], games: Sequence[Game], present: set[str],
          pairing: SwissPairing) -> None:
    """Every rule of a round's pairing, by brute force."""
    now = Field(ratings, games)
    here = now.order([e for e in ratings if e in present])
    seated = [e for pair in pairing.pairs for e in pair]
    assert sorted(seated + ([pairing.bye] if pairing.bye else [])) == sorted(here)
    assert (pairing.bye is not None) == (len(here) % 2 == 1)
    playing = [e for e in here if e != pairing.bye]
    if pairing.bye is not None:
        fewest = min(now.byes[e] for e in here)
        eligible = [e for e in reversed(here) if now.byes[e] == fewest]
        cost = {e: now.fewest_rematches([p for p in here if p != e]) for e in eligible}
        assert pairing.bye == min(eligible, key=lambda e: cost[e])  # the first of the least
    assert now.rematches(pairing.pairs) == now.fewest_rematches(playing)
    if now.in_groups(playing):
        assert all(now.score[a] == now.score[b] for a, b in pairing.pairs)
    for first, second in pairing.pairs:
        check_seats(now, here, first, second)


def check_seats(now: Field, order: list[str], first: str, second: str) -> None:
    """Who sat second more often sits first; if even, who sat second last; if that is even
    too, the higher alternates from their own last seat (first if none)."""
    def leaning(e: str) -> tuple[int, int]:
        seats = now.seats[e]
        return (seats.count(1) - seats.count(0),
                0 if not seats else 1 if seats[-1] == 1 else -1)

    if leaning(first) != leaning(second):
        assert leaning(first) > leaning(second)
    else:
        high = min(first, second, key=order.index)
        seats = now.seats[high]
        assert (high == second) == (bool(seats) and seats[-1] == 0)


POINTS = [(1.0, 0.0), (0.5, 0.5), (0.0, 1.0)]


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 10), st.integers(1, 6), st.data())
def test_every_round_against_brute_force(count: int, rounds: int, data: st.DataObject) -> None:
    names = [f"e{k}" for k in range(count)]
    ratings = {e: data.draw(st.sampled_from([1400.0, 1500.0, 1600.0])) for e in names}
    games: list[Game] = []
    for number in range(1, rounds + 1):
        present = set(data.draw(st.lists(st.sampled_from(names), unique=True,
                                         min_size=max(0, count - 2))))
        pairing = swiss_pairs(ratings, games, present)
        check(ratings, games, present, pairing)
        for pair in pairing.pairs:
            absent = data.draw(st.sampled_from([frozenset(), frozenset(), frozenset(pair[:1])]))
            games.append(Game(number, pair, data.draw(st.sampled_from(POINTS)), absent))
        if pairing.bye:
            games.append(Game(number, (pairing.bye,), (1.0,)))


def test_round_one_is_top_half_against_bottom_half() -> None:
    ratings = {f"e{k}": 2000.0 - k for k in range(8)}
    pairing = swiss_pairs(ratings, [], ratings)
    assert pairing.pairs == [("e0", "e4"), ("e1", "e5"), ("e2", "e6"), ("e3", "e7")]
    assert pairing.bye is None


def test_a_rematch_is_transposed_away_within_the_group() -> None:
    ratings = {f"e{k}": 2000.0 - k for k in range(8)}
    games = [Game(1, ("e0", "e4"), (0.5, 0.5)), Game(1, ("e1", "e5"), (0.5, 0.5)),
             Game(1, ("e2", "e6"), (0.5, 0.5)), Game(1, ("e3", "e7"), (0.5, 0.5))]
    pairing = swiss_pairs(ratings, games, ratings)
    # One score group; S1 = e0..e3, S2 = e4..e7: e0 takes the next of S2 it has not met.
    assert [frozenset(p) for p in pairing.pairs] == [
        frozenset(p) for p in (("e0", "e5"), ("e1", "e4"), ("e2", "e7"), ("e3", "e6"))]


def test_the_absent_are_not_paired_and_get_no_bye() -> None:
    ratings = {"a": 1600.0, "b": 1500.0, "c": 1400.0, "d": 1300.0}
    pairing = swiss_pairs(ratings, [], {"a", "b", "d"})
    assert pairing.bye == "d" and pairing.pairs == [("a", "b")]
    assert swiss_pairs(ratings, [], {"a", "b", "d", "zed"}).bye == "d"  # not an entrant


def test_no_second_bye_while_someone_present_has_none() -> None:
    ratings = {"a": 1600.0, "b": 1500.0, "c": 1400.0}
    games = [Game(1, ("a", "b"), (1.0, 0.0)), Game(1, ("c",), (1.0,))]
    assert swiss_pairs(ratings, games, ratings).bye == "b"
    games += [Game(2, ("c", "a"), (1.0, 0.0)), Game(2, ("b",), (1.0,))]
    assert swiss_pairs(ratings, games, ratings).bye == "a"
    games += [Game(3, ("b", "c"), (1.0, 0.0)), Game(3, ("a",), (1.0,))]
    # Everyone has had one: the lowest again.
    assert swiss_pairs(ratings, games, ratings).bye == "c"


def test_rematches_only_when_unavoidable_and_as_few_as_can_be() -> None:
    ratings = {"a": 1600.0, "b": 1500.0, "c": 1400.0, "d": 1300.0}
    games = [Game(r, pair, (0.5, 0.5)) for r, pairs in enumerate(
        [(("a", "b"), ("c", "d")), (("a", "c"), ("b", "d")), (("a", "d"), ("b", "c"))], 1)
        for pair in pairs]
    assert len(swiss_pairs(ratings, games, ratings).pairs) == 2  # all must meet again


def test_seats_alternate() -> None:
    ratings = {"a": 1600.0, "b": 1500.0, "c": 1400.0, "d": 1300.0}
    first = swiss_pairs(ratings, [], ratings)
    assert first.pairs == [("a", "c"), ("b", "d")]
    games = [Game(1, ("a", "c"), (1.0, 0.0)), Game(1, ("b", "d"), (0.0, 1.0))]
    # a (sat first) meets d (sat second): d sits first now; so does c against b.
    assert swiss_pairs(ratings, games, ratings).pairs == [("d", "a"), ("c", "b")]
