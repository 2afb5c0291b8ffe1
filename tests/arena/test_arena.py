"""``basra arena``: player specs, duplicate seating, the report, reproducibility, workers,
external programs, match mode, teams and three players. Behaviour, not win rates."""

from __future__ import annotations

import json
import math
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from basra.arena import command as arena
from basra.arena import games as arena_games
from basra.arena.games import ArenaConfig, PlayerSpec, parse_player
from basra.arena.stats import mean_interval, t95, wilson
from basra.bots import make_bot as real_make_bot
from basra.bots.base import Bot
from basra.game.cards import NAMES
from basra.game.engine import Match, Play
from basra.game.engine import start_round as real_start_round
from basra.game.views import SeatView
from basra.match import driver
from basra.match.replay import verify

ROOT = Path(__file__).resolve().parents[2]
RANDOM_BOT = "cmd:" + shlex.join([sys.executable, str(ROOT / "examples" / "random_bot.py")])

Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    """``basra arena ARGS``: its exit status, standard output and standard error."""

    def go(*args: str) -> tuple[int, str, str]:
        status = arena.main(list(args))
        out, err = capsys.readouterr()
        return status, out, err

    return go


def run_json(run: Run, *args: str) -> dict[str, Any]:
    status, out, err = run(*args, "--json")
    assert status == 0, err
    lines = out.strip().splitlines()
    assert len(lines) == 1, "exactly one JSON object"
    data = json.loads(lines[0])
    assert isinstance(data, dict)
    return data


def without_clock(report: dict[str, Any]) -> dict[str, Any]:
    """The report without think times (they depend on the machine, not on the seed)."""
    think = report["think_ms_per_play"]
    by_deal = report["think_ms_by_deal"]
    return report | {"think_ms_per_play": {side: think[side]["plays"] for side in think},
                     "think_ms_by_deal": {side: [(d["deal"], d["plays"]) for d in by_deal[side]]
                                          for side in by_deal}}


# --------------------------------------------------------------------------- player specs


@pytest.mark.parametrize(("text", "spec"), [
    ("random", PlayerSpec("random", "random")),
    ("Medium", PlayerSpec("Medium", "medium")),
    ("hard", PlayerSpec("hard", "hard")),
    ("hard/3000", PlayerSpec("hard/3000", "hard", 3000)),
    ("hard@0.5", PlayerSpec("hard@0.5", "hard", None, 0.5)),
    ("hard/200@2s", PlayerSpec("hard/200@2s", "hard", 200, 2.0)),
    ("expert", PlayerSpec("expert", "expert")),
    ("expert/300@0.5", PlayerSpec("expert/300@0.5", "expert", 300, 0.5)),
    ("cmd:python3 bot.py --fast", PlayerSpec("cmd:python3 bot.py --fast",
                                             command="python3 bot.py --fast")),
])
def test_player_specs(text: str, spec: PlayerSpec) -> None:
    assert parse_player(text) == spec


@pytest.mark.parametrize("text", ["grandmaster", "medium/100", "easy@1", "hard/", "hard/0",
                                  "hard/ten", "hard@0", "hard@soon", "cmd:", "cmd:  ",
                                  "cmd:python3 'unclosed"])
def test_bad_player_specs(text: str) -> None:
    with pytest.raises(ValueError, match=r"\S"):
        parse_player(text)


@pytest.mark.parametrize("args", [
    ["--a", "grandmaster", "--b", "random"],
    ["--a", "medium"],
    ["--a", "medium", "--b", "random", "--rounds", "0"],
    ["--a", "medium", "--b", "random", "--rounds", "2", "--matches", "2"],
    ["--a", "medium", "--b", "random", "--variant", "poker"],
    ["--a", "medium", "--b", "random", "--variant", "arabic101", "--players", "4"],
    ["--a", "medium", "--b", "random", "--players", "3"],
    ["--a", "medium", "--b", "random", "--jobs", "0"],
    ["--a", "medium", "--b", "random", "--seed", "-1"],
    ["--a", "medium", "--b", "random", "--timeout", "0"],
    ["--a", "medium", "--b", "hard/x"],
    ["--a", "medium", "--b", "random", "--length", "long"],
    ["--a", "medium", "--b", "random", "--length", "short"],
    ["--a", "medium", "--b", "random", "--length", "short", "--rounds", "3"],
])
def test_bad_arguments_are_one_line_and_exit_2(run: Run, args: list[str]) -> None:
    status, out, err = run(*args)
    assert status == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert err.startswith("basra arena: error: ")


