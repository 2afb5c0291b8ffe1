"""Glicko-2 (basra.ratings) against Glickman's worked example, against an independent
computation kept here (the volatility found by bisection on the paper's function, not by
the Illinois iteration), lichess's parameters and bounds, and idle-time growth."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from basra.ratings import (
    LEAST_DEVIATION,
    MOST_DEVIATION,
    PERIODS_PER_DAY,
    Rating,
    idle,
    rate_game,
    update,
)


def reference(player: Rating, results: list[tuple[Rating, float]], tau: float,
              periods: float = 1.0) -> tuple[float, float, float]:
    """The paper's steps 2-8 written out again, the volatility solved by bisection
    (``periods``: how many periods of volatility step 6 adds; lichess rates a game with 0)."""
    q = 173.7178
    mu, phi, sigma = (player.rating - 1500) / q, player.deviation / q, player.volatility
    gs = [1 / math.sqrt(1 + 3 * (o.deviation / q) ** 2 / math.pi ** 2) for o, _ in results]
    es = [1 / (1 + math.exp(-g * (mu - (o.rating - 1500) / q)))
          for g, (o, _) in zip(gs, results, strict=True)]
    v = 1 / sum(g * g * e * (1 - e) for g, e in zip(gs, es, strict=True))
    delta = v * sum(g * (s - e) for g, e, (_, s) in zip(gs, es, results, strict=True))
    a = math.log(sigma ** 2)

    def f(x: float) -> float:
        return (math.exp(x) * (delta ** 2 - phi ** 2 - v - math.exp(x))
                / (2 * (phi ** 2 + v + math.exp(x)) ** 2) - (x - a) / tau ** 2)

    # f falls from positive to negative across its root: bracket it, then halve.
    low = high = a
    while f(low) < 0:
        low -= tau
    while f(high) > 0:
        high += tau
    for _ in range(200):
        mid = (low + high) / 2
        if f(mid) > 0:
            low = mid
        else:
            high = mid
    new_sigma = math.exp(low / 2)
    phi_star = math.sqrt(phi ** 2 + periods * new_sigma ** 2)
    new_phi = 1 / math.sqrt(1 / phi_star ** 2 + 1 / v)
    new_mu = mu + new_phi ** 2 * sum(g * (s - e)
                                     for g, e, (_, s) in zip(gs, es, results, strict=True))
    return q * new_mu + 1500, q * new_phi, new_sigma


def test_the_papers_worked_example() -> None:
    """Glickman's example (tau 0.5): 1464.06, 151.52, 0.05999 as printed."""
    player = Rating(1500, 200, 0.06)
    games = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    after = update(player, games, tau=0.5, bounded=False)
    assert abs(after.rating - 1464.06) < 0.02
    assert abs(after.deviation - 151.52) < 0.01
    assert abs(after.volatility - 0.05999) < 0.00001


def test_a_series_of_games_agrees_with_the_independent_computation() -> None:
    rng = random.Random(7)
    player = Rating()
    for _ in range(60):
        opponent = Rating(rng.uniform(900, 2300), rng.uniform(45, 350), rng.uniform(0.04, 0.1))
        score = rng.choice([0.0, 0.5, 1.0])
        ours = update(player, [(opponent, score)], bounded=False)
        theirs = reference(player, [(opponent, score)], tau=0.75)
        assert ours.rating == pytest.approx(theirs[0], abs=1e-3)
        assert ours.deviation == pytest.approx(theirs[1], abs=1e-3)
        assert ours.volatility == pytest.approx(theirs[2], abs=1e-6)
        player = ours


def test_a_game_is_rated_as_lichess_rates_one() -> None:
    """rate_game: the idle days' growth first, then step 6 adds nothing (lichess's
    skipDeviationIncrease), against the independent computation."""
    rng = random.Random(11)
    a, b = Rating(), Rating(1650, 120, 0.07)
    for _ in range(40):
        days = rng.choice([0.0, 0.5, 3.0, 40.0])
        score = rng.choice([0.0, 0.5, 1.0])
        grown_a, grown_b = idle(a, days), b
        want_a = reference(grown_a, [(grown_b, score)], tau=0.75, periods=0)
        want_b = reference(grown_b, [(grown_a, 1 - score)], tau=0.75, periods=0)
        a, b = rate_game(a, b, score, first_idle_days=days)
        for got, want in ((a, want_a), (b, want_b)):
            assert got.rating == pytest.approx(want[0], abs=1e-3)
            assert got.deviation == pytest.approx(max(45.0, want[1]), abs=1e-3)
            assert got.volatility == pytest.approx(want[2], abs=1e-6)


