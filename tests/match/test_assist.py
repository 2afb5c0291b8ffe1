"""Engine-assistance detection (:mod:`basra.match.assist`): a seat's game read from its
analysis, a player's last games judged against their rating, and the simulation that sets
the threshold (``benchmarks/assist_detection.py``, slow)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from basra.bots import make_bot
from basra.game.rules import find_variant
from basra.game.seating import Seating
from basra.match import assist
from basra.match.analysis import analyse
from basra.match.assist import GameSummary, assess, summarise
from basra.match.driver import MatchDriver

GAP = assist.CLEAR_GAP
CLASSES = len(assist.CLASSES)
EARLY_TAKE = assist.class_of(5, False)
EARLY_LAY = assist.class_of(5, True)
LAST_TAKE = assist.class_of(0, False)


def play(seat: int, best: float, second: float | None, cost: float = 0.0, *,
         choices: int = 3, number: int = 1, takes: bool = True) -> dict[str, Any]:
    """One play of a hand-made analysis document (only what :func:`summarise` reads, and
    the values it would be written with): play ``number`` of its round, its best play
    taking a card or laying one down."""
    return {"seat": seat, "number": number, "choices": choices, "best_value": best,
            "second_value": second, "value": best - cost, "cost": cost,
            "best_take": ["5H"] if takes else []}


def document(*plays: dict[str, Any]) -> dict[str, Any]:
    return {"format": "basra-analysis/1", "variant": "egyptian", "players": ["ana", "bo"],
            "plays": list(plays)}


def counts(**by_class: int) -> tuple[int, ...]:
    """Counts by class, from keyword arguments named as the module's class indexes."""
    out = [0] * CLASSES
    for name, n in by_class.items():
        out[{"early_take": EARLY_TAKE, "early_lay": EARLY_LAY, "last_take": LAST_TAKE}[name]] = n
    return tuple(out)


def test_a_clear_decision_agreed_and_one_missed() -> None:
    doc = document(
        play(0, 6.0, 6.0 - GAP),                          # clear (the gap exactly), agreed
        play(0, 6.0, 6.0 - GAP - 1, cost=GAP + 1, takes=False),  # clear, missed
        play(0, 3.0, 3.0 - GAP / 2, cost=GAP / 2),        # not clear: the runner-up is close
        play(0, 2.0, None),                               # every play valued the same
        play(0, 4.0, 4.0, choices=1),                     # no choice: not a decision
        play(0, 5.0, 1.0, number=48),                     # clear, agreed, in the last deal
        play(1, 9.0, 0.0, cost=9.0, number=41))           # the other seat's, last deal
    assert summarise(doc, 0) == GameSummary(
        decisions=5, cost=GAP + 1 + GAP / 2,
        clear=counts(early_take=1, early_lay=1, last_take=1),
        agreed=counts(early_take=1, last_take=1))
    assert summarise(doc, 1) == GameSummary(1, 9.0, counts(last_take=1), counts())
    assert summarise(doc, 0).total_clear == 3 and summarise(doc, 0).total_agreed == 2


def test_the_classes_follow_the_deals_of_the_round() -> None:
    """Two players deal 8 plays a deal, six deals a round: plays 41-48 are the last deal,
    33-40 the one before, 1-8 the first (five before the last)."""
    for number, deals_left in ((1, 5), (8, 5), (9, 4), (32, 2), (33, 1), (40, 1), (41, 0),
                               (48, 0)):
        summary = summarise(document(play(0, 5.0, 1.0, number=number)), 0)
        assert summary.clear[assist.class_of(deals_left, False)] == 1, number
        lays = summarise(document(play(0, 5.0, 1.0, number=number, takes=False)), 0)
        assert lays.clear[assist.class_of(deals_left, True)] == 1, number
    assert assist.class_of(9, False) == assist.class_of(len(assist.PHASES) - 1, False)
    assert len(set(assist.CLASSES)) == CLASSES == 2 * len(assist.PHASES)
    assert sorted(assist.class_of(d, lays) for d in range(len(assist.PHASES))
                  for lays in (False, True)) == list(range(CLASSES))


def test_an_analysis_without_second_values_counts_no_clear_decision() -> None:
    """Analyses stored before ``second_value`` existed: their decisions and costs count,
    their clear decisions cannot be told."""
    old = document(play(0, 6.0, 0.0), play(0, 5.0, 0.0, cost=5.0))
    for p in old["plays"]:
        del p["second_value"]
    assert summarise(old, 0) == GameSummary(2, 5.0)
    assert summarise(old, 0).total_clear == 0


