"""The shipped puzzles: every one re-proved by the solver. A fixed-size sample per run,
rotating with the date (the seed is printed, so a failure can be rerun with
``PUZZLE_SEED=...``); the whole set with --runslow."""

from __future__ import annotations

import datetime
import os
import random

import pytest

from basra.puzzles import all_puzzles, by_id, load
from basra.puzzles.model import PREFIX
from basra.puzzles.shipped import DATA, VARIANTS
from basra.puzzles.solve import MARGIN, prove

SAMPLE = 500
LEAST = {"egyptian": 5000, "arabic101": 1000, "lebanese": 1000, "serbian": 1000}
"""How many puzzles each variant ships (issue 29)."""


def sample_seed() -> int:
    """Today's seed (YYYYMMDD), or ``PUZZLE_SEED`` to rerun a failure."""
    given = os.environ.get("PUZZLE_SEED")
    return int(given) if given else int(datetime.date.today().strftime("%Y%m%d"))


def test_every_variant_ships_enough_distinct_puzzles() -> None:
    total = 0
    for variant in VARIANTS:
        puzzles = load(variant)
        assert len(puzzles) >= LEAST[variant], variant
        ids = [p.id for p in puzzles]
        assert len(set(ids)) == len(ids)
        assert all(i.startswith(PREFIX[variant] + "-") for i in ids)
        assert all(p.variant == variant and p.margin >= MARGIN for p in puzzles)
        total += len(puzzles)
    assert len(all_puzzles()) == total
    size = sum(f.stat().st_size for f in DATA.glob("*.json.gz"))
    assert size < 4_000_000


def test_by_id() -> None:
    for variant in VARIANTS:
        first = load(variant)[0]
        assert by_id(first.id) is first
    assert by_id("eg-00000000") is None
    assert by_id("nothing") is None
    assert load("no-such-variant") == ()


def test_a_sample_reproves(capsys: pytest.CaptureFixture[str]) -> None:
    seed = sample_seed()
    with capsys.disabled():
        print(f"\nshipped puzzles: proving {SAMPLE} drawn with PUZZLE_SEED={seed}")
    chosen = random.Random(seed).sample(list(all_puzzles()), SAMPLE)
    problems = [p for p in (prove(z) for z in chosen) if p is not None]
    assert not problems, f"PUZZLE_SEED={seed}: " + "; ".join(problems[:5])


@pytest.mark.slow
def test_every_shipped_puzzle_reproves() -> None:
    problems = [p for p in (prove(z) for z in all_puzzles()) if p is not None]
    assert not problems, "; ".join(problems[:5])
