"""Guessing the hidden cards: a full round consistent with what a seat has seen.

The cards a seat has not seen (other hands and the stock) are dealt at random: other seats
get as many as they hold, the rest becomes the stock in random order. Nothing a seat has
shown constrains which unseen cards it holds in Basra (a card that can take must take, but
any card may be played), so a uniform deal of the unseen cards is the consistent one. The
piles, basras and last capturer come from the public plays of the round.
"""

from __future__ import annotations

import random

from basra.game.cards import cards_of, mask_of
from basra.game.engine import Round, compose_round
from basra.game.rules import find_variant
from basra.game.views import SeatView


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
            hands.append(mask_of(view.hand))
        else:
            hands.append(mask_of(unseen[pos:pos + count]))
            pos += count
    stock = unseen[pos:]
    if len(stock) != view.stock_count:
        raise ValueError("view is inconsistent: unseen cards do not fill the hands and stock")
    seating = view.seating
    piles = [0] * seating.sides
    for p in view.plays:
        if p.take:
            piles[seating.side_of(p.seat)] |= p.take | 1 << p.card
    return compose_round(
        rules, view.seats, view.teams, view.dealer, hands=hands, floor=mask_of(view.floor),
        stock=stock, piles=piles, basras=list(view.basras), bonus=list(view.basra_points),
        turn=view.turn, last_taker=-1 if view.last_taker is None else view.last_taker,
        played=len(view.plays), opening_floor=mask_of(view.opening_floor))
