"""Shorter matches (RULES.md 6.5) through the driver, the records and replay: a short match
ends at its shorter target (Serbian: after one set), plays every round as the full match
would, and its record says so (``"length": "short"``, RECORDS.md); a full record is what it
always was, byte for byte."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from basra.errors import BasraError, RecordError
from basra.game.engine import Play, RoundResult
from basra.game.rules import Rules, find_variant
from basra.game.seating import Seating
from basra.game.views import SeatView
from basra.match.driver import MatchDriver
from basra.match.records import MatchRecord, RecordBuilder, dumps, parse_record, to_json
from basra.match.replay import replay, replay_json, verify
from conftest import VARIANT_NAMES

DATA = Path(__file__).parents[1] / "data"
SEATINGS = [("egyptian", 2, False), ("egyptian", 4, True), ("arabic101", 2, False),
            ("lebanese", 3, False), ("serbian", 2, False), ("serbian", 4, True)]


class FirstPlay:
    """A player that always makes its first legal play: the same choices whatever the
    match's length, so a short and a full match on the same decks play the same rounds."""

    def choose(self, view: SeatView, /) -> Play:
        return view.legal[0]


def play_match(rules: Rules, seats: int, teams: bool, label: str,
               most_rounds: int = 200) -> MatchDriver:
    """A match of first-play players, round ``r`` seeded from ``label`` and ``r``, until it
    is decided or ``most_rounds`` are played."""
    names = [f"bot:first{s}" for s in range(seats)]
    driver = MatchDriver(rules, Seating(seats, teams), names)
    players = [FirstPlay() for _ in range(seats)]
    while not driver.match.over and driver.match.rounds_started < most_rounds:
        driver.commit(f"{label}{driver.next_round:04x}".rjust(64, "0")[-64:])
        driver.deal()
        driver.play_round(players)
    return driver


def decided(totals: Sequence[int], target: int) -> bool:
    """Whether these totals settle a race to ``target`` (RULES.md 6.2)."""
    best = max(totals)
    return best >= target and list(totals).count(best) == 1


def without_set(result: RoundResult) -> tuple[object, ...]:
    """A round's scoring, its set winner aside (a full Serbian match names one)."""
    return result.scores, result.carry, result.totals


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    return data


# --------------------------------------------------------------------------- the driver


@pytest.mark.parametrize(("variant", "seats", "teams"), SEATINGS)
def test_a_short_match_ends_at_the_short_target(variant: str, seats: int, teams: bool) -> None:
    rules = find_variant(variant, "short")
    driver = play_match(rules, seats, teams, "5e")
    match = driver.match
    assert match.over and match.winner is not None
    *before, last = match.results
    assert not any(decided(r.totals, rules.target) for r in before)
    assert decided(last.totals, rules.target)
    assert match.winner == last.totals.index(max(last.totals))
    assert all(r.set_winner is None for r in match.results)  # one race, Serbian's one set
    record = driver.build_record()
    assert record.length == "short" and record.rules is rules
    assert verify(record).ok
    again = replay(parse_record(dumps(record)))
    assert again.results == match.results and again.winner == match.winner
    summary = replay_json(again)
    assert summary["length"] == "short" and "sets" not in summary
    assert summary["winner"] == match.winner


@settings(max_examples=12, deadline=None)
@given(variant=st.sampled_from(VARIANT_NAMES), label=st.integers(1, 2**40).map(hex))
def test_a_short_match_is_the_full_match_stopped_at_the_short_target(variant: str,
                                                                      label: str) -> None:
    """Everything but the end is unchanged (RULES.md 6.5): on the same decks and plays a
    short match's rounds score as the full match's first rounds, and it ends at the first
    round whose totals settle the race to the shorter target."""
    full_rules, short_rules = find_variant(variant), find_variant(variant, "short")
    seats = min(full_rules.player_counts)
    short = play_match(short_rules, seats, False, label[2:]).match
    full = play_match(full_rules, seats, False, label[2:], short.rounds_started).match
    assert len(full.results) == len(short.results)
    # (but for the carry of the round that ends the short match: a match that ends clears
    # its carry, RULES.md 5, where the full match carries it on)
    assert list(map(without_set, full.results[:-1])) == list(
        map(without_set, short.results[:-1]))
    last_full, last_short = full.results[-1], short.results[-1]
    assert (last_full.scores, last_full.totals) == (last_short.scores, last_short.totals)
    assert last_short.carry in (0, last_full.carry)
    ends = [i for i, r in enumerate(short.results) if decided(r.totals, short_rules.target)]
    assert ends == [len(short.results) - 1]
    if variant == "serbian":  # the full match's first set ends where the short match does
        assert full.results[-1].set_winner == short.winner
    elif full.winner is not None:
        assert full.winner == short.winner


def test_renaming_the_seats_keeps_the_length() -> None:
    driver = MatchDriver(find_variant("lebanese", "short"), Seating(2), ["a", "b"])
    driver.rename(["amira", "bot:hard"])
    record = driver.build_record()
    assert (record.length, record.players) == ("short", ("amira", "bot:hard"))


# --------------------------------------------------------------------------- records


def test_a_short_record_round_trips() -> None:
    record = play_match(find_variant("arabic101", "short"), 2, False, "a1").build_record()
    text = dumps(record)
    assert list(json.loads(text)) == ["format", "variant", "players", "teams", "length",
                                      "rounds"]
    assert json.loads(text)["length"] == "short"
    assert parse_record(text) == record == parse_record(dumps(record, compact=True))
    assert parse_record(to_json(record)) == record
    assert dumps(parse_record(text)) == text


