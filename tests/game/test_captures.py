"""RULES.md section 3: a play, and which floor cards it takes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from basra.errors import IllegalPlayError
from basra.game import captures
from basra.game.captures import set_memo_limit, sum_sets, takes
from basra.game.engine import Play, apply_play, legal_plays, play_unchecked
from basra.game.rules import find_variant
from conftest import VARIANT_NAMES, C, M, names, position, take_names

ONE_SET = ["egyptian", "arabic101", "lebanese"]
SEVEN_D_POWER = ["egyptian", "arabic101", "serbian"]


def options(variant: str, card: str, floor: str) -> list[str]:
    """The distinct legal takes of ``card`` on ``floor``, as sorted readable strings."""
    return take_names(takes(find_variant(variant), C(card), M(floor)))


def choices(*floors: str) -> list[str]:
    """Takes written like :func:`options` returns them."""
    return sorted(names(M(f)) for f in floors)


def case(variants: Sequence[str], rule: str, card: str, floor: str, *takes_: str) -> list[Any]:
    """``card`` played on ``floor`` has exactly the takes ``takes_`` in each of ``variants``
    (``""``: it takes nothing); the test's id is ``rule`` and the variant."""
    return [pytest.param(v, card, floor, choices(*takes_), id=f"{rule}-{v}") for v in variants]


CASES = [
    # ----------------------------------------------------------------- matches
    *case(VARIANT_NAMES, "a-numeral-takes-every-floor-card-of-its-rank",
          "5H", "5C 5D 9H KS", "5C 5D"),
    *case(VARIANT_NAMES, "suits-never-matter-for-a-match", "9C", "9D 9H 9S", "9D 9H 9S"),
    # 5H on 5C 4D AH: the match 5C and the sum set 4D+AH, in one strike
    *case(VARIANT_NAMES, "matches-are-always-taken-with-a-sum-set",
          "5H", "5C 4D AH", "5C 4D AH"),
    *case(VARIANT_NAMES, "a-numeral-with-no-match-and-no-sum-takes-nothing",
          "5H", "9C 8D KS", ""),
    # ------------------------------------------------------------- Q and K
    *case(VARIANT_NAMES, "a-queen-takes-every-card-of-its-rank-and-nothing-else",
          "QH", "QC QS 2D 3C 10H JD", "QC QS"),
    *case(VARIANT_NAMES, "a-king-takes-every-card-of-its-rank-and-nothing-else",
          "KH", "KC KS 2D 3C 10H JD", "KC KS"),
    *case(VARIANT_NAMES, "a-queen-without-a-queen-on-the-floor-takes-nothing",
          "QH", "KC 3D 9S", ""),
    *case(VARIANT_NAMES, "a-king-does-not-take-queens", "KH", "QC QD", ""),
    # ---------------------------------------------------------------- sums
    *case(VARIANT_NAMES, "an-ace-counts-one-in-a-sum", "5H", "AC 4D", "AC 4D"),
    *case(VARIANT_NAMES, "a-ten-takes-a-sum-of-three-cards", "10H", "6C 3D AS KS", "6C 3D AS"),
    # counting a face card as 0 would make {5D, QC} a sum set for 5: it is not
    *case(VARIANT_NAMES, "a-queen-on-the-floor-is-never-part-of-a-sum", "5H", "5D QC", "5D"),
    *case(VARIANT_NAMES, "a-queen-on-the-floor-is-never-part-of-a-sum-set",
          "5H", "4C AD QC", "4C AD"),
    *case(VARIANT_NAMES, "a-king-on-the-floor-is-never-part-of-a-sum", "5H", "5D KC", "5D"),
    *case(VARIANT_NAMES, "a-king-on-the-floor-is-never-part-of-a-sum-set",
          "5H", "4C AD KC", "4C AD"),
    # a jack lies on the floor after being laid on an empty floor
    *case(VARIANT_NAMES, "a-jack-on-the-floor-is-never-part-of-a-sum",
          "5H", "3D 2S JC", "3D 2S"),
    *case(VARIANT_NAMES, "jacks-on-the-floor-make-no-sum", "2H", "JC JD", ""),
    *case(VARIANT_NAMES, "a-sum-set-sums-exactly-not-less", "9H", "4C 4D", ""),  # 8, not 9
    *case(VARIANT_NAMES, "a-sum-set-sums-exactly-not-more", "9H", "4C 6D", ""),  # 10, not 9
    # 5H on 4C AD 3H 2S: {4C AD} or {3H 2S}, never both at once
    *case(ONE_SET, "one-set-the-player-chooses-which-sum-set",
          "5H", "4C AD 3H 2S", "4C AD", "3H 2S"),
    # 6H: 2D+4S or AC+2D+3H (they share 2D)
    *case(ONE_SET, "one-set-overlapping-sum-sets-are-each-a-choice",
          "6H", "AC 2D 3H 4S", "2D 4S", "AC 2D 3H"),
    *case(ONE_SET, "one-set-matches-join-every-sum-set-choice",
          "5H", "5S 4C AD 3H 2S", "5S 4C AD", "5S 3H 2S"),
    # serbian: 5H on 4C AD 3H 2S takes both sets
    *case(["serbian"], "max-cards-takes-every-disjoint-sum-set",
          "5H", "4C AD 3H 2S", "4C AD 3H 2S"),
    # 6H: {2D 4S} (2 cards) and {AC 2D 3H} (3 cards) overlap: the three cards are the take
    *case(["serbian"], "max-cards-prefers-the-collection-with-most-cards",
          "6H", "AC 2D 3H 4S", "AC 2D 3H"),
    # 5H: {AC 4D} plus {2H 3S} or {2H 3C}: four cards either way
    *case(["serbian"], "max-cards-ties-give-the-player-a-choice",
          "5H", "AC 4D 2H 3S 3C", "AC 4D 2H 3S", "AC 4D 2H 3C"),
    # 6H on AC 2D 3H 4S 5C: {AC 5C} + {2D 4S} (4 cards) beats {AC 2D 3H} (3 cards)
    *case(["serbian"], "max-cards-counts-cards-not-sets",
          "6H", "AC 2D 3H 4S 5C", "AC 5C 2D 4S"),
    *case(["serbian"], "max-cards-with-matches",
          "5H", "5C 4C AD 3H 2S KD", "5C 4C AD 3H 2S"),
    *case(["serbian"], "max-cards-no-sum-set-takes-the-matches", "5H", "5C 9D", "5C"),
    # ---------------------------------------------------------- power cards
    *case(VARIANT_NAMES, "a-jack-sweeps-the-whole-floor-face-cards-included",
          "JH", "QC KD 5H 9S AC", "QC KD 5H 9S AC"),
    *case(VARIANT_NAMES, "a-jack-takes-a-lone-jack", "JH", "JC", "JC"),
    *case(SEVEN_D_POWER, "the-seven-of-diamonds-sweeps-the-whole-floor",
          "7D", "QC KD 5H 9S JC", "QC KD 5H 9S JC"),
    *case(SEVEN_D_POWER, "the-seven-of-diamonds-power-takes-no-choice-of-sum-sets",
          "7D", "4C 3D 5H 2S", "4C 3D 5H 2S"),
    *case(["lebanese"], "the-seven-of-diamonds-is-a-plain-numeral-in-lebanese",
          "7D", "7S 5C 2H KD", "7S 5C 2H"),
    *case(["lebanese"], "the-plain-seven-of-diamonds-takes-nothing-without-a-seven-or-sum",
          "7D", "QC KD 9S", ""),
    *case(["lebanese"], "the-plain-seven-of-diamonds-chooses-a-sum-set",
          "7D", "4C 3H 5D 2S", "4C 3H", "5D 2S"),
    *(row for card in ("JC", "7D", "5H", "QS")
      for row in case(VARIANT_NAMES, f"{card}-on-an-empty-floor-is-laid-down", card, "", "")),
]


