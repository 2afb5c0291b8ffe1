"""``basra bench engine``: the command runs and reports its figures (not how fast they are)."""

from __future__ import annotations

import json

import pytest

from basra.cli.bench import bench_engine, engine_backend
from basra.cli.main import main


def test_bench_engine_plays_complete_rounds() -> None:
    result = bench_engine(0.05)
    assert result["variant"] == "egyptian" and result["players"] == 2
    assert result["rounds"] >= 64
    assert result["plays"] == 48 * result["rounds"]
    assert result["backend"] == engine_backend()


def test_bench_engine_json_is_one_object(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "engine", "--seconds", "0.05", "--json"]) == 0
    out = capsys.readouterr().out
    data = json.loads(out)
    assert data["rounds_per_second"] > 0 and data["plays_per_second"] > 0


def test_bench_engine_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "engine", "--seconds", "0.05"]) == 0
    out = capsys.readouterr().out
    assert "rounds_per_second" in out and "plays_per_second" in out
