"""The ``basra`` command (RECORDS.md): replay, shuffle, verify, and its one-line errors."""

from __future__ import annotations

import argparse
import copy
import io
import json
import random
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from basra.cli import main as cli
from basra.cli.main import main
from basra.game.cards import NAMES
from basra.game.engine import legal_match_plays, new_match, play, start_round
from basra.game.rules import find_variant
from basra.game.shuffle import commitment, seat_part
from basra.match.records import Fairness, RecordBuilder, dumps

DATA = Path(__file__).parents[1] / "data"
EGYPTIAN = DATA / "egyptian-2p.json"
LEBANESE = DATA / "lebanese-3p-partial.json"
SERBIAN = DATA / "serbian-4t.json"

# FAIRNESS.md's vectors: (server seed, client seed, nonce, commitment, deck).
VECTORS = [
    ("00" * 31 + "01", "alice|bob", 1,
     "ec4916dd28fc4c10d78e287ca5d9cc51ee1ae73cbfde08c6b37324cbfaac8bc5",
     "7H QD 10C 2S 7D 4C 3H 4D 7S 4S AH QC 5S 2C KH JH 6S AS 3C 3S AD 8S 10S 2D JC 6D 2H QS "
     "9C 8D 6C 10D 7C 5C 3D KC 8H 6H JD 4H 5D 9D 10H QH 5H 8C KS 9H AC JS 9S KD"),
    ("ff" * 32, "", 1,
     "af9613760f72635fbdb44a5a0a63c39f12af30f950a6ee5c971be188e89c4051",
     "10D 4S 5D QH 7H KC 4H 4C 6D 9D 2C 7S AC JC JS QS 10H QC 6C AD 9S KH 5S QD 9H 5H KD 6H "
     "JH 3C 2D JD 7C 10S 4D 8C KS AS 3D 3H 2S 3S AH 8D 10C 2H 8S 7D 6S 5C 8H 9C"),
]

Record = dict[str, Any]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run ``basra argv...`` in process: (exit status, stdout, stderr)."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def load(path: Path) -> Record:
    """An example record as a JSON object to tamper with."""
    data: Record = json.loads(path.read_text(encoding="utf-8"))
    return data