# --------------------------------------------------------------------------- seating


class Spy(Bot):
    """Wraps a bot and logs (level, seat) for every play it makes."""

    def __init__(self, inner: Bot, level: str, log: list[tuple[str, int]]) -> None:
        super().__init__(None)
        self.inner, self.level_name, self.log = inner, level, log

    def decide(self, view: SeatView) -> Play:
        raise AssertionError("not used")

    def choose(self, view: SeatView) -> Play:
        assert view.seat is not None
        self.log.append((self.level_name, view.seat))
        return self.inner.choose(view)


def spy_games(monkeypatch: pytest.MonkeyPatch, cfg: ArenaConfig
              ) -> tuple[list[arena_games.GameResult], list[set[int]], list[tuple[int, ...]]]:
    """Play ``cfg`` with A = random and B = easy, logging A's seats and the first deck of
    every game."""
    log: list[tuple[str, int]] = []
    decks: list[tuple[int, ...]] = []
    a_seats: list[set[int]] = []

    def make_bot(level: str, seed: int | str | None = None, **kw: Any) -> Bot:
        return Spy(real_make_bot(level, seed, **kw), level, log)

    def start_round(match: Match, deck: tuple[int, ...]) -> Match:
        if not match.results:  # a new game
            if decks:
                a_seats.append({seat for level, seat in log if level == "random"})
                log.clear()
            decks.append(tuple(deck))
        return real_start_round(match, deck)

    monkeypatch.setattr(arena_games, "make_bot", make_bot)
    monkeypatch.setattr(driver, "start_round", start_round)  # every game's driver deals
    games = arena_games.run_games(cfg).games
    a_seats.append({seat for level, seat in log if level == "random"})
    return games, a_seats, decks


@pytest.mark.parametrize(("variant", "players", "teams", "expected"), [
    ("egyptian", 2, False, [{0}, {1}]),
    ("egyptian", 4, True, [{0, 2}, {1, 3}]),
    ("lebanese", 3, False, [{0}, {1}, {2}]),
    ("lebanese", 4, False, [{0}, {1}, {2}, {3}]),
])
def test_each_deal_is_played_with_a_on_every_side(
        monkeypatch: pytest.MonkeyPatch, variant: str, players: int, teams: bool,
        expected: list[set[int]]) -> None:
    cfg = ArenaConfig(parse_player("random"), parse_player("easy"), variant=variant,
                      players=players, teams=teams, deals=2, seed=5)
    games, a_seats, decks = spy_games(monkeypatch, cfg)
    sides = len(expected)
    assert [(g.deal, g.seating) for g in games] == [(d, s) for d in range(2)
                                                   for s in range(sides)]
    assert a_seats == expected * 2
    # Duplicate: every game of a deal gets the same deck, the deals different ones.
    assert decks[:sides] == [decks[0]] * sides
    assert decks[sides:] == [decks[sides]] * sides
    assert decks[0] != decks[sides]


def test_in_match_mode_both_seatings_get_the_same_deck_sequence() -> None:
    cfg = ArenaConfig(parse_player("random"), parse_player("easy"), mode="matches", deals=2,
                      seed=1)
    assert cfg.deck(0, 1) != cfg.deck(0, 2) != cfg.deck(1, 1)
    assert cfg.deck(0, 3) == ArenaConfig(parse_player("medium"), parse_player("hard"),
                                         mode="matches", seed=1).deck(0, 3)
    games = arena_games.run_games(cfg).games
    assert [(g.deal, g.seating) for g in games] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert all(g.a_won is not None and len(g.rounds) >= 1 for g in games)


