"""Rollout policy for the hard bot's search: a quick greedy player with a dash of chance.

Compiled with the engine (setup.py), since a search plays thousands of these a second.
Each play: with probability ``epsilon`` a uniformly random legal play; otherwise the best
capture by card points, pile size and basra (a sweeper's capture pays a reserve while deals
remain), or, with nothing to take, the cheapest card to lay down.
"""

from __future__ import annotations

from collections.abc import Callable

from basra.engine import Play, PlayLog, Round, advance, basra_points, collect_plays

_FULL = (1 << 52) - 1
_new = tuple.__new__


def greedy_playout(rnd: Round, random: Callable[[], float], epsilon: float,
                   per_card: float, power_reserve: float) -> Round:
    """Play ``rnd`` to its end with the greedy policy; returns the finished round."""
    setup, dealt, hands, floor, piles, basras, bonus, seat, last_taker, played, log, left = rnd
    rules = setup.rules
    end = rules.plays_per_round
    shift = setup.seat_shift
    points_of = rules.card_points
    power = rules.power_cards
    stock_size = len(setup.stock)
    options: list[Play] = []
    while played < end:
        options.clear()
        collect_plays(options, rules, hands >> shift[seat] & _FULL, floor)
        n = len(options)
        if n == 1:
            card, take = options[0]
        elif random() < epsilon:
            card, take = options[int(random() * n)]
        else:
            best = -1e18
            card, take = options[0]
            reserve = power_reserve if dealt < stock_size else 0.0
            for c, t in options:
                if t:
                    got = t | 1 << c
                    value = per_card * got.bit_count()
                    while got:
                        low = got & -got
                        value += points_of[low.bit_length() - 1]
                        got ^= low
                    if t == floor:
                        value += basra_points(rules, c, t, floor, played + 1 == end)
                    if power >> c & 1:
                        value -= reserve
                else:
                    value = -1.0 - points_of[c] - (power_reserve if power >> c & 1 else 0.0)
                value += random() * 0.01
                if value > best:
                    best = value
                    card, take = c, t
        (dealt, hands, floor, piles, basras, bonus, turn, last_taker, played, points,
         left) = advance(setup, card, take, dealt, hands, floor, piles, basras, bonus, seat,
                         last_taker, played)
        log = _new(PlayLog, (log, seat, card, take, points))
        seat = turn
    return _new(Round, (setup, dealt, hands, floor, piles, basras, bonus, seat, last_taker,
                        played, log, left))


def resample(template: Round, seat: int, unseen: list[int],
             random: Callable[[], float]) -> Round:
    """``template`` with the cards hidden from ``seat`` dealt afresh: ``unseen`` (shuffled
    in place) fills the other hands, as many as each holds, and then the stock."""
    n = len(unseen)
    for i in range(n - 1, 0, -1):
        j = int(random() * (i + 1))
        unseen[i], unseen[j] = unseen[j], unseen[i]
    setup = template.setup
    hands = template.packed_hands
    pos = 0
    for other in range(setup.seats):
        if other == seat:
            continue
        shift = setup.seat_shift[other]
        count = (hands >> shift & _FULL).bit_count()
        hands &= ~(_FULL << shift)
        for k in range(pos, pos + count):
            hands |= 1 << (unseen[k] + shift)
        pos += count
    new_setup = setup._replace(stock=tuple(unseen[pos:]))
    return template._replace(setup=new_setup, packed_hands=hands, dealt=0)
