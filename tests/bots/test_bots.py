"""Bots: legal plays only, views only, deterministic given a seed, budgets respected."""

from __future__ import annotations

import inspect
import random
import time

import pytest

from basra.bots import LEVELS, make_bot
from basra.bots.base import Bot
from basra.bots.determinize import sample_round
from basra.bots.hard import HardBot
from basra.bots.medium import score_plays
from basra.game.cards import cards_of, mask_of, parse_card
from basra.game.engine import (
    Match,
    Play,
    compose_round,
    legal_match_plays,
    new_match,
    play,
    start_round,
)
from basra.game.rules import VARIANTS, find_variant
from basra.game.views import SeatView, view

SEATINGS = [(name, n, t) for name, r in VARIANTS.items() for n, t in sorted(r.seatings)]
QUICK = {"iterations": 40, "time_cap": 0}


def _bot(level: str, seed: int) -> Bot:
    return make_bot(level, seed, **QUICK) if level in ("hard", "expert") else make_bot(level, seed)


def _play_round(match: Match, bots: list[Bot], rng: random.Random) -> Match:
    match = start_round(match, rng.sample(range(52), 52))
    while match.in_round:
        assert match.round is not None
        seat = match.round.turn
        v = view(match, seat)
        choice = bots[seat].choose(v)
        assert choice in v.legal
        match = play(match, choice, seat=seat)
    return match


@pytest.mark.parametrize("level", list(LEVELS))
@pytest.mark.parametrize(("variant", "seats", "teams"), SEATINGS)
def test_every_level_plays_every_variant_and_seating(level: str, variant: str, seats: int,
                                                     teams: bool) -> None:
    rng = random.Random(f"{level}{variant}{seats}")
    bots = [_bot(level, s) for s in range(seats)]
    match = _play_round(new_match(find_variant(variant), seats, teams), bots, rng)
    assert match.round is not None and match.round.finished
    assert len(match.results) == 1


def test_bots_are_given_views_not_states() -> None:
    for cls in LEVELS.values():
        params = inspect.signature(cls.decide).parameters
        assert params["view"].annotation in {"SeatView", SeatView}


@pytest.mark.parametrize("level", list(LEVELS))
def test_bots_are_deterministic_given_a_seed(level: str) -> None:
    def run() -> list[Play]:
        rng = random.Random(11)
        bots = [_bot(level, 5), _bot(level, 6)]
        match = start_round(new_match(find_variant("egyptian"), 2), rng.sample(range(52), 52))
        chosen = []
        while match.in_round:
            assert match.round is not None
            seat = match.round.turn
            p = bots[seat].choose(view(match, seat))
            chosen.append(p)
            match = play(match, p)
        return chosen

    assert run() == run()


def test_choose_refuses_when_not_the_seats_turn() -> None:
    match = start_round(new_match(find_variant("egyptian"), 2), list(range(52)))
    with pytest.raises(ValueError, match="not this seat's turn"):
        make_bot("easy").choose(view(match, 0))


def test_unknown_level() -> None:
    with pytest.raises(ValueError, match="unknown bot level 'grandmaster'"):
        make_bot("grandmaster")


def test_hard_respects_its_time_cap() -> None:
    rng = random.Random(2)
    match = start_round(new_match(find_variant("egyptian"), 2), rng.sample(range(52), 52))
    bot = make_bot("hard", 1, iterations=10**7, time_cap=0.2)
    seat = match.round.turn if match.round else 0
    v = view(match, seat)
    start = time.perf_counter()
    choice = bot.choose(v)
    assert time.perf_counter() - start < 1.5
    assert choice in v.legal


def test_hard_default_budget() -> None:
    bot = make_bot("hard")
    assert isinstance(bot, HardBot)
    assert bot.iterations == 1500 and bot.time_cap == 0.9