def test_every_round_is_seeded_fairly_through_the_driver(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    drivers: list[driver.MatchDriver] = []

    class Kept(driver.MatchDriver):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            drivers.append(self)

    monkeypatch.setattr(arena_games, "MatchDriver", Kept)
    cfg = ArenaConfig(parse_player("random"), parse_player("easy"), mode="matches", deals=1,
                      seed=4)
    games = arena_games.run_games(cfg).games
    assert len(drivers) == len(games) == 2
    for game, d in zip(games, drivers, strict=True):
        record = d.record.build()
        assert record.players == (("bot:random", "bot:easy") if game.seating == 0
                                  else ("bot:easy", "bot:random"))
        assert len(record.rounds) == len(game.rounds)
        outcome = verify(record)  # every bot's part is the one derived from the server seed
        assert outcome.ok, outcome.failure
        assert outcome.lines == tuple(f"round {n}: fair" for n in range(1, len(record.rounds) + 1))
        for number, rnd in enumerate(record.rounds, 1):
            assert rnd.fairness is not None
            assert rnd.fairness.server_seed == cfg.server_seed(0, number)
            assert rnd.fairness.deck() == cfg.deck(0, number)


# --------------------------------------------------------------------------- the report


def check_interval(x: dict[str, Any]) -> None:
    assert set(x) == {"mean", "low", "high"}
    assert x["low"] <= x["mean"] <= x["high"]


def test_json_report_shape(run: Run) -> None:
    rep = run_json(run, "--a", "medium", "--b", "random", "--rounds", "4", "--seed", "3")
    assert set(rep) == {
        "format", "variant", "players", "teams", "a", "b", "mode", "deals", "games",
        "rounds", "seed", "points_per_round", "difference_per_round", "basras_per_round",
        "match_wins", "think_ms_per_play", "think_ms_by_deal"}
    assert rep["format"] == "basra-arena/1"
    assert (rep["variant"], rep["players"], rep["teams"]) == ("egyptian", 2, False)
    assert (rep["a"], rep["b"], rep["mode"], rep["seed"]) == ("medium", "random", "rounds", 3)
    assert (rep["deals"], rep["games"], rep["rounds"]) == (4, 8, 8)
    for side in ("a", "b"):
        check_interval(rep["points_per_round"][side])
        check_interval(rep["basras_per_round"][side])
        think = rep["think_ms_per_play"][side]
        assert think["plays"] == 8 * 24
        assert 0 <= think["median"] <= think["p95"]
        by_deal = rep["think_ms_by_deal"][side]
        assert [d["deal"] for d in by_deal] == [1, 2, 3, 4, 5, 6]
        assert sum(d["plays"] for d in by_deal) == 8 * 24
    check_interval(rep["difference_per_round"])
    diff = rep["difference_per_round"]["mean"]
    points = rep["points_per_round"]
    assert diff == pytest.approx(points["a"]["mean"] - points["b"]["mean"], abs=1e-3)
    assert rep["match_wins"] is None


def test_the_table_is_the_default(run: Run) -> None:
    status, out, err = run("--a", "easy", "--b", "random", "--rounds", "2", "--seed", "1")
    assert status == 0 and err == ""
    for text in ("points per round", "basras per round", "A: easy", "B: random", "A - B",
                 "think ms", "seed 1", "each deal twice"):
        assert text in out


def test_same_seed_same_results_other_seed_other_results(run: Run) -> None:
    args = ("--a", "easy", "--b", "random", "--rounds", "3")
    first = without_clock(run_json(run, *args, "--seed", "8"))
    again = without_clock(run_json(run, *args, "--seed", "8"))
    other = without_clock(run_json(run, *args, "--seed", "9"))
    assert first == again
    assert first["points_per_round"] != other["points_per_round"]


def test_without_a_seed_one_is_chosen_and_reported(run: Run) -> None:
    rep = run_json(run, "--a", "random", "--b", "random", "--rounds", "1")
    assert isinstance(rep["seed"], int)
    assert rep["difference_per_round"]["low"] is None  # one deal: no interval
    again = run_json(run, "--a", "random", "--b", "random", "--rounds", "1", "--seed",
                     str(rep["seed"]))
    assert without_clock(again) == without_clock(rep)


def test_results_do_not_depend_on_jobs(run: Run) -> None:
    args = ("--a", "medium", "--b", RANDOM_BOT, "--rounds", "5", "--seed", "4")
    one = run_json(run, *args, "--jobs", "1")
    two = run_json(run, *args, "--jobs", "2")
    assert without_clock(one) == without_clock(two)


def test_an_external_player(run: Run) -> None:
    rep = run_json(run, "--a", RANDOM_BOT, "--b", "easy", "--rounds", "3", "--seed", "2")
    assert rep["a"] == RANDOM_BOT
    assert rep["think_ms_per_play"]["a"]["plays"] == 6 * 24
    # The program is reseeded before each game: the same seed gives the same results.
    again = run_json(run, "--a", RANDOM_BOT, "--b", "easy", "--rounds", "3", "--seed", "2")
    assert without_clock(again) == without_clock(rep)


def test_our_own_engine_as_an_external_player_matches_the_bot(run: Run) -> None:
    engine = "cmd:" + shlex.join([sys.executable, "-m", "basra.bot_protocol", "--level",
                                  "easy"])
    inside = run_json(run, "--a", "easy", "--b", "random", "--rounds", "2", "--seed", "6")
    outside = run_json(run, "--a", engine, "--b", "random", "--rounds", "2", "--seed", "6")
    assert without_clock(outside) == without_clock(inside) | {"a": engine}


def test_a_failing_external_player_is_one_line_and_exit_1(run: Run, tmp_path: Path) -> None:
    liar = tmp_path / "liar.py"
    liar.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'hello':\n"
        "        print(json.dumps({'type': 'hello', 'protocol': 'basra-engine/1'}), flush=True)\n"
        "    elif m['type'] == 'play':\n"
        "        print(json.dumps({'type': 'play', 'card': 'KS', 'take': ['KH']}), flush=True)\n")
    spec = "cmd:" + shlex.join([sys.executable, str(liar)])
    status, out, err = run("--a", "random", "--b", spec, "--rounds", "2", "--seed", "1")
    assert status == 1
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert "liar.py" in err and "illegal play" in err
    status, out, err = run("--a", "cmd:/nonexistent/bot", "--b", "random", "--rounds", "1")
    assert status == 1
    assert len(err.strip().splitlines()) == 1
    assert "cannot start" in err and "Traceback" not in err


