"""check() walks the stored solution tree: right, solved and wrong plays, ties accepted,
bad input refused with one line; and the JSON a browser draws from."""

from __future__ import annotations

import json
import time

import pytest

from basra.puzzles import PuzzleError, Step, check, position_json
from basra.puzzles.model import Position, Puzzle
from basra.puzzles.solve import build
from puzzles.helpers import position

TIES = {"dealer": 1, "turn": 1, "hands": ["4C KC 2D", "4D 7H JH 8S"], "floor": "QD KS",
        "piles": ["7C 9C JC QC 6D 7D 8D 9D 10D KD 2H 3H 4H 6H 9H 10H AS 2S 3S 6S 7S 9S JS QS",
                  "AC 2C 3C 5C 6C 8C 10C AD 3D 5D JD AH 5H 8H QH KH 4S 5S 10S"],
        "basras": [0, 0], "bonus": [0, 0], "last_taker": 0, "played": 41, "carry": 0}
"""Seat 1 sweeps with JH; after the reply KC, 7H and 8S are equally good (ties) and 4D
gives the 4C a basra."""


def proved(pos: Position) -> Puzzle:
    puzzle = build(pos)
    assert puzzle is not None
    return puzzle


@pytest.fixture(scope="module")
def ties() -> Puzzle:
    return proved(Position.from_json("egyptian", TIES))


def test_right_then_solved_along_either_tie(ties: Puzzle) -> None:
    first = check(ties, ["JH:QD+KS"])
    assert (first.verdict, first.reply, first.accepted) == ("right", "KC", ("JH:QD+KS",))
    assert first.line == ("JH:QD+KS", "KC")
    assert first.position["hand"] == ["4D", "7H", "8S"]
    assert first.position["floor"] == ["KC"]
    for tie in ("7H", "8S"):
        step = check(ties, ["JH:QD+KS", tie])
        assert step.verdict == "solved"
        assert step.accepted == ("7H", "8S")
        assert step.reply == "4C"
        assert step.line == ("JH:QD+KS", "KC", tie, "4C")


def test_wrong_play_says_what_was_accepted_and_what_it_cost(ties: Puzzle) -> None:
    step = check(ties, ["8S"])
    assert (step.verdict, step.reply, step.accepted) == ("wrong", None, ("JH:QD+KS",))
    assert step.cost == 30
    assert step.line == ()
    assert step.position == position_json(ties)  # try again from where you were
    later = check(ties, ["JH:QD+KS", "4D"])
    assert later.verdict == "wrong" and later.accepted == ("7H", "8S") and later.cost == 60
    assert later.line == ("JH:QD+KS", "KC")


def test_play_text_is_read_leniently_and_compared_canonically(ties: Puzzle) -> None:
    assert check(ties, ["jh:ks+qd"]).verdict == "right"
    assert check(ties, [" JH:KS+QD "]).reply == "KC"


@pytest.mark.parametrize(("plays", "code", "words"), [
    ([], "puzzle/no_play", "no play"),
    (["ZZ"], "puzzle/bad_notation", "is not a play"),
    (["JH:QD"], "puzzle/illegal_play", "not a legal play here"),
    (["2D"], "puzzle/illegal_play", "not a legal play here"),
    (["8S", "7H"], "puzzle/after_wrong", "was not accepted"),
    (["JH:QD+KS", "7H", "4D"], "puzzle/solved", "already solved"),
])
def test_bad_input_is_one_line_value_error(ties: Puzzle, plays: list[str], code: str,
                                           words: str) -> None:
    with pytest.raises(ValueError, match=words) as info:
        check(ties, plays)
    assert isinstance(info.value, PuzzleError)
    assert info.value.code == code
    assert "\n" not in str(info.value)


def test_solved_at_the_round_end_shows_the_result() -> None:
    pos = position("egyptian", "5H 9C", "KD QH", "2C 3D", your_cards=12)
    puzzle = proved(pos)
    step = check(puzzle, ["5H:2C+3D"])
    assert step.verdict == "solved"
    assert step.position["finished"] is False  # the line ends: every play left is as good
    end = position_json(puzzle, ["5H:2C+3D", "KD", "9C", "QH"])
    assert end["finished"] is True and end["turn"] is None and end["legal"] == []
    result = end["result"]
    assert isinstance(result, dict) and result["margin"] == puzzle.value


def test_position_json_shape(ties: Puzzle) -> None:
    pos = position_json(ties)
    assert pos["you"] == 1 and pos["turn"] == 1
    assert pos["hand"] == ["4D", "7H", "JH", "8S"]
    assert pos["opponent_hand"] == ["4C", "KC", "2D"]
    assert pos["floor"] == ["QD", "KS"]
    assert pos["carry"] == 0 and pos["played"] == 41 and pos["result"] is None
    assert pos["sides"] == [{"seat": 0, "cards": 24, "points": 6, "basras": 0},
                            {"seat": 1, "cards": 19, "points": 6, "basras": 0}]
    assert {"play": "JH:QD+KS", "card": "JH", "take": ["QD", "KS"]} in pos["legal"]
    assert [p["play"] for p in pos["legal"]] == [p for p, _ in ties.tree.values]
    json.dumps(pos)
    with pytest.raises(PuzzleError):
        position_json(ties, ["4C"])  # not your seat's card


def test_to_json_hides_the_solution_and_solution_json_shows_it(ties: Puzzle) -> None:
    shown = ties.to_json()
    assert set(shown) == {"id", "variant", "themes", "rating", "you", "line_plays",
                          "position"}
    assert shown["line_plays"] == 2
    text = json.dumps(shown)
    assert "value" not in text and "tree" not in text
    solution = ties.solution_json()
    assert solution["best"] == "JH:QD+KS" and solution["margin"] == 30
    assert solution["second"] == {"play": "4D", "value": 1}
    assert [s["play"] for s in solution["line"]] == ["JH:QD+KS", "KC", "7H", "4C"]
    assert solution["line"][2]["accepted"] == ["7H", "8S"]
    json.dumps(solution)


def test_step_json(ties: Puzzle) -> None:
    step = check(ties, ["JH:QD+KS"])
    data = step.to_json()
    assert data["verdict"] == "right" and data["reply"] == "KC" and data["cost"] == 0
    assert Step(**{**data, "accepted": tuple(data["accepted"]),  # type: ignore[arg-type]
                   "line": tuple(data["line"])}) == step  # type: ignore[arg-type]


def test_check_is_fast(ties: Puzzle) -> None:
    start = time.perf_counter()
    for _ in range(200):
        check(ties, ["JH:QD+KS", "8S"])
    assert (time.perf_counter() - start) / 200 < 0.001
