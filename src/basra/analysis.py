"""``basra analyse``: the expert's opinion of every play of a match record.

For every play of every round, the expert looks at the position from the seat that played
(its view only, as it would in a game: :mod:`basra.bots.expert`) and values each legal play
by the round margin it expects for that seat's side, in points: exact in a two-player last
deal, a mean over sampled worlds solved exactly before it, a search earlier. The play's
*cost* is the best play's value less the value of the play made (never below zero): the
points the choice gave away on the expert's reckoning. A play with no choice costs nothing
and is not searched.

The record is first replayed as ``basra replay`` replays it, so an illegal record is the
same one-line :class:`~basra.errors.RecordError`. Each play's search is seeded from
``seed``, the round and the play's number, so an analysis is the same every time for the
same record, seed and iterations. :func:`analyse` is the function the server calls (in its
bot workers); its result's :meth:`Analysis.to_json` is what ``basra analyse --json`` prints.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from basra.bots.expert import DEFAULT_ITERATIONS, expert_values
from basra.driver import MatchDriver
from basra.engine import Play
from basra.records import MatchRecord, round_deck
from basra.replay import replay
from basra.seating import Seating

FORMAT = "basra-analysis/1"
ANALYSIS_ITERATIONS = DEFAULT_ITERATIONS
"""The expert's budget for each play when none is given: its playing budget."""


@dataclass(frozen=True, slots=True)
class PlayAnalysis:
    """One play as the expert saw it."""

    round: int
    """1-based round number."""
    number: int
    """1-based number of the play within its round."""
    seat: int
    play: Play
    best: Play
    value: float
    """The expected round margin, in points, of the play made, for the seat's side."""
    best_value: float
    choices: int
    """How many legal plays the seat had."""

    @property
    def cost(self) -> float:
        """Points the play gave away against the best play (0 when it was the best)."""
        return max(0.0, self.best_value - self.value)

    def to_json(self) -> dict[str, object]:
        return {"round": self.round, "number": self.number, "seat": self.seat,
                "play": str(self.play), "best": str(self.best),
                "value": round(self.value, 3), "best_value": round(self.best_value, 3),
                "cost": round(self.cost, 3), "choices": self.choices}


@dataclass(frozen=True, slots=True)
class Analysis:
    """A whole record's analysis."""

    variant: str
    players: tuple[str, ...]
    iterations: int
    seed: int
    plays: tuple[PlayAnalysis, ...]

    def cost_by_seat(self) -> list[float]:
        costs = [0.0] * len(self.players)
        for p in self.plays:
            costs[p.seat] += p.cost
        return costs

    def to_json(self) -> dict[str, object]:
        return {"format": FORMAT, "variant": self.variant, "players": list(self.players),
                "iterations": self.iterations, "seed": self.seed,
                "plays": [p.to_json() for p in self.plays],
                "cost_by_seat": [round(c, 3) for c in self.cost_by_seat()]}


Progress = Callable[[int, int], None]
"""Told (plays analysed, plays in all) after each play."""


def analyse(record: MatchRecord, *, iterations: int = ANALYSIS_ITERATIONS, seed: int = 0,
            progress: Progress | None = None) -> Analysis:
    """The expert's analysis of every play of ``record`` (replayed and checked first)."""
    replay(record)
    seating = Seating(len(record.players), record.teams)
    driver = MatchDriver(record.rules, seating, record.players)
    total = sum(len(r.plays) for r in record.rounds)
    out: list[PlayAnalysis] = []
    for number, rnd in enumerate(record.rounds, 1):
        driver.deal_deck(round_deck(rnd), rnd.fairness, keep_deck=rnd.deck is not None)
        for index, entry in enumerate(rnd.plays, 1):
            seat = entry.seat if entry.seat is not None else driver.to_play
            assert seat is not None
            view = driver.view(seat)
            legal = list(view.legal)
            made = entry.play
            if len(legal) == 1:
                out.append(PlayAnalysis(number, index, seat, made, made, 0.0, 0.0, 1))
            else:
                values = dict(expert_values(view, f"{seed}|{number}|{index}", iterations))
                best = max(legal, key=lambda p: (values[p], -legal.index(p)))
                out.append(PlayAnalysis(number, index, seat, made, best, values[made],
                                        values[best], len(legal)))
            driver.apply(seat, made)
            if progress is not None:
                progress(len(out), total)
    return Analysis(record.rules.name, tuple(record.players), iterations, seed, tuple(out))
