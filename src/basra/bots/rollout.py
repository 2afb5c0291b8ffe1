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
    end = 52 - rules.floor_size
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
