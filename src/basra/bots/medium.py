"""``medium``: a strong one-move heuristic. Each legal play is worth what it takes (card
points, pile size toward the majority, basra) minus what the floor it leaves is likely to
give the next player (an expected best reply over the cards that player may hold, easy
basras and 10D/2C captures included), minus the cost of spending a Jack or the 7D on a poor
floor while the round still has deals to come."""

from __future__ import annotations

from basra.bots.base import Bot
from basra.bots.evaluate import (
    basra_of,
    card_count_value,
    is_last_play,
    is_power,
    reply_risk,
    take_value,
)
from basra.engine import Play
from basra.rules import find_variant
from basra.views import SeatView

POWER_RESERVE = 5.0
"""What holding a sweeper for later is worth, in points, while deals remain."""


def score_plays(view: SeatView) -> list[tuple[float, Play]]:
    """Every legal play with its heuristic value."""
    rules = find_variant(view.variant)
    per_card = card_count_value(rules, view.sides)
    floor = 0
    for c in view.floor:
        floor |= 1 << c
    assert view.seat is not None
    unseen = view.unseen()
    next_seat = (view.seat + 1) % view.seats
    next_hand = view.hand_counts[next_seat]
    next_side = next_seat % 2 if view.teams else next_seat
    friendly_next = next_side == view.side
    remaining = view.stock_count + sum(view.hand_counts)
    last_for_next = view.stock_count == 0 and remaining == 2
    out = []
    for play in view.legal:
        basra = basra_of(rules, view, play, floor)
        value = take_value(rules, play.card, play.take, basra, per_card)
        after = floor & ~play.take if play.take else floor | 1 << play.card
        risk = reply_risk(rules, after, unseen, next_hand, per_card, last_for_next)
        value += risk if friendly_next else -risk
        if is_power(rules, play.card) and view.stock_count > 0 and not is_last_play(view):
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
