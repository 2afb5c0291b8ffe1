"""``basra analyse``: the expert's opinion of every play of a match record.

For every play of every round, the expert looks at the position from the seat that played
(its view only, as it would in a game: :mod:`basra.bots.expert`) and values each legal play
by the round margin it expects for that seat's side, in points: exact in a two-player last
deal, a mean over sampled worlds solved exactly before it, a search earlier. The play's
*cost* is the best play's value less the value of the play made (never below zero): the
points the choice gave away on the expert's reckoning. A play with no choice costs nothing
and is not searched; interchangeable plays (the 3H or the 3S laid down:
:func:`~basra.bots.expert.interchangeable`) are searched once and valued alike, so neither is
a mistake against the other.

Each play also says what it and the best play did right now and why it was worse
(:mod:`basra.match.explain`: the takes, their points, basra, sweep, whether they let the next
opponent make a basra, a reason code), read from the record's true hands, and the analysis
counts each seat's mistakes (plays that cost a point or more).

The record is first replayed as ``basra replay`` replays it, so an illegal record is the
same one-line :class:`~basra.errors.RecordError`. Each play's search is seeded from
``seed``, the round and the play's number, so an analysis is the same every time for the
same record, seed and iterations. :func:`analyse` is the function the server calls (in its
bot workers); its result's :meth:`Analysis.to_json` is what ``basra analyse --json`` prints.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from basra.bots.expert import DEFAULT_ITERATIONS, ExpertBot
from basra.game.cards import NAMES, names_of
from basra.game.engine import Play, Round
from basra.game.seating import Seating
from basra.game.views import SeatView
from basra.match.driver import MatchDriver
from basra.match.explain import Explanation, explain
from basra.match.records import MatchRecord, round_deck
from basra.match.replay import replay

FORMAT = "basra-analysis/1"
ANALYSIS_ITERATIONS = DEFAULT_ITERATIONS
"""The expert's budget for each play when none is given: its playing budget."""
MISTAKE = 1.0
"""Points a play must cost (as the document rounds it) to count as a mistake."""
TIE = 1e-9
"""Values closer than this to the best are the best's (for the runner-up's value)."""


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
    side: int = 0
    """The seat's side."""
    totals: tuple[int, ...] = ()
    """The match's totals per side when the round began."""
    explanation: Explanation | None = None
    """What the play made and the best play did right now, and why the play was worse
    (:mod:`basra.match.explain`)."""
    second_value: float | None = None
    """The runner-up's value: the best value of the plays valued below the best (plays
    interchangeable with the best, or tied with it, are the best too); ``None`` with one
    legal play or when every play is valued the same. ``best_value - second_value`` is how
    clearly the best play was the best (:mod:`basra.match.assist`)."""

    @property
    def cost(self) -> float:
        """Points the play gave away against the best play (0 when it was the best)."""
        return max(0.0, self.best_value - self.value)

    @property
    def margin(self) -> float | None:
        """With two sides: the expected margin of the match for side 0 after the play (the
        totals' difference when the round began, and the play's value for side 0); else
        ``None``."""
        if len(self.totals) != 2:
            return None
        value = self.value if self.side == 0 else -self.value
        return self.totals[0] - self.totals[1] + value

    def to_json(self) -> dict[str, object]:
        margin = self.margin
        out: dict[str, object] = {
            "round": self.round, "number": self.number, "seat": self.seat,
            "play": str(self.play), "best": str(self.best),
            "best_card": NAMES[self.best.card], "best_take": names_of(self.best.take),
            "value": round(self.value, 3), "best_value": round(self.best_value, 3),
            "cost": round(self.cost, 3), "choices": self.choices,
            "margin": None if margin is None else round(margin, 3),
            "second_value": (None if self.second_value is None
                             else round(self.second_value, 3))}
        if self.explanation is not None:
            out.update(self.explanation.to_json())
        return out


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

    def mistakes_by_seat(self) -> list[int]:
        """Per seat, its plays that cost a point or more (:data:`MISTAKE`)."""
        counts = [0] * len(self.players)
        for p in self.plays:
            if round(p.cost, 3) >= MISTAKE:
                counts[p.seat] += 1
        return counts

    def to_json(self) -> dict[str, object]:
        return {"format": FORMAT, "variant": self.variant, "players": list(self.players),
                "iterations": self.iterations, "seed": self.seed,
                "command": f"basra analyse --iterations {self.iterations} --seed {self.seed} "
                           "RECORD",
                "plays": [p.to_json() for p in self.plays],
                "cost_by_seat": [round(c, 3) for c in self.cost_by_seat()],
                "mistakes_by_seat": self.mistakes_by_seat()}


