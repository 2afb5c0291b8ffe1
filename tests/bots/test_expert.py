"""The expert: legal plays from its view only, deterministic, playing for the match."""

from __future__ import annotations

import random

import pytest

from basra.bots import make_bot
from basra.bots.determinize import sample_round
from basra.bots.endgame import Solver, margin_utility
from basra.bots.expert import ExpertBot, expert_values, interchangeable
from basra.bots.hard import HardBot
from basra.bots.match_value import MatchState, _stored, compute_odds, race_odds, table_key
from basra.game.cards import mask_of, parse_card_set
from basra.game.engine import (
    Match,
    Play,
    Round,
    compose_round,
    legal_plays,
    new_match,
    play,
    play_unchecked,
    score_round,
    start_round,
)
from basra.game.rules import VARIANTS, find_variant
from basra.game.shuffle import shuffled_deck
from basra.game.views import SeatView, view, view_from_json
from basra.game.views import view as seat_view
from basra.match.analysis import play_values

SEATINGS = [(rules.name, seats, teams) for rules in VARIANTS.values()
            for seats, teams in sorted(rules.seatings)]


def match_at(variant: str, seats: int, teams: bool, plays_left: int, seed: int) -> Match:
    """A match in its first round with ``plays_left`` plays to go, reached by random plays."""
    rng = random.Random(seed)
    rules = find_variant(variant)
    deck = list(range(52))
    rng.shuffle(deck)
    m = start_round(new_match(rules, seats, teams), deck)
    assert m.round is not None
    while rules.plays_per_round - m.round.played > plays_left:
        options = legal_plays(m.round)
        m = play(m, options[rng.randrange(len(options))])
        assert m.round is not None
    return m


def to_play(m: Match) -> SeatView:
    assert m.round is not None
    return view(m, m.round.turn)


@pytest.mark.parametrize(("variant", "seats", "teams"), SEATINGS)
def test_the_expert_plays_only_legal_plays_in_every_phase(variant: str, seats: int,
                                                          teams: bool) -> None:
    per_deal = 4 * seats
    for n, left in enumerate((per_deal, per_deal - 1, 2 * per_deal - 2, 40 - n_off(seats))):
        m = match_at(variant, seats, teams, left, seed=n)
        v = to_play(m)
        choice = ExpertBot(n, iterations=60, time_cap=None).choose(v)
        assert choice in v.legal
        assert choice.card in v.hand
        play(m, choice)  # the engine takes it


def n_off(seats: int) -> int:
    return 0 if seats == 2 else 4


def test_the_expert_plays_every_seating_to_the_end_of_a_round() -> None:
    for variant, seats, teams in SEATINGS:
        m = match_at(variant, seats, teams, 48, seed=1)
        bots = [ExpertBot(s, iterations=24, time_cap=None) for s in range(seats)]
        while m.in_round:
            assert m.round is not None
            seat = m.round.turn
            m = play(m, bots[seat].choose(view(m, seat)), seat)
        assert len(m.results) == 1


def test_the_expert_never_leaves_a_capture_it_must_make() -> None:
    """A card that can take must take (RULES.md 3): the expert's plays are the engine's."""
    for seed in range(6):
        m = match_at("egyptian", 2, False, 8 + seed, seed)
        v = to_play(m)
        assert m.round is not None
        values = expert_values(v, seed, iterations=60)
        assert sorted(p for p, _ in values) == sorted(legal_plays(m.round))


def hidden_shuffled(m: Match, seat: int, seed: int) -> Match:
    """The same match as ``seat`` sees it, the cards it cannot see dealt differently."""
    assert m.round is not None
    other = sample_round(view(m, seat), random.Random(seed))
    return m._replace(round=other._replace(log=m.round.log, setup=other.setup._replace(
        deck=m.round.setup.deck)))


@pytest.mark.parametrize("left", [6, 14, 30])
def test_the_expert_decides_the_same_when_the_unseen_cards_are_shuffled(left: int) -> None:
    for variant, seats, teams in [("egyptian", 2, False), ("lebanese", 4, True)]:
        m = match_at(variant, seats, teams, left, seed=left)
        assert m.round is not None
        seat = m.round.turn
        v = view(m, seat)
        choices = set()
        for k in range(3):
            other = hidden_shuffled(m, seat, k)
            assert other.round is not None
            assert other.round.hands != m.round.hands or (seats == 2 and left <= 8)
            assert view(other, seat) == v
            choices.add(ExpertBot("same", iterations=120, time_cap=None).choose(
                view(other, seat)))
        assert len(choices) == 1


def test_the_expert_is_deterministic_given_its_seed_and_budget() -> None:
    for left in (7, 15, 33):
        v = to_play(match_at("egyptian", 2, False, left, seed=left))
        first = expert_values(v, 42, iterations=200, value="match")
        again = expert_values(v, 42, iterations=200, value="match")
        assert first == again


