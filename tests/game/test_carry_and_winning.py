"""RULES.md 5 (the carry across rounds), 6.2 (winning), 6.3 (teams), 6.4 (Serbian sets)."""

from __future__ import annotations

import random

import pytest

from basra.errors import IllegalPlayError
from basra.game.engine import (
    Play,
    finish_round,
    legal_match_plays,
    legal_plays,
    new_match,
    play,
    score_round,
    start_round,
)
from basra.game.rules import find_variant
from conftest import finished_round, split_piles

TARGETS = {"egyptian": 121, "arabic101": 101, "lebanese": 100, "serbian": 101}
SINGLE_RACE = ["egyptian", "arabic101", "lebanese"]

# every card worth points in the classic table to side 0
ALL_CLASSIC_POINTS = "AC AD AH AS JC JD JH JS 2C 10D"


def round_points(variant, sizes, given=None, *, teams=False, bonus=None, carry=0):
    piles = split_piles(sizes, given)
    rnd = finished_round(variant, piles, teams=teams, bonus=bonus,
                         basras=[b // 10 for b in bonus] if bonus else None)
    scores, _ = score_round(rnd, carry)
    return rnd, tuple(s.points for s in scores)


def after_round(variant, totals_after, sizes=(27, 25), given=None, *, teams=False,
                bonus=None, carry=0, sets=None):
    """The match after a round with the given piles, its totals before the round chosen so
    that they are ``totals_after`` once the round is scored."""
    rules = find_variant(variant)
    seats = 4 if teams else len(sizes)
    rnd, points = round_points(variant, sizes, given, teams=teams, bonus=bonus, carry=carry)
    before = tuple(t - p for t, p in zip(totals_after, points, strict=True))
    match = new_match(rules, seats, teams)
    target = rules.set_target(tuple(sets) if sets else match.sets)
    assert max(before) < target, f"totals {before} before the round: the match was over"
    match = match._replace(round=rnd, rounds_started=1, totals=before, carry=carry,
                           sets=tuple(sets) if sets else match.sets)
    return finish_round(match)


# ---------------------------------------------------------------- 6.2 winning


@pytest.mark.parametrize("variant", SINGLE_RACE)
def test_a_side_reaching_the_target_wins(variant):
    target = TARGETS[variant]
    match = after_round(variant, (target, 40))
    assert match.winner == 0
    assert match.over
    assert match.results[-1].totals == (target, 40)


@pytest.mark.parametrize("variant", SINGLE_RACE)
def test_one_point_short_of_the_target_plays_on(variant):
    target = TARGETS[variant]
    match = after_round(variant, (target - 1, 40))
    assert match.winner is None
    assert not match.over
    assert match.totals == (target - 1, 40)


@pytest.mark.parametrize("variant", SINGLE_RACE)
def test_both_past_the_target_the_highest_total_wins(variant):
    target = TARGETS[variant]
    match = after_round(variant, (target + 3, target + 5), sizes=(25, 27), bonus=[20, 20])
    assert match.winner == 1
    match = after_round(variant, (target + 5, target + 3), sizes=(27, 25), bonus=[20, 20])
    assert match.winner == 0


@pytest.mark.parametrize("variant", SINGLE_RACE)
def test_the_highest_total_wins_whoever_reached_the_target(variant):
    # both sides cross the line in the same round: the highest total wins, not the side
    # that holds the majority or that played last
    target = TARGETS[variant]
    match = after_round(variant, (target + 10, target), sizes=(25, 27), bonus=[40, 0])
    assert match.winner == 0


@pytest.mark.parametrize("variant", SINGLE_RACE)
def test_equal_highest_totals_past_the_target_play_another_round(variant):
    target = TARGETS[variant]
    match = after_round(variant, (target + 4, target + 4), bonus=[40, 40])
    assert match.winner is None
    assert match.totals == (target + 4, target + 4)
    # the next round settles it
    rnd, points = round_points(variant, (27, 25))
    match = finish_round(match._replace(round=rnd, rounds_started=2))
    assert match.winner == (0 if points[0] > points[1] else 1)


def test_three_players_highest_total_wins():
    match = after_round("lebanese", (105, 103, 50), sizes=(20, 16, 16),
                        bonus=[20, 20, 0])
    assert match.winner == 0
    match = after_round("lebanese", (100, 99, 98), sizes=(20, 16, 16),
                        bonus=[20, 20, 20])
    assert match.winner == 0


def test_three_players_tie_for_the_highest_plays_on():
    match = after_round("lebanese", (105, 105, 50), sizes=(20, 16, 16),
                        bonus=[20, 20, 0])
    assert match.winner is None


def test_three_players_a_tie_below_the_highest_does_not_matter():
    match = after_round("lebanese", (104, 104, 110), sizes=(16, 16, 20),
                        bonus=[20, 20, 20])
    assert match.winner == 2


def test_four_players_solo():
    match = after_round("lebanese", (101, 0, 30, 99), sizes=(13, 13, 13, 13),
                        bonus=[20, 0, 0, 20])
    assert match.winner == 0


def test_totals_add_the_round_points():
    rules = find_variant("egyptian")
    rnd, points = round_points("egyptian", (27, 25), {0: ALL_CLASSIC_POINTS})
    assert points == (43, 0)
    match = new_match(rules, 2)._replace(round=rnd, rounds_started=1, totals=(50, 60))
    match = finish_round(match)
    assert match.totals == (93, 60)
    assert match.results[-1].points == (43, 0)
    assert match.results[-1].cards == (27, 25)


# --------------------------------------------------------------- the carry


@pytest.mark.parametrize("variant", ["egyptian", "arabic101", "serbian"])
def test_the_carry_is_shown_until_it_lands(variant):
    rules = find_variant(variant)
    match = new_match(rules, 2)
    for expected in (30, 60):
        rnd, _ = round_points(variant, (26, 26))
        match = finish_round(match._replace(round=rnd))
        assert match.carry == expected
        assert match.results[-1].carry == expected
    rnd, _ = round_points(variant, (27, 25))
    match = finish_round(match._replace(round=rnd))
    assert match.results[-1].scores[0].carry == 60
    assert match.results[-1].scores[0].majority == 30
    assert match.carry == 0


@pytest.mark.parametrize("variant", ["egyptian", "arabic101"])
def test_the_carry_is_cleared_when_the_match_ends(variant):
    # a 26-26 round in which side 0 reaches the target with card points and basras
    target = TARGETS[variant]
    match = after_round(variant, (target + 2, 10), sizes=(26, 26), carry=30,
                        given={0: ALL_CLASSIC_POINTS}, bonus=[20, 0])
    assert match.winner == 0
    assert match.carry == 0
    assert match.results[-1].carry == 0


def test_lebanese_has_no_carry():
    rnd, _ = round_points("lebanese", (26, 26))
    match = finish_round(new_match(find_variant("lebanese"), 2)._replace(round=rnd))
    assert match.carry == 0


# ------------------------------------------------------------------ 6.3 teams


@pytest.mark.parametrize("variant", ["egyptian", "lebanese", "serbian"])
def test_team_game_partners_score_as_one_side(variant):
    rules = find_variant(variant)
    match = new_match(rules, 4, True)
    assert match.totals == (0, 0)
    assert [match.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    rng = random.Random(1)
    deck = list(range(52))
    rng.shuffle(deck)
    match = start_round(match, deck)
    assert len(match.round.piles) == 2
    while match.in_round:
        match = play(match, rng.choice(legal_match_plays(match)))
    result = match.results[-1]
    assert len(result.points) == 2
    assert sum(result.cards) == 52
    assert match.round.piles[0].bit_count() + match.round.piles[1].bit_count() == 52


# ----------------------------------------------------------- 6.4 serbian sets


def test_serbian_a_set_is_won_at_101_and_totals_restart_at_zero():
    match = after_round("serbian", (101, 40))
    assert match.sets == (1, 0)
    assert match.results[-1].set_winner == 0
    assert match.results[-1].totals == (101, 40)
    assert match.totals == (0, 0)
    assert match.carry == 0
    assert match.winner is None
    assert match.target == 101


def test_serbian_a_set_not_yet_won():
    match = after_round("serbian", (100, 40))
    assert match.sets == (0, 0)
    assert match.results[-1].set_winner is None
    assert match.totals == (100, 40)


def test_serbian_a_set_with_equal_highest_totals_plays_on():
    match = after_round("serbian", (110, 110), bonus=[0, 20])
    assert match.sets == (0, 0)
    assert match.totals == (110, 110)


def test_serbian_set_highest_total_wins():
    match = after_round("serbian", (108, 112), sizes=(25, 27), bonus=[20, 0])
    assert match.sets == (0, 1)


def test_serbian_carry_starts_from_zero_in_each_set():
    # the round that ends the set is itself a 26-26 tie: no carry into the next set
    match = after_round("serbian", (130, 20), sizes=(26, 26), carry=30, bonus=[40, 0])
    assert match.sets == (1, 0)
    assert match.carry == 0
    assert match.results[-1].carry == 0
    assert match.totals == (0, 0)


def test_serbian_first_to_three_sets_wins_the_match():
    match = after_round("serbian", (120, 60), sets=(2, 1))
    assert match.sets == (3, 1)
    assert match.winner == 0
    assert match.over
    match = after_round("serbian", (60, 120), sizes=(25, 27), sets=(0, 2))
    assert match.sets == (0, 3)
    assert match.winner == 1


def test_serbian_two_sets_do_not_win_the_match():
    match = after_round("serbian", (120, 60), sets=(1, 1))
    assert match.sets == (2, 1)
    assert match.winner is None


def test_serbian_fifth_set_at_2_2_is_played_to_162():
    match = new_match(find_variant("serbian"), 2)._replace(sets=(2, 2))
    assert match.target == 162
    match = after_round("serbian", (150, 60), sets=(2, 2))
    assert match.sets == (2, 2)
    assert match.winner is None
    assert match.totals == (150, 60)
    match = after_round("serbian", (162, 60), sets=(2, 2))
    assert match.sets == (3, 2)
    assert match.winner == 0


def test_serbian_sets_in_a_team_game():
    match = after_round("serbian", (101, 20), teams=True)
    assert match.sets == (1, 0)
    assert match.totals == (0, 0)


# --------------------------------------------------------------- the match API


def test_a_match_plays_rounds_until_a_winner():
    rules = find_variant("egyptian")
    rng = random.Random(4)
    match = new_match(rules, 2)
    rounds = 0
    while not match.over:
        deck = list(range(52))
        rng.shuffle(deck)
        match = start_round(match, deck)
        assert match.round.dealer == rounds % 2
        rounds += 1
        while match.in_round:
            match = play(match, rng.choice(legal_match_plays(match)), seat=match.round.turn)
        assert len(match.results) == rounds
        assert rounds < 100
    assert max(match.totals) >= 121
    assert legal_match_plays(match) == []
    with pytest.raises(IllegalPlayError) as err:
        start_round(match, list(range(52)))
    assert err.value.code == "play/match_over"


def test_playing_out_of_turn_is_refused():
    match = start_round(new_match(find_variant("egyptian"), 2), list(range(52)))
    move = legal_plays(match.round)[0]
    with pytest.raises(IllegalPlayError) as err:
        play(match, move, seat=0)  # seat 1 leads round 0
    assert err.value.code == "play/wrong_seat"


def test_no_play_before_a_round_is_dealt():
    match = new_match(find_variant("egyptian"), 2)
    assert legal_match_plays(match) == []
    with pytest.raises(IllegalPlayError) as err:
        play(match, Play(0, 0))
    assert err.value.code == "play/no_round"


def test_a_round_cannot_start_while_one_is_in_progress():
    match = start_round(new_match(find_variant("egyptian"), 2), list(range(52)))
    with pytest.raises(IllegalPlayError):
        start_round(match, list(range(52)))