Progress = Callable[[int, int], None]
"""Told (plays analysed, plays in all) after each play."""
Values = list[tuple[Play, float]]
"""Every legal play of a position with the expert's value of it."""


@dataclass(frozen=True, slots=True)
class Position:
    """A play of a record as its seat faced it: what the expert is asked about."""

    round: int
    number: int
    seat: int
    side: int
    view: SeatView
    made: Play
    totals: tuple[int, ...]
    state: Round | None = None
    """The round as it truly stood before the play (every hand), for the explanation."""

    def seed(self, seed: int) -> str:
        """The seed of this play's search: the analysis's, the round and the play."""
        return f"{seed}|{self.round}|{self.number}"

    def judged(self, values: Values | None) -> PlayAnalysis:
        """The play against the best by ``values`` (None: the only legal play)."""
        legal = list(self.view.legal)
        made = self.made
        if values is None or len(legal) == 1:
            return PlayAnalysis(self.round, self.number, self.seat, made, made, 0.0, 0.0, 1,
                                self.side, self.totals, self._explained(made, 0.0))
        by_play = dict(values)
        best = max(legal, key=lambda p: (by_play[p], -legal.index(p)))
        cost = max(0.0, by_play[best] - by_play[made])
        below = [by_play[p] for p in legal if by_play[p] < by_play[best] - TIE]
        return PlayAnalysis(self.round, self.number, self.seat, made, best, by_play[made],
                            by_play[best], len(legal), self.side, self.totals,
                            self._explained(best, cost), max(below) if below else None)

    def _explained(self, best: Play, cost: float) -> Explanation | None:
        if self.state is None:
            return None
        return explain(self.state, self.made, best, cost)


def positions(record: MatchRecord) -> Iterator[Position]:
    """Every play of ``record`` (replayed and checked first) as its seat faced it."""
    replay(record)
    seating = Seating(len(record.players), record.teams)
    driver = MatchDriver(record.rules, seating, record.players)
    for number, rnd in enumerate(record.rounds, 1):
        totals = tuple(driver.match.totals)
        driver.deal_deck(round_deck(rnd), rnd.fairness, keep_deck=rnd.deck is not None)
        for index, entry in enumerate(rnd.plays, 1):
            seat = entry.seat if entry.seat is not None else driver.to_play
            assert seat is not None
            yield Position(number, index, seat, seating.side_of(seat), driver.view(seat),
                           entry.play, totals, driver.match.round)
            driver.apply(seat, entry.play)


def play_values(view: SeatView, seed: str, iterations: int) -> Values:
    """The expert's values of a position's plays, in round-margin points (what a bot worker
    runs): the expert's own search, without a time cap, but interchangeable plays (the 3H
    or the 3S laid down: :func:`~basra.bots.expert.interchangeable`) valued once and given
    the same value, so that neither is called a mistake against the other."""
    bot = ExpertBot(seed, iterations=iterations, time_cap=None)
    bot.merge = True
    return bot.values(view, "margin")


def analyse(record: MatchRecord, *, iterations: int = ANALYSIS_ITERATIONS, seed: int = 0,
            progress: Progress | None = None) -> Analysis:
    """The expert's analysis of every play of ``record`` (replayed and checked first)."""
    total = sum(len(r.plays) for r in record.rounds)
    out: list[PlayAnalysis] = []
    for position in positions(record):
        values = (play_values(position.view, position.seed(seed), iterations)
                  if len(position.view.legal) > 1 else None)
        out.append(position.judged(values))
        if progress is not None:
            progress(len(out), total)
    return Analysis(record.rules.name, tuple(record.players), iterations, seed, tuple(out))
