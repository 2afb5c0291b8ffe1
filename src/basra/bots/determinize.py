"""Guessing the hidden cards: a full round consistent with what a seat has seen.

The cards a seat has not seen (other hands and the stock) are dealt at random: other seats
get as many as they hold, the rest becomes the stock in random order. Nothing a seat has
shown constrains which unseen cards it holds in Basra (a card that can take must take, but
any card may be played), so a uniform deal of the unseen cards is the consistent one. The
piles, basras and last capturer come from the public plays of the round.
"""

from __future__ import annotations

import random

from basra.cards import cards_of
from basra.engine import Round, compose_round
from basra.rules import find_variant
from basra.views import SeatView


def sample_round(view: SeatView, rng: random.Random) -> Round:
    """A round that ``view``'s seat cannot tell from the real one, hidden cards guessed."""
    if view.seat is None or view.turn is None or view.dealer is None:
        raise ValueError("a determinization needs a seat's view of a round in progress")
    rules = find_variant(view.variant)
    unseen = cards_of(view.unseen())
    rng.shuffle(unseen)
    hands = []
    pos = 0
    for seat, count in enumerate(view.hand_counts):
        if seat == view.seat:
            mask = 0
            for c in view.hand:
                mask |= 1 << c
        else:
            mask = 0
            for c in unseen[pos:pos + count]:
                mask |= 1 << c
            pos += count
        hands.append(mask)
    stock = unseen[pos:]
    if len(stock) != view.stock_count:
        raise ValueError("view is inconsistent: unseen cards do not fill the hands and stock")
    piles = [0] * view.sides
    for p in view.plays:
        if p.take:
            side = p.seat % 2 if view.teams else p.seat
            piles[side] |= p.take | 1 << p.card
    floor = 0
    for c in view.floor:
        floor |= 1 << c
    opening = 0
    for c in view.opening_floor:
        opening |= 1 << c
    return compose_round(
        rules, view.seats, view.teams, view.dealer, hands=hands, floor=floor, stock=stock,
        piles=piles, basras=list(view.basras), bonus=list(view.basra_points), turn=view.turn,
        last_taker=-1 if view.last_taker is None else view.last_taker,
        played=len(view.plays), opening_floor=opening)