def write(tmp_path: Path, data: object) -> str:
    """Write a record (a JSON object, or raw text) to a file; returns its path."""
    path = tmp_path / "record.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def assert_fails(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    """The command exits 1 with nothing on stdout and exactly ``message`` on stderr."""
    status, out, err = run(capsys, *argv)
    assert (status, out, err) == (1, "", message + "\n")


# --------------------------------------------------------------------------- shuffle


@pytest.mark.parametrize("vector", VECTORS, ids=["alice-bob", "empty-client-seed"])
def test_shuffle_prints_the_fairness_vectors(capsys: pytest.CaptureFixture[str],
                                             vector: tuple[str, str, int, str, str]) -> None:
    seed, client, nonce, commit, deck = vector
    args = ["shuffle", "--server-seed", seed, "--client-seed", client, "--nonce", str(nonce)]
    assert run(capsys, *args) == (0, f"{commit}\n{deck}\n", "")
    status, out, err = run(capsys, *args, "--json")
    assert (status, err) == (0, "")
    assert out.count("\n") == 1
    assert json.loads(out) == {"commitment": commit, "deck": deck.split()}


def test_shuffle_accepts_upper_case_hex(capsys: pytest.CaptureFixture[str]) -> None:
    seed, client, nonce, commit, deck = VECTORS[0]
    args = ["shuffle", "--server-seed", seed.upper(), "--client-seed", client,
            "--nonce", str(nonce)]
    assert run(capsys, *args) == (0, f"{commit}\n{deck}\n", "")


@pytest.mark.parametrize(("args", "message"), [
    (["--server-seed", "abc", "--client-seed", "x", "--nonce", "1"],
     "argument --server-seed: server seed must be 64 hex digits, got 'abc'"),
    (["--server-seed", "zz" * 32, "--client-seed", "x", "--nonce", "1"],
     f"argument --server-seed: server seed must be 64 hex digits, got '{'zz' * 32}'"),
    (["--server-seed", "00" * 32, "--client-seed", "x", "--nonce", "0"],
     "argument --nonce: nonce must be a whole number from 1 up, got '0'"),
    (["--server-seed", "00" * 32, "--client-seed", "x", "--nonce", "one"],
     "argument --nonce: nonce must be a whole number from 1 up, got 'one'"),
    (["--server-seed", "00" * 32, "--client-seed", "x" * 257, "--nonce", "1"],
     "argument --client-seed: client seed is 257 bytes; at most 256 are allowed"),
    (["--server-seed", "00" * 32, "--nonce", "1"],
     "the following arguments are required: --client-seed"),
])
def test_bad_shuffle_input_exits_2_with_one_line(capsys: pytest.CaptureFixture[str],
                                                 args: list[str], message: str) -> None:
    assert run(capsys, "shuffle", *args) == (2, "", f"basra shuffle: error: {message}\n")


def test_bad_arguments_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "frobnicate")[0] == 2
    for argv in ([], ["replay"], ["bench"], ["bench", "engine", "--seconds", "x"]):
        status, out, err = run(capsys, *argv)
        assert (status, out) == (2, "")
        assert err.count("\n") == 1 and err.startswith("basra")


# --------------------------------------------------------------------------- replay


@pytest.mark.parametrize("path", [EGYPTIAN, SERBIAN, LEBANESE], ids=lambda p: p.stem)
def test_replay_json_prints_the_stored_result(capsys: pytest.CaptureFixture[str],
                                              path: Path) -> None:
    status, out, err = run(capsys, "replay", "--json", str(path))
    assert (status, err) == (0, "")
    assert out.endswith("}\n") and out.count("\n") == 1
    expected = json.loads(path.with_suffix(".replay.json").read_text(encoding="utf-8"))
    assert json.loads(out) == expected


def table_rows(out: str) -> list[list[str]]:
    """The cells of every row of a rich table."""
    return [[cell.strip() for cell in line.split("│")[1:-1]]
            for line in out.splitlines() if line.startswith("│")]


def test_replay_prints_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "replay", str(EGYPTIAN))
    assert (status, err) == (0, "")
    expected = load(EGYPTIAN.with_suffix(".replay.json"))["rounds"]
    lines = out.splitlines()
    assert lines[0].strip() == "egyptian: amira, bot:expert"
    assert [c.strip() for c in lines[2].split("┃")[1:-1]] == [
        "round", "side", "cards", "basras", "points", "carry", "totals"]
    rows = table_rows(out)
    assert len(rows) == 2 * len(expected)
    for number, row in enumerate(expected, 1):
        for side, name in enumerate(("amira", "bot:expert")):
            cells = rows[2 * (number - 1) + side]
            assert cells == [str(number) if side == 0 else "", name,
                             str(row["cards"][side]), str(row["basras"][side]),
                             str(row["points"][side]), str(row["carry"]) if side == 0 else "",
                             str(row["totals"][side])]
    assert lines[-1] == "winner: bot:expert"


def test_replay_table_of_teams_sets_and_a_match_in_progress(
        capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "replay", str(SERBIAN))
    assert status == 0
    assert "ana & vesna" in out and "bojan & goran" in out and "set won" in out
    assert out.splitlines()[-2:] == ["sets: ana & vesna 1, bojan & goran 3",
                                     "winner: bojan & goran"]
    status, out, _ = run(capsys, "replay", str(LEBANESE))
    assert out.splitlines()[-2:] == ["round 2 in progress: 17 plays so far",
                                     "winner: undecided"]


def test_replay_reads_standard_input(capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    class Stdin:
        buffer = io.BytesIO(EGYPTIAN.read_bytes())

    monkeypatch.setattr(sys, "stdin", Stdin)
    status, out, _ = run(capsys, "replay", "--json", "-")
    assert status == 0
    assert json.loads(out)["winner"] == 1


# --------------------------------------------------------------------------- bad records

# A deck where seat 1 (first to play in round 1) holds 9C and the opening floor is
# 4C 5D 2H 7S: 9C must take 4C+5D or 2H+7S.
FIRST = ["9C", "KC", "QC", "KD", "QD", "KH", "QH", "KS", "4C", "5D", "2H", "7S"]
DECK = FIRST + [n for n in NAMES if n not in FIRST]


def tiny(*plays: object, **fields: object) -> Record:
    """A one-round egyptian record on :data:`DECK`."""
    record: Record = {"format": "basra-record/1", "variant": "egyptian",
                      "players": ["a", "b"], "teams": False,
                      "rounds": [{"deck": list(DECK), "plays": list(plays)}]}
    record.update(fields)
    return record


def nine(*take: str) -> dict[str, object]:
    """Seat 1 plays 9C taking ``take``."""
    return {"seat": 1, "card": "9C", "take": list(take)}


def edit(path: Path, change: Callable[[Record], object]) -> Record:
    """An example record with ``change`` applied."""
    data = load(path)
    change(data)
    return data


def round_of(data: Record, number: int) -> Record:
    """Round ``number`` (1-based) of a record."""
    found: Record = data["rounds"][number - 1]
    return found


def other_seat_card(data: Record, number: int, play: int) -> tuple[str, int]:
    """A card that the seat of play ``play`` does not hold: the next play's card."""
    plays = round_of(data, number)["plays"]
    return plays[play]["card"], plays[play - 1]["seat"]


