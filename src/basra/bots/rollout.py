"""Rollout policy for the hard bot's search: a quick greedy player with a dash of chance.

Compiled with the engine (setup.py), since a search plays thousands of these a second.
Each play: with probability ``epsilon`` a uniformly random legal play; otherwise the best
capture by card points, pile size and basra (a sweeper's capture pays a reserve while deals
remain), or, with nothing to take, the cheapest card to lay down.
"""

from __future__ import annotations

from collections.abc import Callable

from basra.game.captures import max_card_unions, sum_sets
from basra.game.cards import BELOW_VALUE, CardSet
from basra.game.engine import Play, PlayLog, Round, advance, basra_points, collect_plays
from basra.game.rules import Rules

_FULL = (1 << 52) - 1
_new = tuple.__new__


def greedy_playout(  # noqa: PLR0913 - a policy's knobs, compiled: no options object
        rnd: Round, random: Callable[[], float], epsilon: float,
                   per_card: float, power_reserve: float, until: int = 0) -> Round:
    """Play ``rnd`` to its end with the greedy policy; returns the finished round. With
    ``until``, stop once that many plays of the round have been made."""
    return _playout(rnd, random, epsilon, per_card, power_reserve, until, False)


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


def lookahead_playout(  # noqa: PLR0913 - a policy's knobs, compiled: no options object
        rnd: Round, random: Callable[[], float], epsilon: float,
                      per_card: float, power_reserve: float, until: int = 0) -> Round:
    """Like :func:`greedy_playout`, but each play also looks one play ahead: a play is worth
    what it takes less the best take it leaves the next seat, whose hand in the playout's
    world is known (more when that seat is an opponent, less when it is a partner)."""
    return _playout(rnd, random, epsilon, per_card, power_reserve, until, True)


def _playout(  # noqa: PLR0912, PLR0913 - the compiled hot loop, whole
        rnd: Round, random: Callable[[], float], epsilon: float, per_card: float,
        power_reserve: float, until: int, ahead: bool) -> Round:
    """The one playout loop of both policies (``ahead``: the one-play lookahead)."""
    setup, dealt, hands, floor, piles, basras, bonus, seat, last_taker, played, log, left = rnd
    rules = setup.rules
    last_play = rules.plays_per_round
    end = last_play
    if 0 < until < end:
        end = until
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
            next_hand = 0
            sign = 0.0
            if ahead and played + 1 < last_play:
                nxt = seat + 1
                if nxt == setup.seats:
                    nxt = 0
                next_hand = hands >> shift[nxt] & _FULL
                sign = 1.0 if setup.side_shift[nxt] != setup.side_shift[seat] else -0.5
            reserve = power_reserve if dealt < stock_size else 0.0
            best = -1e18
            card, take = options[0]
            for c, t in options:
                if t:
                    value = _take_value(rules, points_of, per_card, c, t, floor,
                                        played + 1 == last_play)
                    if power >> c & 1:
                        value -= reserve
                    after = floor ^ t
                else:
                    value = -1.0 - points_of[c] - (power_reserve if power >> c & 1 else 0.0)
                    after = floor | 1 << c
                if next_hand and after:
                    value -= sign * _best_reply(rules, points_of, per_card, next_hand, after,
                                                played + 2 == last_play)
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


def _best_reply(  # noqa: PLR0913 - loose values: a native call in the hot loop
        rules: Rules, points_of: tuple[int, ...], per_card: float, hand: CardSet,
        floor: CardSet, last: bool) -> float:
    """The best :func:`_take_value` of a take ``hand`` can make on ``floor`` (0 when none):
    every take :func:`~basra.game.engine.collect_plays` would list, without listing them."""
    top = 0.0
    if not floor:
        return top
    table = rules.capture_table
    one_set = rules.sum_sets == "one-set"
    while hand:
        low = hand & -hand
        card = low.bit_length() - 1
        hand ^= low
        kind, rank_mask, value = table[card]
        if kind == 0:
            v = _take_value(rules, points_of, per_card, card, floor, floor, last)
            top = max(top, v)
            continue
        matches = floor & rank_mask
        if kind == 2:
            candidates = floor & BELOW_VALUE[value]
            if candidates & (candidates - 1):
                found = sum_sets(candidates, value) if one_set else max_card_unions(
                    candidates, value)
                if found:
                    for s in found:
                        v = _take_value(rules, points_of, per_card, card, matches | s, floor,
                                        last)
                        top = max(top, v)
                    continue
        if matches:
            v = _take_value(rules, points_of, per_card, card, matches, floor, last)
            top = max(top, v)
    return top


def _take_value(  # noqa: PLR0913 - loose values: a native call in the hot loop
        rules: Rules, points_of: tuple[int, ...], per_card: float, card: int,
                take: int, floor: int, last: bool) -> float:
    """What a take is worth to the side making it: card points, pile size, basra."""
    if not take:
        return 0.0
    got = take | 1 << card
    value = per_card * got.bit_count()
    while got:
        low = got & -got
        value += points_of[low.bit_length() - 1]
        got ^= low
    if take == floor:
        value += basra_points(rules, card, take, floor, last)
    return value
