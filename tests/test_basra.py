"""RULES.md sections 4 and 6.1: the basra (sweep bonus), per variant; and the leftover floor."""

from __future__ import annotations

import pytest

from basra.captures import takes
from basra.engine import Play, apply_play, basra_points
from basra.rules import find_variant
from conftest import VARIANT_NAMES, C, M, names, position

_SPARES = ["8H", "9H", "8C", "9C", "6S", "8S", "9S", "6C", "6H"]


def sweep(variant: str, card: str, floor: str, *, last: bool = False,
          take: str | None = None) -> int:
    """Basra points seat 0 scores by playing ``card`` on ``floor`` (its only take, unless
    ``take`` is given). ``last``: that play is the round's last. Checks that the play's log,
    the round's basra count and bonus, and :func:`basra_points` all agree."""
    used = set(floor.split()) | {card}
    spare = [c for c in _SPARES if c not in used]
    rules = find_variant(variant)
    if take is None:
        options = takes(rules, C(card), M(floor))
        assert len(options) == 1, f"{card} on {floor}: choose a take"
        take_set = options[0]
    else:
        take_set = M(take)
    if last:
        rnd = position(variant, [card, ""], floor, turn=0)
    else:
        rnd = position(variant, [f"{card} {spare[0]}", f"{spare[1]} {spare[2]}"], floor, turn=0)
    assert rnd.played == (47 if last else 44)
    after = apply_play(rnd, Play(C(card), take_set))
    assert after.finished == last
    points = after.plays()[-1].basra
    assert after.bonus[0] == points
    assert after.basras[0] == (1 if points else 0)
    assert after.bonus[1] == 0
    assert basra_points(rules, C(card), take_set, M(floor), last) == points
    return points


# -------------------------------------------------------------- every variant


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_a_take_that_leaves_cards_on_the_floor_is_no_basra(variant):
    assert sweep(variant, "5H", "5C 9D") == 0
    assert sweep(variant, "QH", "QC 9D") == 0


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_a_card_laid_on_an_empty_floor_is_no_basra(variant):
    for card in ("5H", "JH", "7D", "QS"):
        assert sweep(variant, card, "") == 0


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_a_lone_card_taken_by_its_match_is_a_basra(variant):
    assert sweep(variant, "5H", "5C") == 10


@pytest.mark.parametrize("variant", VARIANT_NAMES)
@pytest.mark.parametrize("card", ["QH", "KH"])
def test_a_queen_or_king_clearing_the_floor_is_a_basra(variant, card):
    assert sweep(variant, card, f"{card[0]}C") == 10


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_two_cards_taken_by_their_sum_is_a_basra(variant):
    assert sweep(variant, "5H", "2C 3D") == 10


# -------------------------------------------------------------------- egyptian


def test_egyptian_numeral_clearing_any_floor_is_a_basra():
    assert sweep("egyptian", "5H", "5C 5D 2H 3S") == 10
    assert sweep("egyptian", "10H", "6C 3D AS") == 10


def test_egyptian_jack_never_scores_a_basra():
    for floor in ("5C", "JC", "QC KD", "AC 2D", "5C 9D 2H 3S"):
        assert sweep("egyptian", "JH", floor) == 0, floor


@pytest.mark.parametrize("floor", ["4C 6D", "AC", "7S", "10H", "AC 2D 3H 4S", "AC 9S"])
def test_egyptian_seven_of_diamonds_basra_on_numerals_adding_to_10_or_less(floor):
    assert sweep("egyptian", "7D", floor) == 10


@pytest.mark.parametrize("floor", ["5C 6D", "AC 10H", "9C 8S 7H"])
def test_egyptian_seven_of_diamonds_no_basra_above_10(floor):
    assert sweep("egyptian", "7D", floor) == 0


@pytest.mark.parametrize("floor", ["QC", "KC", "JC", "AC QC", "2D KS", "JS 3C"])
def test_egyptian_seven_of_diamonds_no_basra_with_a_face_card_ruling_2(floor):
    # ruling 2: "no face cards" read strictly, J included
    assert sweep("egyptian", "7D", floor) == 0


