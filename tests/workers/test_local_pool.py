"""Searching bots think in worker processes (basra.workers.local): the same decision as in
process for the same seed and budget, a search whose time is gone still answers at once, and
a worker killed mid-search is replaced."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from basra.bots import make_bot
from basra.bots.hard import HardBot
from basra.game.engine import new_match, start_round
from basra.game.rules import find_variant
from basra.game.shuffle import shuffled_deck
from basra.game.views import SeatView, view
from basra.workers.local import LocalPool
from basra.workers.service import search


def opening_view() -> SeatView:
    match = start_round(new_match(find_variant("egyptian"), 2),
                        shuffled_deck("00" * 32, "pool", 1))
    assert match.round is not None
    return view(match, match.round.turn)


T = TypeVar("T")


def with_pool(scenario: Callable[[LocalPool], Awaitable[T]]) -> T:
    """Run ``scenario`` on a pool of one worker, started and warm; the pool closed after."""
    pool = LocalPool(1)

    async def warm_then_run() -> T:
        await asyncio.get_running_loop().run_in_executor(pool.executor(), os.getpid)
        return await scenario(pool)

    try:
        return asyncio.run(warm_then_run())
    finally:
        pool.close()


def test_a_search_runs_in_a_worker_and_decides_as_in_process() -> None:
    """With a budget it cannot use up, the worker's decision is the one the same search
    makes here: seeded by the bot's seed, the round and the play number."""
    seen = opening_view()
    bot = make_bot("hard", seed="table:1", iterations=60, time_cap=30)
    assert isinstance(bot, HardBot)

    async def decide(pool: LocalPool) -> tuple[object, int]:
        choice = await pool.choose(bot, seen, time.time() + 30)
        pid = await asyncio.get_running_loop().run_in_executor(pool.executor(), os.getpid)
        return choice, pid

    choice, worker = with_pool(decide)
    assert worker != os.getpid()
    assert choice == search("hard", f"table:1|{seen.round_number}|0", 60, 30, seen)
    assert choice in seen.legal


def test_a_decision_whose_time_is_gone_still_answers_at_once() -> None:
    """Queued past its turn's time, a search shrinks to one rollout per legal play instead
    of running its whole iteration budget (millions here)."""
    seen = opening_view()
    bot = make_bot("hard", seed=3, iterations=10**8, time_cap=0.9)

    async def decide(pool: LocalPool) -> tuple[object, float]:
        started = time.monotonic()
        choice = await pool.choose(bot, seen, time.time() - 5)
        return choice, time.monotonic() - started

    choice, took = with_pool(decide)
    assert choice in seen.legal and took < 10


def test_a_worker_killed_mid_search_is_replaced() -> None:
    seen = opening_view()
    bot = make_bot("hard", seed=4, iterations=10**8, time_cap=3)

    async def decide(pool: LocalPool) -> tuple[object, int]:
        thinking = asyncio.create_task(pool.choose(bot, seen, time.time() + 3))
        await asyncio.sleep(0.5)
        for process in list(pool.executor()._processes.values()):  # kill it mid-search
            process.kill()
        return await asyncio.wait_for(thinking, 30), pool.replaced

    choice, replaced = with_pool(decide)
    assert choice in seen.legal and replaced == 1


def test_levels_that_answer_at_once_stay_in_process() -> None:
    seen = opening_view()
    pool = LocalPool(1)
    try:
        for level in ("random", "easy", "medium"):
            bot = make_bot(level, seed=1)
            twin = make_bot(level, seed=1)
            assert asyncio.run(pool.choose(bot, seen, time.time())) == twin.choose(seen)
        assert pool._executor is None  # no worker was ever started
    finally:
        pool.close()


def test_decisions_queued_behind_others_search_only_for_their_time_left() -> None:
    """More work than the worker can do: eight decisions at once on one worker, each with
    0.4 s from its turn's start and an iteration budget it could never finish. The first
    searches its 0.4 s; the others, started after their time is gone, answer at once, so
    the last comes soon after the deadline, not eight budgets later."""
    seen = opening_view()
    bots = [make_bot("hard", seed=f"q{i}", iterations=10**8, time_cap=0.4) for i in range(8)]

    async def decide(pool: LocalPool) -> tuple[list[object], float]:
        started = time.monotonic()
        deadline = time.time() + 0.4
        choices = await asyncio.gather(*(pool.choose(b, seen, deadline) for b in bots))
        return list(choices), time.monotonic() - started

    choices, took = with_pool(decide)
    assert all(c in seen.legal for c in choices)
    assert took < 0.4 * 3, f"the queue took {took:.2f} s"


def test_the_expert_searches_in_a_worker_and_decides_as_in_process() -> None:
    seen = opening_view()
    bot = make_bot("expert", seed="table:2", iterations=90, time_cap=30)

    async def decide(pool: LocalPool) -> object:
        return await pool.choose(bot, seen, time.time() + 30)

    choice = with_pool(decide)
    assert choice == search("expert", f"table:2|{seen.round_number}|0", 90, 30, seen)
