"""Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2013), with lichess's
parameters: a new player starts at 1500 with deviation 500 and volatility 0.09, the system
constant tau is 0.75, the deviation is kept between 45 and 500, each game is a rating period
of its own, and a deviation grows with the days a player has not played (0.21436 rating
periods a day, as lichess counts). A rating is provisional (shown ``1500?``) while its
deviation is 110 or more.

The paper's worked example, with its own tau of 0.5 and no bounds on the deviation (the
paper prints 1464.06, 151.52 and 0.05999, from intermediate values it rounded):

>>> player = Rating(1500, 200, 0.06)
>>> games = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
>>> after = update(player, games, tau=0.5, bounded=False)
>>> round(after.rating, 2), round(after.deviation, 2), round(after.volatility, 6)
(1464.05, 151.52, 0.059996)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178
"""Glicko-2's conversion between the rating scale and its own (the paper's 173.7178)."""
START_RATING = 1500.0
START_DEVIATION = 500.0
START_VOLATILITY = 0.09
TAU = 0.75
LEAST_DEVIATION = 45.0
MOST_DEVIATION = 500.0
PROVISIONAL_FROM = 110.0
"""A deviation from this up marks a rating as provisional."""
PERIODS_PER_DAY = 0.21436
"""How many rating periods a day of not playing counts for (lichess's figure)."""
EPSILON = 0.000001
"""The convergence tolerance of the volatility's iteration (the paper's)."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating, its deviation and its volatility (on the rating scale)."""

    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY

    @property
    def provisional(self) -> bool:
        return self.deviation >= PROVISIONAL_FROM

    @property
    def label(self) -> str:
        """The rating as shown: ``1532``, or ``1500?`` while provisional.

        >>> Rating().label, Rating(1532.4, 60).label
        ('1500?', '1532')
        """
        return f"{round(self.rating)}{'?' if self.provisional else ''}"


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _bound(deviation: float) -> float:
    return min(MOST_DEVIATION, max(LEAST_DEVIATION, deviation))


def idle(rating: Rating, days: float, *, bounded: bool = True) -> Rating:
    """``rating`` after ``days`` without a rated game: its deviation grows as the paper's
    step 6 for a player who did not compete, once for each rating period elapsed.

    >>> round(idle(Rating(1500, 50, 0.06), 30).deviation, 1)
    56.6
    """
    periods = max(0.0, days) * PERIODS_PER_DAY
    if periods == 0:
        return rating
    phi = rating.deviation / SCALE
    grown = SCALE * math.sqrt(phi * phi + periods * rating.volatility ** 2)
    return Rating(rating.rating, _bound(grown) if bounded else grown, rating.volatility)


def _volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm as the paper gives it."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex)
                / (2 * (phi * phi + v + ex) ** 2)) - (x - a) / (tau * tau)

    low = a
    if delta * delta > phi * phi + v:
        high = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > EPSILON:
        c = low + (low - high) * f_low / (f_high - f_low)
        f_c = f(c)
        if f_c * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2
        high, f_high = c, f_c
    return math.exp(low / 2)


def update(player: Rating, results: Sequence[tuple[Rating, float]], *, tau: float = TAU,
           bounded: bool = True, periods: float = 1.0) -> Rating:
    """The player's rating after one rating period with ``results``: each an opponent's
    rating (as it was before the period) and the player's score against them (1 a win,
    0.5 a draw, 0 a loss). No results: only the deviation grows (step 6).

    ``periods``: how many rating periods of volatility step 6 adds to the deviation before
    the results count (the paper's 1; :func:`rate_game` passes 0, as lichess rates a game
    with ``skipDeviationIncrease``, the deviation having grown with the idle days instead).
    """
    mu = (player.rating - START_RATING) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not results:
        grown = SCALE * math.sqrt(phi * phi + periods * sigma * sigma)
        return Rating(player.rating, _bound(grown) if bounded else grown, sigma)
    total = 0.0
    improvement = 0.0
    for opponent, score in results:
        mu_j = (opponent.rating - START_RATING) / SCALE
        phi_j = opponent.deviation / SCALE
        g = _g(phi_j)
        e = _expected(mu, mu_j, phi_j)
        total += g * g * e * (1 - e)
        improvement += g * (score - e)
    v = 1 / total
    delta = v * improvement
    new_sigma = _volatility(phi, sigma, v, delta, tau)
    phi_star = math.sqrt(phi * phi + periods * new_sigma * new_sigma)
    new_phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    new_mu = mu + new_phi * new_phi * improvement
    deviation = SCALE * new_phi
    return Rating(SCALE * new_mu + START_RATING, _bound(deviation) if bounded else deviation,
                  new_sigma)


