"""This process's own pool of worker processes, where its searching bots think.

``basra serve --bot-workers N`` (default the machine's cores) without Redis: a search is
sent to a pool of spawned worker processes, each watching its server process so none
outlives it, and searches for what is left of its turn's time when a worker starts it
(:mod:`~.service` tells the budgets). A worker that dies mid-search is replaced and the
decision asked again.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_context

from basra.bots.base import Bot, SearchBot
from basra.game.engine import Play
from basra.game.views import SeatView
from basra.match.analysis import Values, play_values
from basra.procs import watch_parent
from basra.workers.service import decide, search

log = logging.getLogger("basra.bots")


def search_until(level: str, seed: str, iterations: int, deadline: float,
                 view: SeatView) -> Play:
    """:func:`~.service.search` for what is left of the time until ``deadline``
    (``time.time()``) when a worker starts it: a decision that waited in the queue searches
    less, so the queue drains instead of growing."""
    return search(level, seed, iterations, deadline - time.time(), view)


def _warm() -> int:
    """Run once in each new worker so it has imported the engine before a turn waits."""
    return os.getpid()


class LocalPool:
    """The worker processes of one server process (created on first use): a
    :class:`~.service.BotService`."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = max(1, workers if workers is not None else (os.cpu_count() or 1))
        self._executor: ProcessPoolExecutor | None = None
        self.replaced = 0
        """Times the pool was rebuilt after a worker died."""

    def executor(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(self.workers, mp_context=get_context("spawn"),
                                                 initializer=watch_parent,
                                                 initargs=(os.getpid(),))
            for _ in range(self.workers):
                self._executor.submit(_warm)
        return self._executor

    def _replace(self) -> None:
        broken, self._executor = self._executor, None
        self.replaced += 1
        if broken is not None:
            broken.shutdown(wait=False, cancel_futures=True)

    async def choose(self, bot: Bot, view: SeatView, deadline: float) -> Play:
        """``bot``'s play on ``view``; ``deadline`` (``time.time()``) ends its search."""
        return await decide(bot, view, deadline, self._search)

    async def _search(self, bot: SearchBot, view: SeatView, seed: str, deadline: float) -> Play:
        """The search of one decision (two or more legal plays), in a worker process."""
        loop = asyncio.get_running_loop()

        async def ask() -> Play:
            return await loop.run_in_executor(self.executor(), search_until, bot.level,
                                              seed, bot.iterations, deadline, view)

        try:
            return await ask()
        except BrokenProcessPool:  # a worker died (killed, out of memory): once more
            log.warning("a bot worker died mid-search: the pool is replaced")
            self._replace()
            return await ask()

    async def values(self, view: SeatView, seed: str, iterations: int) -> Values:
        """The expert's values of every legal play of ``view`` (a play of a match being
        analysed, for the server's analyses), in a worker process."""
        loop = asyncio.get_running_loop()

        async def ask() -> Values:
            return await loop.run_in_executor(self.executor(), play_values, view, seed,
                                              iterations)

        try:
            return await ask()
        except BrokenProcessPool:
            log.warning("a bot worker died mid-analysis: the pool is replaced")
            self._replace()
            return await ask()

    def close(self) -> None:
        """Stop the workers (a search under way ends within its time cap)."""
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None


__all__ = ["LocalPool", "search_until"]
