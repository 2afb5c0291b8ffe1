"""``benchmarks/socket_memory.py`` on a tiny scale: more pages, more objects and coroutines
held, each page a few (the figures are the benchmark's business, not the test's)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCHMARK = ROOT / "benchmarks" / "socket_memory.py"


def figures(pages: int) -> dict[str, float]:
    run = subprocess.run([sys.executable, str(BENCHMARK), "--pages", str(pages)],
                         capture_output=True, text=True, timeout=240, cwd=ROOT, check=True)
    report: dict[str, float] = json.loads(run.stdout.strip().splitlines()[-1])
    return report


@pytest.mark.slow
def test_pages_held_are_counted() -> None:
    none, some = figures(0), figures(40)
    assert none["pages"] == 0 and some["pages"] == 40
    per_page = (some["objects"] - none["objects"]) / 40
    coroutines = (some["coroutines"] - none["coroutines"]) / 40
    assert 20 < per_page < 400 and 3 <= coroutines < 30, (per_page, coroutines)
    assert some["full_collection_ms"] > 0