def test_a_summary_is_json_both_ways_and_refuses_nonsense() -> None:
    summary = GameSummary(70, 71.25, counts(early_take=20, early_lay=13),
                          counts(early_take=18, early_lay=7))
    text = json.dumps(summary.to_json())
    assert json.loads(text) == {"decisions": 70, "cost": 71.25,
                                "clear": list(summary.clear), "agreed": list(summary.agreed),
                                "gap": GAP}
    assert GameSummary.from_json(json.loads(text)) == summary
    good = summary.to_json()
    for change in ({"clear": [80] + [0] * (CLASSES - 1)},   # more clear than decisions
                   {"agreed": [*summary.agreed[:LAST_TAKE], 1,
                               *summary.agreed[LAST_TAKE + 1:]]},  # more agreed than clear
                   {"clear": [1]},                            # not every class
                   {"decisions": 1.5}, {"decisions": True}, {"cost": -1}, {"gap": "big"},
                   {"agreed": None}):
        with pytest.raises(ValueError):
            GameSummary.from_json({**good, **change})
    with pytest.raises(ValueError):
        GameSummary.from_json({k: v for k, v in good.items() if k != "cost"})
    with pytest.raises(ValueError):
        summarise({"format": "basra-record/1", "plays": []}, 0)
    with pytest.raises(ValueError):
        summarise(document(), 2)


def honest_game(rating: float, decisions: int = 70, per_class: int = 4) -> GameSummary:
    """A game played as the model says a player of ``rating`` plays."""
    shares = assist.expected_agreement(rating)
    return GameSummary(decisions, assist.expected_cost(rating) * decisions,
                       (per_class,) * CLASSES, tuple(round(a * per_class) for a in shares))


def test_a_record_the_rating_explains_is_not_flagged() -> None:
    for rating in (1000, 1300, 1500, 1700, 1800):
        result = assess([honest_game(rating)] * assist.GAMES, rating)
        assert not result.flagged and result.score < 1, rating
        assert "below" in result.reason and "what the rating explains" in result.reason


def test_an_implausible_record_is_flagged_with_a_readable_reason() -> None:
    """Agreeing on every clear decision and giving almost nothing away, rated 1300."""
    perfect = GameSummary(100, 10.0, (8,) * CLASSES, (8,) * CLASSES)
    games = [perfect] * assist.GAMES
    result = assess(games, 1300)
    clear = 8 * CLASSES * assist.GAMES
    assert result.flagged and result.score >= assist.THRESHOLD
    assert result.clear == result.agreed == clear
    expected = round(sum(assist.expected_agreement(1300)) * 8 * assist.GAMES)
    assert result.reason.startswith(
        f"agreed with the expert on {clear} of {clear} clear decisions in 20 rated games; a "
        f"player rated 1300 agrees on about {expected}; gave away 0.10 points a decision, "
        f"where about {assist.expected_cost(1300):.2f} is expected. Score ")
    assert "flagged for a moderator" in result.reason and "not proof" in result.reason
    data = result.to_json()
    assert data["flagged"] is True and data["reason"] == result.reason
    # The same record from a player rated as the expert is much less implausible: the
    # rating predicts the expert's agreement.
    assert assess(games, 1800).score < result.score / 2


def test_too_few_clear_decisions_are_never_flagged() -> None:
    perfect = GameSummary(100, 0.0, (8,) * CLASSES, (8,) * CLASSES)
    few = (assist.MIN_CLEAR - 1) // (8 * CLASSES)
    result = assess([perfect] * few, 1000)
    assert result.clear < assist.MIN_CLEAR and not result.flagged
    assert result.score >= assist.THRESHOLD
    assert "Too few clear decisions to judge" in result.reason
    assert assess([perfect] * (few + 1), 1000).flagged
    nothing = assess([], 1500)
    assert not nothing.flagged and nothing.score == 0
    assert nothing.reason.startswith("no clear decision in 0 rated games; no decision")


def test_only_the_last_games_and_their_own_gap_count() -> None:
    perfect = GameSummary(100, 0.0, (8,) * CLASSES, (8,) * CLASSES)
    honest = honest_game(1300)
    assert assess([perfect] * 5 + [honest] * assist.GAMES, 1300) == assess(
        [honest] * assist.GAMES, 1300)
    other_gap = GameSummary(100, 0.0, (8,) * CLASSES, (8,) * CLASSES, gap=GAP + 1)
    result = assess([other_gap] * assist.GAMES, 1300)
    assert result.clear == 0 and result.decisions == 100 * assist.GAMES and not result.flagged