@pytest.mark.parametrize(("variant", "card", "floor", "expected"), CASES)
def test_the_takes_of_a_card_on_a_floor(variant, card, floor, expected):
    assert options(variant, card, floor) == expected


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_a_jack_on_an_empty_floor_stays_on_the_floor(variant):
    rnd = position(variant, ["JC 5H", "9S 3D"], "", turn=0)
    assert set(legal_plays(rnd)) == {Play(C("5H"), 0), Play(C("JC"), 0)}
    after = apply_play(rnd, Play(C("JC"), 0))
    assert names(after.floor) == "JC"
    assert after.pile(0) == 0
    assert after.bonus == (0, 0)


# ------------------------------------------------------------ compulsory capture


@pytest.mark.parametrize("variant", VARIANT_NAMES)
@pytest.mark.parametrize("card", ["5H", "JH"], ids=["who-can-take", "a-power-card-on-a-floor"])
def test_who_can_take_must_take(variant, card):
    # 5H takes the 5C; a Jack sweeps any floor
    rnd = position(variant, [f"{card} 9C", "2D 3D"], "5C 8S", turn=0)
    with pytest.raises(IllegalPlayError) as err:
        apply_play(rnd, Play(C(card), 0))
    assert err.value.code == "play/must_take"
    assert Play(C(card), 0) not in legal_plays(rnd)


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_a_card_that_cannot_take_is_laid_on_the_floor(variant):
    rnd = position(variant, ["9C 5H", "2D 3D"], "5C 8S", turn=0)
    assert Play(C("9C"), 0) in legal_plays(rnd)
    after = apply_play(rnd, Play(C("9C"), 0))
    assert names(after.floor) == names(M("5C 8S 9C"))
    assert after.piles == (0, 0)


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_the_player_may_play_a_capturing_card_or_another_card(variant):
    # compulsory capture binds the card played, not the choice of card
    rnd = position(variant, ["5H 9C", "2D 3D"], "5C 8S", turn=0)
    assert set(legal_plays(rnd)) == {Play(C("5H"), M("5C")), Play(C("9C"), 0)}


