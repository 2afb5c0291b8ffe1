"""A seat sees only its view: own hand, floor, public plays, counts; never hidden cards."""

from __future__ import annotations

import json
import random

import pytest

from basra.game.cards import NAMES, cards_of
from basra.game.engine import Match, Round, legal_match_plays, new_match, play, start_round
from basra.game.rules import VARIANTS, find_variant
from basra.game.views import view, view_from_json

SEATINGS = [(name, n, t) for name, r in VARIANTS.items() for n, t in sorted(r.seatings)]
_SET = 52


def _hidden_permuted(match: Match, seat: int, rng: random.Random) -> Match:
    """The same match with every card hidden from ``seat`` (other hands, undealt stock,
    the deck's order) shuffled among their places: what ``seat`` cannot tell apart."""
    rnd = match.round
    assert rnd is not None
    setup = rnd.setup
    others = [s for s in range(rnd.seats) if s != seat]
    hidden = [c for s in others for c in cards_of(rnd.hand(s))]
    stock_rest = list(setup.stock[rnd.dealt:])
    pool = hidden + stock_rest
    rng.shuffle(pool)
    mapping = dict(zip(hidden + stock_rest, pool, strict=True))
    packed = rnd.packed_hands
    for s in others:
        packed &= ~(((1 << _SET) - 1) << (_SET * s))
        for c in cards_of(rnd.hand(s)):
            packed |= 1 << (mapping[c] + _SET * s)
    stock = setup.stock[: rnd.dealt] + tuple(mapping[c] for c in stock_rest)
    deck = tuple(mapping.get(c, c) for c in setup.deck)
    new_round: Round = rnd._replace(packed_hands=packed,
                                    setup=setup._replace(stock=stock, deck=deck))
    return match._replace(round=new_round)


@pytest.mark.parametrize(("variant", "seats", "teams"), SEATINGS)
def test_no_view_holds_another_seats_hand_or_the_stock(variant: str, seats: int,
                                                       teams: bool) -> None:
    rng = random.Random(f"{variant}{seats}{teams}")
    match = new_match(find_variant(variant), seats, teams)
    for _ in range(2):
        if match.over:
            break
        deck = list(range(52))
        rng.shuffle(deck)
        match = start_round(match, deck)
        while match.in_round:
            rnd = match.round
            assert rnd is not None
            public = rnd.setup.opening_floor
            for p in rnd.plays():
                public |= 1 << p.card
            for seat in range(seats):
                v = view(match, seat)
                allowed = {NAMES[c] for c in cards_of(public | rnd.hand(seat))}
                text = json.dumps(v.to_json())
                for c in range(52):
                    if NAMES[c] not in allowed:
                        assert f'"{NAMES[c]}"' not in text, (seat, NAMES[c])
                # Indistinguishable: permuting what the seat cannot see changes nothing.
                twin = _hidden_permuted(match, seat, rng)
                assert view(twin, seat) == v
            match = play(match, rng.choice(legal_match_plays(match)))


def test_view_shows_own_hand_counts_and_legal_plays_only_on_turn() -> None:
    match = start_round(new_match(find_variant("egyptian"), 2), list(range(52)))
    rnd = match.round
    assert rnd is not None
    mine = view(match, rnd.turn)
    other = view(match, 1 - rnd.turn)
    assert mine.my_turn and mine.legal
    assert not other.my_turn and other.legal == ()
    assert set(mine.hand) == set(cards_of(rnd.hand(rnd.turn)))
    assert mine.hand_counts == (4, 4)
    assert mine.stock_count == 40
    assert mine.floor == tuple(cards_of(rnd.floor))


def test_spectator_view_is_public() -> None:
    match = start_round(new_match(find_variant("lebanese"), 3), list(range(52)))
    spectator = view(match, None)
    assert spectator.hand == () and spectator.legal == ()
    assert spectator.hand_counts == (4, 4, 4)
    assert spectator.side is None


def test_view_before_first_round_and_bad_seat() -> None:
    match = new_match(find_variant("serbian"), 4, True)
    v = view(match, 2)
    assert v.round_number == 0 and v.turn is None and v.target == 101
    assert v.side == 0
    with pytest.raises(ValueError, match="seat must be from 0 to 3"):
        view(match, 4)


def test_unseen_is_other_hands_and_stock() -> None:
    rng = random.Random(7)
    match = start_round(new_match(find_variant("egyptian"), 2), rng.sample(range(52), 52))
    for _ in range(11):
        match = play(match, rng.choice(legal_match_plays(match)))
    rnd = match.round
    assert rnd is not None
    v = view(match, 0)
    stock = rnd.setup.stock[rnd.dealt:]
    expected = rnd.hand(1)
    for c in stock:
        expected |= 1 << c
    assert v.unseen() == expected


@pytest.mark.parametrize(("variant", "seats", "teams"), SEATINGS)
def test_view_json_round_trips(variant: str, seats: int, teams: bool) -> None:
    rng = random.Random(3)
    match = start_round(new_match(find_variant(variant), seats, teams), rng.sample(range(52), 52))
    for _ in range(30):
        match = play(match, rng.choice(legal_match_plays(match)))
    for seat in [*range(seats), None]:
        v = view(match, seat)
        assert view_from_json(json.loads(json.dumps(v.to_json()))) == v


def test_view_from_json_rejects_garbage() -> None:
    match = start_round(new_match(find_variant("egyptian"), 2), list(range(52)))
    data = view(match, 1).to_json()
    with pytest.raises(ValueError, match="missing or malformed"):
        view_from_json({k: v for k, v in data.items() if k != "floor"})
    with pytest.raises(ValueError, match="hand"):
        view_from_json({**data, "hand": "5H"})
    with pytest.raises(ValueError, match="bad card"):
        view_from_json({**data, "floor": ["ZZ"]})