def _position(hand: str, floor: str, variant: str = "egyptian") -> SeatView:
    """Seat 1's view at the start of the third deal (24 cards left in the stock), holding
    ``hand`` with ``floor`` on the table; the other cards are in seat 0's hand, the stock
    and side 0's pile."""
    rules = find_variant(variant)
    mine = mask_of(parse_card(c) for c in hand.split())
    table = mask_of(parse_card(c) for c in floor.split())
    rest = [c for c in range(52) if not (mine | table) >> c & 1]
    other, stock, pile = mask_of(rest[:4]), rest[4:28], mask_of(rest[28:])
    rnd = compose_round(rules, 2, False, 0, hands=[other, mine], floor=table, stock=stock,
                        piles=[pile, 0], basras=[0, 0], bonus=[0, 0], turn=1,
                        last_taker=0, played=16)
    match = new_match(rules, 2)._replace(round=rnd, rounds_started=1)
    return view(match, 1)


def test_medium_takes_the_basra() -> None:
    v = _position("5H 9C QS 3D", "2C 3S")
    best = max(score_plays(v), key=lambda sv: sv[0])[1]
    assert best == Play(parse_card("5H"), mask_of([parse_card("2C"), parse_card("3S")]))
    assert make_bot("medium", 1).choose(v) == best


def test_medium_keeps_the_jack_for_a_richer_floor() -> None:
    # The JD could sweep the lone 4C, but the 4H takes it as well and keeps the Jack.
    v = _position("JD 4H KS QS", "4C")
    choice = make_bot("medium", 1).choose(v)
    assert choice.card == parse_card("4H")


def test_easy_takes_the_biggest_capture() -> None:
    v = _position("9H 2D QS KS", "4C 5S 2H 7C")
    choice = make_bot("easy", 3).choose(v)
    assert choice == Play(parse_card("9H"), mask_of([parse_card("2H"), parse_card("7C")])) or (
        choice == Play(parse_card("9H"), mask_of([parse_card("4C"), parse_card("5S")])))


def test_medium_does_not_leave_an_easy_basra() -> None:
    # Laying the 3D would leave 3D+5C, a basra for any 8 (or a 3 and a 5 together);
    # laying the QS leaves nothing that one card can clear.
    v = _position("3D QS 9C 9D", "5C")
    scored = {str(p): value for value, p in score_plays(v)}
    assert scored["QS"] > scored["3D"]


@pytest.mark.parametrize(("variant", "seats", "teams"), SEATINGS)
def test_determinization_is_consistent_with_the_view(variant: str, seats: int,
                                                     teams: bool) -> None:
    rng = random.Random(9)
    match = start_round(new_match(find_variant(variant), seats, teams),
                        rng.sample(range(52), 52))
    for _ in range(13):
        match = play(match, rng.choice(legal_match_plays(match)))
    assert match.round is not None
    seat = match.round.turn
    v = view(match, seat)
    world = sample_round(v, random.Random(1))
    assert world.hand(seat) == match.round.hand(seat)
    assert world.floor == match.round.floor
    assert tuple(h.bit_count() for h in world.hands) == v.hand_counts
    assert world.stock_left == v.stock_count
    assert world.piles == match.round.piles
    assert world.basras == match.round.basras and world.bonus == match.round.bonus
    assert world.turn == match.round.turn and world.played == match.round.played
    hidden = 0
    for s in range(seats):
        if s != seat:
            hidden |= world.hand(s)
    for c in world.setup.stock:
        hidden |= 1 << c
    assert hidden == v.unseen()
    assert set(cards_of(hidden)).isdisjoint(v.hand)


@pytest.mark.parametrize("level", list(LEVELS))
def test_bots_cannot_tell_hidden_cards_apart(level: str) -> None:
    """Shuffling every card a seat cannot see (other hands, the stock) never changes what
    its bot plays: the bot has nothing but the view to go on."""
    from game.test_views import _hidden_permuted  # noqa: PLC0415  (a shared test helper)

    rng = random.Random(21)
    match = start_round(new_match(find_variant("egyptian"), 2), rng.sample(range(52), 52))
    checked = 0
    while match.in_round and checked < 12:
        assert match.round is not None
        seat = match.round.turn
        v = view(match, seat)
        if len(v.legal) > 1:
            twin = _hidden_permuted(match, seat, rng)
            assert _bot(level, 3).choose(v) == _bot(level, 3).choose(view(twin, seat))
            checked += 1
        match = play(match, rng.choice(legal_match_plays(match)))
    assert checked > 0
