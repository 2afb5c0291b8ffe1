"""Every level against the oracle: how far each is from perfect play (issue 32, point 3).

Each level plays the oracle (:mod:`basra.bots.oracle`: it sees every hand and the stock) in
``basra arena`` on the shipped openings (``benchmarks/openings.txt``), two-player egyptian
rounds, each deal twice with the seats swapped. A level's *loss* is what the oracle scores
more than it a round (points; its 95% interval over the deals). The gap from ``hard`` to the
oracle is the room there is; the share of it the expert closes,
``1 - loss(expert) / loss(hard)``, is the expert's figure, with a 95% interval from a
bootstrap over the deals (both levels played the same deals, so they are resampled
together).

    .venv/bin/python benchmarks/oracle_ladder.py [--deals 40] [--jobs 2]
        [--levels random,easy,medium,hard,expert] [--out benchmarks/results/oracle-ladder.json]

Every figure is reproducible given the deals (the arena's seeds are fixed); ``--jobs``
changes only the time it takes.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path
from typing import Any

from basra.arena.games import ArenaConfig, GameResult, parse_player, read_openings, run_games
from basra.arena.stats import deal_difference, mean_interval

OPENINGS = Path(__file__).parent / "openings.txt"
BOOTSTRAP = 4000


def losses(games: list[GameResult]) -> dict[int, float]:
    """Per deal, what the oracle (A) scored more than the level (B) a round."""
    by_deal: dict[int, list[GameResult]] = {}
    for game in games:
        by_deal.setdefault(game.deal, []).append(game)
    return {deal: deal_difference(g) for deal, g in sorted(by_deal.items())}


def by_deal_of_round(games: list[GameResult]) -> dict[str, float]:
    """The oracle's and the level's median think time a play, in ms (a sanity check)."""
    a = sorted(t for g in games for t in g.a_times)
    b = sorted(t for g in games for t in g.b_times)
    return {"oracle_median_ms": round(1000 * a[len(a) // 2], 2) if a else 0.0,
            "level_median_ms": round(1000 * b[len(b) // 2], 2) if b else 0.0}


def share_closed(hard: dict[int, float], expert: dict[int, float], rng: random.Random
                 ) -> dict[str, float]:
    """``1 - loss(expert) / loss(hard)`` with a paired bootstrap interval over the deals."""
    deals = sorted(set(hard) & set(expert))

    def share(sample: list[int]) -> float:
        h = math.fsum(hard[d] for d in sample)
        return 1 - math.fsum(expert[d] for d in sample) / h if h else math.nan

    point = share(deals)
    draws = sorted(share([rng.choice(deals) for _ in deals]) for _ in range(BOOTSTRAP))
    return {"mean": round(point, 4), "low": round(draws[int(0.025 * BOOTSTRAP)], 4),
            "high": round(draws[int(0.975 * BOOTSTRAP) - 1], 4)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--levels", default="random,easy,medium,hard,expert")
    parser.add_argument("--out", type=Path,
                        default=Path(__file__).parent / "results" / "oracle-ladder.json")
    args = parser.parse_args(argv)
    openings = read_openings(str(OPENINGS))[:args.deals]
    out: dict[str, Any] = {"format": "basra-oracle-ladder/1", "variant": "egyptian",
                           "players": 2, "mode": "rounds", "deals": len(openings),
                           "openings": "benchmarks/openings.txt", "levels": {}}
    per_deal: dict[str, dict[int, float]] = {}
    for level in args.levels.split(","):
        cfg = ArenaConfig(parse_player("oracle"), parse_player(level), deals=len(openings),
                          openings=openings)
        start = time.perf_counter()
        played = run_games(cfg, args.jobs)
        if played.interrupted:
            return 130
        per_deal[level] = losses(played.games)
        loss = mean_interval(list(per_deal[level].values()))
        out["levels"][level] = {"loss_per_round": loss, **by_deal_of_round(played.games),
                                "seconds": round(time.perf_counter() - start)}
        print(f"{level:>8}: the oracle scores {loss['mean']:+.2f} a round more "
              f"[{loss['low']:+.2f}, {loss['high']:+.2f}] "
              f"({round(time.perf_counter() - start)} s)", flush=True)
    if "hard" in per_deal and "expert" in per_deal:
        closed = share_closed(per_deal["hard"], per_deal["expert"], random.Random(1))
        out["expert_closes"] = closed
        print(f"the expert closes {100 * closed['mean']:.1f}% of the hard-to-oracle gap "
              f"[{100 * closed['low']:.1f}%, {100 * closed['high']:.1f}%]")
    args.out.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
