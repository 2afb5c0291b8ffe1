"""``medium``: a strong one-move heuristic. Each legal play is worth what it takes (card
points, pile size toward the majority, basra) minus what the floor it leaves is likely to
give the next player (an expected best reply over the cards that player may hold, easy
basras and 10D/2C captures included), minus the cost of spending a Jack or the 7D on a poor
floor while the round still has deals to come."""

from __future__ import annotations

from basra.bots.base import Bot
from basra.bots.evaluate import Valuation, basra_of, is_last_play
from basra.game.cards import mask_of
from basra.game.engine import Play
from basra.game.rules import find_variant
from basra.game.views import SeatView

POWER_RESERVE = 5.0
"""What holding a sweeper for later is worth, in points, while deals remain."""


def score_plays(view: SeatView) -> list[tuple[float, Play]]:
    """Every legal play with its heuristic value."""
    rules = find_variant(view.variant)
    valuation = Valuation.of(rules, view.sides)
    floor = mask_of(view.floor)
    assert view.seat is not None
    unseen = view.unseen()
    next_seat = (view.seat + 1) % view.seats
    next_hand = view.hand_counts[next_seat]
    friendly_next = view.seating.side_of(next_seat) == view.side
    remaining = view.stock_count + sum(view.hand_counts)
    last_for_next = view.stock_count == 0 and remaining == 2
    out = []
    for play in view.legal:
        basra = basra_of(rules, view, play, floor)
        value = valuation.take_value(play.card, play.take, basra)
        after = floor & ~play.take if play.take else floor | 1 << play.card
        risk = valuation.reply_risk(after, unseen, next_hand, last_for_next)
        value += risk if friendly_next else -risk
        if rules.is_power(play.card) and view.stock_count > 0 and not is_last_play(view):
            value -= POWER_RESERVE
        out.append((value, play))
    return out


class MediumBot(Bot):
    level = "medium"

    def decide(self, view: SeatView) -> Play:
        scored = score_plays(view)
        best = max(v for v, _ in scored)
        top = [p for v, p in scored if v >= best - 1e-9]
        return top[self.rng.randrange(len(top))]
