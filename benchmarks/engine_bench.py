"""Engine speed, repeated: the figure quoted in docs/BENCHMARKS.md.

Runs ``basra bench engine`` REPEATS times in this process and prints each run and the
median, plus the step-by-step API (``legal_plays`` + ``play_unchecked``, one Round object
per play) for comparison. Usage::

    .venv/bin/python benchmarks/engine_bench.py [--seconds 10] [--repeats 5]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from basra.cli.bench import bench_engine, engine_backend
from basra.game.engine import deal_round, legal_plays, play_unchecked
from basra.game.rules import find_variant


def step_api_rate(seconds: float, seed: int = 2) -> float:
    """Rounds per second when every play goes through the public step API."""
    rules = find_variant("egyptian")
    rng = random.Random(seed)
    decks = [tuple(rng.sample(range(52), 52)) for _ in range(256)]
    rand = rng.random
    rounds = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        rnd = deal_round(rules, 2, rounds % 2, decks[rounds % 256])
        while not rnd.finished:
            options = legal_plays(rnd)
            card, take = options[int(rand() * len(options))]
            rnd = play_unchecked(rnd, card, take)
        rounds += 1
    return rounds / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    runs = [bench_engine(args.seconds, seed=i + 1) for i in range(args.repeats)]
    for run in runs:
        print(json.dumps(run))
    rates = [float(str(r["rounds_per_second"])) for r in runs]
    print(f"backend {engine_backend()}: median {statistics.median(rates):,.0f} rounds/s "
          f"(min {min(rates):,.0f}, max {max(rates):,.0f}) over {args.repeats} runs "
          f"of {args.seconds} s")
    print(f"step API: {step_api_rate(args.seconds):,.0f} rounds/s")


if __name__ == "__main__":
    main()
