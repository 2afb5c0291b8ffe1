"""Property tests: the engine's capture enumeration against the brute-force oracle
(tests/oracle.py, written straight from RULES.md 3 and 6.1), for both sum-set modes and every
variant; legal_plays against takes(); apply_play refusing every take the rules do not list."""

from __future__ import annotations

import dataclasses

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import oracle
from basra.errors import IllegalPlayError
from basra.game.captures import takes
from basra.game.cards import NAMES, card_name, mask_of, parse_card
from basra.game.engine import Play, apply_play, basra_points, deal_round, legal_plays
from basra.game.rules import find_variant
from conftest import VARIANT_NAMES, names, take_names

MODES = ("one-set", "max-cards")
# low numerals, the 7D and a few face cards: floors rich in sum sets and power-card cases
_RICH_TEXT = (
    "AC AD AH AS 2C 2D 2H 2S 3C 3D 3H 3S 4C 4D 4H 4S 5C 5D 5H 6C 6S 7D 7S 8H 9C 10D "
    "JC JS QH KD"
)
RICH = [parse_card(t) for t in _RICH_TEXT.split()]

SETTINGS = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def rules_for(variant: str, mode: str):
    """The variant's rules with the sum-set mode swapped in (both modes for every variant)."""
    return dataclasses.replace(find_variant(variant), sum_sets=mode)


@st.composite
def card_on_floor(draw, max_floor: int = 10):
    """A played card and a floor (disjoint), the floor often rich in small numerals."""
    pool = draw(st.sampled_from([RICH, list(range(52))]))
    floor_cards = draw(st.lists(st.sampled_from(pool), unique=True, max_size=max_floor))
    card = draw(st.sampled_from([c for c in range(52) if c not in floor_cards]))
    return card, mask_of(floor_cards)


@st.composite
def mid_round(draw, max_floor: int = 10):
    """A 2-player position: seat 0 to play with 1-4 cards, a floor, seat 1's cards."""
    deck = draw(st.permutations(range(52)))
    rich = draw(st.booleans())
    if rich:  # put the rich cards first so that floors are full of sums
        deck = sorted(deck, key=lambda c: c not in RICH)
    k = draw(st.integers(0, max_floor))
    h = draw(st.integers(1, 4))
    floor = mask_of(deck[:k])
    hand = mask_of(deck[k:k + h])
    other = mask_of(deck[k + h:k + 2 * h])
    return floor, hand, other


def make_position(rules, floor, hand, other, played=40):
    rnd = deal_round(rules, 2, 1, list(range(52)))
    return rnd._replace(packed_hands=hand | other << 52, floor=floor, turn=0, played=played,
                        packed_piles=0, dealt=len(rnd.setup.stock))


# ------------------------------------------------------------ the oracle itself


def _oracle(variant: str, card: str, floor: str) -> list[str]:
    cards = [parse_card(t) for t in floor.split()]
    return take_names(oracle.legal_takes(variant, parse_card(card), mask_of(cards)))


def _takes(*floors: str) -> list[str]:
    return sorted(names(mask_of(parse_card(t) for t in f.split())) for f in floors)


def test_oracle_agrees_with_the_rule_book_examples():
    # the oracle is checked by hand on the rule book's cases before it judges the engine
    assert _oracle("egyptian", "5H", "5C 4D AH") == _takes("5C 4D AH")
    assert _oracle("egyptian", "5H", "4C AD 3H 2S") == _takes("4C AD", "3H 2S")
    assert _oracle("serbian", "5H", "4C AD 3H 2S") == _takes("4C AD 3H 2S")
    assert _oracle("serbian", "6H", "AC 2D 3H 4S") == _takes("AC 2D 3H")
    assert _oracle("serbian", "5H", "AC 4D 2H 3S 3C") == _takes("AC 4D 2H 3S", "AC 4D 2H 3C")
    assert _oracle("serbian", "6H", "AC 2D 3H 4S 5C") == _takes("AC 5C 2D 4S")
    assert _oracle("egyptian", "5H", "5D QC") == _takes("5D")
    assert _oracle("egyptian", "QH", "QC 2D") == _takes("QC")
    assert _oracle("egyptian", "QH", "KC 2D") == _takes("")
    assert _oracle("egyptian", "JH", "QC 5D") == _takes("QC 5D")
    assert _oracle("egyptian", "7D", "QC 5D") == _takes("QC 5D")
    assert _oracle("lebanese", "7D", "QC 5D 2S 7S") == _takes("5D 2S 7S")
    assert _oracle("lebanese", "JH", "") == _takes("")
    assert _oracle("serbian", "9H", "4C 4D") == _takes("")
    assert oracle.basra("serbian", parse_card("JH"), parse_card_set("JC"),
                        parse_card_set("JC"), False) == 20
    assert oracle.basra("egyptian", parse_card("7D"), parse_card_set("4C 6D"),
                        parse_card_set("4C 6D"), False) == 10
    assert oracle.basra("arabic101", parse_card("5H"), parse_card_set("5C"),
                        parse_card_set("5C"), True) == 0


def parse_card_set(text: str) -> int:
    return mask_of(parse_card(t) for t in text.split())


# ------------------------------------------------------------- takes vs oracle


@SETTINGS
@given(variant=st.sampled_from(VARIANT_NAMES), mode=st.sampled_from(MODES),
       play=card_on_floor())
