"""How much the others' plays tell about their hands (issue 32, point 1): the measure.

Bots of one level play seeded two-player egyptian rounds (each seat the same level). At every
decision in deals 2 to 5 of a round, the deciding seat's view gives the evidence
(:class:`basra.bots.inference.Evidence`: the opponent's plays this deal); the true hand of
the opponent is then scored against the worlds the seat could guess:

- under uniform worlds every hand of the right size from the unseen cards is as likely;
- under the weighted worlds a hand is as likely as its weight (the likelihood of the
  opponent's plays this deal had it held that hand).

The figure is the log of the ratio of the true hand's probability under the weighted worlds
to that under uniform ones, ``log w(true) - log mean_uniform(w)`` (the mean over
``--samples`` uniform hands), averaged by deal of the round; ``exp`` of it is how many
times more likely the weighted worlds make the truth (the goal: 2x on average over deals
2 to 5). ``--betas`` measures several sharpnesses of the model (the fit: the best is
shipped as :data:`basra.bots.inference.BETA`).

    .venv/bin/python benchmarks/inference.py [--level medium] [--rounds 60]
        [--samples 300] [--betas 0.25,0.5,1,2] [--seed 1] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
from typing import Any

from basra.bots import make_bot
from basra.bots.inference import BETA, Evidence
from basra.game.cards import cards_of, mask_of
from basra.game.engine import new_match, play, start_round
from basra.game.rules import find_variant
from basra.game.views import view

DEALS = (2, 3, 4, 5)


def positions(level: str, rounds: int, seed: int) -> list[tuple[Any, int, int]]:
    """``(view, opponent's true hand, deal)`` at every decision with evidence or not."""
    rules = find_variant("egyptian")
    rng = random.Random(seed)
    out = []
    for r in range(rounds):
        deck = list(range(52))
        rng.shuffle(deck)
        bots = [make_bot(level, seed * 1000 + 2 * r + s, time_cap=0) if level in (
            "hard", "expert") else make_bot(level, seed * 1000 + 2 * r + s) for s in (0, 1)]
        match = start_round(new_match(rules, 2), deck)
        while match.in_round:
            rnd = match.round
            assert rnd is not None
            seat = rnd.turn
            seen = view(match, seat)
            if seen.deal_number in DEALS:
                out.append((seen, rnd.hands[1 - seat], seen.deal_number))
            match = play(match, bots[seat].choose(seen), seat)
    return out


def measure(points: list[tuple[Any, int, int]], beta: float, samples: int, seed: int
            ) -> dict[str, Any]:
    rng = random.Random(seed)
    by_deal: dict[int, list[float]] = {d: [] for d in DEALS}
    informed: dict[int, list[float]] = {d: [] for d in DEALS}
    for seen, true_hand, deal in points:
        evidence = Evidence.of(seen, beta)
        if evidence.empty:
            by_deal[deal].append(0.0)
            continue
        me = seen.seat
        unseen = cards_of(seen.unseen())
        size = true_hand.bit_count()
        hands = [0, 0]
        hands[1 - me] = true_hand
        truth = evidence.log_weight(hands)
        weights = []
        for _ in range(samples):
            hands[1 - me] = mask_of(rng.sample(unseen, size))
            weights.append(evidence.log_weight(hands))
        top = max(weights)
        log_mean = top + math.log(math.fsum(math.exp(w - top) for w in weights) / samples)
        by_deal[deal].append(truth - log_mean)
        informed[deal].append(truth - log_mean)
    every = [x for d in DEALS for x in by_deal[d]]
    known = [x for d in DEALS for x in informed[d]]
    return {"beta": beta,
            "with_evidence": {"decisions": len(known),
                              "times_more_likely": round(math.exp(statistics.fmean(known)), 3)
                              if known else None},
            "by_deal": {str(d): {"decisions": len(by_deal[d]),
                                 "times_more_likely": round(math.exp(statistics.fmean(
                                     by_deal[d])), 3) if by_deal[d] else None,
                                 "with_evidence": len(informed[d])} for d in DEALS},
            "times_more_likely": round(math.exp(statistics.fmean(every)), 3),
            "mean_log": round(statistics.fmean(every), 4),
            "mean_log_interval": round(1.96 * statistics.stdev(every) / math.sqrt(len(every)),
                                       4)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="medium")
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--betas", default=str(BETA))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    points = positions(args.level, args.rounds, args.seed)
    results = [measure(points, float(b), args.samples, args.seed) for b in args.betas.split(",")]
    if args.json:
        print(json.dumps({"level": args.level, "rounds": args.rounds, "samples": args.samples,
                          "results": results}, indent=1))
        return 0
    print(f"{args.level} self-play, {args.rounds} rounds, {len(points)} decisions in deals "
          f"2 to 5; {args.samples} uniform hands a decision")
    for res in results:
        deals = ", ".join(f"deal {d} {v['times_more_likely']}x" for d, v in res["by_deal"].items())
        print(f"beta {res['beta']:g}: the true hand {res['times_more_likely']}x more likely "
              f"(log {res['mean_log']} ± {res['mean_log_interval']}); {deals}; "
              f"{res['with_evidence']['times_more_likely']}x over the "
              f"{res['with_evidence']['decisions']} decisions after an opponent's play "
              "this deal")
    return 0


if __name__ == "__main__":
    sys.exit(main())
