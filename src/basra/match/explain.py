"""Why a play was worse than the expert's best, in a player's words: the facts the replay
page says ("the 7D would have swept 9 points and left no basra", "you let them take a
basra") and one short reason code per costly play.

Everything here is read from the round as it truly stood before the play (the record knows
every hand): it explains a finished match after the fact, it does not search. For the play
made and for the best play, :func:`take_facts` tells

- ``take``: the floor cards it takes;
- ``points``: what it scores right now: the card points of the cards it brings to the pile
  (the played card with what it takes; nothing when it takes nothing) and its basra points;
- ``basra``: whether it is a basra (RULES.md 4, 6.1);
- ``sweep``: whether it clears the floor (a take that leaves it empty, basra or not);
- ``gave_basra``: whether, after it, the next seat to play (always an opponent: seats of a
  side never play one after the other) holds a card that makes a basra on the floor left
  (with a new deal's cards, when the play ended a deal; never after the round's last play).

:func:`reason` then names the main reason a play with a cost (on the expert's values) was
worse, by the first rule that holds:

1. ``missed-basra``: the best play is a basra and the play made is not;
2. ``gave-basra``: the play made gives the next opponent a basra and the best play does not;
3. ``missed-ten-of-diamonds``: the best play brings the 10D to the pile (where it scores
   points) and the play made does not;
4. ``missed-sweep``: the best play clears the floor and the play made does not;
5. ``missed-points``: the best play scores more points right now;
6. ``kept-wrong-card``: now the play made is as good as the best, but it played another
   card: the cost is in the card it kept for later;
7. ``later``: the same card with another take: the difference shows only later in the
   round (the cost comes from the search, not from the take).

A play that cost nothing has no reason (``None``). Pure: no I/O, no randomness.
"""

from __future__ import annotations

from dataclasses import dataclass

from basra.game.cards import TEN_OF_DIAMONDS, names_of
from basra.game.engine import Play, Round, basra_points, legal_plays, play_unchecked

REASONS = ("missed-basra", "gave-basra", "missed-ten-of-diamonds", "missed-sweep",
           "missed-points", "kept-wrong-card", "later")
"""Every reason code, in the order the rules try them."""


@dataclass(frozen=True, slots=True)
class TakeFacts:
    """What one play does right now (see the module's words)."""

    card: int
    take: int
    points: int
    basra: bool
    sweep: bool
    gave_basra: bool

    @property
    def captured(self) -> int:
        """The cards the play brings to its side's pile (none when it takes nothing)."""
        return self.take | 1 << self.card if self.take else 0

    def take_names(self) -> list[str]:
        return names_of(self.take)


def take_facts(rnd: Round, play: Play) -> TakeFacts:
    """The facts of ``play`` by the seat to play ``rnd`` (a legal play of it)."""
    rules = rnd.setup.rules
    card, take = play
    floor = rnd.floor
    last = rnd.played + 1 == rules.plays_per_round
    basra = basra_points(rules, card, take, floor, last)
    points = basra
    if take:
        got = take | 1 << card
        points += sum(rules.card_points[c] for c in range(52) if got >> c & 1)
    after = play_unchecked(rnd, card, take)
    return TakeFacts(card, take, points, basra > 0, bool(take) and take == floor,
                     gives_basra(after))


def gives_basra(rnd: Round) -> bool:
    """Whether the seat to play ``rnd`` can make a basra with a card it holds."""
    if rnd.finished or not rnd.floor:
        return False
    rules = rnd.setup.rules
    last = rnd.played + 1 == rules.plays_per_round
    return any(basra_points(rules, card, take, rnd.floor, last) > 0
               for card, take in legal_plays(rnd))


def reason(made_facts: TakeFacts, best_facts: TakeFacts, cost: float,
           ten_scores: bool = True) -> str | None:
    """The main reason the play made was worse than the best (the module's rules), or
    ``None`` when it cost nothing. ``ten_scores``: whether the 10D is worth points in the
    variant (a missed 10D is no reason where it is worth none or less)."""
    if cost <= 0 or (made_facts.card, made_facts.take) == (best_facts.card, best_facts.take):
        return None
    if best_facts.basra and not made_facts.basra:
        return "missed-basra"
    if made_facts.gave_basra and not best_facts.gave_basra:
        return "gave-basra"
    ten = 1 << TEN_OF_DIAMONDS
    if ten_scores and best_facts.captured & ten and not made_facts.captured & ten:
        return "missed-ten-of-diamonds"
    if best_facts.sweep and not made_facts.sweep:
        return "missed-sweep"
    if best_facts.points > made_facts.points:
        return "missed-points"
    if made_facts.card != best_facts.card:
        return "kept-wrong-card"
    return "later"


@dataclass(frozen=True, slots=True)
class Explanation:
    """The play made and the best play, now, and the reason the play made was worse."""

    made: TakeFacts
    best: TakeFacts
    reason: str | None

    def to_json(self) -> dict[str, object]:
        """The fields :class:`~basra.match.analysis.PlayAnalysis` adds to its play."""
        made, best = self.made, self.best
        return {"made_take": made.take_names(), "made_points": made.points,
                "made_basra": made.basra, "made_sweep": made.sweep,
                "gave_basra": made.gave_basra,
                "best_points": best.points, "best_basra": best.basra,
                "best_sweep": best.sweep, "best_gave_basra": best.gave_basra,
                "reason": self.reason}


def explain(rnd: Round, made: Play, best: Play, cost: float) -> Explanation:
    """The facts of ``made`` and ``best`` on the round ``rnd`` (as it stood before the play,
    every hand known) and the reason ``made`` cost ``cost``."""
    made_facts = take_facts(rnd, made)
    best_facts = made_facts if best == made else take_facts(rnd, best)
    ten_scores = rnd.setup.rules.card_points[TEN_OF_DIAMONDS] > 0
    return Explanation(made_facts, best_facts,
                       reason(made_facts, best_facts, cost, ten_scores))


__all__ = ["REASONS", "Explanation", "TakeFacts", "explain", "gives_basra", "reason",
           "take_facts"]