def test_match_mode(run: Run) -> None:
    rep = run_json(run, "--a", "medium", "--b", "random", "--matches", "2", "--seed", "5")
    assert rep["mode"] == "matches"
    assert (rep["deals"], rep["games"]) == (2, 4)
    assert rep["rounds"] >= 4
    wins = rep["match_wins"]
    assert wins["played"] == 4
    assert wins["a_wins"] + wins["b_wins"] == 4
    assert 0 <= wins["low"] <= wins["a_rate"] <= wins["high"] <= 1
    assert wins["a_rate_if_equal"] == 0.5


def test_egyptian_four_players_play_in_teams(run: Run) -> None:
    rep = run_json(run, "--a", "easy", "--b", "random", "--players", "4", "--rounds", "2",
                   "--seed", "1")
    assert (rep["players"], rep["teams"], rep["games"]) == (4, True, 4)
    assert rep["think_ms_per_play"]["a"]["plays"] == rep["think_ms_per_play"]["b"]["plays"]


def test_lebanese_three_players(run: Run) -> None:
    rep = run_json(run, "--a", "easy", "--b", "random", "--variant", "lebanese",
                   "--players", "3", "--matches", "1", "--seed", "2")
    assert (rep["players"], rep["teams"], rep["games"]) == (3, False, 3)
    assert rep["match_wins"]["played"] == 3
    assert rep["match_wins"]["a_rate_if_equal"] == pytest.approx(1 / 3, abs=1e-4)
    status, out, _ = run("--a", "easy", "--b", "random", "--variant", "lebanese",
                         "--players", "3", "--rounds", "1", "--seed", "2")
    assert status == 0 and "B: mean per B seat" in out.replace("\n", " ").replace("  ", " ")


