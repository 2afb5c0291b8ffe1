"""``basra bench engine``: how fast the engine plays random rounds.

Plays uniformly random legal plays through complete two-player egyptian rounds on one core
(:func:`basra.game.engine.random_playout` from a fresh :func:`basra.game.engine.deal_round`), for a
given number of seconds, and reports rounds and plays per second. The decks come from a
pool shuffled before the clock starts, so the figure is the engine's (dealing included),
not the random generator's; every round's plays are fresh random choices.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from basra.game import engine
from basra.game.rules import find_variant
from basra.game.seating import Seating

DECK_POOL = 1024


def engine_backend() -> str:
    """``compiled`` when the engine runs as a mypyc extension, else ``pure``."""
    return "pure" if str(engine.__file__).endswith(".py") else "compiled"


def bench_engine(seconds: float, seed: int = 1, variant: str = "egyptian",
                 players: int = 2) -> dict[str, object]:
    """Play random rounds for about ``seconds``; return the measured rates."""
    rules = find_variant(variant)
    teams = Seating.choose(rules, players).teams
    rng = random.Random(seed)
    decks = [tuple(rng.sample(range(52), 52)) for _ in range(DECK_POOL)]
    rand = rng.random
    deal = engine.deal_round
    playout = engine.random_playout
    rounds = 0
    plays = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for i in range(64):
            deck = decks[(rounds + i) % DECK_POOL]
            final = playout(deal(rules, players, (rounds + i) % players, deck, teams), rand)
            plays += final.played
        rounds += 64
        if time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    return {
        "benchmark": "engine",
        "variant": rules.name,
        "players": players,
        "backend": engine_backend(),
        "seconds": round(elapsed, 3),
        "rounds": rounds,
        "plays": plays,
        "rounds_per_second": round(rounds / elapsed, 1),
        "plays_per_second": round(plays / elapsed, 1),
    }


def run_bench(args: argparse.Namespace) -> int:
    """The ``basra bench`` command: ``basra bench engine [--seconds S] [--json]``."""
    result = bench_engine(float(args.seconds))
    if getattr(args, "json", False):
        print(json.dumps(result))
    else:
        print(f"engine ({result['backend']}), {result['players']}-player {result['variant']} "
              f"random rounds for {result['seconds']} s on one core:")
        print(f"  rounds_per_second  {result['rounds_per_second']:>12,.1f}")
        print(f"  plays_per_second   {result['plays_per_second']:>12,.1f}")
    return 0
