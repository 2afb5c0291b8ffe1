"""The oracle: perfect play on the true round, the arena's alone (issue 32, point 3)."""

from __future__ import annotations

import argparse
import random
from functools import partial

import pytest

from basra.arena.games import ArenaConfig, parse_player, play_deals
from basra.bots import ARENA_ONLY, level_argument, make_bot, refuse_level
from basra.bots import oracle as oracle_module
from basra.bots.endgame import Solver
from basra.bots.expert import view_utility
from basra.bots.oracle import OracleBot, exact_plays
from basra.game.engine import Match, Round, legal_match_plays, new_match, play, start_round
from basra.game.rules import find_variant
from basra.game.views import view


def a_match(seed: int, seats: int = 2) -> Match:
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    return start_round(new_match(find_variant("egyptian"), seats), deck)


def truth_of(holder: list[Match]) -> Round:
    rnd = holder[0].round
    assert rnd is not None
    return rnd


def test_the_oracle_is_refused_everywhere_but_the_arena() -> None:
    with pytest.raises(ValueError, match="yardstick for `basra arena`"):
        make_bot("oracle")
    assert refuse_level("oracle") == ARENA_ONLY
    assert refuse_level("expert") is None
    assert "unknown bot level 'grandmaster'" in (refuse_level("grandmaster") or "")
    with pytest.raises(argparse.ArgumentTypeError, match="never a player"):
        level_argument("oracle")
    assert parse_player("oracle").level == "oracle"
    for text in ("oracle/100", "oracle@2"):
        with pytest.raises(ValueError, match="takes no budget"):
            parse_player(text)


def test_the_oracle_plays_the_exact_best_once_the_round_can_be_solved() -> None:
    """In the last four deals of two players every choice is the solver's best on the true
    cards (the value it gives each play is the exact one)."""
    rng = random.Random(4)
    checked = 0
    for seed in range(2):
        holder = [a_match(seed)]
        oracle = OracleBot(seed, partial(truth_of, holder))
        while holder[0].in_round:
            match = holder[0]
            rnd = match.round
            assert rnd is not None
            seat = rnd.turn
            seen = view(match, seat)
            left = rnd.rules.plays_per_round - rnd.played
            if len(seen.legal) > 1 and left <= exact_plays(rnd.rules, 2) - 8:
                values = dict(oracle.values(seen))
                exact = dict(Solver(rnd, seat, seen.carry, view_utility(seen)).play_values())
                assert values == pytest.approx(exact)
                assert oracle.choose(seen) in [p for p, v in exact.items()
                                              if v == max(exact.values())]
                checked += 1
            legal = legal_match_plays(match)
            holder[0] = play(match, legal[rng.randrange(len(legal))], seat)
    assert checked >= 12


def test_the_oracle_is_deterministic_given_its_seed() -> None:
    def choices(seed: int) -> list[object]:
        holder = [a_match(11)]
        oracle = OracleBot(seed, lambda: truth_of(holder), playouts=2, max_nodes=40_000)
        out = []
        while holder[0].in_round:
            match = holder[0]
            assert match.round is not None
            seat = match.round.turn
            choice = oracle.choose(view(match, seat))
            out.append(choice)
            holder[0] = play(match, choice, seat)
        return out

    assert choices(1) == choices(1)


def test_the_oracle_refuses_a_round_that_is_not_the_views() -> None:
    first, other = a_match(1), a_match(2)
    assert first.round is not None
    oracle = OracleBot(0, lambda: truth_of([other]))
    legal = legal_match_plays(first)
    after = play(first, legal[0], first.round.turn)
    assert after.round is not None
    with pytest.raises(ValueError, match="not the view's"):
        oracle.values(view(after, after.round.turn))


def test_the_oracle_beats_the_hard_bot_in_the_arena(monkeypatch: pytest.MonkeyPatch) -> None:
    """One duplicate deal: the oracle, seeing the hard bot's hand, scores more on both seats
    together (the yardstick the ladder measures every level by; on a small budget here)."""
    monkeypatch.setattr(oracle_module, "PLAYOUTS", 2)
    monkeypatch.setattr(oracle_module, "MAX_NODES", 40_000)
    cfg = ArenaConfig(parse_player("oracle"), parse_player("hard/100"), seed=5, deals=1)
    games = play_deals(cfg, [0])
    assert len(games) == 2
    assert sum(g.rounds[0].a_points - g.rounds[0].b_points for g in games) > 0
