"""Bots that search think in worker processes, never in the event loop's process.

A level whose decision is bounded well under a millisecond (``random``, ``easy``,
``medium``) answers inline. A searching level (``hard``, ``expert``) is sent to a pool of worker
processes (``basra serve --bot-workers N``, default the machine's cores). Its budget is a
deadline that counts from when its turn began: under more bot work than the workers can do,
a decision that waited in the queue searches for what is left of its time (at the least one
rollout per legal play), so the queue drains instead of growing without bound. A worker that
dies mid-search is replaced and the decision asked again.

The search is deterministic given the bot's seed and the decision (round and play number),
as it would be in process, whatever worker runs it.

In cluster mode (``Settings.redis_url`` set) the searches go instead to bot workers anywhere
through Redis (:class:`basra.server.redis_bots.RedisBots`, ``basra bot-worker``);
:func:`bot_service` makes the one or the other for the lobby.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_context
from typing import TYPE_CHECKING

from basra.analysis import Values, play_values
from basra.bots import make_bot
from basra.bots.base import Bot, SearchBot
from basra.bots.hard import DEFAULT_TIME_CAP
from basra.engine import Play
from basra.views import SeatView

if TYPE_CHECKING:
    from basra.server.config import Settings
    from basra.server.redis_bots import RedisBots

log = logging.getLogger("basra.bots")

LEAST_BUDGET = 0.001
"""Seconds a late decision still searches: one rollout per legal play, then it answers."""


def budget_of(bot: Bot) -> float:
    """Seconds a bot may think from the start of its turn (a search's time cap)."""
    if isinstance(bot, SearchBot) and bot.time_cap:
        return bot.time_cap
    return DEFAULT_TIME_CAP


def decision_seed(bot: Bot, view: SeatView) -> str:
    """The seed of one decision's search: the bot's seed, the round and the play number
    (the same search wherever it runs)."""
    return f"{bot.seed}|{view.round_number}|{len(view.plays)}"


def search(level: str, seed: str, iterations: int, budget: float, view: SeatView) -> Play:
    """One decision, in a worker process: a fresh bot of ``level`` seeded for this decision
    searches for ``budget`` seconds at most."""
    bot = make_bot(level, seed=seed, iterations=iterations, time_cap=max(budget, LEAST_BUDGET))
    return bot.choose(view)


def search_until(level: str, seed: str, iterations: int, deadline: float,
                 view: SeatView) -> Play:
    """:func:`search` for what is left of the time until ``deadline`` (``time.time()``)
    when a worker starts it: a decision that waited in the queue searches less, so the
    queue drains instead of growing."""
    return search(level, seed, iterations, deadline - time.time(), view)


def _warm() -> int:
    """Run once in each new worker so it has imported the engine before a turn waits."""
    return os.getpid()


def watch_parent(parent: int) -> None:
    """A worker's initializer (a pool's, or a bot worker process's): the worker ends when
    its parent process is gone, even one killed outright (nothing else would tell it: it
    holds its own queue's pipe open)."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="parent watch", daemon=True).start()


class BotPool:
    """The worker processes of one server process (created on first use).

    :meth:`choose` answers the levels that answer at once itself and hands a search to
    :meth:`_search`, which a subclass may send elsewhere (:class:`~.redis_bots.RedisBots`).
    """

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
        if not isinstance(bot, SearchBot):  # the levels that answer at once
            return bot.choose(view)
        if len(view.legal) == 1:
            return view.legal[0]
        return await self._search(bot, view, decision_seed(bot, view), deadline)

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
        analysed, :mod:`basra.server.analyses`), in a worker process."""
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


def bot_service(settings: Settings) -> BotPool | RedisBots:
    """Where the lobby's searching bots think: with ``settings.redis_url``, bot workers
    through Redis (each server node running ``settings.bot_workers`` of them itself, see
    :mod:`basra.server.redis_bots`); else this process's own pool of worker processes."""
    if settings.redis_url is None:
        return BotPool(settings.bot_workers)
    from basra.server.redis_bots import RedisBots  # noqa: PLC0415 (it imports this module)

    local = settings.bot_workers if settings.bot_workers is not None else os.cpu_count() or 1
    return RedisBots(settings.redis_url, prefix=settings.redis_prefix, local_workers=local)


__all__ = ["BotPool", "bot_service", "budget_of", "decision_seed", "search", "watch_parent"]