EGYPTIAN_DATA = load(EGYPTIAN)
DECIDED = len(EGYPTIAN_DATA["rounds"])
TAKEN, HOLDER = other_seat_card(EGYPTIAN_DATA, 2, 17)
R1_DECK = round_of(EGYPTIAN_DATA, 1)["deck"]
SWAPPED = (f"deck does not follow from the seeds (card 1 is {R1_DECK[1]}, the seeds give "
           f"{R1_DECK[0]})")
CARD_ERROR = "expected a rank (A 2-10 J Q K, or T) then a suit (C D H S)"


def swap_first_two(data: Record) -> None:
    deck = round_of(data, 1)["deck"]
    deck[0], deck[1] = deck[1], deck[0]


BAD_RECORDS: list[tuple[str, object, str]] = [
    ("bad-json", '{"format": ', "record: not valid JSON: Expecting value (line 1, column 12)"),
    ("not-object", "[1, 2]", "record: expected a JSON object, got a list"),
    ("wrong-format", tiny(format="basra-record/9"),
     'record: format must be "basra-record/1", got "basra-record/9"'),
    ("unknown-variant", tiny(variant="chess"),
     "record: unknown variant 'chess' (known: egyptian, arabic101, lebanese, serbian)"),
    ("variant-not-text", tiny(variant=7), "record: variant must be a variant name, got a number"),
    ("player-count", tiny(players=["a", "b", "c"]),
     "record: egyptian is not played by 3 players (allowed: 2, 4 in teams)"),
    ("teams-of-two", tiny(teams=True),
     "record: egyptian is not played by 2 players in teams (allowed: 2, 4 in teams)"),
    ("arabic-four", tiny(variant="arabic101", players=list("abcd"), teams=True),
     "record: arabic101 is not played by 4 players in teams (allowed: 2)"),
    ("teams-not-bool", tiny(teams="yes"), "record: teams must be true or false, got a string"),
    ("players-not-names", tiny(players=["a", 2]),
     "record: players must be a list of names (text)"),
    ("no-rounds", {"format": "basra-record/1", "variant": "egyptian", "players": ["a", "b"]},
     "record: missing field 'rounds'"),
    ("round-not-object", tiny(rounds=[[]]), "round 1: expected an object, got a list"),
    ("no-deck-no-fairness", tiny(rounds=[{"plays": []}]),
     "round 1: no deck and no fairness data"),
    ("bad-card-in-play", tiny({"seat": 1, "card": "1C", "take": []}),
     f"round 1, play 1: bad card '1C': {CARD_ERROR}"),
    ("bad-card-in-take", tiny(nine("4C", "ZZ")),
     f"round 1, play 1: bad card 'ZZ': {CARD_ERROR}"),
    ("bad-card-in-deck", tiny(rounds=[{"deck": ["XX", *DECK[1:]], "plays": []}]),
     f"round 1: bad card 'XX': {CARD_ERROR}"),
    ("card-not-text", tiny({"card": 9, "take": []}),
     "round 1, play 1: card must be a card such as '10D', got a number"),
    ("play-not-object", tiny("9C"), "round 1, play 1: expected an object, got a string"),
    ("play-without-take", tiny({"card": "9C"}), "round 1, play 1: missing field 'take'"),
    ("take-twice", tiny(nine("4C", "4c", "5D")), "round 1, play 1: take lists 4C twice"),
    ("seat-out-of-range", tiny({"seat": 2, "card": "9C", "take": []}),
     "round 1, play 1: seat must be a seat from 0 to 1, got 2"),
    ("wrong-seat", tiny({"seat": 0, "card": "9C", "take": ["4C", "5D"]}),
     "round 1, play 1: it is seat 1's turn, not seat 0's"),
    ("not-in-hand", tiny({"card": "KS", "take": []}),
     "round 1, play 1: KS is not in seat 1's hand"),
    ("illegal-take", tiny(nine("4C")),
     "round 1, play 1: 9C must take one of [4C 5D] or [2H 7S], not [4C]"),
    ("must-take", tiny(nine()),
     "round 1, play 1: 9C must take one of [4C 5D] or [2H 7S], not []"),
    ("take-off-floor", tiny(nine("4C", "5H")),
     "round 1, play 1: 9C cannot take 5H: not on the floor"),
    ("takes-nothing", tiny(nine("2H", "7S"), {"card": "KD", "take": []},
                           {"card": "QC", "take": ["4C"]}),
     "round 1, play 3: QC takes nothing here, not [4C]"),
    ("must-take-one", tiny(nine("2H", "7S"), {"card": "KD", "take": []},
                           {"card": "QC", "take": []}, {"card": "KC", "take": []}),
     "round 1, play 4: KC must take [KD], not []"),
    ("not-in-hand-round-2", edit(EGYPTIAN, lambda d: round_of(d, 2)["plays"][16].update(
        card=TAKEN)), f"round 2, play 17: {TAKEN} is not in seat {HOLDER}'s hand"),
    ("too-many-plays", edit(EGYPTIAN, lambda d: round_of(d, 1)["plays"].append(nine())),
     "round 1: 49 plays, but a round has only 48"),
    ("incomplete-round", edit(EGYPTIAN, lambda d: round_of(d, 2).update(
        plays=round_of(d, 2)["plays"][:30])),
     "round 2: only 30 of 48 plays, but only the last round may be incomplete"),
    ("after-decided", edit(EGYPTIAN, lambda d: d["rounds"].append(
        copy.deepcopy(round_of(d, 1)))),
     f"round {DECIDED + 1}: the match was decided in round {DECIDED}; "
     "a record may not go on after that"),
    ("after-decided-empty", edit(EGYPTIAN, lambda d: d["rounds"].append(
        {"deck": list(DECK), "plays": []})),
     f"round {DECIDED + 1}: the match was decided in round {DECIDED}; "
     "a record may not go on after that"),
    ("deck-duplicate", edit(EGYPTIAN, lambda d: round_of(d, 1)["deck"].__setitem__(1, R1_DECK[0])),
     f"round 1: deck holds {R1_DECK[0]} twice"),
    ("deck-short", edit(EGYPTIAN, lambda d: round_of(d, 1)["deck"].pop()),
     f"round 1: deck has 51 cards, not 52 (missing {R1_DECK[-1]})"),
    ("deck-disagrees", edit(EGYPTIAN, swap_first_two),
     f"round 1: {SWAPPED}"),
    ("commitment", edit(EGYPTIAN, lambda d: round_of(d, 1)["fairness"].update(
        commitment=commitment("00" * 32))),
     "round 1: commitment does not match the server seed"),
    ("commitment-not-hex", edit(EGYPTIAN, lambda d: round_of(d, 1)["fairness"].update(
        commitment="xyz")), "round 1: commitment must be 64 hex digits, got 'xyz'"),
    ("seed-not-hex", edit(EGYPTIAN, lambda d: round_of(d, 1)["fairness"].update(
        server_seed="12ab")), "round 1: server seed must be 64 hex digits, got '12ab'"),
    ("nonce-zero", edit(EGYPTIAN, lambda d: round_of(d, 1)["fairness"].update(nonce=0)),
     "round 1: nonce must be a whole number from 1 up, got 0"),
    ("nonce-text", edit(EGYPTIAN, lambda d: round_of(d, 1)["fairness"].update(nonce="1")),
     "round 1: nonce must be a whole number from 1 up, got a string"),
    ("nonce-missing", edit(EGYPTIAN, lambda d: round_of(d, 1)["fairness"].pop("nonce")),
     "round 1: missing field 'nonce'"),
]


