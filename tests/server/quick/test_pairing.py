"""Rated quick match's pairing (basra.server.quick.pairing): the most pairs, then the smallest
sum of rating gaps; windows that widen with waiting and must suit both; no rematch in a row
while others wait; guests with guests and provisional players only."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from basra.server.quick.pairing import (
    EXACT_UP_TO,
    Seeker,
    _edges,
    group,
    may_meet,
    pair,
    window,
)


def ids(pairs: list[tuple[Seeker, Seeker]]) -> set[frozenset[str]]:
    return {frozenset((a.id, b.id)) for a, b in pairs}


def test_the_most_pairs_then_the_smallest_sum_of_gaps() -> None:
    near = [Seeker("a", 1500, 0), Seeker("b", 1510, 0), Seeker("c", 1600, 0),
            Seeker("d", 1620, 0)]
    assert ids(pair(near)) == {frozenset("ab"), frozenset("cd")}
    # Taking the closest two first (b, c: 10 apart) would leave a and d 110 apart, over
    # their windows: one pair. Two pairs of 50 are better.
    chain = [Seeker("a", 1500, 0), Seeker("b", 1550, 0), Seeker("c", 1560, 0),
             Seeker("d", 1610, 0)]
    assert ids(pair(chain)) == {frozenset("ab"), frozenset("cd")}


def test_windows_widen_with_waiting_and_must_suit_both() -> None:
    assert window(0) == 100 and window(5) == 200 and window(1000) == 800
    apart = [Seeker("a", 1500, 0), Seeker("b", 1750, 0)]
    assert pair(apart) == []
    assert ids(pair([Seeker("a", 1500, 8), Seeker("b", 1750, 8)])) == {frozenset("ab")}
    # One has waited long, the other just came: the newcomer's window is still narrow.
    assert pair([Seeker("a", 1500, 60), Seeker("b", 1750, 0)]) == []


def test_no_rematch_in_a_row_while_others_wait() -> None:
    a = Seeker("a", 1500, 0, last_opponent="b")
    b = Seeker("b", 1505, 0, last_opponent="a")
    c = Seeker("c", 1560, 0)
    got = ids(pair([a, b, c]))
    assert frozenset("ab") not in got and len(got) == 1
    # Nobody else: they may meet again rather than wait.
    assert ids(pair([a, b])) == {frozenset("ab")}


def test_guests_meet_guests_and_provisional_players_only() -> None:
    guest = Seeker("g", 1500, 0, guest=True)
    settled = Seeker("s", 1500, 0, provisional=False)
    new = Seeker("n", 1500, 0, provisional=True)
    other_guest = Seeker("h", 1520, 0, guest=True)
    assert not may_meet(guest, settled) and not may_meet(settled, guest)
    assert may_meet(guest, new) and may_meet(guest, other_guest)
    assert may_meet(settled, new)
    assert pair([guest, settled]) == []
    assert ids(pair([guest, settled, new])) in ({frozenset("gn")}, {frozenset("sn")})


def test_a_large_pool_pairs_everyone_it_can() -> None:
    pool = [Seeker(f"p{i}", 1400 + 7 * i, 5) for i in range(3 * EXACT_UP_TO)]
    pairs = pair(pool)
    assert len(pairs) == len(pool) // 2
    assert all(may_meet(a, b) for a, b in pairs)


def brute_force_most(pool: list[Seeker]) -> int:
    """The most pairs any matching of the pool's allowed edges makes."""
    near = _edges(pool)
    edges = [(i, j) for i in near for j in near[i] if i < j]
    for size in range(len(pool) // 2, 0, -1):
        for chosen in itertools.combinations(edges, size):
            ends = [x for e in chosen for x in e]
            if len(set(ends)) == len(ends):
                return size
    return 0


seekers = st.lists(st.builds(Seeker, id=st.text("abcdefgh", min_size=1, max_size=1),
                             rating=st.floats(1000, 2000), waited=st.floats(0, 40),
                             guest=st.booleans(), provisional=st.booleans()),
                   max_size=8, unique_by=lambda s: s.id)


@settings(max_examples=200, deadline=None)
@given(seekers)
def test_pairs_are_allowed_disjoint_and_as_many_as_can_be(pool: list[Seeker]) -> None:
    pairs = pair(pool)
    ends = [s.id for p in pairs for s in p]
    assert len(ends) == len(set(ends))
    assert all(may_meet(a, b) for a, b in pairs)
    assert len(pairs) == brute_force_most(pool)


# ------------------------------------------------------------------ tables of three or four

def solo(name: str, rating: float, waited: float = 0, party: str | None = None,
         **rest: bool) -> Seeker:
    return Seeker(name, rating, waited, party=party, **rest)


def test_three_alone_closest_in_rating_the_longest_waiting_first() -> None:
    pool = [solo("a", 1500, 9), solo("b", 1700, 8), solo("c", 1530, 1), solo("d", 1560, 2),
            solo("e", 1440, 3)]
    (table,) = group(pool, 3, False)
    # a, with the two making the smallest spread (c, d: 60; e, c would be 90), by wait
    assert [s.id for s in table] == ["a", "d", "c"]
    # Three within each other's windows or nobody: b is 170 from d, 200 from a.
    assert group([solo("a", 1500), solo("b", 1700), solo("d", 1560)], 3, False) == []


def test_partners_are_one_side_and_two_alone_the_other() -> None:
    pool = [solo("a", 1600, 5, "p"), solo("b", 1400, 5, "p"),  # mean 1500
            solo("c", 1490, 1), solo("d", 1520, 2)]
    (table,) = group(pool, 4, True)
    sides = {frozenset((table[0].id, table[2].id)), frozenset((table[1].id, table[3].id))}
    assert sides == {frozenset("ab"), frozenset("cd")}
    assert table[0].id in "ab"  # the longest waiting side sits first
    # A partner alone waits for the other.
    assert group(pool[:1] + pool[2:], 4, True) == []


def test_four_alone_split_into_the_closest_sides() -> None:
    pool = [solo("a", 1500, 4), solo("b", 1560, 3), solo("c", 1530, 2), solo("d", 1590, 1)]
    (table,) = group(pool, 4, True)
    # a + d (3090) v b + c (3090)
    assert (table[0].id, table[2].id) == ("a", "d") and {table[1].id, table[3].id} == {"b", "c"}


def sides_of(table: tuple[Seeker, ...]) -> list[list[Seeker]]:
    return [[table[0], table[2]], [table[1], table[3]]]


pools = st.lists(st.builds(Seeker, id=st.text("abcdefghijkl", min_size=1, max_size=1),
                           rating=st.floats(1200, 1800), waited=st.floats(0, 40),
                           guest=st.booleans(), provisional=st.booleans(),
                           party=st.sampled_from([None, None, None, "p", "q"])),
                 max_size=12, unique_by=lambda s: s.id)


@settings(max_examples=300, deadline=None)
@given(pools, st.sampled_from([(3, False), (4, False), (4, True)]))
def test_tables_are_whole_disjoint_and_within_everyones_window(
        pool: list[Seeker], seating: tuple[int, bool]) -> None:
    seats, teams = seating
    tables = group(pool, seats, teams)
    seated = [s.id for t in tables for s in t]
    assert len(seated) == len(set(seated))
    for table in tables:
        assert len(table) == seats
        if not teams:
            assert all(s.party is None for s in table)  # partners are for team pools
            assert all(may_meet(a, b) for a, b in itertools.combinations(table, 2))
            continue
        sides = sides_of(table)
        for side in sides:  # partners sit together, never against each other
            for s in side:
                assert s.party is None or all(o.party == s.party for o in side)
        gap = abs(sum(s.rating for s in sides[0]) / 2 - sum(s.rating for s in sides[1]) / 2)
        assert all(gap <= window(s.waited) for s in table)
        for a, b in itertools.combinations(table, 2):  # the guest rule between strangers
            if a.party is None or a.party != b.party:
                assert not ((a.guest and not (b.guest or b.provisional))
                            or (b.guest and not (a.guest or a.provisional)))
    # Nobody who could sit with the first table's players is left out for no reason: a
    # pool of four players alone, all guests, at one rating always makes a table.
    same = [Seeker(c, 1500, 0, guest=True) for c in "wxyz"]
    assert len(group(same, 4, teams)) == 1


def test_nobody_sits_with_a_player_they_block() -> None:
    a = Seeker("a", 1500, 9, avoid=frozenset("b"))
    b, c = Seeker("b", 1500, 9), Seeker("c", 1520, 1)
    assert not may_meet(a, b) and not may_meet(b, a)
    assert pair([a, b]) == []
    assert all({x.id, y.id} != {"a", "b"} for x, y in pair([a, b, c]))
    four = [a, b, c, Seeker("d", 1510, 2)]
    assert group(four, 4, True) == [] and group(four, 3, False) != []
    (table,) = group(four, 3, False)
    assert not {"a", "b"} <= {s.id for s in table}
