"""benchmarks/puzzle_mining.py runs and reports its figures (a tiny count)."""

from __future__ import annotations

import puzzle_mining

import basra.puzzles.mine as mining
from basra.puzzles.solve import build


def test_benchmark_reports() -> None:
    result = puzzle_mining.run("egyptian", 3, 1, 60.0, 2)
    assert result["finished"] is True and result["puzzles"] == 3
    assert result["check_calls"] == 12
    assert isinstance(result["check_us"], float) and result["check_us"] > 0
    assert mining.build is build  # put back


def test_benchmark_stops_when_out_of_time() -> None:
    result = puzzle_mining.run("egyptian", 1000, 1, 0.0, 1)
    assert result["finished"] is False
    assert mining.build is build
