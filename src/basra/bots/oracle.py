"""``oracle``: perfect play as a yardstick, for ``basra arena`` only.

The oracle is not a player anyone meets: it sees the whole truth of the round (every hand
and the order of the stock), which no seat can. It measures the other levels: what each
loses to it a round is how far that level is from perfect play, and the share of the gap
from ``hard`` to the oracle that ``expert`` closes is the expert's figure (issue 32;
docs/BENCHMARKS.md, "The oracle"). :func:`basra.bots.make_bot` refuses it, and so do
``basra serve``, ``basra engine``, ``basra play`` and the browser (:data:`ARENA_ONLY`).

How it plays, on the true round:

- **Exact** once at most :func:`exact_plays` plays are left in the round (two players: the
  last four deals; three or four: the last deal): the round is solved
  (:class:`~basra.bots.endgame.Solver`, alpha-beta with a transposition table) for the
  oracle's side, every other seat against it, within :data:`MAX_NODES` positions.
- **Deep** before that, or when the solve overruns: every legal play is played out
  :data:`PLAYOUTS` times on the true cards with the expert's playout policy (the same
  random choices after each play, so the plays are compared on the same futures), each
  playout stopping where :func:`finish_plays` plays are left, which are solved exactly.

A finished round is worth what it is worth to the expert (:func:`~basra.bots.expert.
view_utility`: the chance of winning the match), so the two play for the same thing and the
oracle differs only by what it sees. Given its seed it is deterministic.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from basra.bots.endgame import OutOfNodes, Solver
from basra.bots.evaluate import card_count_value
from basra.bots.expert import POWER_RESERVE, ROLLOUT_EPSILON, exact_finish, view_utility
from basra.bots.rollout import lookahead_playout
from basra.game.engine import Play, Round, play_unchecked
from basra.game.rules import Rules
from basra.game.views import SeatView

LEVEL = "oracle"
ARENA_ONLY = ("the oracle sees every hand and the stock: it is a yardstick for "
              "`basra arena`, never a player")
"""The one-line refusal wherever else the oracle is asked for."""
MAX_NODES = 3_000_000
"""Positions an exact solve of the whole rest of the round may search (a few seconds)."""
PLAYOUTS = 24
"""Playouts of each legal play before the exact part of the round."""


def exact_plays(rules: Rules, seats: int) -> int:
    """Plays left in the round from which the oracle solves it exactly: two players' last
    four deals (at most 32 plays: 0.5 to 3 s at a deal's first play), three or four
    players' last deal (their solve is the cautious one, every other seat against)."""
    per_deal = seats * rules.deal_size
    return 4 * per_deal if seats == 2 else per_deal


def finish_plays(rules: Rules, seats: int) -> int:
    """Plays left where a playout stops and the rest is solved exactly: two players' last
    two deals (milliseconds), three or four players' last deal."""
    per_deal = seats * rules.deal_size
    return 2 * per_deal if seats == 2 else per_deal


class OracleBot:
    """The oracle: ``truth`` gives the round as it really is whenever it is asked to play
    (the arena gives it its driver's round)."""

    level = LEVEL

    def __init__(self, seed: int | str | None, truth: Callable[[], Round],
                 playouts: int | None = None, max_nodes: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.truth = truth
        self.playouts = PLAYOUTS if playouts is None else playouts
        self.max_nodes = MAX_NODES if max_nodes is None else max_nodes
        self.solved = 0
        """Decisions solved exactly (the others played out)."""
        self.searched = 0

    @property
    def name(self) -> str:
        return f"bot:{self.level}"

    def choose(self, view: SeatView, /) -> Play:
        """The best of ``view.legal`` on the true round."""
        if not view.legal:
            raise ValueError("no legal play: it is not this seat's turn")
        if len(view.legal) == 1:
            return view.legal[0]
        values = self.values(view)
        best = max(range(len(values)), key=lambda i: (values[i][1], -i))
        return values[best][0]

    def values(self, view: SeatView) -> list[tuple[Play, float]]:
        """Every legal play with its value on the true round."""
        rnd = self.truth()
        if rnd.turn != view.seat or rnd.played != len(view.plays):
            raise ValueError("the oracle's round is not the view's")
        side = view.side
        assert side is not None
        utility = view_utility(view)
        rules = rnd.rules
        left = rules.plays_per_round - rnd.played
        if left <= exact_plays(rules, rnd.seats):
            solver = Solver(rnd, side, view.carry, utility, self.max_nodes)
            try:
                found = dict(solver.play_values())
            except OutOfNodes:
                pass
            else:
                self.solved += 1
                return [(play, found[play]) for play in view.legal]
        self.searched += 1
        stop_at = rules.plays_per_round - finish_plays(rules, rnd.seats)
        finish = exact_finish(side, view.carry, utility, stop_at)
        per_card = card_count_value(rules, view.sides)
        common = random.Random()
        totals = [0.0] * len(view.legal)
        for _ in range(self.playouts):
            seed = self.rng.getrandbits(64)
            for i, (card, take) in enumerate(view.legal):
                common.seed(seed)
                after = play_unchecked(rnd, card, take)
                totals[i] += finish(lookahead_playout(after, common.random, ROLLOUT_EPSILON,
                                                      per_card, POWER_RESERVE, stop_at))
        return [(play, total / self.playouts)
                for play, total in zip(view.legal, totals, strict=True)]
