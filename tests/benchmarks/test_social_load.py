"""``benchmarks/social_load.py`` on a tiny scale against a real ``basra serve``: its windows
are there and hang together (the figures are the benchmark's business, not the test's)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOCIAL = ROOT / "benchmarks" / "social_load.py"


@pytest.mark.slow
def test_a_tiny_run_reports_both_windows() -> None:
    run = subprocess.run(
        [sys.executable, str(SOCIAL), "--accounts", "40", "--follows", "6", "--seconds",
         "4", "--ramp", "2", "--settle", "2", "--online", "3", "--offline", "8",
         "--challenges", "4", "--json"],
        capture_output=True, text=True, timeout=240, cwd=ROOT, check=True)
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert report["opened"] >= 39  # (a page away under 5 s is a reload: no news; 8 s is)
    still, churn = report["windows"]["still"], report["windows"]["churn"]
    assert still["presence_per_second"] == 0 and churn["presence_per_second"] > 0
    assert churn["told_per_second"] > 0 and churn["fanout_cores"] > 0
    for window in (still, churn):
        assert window["challenges"] > 0
        assert set(window["errors"]) <= {"challenge/already"}  # the same two, by chance
        assert 0 < window["p50_ms"] <= window["p99_ms"] <= window["max_ms"]