def test_match_wins_in_teams(run: Run) -> None:
    rep = run_json(run, "--a", "medium", "--b", "random", "--players", "4", "--matches", "1",
                   "--seed", "4")
    assert (rep["players"], rep["teams"], rep["games"]) == (4, True, 2)
    assert rep["match_wins"]["played"] == 2
    assert rep["match_wins"]["a_rate_if_equal"] == 0.5


def openings_file(tmp_path: Path, decks: list[list[str]]) -> Path:
    path = tmp_path / "openings.txt"
    path.write_text("# two deals\n\n" + "\n".join(" | ".join(" ".join(d) for d in line)
                                                  for line in [[decks[0]], decks[1:]]) + "\n")
    return path


def test_openings_deal_the_given_decks_whatever_the_seed(run: Run, tmp_path: Path) -> None:
    decks = [[NAMES[c] for c in order] for order in (range(52), range(51, -1, -1),
                                                      [*range(1, 52), 0])]
    path = openings_file(tmp_path, decks)
    cfg = arena.config_from_args(arena.build_parser().parse_args(
        ["--a", "medium", "--b", "easy", "--openings", str(path), "--matches", "2"]))
    assert cfg.deals == 2
    assert cfg.deck(0, 1) == tuple(range(52))
    assert cfg.deck(1, 1) == tuple(range(51, -1, -1))
    assert cfg.deck(1, 2) == (*range(1, 52), 0)
    assert cfg.deck(1, 3) == cfg.deck(1, 3) != cfg.deck(0, 3)
    first = run_json(run, "--a", "medium", "--b", "easy", "--openings", str(path), "--seed", "1")
    other = run_json(run, "--a", "medium", "--b", "easy", "--openings", str(path), "--seed", "9")
    assert first["deals"] == 2
    # medium and easy draw their ties from the seed, but the cards are the same deals
    seen: list[tuple[int, ...]] = []
    real = arena_games.MatchDriver.deal_deck

    def spy(self: Any, deck: Any, *args: Any, **kwargs: Any) -> None:
        seen.append(tuple(deck))
        real(self, deck, *args, **kwargs)

    mp = pytest.MonkeyPatch()
    mp.setattr(arena_games.MatchDriver, "deal_deck", spy)
    try:
        run_json(run, "--a", "medium", "--b", "easy", "--openings", str(path), "--rounds", "1")
    finally:
        mp.undo()
    assert seen == [tuple(range(52))] * 2
    assert other["games"] == first["games"] == 4


@pytest.mark.parametrize(("text", "message"), [
    ("AS 2S", "52"), ("AS " * 52, "twice"), ("ZZ " * 52, "card")])
def test_a_bad_openings_file_is_one_line_and_exit_2(run: Run, tmp_path: Path, text: str,
                                                    message: str) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(text + "\n")
    status, _, err = run("--a", "medium", "--b", "easy", "--openings", str(path))
    assert status == 2
    assert "line 1" in err and message in err and len(err.strip().splitlines()) == 1


def test_openings_cannot_give_more_deals_than_they_hold(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "one.txt"
    path.write_text(" ".join(NAMES[c] for c in range(52)) + "\n")
    status, _, err = run("--a", "medium", "--b", "easy", "--openings", str(path), "--rounds", "2")
    assert status == 2 and "holds 1 deals" in err


def test_the_projects_openings_file_reads() -> None:
    deals = arena_games.read_openings(str(ROOT / "benchmarks" / "openings.txt"))
    assert len(deals) == 200 and len(set(deals)) == 200


def test_expert_with_a_tiny_budget_is_reproducible(run: Run) -> None:
    args = ("--a", "expert/8", "--b", "medium", "--rounds", "1", "--seed", "3")
    assert without_clock(run_json(run, *args)) == without_clock(run_json(run, *args))


def test_hard_with_a_tiny_budget_is_reproducible(run: Run) -> None:
    args = ("--a", "hard/8", "--b", "medium", "--rounds", "1", "--seed", "3")
    assert without_clock(run_json(run, *args)) == without_clock(run_json(run, *args))


# --------------------------------------------------------------------------- statistics


def test_statistics_helpers() -> None:
    assert t95(1) == 12.706
    assert t95(30) == pytest.approx(2.042, abs=1e-3)
    assert t95(60) == pytest.approx(2.000, abs=1e-3)
    assert t95(10**6) == pytest.approx(1.960, abs=1e-3)
    low, high = wilson(0, 10)
    assert low == 0 and high == pytest.approx(0.2775, abs=1e-4)
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4)
    assert high == pytest.approx(0.7634, abs=1e-4)
    x = mean_interval([1.0, 2.0, 3.0, 4.0])
    half = 3.182 * math.sqrt((5 / 3) / 4)
    assert x == {"mean": 2.5, "low": pytest.approx(2.5 - half, abs=1e-4),
                 "high": pytest.approx(2.5 + half, abs=1e-4)}
    assert mean_interval([7.0]) == {"mean": 7.0, "low": None, "high": None}


