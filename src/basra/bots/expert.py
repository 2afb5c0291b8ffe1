"""``expert``: exact endgames, sampled worlds solved exactly before them, a search earlier,
and a value that plays for the match.

What it does depends on how much is hidden from its seat:

- **The last deal** (the stock is empty). With two players the card counter knows the
  opponent's hand (the cards it has not seen), so the round is solved exactly
  (:mod:`basra.bots.endgame`). With three or four players the unseen cards are split among
  the other hands in ways it cannot tell apart: once :data:`EXACT_MANY` cards or fewer are
  left in the hands, the splits are sampled (each distinct split solved once, within a
  budget of positions searched) and each solved exactly; before that, the search below
  plays the last deal too.
- **The deal before** (two players, one deal left in the stock): the opponent's hand and the
  last deal are sampled from the unseen cards, and each such world solved exactly to the
  round's end.
- **Earlier**: determinized Monte Carlo over common worlds: each sampled world of the hidden
  cards is played out after every root play, with the same random choices, so the plays are
  compared on the same cards; the playouts look a play ahead (the next seat's best take),
  and in the deal two before the last of a two-player round each playout stops where the
  last deal begins and that deal is solved exactly (a stronger playout where it matters
  most). Plays that clearly trail are dropped
  as the search goes, so the budget (playouts) goes where the decision is close.

Every finished round, in the solver or a playout, is valued by the **match-aware value**
(:mod:`basra.bots.match_value`): the chance of winning the match from the totals and the
carry it leaves, not the round's margin, so near the target the expert plays safe or takes
the risk the match calls for. :meth:`ExpertBot.values` can value plays by the round margin
instead (points), which is what ``basra analyse`` reports.

The expert reads only its seat's view; a world is a guess at the hidden cards. Given its seed
and budget (iterations, no time cap) it is deterministic; the default budget, 3,000
iterations capped at 0.85 s, answers within 1 s.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Literal

from basra.bots.base import SearchBot
from basra.bots.determinize import sample_round
from basra.bots.endgame import OutOfNodes, Solver, Utility, margin_utility
from basra.bots.evaluate import card_count_value
from basra.bots.match_value import MatchState
from basra.bots.rollout import lookahead_playout, resample
from basra.game.cards import RANK, cards_of
from basra.game.engine import Play, Round, play_unchecked
from basra.game.rules import Rules, find_variant
from basra.game.views import SeatView

DEFAULT_ITERATIONS = 3000
DEFAULT_TIME_CAP = 0.85
ROLLOUT_EPSILON = 0.1
POWER_RESERVE = 3.0
WORLDS_PER_ITERATION = 40
"""The worlds solved exactly in the last two deals are the budget's iterations / this."""
CLEAR_LEAD = 3.0
"""Standard errors of the paired difference by which a play must trail the best to be
dropped from a search."""
NODES_PER_ITERATION = 50
EXACT_MANY = 12
"""With three or four players, the last deal is solved exactly once this few cards are
left in the hands (before that, the search plays it)."""
"""With three or four players a last deal's world can take tens of thousands of positions
to solve: the worlds stop once this many positions per iteration have been searched."""
MIN_WORLDS = 24
PRUNE_EVERY = 8
EARLY_SHARE = 1.5
"""Playouts a search makes in the early deals, per iteration of the budget: they are cheap
(about 0.1 ms each), and the early plays shape the round."""
FINISHED_SHARE = 0.3
"""Playouts per iteration when each ends in an exact last deal (about 0.6 ms each)."""

Value = Literal["match", "margin"]


