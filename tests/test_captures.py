"""RULES.md section 3: a play, and which floor cards it takes."""

from __future__ import annotations

import pytest

from basra.captures import takes
from basra.engine import Play, apply_play, legal_plays, play_unchecked
from basra.errors import IllegalPlayError
from basra.rules import find_variant
from conftest import VARIANT_NAMES, C, M, names, position, take_names

ONE_SET = ["egyptian", "arabic101", "lebanese"]
SEVEN_D_POWER = ["egyptian", "arabic101", "serbian"]


def options(variant: str, card: str, floor: str) -> list[str]:
    """The distinct legal takes of ``card`` on ``floor``, as sorted readable strings."""
    return take_names(takes(find_variant(variant), C(card), M(floor)))


def one(floor: str) -> list[str]:
    """A single take, written like :func:`options` returns it."""
    return [names(M(floor))]


# --------------------------------------------------------------------- matches


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_a_numeral_takes_every_floor_card_of_its_rank(variant):
    assert options(variant, "5H", "5C 5D 9H KS") == one("5C 5D")


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_suits_never_matter_for_a_match(variant):
    assert options(variant, "9C", "9D 9H 9S") == one("9D 9H 9S")


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_matches_are_always_taken_with_a_sum_set(variant):
    # 5H on 5C 4D AH: the match 5C and the sum set 4D+AH, in one strike
    assert options(variant, "5H", "5C 4D AH") == one("5C 4D AH")


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_a_numeral_with_no_match_and_no_sum_takes_nothing(variant):
    assert options(variant, "5H", "9C 8D KS") == one("")


# ----------------------------------------------------------------- Q and K


@pytest.mark.parametrize("variant", VARIANT_NAMES)
@pytest.mark.parametrize("card", ["QH", "KH"])
def test_queen_or_king_takes_every_card_of_its_rank_and_nothing_else(variant, card):
    r = card[0]
    floor = f"{r}C {r}S 2D 3C 10H JD"
    assert options(variant, card, floor) == one(f"{r}C {r}S")


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_queen_without_a_queen_on_the_floor_takes_nothing(variant):
    assert options(variant, "QH", "KC 3D 9S") == one("")


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_king_does_not_take_queens(variant):
    assert options(variant, "KH", "QC QD") == one("")


# ------------------------------------------------------------------ sums


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_ace_counts_one_in_a_sum(variant):
    assert options(variant, "5H", "AC 4D") == one("AC 4D")


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_ten_takes_a_sum_of_three_cards(variant):
    assert options(variant, "10H", "6C 3D AS KS") == one("6C 3D AS")


@pytest.mark.parametrize("variant", VARIANT_NAMES)
@pytest.mark.parametrize("face", ["QC", "KC"])
def test_queens_and_kings_on_the_floor_are_never_part_of_a_sum(variant, face):
    # counting a face card as 0 would make {5D, QC} a sum set for 5: it is not
    assert options(variant, "5H", f"5D {face}") == one("5D")
    assert options(variant, "5H", f"4C AD {face}") == one("4C AD")


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_a_jack_on_the_floor_is_never_part_of_a_sum(variant):
    # a jack lies on the floor after being laid on an empty floor
    assert options(variant, "5H", "3D 2S JC") == one("3D 2S")
    assert options(variant, "2H", "JC JD") == one("")


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_a_sum_set_needs_two_or_more_cards_summing_exactly(variant):
    assert options(variant, "9H", "4C 4D") == one("")  # 8, not 9
    assert options(variant, "9H", "4C 6D") == one("")  # 10, not 9


@pytest.mark.parametrize("variant", ONE_SET)
def test_one_set_player_chooses_which_sum_set(variant):
    # 5H on 4C AD 3H 2S: {4C AD} or {3H 2S}, never both at once
    assert options(variant, "5H", "4C AD 3H 2S") == sorted([names(M("4C AD")),
                                                            names(M("3H 2S"))])


@pytest.mark.parametrize("variant", ONE_SET)
def test_one_set_overlapping_sum_sets_are_each_a_choice(variant):
    # 6H: 2D+4S or AC+2D+3H (they share 2D)
    assert options(variant, "6H", "AC 2D 3H 4S") == sorted([names(M("2D 4S")),
                                                            names(M("AC 2D 3H"))])