NO_FAIRNESS = "record: no round carries fairness data"
VERIFY_MESSAGES = {
    # verify says "not fair" where a round's fairness data fails ...
    "deck-disagrees": f"round 1: not fair: {SWAPPED}",
    "commitment": "round 1: not fair: commitment does not match the server seed",
    "not-in-hand-round-2": f"round 2, play 17: not fair: {TAKEN} is not in seat {HOLDER}'s hand",
    # ... and refuses a well-formed record that has no fairness data at all.
    **dict.fromkeys(("wrong-seat", "not-in-hand", "illegal-take", "must-take",
                     "take-off-floor", "takes-nothing", "must-take-one"), NO_FAIRNESS),
}
CASES = [pytest.param(record, message, id=name) for name, record, message in BAD_RECORDS]
VERIFY_CASES = [pytest.param(record, VERIFY_MESSAGES.get(name, message), id=name)
                for name, record, message in BAD_RECORDS]


@pytest.mark.parametrize(("record", "message"), CASES)
@pytest.mark.parametrize("options", [[], ["--json"]], ids=["table", "json"])
def test_a_bad_record_is_one_line_and_exit_1(capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path, options: list[str],
                                             record: object, message: str) -> None:
    assert_fails(capsys, ["replay", *options, write(tmp_path, record)], message)