class ExpertBot(SearchBot):
    level = "expert"

    def __init__(self, seed: int | str | None = None, iterations: int = DEFAULT_ITERATIONS,
                 time_cap: float | None = DEFAULT_TIME_CAP) -> None:
        super().__init__(seed, iterations, time_cap)
        self.playouts: list[int] = []
        """After a search: how many playouts each legal play got."""
        self.merge = False
        """Whether a search values interchangeable plays once (:func:`interchangeable`):
        what an analysis asks (:func:`basra.match.analysis.play_values`); a bot at a table
        searches every play."""

    @property
    def worlds(self) -> int:
        return max(1, self.iterations // WORLDS_PER_ITERATION)

    def decide(self, view: SeatView) -> Play:
        values = self.values(view)
        best = max(range(len(values)), key=lambda i: (values[i][1], -i))
        return values[best][0]

    def utility(self, view: SeatView, value: Value) -> Utility:
        return view_utility(view, value)

    def values(self, view: SeatView, value: Value = "match") -> list[tuple[Play, float]]:
        """Every legal play with what the expert thinks it is worth to its side: the
        expected match value (``match``), or the expected round margin in points
        (``margin``)."""
        if not view.legal:
            raise ValueError("no legal play: it is not this seat's turn")
        utility = self.utility(view, value)
        deadline = None if self.time_cap is None else time.perf_counter() + self.time_cap
        per_deal = view.seats * find_variant(view.variant).deal_size
        if view.stock_count == 0 and view.seats == 2:
            return self.solve_worlds(view, utility, 1, deadline)
        if view.stock_count == 0 and sum(view.hand_counts) <= EXACT_MANY:
            solved = self.solve_worlds(view, utility, self.worlds, deadline)
            if solved:
                return solved
        if view.seats == 2 and view.stock_count == per_deal:
            return self.solve_worlds(view, utility, self.worlds, deadline)
        return self.search(view, utility, deadline)

    # ------------------------------------------------------------------ exact worlds

    def solve_worlds(self, view: SeatView, utility: Utility, worlds: int,
                     deadline: float | None) -> list[tuple[Play, float]]:
        """The mean exact value of each legal play over ``worlds`` sampled worlds (the
        same world drawn twice is solved once). With three or four players the worlds
        share a budget of positions searched; a world that would overrun it is dropped,
        and when not even one world fits, the answer is empty."""
        side = view.side
        assert side is not None
        legal = list(view.legal)
        totals = [0.0] * len(legal)
        index = {play: i for i, play in enumerate(legal)}
        solved: dict[tuple[int, tuple[int, ...]], list[float]] = {}
        rng = self.rng
        drawn = 0
        nodes = 0
        node_budget = self.iterations * NODES_PER_ITERATION if view.seats > 2 else None
        for _ in range(worlds):
            world = sample_round(view, rng)
            key = (world.packed_hands, world.setup.stock)
            values = solved.get(key)
            if values is None:
                values = [0.0] * len(legal)
                limit = 0 if node_budget is None else max(1, node_budget - nodes)
                solver = Solver(world, side, view.carry, utility, limit)
                try:
                    for play, v in solver.play_values():
                        values[index[play]] = v
                except OutOfNodes:
                    break
                solved[key] = values
                nodes += solver.nodes
            for i, v in enumerate(values):
                totals[i] += v
            drawn += 1
            if deadline is not None and time.perf_counter() > deadline:
                break
            if node_budget is not None and nodes > node_budget:
                break
        if not drawn:
            return []
        return [(play, totals[i] / drawn) for i, play in enumerate(legal)]

    # ------------------------------------------------------------------ search

    def search(self, view: SeatView, utility: Utility,
               deadline: float | None) -> list[tuple[Play, float]]:
        """Determinized Monte Carlo with common worlds: each sampled world of the hidden
        cards is played out after every root play still in the running, with the same
        random choices, so plays are compared on the same cards (paired). A play that
        trails the best by :data:`CLEAR_LEAD` standard errors of the paired difference is
        dropped, and the budget goes to the plays still close. Playouts look a play ahead
        (:func:`~basra.bots.rollout.lookahead_playout`) to the round's end or, in a
        two-player round, to its last deal, which is solved exactly. With :attr:`merge`,
        interchangeable plays are searched as one (and the budget shrinks with them: the
        same worlds for every play searched) and given the same value."""
        side, seat = view.side, view.seat
        assert side is not None and seat is not None
        rules = find_variant(view.variant)
        legal = list(view.legal)
        same = interchangeable(rules, legal) if self.merge else list(range(len(legal)))
        plays = [legal[i] for i in sorted(set(same))]
        n = len(plays)
        rng = self.rng
        per_card = card_count_value(rules, view.sides)
        template = sample_round(view, rng)
        unseen = cards_of(view.unseen())
        per_deal = view.seats * rules.deal_size
        last_deal_at = rules.plays_per_round - per_deal
        exact_end = view.seats == 2 and view.stock_count <= 2 * per_deal
        finish = exact_finish(side, view.carry, utility, last_deal_at) if exact_end else None
        score = _scorer(template, side, view.carry, utility)
        values: list[list[float]] = [[] for _ in range(n)]
        alive = list(range(n))
        gaps: dict[int, float] = {}
        budget = int(self.iterations * (FINISHED_SHARE if finish is not None else EARLY_SHARE))
        # Plays valued once for interchangeable ones: the same worlds for each, fewer in all.
        budget = budget * n // len(legal)
        spent = 0
        worlds = 0
        common = random.Random()
        rand = common.random
        # (One play left to search, when every legal play is interchangeable with it: its
        # value is still wanted, so the budget is spent on it.)
        while spent < budget and (len(alive) > 1 or n == 1):
            world = resample(template, seat, unseen, rng.random)
            # Every play's playout in this world makes the same random choices: the one
            # generator seeded alike before each.
            seed = rng.getrandbits(64)
            for k in alive:
                card, take = plays[k]
                after = play_unchecked(world, card, take)
                common.seed(seed)
                if finish is not None:
                    value = finish(lookahead_playout(after, rand, ROLLOUT_EPSILON, per_card,
                                                     POWER_RESERVE, last_deal_at))
                else:
                    value = score(lookahead_playout(after, rand, ROLLOUT_EPSILON, per_card,
                                                    POWER_RESERVE))
                values[k].append(value)
            spent += len(alive)
            worlds += 1
            if worlds >= MIN_WORLDS and worlds % PRUNE_EVERY == 0:
                alive = _still_close(alive, values, worlds, gaps)
            if deadline is not None and time.perf_counter() > deadline:
                break
        self.playouts = [len(v) for v in values]
        means = [sum(v) / len(v) if v else -math.inf for v in values]
        best = max(alive, key=lambda k: means[k])
        # A dropped play is worth the best play's value less the gap it trailed by when it
        # was dropped, so that it stays below every play still in the running.
        found = [means[j] if j in alive else means[best] - gaps.get(j, 0.0) for j in range(n)]
        if n == len(legal):
            return list(zip(plays, found, strict=True))
        self.playouts = [self.playouts[plays.index(legal[i])] for i in same]
        return [(play, found[plays.index(legal[i])]) for play, i in zip(legal, same,
                                                                         strict=True)]


def view_utility(view: SeatView, value: Value = "match") -> Utility:
    """What a finished round is worth to the view's side: its chance of winning the match
    (``match``, :mod:`basra.bots.match_value`) or its round margin (``margin``)."""
    side = view.side
    assert side is not None
    if value == "margin":
        return margin_utility(side)
    return MatchState(view.variant, view.seats, view.teams, side, view.totals,
                      view.sets, view.length).utility()


def interchangeable(rules: Rules, plays: list[Play]) -> list[int]:
    """For each play, the index of the first play interchangeable with it (itself when
    none is before it): the same take by two cards of the same rank that the rules cannot
    tell apart (the same card points, both power cards with the same basra condition or
    neither). Swapping the two cards' suits maps the game after one play onto the game
    after the other, hidden cards and scoring included (both cards were in the seat's hand),
    so both plays are worth exactly the same: the 3H or the 3S laid down, a plain 7 taking
    a 7, but never the 7D for another 7, nor the 10D for another 10 where it scores."""
    first: dict[tuple[object, ...], int] = {}
    out = []
    for i, (card, take) in enumerate(plays):
        key = (RANK[card], rules.card_points[card], rules.power_basra_of(card), take)
        out.append(first.setdefault(key, i))
    return out


def _still_close(alive: list[int], values: list[list[float]], worlds: int,
                 gaps: dict[int, float]) -> list[int]:
    """The plays whose paired difference to the best is not clearly below zero; the others'
    mean gaps to the best go in ``gaps``."""
    means = {k: sum(values[k][:worlds]) / worlds for k in alive}
    best = max(alive, key=lambda k: means[k])
    keep = []
    for k in alive:
        if k == best:
            keep.append(k)
            continue
        diffs = [a - b for a, b in zip(values[best][-worlds:], values[k][-worlds:],
                                       strict=True)]
        mean = sum(diffs) / worlds
        var = sum((d - mean) ** 2 for d in diffs) / max(1, worlds - 1)
        if mean <= CLEAR_LEAD * math.sqrt(var / worlds) + 1e-12:
            keep.append(k)
        else:
            gaps[k] = mean
    return keep


def _scorer(rnd: Round, side: int, carry: int, utility: Utility) -> Callable[[Round], float]:
    """The value of a finished round (a playout's end from ``rnd``): one solver counts
    every playout's points (its rules and carry are the round's)."""
    counter = Solver(rnd, side, carry, utility)

    def score(final: Round) -> float:
        points, carry_out = counter.points(final.packed_piles, final.packed_bonus)
        return utility(points, carry_out)
    return score


def exact_finish(side: int, carry: int, utility: Utility,
                  last_deal_at: int) -> Callable[[Round], float]:
    """The value of a playout stopped where the last deal begins: that deal solved
    exactly (or the finished round's value, when the playout got further)."""
    def finish(rnd: Round) -> float:
        solver = Solver(rnd, side, carry, utility)
        if rnd.played >= rnd.setup.rules.plays_per_round:
            return utility(*solver.points(rnd.packed_piles, rnd.packed_bonus))
        return solver.value()
    return finish


def expert_values(view: SeatView, seed: int | str | None = None,
                  iterations: int = DEFAULT_ITERATIONS, value: Value = "margin",
                  rng: random.Random | None = None) -> list[tuple[Play, float]]:
    """Every legal play of ``view`` with the expert's value of it (no time cap)."""
    bot = ExpertBot(seed, iterations=iterations, time_cap=None)
    if rng is not None:
        bot.rng = rng
    return bot.values(view, value)