def test_regular_players_settle_enough_for_the_leaderboard() -> None:
    """Players who play every day settle well under the leaderboard's 75 (with the
    paper's step 6 each game, volatility 0.09 would hold them in the 70s for ever)."""
    rng = random.Random(3)
    players = [Rating() for _ in range(6)]
    for _ in range(300):
        i, j = rng.sample(range(6), 2)
        players[i], players[j] = rate_game(players[i], players[j], rng.choice([0.0, 1.0]),
                                           first_idle_days=0.2, second_idle_days=0.2)
    assert all(p.deviation < 75 for p in players), [round(p.deviation) for p in players]
    assert all(not p.provisional for p in players)
    stuck, settled = Rating(), Rating()
    rival = Rating(1500, 45, 0.09)
    for n in range(300):  # the same games, step 6 each game or not
        stuck = update(stuck, [(rival, float(n % 2))])
        settled = rate_game(settled, rival, float(n % 2))[0]
    assert stuck.deviation > 70 and settled.deviation < 50


def test_lichess_parameters_and_the_deviation_bounds() -> None:
    new = Rating()
    assert (new.rating, new.deviation, new.volatility) == (1500, 500, 0.09)
    assert new.provisional and new.label == "1500?"
    assert not Rating(1612.6, 109.9).provisional and Rating(1612.6, 109.9).label == "1613"
    assert Rating(1612.6, 110).label == "1613?"
    # A steady player's deviation stops at 45, never below; an idle one's at 500.
    steady, other = Rating(1500, 46, 0.001), Rating(1500, 45, 0.06)
    for i in range(50):
        steady = update(steady, [(other, float(i % 2))])
    assert steady.deviation == LEAST_DEVIATION
    unbounded = update(Rating(1500, 40, 0.001), [(other, 1.0)], bounded=False)
    assert unbounded.deviation < LEAST_DEVIATION
    assert update(Rating(1500, 499.9, 0.09), []).deviation == MOST_DEVIATION


def test_the_deviation_grows_with_idle_days_as_rating_periods() -> None:
    settled = Rating(1800, 60, 0.06)
    assert idle(settled, 0) == settled
    month = idle(settled, 30)
    phi = 60 / 173.7178
    expected = 173.7178 * math.sqrt(phi ** 2 + 30 * PERIODS_PER_DAY * 0.06 ** 2)
    assert month.deviation == pytest.approx(expected)
    assert month.rating == 1800 and month.volatility == 0.06
    assert idle(settled, 365) .deviation > idle(settled, 30).deviation
    assert idle(settled, 100_000).deviation == MOST_DEVIATION  # bounded
    # A game after a long pause moves the rating more than one after none.
    fresh = rate_game(settled, Rating(1800, 60, 0.06), 1.0)[0]
    rusty = rate_game(settled, Rating(1800, 60, 0.06), 1.0, first_idle_days=365)[0]
    assert rusty.rating - 1800 > fresh.rating - 1800 > 0


@given(st.floats(800, 2400), st.floats(45, 500), st.floats(800, 2400), st.floats(45, 500),
       st.sampled_from([0.0, 0.5, 1.0]))
def test_a_game_moves_both_sides_the_right_way(r1: float, d1: float, r2: float, d2: float,
                                               score: float) -> None:
    a, b = rate_game(Rating(r1, d1), Rating(r2, d2), score)
    if score == 1.0:
        assert a.rating > r1 and b.rating < r2
    elif score == 0.0:
        assert a.rating < r1 and b.rating > r2
    for after in (a, b):
        assert LEAST_DEVIATION <= after.deviation <= MOST_DEVIATION
        assert math.isfinite(after.rating) and 0 < after.volatility < 1
