"""The puzzle service's choices, without a server: the next puzzle is near the rating asked
and never one tried while others are left; a streak rises in rating and never repeats; the
daily puzzle is the same all day and changes with the day; puzzle requests are limited per
address and per player."""

from __future__ import annotations

import asyncio
from datetime import date
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from basra.puzzles.shipped import load
from basra.server.learning.puzzles import (
    DAILY_BAND,
    NEAR,
    STREAK_STEP,
    Puzzles,
    daily_puzzle,
    near,
    shipped_order,
    streak,
    streak_start,
)
from basra.server.limits import AddressAndPlayerLimit
from basra.server.wire.errors import RateLimited


class NoRatings:
    async def puzzle_ratings(self) -> list[Any]:
        return []


def service() -> Puzzles:
    puzzles = Puzzles(NoRatings())  # type: ignore[arg-type]
    asyncio.run(puzzles.ready())
    return puzzles


SERVICE = service()
EGYPTIAN = {p.id: p for p in load("egyptian")}


@settings(max_examples=60, deadline=None)
@given(st.floats(1000, 2000), st.integers(0, 10**6), st.integers(0, 40))
def test_the_next_puzzle_is_near_and_not_tried(target: float, seed: int, tried: int) -> None:
    order = SERVICE.order["egyptian"]
    skip = {pid for _, pid in order[:: max(1, len(order) // (tried + 1))][:tried]}
    chosen = near(order, target, skip, seed)
    assert chosen.id not in skip
    ratings = sorted(r for r, _ in order)
    if ratings[0] + 2 * NEAR < target < ratings[-1] - 2 * NEAR and not skip:
        assert abs(SERVICE.ratings[chosen.id].rating - target) <= NEAR + 150


def test_every_puzzle_tried_still_gives_one() -> None:
    skip = set(EGYPTIAN)
    assert near(SERVICE.order["egyptian"], 1500, skip, 1).id in EGYPTIAN


def test_a_streak_rises_and_never_repeats_whatever_the_live_ratings() -> None:
    seen = streak(77, 12)
    assert len({p.id for p in seen}) == 12
    first, last = seen[0].rating, seen[-1].rating
    assert last > first
    start = streak_start("egyptian")
    assert abs(first - start) <= NEAR + 50 and abs(last - (start + 11 * STREAK_STEP)) <= NEAR + 50
    # The live ratings move as puzzles are rated: the streak's ladder does not.
    moved = Puzzles(NoRatings())  # type: ignore[arg-type]
    asyncio.run(moved.ready())
    for puzzle in seen[:4]:
        moved._moved(puzzle, moved.shipped(puzzle).__class__(3000.0, 60.0, 0.06))
    assert [p.id for p in streak(77, 12)] == [p.id for p in seen]
    assert shipped_order("egyptian") == sorted(shipped_order("egyptian"))


def test_the_daily_puzzle_is_the_days() -> None:
    day = date(2026, 12, 6)
    puzzle = daily_puzzle(day)
    assert puzzle.id == daily_puzzle(date(2026, 12, 6)).id
    assert DAILY_BAND[0] <= puzzle.rating <= DAILY_BAND[1] and puzzle.line_plays >= 2
    days = {daily_puzzle(date(2026, 12, d)).id for d in range(1, 29)}
    assert len(days) > 20


def scope(address: str) -> dict[str, Any]:
    return {"type": "http", "client": (address, 5000), "headers": []}


def test_puzzle_requests_are_limited_per_address_and_per_player() -> None:
    limit = AddressAndPlayerLimit("puzzle requests", 60, 3)
    for _ in range(3):
        limit.check(scope("10.0.0.1"), player_id="p1")  # type: ignore[arg-type]
    with pytest.raises(RateLimited):
        limit.check(scope("10.0.0.1"))  # type: ignore[arg-type]
    # The same player from another address is held by the player's own count.
    with pytest.raises(RateLimited):
        limit.check(scope("10.0.0.2"), player_id="p1")  # type: ignore[arg-type]
    limit.check(scope("10.0.0.2"), player_id="p2")  # type: ignore[arg-type]
