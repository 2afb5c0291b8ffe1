"""The arena's standings (basra.server.tournaments.arena): 2 a win, 1 a draw, doubled on
fire after two wins in a row; a draw or a loss puts the fire out; an absent entrant's game
scores 0; order by score, performance, rating, id."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from basra.server.tournaments.arena import ArenaRow, arena_standings
from basra.server.tournaments.games import Game

W, D, L, GONE = "W", "D", "L", "absent"
POINTS = {W: (1.0, 0.0), D: (0.5, 0.5), L: (0.0, 1.0), GONE: (1.0, 0.0)}


def played(*results: str, opponent: str = "opp") -> list[Game]:
    """``me`` against ``opponent`` wave after wave, each result from ``me``'s side (absent:
    me absent, the bot winning the seat's game)."""
    return [Game(wave, ("me", opponent), POINTS[r], frozenset({"me"}) if r == GONE
                 else frozenset()) for wave, r in enumerate(results, 1)]


def row(rows: list[ArenaRow], entrant: str) -> ArenaRow:
    return next(r for r in rows if r.entrant == entrant)


def me(*results: str) -> ArenaRow:
    return row(arena_standings({"me": 1500.0, "opp": 1500.0}, played(*results)), "me")


def test_the_streak_rule_by_hand() -> None:
    assert me(W, W, W, W, L, W).sheet == (2, 2, 4, 4, 0, 2)
    assert me(W, W, D, W).sheet == (2, 2, 2, 2)          # a draw on fire: 2, fire out
    assert me(W, W, W, D, W, W, W).sheet == (2, 2, 4, 2, 2, 2, 4)
    assert me(D, D, W, D).sheet == (1, 1, 2, 1)          # draws never light it
    assert me(W, L, W, L).sheet == (2, 0, 2, 0)


def test_fire_is_two_wins_in_a_row_now() -> None:
    assert not me(W).fire and me(W, W).fire and me(W, W, W).fire
    assert not me(W, W, D).fire and not me(W, W, L).fire and not me(W, W, GONE).fire


def test_an_absent_entrant_scores_nothing_and_loses_the_fire() -> None:
    line = me(W, W, GONE, W)
    assert line.sheet == (2, 2, 0, 2)
    assert (line.score, line.games, line.wins, line.draws, line.losses) == (6, 4, 3, 0, 1)
    # The seat's bot won, but the points are nobody's: the opponent scores as they played.
    assert row(arena_standings({"me": 1500.0, "opp": 1500.0}, played(GONE)), "opp").score == 0


def test_performance_is_the_mean_opponent_plus_400_per_net_win() -> None:
    games = [Game(1, ("a", "b"), (1.0, 0.0), ratings=(1500.0, 1600.0)),
             Game(2, ("c", "a"), (1.0, 0.0), ratings=(1400.0, 1500.0)),
             Game(3, ("a", "d"), (1.0, 0.0), ratings=(1500.0, 2000.0))]
    rows = arena_standings({"a": 1500.0, "b": 1600.0, "c": 1400.0, "d": 2000.0, "e": 1234.0},
                           games)
    assert row(rows, "a").performance == (1600 + 1400 + 2000 + 400 * (2 - 1)) / 3
    assert row(rows, "e").performance == 1234.0       # no games: their own rating
    # Without the ratings of the game, today's ratings stand in.
    rows = arena_standings({"a": 1500.0, "b": 1700.0}, [Game(1, ("a", "b"), (0.5, 0.5))])
    assert row(rows, "a").performance == 1700.0


def test_order_score_then_performance_then_rating_then_id() -> None:
    games = [Game(1, ("a", "b"), (1.0, 0.0)), Game(1, ("c", "d"), (1.0, 0.0))]
    ratings = {"a": 1500.0, "b": 1500.0, "c": 1500.0, "d": 1900.0, "e": 1600.0, "f": 1600.0,
               "g": 1700.0}
    rows = arena_standings(ratings, games)
    # c beat a stronger opponent than a did; among those with nothing, e/f/g have no
    # games: performance is their rating, and b and d lost.
    assert [r.entrant for r in rows] == ["c", "a", "g", "e", "f", "d", "b"]
    assert [r.rank for r in rows] == list(range(1, 8))
    assert row(rows, "d").performance == 1100.0


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("abcde"), st.sampled_from("abcde"),
                          st.sampled_from([W, D, L, GONE])), max_size=30))
def test_score_is_the_sheet_and_the_order_holds(plays: list[tuple[str, str, str]]) -> None:
    ratings = {"a": 1500.0, "b": 1600.0, "c": 1400.0, "d": 1500.0, "e": 1700.0}
    games = [Game(k, (x, y), POINTS[r], frozenset({x}) if r == GONE else frozenset())
             for k, (x, y, r) in enumerate(plays) if x != y]
    rows = arena_standings(ratings, games)
    assert sorted(r.entrant for r in rows) == sorted(ratings)
    for r in rows:
        assert r.score == sum(r.sheet) and r.games == len(r.sheet)
        assert r.wins + r.draws + r.losses == r.games
        assert all(p in (0, 1, 2, 4) for p in r.sheet)
    keys = [(-r.score, -r.performance, -ratings[r.entrant], r.entrant) for r in rows]
    assert keys == sorted(keys)
