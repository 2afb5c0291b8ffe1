"""Engine assistance: does a player agree with the expert more than their rating explains?

For every rated match the server stores the expert's analysis (:mod:`basra.match.analysis`,
basra-analysis/1). From it, :func:`summarise` keeps one seat's game in a few numbers (a
:class:`GameSummary`, stored too): its decisions with a choice, the points they gave away,
and, for each of the :data:`CLASSES` of decision, how many were *clear* and how many of
those it played as the expert's best. :func:`assess` reads a player's last :data:`GAMES`
rated games with their rating and says whether the record is implausible for an honest
player of that rating, with the reason in plain words. It only reports: a flag is a
question for a moderator, never a punishment.

**The rule.**

- A decision is *clear* when the expert's best play is worth at least :data:`CLEAR_GAP`
  (1 point of round margin) more than the runner-up (``best_value - second_value``: the
  best value of the plays valued below the best), as a play that gives a point away is a
  mistake in the analysis's words. A document without ``second_value`` (made before it
  existed) has no clear decision. A clear decision is *agreed* when the play made cost
  nothing (it was the best, or as good).
- Clear decisions fall in :data:`CLASSES`: the deal of the round they are in (by deals
  before the last) and whether the best play takes or lays a card down. Honest players
  and the expert differ most in the early deals and on which card to lay down; in the last
  deal of two players the hard bot plays exactly as the expert does.
- Over the last :data:`GAMES` games, with ``n_c`` clear decisions of class ``c`` of which
  ``k_c`` agreed, ``m`` decisions with a choice and ``C`` points given away, an honest
  player of strength ``r`` (:class:`Honest`) is expected to agree on a share ``a_c(r)``
  (:data:`AGREEMENT`) where the expert agrees on ``e_c`` (:data:`EXPERT_AGREEMENT`), and
  to give away ``c(r)`` points a decision (:data:`COST`):

  - agreement: each class counts with the weight ``w_c = (e_c - a_c) / (a_c (1 - a_c))``
    (the evidence one agreement gives for a player who takes the expert's play; none below
    zero), ``z_agree = sum w_c (k_c - n_c a_c) / sqrt(D sum w_c^2 n_c a_c (1 - a_c) +
    (s(r) sum w_c n_c)^2)`` with ``D`` the :data:`AGREEMENT_DISPERSION` (a game's
    decisions are not coins) and ``s(r)`` the :data:`AGREEMENT_SPREAD` (how much honest
    players of one strength differ);
  - cost: ``z_cost = (c(r) - C/m) / sqrt(d(r)^2 / m + t(r)^2)`` with ``d(r)`` a decision's
    deviation (:data:`COST_DEVIATION`) and ``t(r)`` the spread between players
    (:data:`COST_SPREAD`);
  - the score at ``r`` is ``AGREEMENT_WEIGHT * z_agree + (1 - AGREEMENT_WEIGHT) * z_cost``
    (0.9 and 0.1: the cost adds little once the agreement is counted, as both come from
    the same plays);
  - a rating is not a strength: the record's score is the *least* score at the strengths
    within :data:`RATING_MARGIN` (80) of the rating (twice how far a steady player's
    Glicko-2 rating wanders from their strength), so a record is flagged only when no
    honest player the rating allows would have made it; it is **flagged** when that score
    reaches :data:`THRESHOLD` with at least :data:`MIN_CLEAR` clear decisions.

An honest expert-level player (the expert bot itself) agrees as an assisted one does: it
*is* the engine. The rating tells them apart: a player rated as the expert is expected to
agree as often as the expert (``w_c`` falls to zero there), so only a player who agrees far
more than their rating allows is flagged. The other side of it: a player whose rating has
caught up with the help they take looks like an honest player of that rating, and is hardly
ever flagged.

**The numbers** are fitted by simulation (``benchmarks/assist_detection.py``;
docs/BENCHMARKS.md, "Engine-assistance detection"): bots of every level played 450
two-player egyptian matches, each analysed at the server's budget; honest players are made
from them (bots of every level, and human-like players: mixtures of two neighbouring levels
below the expert with slips) and assisted ones (a human-like player who plays a share of
decisions as the expert did). ``--fit`` gives the model from honest players rated exactly
as strong as they play, and the threshold is the score that 1 honest player in 1,000
reaches at some point of their first 20 rated games when ratings wander as Glicko-2's do
(3.22 to 3.25 over three seeds of 100,000 players; 3.3 shipped). At that threshold about
72% of the players assisted on half their decisions are flagged within 20 games, 94% of
those assisted on three quarters, 96% of those assisted on all; the issue's goal of 90% at
half is not met. The model was fitted on two-player egyptian matches; other variants and
seatings are judged by the same numbers, which is rougher.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from basra.game.rules import find_variant
from basra.match.analysis import FORMAT as ANALYSIS_FORMAT

GAMES = 20
"""How many of a player's last rated games are assessed."""
CLEAR_GAP = 1.0
"""Points by which the best play must beat the runner-up for a decision to be clear."""
AGREED = 0.0005
"""A play that cost at most this (the document rounds to thousandths) agreed with the
best."""
MIN_CLEAR = 150
"""Clear decisions needed before a record can be flagged (three or four games)."""
PHASES = ("the last deal", "1 deal before the last", "2 deals before the last",
          "3 deals before the last", "4 deals before the last", "5 deals before the last")
