"""The arena's pairing of whoever is free (basra.server.tournaments.arena.arena_pairs):
no immediate rematch while others wait, as many pairs as can be (brute force), the odd one
out the one who waited least, pairs close in the standings."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from basra.server.tournaments.arena import Free, arena_pairs
from server.tournaments.brute import most_pairs


def may_meet(a: Free, b: Free, free: list[Free]) -> bool:
    """The rule, written again: not each other's last opponent unless only two are free."""
    again = a.last_opponent == b.entrant or b.last_opponent == a.entrant
    return len(free) == 2 or not again


def checked(free: list[Free]) -> list[tuple[str, str]]:
    """The pairs, after the checks every pairing passes."""
    pairs = arena_pairs(free)
    by_id = {f.entrant: f for f in free}
    seen = [e for pair in pairs for e in pair]
    assert len(seen) == len(set(seen)) and set(seen) <= set(by_id)
    for a, b in pairs:
        assert a != b and may_meet(by_id[a], by_id[b], free)
        assert by_id[a].rank <= by_id[b].rank        # better ranked first
    return pairs


@st.composite
def free_lists(draw: st.DrawFn, most: int = 9) -> list[Free]:
    count = draw(st.integers(0, most))
    names = [f"e{k}" for k in range(count)]
    ranks = draw(st.permutations(range(1, count + 1)))
    out = []
    for k, name in enumerate(names):
        last = draw(st.sampled_from([None, *names, "gone"]))
        out.append(Free(name, ranks[k], draw(st.sampled_from([1400.0, 1500.0, 1600.0])),
                        None if last == name else last, draw(st.sampled_from([0.0, 1.0, 5.0]))))
    return out


def test_the_same_opponent_twice_in_a_row_only_when_nobody_else_is_free() -> None:
    a = Free("a", 1, 1600.0, "b", 5.0)
    b = Free("b", 2, 1590.0, "a", 5.0)
    c = Free("c", 3, 1580.0, None, 5.0)
    d = Free("d", 4, 1570.0, None, 5.0)
    assert arena_pairs([a, b, c, d]) == [("a", "c"), ("b", "d")]
    assert arena_pairs([a, b]) == [("a", "b")]
    # One-sided is enough: c's last opponent was a, a's someone else since.
    assert arena_pairs([Free("a", 1, 1600.0, "x", 5.0), Free("c", 2, 1590.0, "a", 5.0),
                        Free("d", 3, 1580.0, None, 5.0)]) == [("a", "d")]


def test_the_odd_one_out_is_the_one_who_waited_least() -> None:
    free = [Free("a", 1, 1600.0, None, 9.0), Free("b", 2, 1590.0, None, 0.5),
            Free("c", 3, 1580.0, None, 9.0), Free("d", 4, 1570.0, None, 0.5),
            Free("e", 5, 1560.0, None, 9.0)]
    pairs = arena_pairs(free)
    # b and d waited least; d is lower in the standings, so d waits on.
    assert "d" not in {e for pair in pairs for e in pair} and len(pairs) == 2
    # Unless the rest could not all be paired without d: e may meet d only (a, b and c
    # last played e, and e last played c).
    free = [Free("a", 1, 1600.0, "e", 9.0), Free("b", 2, 1590.0, "e", 0.5),
            Free("c", 3, 1580.0, "e", 9.0), Free("d", 4, 1570.0, None, 0.5),
            Free("e", 5, 1560.0, "c", 9.0)]
    assert arena_pairs(free) == [("a", "c"), ("d", "e")]


def test_sorted_free_lists_pair_neighbours() -> None:
    free = [Free(f"e{k:02d}", k, 2000.0 - 10 * k, None, 1.0) for k in range(1, 41)]
    assert arena_pairs(free) == [(f"e{k:02d}", f"e{k + 1:02d}") for k in range(1, 41, 2)]


@settings(max_examples=400, deadline=None)
@given(free_lists())
def test_as_many_pairs_as_can_be_and_the_right_one_left_out(free: list[Free]) -> None:
    pairs = checked(free)
    assert len(pairs) == most_pairs(free, lambda a, b: may_meet(a, b, free))
    if len(free) % 2 and 2 * len(pairs) == len(free) - 1:
        out = next(f for f in free if f.entrant not in {e for p in pairs for e in p})
        could = [f for f in free if most_pairs(
            [g for g in free if g is not f], lambda a, b: may_meet(a, b, free)) == len(pairs)]
        assert out == min(could, key=lambda f: (f.waited, -f.rank, f.entrant))


@settings(max_examples=50, deadline=None)
@given(st.integers(50, 400), st.integers(0, 2**32))
def test_pairs_are_close_in_the_standings(count: int, seed: int) -> None:
    """Free lists as an arena makes them: most just finished a game together (each the
    other's last opponent), a few have not played yet."""
    rng = random.Random(seed)
    names = [f"e{k}" for k in range(count)]
    shuffled = rng.sample(names, count)
    last = dict(zip(shuffled[::2], shuffled[1::2], strict=False))
    last |= {b: a for a, b in last.items()}
    free = [Free(name, k + 1, rng.gauss(1500.0, 300.0),
                 last.get(name) if rng.random() < 0.9 else None, rng.uniform(0, 30))
            for k, name in enumerate(names)]
    pairs = checked(free)
    assert len(pairs) == count // 2
    rank = {f.entrant: f.rank for f in free}
    gaps = [rank[b] - rank[a] for a, b in pairs]
    assert sum(gaps) / len(gaps) < 3.0 and max(gaps) < 12
