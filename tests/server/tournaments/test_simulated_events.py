"""Whole events as the benchmark simulates them (benchmarks/tournament_pairing.py), their
rules checked at every wave and round: a 2,000-entrant arena (everyone free at every wave)
and a 1,000-entrant Swiss of 11 rounds with missing and absent entrants."""

from __future__ import annotations

import random
from collections import Counter

from tournament_pairing import arena_waves, field, swiss_rounds

from server.tournaments.test_arena_pairing import checked
from server.tournaments.test_swiss_pairing import Field


def test_a_2000_entrant_arena() -> None:
    rng = random.Random(2)
    for wave in arena_waves(field(2000, rng), 6, rng):
        pairs = checked(wave.free)
        assert pairs == wave.pairs and len(pairs) == 1000
    odd = random.Random(3)
    for wave in arena_waves(field(1999, odd), 4, odd):
        checked(wave.free)
        paired = {e for pair in wave.pairs for e in pair}
        out = [f for f in wave.free if f.entrant not in paired]
        assert len(out) == 1 and out[0] == min(wave.free, key=lambda f: f.waited)


def test_a_1000_entrant_swiss_of_11_rounds() -> None:
    rng = random.Random(11)
    ratings = field(1000, rng)
    balance: Counter[str] = Counter()
    for number, done in enumerate(swiss_rounds(ratings, 11, rng), 1):
        now = Field(ratings, done.games)
        here = [e for e in ratings if e in done.present]
        seated = [e for pair in done.pairing.pairs for e in pair]
        assert sorted(seated) == sorted(e for e in here if e != done.pairing.bye)
        assert (done.pairing.bye is None) == (len(here) % 2 == 0)
        assert now.rematches(done.pairing.pairs) == 0
        if done.pairing.bye is not None:
            assert now.byes[done.pairing.bye] == 0
        level = sum(now.score[a] == now.score[b] for a, b in done.pairing.pairs)
        assert level >= 0.8 * len(done.pairing.pairs)
        for first, second in done.pairing.pairs:
            balance[first] -= 1
            balance[second] += 1
        assert number < 11 or max(abs(b) for b in balance.values()) <= 3