@pytest.mark.parametrize("name", ["egyptian-2p", "lebanese-3p-partial", "serbian-4t"])
def test_a_full_record_is_unchanged_byte_for_byte(name: str) -> None:
    text = (DATA / f"{name}.json").read_text(encoding="utf-8")
    record = parse_record(text)
    assert record.length == "full" and record.rules is find_variant(record.variant)
    assert dumps(record) == text
    assert "length" not in to_json(record)
    expected = json.loads((DATA / f"{name}.replay.json").read_text(encoding="utf-8"))
    summary = replay_json(replay(record))
    assert dict(summary) == expected and list(summary) == list(expected)


def test_a_full_match_played_through_the_driver_writes_no_length() -> None:
    record = play_match(find_variant("egyptian"), 2, False, "f").build_record()
    assert record.length == "full"
    assert "length" not in json.loads(dumps(record))
    assert "length" not in replay_json(replay(record))


def test_length_full_may_be_written_and_is_the_default() -> None:
    data = load("egyptian-2p")
    data["length"] = "full"
    record = parse_record(data)
    assert record == parse_record(load("egyptian-2p"))
    assert dumps(record) == (DATA / "egyptian-2p.json").read_text(encoding="utf-8")
    data["length"] = None  # null is absent, as for every optional field
    assert parse_record(data).length == "full"


@pytest.mark.parametrize(("value", "got"), [
    ("long", '"long"'), ("SHORT", '"SHORT"'), ("", '""'), (61, "a number"),
    (True, "a boolean"), (["short"], "a list"),
])
def test_a_bad_length_is_a_record_error(value: object, got: str) -> None:
    data = load("egyptian-2p")
    data["length"] = value
    with pytest.raises(RecordError) as err:
        parse_record(data)
    assert str(err.value) == f'record: length must be "full" or "short", got {got}'
    assert err.value.code == "record/invalid"


def short_record(name: str, rounds: int | None = None) -> dict[str, Any]:
    """An example record said to be short, keeping its first ``rounds`` rounds."""
    data = load(name)
    data["length"] = "short"
    if rounds is not None:
        data["rounds"] = data["rounds"][:rounds]
    return data


@pytest.mark.parametrize(("name", "last"), [("egyptian-2p", 2), ("serbian-4t", 6)])
def test_a_record_that_plays_on_after_the_short_end_is_refused(name: str, last: int) -> None:
    # egyptian-2p stands at 10-86 after round 2; serbian-4t's first set ends 112-96 in round 6.
    record = parse_record(short_record(name))
    message = (f"round {last + 1}: the match was decided in round {last}; a record may not "
               "go on after that")
    with pytest.raises(RecordError) as err:
        replay(record)
    assert str(err.value) == message
    assert replay(parse_record(load(name))).results  # the full record itself is legal


def test_verify_refuses_a_record_that_plays_on_after_the_short_end() -> None:
    outcome = verify(parse_record(short_record("egyptian-2p")))
    assert outcome.lines == ("round 1: fair", "round 2: fair")
    assert outcome.failure == ("round 3: the match was decided in round 2; a record may not "
                               "go on after that")


@pytest.mark.parametrize(("name", "target", "last", "winner", "totals"), [
    ("egyptian-2p", 61, 2, 1, [10, 86]), ("serbian-4t", 101, 6, 0, [112, 96])])
def test_a_short_record_ends_at_the_short_target(name: str, target: int, last: int,
                                                 winner: int, totals: list[int]) -> None:
    record = parse_record(short_record(name, last))
    assert record.length == "short" and record.rules.target == target
    result = replay(record)
    assert result.winner == winner and list(result.results[-1].totals) == totals
    summary = replay_json(result)
    assert summary["length"] == "short" and "sets" not in summary
    assert "set_winner" not in summary["rounds"][-1]
    # The same rounds under the full rules leave the match undecided (serbian: one set of 3).
    full = replay(parse_record(load(name) | {"rounds": short_record(name, last)["rounds"]}))
    assert full.winner is None
    assert list(map(without_set, full.results)) == list(map(without_set, result.results))


def test_a_short_record_verifies() -> None:
    outcome = verify(parse_record(short_record("egyptian-2p", 2)))
    assert outcome.ok and outcome.lines == ("round 1: fair", "round 2: fair")


def test_a_resignation_after_the_short_end_is_refused() -> None:
    data = short_record("egyptian-2p", 2) | {"resigned": 0}
    with pytest.raises(RecordError, match="record: seat 0 resigned after the match was "
                                          "decided"):
        replay(parse_record(data))


def test_a_short_record_in_progress_replays() -> None:
    record = parse_record(short_record("lebanese-3p-partial"))
    result = replay(record)
    assert result.winner is None and record.rules.target == 51


# --------------------------------------------------------------------------- the builder


def test_the_builder_takes_the_length() -> None:
    players = ["a", "b"]
    by_name = RecordBuilder("egyptian", players, length="short").build()
    by_rules = RecordBuilder(find_variant("egyptian", "short"), players).build()
    assert by_name == by_rules == MatchRecord("egyptian", ("a", "b"), False, (), None, "short")
    assert RecordBuilder("egyptian", players).build().length == "full"
    assert RecordBuilder("egyptian", players, length="full").build().length == "full"
    assert RecordBuilder(find_variant("egyptian", "short"), players,
                         length="short").build().length == "short"


@pytest.mark.parametrize(("variant", "length"), [
    ("egyptian", "long"), (find_variant("egyptian"), "short"),
    (find_variant("serbian", "short"), "full"), (find_variant("serbian"), "long")])
def test_the_builder_refuses_a_length_its_rules_do_not_play(variant: str | Rules,
                                                            length: Any) -> None:
    with pytest.raises(BasraError) as err:
        RecordBuilder(variant, ["a", "b"], length=length)
    assert err.value.code == "match/bad_length"
