"""RULES.md section 5 (and the variant table): card points, basras and the majority."""

from __future__ import annotations

import pytest

from basra.errors import IllegalPlayError
from basra.game.engine import deal_round, score_round
from basra.game.rules import find_variant
from conftest import VARIANT_NAMES, M, card_points, finished_round, names, split_piles

CLASSIC = ["egyptian", "arabic101", "lebanese"]
MAJORITY_27 = ["egyptian", "arabic101", "serbian"]


def score(variant, sizes, given=None, *, carry=0, teams=False, basras=None, bonus=None):
    piles = split_piles(sizes, given)
    rnd = finished_round(variant, piles, teams=teams, basras=basras, bonus=bonus)
    scores, carry_out = score_round(rnd, carry)
    for s, pile in zip(scores, piles, strict=True):
        assert s.cards == pile.bit_count()
        assert s.points == s.majority + s.carry + s.card_points + s.basra_points
    return scores, carry_out


# ----------------------------------------------------------------- card points


@pytest.mark.parametrize("variant", CLASSIC)
def test_classic_card_points(variant):
    # side 0: AC AD JC 2C 10D = 1 + 1 + 1 + 2 + 3; side 1: AH AS JD JH JS = 5
    scores, _ = score(variant, (30, 22), {0: "AC AD JC 2C 10D", 1: "AH AS JD JH JS 2S"})
    assert [s.card_points for s in scores] == [8, 5]


def test_serbian_card_points_with_penalties():
    # side 0: 2S -2, 10D -3, AC 1 = -4; side 1: 3 A + 4 J = 7 (2C is worth nothing)
    scores, _ = score("serbian", (30, 22), {0: "2S 10D AC", 1: "AD AH AS JC JD JH JS 2C"})
    assert [s.card_points for s in scores] == [-4, 7]


def test_serbian_side_can_score_below_zero_in_a_round():
    scores, _ = score("serbian", (22, 30), {0: "2S 10D"})
    assert scores[0].card_points == -5
    assert scores[0].points == -5


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_each_pile_scores_its_card_points(variant):
    sizes = (13, 13, 13, 13) if variant == "lebanese" else (26, 26)
    given = {0: "AC 2S", 1: "10D JD 2C", 2: "AH AS", 3: "JC"} if variant == "lebanese" \
        else {0: "AC 2S JH", 1: "10D JD 2C"}
    piles = split_piles(sizes, given)
    scores, _ = score_round(finished_round(variant, piles), 0)
    assert [s.card_points for s in scores] == [card_points(variant, p) for p in piles]
    assert sum(s.card_points for s in scores) == sum(find_variant(variant).card_points)


def test_scoring_cards_of_a_pile_are_reported():
    scores, _ = score("egyptian", (27, 25), {0: "AC 2C 10D", 1: "JD"})
    assert names(scores[0].scoring_cards) == names(M("AC 2C 10D"))


# ---------------------------------------------------------------------- basras


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_ten_points_per_basra(variant):
    sizes = (30, 22)
    scores, _ = score(variant, sizes, basras=[2, 1], bonus=[20, 10])
    assert [s.basras for s in scores] == [2, 1]
    assert [s.basra_points for s in scores] == [20, 10]


def test_serbian_jack_basra_counts_20():
    scores, _ = score("serbian", (30, 22), basras=[2, 0], bonus=[30, 0])
    assert scores[0].basra_points == 30
    assert scores[0].points == 30 + 30 + scores[0].card_points


# -------------------------------------------------------------- 27-of-52


@pytest.mark.parametrize("variant", MAJORITY_27)
@pytest.mark.parametrize(("sizes", "winner"), [((27, 25), 0), ((25, 27), 1), ((40, 12), 0),
                                               ((0, 52), 1)])
def test_27_of_52_pays_30_to_the_side_with_27_or_more(variant, sizes, winner):
    scores, carry = score(variant, sizes)
    assert [s.majority for s in scores] == [30 if s == winner else 0 for s in range(2)]
    assert carry == 0


@pytest.mark.parametrize("variant", MAJORITY_27)
def test_26_26_pays_nobody_and_adds_30_to_the_carry(variant):
    scores, carry = score(variant, (26, 26))
    assert [s.majority for s in scores] == [0, 0]
    assert [s.carry for s in scores] == [0, 0]
    assert carry == 30


@pytest.mark.parametrize("variant", MAJORITY_27)
def test_the_carry_goes_to_the_next_majority_which_pays_60(variant):
    scores, carry = score(variant, (25, 27), carry=30)
    assert (scores[1].majority, scores[1].carry) == (30, 30)
    assert scores[1].majority + scores[1].carry == 60
    assert (scores[0].majority, scores[0].carry) == (0, 0)
    assert carry == 0  # cleared when it lands


@pytest.mark.parametrize("variant", MAJORITY_27)
def test_after_two_ties_the_majority_pays_90(variant):
    _, carry = score(variant, (26, 26))
    _, carry = score(variant, (26, 26), carry=carry)
    assert carry == 60
    scores, carry = score(variant, (28, 24), carry=carry)
    assert scores[0].majority + scores[0].carry == 90
    assert carry == 0


@pytest.mark.parametrize("variant", ["egyptian", "serbian"])
def test_27_of_52_in_a_team_game(variant):
    scores, carry = score(variant, (27, 25), teams=True)
    assert len(scores) == 2
    assert [s.majority for s in scores] == [30, 0]
    scores, carry = score(variant, (26, 26), teams=True)
    assert carry == 30


def test_majority_points_add_into_the_round_points():
    scores, _ = score("egyptian", (27, 25), {0: "AC 2C 10D", 1: "AD AH AS JC JD JH JS"},
                      carry=30, basras=[1, 0], bonus=[10, 0])
    # 30 majority + 30 carry + 6 card points + 10 basra
    assert scores[0].points == 76
    assert scores[1].points == 7


# ------------------------------------------------------------------ most-cards


def test_most_cards_pays_3_to_the_largest_pile():
    scores, carry = score("lebanese", (30, 22))
    assert [s.majority for s in scores] == [3, 0]
    assert carry == 0


def test_most_cards_a_tie_pays_each_tied_side():
    scores, carry = score("lebanese", (26, 26))
    assert [s.majority for s in scores] == [3, 3]
    assert carry == 0


def test_most_cards_three_players_two_tied():
    scores, _ = score("lebanese", (12, 20, 20))
    assert [s.majority for s in scores] == [0, 3, 3]


def test_most_cards_four_players_all_tied():
    scores, _ = score("lebanese", (13, 13, 13, 13))
    assert [s.majority for s in scores] == [3, 3, 3, 3]


def test_most_cards_four_players_one_ahead():
    scores, _ = score("lebanese", (13, 14, 13, 12))
    assert [s.majority for s in scores] == [0, 3, 0, 0]


def test_most_cards_teams():
    scores, _ = score("lebanese", (26, 26), teams=True)
    assert [s.majority for s in scores] == [3, 3]


def test_most_cards_has_no_carry():
    scores, carry = score("lebanese", (26, 26), carry=0)
    assert carry == 0
    assert [s.carry for s in scores] == [0, 0]


def test_a_round_in_progress_cannot_be_scored():
    rnd = deal_round(find_variant("egyptian"), 2, 0, list(range(52)))
    with pytest.raises(IllegalPlayError):
        score_round(rnd, 0)