def test_more_budget_is_spent_only_where_the_decision_is_close() -> None:
    """Plays that clearly trail are dropped: they get fewer playouts than the chosen one,
    and stay valued below it."""
    dropped = 0
    for seed in range(8):
        v = to_play(match_at("egyptian", 2, False, 44 - seed, seed=seed))
        if len(v.legal) < 3:
            continue
        bot = ExpertBot(seed, iterations=1500, time_cap=None)
        values = dict(bot.values(v))
        choice = bot.choose(v)
        assert values[choice] == max(values.values())
        most = max(bot.playouts)
        assert bot.playouts[list(v.legal).index(choice)] == most
        for other, count in zip(v.legal, bot.playouts, strict=True):
            if count < most:
                dropped += 1
                assert values[other] < values[choice]
    assert dropped > 0


def test_with_four_players_the_last_deal_is_searched_then_solved() -> None:
    for left, exact in ((16, False), (10, True)):
        m = match_at("lebanese", 4, False, left, seed=left)
        v = to_play(m)
        bot = ExpertBot(1, iterations=300, time_cap=None)
        values = bot.values(v)
        assert {p for p, _ in values} == set(v.legal)
        assert (bot.playouts == []) == exact


def cards(text: str) -> int:
    return parse_card_set(text.split())


def near_the_target() -> tuple[Round, MatchState]:
    """Hand-made, egyptian, two players, the last deal with four plays each to go: seat 0
    holds 8D JD QH 10S, seat 1 holds 3C QC 10D JH, the floor is 6C 4H QS. Seat 0 has 22
    cards in its pile, seat 1 has 19 and a basra; the match stands 88 to 95 of 121.

    Taking the queen (QH:QS) is the best play for the round's margin (+3), but after it
    seat 1 crosses 121 ahead and wins the match. Sweeping with the Jack costs points in
    this round (-17) and keeps the match alive (the majority is carried)."""
    rules = find_variant("egyptian")
    hands = [cards("8D JD QH 10S"), cards("3C QC 10D JH")]
    floor = cards("6C 4H QS")
    pile1 = cards("2C AS AH JS JC 2D 3D 4D 5D 6D 9D KD 2H 3H 5H 6H 7H 8H 9H")
    pile0 = mask_of(range(52)) & ~(hands[0] | hands[1] | floor | pile1)
    rnd = compose_round(rules, 2, False, 1, hands=hands, floor=floor, stock=[],
                        piles=[pile0, pile1], basras=[0, 1], bonus=[0, 10], turn=0,
                        last_taker=0, played=rules.plays_per_round - 8)
    return rnd, MatchState("egyptian", 2, False, 0, (88, 95), (0, 0))


def test_near_the_target_the_match_value_prefers_the_play_that_keeps_the_match() -> None:
    rnd, state = near_the_target()
    match_values = dict(Solver(rnd, 0, 0, state.utility()).play_values())
    margins = dict(Solver(rnd, 0, 0, margin_utility(0)).play_values())
    by_match = max(match_values, key=lambda p: match_values[p])
    by_margin = max(margins, key=lambda p: margins[p])
    assert str(by_margin) in {"QH:QS", "10S:6C+4H"}
    assert str(by_match) == "JD:6C+4H+QS"
    assert margins[by_match] < margins[by_margin]
    assert match_values[by_margin] < 0.01
    assert match_values[by_match] > 0.3


def test_after_the_greedy_play_the_opponent_wins_the_match_with_best_play() -> None:
    rnd, _ = near_the_target()
    after = play_unchecked(rnd, *next(p for p in legal_plays(rnd) if str(p) == "QH:QS"))

    def best(r: Round) -> float:
        """Plain minimax on the match's totals: 1 a win for seat 0, 0 a loss."""
        if r.finished:
            scores, _ = score_round(r, 0)
            mine, theirs = 88 + scores[0].points, 95 + scores[1].points
            return 1.0 if (mine >= 121 or theirs >= 121) and mine > theirs else (
                0.0 if max(mine, theirs) >= 121 and theirs > mine else 0.5)
        values = [best(play_unchecked(r, c, t)) for c, t in legal_plays(r)]
        return max(values) if r.turn == 0 else min(values)
    assert best(after) == 0.0


def test_the_race_table_rewards_a_lead_and_values_the_carry() -> None:
    odds = race_odds(find_variant("egyptian"), 2, False)
    assert odds.chance(0, 0, 0) == pytest.approx(0.5, abs=0.01)
    assert odds.chance(100, 80, 0) > odds.chance(90, 80, 0) > odds.chance(80, 80, 0)
    # the carry goes to whoever takes the next majority: it helps the side behind
    assert odds.chance(80, 110, 60) > odds.chance(80, 110, 0)
    serbian = MatchState("serbian", 2, False, 0, (50, 50), (2, 0)).utility()
    assert serbian([60, 0], 0) > 0.99  # the third set, and so the match