def test_egyptian_last_play_can_be_a_basra():
    assert sweep("egyptian", "5H", "5C", last=True) == 10


# ------------------------------------------------------------------- arabic101


def test_arabic101_numeral_clearing_any_floor_is_a_basra():
    assert sweep("arabic101", "5H", "5C 5D 2H 3S") == 10


@pytest.mark.parametrize("floor", ["5C 9D QS", "5C", "JC JD", "JC 5D", "QC KD"])
def test_arabic101_jack_sweep_is_a_basra(floor):
    assert sweep("arabic101", "JH", floor) == 10


def test_arabic101_jack_taking_a_single_jack_is_no_basra():
    assert sweep("arabic101", "JH", "JC") == 0


@pytest.mark.parametrize("floor", ["5C", "QC KD JH", "7S 7C", "4C 3D", "AC 9S 10H"])
def test_arabic101_seven_of_diamonds_sweep_is_a_basra(floor):
    assert sweep("arabic101", "7D", floor) == 10


@pytest.mark.parametrize("floor", ["7S", "7C", "7H"])
def test_arabic101_seven_of_diamonds_taking_a_single_seven_is_no_basra_ruling_3(floor):
    assert sweep("arabic101", "7D", floor) == 0


@pytest.mark.parametrize(("card", "floor"), [
    ("5H", "5C"), ("5H", "2C 3D"), ("QH", "QC"), ("JH", "5C 9D"), ("7D", "QC KD"),
])
def test_arabic101_the_last_play_of_the_round_is_never_a_basra(card, floor):
    assert sweep("arabic101", card, floor, last=True) == 0
    assert sweep("arabic101", card, floor) == 10


# -------------------------------------------------------------------- lebanese


def test_lebanese_lone_card_and_its_match():
    assert sweep("lebanese", "5H", "5C") == 10


def test_lebanese_two_cards_and_their_sum():
    assert sweep("lebanese", "9H", "5C 4D") == 10


def test_lebanese_two_cards_both_matched():
    assert sweep("lebanese", "5H", "5C 5D") == 10
    assert sweep("lebanese", "KH", "KC KD") == 10


@pytest.mark.parametrize(("card", "floor"), [
    ("5H", "5C 2D 3H"), ("5H", "5C 5D 5S"), ("10H", "AC 2D 3H 4S"), ("5H", "5C 4D AS"),
    ("QH", "QC QD QS"),
])
def test_lebanese_clearing_a_floor_of_three_or_more_is_no_basra(card, floor):
    assert sweep("lebanese", card, floor) == 0


@pytest.mark.parametrize("floor", ["5C", "JC", "QC KD", "AC 2D", "AC 2D 3H"])
def test_lebanese_jack_never_scores_a_basra(floor):
    assert sweep("lebanese", "JH", floor) == 0


def test_lebanese_seven_of_diamonds_is_an_ordinary_numeral_for_the_basra():
    assert sweep("lebanese", "7D", "7S") == 10
    assert sweep("lebanese", "7D", "4C 3D") == 10
    assert sweep("lebanese", "7D", "7S 4C 3D") == 0


def test_lebanese_last_play_can_be_a_basra():
    assert sweep("lebanese", "5H", "5C", last=True) == 10


# --------------------------------------------------------------------- serbian


def test_serbian_numeral_clearing_any_floor_is_a_basra():
    assert sweep("serbian", "5H", "AC 4D 2H 3S") == 10
    assert sweep("serbian", "5H", "5C 5D 2H 3S") == 10


def test_serbian_jack_on_a_single_jack_is_a_basra_worth_20():
    assert sweep("serbian", "JH", "JC") == 20


@pytest.mark.parametrize("floor", ["5C", "JC JD", "JC 5D", "QC", "AC 2D"])
def test_serbian_jack_sweeping_anything_else_is_no_basra(floor):
    assert sweep("serbian", "JH", floor) == 0