def test_takes_are_exactly_the_legal_takes_of_the_rule_book(variant, mode, play):
    card, floor = play
    rules = rules_for(variant, mode)
    listed = takes(rules, card, floor)
    assert len(listed) == len(set(listed)), "a take listed twice"
    expected = oracle.legal_takes(variant, card, floor, mode)
    assert take_names(listed) == take_names(expected), (
        f"{variant}/{mode}: {NAMES[card]} on [{names(floor)}]")


@SETTINGS
@given(variant=st.sampled_from(VARIANT_NAMES), play=card_on_floor())
def test_takes_in_the_variant_own_mode(variant, play):
    card, floor = play
    listed = takes(find_variant(variant), card, floor)
    assert set(listed) == oracle.legal_takes(variant, card, floor)


@SETTINGS
@given(variant=st.sampled_from(VARIANT_NAMES), mode=st.sampled_from(MODES),
       play=card_on_floor())
def test_every_listed_take_is_legal_and_never_empty_when_a_capture_exists(variant, mode, play):
    card, floor = play
    listed = takes(rules_for(variant, mode), card, floor)
    for take in listed:
        assert oracle.is_legal_take(variant, card, floor, take, mode)
        assert not take & ~floor
    if len(listed) > 1 or listed[0]:
        assert 0 not in listed  # who can take must take


# ------------------------------------------------------- legal_plays vs takes


@SETTINGS
@given(variant=st.sampled_from(VARIANT_NAMES), mode=st.sampled_from(MODES), pos=mid_round())
def test_legal_plays_agree_with_takes_for_every_card_in_hand(variant, mode, pos):
    floor, hand, other = pos
    rules = rules_for(variant, mode)
    rnd = make_position(rules, floor, hand, other)
    plays = legal_plays(rnd)
    assert len(plays) == len(set(plays)), "a play listed twice"
    expected = {Play(c, t) for c in range(52) if hand >> c & 1 for t in takes(rules, c, floor)}
    assert set(plays) == expected
    assert {p.card for p in plays} == {c for c in range(52) if hand >> c & 1}


@SETTINGS
@given(variant=st.sampled_from(VARIANT_NAMES), pos=mid_round(max_floor=8))
def test_legal_plays_agree_with_the_oracle(variant, pos):
    floor, hand, other = pos
    rnd = make_position(find_variant(variant), floor, hand, other)
    expected = {Play(c, t) for c in range(52) if hand >> c & 1
                for t in oracle.legal_takes(variant, c, floor)}
    assert set(legal_plays(rnd)) == expected


# ------------------------------------------------ apply_play refuses the rest


@SETTINGS
@given(variant=st.sampled_from(VARIANT_NAMES), pos=mid_round(max_floor=8), data=st.data())
def test_apply_play_rejects_every_take_not_listed(variant, pos, data):
    floor, hand, other = pos
    rules = find_variant(variant)
    rnd = make_position(rules, floor, hand, other)
    card = data.draw(st.sampled_from([c for c in range(52) if hand >> c & 1]))
    listed = set(takes(rules, card, floor))
    floor_cards = [c for c in range(52) if floor >> c & 1]
    for _ in range(6):
        take = mask_of(data.draw(st.lists(st.sampled_from(floor_cards), unique=True))
                       if floor_cards else [])
        if data.draw(st.booleans()):  # sometimes a card that is not on the floor
            take |= 1 << data.draw(st.sampled_from([c for c in range(52) if not floor >> c & 1]))
        if take in listed:
            after = apply_play(rnd, Play(card, take))
            assert after.floor == ((floor & ~take) if take else floor | 1 << card)
        else:
            try:
                apply_play(rnd, Play(card, take))
            except IllegalPlayError as err:
                assert err.code == ("play/must_take" if take == 0 else "play/bad_take")
            else:
                raise AssertionError(f"{card_name(card)} took [{names(take)}] on "
                                     f"[{names(floor)}]: not a legal take")


# -------------------------------------------------------------- basra vs oracle


@SETTINGS
@given(variant=st.sampled_from(VARIANT_NAMES), play=card_on_floor(max_floor=5),
       last=st.booleans(), data=st.data())
def test_basra_points_follow_the_rule_book(variant, play, last, data):
    card, floor = play
    rules = find_variant(variant)
    take = data.draw(st.sampled_from(sorted(takes(rules, card, floor))))
    expected = oracle.basra(variant, card, take, floor, last)
    assert basra_points(rules, card, take, floor, last) == expected, (
        f"{variant}: {NAMES[card]} takes [{names(take)}] of [{names(floor)}], last={last}")
    # and the same through a play
    other = next(c for c in range(52) if c != card and not floor >> c & 1)
    rnd = make_position(rules, floor, 1 << card, 1 << other if not last else 0,
                        played=47 if last else 46)
    after = apply_play(rnd, Play(card, take))
    assert after.plays()[-1].basra == expected
    assert after.bonus[0] == expected


# ------------------------------------------------------------------- notation


@given(card=st.integers(0, 51), lower=st.booleans(), ten_as_t=st.booleans(),
       symbol=st.booleans())
def test_any_accepted_spelling_parses_to_the_card(card, lower, ten_as_t, symbol):
    text = NAMES[card]
    if ten_as_t and text.startswith("10"):
        text = "T" + text[2:]
    if symbol:
        text = text[:-1] + {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[text[-1]]
    if lower:
        text = text.lower()
    assert parse_card(text) == card
    assert card_name(parse_card(text)) == NAMES[card]
