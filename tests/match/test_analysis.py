"""``basra analyse``: the expert's value of every play of a record and of its best play."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from basra.bots import make_bot
from basra.bots.endgame import Solver, margin_utility
from basra.cli.main import main
from basra.game.engine import Play
from basra.game.rules import find_variant
from basra.game.seating import Seating
from basra.match.analysis import analyse
from basra.match.driver import MatchDriver
from basra.match.explain import REASONS
from basra.match.records import MatchRecord, dumps, parse_record

ITERATIONS = 40


def a_record(variant: str = "egyptian", seats: int = 2, teams: bool = False,
             rounds: int = 1) -> MatchRecord:
    driver = MatchDriver(find_variant(variant), Seating(seats, teams),
                         [f"p{s}" for s in range(seats)])
    bots = [make_bot("easy" if s % 2 else "medium", seed=s) for s in range(seats)]
    for n in range(rounds):
        driver.commit(f"{n + 3:064x}")
        driver.deal()
        driver.play_round(bots)
    return driver.build_record()


@pytest.fixture(scope="module")
def record() -> MatchRecord:
    return a_record()


@pytest.fixture(scope="module")
def analysed(record: MatchRecord) -> dict[str, object]:
    return analyse(record, iterations=ITERATIONS, seed=1).to_json()


def test_every_play_is_analysed_with_its_cost(record: MatchRecord,
                                               analysed: dict[str, object]) -> None:
    plays = analysed["plays"]
    assert isinstance(plays, list)
    made = [(p.seat, str(p.play)) for r in record.rounds for p in r.plays]
    assert [(p["seat"], p["play"]) for p in plays] == made
    for p in plays:
        assert p["cost"] >= 0
        assert p["best_value"] >= p["value"] - 1e-9
        assert p["cost"] == pytest.approx(max(0.0, p["best_value"] - p["value"]), abs=2e-3)
        if p["choices"] == 1:
            assert p["cost"] == 0 and p["best"] == p["play"]
    costs = analysed["cost_by_seat"]
    assert isinstance(costs, list)
    for seat in (0, 1):
        assert costs[seat] == pytest.approx(sum(p["cost"] for p in plays if p["seat"] == seat),
                                            abs=0.05)
    assert analysed["format"] == "basra-analysis/1"
    assert analysed["players"] == ["p0", "p1"]


def test_the_last_deal_of_two_players_is_valued_exactly(record: MatchRecord,
                                                        analysed: dict[str, object]) -> None:
    """In the last deal the card counter knows every card: the values are the solver's."""
    driver = MatchDriver(find_variant("egyptian"), Seating(2), ["p0", "p1"])
    rnd = record.rounds[0]
    assert rnd.fairness is not None
    driver.deal_deck(rnd.fairness.deck(), rnd.fairness)
    plays = analysed["plays"]
    assert isinstance(plays, list)
    for entry, result in zip(rnd.plays, plays, strict=True):
        assert driver.match.round is not None
        if driver.match.round.stock_left == 0 and result["choices"] > 1:
            side = driver.match.side_of(entry.seat or 0)
            exact = dict(Solver(driver.match.round, side, 0, margin_utility(side))
                         .play_values())
            assert result["value"] == pytest.approx(exact[entry.play], abs=1e-3)
            assert result["best_value"] == pytest.approx(max(exact.values()), abs=1e-3)
        driver.apply(entry.seat or 0, entry.play)


def test_an_analysis_is_the_same_every_time(record: MatchRecord,
                                            analysed: dict[str, object]) -> None:
    assert analyse(record, iterations=ITERATIONS, seed=1).to_json() == analysed


def test_every_seating_can_be_analysed() -> None:
    for variant, seats, teams in [("lebanese", 3, False), ("serbian", 4, True)]:
        rec = a_record(variant, seats, teams)
        result = analyse(rec, iterations=8)
        assert len(result.plays) == sum(len(r.plays) for r in rec.rounds)
        assert all(p.cost >= 0 for p in result.plays)


def test_the_command_prints_json_and_a_table(tmp_path: Path, record: MatchRecord,
                                             analysed: dict[str, object],
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "match.json"
    path.write_text(dumps(record))
    assert main(["analyse", "--json", "--iterations", str(ITERATIONS), "--seed", "1",
                 str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == analysed
    assert main(["analyse", "--iterations", "8", "--all", str(path)]) == 0
    table = capsys.readouterr().out
    assert "points given away over the match" in table
    assert table.count("p0:") == 1


def test_an_illegal_record_is_one_line_and_exit_1(tmp_path: Path, record: MatchRecord,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(dumps(record))
    first = data["rounds"][0]["plays"][0]
    data["rounds"][0]["plays"][1] = dict(first)  # the same card again
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    assert main(["analyse", str(path)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("round 1, play 2:") and "\n" not in err
    assert main(["analyse", str(tmp_path / "missing.json")]) == 1
    assert main(["analyse", "--iterations", "0", str(path)]) == 2


def test_a_record_of_an_unfinished_round_is_analysed_up_to_its_last_play() -> None:
    rec = a_record()
    data = json.loads(dumps(rec))
    data["rounds"][0]["plays"] = data["rounds"][0]["plays"][:5]
    part = parse_record(json.dumps(data))
    result = analyse(part, iterations=8)
    assert [p.number for p in result.plays] == [1, 2, 3, 4, 5]
    assert [p.play for p in result.plays] == [Play.parse(f"{p['card']}:{'+'.join(p['take'])}")
                                              for p in data["rounds"][0]["plays"]]


def test_every_play_says_what_it_did_and_why_it_cost(analysed: dict[str, object]) -> None:
    """The explanation's fields (basra-analysis/1, added): the play made's and the best
    play's take now, and a reason code for a play that cost something."""
    plays = analysed["plays"]
    assert isinstance(plays, list)
    for p in plays:
        for key in ("made_take", "made_points", "made_basra", "made_sweep", "gave_basra",
                    "best_points", "best_basra", "best_sweep", "best_gave_basra", "reason"):
            assert key in p, key
        assert p["made_take"] == (p["play"].partition(":")[2].split("+")
                                  if ":" in p["play"] else [])
        if p["cost"] > 0:
            assert p["reason"] in REASONS
        else:
            assert p["reason"] is None
        if p["best"] == p["play"]:
            assert (p["made_points"], p["made_basra"], p["gave_basra"]) == (
                p["best_points"], p["best_basra"], p["best_gave_basra"])
        if p["made_basra"]:
            assert p["made_sweep"] and p["made_points"] >= 10
    mistakes = analysed["mistakes_by_seat"]
    assert mistakes == [sum(1 for p in plays if p["seat"] == seat and p["cost"] >= 1)
                        for seat in (0, 1)]