@pytest.mark.parametrize("floor", ["4C 5D", "AC 2D", "7S", "9H", "AC 2D 3H"])
def test_serbian_seven_of_diamonds_basra_on_numerals_adding_to_9_or_less(floor):
    assert sweep("serbian", "7D", floor) == 10


@pytest.mark.parametrize("floor", ["4C 6D", "10H", "QC", "JC", "KC", "AC QS"])
def test_serbian_seven_of_diamonds_no_basra_above_9_or_with_a_face_card(floor):
    assert sweep("serbian", "7D", floor) == 0


def test_serbian_last_play_can_be_a_basra():
    assert sweep("serbian", "JH", "JC", last=True) == 20


# --------------------------------------------------------- the leftover floor


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_leftover_floor_goes_to_the_last_capturer_and_is_never_a_basra(variant):
    # seat 1 plays the round's last card and takes nothing; seat 0 captured last
    rnd = position(variant, ["", "9H"], "5C 2D", turn=1, last_taker=0, piles=["KC", "KD"])
    assert rnd.played == 47
    after = apply_play(rnd, Play(C("9H"), 0))
    assert after.finished
    assert names(after.leftover) == names(M("5C 2D 9H"))
    assert names(after.pile(0)) == names(M("KC 5C 2D 9H"))
    assert names(after.pile(1)) == "KD"
    assert after.floor == 0
    assert after.bonus == (0, 0)
    assert after.basras == (0, 0)
    assert after.plays()[-1].basra == 0


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_leftover_goes_to_the_side_whose_capture_is_the_last_play(variant):
    rnd = position(variant, ["", "5H"], "5C 2D", turn=1, last_taker=0)
    after = apply_play(rnd, Play(C("5H"), M("5C")))
    assert names(after.pile(1)) == names(M("5H 5C 2D"))
    assert after.pile(0) == 0
    assert after.bonus == (0, 0)


@pytest.mark.parametrize("variant", VARIANT_NAMES)
@pytest.mark.parametrize("dealer", [0, 1])
def test_leftover_goes_to_the_dealer_side_if_nobody_captured(variant, dealer):
    rnd = position(variant, ["", "9H"], "5C 2D", turn=1, dealer=dealer, last_taker=-1)
    after = apply_play(rnd, Play(C("9H"), 0))
    assert names(after.pile(dealer)) == names(M("5C 2D 9H"))
    assert after.pile(1 - dealer) == 0
    assert after.bonus == (0, 0)


def test_leftover_in_a_team_game_goes_to_the_last_capturer_side():
    rnd = position("egyptian", ["", "", "", "9H"], "5C 2D", turn=3, teams=True, last_taker=1)
    after = apply_play(rnd, Play(C("9H"), 0))
    assert names(after.pile(1)) == names(M("5C 2D 9H"))
    assert after.pile(0) == 0


@pytest.mark.parametrize(("dealer", "side"), [(0, 0), (1, 1), (2, 0), (3, 1)])
def test_leftover_in_a_team_game_goes_to_the_dealer_side_if_nobody_captured(dealer, side):
    rnd = position("lebanese", ["", "", "", "9H"], "5C 2D", turn=3, dealer=dealer, teams=True)
    after = apply_play(rnd, Play(C("9H"), 0))
    assert names(after.pile(side)) == names(M("5C 2D 9H"))
    assert after.pile(1 - side) == 0


def test_leftover_to_the_dealer_side_in_a_three_player_game():
    rnd = position("lebanese", ["", "", "9H"], "5C 2D", turn=2, dealer=1, last_taker=-1)
    after = apply_play(rnd, Play(C("9H"), 0))
    assert names(after.pile(1)) == names(M("5C 2D 9H"))


@pytest.mark.parametrize("variant", ["egyptian", "serbian", "lebanese"])
def test_in_a_team_game_a_basra_counts_for_the_side(variant):
    rnd = position(variant, ["2D", "3D", "5H", "4S"], "5C", turn=2, teams=True)
    after = apply_play(rnd, Play(C("5H"), M("5C")))
    assert after.basras == (1, 0)
    assert after.bonus == (10, 0)
