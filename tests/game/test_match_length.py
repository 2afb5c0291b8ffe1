"""RULES.md 6.5: shorter matches. Each variant's shorter target is data on its rules; a short
match is a single race to it (Serbian: one set to 101), everything else unchanged."""

from __future__ import annotations

import dataclasses

import pytest

from basra.errors import BasraError, UnknownVariantError
from basra.game.engine import Match, apply_play, finish_round, legal_plays, new_match, start_round
from basra.game.rulebook import variants_json
from basra.game.rules import MATCH_LENGTHS, VARIANTS, check_length, find_variant
from basra.game.shuffle import shuffled_deck
from conftest import VARIANT_NAMES

SHORT = {"egyptian": (61, 1), "arabic101": (51, 1), "lebanese": (51, 1), "serbian": (101, 1)}
"""RULES.md 6.5: each variant's shorter match as (target, sets to win)."""
FULL = {"egyptian": (121, 1, None), "arabic101": (101, 1, None), "lebanese": (100, 1, None),
        "serbian": (101, 3, 162)}
"""RULES.md 6: (target, sets to win, deciding set's target), the default everywhere."""
CHANGED = {"target", "sets_to_win", "deciding_set_target", "length"}
"""The only fields a shorter match changes."""


def test_the_lengths() -> None:
    assert MATCH_LENGTHS == ("full", "short")
    assert set(SHORT) == set(FULL) == set(VARIANT_NAMES) == set(VARIANTS)


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_the_short_targets(name: str) -> None:
    short = find_variant(name, "short")
    assert (short.target, short.sets_to_win) == SHORT[name]
    assert short.deciding_set_target is None
    assert short.length == "short"
    assert short.set_target((0, 0)) == short.target
    assert short.short_target == short.target


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_the_full_targets_stay_the_default(name: str) -> None:
    full = find_variant(name)
    assert find_variant(name, "full") is full is VARIANTS[name]
    assert (full.target, full.sets_to_win, full.deciding_set_target) == FULL[name]
    assert full.length == "full"


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_everything_else_is_unchanged(name: str) -> None:
    full, short = find_variant(name), find_variant(name, "short")
    assert short != full
    for f in dataclasses.fields(full):
        if f.name not in CHANGED:
            assert getattr(short, f.name) == getattr(full, f.name), f.name


def test_serbian_short_is_one_set_to_101_with_no_deciding_set() -> None:
    short = find_variant("serbian", "short")
    assert short.set_target((0, 0)) == 101
    assert short.set_target((2, 2)) == 101  # no fifth set to 162: there is only one set
    assert find_variant("serbian").set_target((2, 2)) == 162


@pytest.mark.parametrize("name", ["Egypt", "101", "libanaise", "SRPSKA"])
def test_aliases_find_the_short_rules_too(name: str) -> None:
    short = find_variant(name, "short")
    assert short is find_variant(find_variant(name).name, "short")
    assert short.length == "short"


def test_shortened_is_made_once_and_stays_short() -> None:
    for rules in VARIANTS.values():
        short = find_variant(rules.name, "short")
        assert short.shortened() is short
        assert rules.shortened() == short
        assert hash(rules.shortened()) == hash(short)


@pytest.mark.parametrize("length", ["long", "Short", "", "half", "full "])
def test_an_unknown_length_is_refused(length: str) -> None:
    with pytest.raises(BasraError) as err:
        find_variant("egyptian", length)
    assert err.value.code == "match/bad_length"
    assert str(err.value) == f"unknown match length {length!r} (known: full, short)"
    with pytest.raises(BasraError, match="unknown match length"):
        check_length(length)


def test_check_length() -> None:
    assert [check_length(x) for x in MATCH_LENGTHS] == ["full", "short"]


def test_an_unknown_variant_is_still_an_unknown_variant() -> None:
    with pytest.raises(UnknownVariantError):
        find_variant("canasta", "short")


def play_out(match: Match, nonce: int) -> Match:
    """Deal round ``nonce`` and play it to its end, always the first legal play."""
    match = start_round(match, shuffled_deck("ab" * 32, "short", nonce))
    rnd = match.round
    assert rnd is not None
    while not rnd.finished:
        rnd = apply_play(rnd, legal_plays(rnd)[0])
    return finish_round(match._replace(round=rnd))


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_a_short_match_ends_at_the_short_target(name: str) -> None:
    rules = find_variant(name, "short")
    seats = 4 if name == "serbian" else 2
    match = new_match(rules, seats, teams=name == "serbian")
    assert match.target == rules.target
    while match.winner is None:
        assert match.rounds_started < 100, "the match does not end"
        match = play_out(match, match.rounds_started + 1)
    *before, last = match.results
    for res in before:  # no round before the last settled the race (6.2)
        best = max(res.totals)
        assert best < rules.target or res.totals.count(best) > 1
    assert max(last.totals) >= rules.target and last.totals.count(max(last.totals)) == 1
    assert match.winner == last.totals.index(max(last.totals))
    assert last.set_winner is None and match.sets == (0,) * match.sides
    assert match.carry == 0


def test_the_rulebook_gives_the_short_targets() -> None:
    book = variants_json([])
    assert book["lengths"] == ["full", "short"]
    variants = book["variants"]
    assert isinstance(variants, list)
    served = {v["name"]: (v["short_target"], v["short_sets_to_win"]) for v in variants}
    assert served == SHORT
    assert {v["name"]: v["target"] for v in variants} == {n: t for n, (t, _, _) in FULL.items()}