# --------------------------------------------------------------------------- shorter matches


def test_short_matches(run: Run) -> None:
    rep = run_json(run, "--a", "easy", "--b", "random", "--matches", "2", "--length", "short",
                   "--seed", "6")
    assert (rep["length"], rep["mode"], rep["games"]) == ("short", "matches", 4)
    assert rep["match_wins"]["played"] == 4
    status, out, _ = run("--a", "easy", "--b", "random", "--matches", "1", "--length",
                         "short", "--seed", "6")
    assert status == 0 and "(short matches)" in out.replace("\n", " ")


@pytest.mark.parametrize(("variant", "target"), [("egyptian", 61), ("serbian", 101)])
def test_a_short_match_ends_at_the_short_target(variant: str, target: int) -> None:
    args = arena.build_parser().parse_args(["--a", "easy", "--b", "random", "--matches", "2",
                                            "--variant", variant, "--length", "short",
                                            "--seed", "8"])
    cfg = arena.config_from_args(args)
    assert (cfg.length, cfg.rules.length, cfg.rules.target) == ("short", "short", target)
    assert cfg.rules.sets_to_win == 1
    for game in arena.play_deals(cfg, [0, 1]):
        totals = [0.0, 0.0]
        decided = []
        for figures in game.rounds:  # two players: B's mean is B's own
            totals = [totals[0] + figures.a_points, totals[1] + figures.b_points]
            decided.append(max(totals) >= target and totals[0] != totals[1])
        assert decided[-1] and not any(decided[:-1])
        assert game.a_won == (totals[0] > totals[1])


def test_the_decks_do_not_depend_on_the_length() -> None:
    full = ArenaConfig(parse_player("easy"), parse_player("random"), mode="matches", seed=4)
    short = ArenaConfig(parse_player("easy"), parse_player("random"), mode="matches", seed=4,
                        length="short")
    assert [short.deck(0, r) for r in (1, 2, 3)] == [full.deck(0, r) for r in (1, 2, 3)]
    assert (full.rules.target, short.rules.target) == (121, 61)


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [1, 2])
def test_ctrl_c_keeps_the_finished_deals(jobs: int) -> None:
    """Ctrl-C stops a long run: the figures over the deals finished by then are printed
    (``partial``), with the progress bar on, here or in worker processes; exit 130. (On a
    busy machine no deal may be done yet at the first Ctrl-C: then the arena says so, and
    the test waits longer the next time.)"""
    for wait in (4, 15, 40) if jobs == 1 else (15, 40):
        proc = subprocess.Popen(
            [sys.executable, "-m", "basra", "arena", "--a", "random", "--b", "easy",
             "--rounds", "100000", "--seed", "7", "--jobs", str(jobs), "--json",
             "--progress"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(wait)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 130, err
        if out.strip():
            break
        assert err.strip().endswith("basra arena: interrupted"), err  # no deal done yet
    rep = json.loads(out)
    done = rep["partial"]["deals_done"]
    assert rep["partial"]["deals_asked"] == 100000 and 0 < done < 100000
    assert rep["deals"] == done and rep["games"] == 2 * done
    assert f"interrupted after {done} of 100000 deals" in err