"""Where a decision is in its round, by deals before the round's last (two players deal six
times a round; three or four, fewer)."""
CLASSES = tuple(f"{phase}, the best play {kind}" for phase in PHASES
                for kind in ("takes", "lays a card down"))
"""The classes of clear decisions: :data:`PHASES` by what the best play does."""

LEVEL_RATINGS: Mapping[str, float] = {
    "random": 988.0, "easy": 1318.0, "medium": 1500.0, "hard": 1691.0, "expert": 1792.0}
"""The bot levels on the rating scale, for the model: medium at 1500 (where a new player
starts), the others by their match wins against the level below in docs/BENCHMARKS.md
(Elo's ``400 log10(p / (1 - p))``: medium beats easy in 74% of matches, +182; hard beats
medium in 75%, +191; the expert beats hard in 64.2%, +102; easy beats random in 87%, +330,
as hard beats easy by as many points a round)."""

# The rating model: fitted by `benchmarks/assist_detection.py --fit` (seed 1; 100,000
# honest simulated players rated exactly as strong as they play; the corpus
# benchmarks/data/assist_corpus.json.gz, 450 matches).
RATINGS: tuple[float, ...] = (1000.0, 1100.0, 1200.0, 1300.0, 1400.0, 1500.0, 1600.0,
                              1700.0, 1800.0)
"""The ratings at which the model's figures are given (linear between, the nearest one's
beyond)."""
AGREEMENT: tuple[tuple[float, ...], ...] = (
    # the last deal, the best play takes
    (0.4449, 0.5448, 0.7011, 0.7999, 0.8002, 0.8669, 0.9551, 0.9992, 0.9968),
    # the last deal, the best play lays a card down
    (0.5539, 0.5695, 0.5376, 0.5056, 0.6097, 0.743, 0.915, 0.9994, 1.0),
    # 1 deal before the last, the best play takes
    (0.3916, 0.4922, 0.6441, 0.7835, 0.7938, 0.807, 0.7846, 0.7669, 0.8333),
    # 1 deal before the last, the best play lays a card down
    (0.474, 0.4843, 0.4453, 0.4115, 0.4748, 0.5048, 0.5631, 0.5762, 0.7267),
    # 2 deals before the last, the best play takes
    (0.3696, 0.48, 0.6369, 0.7866, 0.8061, 0.8242, 0.7515, 0.7276, 0.8353),
    # 2 deals before the last, the best play lays a card down
    (0.3982, 0.3853, 0.3653, 0.3572, 0.4117, 0.4701, 0.5275, 0.5341, 0.6332),
    # 3 deals before the last, the best play takes
    (0.3481, 0.5052, 0.6787, 0.8629, 0.8748, 0.8579, 0.7837, 0.7476, 0.9419),
    # 3 deals before the last, the best play lays a card down
    (0.3186, 0.3323, 0.3579, 0.3745, 0.4448, 0.5213, 0.5634, 0.5879, 0.8308),
    # 4 deals before the last, the best play takes
    (0.3454, 0.4938, 0.699, 0.8729, 0.8707, 0.8496, 0.7488, 0.7266, 0.9422),
    # 4 deals before the last, the best play lays a card down
    (0.4252, 0.4185, 0.399, 0.3942, 0.4704, 0.5289, 0.5767, 0.5868, 0.7727),
    # 5 deals before the last, the best play takes
    (0.3639, 0.5101, 0.6763, 0.8475, 0.8524, 0.832, 0.713, 0.6761, 0.9258),
    # 5 deals before the last, the best play lays a card down
    (0.4364, 0.4215, 0.4115, 0.4061, 0.4836, 0.5347, 0.5621, 0.5746, 0.7969),
)
"""For each of :data:`CLASSES`, the share of its clear decisions an honest player agrees
on, at each of :data:`RATINGS` (the mean of the simulated honest players within 50 points
of it)."""
EXPERT_AGREEMENT: tuple[float, ...] = (0.9969, 1.0, 0.833, 0.7272, 0.8353, 0.6338, 0.9408,
                                       0.8304, 0.942, 0.7728, 0.925, 0.7955)
