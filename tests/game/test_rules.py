"""RULES.md section 6: the variant table, as data (one frozen Rules object per variant)."""

from __future__ import annotations

import dataclasses

import pytest

from basra.errors import SeatingError, UnknownVariantError
from basra.game.cards import NAMES
from basra.game.engine import deal_round, new_match
from basra.game.rules import VARIANTS, find_variant
from conftest import (
    CARD_POINTS,
    OPENING_FORBIDDEN,
    POWER_CARDS,
    SEATINGS,
    SUM_SETS,
    VARIANT_NAMES,
    M,
    names,
)


def test_the_four_variants_are_found_by_name():
    assert set(VARIANTS) == set(VARIANT_NAMES)
    for name in VARIANT_NAMES:
        assert find_variant(name).name == name


def test_egyptian_is_the_default():
    assert find_variant().name == "egyptian"


def test_variant_names_are_case_insensitive():
    assert find_variant("Serbian").name == "serbian"


def test_unknown_variant_raises():
    with pytest.raises(UnknownVariantError) as err:
        find_variant("canasta")
    assert "canasta" in str(err.value)


def test_rules_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        find_variant("egyptian").target = 5  # type: ignore[misc]


# ---------------------------------------------------------------------- seating

_ALL_SEATINGS = [(n, t) for n in range(1, 7) for t in (False, True)]


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_seatings_allowed_per_variant(variant):
    rules = find_variant(variant)
    assert set(rules.seatings) == set(SEATINGS[variant])


@pytest.mark.parametrize("variant", VARIANT_NAMES)
@pytest.mark.parametrize(("players", "teams"), _ALL_SEATINGS)
def test_a_match_only_starts_with_an_allowed_seating(variant, players, teams):
    rules = find_variant(variant)
    if (players, teams) in SEATINGS[variant]:
        match = new_match(rules, players, teams)
        assert len(match.totals) == (2 if teams else players)
        deal_round(rules, players, 0, list(range(52)), teams)
    else:
        with pytest.raises(SeatingError):
            new_match(rules, players, teams)
        with pytest.raises(SeatingError):
            deal_round(rules, players, 0, list(range(52)), teams)


def test_egyptian_is_two_players_or_four_in_teams():
    assert set(find_variant("egyptian").seatings) == {(2, False), (4, True)}


def test_arabic101_is_two_players_only():
    assert set(find_variant("arabic101").seatings) == {(2, False)}


def test_lebanese_is_two_three_or_four_solo_or_four_in_teams():
    assert set(find_variant("lebanese").seatings) == {(2, False), (3, False), (4, False),
                                                      (4, True)}


def test_serbian_is_two_players_or_four_in_teams():
    assert set(find_variant("serbian").seatings) == {(2, False), (4, True)}


def test_seating_error_names_the_variant():
    with pytest.raises(SeatingError, match="arabic101"):
        new_match(find_variant("arabic101"), 4, True)


# ------------------------------------------------------------------ the table


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_opening_floor_forbidden_cards(variant):
    rules = find_variant(variant)
    assert names(rules.opening_forbidden) == names(M(" ".join(OPENING_FORBIDDEN[variant])))


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_power_cards(variant):
    rules = find_variant(variant)
    assert names(rules.power_cards) == names(M(" ".join(POWER_CARDS[variant])))


def test_seven_of_diamonds_is_no_power_card_in_lebanese():
    assert not find_variant("lebanese").power_cards & M("7D")


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_sum_set_mode(variant):
    assert find_variant(variant).sum_sets == SUM_SETS[variant]


# total card points, classic: 4 J + 4 A + 2C 2 + 10D 3 = 13; serbian: 4 J + 4 A - 2S 2 - 10D 3
@pytest.mark.parametrize(("variant", "majority", "majority_points", "total_card_points",
                          "basra_points", "target", "sets_to_win"), [
    ("egyptian", "27-of-52", 30, 13, 10, 121, 1),
    ("arabic101", "27-of-52", 30, 13, 10, 101, 1),
    ("lebanese", "most-cards", 3, 13, 10, 100, 1),
    ("serbian", "27-of-52", 30, 3, 10, 101, 3),
])
def test_the_variant_table(variant, majority, majority_points, total_card_points, basra_points,
                           target, sets_to_win):
    rules = find_variant(variant)
    assert (rules.majority, rules.majority_points) == (majority, majority_points)
    assert sum(rules.card_points) == total_card_points
    assert rules.basra_points == basra_points
    assert rules.target == target
    assert rules.sets_to_win == sets_to_win


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_card_points_of_every_card(variant):
    rules = find_variant(variant)
    expected = [CARD_POINTS[variant].get(NAMES[c], 0) for c in range(52)]
    assert list(rules.card_points) == expected


def test_serbian_penalty_cards():
    rules = find_variant("serbian")
    assert rules.card_points[NAMES.index("2S")] == -2
    assert rules.card_points[NAMES.index("10D")] == -3
    assert rules.card_points[NAMES.index("2C")] == 0


def test_classic_two_of_clubs_and_ten_of_diamonds():
    for variant in ("egyptian", "arabic101", "lebanese"):
        rules = find_variant(variant)
        assert rules.card_points[NAMES.index("2C")] == 2
        assert rules.card_points[NAMES.index("10D")] == 3
        assert rules.card_points[NAMES.index("2S")] == 0


def test_serbian_match_is_first_to_three_sets_with_a_fifth_set_to_162():
    rules = find_variant("serbian")
    assert rules.sets_to_win == 3
    assert rules.deciding_set_target == 162
    assert rules.set_target((0, 0)) == 101
    assert rules.set_target((2, 1)) == 101
    assert rules.set_target((2, 2)) == 162
