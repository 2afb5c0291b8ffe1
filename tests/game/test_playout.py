"""Playouts: a whole round in one call must be the same round as stepping play by play."""

from __future__ import annotations

import random

import pytest

from basra.bots.rollout import greedy_playout, resample
from basra.game.engine import Play, Round, apply_play, deal_round, legal_plays, random_playout
from basra.game.rules import VARIANTS

SEATINGS = [(name, n, t) for name, r in VARIANTS.items() for n, t in sorted(r.seatings)]


def _replay(start: Round, final: Round) -> Round:
    """Step ``final``'s plays from ``start`` through the checked API."""
    rnd = start
    for entry in final.plays()[start.played:]:
        assert rnd.turn == entry.seat
        rnd = apply_play(rnd, Play(entry.card, entry.take))
    return rnd


@pytest.mark.parametrize(("variant", "seats", "teams"), SEATINGS)
def test_random_playout_equals_stepping_with_the_same_choices(variant: str, seats: int,
                                                              teams: bool) -> None:
    rules = VARIANTS[variant]
    for i in range(40):
        deck = random.Random(i).sample(range(52), 52)
        start = deal_round(rules, seats, i % seats, deck, teams)
        fast = random_playout(start, random.Random(i).random)
        draw = random.Random(i).random
        slow = start
        while not slow.finished:
            options = legal_plays(slow)
            slow = apply_play(slow, options[int(draw() * len(options))])
        assert fast == slow


@pytest.mark.parametrize(("variant", "seats", "teams"), SEATINGS)
def test_greedy_playout_plays_only_legal_plays(variant: str, seats: int, teams: bool) -> None:
    rules = VARIANTS[variant]
    for i in range(20):
        start = deal_round(rules, seats, 0, random.Random(i).sample(range(52), 52), teams)
        final = greedy_playout(start, random.Random(i).random, 0.2, 2.0, 3.0)
        assert final.finished
        assert _replay(start, final) == final


def test_resample_deals_only_the_hidden_cards() -> None:
    rules = VARIANTS["lebanese"]
    start = deal_round(rules, 3, 0, random.Random(5).sample(range(52), 52))
    seat = start.turn
    hidden = [c for s in range(3) if s != seat for c in range(52) if start.hand(s) >> c & 1]
    hidden += list(start.setup.stock)
    world = resample(start, seat, list(hidden), random.Random(1).random)
    assert world.hand(seat) == start.hand(seat)
    assert world.floor == start.floor
    assert [h.bit_count() for h in world.hands] == [h.bit_count() for h in start.hands]
    again = 0
    for s in range(3):
        if s != seat:
            again |= world.hand(s)
    for c in world.setup.stock:
        again |= 1 << c
    assert again == sum(1 << c for c in hidden)
    assert world != start