"""For each of :data:`CLASSES`, the share of its clear decisions the expert bot agrees on
(at 3,000 iterations a play, against the analysis at the server's 300)."""
AGREEMENT_DISPERSION = 0.98
"""How much more than a coin's the agreement of a game's clear decisions varies (a
variance's ratio: 1 is a coin's)."""
AGREEMENT_SPREAD: tuple[float, ...] = (0.005, 0.0174, 0.0068, 0.0102, 0.0103, 0.0061, 0.0092,
                                       0.0058, 0.005)
"""How much honest players of one strength differ in (weighted) agreement, beyond their
games' chance: a standard deviation, at each of :data:`RATINGS`."""
COST: tuple[float, ...] = (3.272, 2.933, 2.417, 1.982, 1.714, 1.364, 1.14, 0.9877, 0.4603)
"""The points an honest player's decision with a choice gives away, at each rating."""
COST_DEVIATION: tuple[float, ...] = (8.737, 8.294, 7.452, 6.505, 6.203, 5.363, 4.058, 3.338,
                                     1.807)
"""The standard deviation of one decision's cost (a game's decisions counted together),
at each rating."""
COST_SPREAD: tuple[float, ...] = (0.0791, 0.1242, 0.1115, 0.0798, 0.0968, 0.0687, 0.0501, 0.005,
                                  0.0083)
"""How much honest players of one strength differ in cost a decision, at each rating."""
AGREEMENT_WEIGHT = 0.9
"""The agreement's part of the score (the cost's is the rest)."""
THRESHOLD = 3.3
"""The score from which a record is flagged: 1 honest player in 1,000 reaches it."""
RATING_MARGIN = 80.0
"""How far a rating may be from the player's strength: twice the standard deviation of a
steady player's rating about its strength (Glicko-2 as the site rates, simulated:
``benchmarks/assist_detection.py``'s ``RATING_NOISE``)."""
RATING_STEP = 40.0
"""The strengths tried within :data:`RATING_MARGIN` of a rating are this far apart."""
SURE = 0.01
"""An expected agreement is taken between this and 1 less this (a class every honest
player of a rating agrees on still leaves room for a slip)."""


def class_of(deals_left: int, best_lays_down: bool) -> int:
    """The index in :data:`CLASSES` of a clear decision ``deals_left`` deals before the
    round's last (0: in the last deal) whose best play lays a card down or takes."""
    return 2 * min(deals_left, len(PHASES) - 1) + best_lays_down


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One seat's game as :func:`summarise` reads it from the analysis (what is stored)."""

    decisions: int
    """Plays with more than one legal choice."""
    cost: float
    """Points given away over every decision, on the expert's reckoning."""
    clear: tuple[int, ...] = (0,) * len(CLASSES)
    """For each of :data:`CLASSES`, the decisions whose best play beat the runner-up by
    :attr:`gap` points or more."""
    agreed: tuple[int, ...] = (0,) * len(CLASSES)
    """For each of :data:`CLASSES`, the clear decisions played as the best (at no cost)."""
    gap: float = CLEAR_GAP
    """The gap that made a decision clear: a summary made with another gap than
    :data:`CLEAR_GAP` counts no clear decision in :func:`assess`."""

    @property
    def total_clear(self) -> int:
        return sum(self.clear)

    @property
    def total_agreed(self) -> int:
        return sum(self.agreed)

    def to_json(self) -> dict[str, object]:
        return {"decisions": self.decisions, "cost": round(self.cost, 3),
                "clear": list(self.clear), "agreed": list(self.agreed), "gap": self.gap}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameSummary:
        """The summary :meth:`to_json` wrote; ``ValueError`` for anything else."""
        try:
            decisions, cost, gap = data["decisions"], data["cost"], data["gap"]
            clear, agreed = list(data["clear"]), list(data["agreed"])
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not a game summary: {exc!r}") from None
        if not all(type(c) is int and c >= 0 for c in (decisions, *clear, *agreed)):
            raise ValueError("a game summary's counts are whole numbers from 0")
        if not all(isinstance(x, int | float) and not isinstance(x, bool) and x >= 0
                   and math.isfinite(x) for x in (cost, gap)):
            raise ValueError("a game summary's cost and gap are numbers from 0")
        if len(clear) != len(CLASSES) or len(agreed) != len(CLASSES):
            raise ValueError(f"a game summary counts {len(CLASSES)} classes of decision")
        if sum(clear) > decisions or any(k > n for k, n in zip(agreed, clear, strict=True)):
            raise ValueError("a game summary agrees on more decisions than it has")
        return cls(decisions, float(cost), tuple(clear), tuple(agreed), float(gap))


