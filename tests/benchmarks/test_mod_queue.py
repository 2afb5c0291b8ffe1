"""``benchmarks/mod_queue.py`` on a tiny scale against a real ``basra serve`` (SQLite; the
PostgreSQL path is the same code with ``--db``): the store is filled, a moderator made by
``basra admin``, and every kind of request answers (the figures are the benchmark's
business)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
QUEUE = ROOT / "benchmarks" / "mod_queue.py"


@pytest.mark.slow
def test_a_tiny_run_measures_every_kind() -> None:
    run = subprocess.run(
        [sys.executable, str(QUEUE), "--reports", "600", "--players", "50", "--log", "60",
         "--requests", "3", "--json"],
        capture_output=True, text=True, timeout=240, cwd=ROOT, check=True)
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert report["reports"] == 600 and report["open"] == 60
    for kind in ("queue", "done", "file", "log"):
        assert 0 < report[kind]["p50_ms"] <= report[kind]["max_ms"], kind
