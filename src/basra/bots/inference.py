"""What the others' plays say about their hands (issue 32, point 1).

The unseen cards are not all alike: a player who held a card that matched the floor
usually took with it, and one who let a basra go usually could not take it. Only the plays
of the *current deal* tell anything: every card a seat held in an earlier deal has been
played since, in the open. A seat's hand when it made its ``j``-th play of this deal was
its hand now and every card it has played this deal from that play on.

The model of another seat's play is a softened one-move policy (:meth:`Evidence.value`: what the
take is worth, card points, pile size and basra, less a reserve for spending a sweeper
while deals remain; :data:`BETA` its sharpness, fitted on self-play by
``benchmarks/inference.py``): a play is made with probability proportional to
``exp(BETA * value)`` among the plays the hand allowed on the floor it was made on. A guess
at the hidden hands (a *world*) is then worth the likelihood of every play the others made
this deal (:meth:`Evidence.log_weight`); weighting (or resampling) the worlds by it is the
inference. Everything here reads the seat's view only: the plays are public, the hands
guessed.

**Not used by the expert yet.** ``benchmarks/inference.py`` measures how many times more
likely the weighted worlds make the true hand than uniform ones (docs/BENCHMARKS.md,
"Reading the opponent's hand"): against the medium bot, whose reckoning this is, 1.5 to 1.6
times (at :data:`BETA` 2 to 4) over deals 2 to 5; against the hard bot no better than
uniform at any sharpness (1.04 at 0.1, and worse than uniform from 0.5 up: the hard bot
does not play as the medium one reckons). Weighting the expert's worlds by it would mislead
the expert against strong players, so it waits for a model fitted to stronger play.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from basra.bots.evaluate import Valuation
from basra.game.cards import FULL_DECK, CardSet, mask_of
from basra.game.engine import Play, basra_points, collect_plays
from basra.game.rules import find_variant
from basra.game.views import SeatView

BETA = 2.0
"""How sharply a seat is expected to prefer the better play (per point of value): the best
fit to the medium bot's own play."""
POWER_RESERVE = 5.0
"""What keeping a sweeper for a later deal is worth to the model, in points."""


@dataclass(frozen=True, slots=True)
class Observed:
    """One play another seat made this deal: the card, the take, the floor it was made on,
    the cards that seat played this deal after it (in its hand then too), and what the
    model needs of the seat's view then: the cards it had not seen (but for its own hand,
    which a world guesses: the few cards of it change little), how many cards the next
    seat held, whether the next seat was a partner and played the round's last card."""

    seat: int
    card: int
    take: CardSet
    floor: CardSet
    later: CardSet
    unseen: CardSet
    next_count: int
    friendly_next: bool
    last_for_next: bool


@dataclass(frozen=True, slots=True)
class Evidence:
    """The others' plays of the current deal, as a view shows them."""

    valuation: Valuation
    deals_left: bool
    observed: tuple[Observed, ...]
    beta: float = BETA
    values: dict[tuple[int, int, CardSet], float] = field(default_factory=dict, compare=False)
    """The model's value of each play considered, by observed play (computed once)."""

    @classmethod
    def of(cls, view: SeatView, beta: float = BETA) -> Evidence:
        rules = find_variant(view.variant)
        seating = view.seating
        per_deal = view.seats * rules.deal_size
        floor = mask_of(view.opening_floor)
        start = (len(view.plays) // per_deal) * per_deal
        played = mask_of(view.opening_floor)  # every card seen on the floor so far
        seen: list[tuple[int, int, CardSet, CardSet, CardSet]] = []
        for i, p in enumerate(view.plays):
            if i >= start:
                seen.append((p.seat, p.card, p.take, floor, played))
            played |= 1 << p.card
            floor = floor & ~p.take if p.take else floor | 1 << p.card
        counts = [rules.deal_size] * view.seats
        remaining = view.stock_count + per_deal
        observed = []
        for k, (seat, card, take, before, shown) in enumerate(seen):
            later = 0
            for other_seat, other_card, _, _, _ in seen[k + 1:]:
                if other_seat == seat:
                    later |= 1 << other_card
            nxt = (seat + 1) % view.seats
            if seat != view.seat:
                observed.append(Observed(
                    seat, card, take, before, later,
                    FULL_DECK & ~(shown | later | 1 << card), counts[nxt],
                    seating.side_of(nxt) == seating.side_of(seat),
                    view.stock_count == 0 and remaining == 2))
            counts[seat] -= 1
            remaining -= 1
        return cls(Valuation.of(rules, view.sides), view.stock_count > 0, tuple(observed),
                   beta)

    def value(self, o: Observed, card: int, take: CardSet) -> float:
        """What the model thinks a play is worth to the seat making it (the medium bot's
        reckoning: the take, less the best reply the floor left offers the next seat, less
        a reserve for a sweeper spent while deals remain)."""
        key = (id(o), card, take)
        found = self.values.get(key)
        if found is not None:
            return found
        valuation = self.valuation
        rules = valuation.rules
        value = valuation.take_value(card, take, basra_points(rules, card, take, o.floor,
                                                              False))
        after = o.floor & ~take if take else o.floor | 1 << card
        risk = valuation.reply_risk(after, o.unseen & ~(1 << card), o.next_count,
                                    o.last_for_next)
        value += risk if o.friendly_next else -risk
        if self.deals_left and rules.is_power(card):
            value -= POWER_RESERVE
        self.values[key] = value
        return value

    def log_weight(self, hands: Sequence[CardSet]) -> float:
        """The log-likelihood of the others' plays this deal if ``hands`` (one a seat) are
        their hands now."""
        total = 0.0
        rules, beta = self.valuation.rules, self.beta
        options: list[Play] = []
        for o in self.observed:
            hand = hands[o.seat] | o.later | 1 << o.card
            options.clear()
            collect_plays(options, rules, hand, o.floor)
            best = -math.inf
            values = []
            for card, take in options:
                v = beta * self.value(o, card, take)
                values.append(v)
                best = max(best, v)
            made = beta * self.value(o, o.card, o.take)
            total += made - best - math.log(math.fsum(math.exp(v - best) for v in values))
        return total

    @property
    def empty(self) -> bool:
        return not self.observed
