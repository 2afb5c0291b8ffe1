"""Bots think off the loop: a bot's move is computed in a worker thread and comes back to
the table's inbox as a :class:`~basra.server.table.commands.BotMove` carrying the table version
it was computed for (a stale one is dropped by the table)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from basra.bots.base import Bot
from basra.game.views import SeatView
from basra.server import metrics
from basra.server.table.commands import BotMove, Command
from basra.workers.service import BotService, budget_of

log = logging.getLogger("basra.table")


class Thinking:
    """The one bot move a table may be waiting for."""

    def __init__(self, inbox: asyncio.Queue[Command], pool: BotService | None = None) -> None:
        self.inbox = inbox
        self.pool = pool
        """The server's bot workers; None: searches in a thread."""
        self.task: asyncio.Task[None] | None = None

    @property
    def busy(self) -> bool:
        return self.task is not None

    def start(self, bot: Bot, seat: int, view: SeatView, version: int, delay: float) -> None:
        """Think for ``seat`` (replacing any thinking under way); the move comes ``delay``
        seconds after the start at the soonest. The time to its choice and the decisions
        under way are counted (``/metrics``)."""
        turn_start = time.monotonic()
        deadline = time.time() + budget_of(bot)  # the search's time counts from now

        async def think() -> None:
            metrics.BOT_QUEUE.inc()
            try:
                if self.pool is not None:
                    choice = await self.pool.choose(bot, view, deadline)
                else:
                    choice = await asyncio.to_thread(bot.choose, view)
            except Exception:  # a bot's fault: the table must not stall on it
                if not view.legal:
                    raise
                log.exception("a bot failed to choose for seat %d: it plays its first legal "
                              "play", seat)
                choice = view.legal[0]
            finally:
                metrics.BOT_QUEUE.dec()
            thought = time.monotonic() - turn_start
            metrics.bot_chose(bot.level, thought)
            rest = delay - thought
            if rest > 0:
                await asyncio.sleep(rest)
            await self.inbox.put(BotMove(seat, version, choice))

        self.cancel()
        self.task = asyncio.create_task(think())

    def cancel(self) -> None:
        if self.task is not None:
            self.task.cancel()
            self.task = None

    def done(self) -> None:
        """The move came (or another play made it moot): no thinking counts now."""
        self.task = None

    async def stop(self) -> None:
        task, self.task = self.task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
