"""Themes and ratings on hand-made positions, and which positions are puzzles at all."""

from __future__ import annotations

import pytest

from basra.puzzles.model import THEMES, Position, PuzzleError
from basra.puzzles.solve import MARGIN, build, rate
from puzzles.helpers import position

CASES = [
    # theme, best first play, position
    ("basra", "5H:2C+3D",
     position("egyptian", "5H 9C", "KD QH", "2C 3D", your_cards=12)),
    # 5D would let the 9S take 4H+5D for a basra; the KD keeps the floor safe
    ("deny-basra", "KD", position("egyptian", "5D KD", "9S 2C", "4H", your_cards=12)),
    ("majority", "5D:5H",
     position("egyptian", "5D 8C", "5C", "QS KS 5H", your_cards=23, leads=False)),
    ("ten-of-diamonds", "10C:10D",
     position("egyptian", "10C 6S", "10H 2S", "10D 4C", your_cards=12)),
    # the JC waits for the floor to grow; 3S first
    ("keep-the-jack", "3S", position("egyptian", "JC 3S", "8H 5C", "8C", your_cards=12)),
    # taking the 3H leaves the 9D alone for the 9H
    ("quiet-play", "KD", position("egyptian", "3S KD", "9H 2C", "3H 9D", your_cards=12)),
    # 8D would take two cards and leave the 9S alone for the 9H
    ("smaller-take", "6D:6C",
     position("egyptian", "8D 6D", "9H KC", "2H 6C 9S", your_cards=12)),
    # taking the 5H now makes you the last taker: the leftover floor is yours
    ("last-take", "5D:5H",
     position("egyptian", "5D 8C", "5C", "QS KS 5H", your_cards=23, leads=False)),
    ("smaller-take", "6D:6C",
     position("lebanese", "8D 6D", "9H KC", "2H 6C 9S", your_cards=12)),
]


@pytest.mark.parametrize(("theme", "best", "pos"), CASES,
                         ids=[f"{c[2].variant}-{c[0]}" for c in CASES])
def test_theme_found(theme: str, best: str, pos: Position) -> None:
    puzzle = build(pos)
    assert puzzle is not None
    assert puzzle.best_play == best
    assert theme in puzzle.themes
    assert set(puzzle.themes) <= set(THEMES)
    assert list(puzzle.themes) == [t for t in THEMES if t in puzzle.themes]


def test_no_theme_that_is_not_there() -> None:
    puzzle = build(position("egyptian", "5D KD", "9S 2C", "4H", your_cards=12))
    assert puzzle is not None
    assert puzzle.themes == ("deny-basra",)


def test_value_margin_and_second_best() -> None:
    puzzle = build(position("egyptian", "5H 9C", "KD QH", "2C 3D", your_cards=12))
    assert puzzle is not None
    # 5H sweeps 2C 3D: a basra (10) and the 2C (2); the leftover after goes to you too
    assert puzzle.second[0] == "9C"
    assert puzzle.margin == puzzle.value - puzzle.second[1] == 10
    assert puzzle.id.startswith("eg-") and len(puzzle.id) == 11


def test_not_a_puzzle() -> None:
    # one legal play only
    assert build(position("egyptian", "5H", "KD", "2C 3D", your_cards=12, leads=True)) is None
    # two plays worth the same: laying either plain card gives nothing away
    assert build(position("egyptian", "8H 8S", "KD QH", "2C", your_cards=12)) is None
    # a clear best that is not clear enough for a bigger margin
    pos = position("egyptian", "5H 9C", "KD QH", "2C 3D", your_cards=12)
    assert build(pos, margin=11) is None and build(pos, margin=MARGIN) is not None


def test_mirror_positions_share_an_id() -> None:
    a = position("egyptian", "5D KD", "9S 2C", "4H", your_cards=12, turn=0)
    b = position("egyptian", "5D KD", "9S 2C", "4H", your_cards=12, turn=1)
    assert a != b and a.puzzle_id() == b.puzzle_id()
    c = position("arabic101", "5D KD", "9S 2C", "4H", your_cards=12)
    assert c.puzzle_id().startswith("ar-")


def test_rating_rule() -> None:
    pos = position("egyptian", "3S KD", "9H 2C", "3H 9D", your_cards=12)
    puzzle = build(pos)
    assert puzzle is not None
    # 2 first plays (+0), a quiet play (+150), not the greedy take (+100), margin 10 (+0)
    assert puzzle.rating == 1500 + 150 + 100
    easy = build(position("egyptian", "5H 9C", "KD QH", "2C 3D", your_cards=12))
    assert easy is not None
    # the greedy play (-100) and a basra (-100), margin 10
    assert easy.rating == 1500 - 100 - 100
    assert rate.__doc__


def test_bad_positions_refused() -> None:
    good = position("egyptian", "5D KD", "9S 2C", "4H", your_cards=12)
    with pytest.raises(PuzzleError, match="the cards do not add up"):
        Position(good.variant, good.dealer, good.turn, good.hands, good.floor,
                 (good.piles[0], 0), good.basras, good.bonus, good.last_taker, good.played,
                 good.carry)
    with pytest.raises(PuzzleError, match="holds 2 cards and the other 2"):
        Position(good.variant, 1 - good.dealer, good.turn, good.hands, good.floor,
                 good.piles, good.basras, good.bonus, good.last_taker, good.played,
                 good.carry)
    with pytest.raises(PuzzleError, match="dealer must be seat 0 or 1"):
        Position(good.variant, 2, good.turn, good.hands, good.floor, good.piles, good.basras,
                 good.bonus, good.last_taker, good.played, good.carry)
