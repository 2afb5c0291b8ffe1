"""RULES.md section 1: cards, card notation, canonical order, values."""

from __future__ import annotations

import pytest

from basra.errors import BasraError, CardNotationError
from basra.game.cards import (
    NAMES,
    VALUES,
    card_name,
    cards_of,
    format_cards,
    mask_of,
    parse_card,
    parse_card_set,
)

_CANONICAL_TEXT = (
    "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC "
    "AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD "
    "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH "
    "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"
)
CANONICAL = _CANONICAL_TEXT.split()


# ------------------------------------------------------------------ canonical order


def test_canonical_order_is_suits_c_d_h_s_then_a_to_k():
    assert list(NAMES) == CANONICAL


@pytest.mark.parametrize(("index", "text"), [(0, "AC"), (12, "KC"), (13, "AD"), (51, "KS"),
                                             (22, "10D"), (19, "7D"), (1, "2C"), (40, "2S")])
def test_canonical_indices_named_in_the_rule_book(index, text):
    assert parse_card(text) == index
    assert card_name(index) == text


def test_every_card_round_trips_through_its_notation():
    for index, text in enumerate(CANONICAL):
        assert parse_card(text) == index
        assert card_name(index) == text


# ---------------------------------------------------------------------- notation


@pytest.mark.parametrize("text", ["10D", "TD", "td", "10d", "t♦", "T♦", "10♦"])
def test_ten_is_written_10_or_t(text):
    assert card_name(parse_card(text)) == "10D"


@pytest.mark.parametrize(("text", "canonical"), [
    ("jS", "JS"), ("js", "JS"), ("Js", "JS"), ("ah", "AH"), ("qc", "QC"), ("kd", "KD"),
    ("7d", "7D"), ("2c", "2C"),
])
def test_parser_accepts_lower_case(text, canonical):
    assert card_name(parse_card(text)) == canonical


@pytest.mark.parametrize(("text", "canonical"), [
    ("A♣", "AC"), ("7♦", "7D"), ("Q♥", "QH"), ("K♠", "KS"), ("j♠", "JS"), ("10♣", "10C"),
    ("T♥", "10H"),
])
def test_parser_accepts_suit_symbols(text, canonical):
    assert card_name(parse_card(text)) == canonical


def test_output_is_always_canonical():
    cards = [parse_card(t) for t in ["t♦", "7♦", "js", "a♣"]]
    assert [card_name(c) for c in cards] == ["10D", "7D", "JS", "AC"]
    assert format_cards(mask_of(cards)) == "AC 7D 10D JS"  # in canonical order


def test_format_cards_of_nothing_is_empty():
    assert format_cards(0) == ""


@pytest.mark.parametrize("text", [
    "1C", "11D", "0D", "1OD", "", " ", "XX", "10", "D", "DD", "AX", "7DD", "10DH", "JJ",
    "C7", "♦7", "TT", "1♦", "B♠",
])
def test_bad_card_text_raises_card_notation_error_naming_the_text(text):
    with pytest.raises(CardNotationError) as err:
        parse_card(text)
    assert repr(text) in str(err.value) or text in str(err.value)
    assert isinstance(err.value, BasraError)
    assert err.value.code == "card/bad_notation"


def test_a_card_set_names_its_first_bad_text():
    with pytest.raises(CardNotationError, match="ZZ"):
        parse_card_set(["5H", "ZZ", "QQ"])


def test_non_text_is_a_card_notation_error():
    with pytest.raises(CardNotationError):
        parse_card(5)  # type: ignore[arg-type]


def test_card_notation_error_is_a_value_error():
    with pytest.raises(ValueError):
        parse_card("nope")


# ------------------------------------------------------------------------ values


@pytest.mark.parametrize(("rank", "value"), [
    ("A", 1), ("2", 2), ("3", 3), ("4", 4), ("5", 5), ("6", 6), ("7", 7), ("8", 8),
    ("9", 9), ("10", 10),
])
def test_numeral_values(rank, value):
    for suit in "CDHS":
        assert VALUES[parse_card(rank + suit)] == value


@pytest.mark.parametrize("rank", ["J", "Q", "K"])
def test_face_cards_have_no_value(rank):
    for suit in "CDHS":
        assert not VALUES[parse_card(rank + suit)]


def test_card_sets_are_bit_masks_in_canonical_order():
    m = mask_of(parse_card(t) for t in ["KS", "AC", "10D"])
    assert m == (1 << 0) | (1 << 22) | (1 << 51)
    assert cards_of(m) == [0, 22, 51]