def summarise(document: Mapping[str, Any], seat: int) -> GameSummary:
    """One seat's decisions in a stored analysis (basra-analysis/1): how many had a choice,
    the points they gave away, and by class how many were clear (the best beat the
    runner-up by :data:`CLEAR_GAP` points) and how many of those the seat played as the
    best. (A play without its ``number`` counts as an early one, one without
    ``best_take`` as a take: every analysis has both.)"""
    if document.get("format") != ANALYSIS_FORMAT:
        raise ValueError(f"not a {ANALYSIS_FORMAT} document")
    players = document.get("players")
    if not isinstance(players, list) or not 0 <= seat < len(players):
        raise ValueError(f"no seat {seat} in the analysis")
    rules = find_variant(document["variant"])
    per_deal = rules.deal_size * len(players)
    decisions = 0
    cost = 0.0
    clear = [0] * len(CLASSES)
    agreed = [0] * len(CLASSES)
    for play in document["plays"]:
        if play["seat"] != seat or play["choices"] < 2:
            continue
        decisions += 1
        cost += play["cost"]
        second = play.get("second_value")
        if second is None or play["best_value"] - second < CLEAR_GAP - 1e-9:
            continue
        number = play.get("number", 1)
        c = class_of((rules.plays_per_round - number) // per_deal,
                     not play.get("best_take", True))
        clear[c] += 1
        agreed[c] += play["cost"] <= AGREED
    return GameSummary(decisions, cost, tuple(clear), tuple(agreed))


@dataclass(frozen=True, slots=True)
class Assessment:
    """What :func:`assess` says of a player's last games: the figures, the score against
    :data:`THRESHOLD`, whether a moderator should look, and why in plain words
    (:attr:`reason`)."""

    games: int
    rating: float
    decisions: int
    clear: int
    agreed: int
    expected_agreed: float
    """How many of the clear decisions an honest player of the rating agrees on."""
    cost: float
    """Points given away a decision (0 without decisions)."""
    expected_cost: float
    score: float
    flagged: bool

    @property
    def reason(self) -> str:
        """The assessment in plain words, for a moderator."""
        counted = f"{self.games} rated game{'' if self.games == 1 else 's'}"
        if self.clear == 0:
            agreement = f"no clear decision in {counted}"
        else:
            agreement = (f"agreed with the expert on {self.agreed} of {self.clear} clear "
                         f"decisions in {counted}; a player rated {round(self.rating)} agrees "
                         f"on about {round(self.expected_agreed)}")
        costs = (f"gave away {self.cost:.2f} points a decision, where about "
                 f"{self.expected_cost:.2f} is expected" if self.decisions
                 else "no decision with a choice")
        if self.clear < MIN_CLEAR:
            verdict = (f"too few clear decisions to judge (at least {MIN_CLEAR} are needed): "
                       "not flagged")
        elif self.flagged:
            verdict = (f"score {self.score:.1f}, at or above {THRESHOLD:g}: flagged for a "
                       "moderator to look at (fewer than one honest player in a thousand "
                       "does this; it is not proof)")
        else:
            verdict = f"score {self.score:.1f}, below {THRESHOLD:g}: what the rating explains"
        return f"{agreement}; {costs}. {verdict[0].upper()}{verdict[1:]}."

    def to_json(self) -> dict[str, object]:
        return {"games": self.games, "rating": round(self.rating), "decisions": self.decisions,
                "clear": self.clear, "agreed": self.agreed,
                "expected_agreed": round(self.expected_agreed, 1),
                "cost": round(self.cost, 3), "expected_cost": round(self.expected_cost, 3),
                "score": round(self.score, 2), "threshold": THRESHOLD,
                "flagged": self.flagged, "reason": self.reason}


def between(rating: float, values: Sequence[float]) -> float:
    """``values`` (one at each of :data:`RATINGS`) at ``rating``: linear between two of
    them, the nearest one's beyond them."""
    if rating <= RATINGS[0]:
        return values[0]
    for i in range(1, len(RATINGS)):
        if rating <= RATINGS[i]:
            share = (rating - RATINGS[i - 1]) / (RATINGS[i] - RATINGS[i - 1])
            return values[i - 1] + share * (values[i] - values[i - 1])
    return values[-1]