@pytest.mark.parametrize(("record", "message"), VERIFY_CASES)
def test_verify_of_a_bad_record(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                record: object, message: str) -> None:
    failed = re.match(r"round (\d+)", message)
    passed = int(failed.group(1)) - 1 if failed else 0
    fair = "".join(f"round {n}: fair\n" for n in range(1, passed + 1))
    assert run(capsys, "verify", write(tmp_path, record)) == (1, fair, message + "\n")


def test_a_missing_file_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    missing = tmp_path / "nope.json"
    for command in ("replay", "verify"):
        assert_fails(capsys, [command, str(missing)],
                     f"record: cannot read '{missing}': No such file or directory")
    assert_fails(capsys, ["replay", str(tmp_path)],
                 f"record: cannot read '{tmp_path}': Is a directory")


def test_a_file_that_is_not_utf8_is_one_line(capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes(b'{"players": ["\xe9"]}')
    assert_fails(capsys, ["replay", str(path)], "record: not valid JSON: the text is not UTF-8")


# --------------------------------------------------------------------------- verify


def test_verify_prints_a_line_per_round(capsys: pytest.CaptureFixture[str]) -> None:
    expected = "".join(f"round {n}: fair\n" for n in range(1, DECIDED + 1))
    assert run(capsys, "verify", str(EGYPTIAN)) == (0, expected, "")
    assert run(capsys, "verify", str(LEBANESE)) == (0, "round 1: fair\nround 2: fair\n", "")


def test_verify_stops_at_the_first_unfair_round(capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path) -> None:
    data = load(LEBANESE)
    plays = round_of(data, 2)["plays"]
    plays[4], plays[5] = plays[5], plays[4]
    status, out, err = run(capsys, "verify", write(tmp_path, data))
    assert (status, out) == (1, "round 1: fair\n")
    assert err.startswith("round 2, play 5: not fair: ") and err.count("\n") == 1


def test_verify_without_fairness_data(capsys: pytest.CaptureFixture[str],
                                      tmp_path: Path) -> None:
    assert_fails(capsys, ["verify", str(SERBIAN)], "record: no round carries fairness data")
    data = load(EGYPTIAN)
    for rnd in data["rounds"][:2]:
        del rnd["fairness"]
    status, out, err = run(capsys, "verify", write(tmp_path, data))
    assert (status, err) == (0, "")
    assert out.splitlines()[:3] == ["round 1: no fairness data", "round 2: no fairness data",
                                    "round 3: fair"]


# --------------------------------------------------------------------------- seat parts

SEED_1 = "00" * 31 + "01"
BOT_PART_1 = "8dcc8d99a2ec07c3"
"""FAIRNESS.md's vector: part(seat 1), nonce 1, for the server seed 00..01."""


def one_round(tmp_path: Path, client_seed: str,
              players: tuple[str, ...] = ("amira", "bot:hard")) -> str:
    """A whole egyptian round on the server seed 00..01 and ``client_seed``, every play a
    random legal one: a record that replays legally whatever its seat parts are."""
    rules = find_variant("egyptian")
    fair = Fairness.from_seeds(SEED_1, client_seed, 1)
    builder = RecordBuilder(rules, players)
    builder.start_round(deck=fair.deck(), fairness=fair)
    match = start_round(new_match(rules, 2), fair.deck())
    rng = random.Random(client_seed)
    while match.in_round:
        assert match.round is not None
        seat = match.round.turn
        move = rng.choice(legal_match_plays(match))
        builder.add_play(move, seat)
        match = play(match, move, seat)
    return write(tmp_path, dumps(builder.build()))


def test_the_vector_part_is_the_derived_one() -> None:
    assert seat_part(SEED_1, 1, 1) == BOT_PART_1


def test_verify_refuses_a_bot_part_the_server_picked(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path) -> None:
    path = one_round(tmp_path, "amira|abc")
    assert run(capsys, "replay", "--json", path)[0] == 0  # legal: replay makes no check 3
    assert run(capsys, "verify", path) == (
        1, "", "round 1: not fair: seat 1 (bot:hard) has client seed part 'abc', but a bot's "
               f"part must be {BOT_PART_1} (derived from the server seed)\n")


def test_verify_accepts_the_derived_bot_part_and_any_persons_part(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for mine in ("amira", "ünïcødé ✓ with spaces", "x" * 200, BOT_PART_1):
        path = one_round(tmp_path, f"{mine}|{BOT_PART_1}")
        assert run(capsys, "verify", path) == (0, "round 1: fair\n", "")
    two_people = one_round(tmp_path, "anything|at all", players=("amira", "nour"))
    assert run(capsys, "verify", two_people) == (0, "round 1: fair\n", "")


def test_verify_a_tampered_bot_part_in_an_example(capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Path) -> None:
    data = load(LEBANESE)
    fairness = round_of(data, 2)["fairness"]
    derived = seat_part(fairness["server_seed"], 2, 2)
    assert fairness["client_seed"] == f"rami-seed|nour-seed|{derived}"
    fairness["client_seed"] = "rami-seed|nour-seed|0123456789abcdef"
    assert run(capsys, "verify", write(tmp_path, data)) == (
        1, "round 1: fair\n",
        "round 2: not fair: seat 2 (bot:greedy) has client seed part '0123456789abcdef', but "
        f"a bot's part must be {derived} (derived from the server seed)\n")


@pytest.mark.parametrize(("client", "count"), [("rami-seed|nour-seed", "2 parts"),
                                               ("rami-seed", "1 part"),
                                               ("a|b|c|d", "4 parts")])
def test_verify_wants_one_part_per_seat(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                        client: str, count: str) -> None:
    data = load(LEBANESE)
    round_of(data, 1)["fairness"]["client_seed"] = client
    assert run(capsys, "verify", write(tmp_path, data)) == (
        1, "", f"round 1: not fair: the client seed has {count}, but the match has 3 seats\n")


def test_the_example_records_bot_parts_are_derived() -> None:
    for path in (EGYPTIAN, LEBANESE):
        data = load(path)
        bots = [s for s, name in enumerate(data["players"]) if name.startswith("bot:")]
        assert bots
        for rnd in data["rounds"]:
            fairness = rnd["fairness"]
            parts = fairness["client_seed"].split("|")
            assert len(parts) == len(data["players"])
            for seat in bots:
                assert parts[seat] == seat_part(fairness["server_seed"], fairness["nonce"], seat)


# --------------------------------------------------------------------------- processes


def basra(*argv: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    """Run ``python -m basra`` in a new process."""
    return subprocess.run([sys.executable, "-m", "basra", *argv], input=stdin,
                          capture_output=True, check=False, timeout=60)


def test_the_command_runs_as_a_process() -> None:
    done = basra("replay", "--json", "-", stdin=EGYPTIAN.read_bytes())
    assert (done.returncode, done.stderr) == (0, b"")
    assert json.loads(done.stdout) == load(EGYPTIAN.with_suffix(".replay.json"))
    done = basra("replay", "-", stdin=b'{"format": "basra-record/1", "rounds": 3}')
    assert (done.returncode, done.stdout) == (1, b"")
    assert done.stderr == b"record: missing field 'variant'\n"
    seed, client, _, commit, deck = VECTORS[1]
    done = basra("shuffle", "--server-seed", seed, "--client-seed", client, "--nonce", "1")
    assert (done.returncode, done.stdout) == (0, f"{commit}\n{deck}\n".encode())
    done = basra("shuffle", "--server-seed", "1", "--client-seed", "", "--nonce", "1")
    assert (done.returncode, done.stdout) == (2, b"")
    assert done.stderr.count(b"\n") == 1 and b"Traceback" not in done.stderr


def test_verify_runs_as_a_process(tmp_path: Path) -> None:
    done = basra("verify", "-", stdin=LEBANESE.read_bytes())
    assert (done.returncode, done.stdout, done.stderr) == (
        0, b"round 1: fair\nround 2: fair\n", b"")
    unfair = Path(one_round(tmp_path, "amira|abc")).read_bytes()
    done = basra("verify", "-", stdin=unfair)
    assert (done.returncode, done.stdout) == (1, b"")
    assert done.stderr == (f"round 1: not fair: seat 1 (bot:hard) has client seed part 'abc', "
                           f"but a bot's part must be {BOT_PART_1} (derived from the server "
                           "seed)\n").encode()


# --------------------------------------------------------------------------- bench


def test_bench_hands_its_arguments_to_the_bench(capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[argparse.Namespace] = []

    def run_bench(args: argparse.Namespace) -> int:
        seen.append(args)
        return 3

    monkeypatch.setattr(cli, "run_bench", run_bench)
    assert run(capsys, "bench", "engine", "--seconds", "0.5", "--json") == (3, "", "")
    assert (seen[0].target, seen[0].seconds, seen[0].json) == ("engine", 0.5, True)


def test_bench_measures_for_five_seconds_by_default(capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[float] = []
    monkeypatch.setattr(cli, "run_bench", lambda args: seen.append(args.seconds) or 0)
    assert run(capsys, "bench", "engine") == (0, "", "")
    assert seen == [5.0]
    for bad in ("0", "-1", "nan", "soon"):
        assert run(capsys, "bench", "engine", "--seconds", bad) == (
            2, "", f"basra bench: error: argument --seconds: must be a number of seconds above 0, "
                   f"got '{bad}'\n")
