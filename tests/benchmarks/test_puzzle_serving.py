"""``benchmarks/puzzle_serving.py`` on a tiny scale against a real ``basra serve``: every kind
of request is measured and none fails (the figures are the benchmark's business)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SERVING = ROOT / "benchmarks" / "puzzle_serving.py"


@pytest.mark.slow
def test_a_tiny_run_measures_every_kind() -> None:
    run = subprocess.run(
        [sys.executable, str(SERVING), "--requests", "40", "--guests", "4", "--json"],
        capture_output=True, text=True, timeout=240, cwd=ROOT, check=True)
    report = json.loads(run.stdout.strip().splitlines()[-1])
    alone = report["handler_alone"]
    assert alone["calls"] == 40 and alone["check_us"] > 0
    for kind in ("health", "serve", "judge", "next", "rated"):
        measured = report[kind]
        assert measured["requests"] > 0 and measured["failures"] == 0, kind
        assert 0 < measured["p50_ms"] <= measured["p99_ms"], kind
