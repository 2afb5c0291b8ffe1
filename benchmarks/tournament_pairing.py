"""Tournament pairing speed (issue 27's goals): one arena pairing wave of 2,000 free
entrants, and each round of a 1,000-entrant Swiss, with realistic histories.

- **arena**: ``--arena`` entrants (ratings spread like a site's, mean 1500, deviation 300)
  play ``--waves`` waves in which every one of them is free again (the worst wave: all
  free at once, each with a last opponent); the standings are made before each wave and
  the pairing of the wave is timed (``arena_pairs`` only).
- **swiss**: ``--swiss`` entrants play ``--rounds`` rounds; about 1% are missing at each
  pairing and 1% of seats are played by the bot; each round's ``swiss_pairs`` is timed.

Results follow the ratings (the expected score of the Elo formula, 10% draws). Prints the
milliseconds of each wave and round, then the median and the worst, in JSON::

    .venv/bin/python benchmarks/tournament_pairing.py [--arena 2000] [--swiss 1000]

The simulations are also what the tests run (tests/server/tournaments/), checking the
rules on every wave and round instead of timing them.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Iterator
from dataclasses import dataclass

from basra.server.tournaments.arena import Free, arena_pairs, arena_standings
from basra.server.tournaments.games import Game
from basra.server.tournaments.swiss import SwissPairing, swiss_pairs

DRAWS = 0.1


def field(count: int, rng: random.Random) -> dict[str, float]:
    """``count`` entrants and their ratings."""
    return {f"e{k:04d}": round(rng.gauss(1500.0, 300.0), 1) for k in range(count)}


def result(first: float, second: float, rng: random.Random) -> tuple[float, float]:
    """A game's points between two ratings."""
    if rng.random() < DRAWS:
        return 0.5, 0.5
    expected = 1.0 / (1.0 + 10.0 ** ((second - first) / 400.0))
    return (1.0, 0.0) if rng.random() < expected else (0.0, 1.0)


@dataclass(frozen=True, slots=True)
class Wave:
    """One arena wave: who was free, the pairs made, the milliseconds it took."""

    free: list[Free]
    pairs: list[tuple[str, str]]
    ms: float


def arena_waves(ratings: dict[str, float], waves: int, rng: random.Random,
                absent: float = 0.01) -> Iterator[Wave]:
    """An arena where everyone is free at every wave; ``absent`` of seats are the bot's."""
    games: list[Game] = []
    last: dict[str, str] = {}
    for wave in range(1, waves + 1):
        ranks = {row.entrant: row.rank for row in arena_standings(ratings, games)}
        free = [Free(e, ranks[e], ratings[e], last.get(e), rng.uniform(0.0, 30.0))
                for e in ratings]
        start = time.perf_counter()
        pairs = arena_pairs(free)
        ms = (time.perf_counter() - start) * 1000.0
        yield Wave(free, pairs, ms)
        for a, b in pairs:
            gone = frozenset(e for e in (a, b) if rng.random() < absent)
            games.append(Game(wave, (a, b), result(ratings[a], ratings[b], rng), gone,
                              (ratings[a], ratings[b])))
            last[a], last[b] = b, a


@dataclass(frozen=True, slots=True)
class Round:
    """One Swiss round: the games before it, who was present, its pairing, its time."""

    games: tuple[Game, ...]
    present: frozenset[str]
    pairing: SwissPairing
    ms: float


def swiss_rounds(ratings: dict[str, float], rounds: int, rng: random.Random,
                 missing: float = 0.01, absent: float = 0.01) -> Iterator[Round]:
    """A Swiss where ``missing`` of the entrants are not there at each pairing and
    ``absent`` of the seats paired are the bot's."""
    games: list[Game] = []
    for number in range(1, rounds + 1):
        present = frozenset(e for e in ratings if rng.random() >= missing)
        start = time.perf_counter()
        pairing = swiss_pairs(ratings, games, present)
        ms = (time.perf_counter() - start) * 1000.0
        yield Round(tuple(games), present, pairing, ms)
        for a, b in pairing.pairs:
            gone = frozenset(e for e in (a, b) if rng.random() < absent)
            games.append(Game(number, (a, b), result(ratings[a], ratings[b], rng), gone,
                              (ratings[a], ratings[b])))
        if pairing.bye is not None:
            games.append(Game(number, (pairing.bye,), (1.0,)))


def summary(times: list[float]) -> dict[str, object]:
    return {"ms": [round(t, 1) for t in times], "median_ms": round(statistics.median(times), 1),
            "worst_ms": round(max(times), 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--arena", type=int, default=2000, help="arena entrants")
    parser.add_argument("--waves", type=int, default=12, help="arena waves")
    parser.add_argument("--swiss", type=int, default=1000, help="Swiss entrants")
    parser.add_argument("--rounds", type=int, default=11, help="Swiss rounds")
    parser.add_argument("--seed", type=int, default=27)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    arena = [w.ms for w in arena_waves(field(args.arena, rng), args.waves, rng)]
    swiss = [r.ms for r in swiss_rounds(field(args.swiss, rng), args.rounds, rng)]
    print(json.dumps({"arena_pairs": {"free": args.arena, **summary(arena)},
                      "swiss_pairs": {"entrants": args.swiss, **summary(swiss)}}, indent=1))


if __name__ == "__main__":
    main()
