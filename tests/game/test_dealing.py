"""RULES.md section 2: seating, dealing, turn order (and the FAIRNESS.md burying vector)."""

from __future__ import annotations

import random

import pytest

from basra.errors import BasraError, DeckError, IllegalPlayError
from basra.game.cards import NAMES, mask_of
from basra.game.engine import (
    Play,
    apply_play,
    deal_round,
    legal_plays,
    new_match,
    play,
    start_round,
)
from basra.game.rules import find_variant
from conftest import (
    ALL_SEATINGS,
    OPENING_FORBIDDEN,
    C,
    M,
    deck_with_top,
    names,
    seating_id,
)

FAIRNESS_DECK_19 = (
    "10S AH 6H 6C AS 10C 6D 7H 7D 2S 9C KH JS 2C 4H 8C 2D 5S 3D KS JC 8D 4D 5C 9S 4S QH QS "
    "6S 8H 4C 2H 3H 3C KD 8S AC 7S AD QC 3S JD 5H QD 5D 9D JH 9H 10H KC 7C 10D"
)


def reference_deal(variant: str, n: int, dealer: int, deck: list[int]):
    """RULES.md 2, step by step: hands one card at a time from the seat after the dealer,
    then the floor, burying forbidden cards at len(stock) // 2 of the stock after removal."""
    hands: list[list[int]] = [[] for _ in range(n)]
    pos = 0
    for _ in range(4):
        for k in range(n):
            hands[(dealer + 1 + k) % n].append(deck[pos])
            pos += 1
    stock = list(deck[pos:])
    floor: list[int] = []
    while len(floor) < 4:
        card = stock.pop(0)
        if NAMES[card] in OPENING_FORBIDDEN[variant]:
            stock.insert(len(stock) // 2, card)
        else:
            floor.append(card)
    return hands, floor, stock


def random_play(rnd, rng):
    return apply_play(rnd, rng.choice(legal_plays(rnd)))


# ------------------------------------------------------------------- the deal


@pytest.mark.parametrize("seating", ALL_SEATINGS, ids=seating_id)
def test_deal_one_card_at_a_time_from_the_seat_after_the_dealer(seating):
    variant, n, teams = seating
    rng = random.Random(n)
    for dealer in range(n):
        deck = list(range(52))
        rng.shuffle(deck)
        rnd = deal_round(find_variant(variant), n, dealer, deck, teams)
        for k in range(n):
            seat = (dealer + 1 + k) % n
            expected = mask_of(deck[k + n * i] for i in range(4))
            assert names(rnd.hand(seat)) == names(expected), f"seat {seat}, dealer {dealer}"


@pytest.mark.parametrize("seating", ALL_SEATINGS, ids=seating_id)
def test_every_player_holds_four_and_the_floor_four(seating):
    variant, n, teams = seating
    rnd = deal_round(find_variant(variant), n, 0, list(range(52)), teams)
    assert [h.bit_count() for h in rnd.hands] == [4] * n
    assert rnd.floor.bit_count() == 4
    assert rnd.setup.opening_floor == rnd.floor
    assert len(rnd.setup.stock) == 52 - 4 * n - 4


def test_two_players_seat_zero_deals_seat_one_gets_the_first_card():
    # canonical deck: AC goes to seat 1, 2C to seat 0, and so on; then the floor 9C 10C ...
    rnd = deal_round(find_variant("lebanese"), 2, 0, list(range(52)))
    assert names(rnd.hand(1)) == "AC 3C 5C 7C"
    assert names(rnd.hand(0)) == "2C 4C 6C 8C"


def test_cards_come_off_the_top_of_the_deck():
    deck = deck_with_top("KS QS 2H 3H 4H 5H 6H 8H 9C 8C 6C 5C")
    rnd = deal_round(find_variant("egyptian"), 2, 1, deck)  # seat 1 deals: seat 0 first
    assert names(rnd.hand(0)) == names(M("KS 2H 4H 6H"))
    assert names(rnd.hand(1)) == names(M("QS 3H 5H 8H"))
    assert names(rnd.floor) == names(M("9C 8C 6C 5C"))


def test_opening_floor_is_drawn_after_the_players_cards():
    deck = deck_with_top("AC 2C 3C 4C 5C 6C 8C 9C 10C QC KC AD")
    rnd = deal_round(find_variant("egyptian"), 2, 0, deck)
    assert names(rnd.floor) == names(M("10C QC KC AD"))
    assert rnd.setup.stock == tuple(deck[12:])


@pytest.mark.parametrize("variant", ["egyptian", "arabic101", "lebanese", "serbian"])
def test_a_jack_drawn_for_the_opening_floor_is_buried_at_half_the_stock(variant):
    deck = deck_with_top("AC 2C 3C 4C 5C 6C 8C 9C JH 2D 3D 4D 5D")
    rnd = deal_round(find_variant(variant), 2, 0, deck)
    assert names(rnd.floor) == names(M("2D 3D 4D 5D"))
    rest = deck[13:]
    # after JH is removed the stock is 2D 3D 4D 5D + rest (43 cards): JH goes in at 21,
    # then the four floor cards leave the top, so JH ends at index 17 of the stock
    assert list(rnd.setup.stock) == [*rest[:17], C("JH"), *rest[17:]]


@pytest.mark.parametrize(("variant", "buried"), [
    ("egyptian", True), ("arabic101", False), ("lebanese", False), ("serbian", True),
])
def test_seven_of_diamonds_on_the_opening_floor(variant, buried):
    deck = deck_with_top("AC 2C 3C 4C 5C 6C 8C 9C 7D 2D 3D 4D 5D")
    rnd = deal_round(find_variant(variant), 2, 0, deck)
    if buried:
        assert names(rnd.floor) == names(M("2D 3D 4D 5D"))
        assert C("7D") in rnd.setup.stock
    else:
        assert names(rnd.floor) == names(M("7D 2D 3D 4D"))
        assert C("7D") not in rnd.setup.stock


def test_forbidden_cards_in_a_row_are_each_buried_in_the_stock_as_it_is_then():
    deck = deck_with_top("AC 2C 3C 4C 5C 6C 8C 9C JC 7D JH 2D JS 3D 4D 5D")
    rnd = deal_round(find_variant("egyptian"), 2, 0, deck)
    _, floor, stock = reference_deal("egyptian", 2, 0, deck)
    assert names(rnd.floor) == names(M("2D 3D 4D 5D")) == names(mask_of(floor))
    assert list(rnd.setup.stock) == stock


@pytest.mark.parametrize("seating", ALL_SEATINGS, ids=seating_id)
def test_deal_matches_the_rule_book_step_by_step_on_random_decks(seating):
    variant, n, teams = seating
    rules = find_variant(variant)
    rng = random.Random(f"{variant}{n}{teams}")
    for trial in range(300):
        deck = list(range(52))
        rng.shuffle(deck)
        dealer = trial % n
        rnd = deal_round(rules, n, dealer, deck, teams)
        hands, floor, stock = reference_deal(variant, n, dealer, deck)
        assert [names(h) for h in rnd.hands] == [names(mask_of(h)) for h in hands]
        assert names(rnd.floor) == names(mask_of(floor))
        assert list(rnd.setup.stock) == stock
        assert list(rnd.setup.deck) == deck


def test_fairness_burying_vector():
    # FAIRNESS.md: egyptian, two players, round 0 (seat 0 deals, seat 1 receives first)
    deck = [C(t) for t in FAIRNESS_DECK_19.split()]
    rnd = deal_round(find_variant("egyptian"), 2, 0, deck)
    assert names(rnd.hand(0)) == names(M("AH 6C 10C 7H"))
    assert names(rnd.hand(1)) == names(M("10S 6H AS 6D"))
    assert names(rnd.floor) == names(M("2S 9C KH 2C"))
    assert " ".join(NAMES[c] for c in rnd.setup.stock) == (
        "4H 8C 2D 5S 3D KS JC 8D 4D 5C 9S 4S QH QS 6S 8H 7D 4C 2H JS 3H 3C KD 8S AC 7S AD "
        "QC 3S JD 5H QD 5D 9D JH 9H 10H KC 7C 10D"
    )


def test_a_deck_must_be_the_52_cards_once_each():
    with pytest.raises(DeckError):
        deal_round(find_variant("egyptian"), 2, 0, list(range(51)))
    with pytest.raises(DeckError):
        deal_round(find_variant("egyptian"), 2, 0, [0, *range(51)])


def test_the_dealer_must_be_a_seat():
    with pytest.raises(BasraError):
        deal_round(find_variant("egyptian"), 2, 2, list(range(52)))


# ------------------------------------------------------------------ turn order


@pytest.mark.parametrize("seating", ALL_SEATINGS, ids=seating_id)
def test_the_seat_after_the_dealer_plays_first_and_turns_go_in_seat_order(seating):
    variant, n, teams = seating
    rules = find_variant(variant)
    rng = random.Random(7)
    for dealer in range(n):
        deck = list(range(52))
        rng.shuffle(deck)
        rnd = deal_round(rules, n, dealer, deck, teams)
        assert rnd.turn == (dealer + 1) % n
        seats = []
        while not rnd.finished:
            seats.append(rnd.turn)
            rnd = random_play(rnd, rng)
        assert seats == [(dealer + 1 + i) % n for i in range(48)]
        assert [p.seat for p in rnd.plays()] == seats


@pytest.mark.parametrize("n", [2, 3, 4])
def test_dealer_of_round_r_is_seat_r_mod_n(n):
    rules = find_variant("lebanese")
    rng = random.Random(n)
    match = new_match(rules, n)
    for r in range(2 * n + 1):
        deck = list(range(52))
        rng.shuffle(deck)
        match = start_round(match, deck)
        assert match.round.dealer == r % n
        assert match.round.turn == (r + 1) % n
        while match.in_round:
            match = play(match, rng.choice(legal_plays(match.round)))
        # keep the match going: this test is about the rotation only
        match = match._replace(totals=(0,) * n, winner=None)


def test_seat_zero_deals_the_first_round():
    match = start_round(new_match(find_variant("egyptian"), 2), list(range(52)))
    assert match.round.dealer == 0
    assert match.round.turn == 1


# ----------------------------------------------------------------------- redeal


@pytest.mark.parametrize("seating", ALL_SEATINGS, ids=seating_id)
def test_redeal_when_every_hand_is_empty(seating):
    variant, n, teams = seating
    rules = find_variant(variant)
    rng = random.Random(11)
    deck = list(range(52))
    rng.shuffle(deck)
    dealer = n - 1
    rnd = deal_round(rules, n, dealer, deck, teams)
    stock = list(rnd.setup.stock)
    deals = 1
    while not rnd.finished:
        before = rnd
        rnd = random_play(rnd, rng)
        if rnd.finished:
            break
        if sum(h.bit_count() for h in before.hands) == 1:
            # that was the deal's last card: a new deal of 4 each, one at a time from the
            # seat after the dealer, and no new floor cards
            deals += 1
            top, stock = stock[:4 * n], stock[4 * n:]
            for k in range(n):
                seat = (dealer + 1 + k) % n
                expected = mask_of(top[k + n * i] for i in range(4))
                assert names(rnd.hand(seat)) == names(expected)
            last = rnd.plays()[-1]
            expected_floor = before.floor & ~last.take if last.take else \
                before.floor | 1 << last.card
            assert names(rnd.floor) == names(expected_floor)
            assert rnd.turn == (dealer + 1) % n
    assert stock == []
    assert deals == 48 // (4 * n)


@pytest.mark.parametrize(("n", "deals"), [(2, 6), (3, 4), (4, 3)])
def test_deals_per_round(n, deals):
    rules = find_variant("lebanese")
    rng = random.Random(3)
    deck = list(range(52))
    rng.shuffle(deck)
    rnd = deal_round(rules, n, 0, deck)
    seen = 1
    while not rnd.finished:
        empty_before = sum(h.bit_count() for h in rnd.hands) == 1
        rnd = random_play(rnd, rng)
        if empty_before and not rnd.finished:
            seen += 1
    assert seen == deals


@pytest.mark.parametrize("seating", ALL_SEATINGS, ids=seating_id)
def test_a_round_is_48_plays_then_it_is_over(seating):
    variant, n, teams = seating
    rng = random.Random(5)
    deck = list(range(52))
    rng.shuffle(deck)
    rnd = deal_round(find_variant(variant), n, 0, deck, teams)
    count = 0
    while not rnd.finished:
        rnd = random_play(rnd, rng)
        count += 1
    assert count == 48
    assert rnd.played == 48
    assert not any(rnd.hands)
    assert rnd.floor == 0
    assert legal_plays(rnd) == []
    with pytest.raises(IllegalPlayError) as err:
        apply_play(rnd, Play(C("AC"), 0))
    assert err.value.code == "play/round_over"
