"""``benchmarks/analysis_speed.py`` on a tiny scale: it plays its matches, times their
analysis by phase and compares it with a reference (the figures are the benchmark's
business, not the test's)."""

from __future__ import annotations

import json

import analysis_speed
import pytest


def test_a_tiny_run_reports_the_phases_and_the_quality(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert analysis_speed.main(["--matches", "1", "--rounds", "0", "--max-plays", "12",
                                "--iterations", "8", "--hard-iterations", "20", "--quality",
                                "--reference", "16", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["iterations"] == 8 and report["matches"] == 1
    row = report["rows"][0]
    assert row["plays"] == 12 and row["cpu_seconds"] > 0
    assert set(row["by_phase"]) == {"last", "before", "earlier"}
    assert row["choices_by_phase"]["earlier"] == row["choices"]
    assert 0 <= row["quality"]["all"]["same_best"] <= 1


def test_the_matches_are_the_same_every_time() -> None:
    first = analysis_speed.play_match(3, hard_iterations=20)
    assert first is not None and first == analysis_speed.play_match(3, hard_iterations=20)
    assert analysis_speed.server_iterations() > 0
    assert [analysis_speed.phase_of(n) for n in (0, 8, 16, 40)] == [
        "last", "before", "earlier", "earlier"]
