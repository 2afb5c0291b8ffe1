"""Every level against every other (issue 32, point 6), and the ladder the site shows.

Each pair of levels plays ``basra arena`` on the shipped openings
(``benchmarks/openings.txt``), two-player egyptian, each deal twice with the seats swapped:
in rounds (``--deals`` deals of one round) and, for the pairs ``--match-pairs`` names, in
whole matches (``--matches`` deals of a whole match: the share of matches won, with its
Wilson interval). The stronger level is A; its difference is what it scores more a round,
with its 95% interval over the deals.

``--site`` then writes the ladder the rules page shows (``src/basra/web/data/ladder.json``)
from this run's results and the oracle's (``benchmarks/oracle_ladder.py``'s JSON): each
level's loss to perfect play a round, and every pair's difference. The page reads nothing
else: what it shows is what was measured, with the date and the command.

    .venv/bin/python benchmarks/level_ladder.py --deals 40 --jobs 2 \\
        --out benchmarks/results/level-ladder.json
    .venv/bin/python benchmarks/level_ladder.py --site \\
        --ladder benchmarks/results/level-ladder.json \\
        --oracle benchmarks/results/oracle-ladder.json

Every figure is reproducible given the deals (the arena's seeds are fixed and the levels
have no time cap); ``--jobs`` changes only the time it takes.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import UTC, datetime
from itertools import combinations
from pathlib import Path
from typing import Any

from basra.arena.games import ArenaConfig, parse_player, read_openings, run_games
from basra.arena.stats import report

HERE = Path(__file__).parent
OPENINGS = HERE / "openings.txt"
LEVELS = ("random", "easy", "medium", "hard", "expert")
SITE = HERE.parent / "src" / "basra" / "web" / "data" / "ladder.json"


def play(a: str, b: str, openings: list[Any], mode: str, jobs: int) -> dict[str, Any] | None:
    cfg = ArenaConfig(parse_player(a), parse_player(b), mode=mode,  # type: ignore[arg-type]
                      deals=len(openings), openings=tuple(openings))
    started = time.perf_counter()
    played = run_games(cfg, jobs)
    if played.interrupted:
        return None
    rep = report(cfg, played.games)
    out: dict[str, Any] = {"a": a, "b": b, "mode": mode, "deals": rep["deals"],
                           "rounds": rep["rounds"],
                           "difference_per_round": rep["difference_per_round"],
                           "seconds": round(time.perf_counter() - started)}
    if rep["match_wins"] is not None:
        wins = rep["match_wins"]
        out["match_wins"] = {"played": wins["played"], "a_wins": wins["a_wins"],
                             "a_rate": wins["a_rate"], "low": wins["low"],
                             "high": wins["high"]}
    return out


def signed(x: float | None) -> str:
    return "?" if x is None else f"{x:+.2f}"


def run(args: argparse.Namespace) -> int:
    openings = read_openings(str(OPENINGS))
    levels = args.levels.split(",")
    out: dict[str, Any] = {"format": "basra-level-ladder/1", "variant": "egyptian",
                           "players": 2, "openings": "benchmarks/openings.txt",
                           "measured": datetime.now(UTC).date().isoformat(), "pairs": []}
    wanted = [(m.split("-")[0], m.split("-")[1]) for m in args.match_pairs.split(",") if m]
    jobs: list[tuple[str, str, str, int]] = []
    for weaker, stronger in combinations(levels, 2):  # the list goes weakest first
        jobs.append((stronger, weaker, "rounds", args.deals))
        if (stronger, weaker) in wanted:
            jobs.append((stronger, weaker, "matches", args.matches))
    for a, b, mode, deals in jobs:
        result = play(a, b, openings[:deals], mode, args.jobs)
        if result is None:
            return 130
        out["pairs"].append(result)
        d = result["difference_per_round"]
        won = result.get("match_wins")
        print(f"{a:>7} - {b:<7} {mode:>7}: {d['mean']:+6.2f} a round [{signed(d['low'])}, "
              f"{signed(d['high'])}]"
              + (f", {100 * won['a_rate']:.0f}% of {won['played']} matches" if won else "")
              + f" ({result['seconds']} s)", flush=True)
        args.out.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    return 0


def site(args: argparse.Namespace) -> int:
    """The rules page's copy: the levels' loss to the oracle and the pairs, rounded."""
    ladder = json.loads(args.ladder.read_text(encoding="utf-8"))
    oracle = json.loads(args.oracle.read_text(encoding="utf-8"))

    def interval(x: dict[str, float | None], digits: int = 1) -> list[float | None]:
        return [None if x[k] is None else round(x[k], digits)  # type: ignore[arg-type]
                for k in ("mean", "low", "high")]

    page: dict[str, Any] = {
        "format": "basra-site-ladder/1", "variant": "egyptian", "players": 2,
        "measured": ladder["measured"],
        "oracle_deals": oracle["deals"],
        "oracle": {level: interval(v["loss_per_round"])
                   for level, v in oracle["levels"].items()},
        "pairs": [{"a": p["a"], "b": p["b"], "mode": p["mode"], "deals": p["deals"],
                   "difference": interval(p["difference_per_round"]),
                   **({"wins": [round(p["match_wins"]["a_rate"], 3),
                                round(p["match_wins"]["low"], 3),
                                round(p["match_wins"]["high"], 3)],
                       "matches": p["match_wins"]["played"]}
                      if "match_wins" in p else {})}
                  for p in ladder["pairs"]],
    }
    if "expert_closes" in oracle:
        page["expert_closes"] = interval(oracle["expert_closes"], 3)
    SITE.parent.mkdir(parents=True, exist_ok=True)
    SITE.write_text(json.dumps(page, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {SITE}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=40, help="deals of one round a pair")
    parser.add_argument("--matches", type=int, default=20, help="deals of a whole match")
    parser.add_argument("--match-pairs", default="medium-easy,easy-random",
                        help="the pairs (STRONGER-WEAKER, commas) also played in matches")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--levels", default=",".join(LEVELS), help="weakest first")
    parser.add_argument("--out", type=Path, default=HERE / "results" / "level-ladder.json")
    parser.add_argument("--site", action="store_true",
                        help="write the rules page's ladder from --ladder and --oracle")
    parser.add_argument("--ladder", type=Path, default=HERE / "results" / "level-ladder.json")
    parser.add_argument("--oracle", type=Path, default=HERE / "results" / "oracle-ladder.json")
    args = parser.parse_args(argv)
    return site(args) if args.site else run(args)


if __name__ == "__main__":
    sys.exit(main())