# ------------------------------------------------------------ moving the cards


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_a_capture_moves_the_card_and_the_take_to_the_side_pile(variant):
    rnd = position(variant, ["2D 3D", "5H 9C"], "5C 8S QS", turn=1)
    after = apply_play(rnd, Play(C("5H"), M("5C")))
    assert names(after.pile(1)) == names(M("5H 5C"))
    assert names(after.floor) == names(M("8S QS"))
    assert names(after.hand(1)) == "9C"
    assert after.last_taker == 1
    assert after.turn == 0


@pytest.mark.parametrize("variant", ["egyptian", "lebanese", "serbian"])
def test_in_a_team_game_partners_share_one_pile(variant):
    rnd = position(variant, ["2D", "3D", "5H", "4S"], "5C 8S QS", turn=2, teams=True,
                   piles=["KC", "KD"])
    after = apply_play(rnd, Play(C("5H"), M("5C")))
    assert names(after.pile(0)) == names(M("KC 5H 5C"))
    assert names(after.pile(1)) == "KD"
    assert len(after.piles) == 2
    after = apply_play(after, Play(C("4S"), 0))
    assert after.turn == 0


# ------------------------------------------------------------------ bad plays


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_a_card_not_in_hand_is_illegal(variant):
    rnd = position(variant, ["5H 9C", "2D 3D"], "5C 8S", turn=0)
    with pytest.raises(IllegalPlayError) as err:
        apply_play(rnd, Play(C("2D"), 0))  # the other seat's card
    assert err.value.code == "play/not_in_hand"


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_a_take_the_rules_do_not_list_is_illegal(variant):
    rnd = position(variant, ["5H 9C", "2D 3D"], "5C 4D AS 8S", turn=0)
    for bad in ["4D AS", "5C 8S", "5C 4D AS 8S", "5C 4D", "5C 3D"]:
        with pytest.raises(IllegalPlayError) as err:
            apply_play(rnd, Play(C("5H"), M(bad)))
        assert err.value.code == "play/bad_take", bad


def test_one_set_taking_two_sum_sets_at_once_is_illegal():
    rnd = position("egyptian", ["5H 9C", "2D 3D"], "4C AD 3H 2S", turn=0)
    with pytest.raises(IllegalPlayError):
        apply_play(rnd, Play(C("5H"), M("4C AD 3H 2S")))


def test_max_cards_taking_fewer_than_the_most_is_illegal():
    rnd = position("serbian", ["5H 9C", "2D 3D"], "4C AD 3H 2S", turn=0)
    with pytest.raises(IllegalPlayError):
        apply_play(rnd, Play(C("5H"), M("4C AD")))


@pytest.mark.parametrize("variant", ONE_SET)
def test_legal_plays_offer_every_sum_set_choice(variant):
    rnd = position(variant, ["5H KC", "2D"], "4C AD 3H 2S", turn=0)
    assert set(legal_plays(rnd)) == {Play(C("5H"), M("4C AD")), Play(C("5H"), M("3H 2S")),
                                     Play(C("KC"), 0)}


def test_legal_plays_offer_every_max_cards_tie():
    rnd = position("serbian", ["5H KC", "2D"], "AC 4D 2H 3S 3C", turn=0)
    assert set(legal_plays(rnd)) == {Play(C("5H"), M("AC 4D 2H 3S")),
                                     Play(C("5H"), M("AC 4D 2H 3C")), Play(C("KC"), 0)}


def test_two_legal_plays_are_the_same_when_card_and_take_are_equal():
    rnd = position("egyptian", ["5H 6H 9C", "2D"], "AC 4D 2H 3S 3C", turn=0)
    plays = legal_plays(rnd)
    assert len(plays) == len(set(plays))


def test_play_unchecked_agrees_with_apply_play_on_a_legal_play():
    rnd = position("serbian", ["5H 9C", "2D 3D"], "AC 4D 2H 3S 3C", turn=0)
    for p in legal_plays(rnd):
        assert play_unchecked(rnd, p.card, p.take) == apply_play(rnd, p)


def test_a_small_memo_gives_the_same_takes_and_stays_small() -> None:
    """``basra serve`` keeps the capture memos small (4,096 entries): the takes are the
    same, and the memo never holds more."""

    egyptian = find_variant("egyptian")
    floors = [M("AC 2D 3H 4S 5C"), M("2C 3D 5H 6S 9C"), M("AC AD 2H 4C 8S")]
    cards = [C(name) for name in ("9D", "10C", "QH", "7S")]
    before = [takes(egyptian, card, floor) for floor in floors for card in cards]
    try:
        set_memo_limit(8)
        for candidates in range(1, 200):
            sum_sets(candidates, 10)
        assert 0 < len(captures._one_set_memo) <= 8
        after = [takes(egyptian, card, floor) for floor in floors for card in cards]
        assert after == before
    finally:
        set_memo_limit(1 << 18)
