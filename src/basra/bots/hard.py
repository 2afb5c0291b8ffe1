"""``hard``: search over the hidden cards (determinized Monte Carlo).

Each iteration deals the unseen cards at random consistently with the view
(:mod:`basra.bots.determinize`), picks a root play by UCB1 over what the plays have earned
so far, and plays the round out with a quick greedy policy that errs now and then
(:mod:`basra.bots.rollout`, compiled with the engine). A play's value is the round's
point margin for the bot's side (majority and carry included) against the best other side.
The play with the best mean margin wins. More iterations or more time play better.

In the last deal of a two-player round the card counter knows the opponent's hand (the
cards it has not seen), and the round is solved exactly instead
(:mod:`basra.bots.endgame`, the round margin as the value).

The default budget, 1,500 iterations capped at 0.9 s, answers within 1 s on the project's
2-core machine; with no time cap the search is deterministic given the seed.
"""

from __future__ import annotations

import math
import time

from basra.bots.base import SearchBot
from basra.bots.determinize import sample_round
from basra.bots.endgame import Solver, margin_utility
from basra.bots.evaluate import card_count_value
from basra.bots.rollout import greedy_playout, resample
from basra.game.cards import cards_of
from basra.game.engine import Play, Round, play_unchecked, score_round
from basra.game.rules import find_variant
from basra.game.views import SeatView

DEFAULT_ITERATIONS = 1500
DEFAULT_TIME_CAP = 0.9
EXPLORATION = 20.0
ROLLOUT_EPSILON = 0.15
POWER_RESERVE = 3.0


def margin(final: Round, carry: int, side: int) -> float:
    """The finished round's points for ``side`` minus the best other side's."""
    scores, _ = score_round(final, carry)
    mine = scores[side].points
    other = max(s.points for i, s in enumerate(scores) if i != side)
    return float(mine - other)


class HardBot(SearchBot):
    level = "hard"

    def __init__(self, seed: int | str | None = None, iterations: int = DEFAULT_ITERATIONS,
                 time_cap: float | None = DEFAULT_TIME_CAP) -> None:
        super().__init__(seed, iterations, time_cap)

    def decide(self, view: SeatView) -> Play:
        if view.seats == 2 and view.stock_count == 0:
            return self.solve(view)
        return self.search(view)

    def solve(self, view: SeatView) -> Play:
        """The last deal of two players, solved exactly (the unseen cards are the
        opponent's hand)."""
        side = view.side
        assert side is not None
        world = sample_round(view, self.rng)
        values = dict(Solver(world, side, view.carry, margin_utility(side)).play_values())
        legal = list(view.legal)
        return max(legal, key=lambda p: (values[p], -legal.index(p)))

    def search(self, view: SeatView) -> Play:
        """Determinized Monte Carlo over the root plays."""
        plays = list(view.legal)
        n = len(plays)
        visits = [0] * n
        totals = [0.0] * n
        rng = self.rng
        rand = rng.random
        deadline = None if self.time_cap is None else time.perf_counter() + self.time_cap
        rules = find_variant(view.variant)
        per_card = card_count_value(rules, view.sides)
        template = sample_round(view, rng)
        unseen = cards_of(view.unseen())
        seat, side = view.seat, view.side
        assert seat is not None and side is not None
        for i in range(self.iterations):
            if i < n:
                k = i
            else:
                log_i = math.log(i)
                k = max(range(n), key=lambda j: totals[j] / visits[j]
                        + EXPLORATION * math.sqrt(log_i / visits[j]))
            world = resample(template, seat, unseen, rand)
            card, take = plays[k]
            final = greedy_playout(play_unchecked(world, card, take), rand, ROLLOUT_EPSILON,
                                   per_card, POWER_RESERVE)
            visits[k] += 1
            totals[k] += margin(final, view.carry, side)
            if deadline is not None and i >= n and time.perf_counter() > deadline:
                break
        best = max(range(n), key=lambda j: (totals[j] / visits[j] if visits[j] else -1e9, -j))
        return plays[best]
