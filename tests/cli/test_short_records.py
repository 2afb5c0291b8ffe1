"""``basra replay`` and ``basra verify`` of a shorter match's record (RULES.md 6.5,
RECORDS.md's ``length``): replayed under the shorter target, its end enforced."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from basra.cli.main import main

DATA = Path(__file__).parents[1] / "data"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run ``basra argv...`` in process: (exit status, stdout, stderr)."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def short_egyptian(tmp_path: Path, rounds: int | None = None, **extra: object) -> str:
    """egyptian-2p.json (10-86 after round 2) as a short match's record, keeping its first
    ``rounds`` rounds; the file's path."""
    data: dict[str, Any] = json.loads((DATA / "egyptian-2p.json").read_text(encoding="utf-8"))
    data["length"] = "short"
    data["rounds"] = data["rounds"][:rounds]
    data.update(extra)
    path = tmp_path / "short.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_replay_json_of_a_short_record(capsys: pytest.CaptureFixture[str],
                                       tmp_path: Path) -> None:
    status, out, err = run(capsys, "replay", "--json", short_egyptian(tmp_path, 2))
    assert (status, err) == (0, "")
    summary = json.loads(out)
    assert list(summary) == ["variant", "rounds", "winner", "length"]
    assert (summary["variant"], summary["length"], summary["winner"]) == ("egyptian", "short", 1)
    assert [r["totals"] for r in summary["rounds"]] == [[8, 35], [10, 86]]


def test_replay_table_of_a_short_record(capsys: pytest.CaptureFixture[str],
                                        tmp_path: Path) -> None:
    status, out, err = run(capsys, "replay", short_egyptian(tmp_path, 2))
    assert (status, err) == (0, "")
    assert "egyptian (short match): amira, bot:expert" in out
    assert "winner: bot:expert" in out


def test_verify_a_short_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert run(capsys, "verify", short_egyptian(tmp_path, 2)) == (
        0, "round 1: fair\nround 2: fair\n", "")


@pytest.mark.parametrize("command", [["replay"], ["replay", "--json"], ["verify"]])
def test_a_short_record_that_plays_on_fails(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path, command: list[str]) -> None:
    status, out, err = run(capsys, *command, short_egyptian(tmp_path))
    assert status == 1
    assert err == ("round 3: the match was decided in round 2; a record may not go on after "
                   "that\n")
    assert out == ("round 1: fair\nround 2: fair\n" if command == ["verify"] else "")


def test_a_bad_length_fails(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = short_egyptian(tmp_path, 2, length="long")
    assert run(capsys, "replay", path) == (
        1, "", 'record: length must be "full" or "short", got "long"\n')


def test_a_full_record_replays_as_before(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "replay", "--json", str(DATA / "egyptian-2p.json"))
    assert status == 0
    summary = json.loads(out)
    assert "length" not in summary and summary["winner"] == 1
    assert len(summary["rounds"]) == 4
    assert summary == json.loads((DATA / "egyptian-2p.replay.json").read_text("utf-8"))
