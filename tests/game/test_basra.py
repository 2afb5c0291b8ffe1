"""RULES.md sections 4 and 6.1: the basra (sweep bonus), per variant; and the leftover floor."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from basra.game.captures import takes
from basra.game.engine import Play, apply_play, basra_points
from basra.game.rules import find_variant
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


def case(variants: Sequence[str], rule: str, card: str, floors: Sequence[str], points: int,
         *, last: bool = False) -> list[Any]:
    """``card`` clearing each of ``floors`` (with its only take) scores ``points`` as a basra
    in each of ``variants``; ``last``: as the round's last play. The id is ``rule``, the
    variant and the floor."""
    return [pytest.param(v, card, floor, last, points,
                         id=f"{rule}-{v}-{floor.replace(' ', '+') or 'empty'}")
            for v in variants for floor in floors]


CASES = [
    # ---------------------------------------------------------- every variant
    *case(VARIANT_NAMES, "a-take-that-leaves-cards-on-the-floor-is-no-basra",
          "5H", ["5C 9D"], 0),
    *case(VARIANT_NAMES, "a-face-take-that-leaves-cards-on-the-floor-is-no-basra",
          "QH", ["QC 9D"], 0),
    *(row for card in ("5H", "JH", "7D", "QS")
      for row in case(VARIANT_NAMES, f"{card}-laid-on-an-empty-floor-is-no-basra",
                      card, [""], 0)),
    *case(VARIANT_NAMES, "a-lone-card-taken-by-its-match-is-a-basra", "5H", ["5C"], 10),
    *case(VARIANT_NAMES, "a-queen-clearing-the-floor-is-a-basra", "QH", ["QC"], 10),
    *case(VARIANT_NAMES, "a-king-clearing-the-floor-is-a-basra", "KH", ["KC"], 10),
    *case(VARIANT_NAMES, "two-cards-taken-by-their-sum-is-a-basra", "5H", ["2C 3D"], 10),
    # --------------------------------------------------------------- egyptian
    *case(["egyptian"], "a-numeral-clearing-any-floor-is-a-basra", "5H", ["5C 5D 2H 3S"], 10),
    *case(["egyptian"], "a-ten-clearing-any-floor-is-a-basra", "10H", ["6C 3D AS"], 10),
    *case(["egyptian"], "a-jack-never-scores-a-basra",
          "JH", ["5C", "JC", "QC KD", "AC 2D", "5C 9D 2H 3S"], 0),
    *case(["egyptian"], "the-seven-of-diamonds-basra-on-numerals-adding-to-10-or-less",
          "7D", ["4C 6D", "AC", "7S", "10H", "AC 2D 3H 4S", "AC 9S"], 10),
    *case(["egyptian"], "the-seven-of-diamonds-no-basra-above-10",
          "7D", ["5C 6D", "AC 10H", "9C 8S 7H"], 0),
    # ruling 2: "no face cards" read strictly, J included
    *case(["egyptian"], "the-seven-of-diamonds-no-basra-with-a-face-card-ruling-2",
          "7D", ["QC", "KC", "JC", "AC QC", "2D KS", "JS 3C"], 0),
    *case(["egyptian"], "the-last-play-can-be-a-basra", "5H", ["5C"], 10, last=True),
    # -------------------------------------------------------------- arabic101
    *case(["arabic101"], "a-numeral-clearing-any-floor-is-a-basra",
          "5H", ["5C 5D 2H 3S"], 10),
    *case(["arabic101"], "a-jack-sweep-is-a-basra",
          "JH", ["5C 9D QS", "5C", "JC JD", "JC 5D", "QC KD"], 10),
    *case(["arabic101"], "a-jack-taking-a-single-jack-is-no-basra", "JH", ["JC"], 0),
    *case(["arabic101"], "a-seven-of-diamonds-sweep-is-a-basra",
          "7D", ["5C", "QC KD JH", "7S 7C", "4C 3D", "AC 9S 10H"], 10),
    *case(["arabic101"], "the-seven-of-diamonds-taking-a-single-seven-is-no-basra-ruling-3",
          "7D", ["7S", "7C", "7H"], 0),
    *(row for card, floor in [("5H", "5C"), ("5H", "2C 3D"), ("QH", "QC"), ("JH", "5C 9D"),
                              ("7D", "QC KD")]
      for row in [*case(["arabic101"], f"{card}-on-the-last-play-is-never-a-basra",
                        card, [floor], 0, last=True),
                  *case(["arabic101"], f"{card}-before-the-last-play-is-a-basra",
                        card, [floor], 10)]),
    # --------------------------------------------------------------- lebanese
    *case(["lebanese"], "a-lone-card-and-its-match", "5H", ["5C"], 10),
    *case(["lebanese"], "two-cards-and-their-sum", "9H", ["5C 4D"], 10),
    *case(["lebanese"], "two-cards-both-matched", "5H", ["5C 5D"], 10),
    *case(["lebanese"], "two-faces-both-matched", "KH", ["KC KD"], 10),
    *(row for card, floor in [("5H", "5C 2D 3H"), ("5H", "5C 5D 5S"), ("10H", "AC 2D 3H 4S"),
                              ("5H", "5C 4D AS"), ("QH", "QC QD QS")]
      for row in case(["lebanese"], f"{card}-clearing-a-floor-of-three-or-more-is-no-basra",
                      card, [floor], 0)),
    *case(["lebanese"], "a-jack-never-scores-a-basra",
          "JH", ["5C", "JC", "QC KD", "AC 2D", "AC 2D 3H"], 0),
    *case(["lebanese"], "the-seven-of-diamonds-is-an-ordinary-numeral-for-the-basra",
          "7D", ["7S", "4C 3D"], 10),
    *case(["lebanese"], "the-ordinary-seven-of-diamonds-on-three-cards-is-no-basra",
          "7D", ["7S 4C 3D"], 0),
    *case(["lebanese"], "the-last-play-can-be-a-basra", "5H", ["5C"], 10, last=True),
    # ---------------------------------------------------------------- serbian
    *case(["serbian"], "a-numeral-clearing-any-floor-is-a-basra",
          "5H", ["AC 4D 2H 3S", "5C 5D 2H 3S"], 10),
    *case(["serbian"], "a-jack-on-a-single-jack-is-a-basra-worth-20", "JH", ["JC"], 20),
    *case(["serbian"], "a-jack-sweeping-anything-else-is-no-basra",
          "JH", ["5C", "JC JD", "JC 5D", "QC", "AC 2D"], 0),
    *case(["serbian"], "the-seven-of-diamonds-basra-on-numerals-adding-to-9-or-less",
          "7D", ["4C 5D", "AC 2D", "7S", "9H", "AC 2D 3H"], 10),
    *case(["serbian"], "the-seven-of-diamonds-no-basra-above-9-or-with-a-face-card",
          "7D", ["4C 6D", "10H", "QC", "JC", "KC", "AC QS"], 0),
    *case(["serbian"], "the-last-play-can-be-a-basra", "JH", ["JC"], 20, last=True),
]


@pytest.mark.parametrize(("variant", "card", "floor", "last", "points"), CASES)
def test_the_basra_points_of_a_play(variant, card, floor, last, points):
    assert sweep(variant, card, floor, last=last) == points


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
