"""Analysis speed (issue 29): how long ``basra analyse`` takes for a typical match.

Plays a few typical egyptian two-player matches (first to 121) medium against hard, each
through the match driver from fixed server seeds, keeps the first ``--matches`` of them that
last exactly ``--rounds`` rounds (four: the typical match), and times
:func:`basra.match.analysis.analyse` of each at the server's default budget
(``Settings.analysis_iterations``) on one core. Prints the seconds per match (processor
time of this process, steadier than the clock on a loaded machine, and the clock's) and per
play, and the split by phase: the last deal (solved exactly), the deal before (sampled
worlds solved exactly) and earlier (the search). Everything is deterministic but the clock.

With ``--quality`` it also compares the analysis with one at ``--reference`` iterations
(the expert's playing budget by default) on the same records: how often both name the same
best play, and the mean absolute difference of the costs.

    .venv/bin/python benchmarks/analysis_speed.py [--matches 3] [--rounds 4] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace

from basra.bots import make_bot
from basra.bots.expert import DEFAULT_ITERATIONS
from basra.game.rules import find_variant
from basra.game.seating import Seating
from basra.match.analysis import Analysis, analyse, play_values, positions
from basra.match.driver import MatchDriver
from basra.match.records import MatchRecord
from basra.server.config import Settings

PHASES = ("last", "before", "earlier")
MAX_ROUNDS = 12
"""A match longer than this is not a typical one: it is skipped."""


def server_iterations() -> int:
    """The server's default budget of an analysis's play."""
    return int(Settings.__dataclass_fields__["analysis_iterations"].default)  # type: ignore[arg-type]


def play_match(seed: int, hard_iterations: int = 1500,
               levels: tuple[str, str] = ("medium", "hard")) -> MatchRecord | None:
    """One egyptian match of the two bot levels from fixed seeds (None: longer than
    :data:`MAX_ROUNDS`). The first level sits in seat 0 for odd seeds, the second for even
    ones; a searching bot has ``hard_iterations`` and no time cap."""
    first, second = (f"bot:{level}" for level in levels)
    names = [first, second] if seed % 2 else [second, first]
    driver = MatchDriver(find_variant("egyptian"), Seating(2), names)
    bots = [make_bot(name.removeprefix("bot:"), seed=f"{seed}|{seat}",
                     iterations=hard_iterations if name in ("bot:hard", "bot:expert") else None,
                     time_cap=0)
            for seat, name in enumerate(names)]
    number = 0
    while driver.match.winner is None:
        number += 1
        if number > MAX_ROUNDS:
            return None
        driver.commit(f"{seed:032x}{number:032x}")
        driver.deal()
        driver.play_round(bots)
    return driver.build_record()


def typical_records(count: int, rounds: int, hard_iterations: int = 1500,
                    first_seed: int = 1, levels: tuple[str, str] = ("medium", "hard"),
                    ) -> Iterator[tuple[int, MatchRecord]]:
    """The first ``count`` matches (by seed) that last ``rounds`` rounds, with their seed."""
    found = 0
    seed = first_seed
    while found < count:
        record = play_match(seed, hard_iterations, levels)
        if record is not None and (rounds == 0 or len(record.rounds) == rounds):
            found += 1
            yield seed, record
        seed += 1
        if seed > first_seed + 50 * count:
            raise SystemExit(f"no {count} matches of {rounds} rounds in {seed - first_seed} "
                             "seeds")


def phase_of(stock_count: int) -> str:
    """The expert's phase of a two-player egyptian play, by the cards left in the stock."""
    if stock_count == 0:
        return "last"
    if stock_count == 8:
        return "before"
    return "earlier"


@dataclass
class Timing:
    seconds: float
    """Wall-clock seconds."""
    cpu: float
    """Seconds of this process's processor time (what one worker spends: steadier than the
    clock on a machine others load)."""
    plays: int
    choices: int
    """Plays with a choice (the ones searched)."""
    by_phase: dict[str, float]
    plays_by_phase: dict[str, int]
    analysis: Analysis


def timed_analysis(record: MatchRecord, iterations: int, seed: int = 0) -> Timing:
    """``analyse(record)`` timed as a whole and play by play (the progress callback; the
    phases in processor time)."""
    phases = [phase_of(p.view.stock_count) for p in positions(record)]
    stamps: list[float] = []
    start = time.perf_counter()
    cpu = time.process_time()
    analysis = analyse(record, iterations=iterations, seed=seed,
                       progress=lambda done, total: stamps.append(time.process_time()))
    seconds = time.perf_counter() - start
    cpu_seconds = time.process_time() - cpu
    by_phase = dict.fromkeys(PHASES, 0.0)
    plays_by_phase = dict.fromkeys(PHASES, 0)
    before = cpu
    for phase, stamp, judged in zip(phases, stamps, analysis.plays, strict=True):
        by_phase[phase] += stamp - before
        before = stamp
        if judged.choices > 1:
            plays_by_phase[phase] += 1
    return Timing(seconds, cpu_seconds, len(analysis.plays),
                  sum(p.choices > 1 for p in analysis.plays), by_phase, plays_by_phase, analysis)


