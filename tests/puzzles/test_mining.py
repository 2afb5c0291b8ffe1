"""Mining: deterministic for a seed, one puzzle a deal, records read without names; and the
``basra puzzles`` command."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from basra.cli.main import main as basra_main
from basra.puzzles.command import main
from basra.puzzles.mine import game_puzzle, mine
from basra.puzzles.shipped import load, read_file, write_file
from basra.puzzles.solve import prove

DATA = Path(__file__).parent.parent / "data"


def test_mining_is_deterministic() -> None:
    a = mine("egyptian", 4, seed=7)
    b = mine("egyptian", 4, seed=7)
    assert [p.id for p in a.puzzles] == [p.id for p in b.puzzles]
    assert a.puzzles == b.puzzles
    assert len(a.puzzles) == 4 and a.games >= 4 and a.candidates >= 4
    assert [p.id for p in mine("egyptian", 4, seed=8).puzzles] != [p.id for p in a.puzzles]
    for puzzle in a.puzzles:
        assert prove(puzzle) is None


def test_a_game_is_its_own_seed() -> None:
    run = mine("serbian", 3, seed=2)
    found = [game_puzzle("serbian", 2, g)[0] for g in range(run.games)]
    assert [p for p in found if p is not None] == run.puzzles


@pytest.mark.slow
def test_jobs_do_not_change_the_puzzles() -> None:
    assert mine("lebanese", 30, seed=3, jobs=2).puzzles == mine("lebanese", 30, seed=3).puzzles


def test_records_are_mined_without_names(tmp_path: Path) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    (folder / "a.json").write_bytes((DATA / "egyptian-2p.json").read_bytes())
    (folder / "broken.json").write_text("{", encoding="utf-8")
    (folder / "teams.json").write_bytes((DATA / "serbian-4t.json").read_bytes())
    report = mine("egyptian", 2, seed=1, records=[folder])
    assert report.records == 3
    assert len(report.skipped_records) == 1 and "broken.json" in report.skipped_records[0]
    assert report.from_records >= 1
    names = json.loads((DATA / "egyptian-2p.json").read_text(encoding="utf-8"))["players"]
    text = json.dumps([p.record() for p in report.puzzles[:report.from_records]])
    assert not any(name in text for name in names)


def test_files_round_trip(tmp_path: Path) -> None:
    puzzles = load("arabic101")[:20]
    for name in ("p.json", "p.json.gz"):
        write_file(tmp_path / name, "arabic101", puzzles, 3)
        assert read_file(tmp_path / name) == ("arabic101", 3, puzzles)
    first = (tmp_path / "p.json.gz").read_bytes()
    write_file(tmp_path / "p.json.gz", "arabic101", puzzles, 3)
    assert (tmp_path / "p.json.gz").read_bytes() == first  # no time stamp inside


def test_command_mine_prove_show(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "eg.json"
    assert basra_main(["puzzles", "mine", "--count", "3", "--seed", "4", "--quiet",
                       "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert "3 puzzles" in said and "puzzles/s" in said
    assert main(["prove", str(out)]) == 0
    assert "3 puzzles proved, 0 bad" in capsys.readouterr().out
    _, _, puzzles = read_file(out)
    assert main(["show", puzzles[0].id, "--file", str(out)]) == 0
    shown = capsys.readouterr().out
    assert puzzles[0].id in shown and "solution" in shown
    assert main(["show", puzzles[0].id, "--file", str(out), "--json"]) == 0
    assert set(json.loads(capsys.readouterr().out)) == {"puzzle", "solution"}
    shipped = load("egyptian")[0]
    assert main(["show", shipped.id]) == 0
    capsys.readouterr()


def test_command_prove_finds_a_bad_puzzle(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    good = load("egyptian")[:3]
    path = tmp_path / "bad.json.gz"
    write_file(path, "egyptian", good, 3)
    data = json.loads(gzip.decompress(path.read_bytes()))
    data["puzzles"][1]["value"] += 1
    data["puzzles"][2]["rating"] += 1
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["prove", str(path)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2
    assert f"{good[1].id}: value is" in err[0] and f"{good[2].id}: rating is" in err[1]


def test_command_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "eg-zzzzzzzz"]) == 1
    assert "no puzzle 'eg-zzzzzzzz'" in capsys.readouterr().err
    bad = tmp_path / "x.json"
    bad.write_text("[]", encoding="utf-8")
    assert main(["prove", str(bad)]) == 1
    assert "not a puzzle file" in capsys.readouterr().err
    assert main(["mine", "--count", "0", "--out", str(bad)]) == 2
    assert main(["mine", "--variant", "nope", "--count", "1", "--out", str(bad)]) == 1
    assert "unknown variant" in capsys.readouterr().err
