"""The exact endgame solver against plain minimax, in every variant and seating.

The oracle knows nothing of the solver: it steps the engine's own ``legal_plays`` and
``play_unchecked`` to the round's end and scores with ``score_round``, maximising for one
side and minimising for every other, with no pruning and no table.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from basra.bots.endgame import OutOfNodes, Solver, margin_utility, solve_plays
from basra.bots.match_value import MatchState
from basra.game.engine import Round, deal_round, legal_plays, play_unchecked, score_round, side_of
from basra.game.rules import VARIANTS, find_variant

Utility = Callable[[list[int], int], float]

SEATINGS = [(rules.name, seats, teams) for rules in VARIANTS.values()
            for seats, teams in sorted(rules.seatings)]


def brute(rnd: Round, side: int, carry: int, utility: Utility) -> float:
    if rnd.finished:
        scores, carry_out = score_round(rnd, carry)
        return utility([s.points for s in scores], carry_out)
    values = [brute(play_unchecked(rnd, c, t), side, carry, utility)
              for c, t in legal_plays(rnd)]
    return max(values) if side_of(rnd.turn, rnd.teams) == side else min(values)


def position(variant: str, seats: int, teams: bool, plays_left: int,
             rng: random.Random) -> Round:
    """A random round with ``plays_left`` plays to go, reached by random legal plays."""
    rules = find_variant(variant)
    deck = list(range(52))
    rng.shuffle(deck)
    rnd = deal_round(rules, seats, rng.randrange(seats), deck, teams)
    while rules.plays_per_round - rnd.played > plays_left:
        options = legal_plays(rnd)
        card, take = options[rng.randrange(len(options))]
        rnd = play_unchecked(rnd, card, take)
    return rnd


def plays_to_search(seats: int) -> int:
    """As many plays as plain minimax gets through quickly: the whole last deal of two
    players, the end of it with more."""
    return {2: 8, 3: 6, 4: 6}[seats]


@pytest.mark.parametrize(("variant", "seats", "teams"), SEATINGS)
def test_the_solver_agrees_with_minimax_on_random_last_deals(variant: str, seats: int,
                                                             teams: bool) -> None:
    rng = random.Random(f"{variant}{seats}{teams}")
    for n in range(40):
        rnd = position(variant, seats, teams, plays_to_search(seats) - n % 3, rng)
        side = side_of(rnd.turn if n % 2 else (rnd.turn + 1) % seats, teams)
        carry = rng.choice([0, 0, 30, 60])
        if n % 4 == 3:  # the match-aware value: not a margin, not even linear
            totals = tuple(rng.randrange(60, 120) for _ in range(rnd.setup.sides))
            utility = MatchState(variant, seats, teams, side, totals,
                                 (0,) * rnd.setup.sides).utility()
        else:
            utility = margin_utility(side)
        solver = Solver(rnd, side, carry, utility)
        assert solver.value() == pytest.approx(brute(rnd, side, carry, utility))
        values = dict(solver.play_values())
        assert set(values) == set(legal_plays(rnd))
        for (card, take), v in values.items():
            after = play_unchecked(rnd, card, take)
            assert v == pytest.approx(brute(after, side, carry, utility))


@pytest.mark.parametrize(("variant", "seats", "teams"), SEATINGS)
def test_the_solver_scores_a_finished_round_as_the_engine_does(variant: str, seats: int,
                                                               teams: bool) -> None:
    rng = random.Random(variant)
    for _ in range(20):
        final = position(variant, seats, teams, 0, rng)
        carry = rng.choice([0, 30, 60])
        scores, carry_out = score_round(final, carry)
        points, out = Solver(final, 0, carry, margin_utility(0)).points(
            final.packed_piles, final.packed_bonus)
        assert points == [s.points for s in scores]
        assert out == carry_out


@pytest.mark.parametrize("variant", [rules.name for rules in VARIANTS.values()])
def test_the_solver_agrees_with_minimax_across_the_last_deal(variant: str) -> None:
    """From the end of the deal before: the last deal is dealt from the known stock inside
    the search, and the values still agree."""
    rng = random.Random(f"across {variant}")
    for n in range(12):
        rnd = position(variant, 2, False, 9 + n % 2, rng)
        assert rnd.stock_left > 0
        side = n % 2
        utility = margin_utility(side)
        values = dict(Solver(rnd, side, 30 * (n % 3), utility).play_values())
        for (card, take), v in values.items():
            assert v == pytest.approx(brute(play_unchecked(rnd, card, take), side,
                                            30 * (n % 3), utility))


def test_a_solver_with_a_node_limit_gives_up_past_it() -> None:
    rnd = position("lebanese", 4, False, 16, random.Random(3))
    with pytest.raises(OutOfNodes):
        Solver(rnd, 0, 0, margin_utility(0), max_nodes=500).value()
    assert Solver(rnd, 0, 0, margin_utility(0), max_nodes=10**9).value() == pytest.approx(
        Solver(rnd, 0, 0, margin_utility(0)).value())


def test_a_two_player_last_deal_is_solved_in_a_few_thousand_positions() -> None:
    rng = random.Random(5)
    for _ in range(20):
        rnd = position("egyptian", 2, False, 8, rng)
        solver = Solver(rnd, 0, 0, margin_utility(0))
        solver.play_values()
        assert 0 < solver.nodes < 5000


def test_solve_plays_lists_every_legal_play_once() -> None:
    rnd = position("serbian", 2, False, 8, random.Random(9))
    plays = [p for p, _ in solve_plays(rnd, 0, 0, margin_utility(0))]
    assert sorted(plays) == sorted(legal_plays(rnd))