def rate_game(first: Rating, second: Rating, first_score: float, *,
              first_idle_days: float = 0.0, second_idle_days: float = 0.0
              ) -> tuple[Rating, Rating]:
    """A rated two-player game, its own rating period (as lichess rates): each side's
    deviation first grows with the days it did not play (:func:`idle`), then both are
    updated against each other's rating from before the game, with no further growth in
    step 6 (lichess's ``skipDeviationIncrease``: else a volatility of 0.09 would hold a
    regular player's deviation in the 70s, and hardly anyone would reach a leaderboard).
    ``first_score``: 1, 0.5 or 0.

    >>> a, b = rate_game(Rating(), Rating(), 1.0)
    >>> round(a.rating), round(b.rating), a.provisional
    (1741, 1259, True)
    """
    (first_after,), (second_after,) = rate_sides(
        [[first], [second]], [0, 0] if first_score == 0.5 else [0, 1] if first_score else [1, 0],
        [[first_idle_days], [second_idle_days]])
    return first_after, second_after


def side_rating(side: Sequence[Rating]) -> Rating:
    """A side of partners as one opponent: the mean of their ratings, the root mean square
    of their deviations (how unsure that mean is, for ``g``), the mean volatility. A side
    of one player is that player's rating.

    >>> side_rating([Rating(1600, 60), Rating(1400, 80)])
    Rating(rating=1500.0, deviation=70.71067811865476, volatility=0.09)
    """
    count = len(side)
    return Rating(sum(r.rating for r in side) / count,
                  math.sqrt(sum(r.deviation ** 2 for r in side) / count),
                  sum(r.volatility for r in side) / count)


def rate_sides(sides: Sequence[Sequence[Rating]], places: Sequence[int],
               idle_days: Sequence[Sequence[float]] | None = None) -> list[list[Rating]]:
    """A rated match of any seating, its own rating period: **each player against each
    other side's mean** (:func:`side_rating`), as separate results in that one period.
    ``sides``: each side's players' ratings; ``places``: each side's place at the end (0 the
    winner; sides with equal places drew), so a side scores 1 against every side placed
    below it, 0.5 against one placed equal and 0 against one above. Each player's deviation
    first grows with their idle days, as :func:`rate_game`'s do; opponents are taken as
    they were before the match.

    Why this rule: a two-player match gives :func:`rate_game`'s result exactly; a partner's
    rating never moves a player's (each is rated on how their side did against the sides
    they faced, the opponents' strength as the side's mean, the usual measure of a team's
    strength); and three or four players alone are each as many games as opponents, which
    is how a game of several rated players is commonly rated in Glicko (one period, a
    result against each). Partners on a winning side both gain, more the less sure their
    own rating is.

    >>> three = rate_sides([[Rating(1500, 60)]] * 3, [0, 1, 2])  # three alone
    >>> [round(r.rating) for (r,) in three]
    [1519, 1500, 1481]
    >>> teams = rate_sides([[Rating(1500, 60), Rating(1500, 200)], [Rating(1500, 60)] * 2],
    ...                    [0, 1])
    >>> [[round(r.rating) for r in side] for side in teams]
    [[1510, 1586], [1491, 1491]]
    """
    days = idle_days or [[0.0] * len(side) for side in sides]
    grown = [[idle(r, d) for r, d in zip(side, ds, strict=True)]
             for side, ds in zip(sides, days, strict=True)]
    means = [side_rating(side) for side in grown]
    out: list[list[Rating]] = []
    for s, side in enumerate(grown):
        results = [(means[t], 1.0 if places[s] < places[t] else
                    0.5 if places[s] == places[t] else 0.0)
                   for t in range(len(grown)) if t != s]
        out.append([update(r, results, periods=0) for r in side])
    return out


__all__ = ["Rating", "idle", "rate_game", "rate_sides", "side_rating", "update"]