@pytest.mark.parametrize("variant", ONE_SET)
def test_one_set_matches_join_every_sum_set_choice(variant):
    assert options(variant, "5H", "5S 4C AD 3H 2S") == sorted([names(M("5S 4C AD")),
                                                               names(M("5S 3H 2S"))])


def test_max_cards_takes_every_disjoint_sum_set():
    # serbian: 5H on 4C AD 3H 2S takes both sets
    assert options("serbian", "5H", "4C AD 3H 2S") == one("4C AD 3H 2S")


def test_max_cards_prefers_the_collection_with_most_cards():
    # 6H: {2D 4S} (2 cards) and {AC 2D 3H} (3 cards) overlap: the three cards are the take
    assert options("serbian", "6H", "AC 2D 3H 4S") == one("AC 2D 3H")


def test_max_cards_ties_give_the_player_a_choice():
    # 5H: {AC 4D} plus {2H 3S} or {2H 3C}: four cards either way
    assert options("serbian", "5H", "AC 4D 2H 3S 3C") == sorted([
        names(M("AC 4D 2H 3S")), names(M("AC 4D 2H 3C"))])


def test_max_cards_counts_cards_not_sets():
    # 6H on AC 2D 3H 4S 5C 6... : {AC 5C} + {2D 4S} (4 cards) beats {AC 2D 3H} (3 cards)
    assert options("serbian", "6H", "AC 2D 3H 4S 5C") == one("AC 5C 2D 4S")


def test_max_cards_with_matches():
    assert options("serbian", "5H", "5C 4C AD 3H 2S KD") == one("5C 4C AD 3H 2S")


def test_max_cards_no_sum_set_takes_the_matches():
    assert options("serbian", "5H", "5C 9D") == one("5C")


# -------------------------------------------------------------- power cards


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_a_jack_sweeps_the_whole_floor_face_cards_included(variant):
    floor = "QC KD 5H 9S AC"
    assert options(variant, "JH", floor) == one(floor)


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_a_jack_takes_a_lone_jack(variant):
    assert options(variant, "JH", "JC") == one("JC")


@pytest.mark.parametrize("variant", SEVEN_D_POWER)
def test_seven_of_diamonds_sweeps_the_whole_floor(variant):
    floor = "QC KD 5H 9S JC"
    assert options(variant, "7D", floor) == one(floor)


@pytest.mark.parametrize("variant", SEVEN_D_POWER)
def test_seven_of_diamonds_power_takes_no_choice_of_sum_sets(variant):
    floor = "4C 3D 5H 2S"
    assert options(variant, "7D", floor) == one(floor)


def test_seven_of_diamonds_is_a_plain_numeral_in_lebanese():
    assert options("lebanese", "7D", "7S 5C 2H KD") == one("7S 5C 2H")
    assert options("lebanese", "7D", "QC KD 9S") == one("")
    assert options("lebanese", "7D", "4C 3H 5D 2S") == sorted([names(M("4C 3H")),
                                                               names(M("5D 2S"))])


@pytest.mark.parametrize("variant", VARIANT_NAMES)
@pytest.mark.parametrize("card", ["JC", "7D", "5H", "QS"])
def test_any_card_on_an_empty_floor_is_laid_down(variant, card):
    assert options(variant, card, "") == one("")


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
def test_who_can_take_must_take(variant):
    rnd = position(variant, ["5H 9C", "2D 3D"], "5C 8S", turn=0)
    with pytest.raises(IllegalPlayError) as err:
        apply_play(rnd, Play(C("5H"), 0))
    assert err.value.code == "play/must_take"
    assert Play(C("5H"), 0) not in legal_plays(rnd)


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_a_power_card_on_a_floor_must_sweep(variant):
    rnd = position(variant, ["JH 9C", "2D 3D"], "5C 8S", turn=0)
    with pytest.raises(IllegalPlayError) as err:
        apply_play(rnd, Play(C("JH"), 0))
    assert err.value.code == "play/must_take"


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
