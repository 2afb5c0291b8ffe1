"""The value model the heuristic bots share: what a take is worth, and what the floor left
behind risks giving the next player. Everything here reads only a seat's view."""

from __future__ import annotations

from dataclasses import dataclass

from basra.game.captures import takes
from basra.game.cards import Card, CardSet
from basra.game.engine import Play, basra_points
from basra.game.rules import Rules
from basra.game.views import SeatView


def card_count_value(rules: Rules, sides: int) -> float:
    """What one more card in the pile is worth on average, through the majority."""
    if rules.majority == "27-of-52":
        return rules.majority_points * 0.07
    return rules.majority_points * 0.12 / max(1, sides - 1)


def is_last_play(view: SeatView) -> bool:
    return view.stock_count == 0 and sum(view.hand_counts) == 1


def basra_of(rules: Rules, view: SeatView, play: Play, floor: CardSet) -> int:
    """Basra points ``play`` scores on ``floor``."""
    return basra_points(rules, play.card, play.take, floor, is_last_play(view))


@dataclass(frozen=True, slots=True)
class Valuation:
    """What takes are worth to a side under ``rules``, one more card in the pile being worth
    ``per_card`` points (:func:`card_count_value`)."""

    rules: Rules
    per_card: float

    @classmethod
    def of(cls, rules: Rules, sides: int) -> Valuation:
        return cls(rules, card_count_value(rules, sides))

    def take_value(self, card: Card, take: CardSet, basra: int) -> float:
        """Points a take is worth to the side that makes it: card points, pile size, basra."""
        if not take:
            return 0.0
        got = take | 1 << card
        points = 0
        m = got
        while m:
            low = m & -m
            points += self.rules.card_points[low.bit_length() - 1]
            m ^= low
        return points + self.per_card * got.bit_count() + basra

    def best_reply_value(self, card: Card, floor: CardSet, last: bool) -> float:
        """The most a player holding ``card`` can make on ``floor``."""
        best = 0.0
        for take in takes(self.rules, card, floor):
            if take:
                basra = basra_points(self.rules, card, take, floor, last)
                best = max(best, self.take_value(card, take, basra))
        return best

    def reply_risk(self, floor: CardSet, unseen: CardSet, hand_count: int,
                   last: bool = False) -> float:
        """Expected best capture of a player holding ``hand_count`` cards drawn from
        ``unseen``, on ``floor``: each unseen card is held with probability hand/unseen,
        independently."""
        if not floor or hand_count <= 0 or not unseen:
            return 0.0
        total = unseen.bit_count()
        p = min(1.0, hand_count / total)
        values = []
        m = unseen
        while m:
            low = m & -m
            v = self.best_reply_value(low.bit_length() - 1, floor, last)
            if v > 0:
                values.append(v)
            m ^= low
        values.sort(reverse=True)
        expected = 0.0
        none_yet = 1.0
        for v in values:
            expected += v * p * none_yet
            none_yet *= 1.0 - p
        return expected