def test_the_shipped_race_table_is_the_one_self_play_fits() -> None:
    rules = find_variant("arabic101")
    stored = _stored()[table_key(rules, 2, False, rules.target)]
    fresh = compute_odds(rules, 2, False, rules.target)
    assert len(stored) == len(fresh.table)
    assert max(abs(a - b) for a, b in zip(
        stored, [fresh.table[k] for k in sorted(fresh.table, reverse=True)],
        strict=True)) < 1e-4


def test_hard_solves_a_two_player_last_deal_exactly() -> None:
    for seed in range(5):
        m = match_at("egyptian", 2, False, 8 - seed % 3, seed)
        v = to_play(m)
        assert m.round is not None
        exact = dict(Solver(m.round, v.side or 0, 0, margin_utility(v.side or 0))
                     .play_values())
        choice = HardBot(seed, iterations=10, time_cap=None).choose(v)
        assert exact[choice] == max(exact.values())


def test_make_bot_knows_the_expert() -> None:
    bot = make_bot("expert", 1, iterations=10, time_cap=0)
    assert isinstance(bot, ExpertBot) and bot.time_cap is None and bot.iterations == 10
    assert make_bot("expert").time_cap == pytest.approx(0.85)


def test_a_short_match_is_valued_against_its_shorter_target() -> None:
    """In a short egyptian match (to 61, RULES.md 6.5), 55 to 40 is near the end: the
    view says the match is short, the expert's match value reads it, and the race table of
    the shorter target is shipped."""
    short = find_variant("egyptian", "short")
    assert table_key(short, 2, False, 61) in _stored()
    assert race_odds(short, 2, False, 61).chance(11, 8, 0) > race_odds(
        find_variant("egyptian"), 2, False, 121).chance(11, 8, 0)
    deck = shuffled_deck("00" * 32, "", 1)
    shown = seat_view(start_round(new_match(short, 2), deck), 0)
    assert shown.length == "short" and shown.to_json()["length"] == "short"
    assert view_from_json(shown.to_json()).length == "short"
    full = seat_view(start_round(new_match(find_variant("egyptian"), 2), deck), 0)
    assert full.length == "full" and "length" not in full.to_json()
    # A round of 8 points to 2 from 55 to 40: the short match is won, the full one goes on.
    near = MatchState("egyptian", 2, False, 0, (55, 40), (0, 0), shown.length).utility()
    far = MatchState("egyptian", 2, False, 0, (55, 40), (0, 0), full.length).utility()
    assert near([8, 2], 0) > 0.99 > far([8, 2], 0)


def test_interchangeable_plays_are_the_same_take_by_cards_the_rules_cannot_tell_apart() -> None:
    egyptian = find_variant("egyptian")
    plays = [Play.parse(p) for p in ("3H", "3S", "7H", "7D:5C", "7S", "10H", "10D", "10C",
                                     "JC:5C", "JS:5C", "5H:5C", "5S:5C")]
    assert interchangeable(egyptian, plays) == [0, 0, 2, 3, 2, 5, 6, 5, 8, 8, 10, 10]
    lebanese = find_variant("lebanese")  # the 7D is no power card there: a plain 7
    assert interchangeable(lebanese, [Play.parse("7H"), Play.parse("7D")]) == [0, 0]
    serbian = find_variant("serbian")  # the 2S is worth -2 there
    assert interchangeable(serbian, [Play.parse("2H"), Play.parse("2S")]) == [0, 1]


def test_an_analysis_values_interchangeable_plays_once() -> None:
    seen = 0
    for seed in range(40):
        m = match_at("egyptian", 2, False, 40 - seed % 12, seed)
        v = to_play(m)
        same = interchangeable(find_variant("egyptian"), list(v.legal))
        if len(set(same)) == len(same) or v.stock_count <= 16:
            continue
        values = play_values(v, "s", 60)
        assert [p for p, _ in values] == list(v.legal)
        for i, j in enumerate(same):
            assert values[i][1] == values[j][1]
        seen += 1
    assert seen


def test_an_analysis_values_a_position_whose_plays_are_all_interchangeable() -> None:
    rules = find_variant("egyptian")
    for seed in range(400):
        m = match_at("egyptian", 2, False, 40 - seed % 20, seed)
        v = to_play(m)
        if len(v.legal) > 1 and set(interchangeable(rules, list(v.legal))) == {0}:
            break
    else:
        pytest.fail("no position found")
    values = play_values(v, "s", 40)
    assert len({value for _, value in values}) == 1
    assert all(-60 < value < 60 for _, value in values)