def agreement(record: MatchRecord, fast: Analysis, iterations: int,
              seed: int = 0) -> dict[str, object]:
    """How ``fast`` agrees, on the plays with a choice, with the expert at ``iterations``
    valuing each play on its own (:func:`~basra.match.analysis.play_values`): how often
    both name the same best play, the mean absolute difference of the costs, and what
    following ``fast``'s best play loses on the reference's values. All and by phase."""
    rows: list[tuple[str, float, float, float]] = []
    for position, judged in zip(positions(record), fast.plays, strict=True):
        if judged.choices < 2:
            continue
        values = dict(play_values(position.view, position.seed(seed), iterations))
        reference = position.judged(list(values.items()))
        rows.append((phase_of(position.view.stock_count), float(judged.best == reference.best),
                     abs(judged.cost - reference.cost),
                     reference.best_value - values[judged.best]))
    out: dict[str, object] = {}
    for name in ("all", *PHASES):
        chosen = [r for r in rows if name in ("all", r[0])]
        if chosen:
            out[name] = {"plays": len(chosen),
                         "same_best": round(statistics.fmean(r[1] for r in chosen), 3),
                         "mean_abs_cost_diff": round(statistics.fmean(r[2] for r in chosen), 3),
                         "mean_lost_by_best": round(statistics.fmean(r[3] for r in chosen), 3)}
    return out


def one_core() -> None:
    """Run on one core only (where the system lets us)."""
    if hasattr(os, "sched_setaffinity"):
        cores = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cores[-1]})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=4,
                        help="keep matches of this many rounds (0: any)")
    parser.add_argument("--iterations", type=int, default=server_iterations())
    parser.add_argument("--hard-iterations", type=int, default=1500,
                        help="the hard bot's budget in the matches played")
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--levels", default="medium,hard",
                        help="the two bot levels that play the matches")
    parser.add_argument("--max-plays", type=int, default=0,
                        help="analyse only each match's first N plays (a quick check)")
    parser.add_argument("--quality", action="store_true",
                        help="also compare with an analysis at --reference iterations")
    parser.add_argument("--reference", type=int, default=DEFAULT_ITERATIONS)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = []
    first, _, second = args.levels.partition(",")
    for seed, record in typical_records(args.matches, args.rounds, args.hard_iterations,
                                        args.first_seed, (first, second or first)):
        if args.max_plays:
            record = truncated(record, args.max_plays)
        timing = timed_analysis(record, args.iterations)
        row: dict[str, object] = {
            "seed": seed, "rounds": len(record.rounds), "plays": timing.plays,
            "choices": timing.choices, "seconds": round(timing.seconds, 3),
            "cpu_seconds": round(timing.cpu, 3),
            "ms_per_play": round(1000 * timing.cpu / max(1, timing.plays), 2),
            "by_phase": {k: round(v, 3) for k, v in timing.by_phase.items()},
            "choices_by_phase": timing.plays_by_phase,
            "cost_by_seat": [round(c, 2) for c in timing.analysis.cost_by_seat()]}
        if args.quality:
            row["quality"] = agreement(record, timing.analysis, args.reference)
        rows.append(row)
        if not args.json:
            print(f"match seed {seed}: {row['rounds']} rounds, {row['plays']} plays "
                  f"({row['choices']} with a choice): {row['cpu_seconds']} s of processor "
                  f"({row['seconds']} s by the clock), {row['ms_per_play']} ms a play; "
                  f"by phase {row['by_phase']}"
                  + (f"; quality {row['quality']}" if args.quality else ""), flush=True)
    cpu = [float(r["cpu_seconds"]) for r in rows]  # type: ignore[arg-type]
    seconds = [float(r["seconds"]) for r in rows]  # type: ignore[arg-type]
    summary = {"iterations": args.iterations, "matches": len(rows),
               "mean_cpu_seconds": round(statistics.fmean(cpu), 3),
               "max_cpu_seconds": round(max(cpu), 3),
               "mean_seconds": round(statistics.fmean(seconds), 3), "rows": rows}
    if args.json:
        print(json.dumps(summary, indent=1))
    else:
        print(f"{len(rows)} matches at {args.iterations} iterations: mean "
              f"{summary['mean_cpu_seconds']} s, max {summary['max_cpu_seconds']} s of "
              f"processor a match (mean {summary['mean_seconds']} s by the clock)")
    return 0


def truncated(record: MatchRecord, plays: int) -> MatchRecord:
    """``record`` with only its first round's first ``plays`` plays."""
    first = record.rounds[0]
    return replace(record, rounds=(replace(first, plays=first.plays[:plays]),))


if __name__ == "__main__":
    one_core()
    sys.exit(main())
