"""Why a play was worse, in a player's words (:mod:`basra.match.explain`), on hand-made
positions: a missed basra, a basra given away, a missed 10D, a cost that shows only later."""

from __future__ import annotations

from dataclasses import replace

import pytest

from basra.game.cards import mask_of, parse_card
from basra.game.engine import Play, Round, compose_round
from basra.game.rules import find_variant
from basra.match.explain import REASONS, explain, gives_basra, reason, take_facts


def cards(*names: str) -> int:
    return mask_of(parse_card(n) for n in names)


def position(mine: tuple[str, ...], theirs: tuple[str, ...], floor: tuple[str, ...],
             variant: str = "egyptian", played: int = 10) -> Round:
    """Seat 0 to play, seat 1 next, the stock far from empty (no deal after the play)."""
    rules = find_variant(variant)
    used = cards(*mine, *theirs, *floor)
    stock = [c for c in range(52) if not used >> c & 1][:20]
    return compose_round(rules, 2, False, 1, hands=[cards(*mine), cards(*theirs)],
                         floor=cards(*floor), stock=stock, piles=[0, 0], basras=[0, 0],
                         bonus=[0, 0], turn=0, last_taker=-1, played=played)


def play(text: str) -> Play:
    return Play.parse(text)


def test_a_missed_basra() -> None:
    rnd = position(("5H", "9D"), ("KS", "2H"), ("5C",))
    why = explain(rnd, play("9D"), play("5H:5C"), cost=12.0)
    assert why.reason == "missed-basra"
    data = why.to_json()
    assert data["made_take"] == [] and data["made_points"] == 0
    assert not data["made_basra"] and not data["made_sweep"]
    assert data["best_points"] == 10 and data["best_basra"] and data["best_sweep"]
    assert not data["best_gave_basra"]


def test_a_basra_given_away() -> None:
    # 2H laid on the 6C lets the 8S take both: a basra. The KD leaves no sum of 8.
    rnd = position(("2H", "KD"), ("8S", "QS"), ("6C",))
    why = explain(rnd, play("2H"), play("KD"), cost=9.5)
    assert why.made.gave_basra and not why.best.gave_basra
    assert why.reason == "gave-basra"
    assert why.to_json()["gave_basra"] is True


def test_a_missed_ten_of_diamonds() -> None:
    rnd = position(("10C", "4H"), ("KS", "3C"), ("10D", "4S"))
    why = explain(rnd, play("4H:4S"), play("10C:10D"), cost=3.0)
    assert why.reason == "missed-ten-of-diamonds"
    assert why.made.points == 0 and why.best.points == 3
    assert not why.best.sweep and not why.made.gave_basra and not why.best.gave_basra
    # Where the 10D is worth less than nothing (serbian: -3), missing it is no reason.
    serbian = position(("10C", "4H"), ("KS", "3C"), ("10D", "4S"), "serbian")
    assert explain(serbian, play("4H:4S"), play("10C:10D"),
                   cost=3.0).reason == "kept-wrong-card"


def test_a_cost_that_shows_only_later() -> None:
    # The 7H takes 3C+4C or 2H+5D: the same card, no points either way, the floor not
    # cleared, no basra for the kings and queens: the difference is in the rest of the
    # round.
    rnd = position(("7H", "9S"), ("KS", "QS"), ("3C", "4C", "2H", "5D"))
    why = explain(rnd, play("7H:3C+4C"), play("7H:2H+5D"), cost=1.5)
    assert why.reason == "later"
    assert why.to_json()["made_take"] == ["3C", "4C"]
    # Two cards laid down, nothing taken either way: the card kept was the wrong one.
    rnd = position(("8H", "9S"), ("KS", "QS"), ("KC",))
    assert explain(rnd, play("8H"), play("9S"), cost=2.0).reason == "kept-wrong-card"


def test_no_cost_no_reason_and_the_rules_in_order() -> None:
    rnd = position(("5H", "9D"), ("KS", "2H"), ("5C",))
    assert explain(rnd, play("9D"), play("5H:5C"), cost=0.0).reason is None
    assert explain(rnd, play("5H:5C"), play("5H:5C"), cost=0.0).reason is None
    # A missed basra comes before a basra given away.
    made = take_facts(rnd, play("9D"))
    best = take_facts(rnd, play("5H:5C"))
    gave = replace(made, gave_basra=True)
    assert reason(gave, best, 1.0) == "missed-basra"
    assert reason(gave, replace(best, basra=False), 1.0) == "gave-basra"
    assert set(REASONS) >= {"missed-basra", "gave-basra", "missed-ten-of-diamonds",
                            "missed-sweep", "missed-points", "kept-wrong-card", "later"}


def test_a_missed_sweep_and_missed_points() -> None:
    # The JC clears a floor too big to be a basra for it (a Jack never is), with an ace.
    rnd = position(("JC", "8H"), ("KS", "QS"), ("AS", "QC", "3H"))
    assert explain(rnd, play("8H"), play("JC:AS+QC+3H"), cost=4.0).reason == "missed-sweep"
    rnd = position(("AH", "8H"), ("KS", "QS"), ("AC", "QC", "3H", "5S"))
    why = explain(rnd, play("8H:3H+5S"), play("AH:AC"), cost=2.0)
    assert why.best.points == 2 and why.made.points == 0
    assert why.reason == "missed-points"


def test_no_basra_is_given_after_the_last_play_or_on_an_empty_floor() -> None:
    rnd = position(("5H",), ("5S",), ("5C",), played=47)
    assert take_facts(rnd, play("5H:5C")).gave_basra is False
    rnd = position(("5H", "9D"), ("5S", "2H"), ("5C",))
    after_sweep = take_facts(rnd, play("5H:5C"))
    assert after_sweep.sweep and not after_sweep.gave_basra
    assert gives_basra(rnd)  # seat 0 itself could


@pytest.mark.parametrize("variant", ["egyptian", "arabic101", "lebanese", "serbian"])
def test_the_facts_are_plain_json(variant: str) -> None:
    rnd = position(("5H", "9D"), ("KS", "2H"), ("5C",), variant)
    data = explain(rnd, play("9D"), play("5H:5C"), cost=1.0).to_json()
    assert set(data) == {"made_take", "made_points", "made_basra", "made_sweep",
                         "gave_basra", "best_points", "best_basra", "best_sweep",
                         "best_gave_basra", "reason"}
    assert all(isinstance(v, (bool, int, list, str)) or v is None for v in data.values())
