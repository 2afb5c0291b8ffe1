"""The matching under both pairing systems (basra.server.tournaments.matching): maximum,
and exact when asked whether a pair may be taken or a player may leave, against brute
force on small random graphs."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from basra.server.tournaments.matching import FREE, Matching
from server.tournaments.brute import most_pairs


@st.composite
def graphs(draw: st.DrawFn) -> list[set[int]]:
    """Whom each of up to 10 players may not meet (symmetric), sparse to dense."""
    count = draw(st.integers(1, 10))
    apart: list[set[int]] = [set() for _ in range(count)]
    for a in range(count):
        for b in range(a + 1, count):
            if draw(st.booleans()):
                apart[a].add(b)
                apart[b].add(a)
    return apart


def maximum(apart: list[set[int]], without: frozenset[int] = frozenset()) -> int:
    players = [v for v in range(len(apart)) if v not in without]
    return most_pairs(players, lambda a, b: b not in apart[a])


def valid(matching: Matching, apart: list[set[int]]) -> None:
    mate = matching.mate
    for v, w in enumerate(mate):
        if w != FREE:
            assert mate[w] == v and w not in apart[v]
    assert sum(w != FREE for w in mate) == 2 * matching.size


@settings(max_examples=300, deadline=None)
@given(graphs(), st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9)), max_size=6))
def test_complete_makes_the_matching_maximum_from_any_seed(
        apart: list[set[int]], seeds: list[tuple[int, int]]) -> None:
    matching = Matching(range(len(apart)), apart)
    matching.seed((a, b) for a, b in seeds if a < len(apart) and b < len(apart))
    assert matching.complete() == maximum(apart)
    valid(matching, apart)


@settings(max_examples=300, deadline=None)
@given(graphs(), st.data())
def test_take_answers_whether_the_rest_loses_only_that_pair(
        apart: list[set[int]], data: st.DataObject) -> None:
    matching = Matching(range(len(apart)), apart)
    size = matching.complete()
    pairs = [(a, b) for a in range(len(apart)) for b in range(a + 1, len(apart))
             if b not in apart[a]]
    if not pairs:
        return
    x, y = data.draw(st.sampled_from(pairs))
    expected = maximum(apart, frozenset({x, y})) == size - 1
    assert matching.take(x, y) is expected
    valid(matching, apart)
    if expected:
        assert matching.size == size - 1 and x not in matching.free()
    else:
        assert matching.size == size and matching.count == len(apart)


@settings(max_examples=300, deadline=None)
@given(graphs(), st.data())
def test_leave_answers_whether_the_rest_keeps_every_pair(
        apart: list[set[int]], data: st.DataObject) -> None:
    matching = Matching(range(len(apart)), apart)
    size = matching.complete()
    x = data.draw(st.integers(0, len(apart) - 1))
    expected = maximum(apart, frozenset({x})) == size
    assert matching.leave(x) is expected
    valid(matching, apart)
    assert matching.size == size
    anyway = Matching(range(len(apart)), apart)
    anyway.complete()
    assert anyway.leave(x, keep=False)
    valid(anyway, apart)
    assert anyway.size == maximum(apart, frozenset({x})) and anyway.count == len(apart) - 1