def expected_agreement(rating: float) -> tuple[float, ...]:
    """For each of :data:`CLASSES`, the share of clear decisions an honest player rated
    ``rating`` agrees on (the fitted model)."""
    return tuple(between(rating, values) for values in AGREEMENT)


def expected_cost(rating: float) -> float:
    """The points a decision with a choice of an honest player rated ``rating`` gives
    away (the fitted model)."""
    return between(rating, COST)


@dataclass(frozen=True, slots=True)
class Honest:
    """What the model expects of an honest player of one strength (a rating), and how far
    a record is beyond it (:meth:`score`)."""

    strength: float
    agreement: tuple[float, ...]
    """By class, the share of clear decisions agreed (kept :data:`SURE` from 0 and 1)."""
    weights: tuple[float, ...]
    """By class, what an agreement weighs: ``(e_c - a_c) / (a_c (1 - a_c))``, not below 0."""
    spread: float
    cost: float
    cost_deviation: float
    cost_spread: float

    @classmethod
    def at(cls, strength: float) -> Honest:
        shares = [min(max(a, SURE), 1 - SURE) for a in expected_agreement(strength)]
        weights = [max(0.0, e - a) / (a * (1 - a))
                   for a, e in zip(shares, EXPERT_AGREEMENT, strict=True)]
        return cls(strength, tuple(shares), tuple(weights),
                   between(strength, AGREEMENT_SPREAD), expected_cost(strength),
                   between(strength, COST_DEVIATION), between(strength, COST_SPREAD))

    def score(self, decisions: int, cost: float, clear: Sequence[int],
              agreed: Sequence[int]) -> float:
        """How far beyond this player's expectation a record is, in standard deviations:
        ``decisions`` with a choice, ``cost`` points given away in all, and by class
        ``clear`` decisions of which ``agreed`` agreed (the module's rule; 0 without
        decisions)."""
        z_agree = z_cost = 0.0
        excess = binomial = weighted = 0.0
        for a, w, n, k in zip(self.agreement, self.weights, clear, agreed, strict=True):
            if n and w:
                excess += w * (k - n * a)
                binomial += w * w * n * a * (1 - a)
                weighted += w * n
        if weighted:
            spread = self.spread * weighted
            z_agree = excess / math.sqrt(AGREEMENT_DISPERSION * binomial + spread * spread)
        if decisions:
            var = self.cost_deviation ** 2 / decisions + self.cost_spread ** 2
            z_cost = (self.cost - cost / decisions) / math.sqrt(var)
        return AGREEMENT_WEIGHT * z_agree + (1 - AGREEMENT_WEIGHT) * z_cost


def strengths(rating: float) -> tuple[Honest, ...]:
    """The honest players a rating allows: strengths within :data:`RATING_MARGIN` of it,
    every :data:`RATING_STEP`."""
    steps = round(RATING_MARGIN / RATING_STEP)
    return tuple(Honest.at(rating + i * RATING_STEP) for i in range(-steps, steps + 1))


def score(decisions: int, cost: float, clear: Sequence[int], agreed: Sequence[int],
          rating: float) -> float:
    """The score of a record for a player rated ``rating``: the least
    :meth:`Honest.score` of the :func:`strengths` the rating allows, so that a record is
    flagged only when it is implausible for an honest player of any of them."""
    return min(h.score(decisions, cost, clear, agreed) for h in strengths(rating))


def flags(clear: int, value: float) -> bool:
    """Whether a record of ``clear`` clear decisions and score ``value`` is flagged."""
    return clear >= MIN_CLEAR and value >= THRESHOLD


def assess(games: Sequence[GameSummary], rating: float) -> Assessment:
    """A player's last :data:`GAMES` rated games (oldest first; only the last count), with
    their rating now: the score, whether it is flagged for a moderator and why."""
    last = games[-GAMES:] if games else ()
    decisions = sum(g.decisions for g in last)
    cost = sum(g.cost for g in last)
    counted = [g for g in last if g.gap == CLEAR_GAP]
    clear = [sum(g.clear[c] for g in counted) for c in range(len(CLASSES))]
    agreed = [sum(g.agreed[c] for g in counted) for c in range(len(CLASSES))]
    value = score(decisions, cost, clear, agreed, rating)
    expected = sum(n * a for n, a in zip(clear, expected_agreement(rating), strict=True))
    return Assessment(len(last), rating, decisions, sum(clear), sum(agreed), expected,
                      cost / decisions if decisions else 0.0, expected_cost(rating), value,
                      flags(sum(clear), value))