def test_the_model_s_figures_hold_together() -> None:
    """A better-rated honest player gives away less; agreement and the expert's are
    shares; the figures are between the ratings' and the nearest beyond them."""
    assert list(assist.COST) == sorted(assist.COST, reverse=True)
    for table in (*assist.AGREEMENT, assist.EXPERT_AGREEMENT):
        assert all(0 <= a <= 1 for a in table)
    assert len(assist.AGREEMENT) == CLASSES == len(assist.EXPERT_AGREEMENT)
    assert assist.expected_cost(0) == assist.COST[0]
    assert assist.expected_cost(3000) == assist.COST[-1]
    low, high = assist.RATINGS[0], assist.RATINGS[1]
    middle = assist.expected_agreement((low + high) / 2)[0]
    assert middle == pytest.approx((assist.AGREEMENT[0][0] + assist.AGREEMENT[0][1]) / 2)
    assert list(assist.LEVEL_RATINGS.values()) == sorted(assist.LEVEL_RATINGS.values())


def test_an_analysis_has_the_runner_ups_value() -> None:
    """``second_value`` (basra-analysis/1, added): the best value below the best play's,
    None with one choice or when every play is valued the same."""
    driver = MatchDriver(find_variant("egyptian"), Seating(2), ["p0", "p1"])
    bots = [make_bot("medium", seed=1), make_bot("easy", seed=2)]
    driver.commit(f"{7:064x}")
    driver.deal()
    driver.play_round(bots)
    doc = analyse(driver.build_record(), iterations=8, seed=1).to_json()
    plays = doc["plays"]
    assert isinstance(plays, list)
    seconds = 0
    for p in plays:
        assert "second_value" in p
        if p["choices"] == 1:
            assert p["second_value"] is None
        elif p["second_value"] is not None:
            seconds += 1
            assert p["second_value"] < p["best_value"]
            if p["cost"] > 0:  # a play that is not the best is worth the runner-up or less
                assert p["value"] <= p["second_value"] + 1e-3
    assert seconds > 10
    for seat in (0, 1):
        summary = summarise(doc, seat)
        assert summary.decisions == sum(1 for p in plays
                                        if p["seat"] == seat and p["choices"] > 1)
        assert 0 < summary.total_clear <= summary.decisions


def test_the_simulation_reads_a_game_as_summarise_does() -> None:
    """The benchmark keeps each decision as (gap, cost, deal, lays) and counts them itself:
    the same counts as :func:`summarise` on the analysis they came from."""
    import assist_detection  # noqa: PLC0415 (benchmarks/, on the test path)

    doc = analyse(assist_detection.play_match(3, ("easy", "medium")), iterations=8,
                  seed=0).to_json()
    for seat in (0, 1):
        kept = assist_detection.seat_decisions(doc, seat)
        assert all(len(d) == len(assist_detection.FIELDS) for d in kept)
        game = [(gap, cost, assist.class_of(assist_detection.DEALS - 1 - deal, bool(lays)))
                for gap, cost, deal, lays in kept]
        expected = summarise(doc, seat)
        found = assist_detection.summary(game)
        assert (found.decisions, found.clear, found.agreed) == (
            expected.decisions, expected.clear, expected.agreed)
        assert found.cost == pytest.approx(expected.cost, abs=0.01)


@pytest.mark.slow
def test_the_simulation_flags_assisted_players_and_few_honest_ones() -> None:
    """The benchmark's simulation from the shipped corpus, seed 7, 5,000 honest players
    (the benchmark's 100,000 set the threshold): at the shipped threshold few honest
    players are flagged within 20 games (at a true rate of 1 in 1,000, 5,000 players make
    5 flags on average; more than 12 has a chance of about 1 in 500), and
    the players assisted on half their decisions, three quarters, all of them are flagged
    as often as the benchmark measured (about 72%, 93% and 96% within 20 games; the
    issue's goal of 90% at half is not met: docs/BENCHMARKS.md, "Engine-assistance
    detection")."""
    import assist_detection  # noqa: PLC0415 (benchmarks/, on the test path)

    corpus = assist_detection.Corpus(assist_detection.load_corpus())
    report = assist_detection.simulate(corpus, honest=5_000, assisted=500, seed=7,
                                       progress=False)
    assert report["threshold"] == assist.THRESHOLD
    assert report["false_flags"] <= 12, report["false_flags_by_group"]
    within = {row["share"]: row["flagged_within"]["20"] for row in report["assisted"]}
    assert within[0.5] >= 0.65
    assert within[0.75] >= 0.88
    assert within[1.0] >= 0.9
    assert within[0.25] < within[0.5] < within[0.75] <= within[1.0]
