"""What the server asks of its bots' workers, and the search they run.

A level whose decision is bounded well under a millisecond (``random``, ``easy``,
``medium``) answers inline. A searching level (``hard``, ``expert``) is searched in a worker
process. Its budget is a deadline that counts from when its turn began: under more bot work
than the workers can do, a decision that waited searches for what is left of its time (at
the least one rollout per legal play, :data:`LEAST_BUDGET`), so the queue drains instead of
growing without bound.

The search is deterministic given the bot's seed and the decision (round and play number,
:func:`decision_seed`), as it would be in process, whatever worker runs it.

Two services implement :class:`BotService`: :class:`basra.workers.local.LocalPool` (this
process's worker processes) and, in cluster mode, :class:`basra.workers.redis_bots.RedisBots`
(jobs on a Redis stream for bot workers anywhere).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol

from basra.bots import make_bot
from basra.bots.base import Bot, SearchBot
from basra.bots.hard import DEFAULT_TIME_CAP
from basra.game.engine import Play
from basra.game.views import SeatView
from basra.match.analysis import Values

LEAST_BUDGET = 0.001
"""Seconds a late decision still searches: one rollout per legal play, then it answers."""


class BotService(Protocol):
    """Where a server's searching bots think: what a table's thinking asks (a decision),
    what the analyses ask (the values of a play), and what the lobby closes."""

    async def choose(self, bot: Bot, view: SeatView, deadline: float) -> Play:
        """``bot``'s play on ``view``; ``deadline`` (``time.time()``) ends its search."""
        ...

    async def values(self, view: SeatView, seed: str, iterations: int) -> Values:
        """The expert's values of every legal play of ``view`` (a play of a match being
        analysed); ``RuntimeError`` when no worker answered."""
        ...

    def close(self) -> None:
        """Stop the workers this service started (a search under way ends within its time
        cap); from any thread."""
        ...


Search = Callable[[SearchBot, SeatView, str, float], Awaitable[Play]]
"""A service's search of one decision: ``(bot, view, seed, deadline) -> play``."""


def budget_of(bot: Bot) -> float:
    """Seconds a bot may think from the start of its turn (a search's time cap)."""
    if isinstance(bot, SearchBot) and bot.time_cap:
        return bot.time_cap
    return DEFAULT_TIME_CAP


def decision_seed(bot: Bot, view: SeatView) -> str:
    """The seed of one decision's search: the bot's seed, the round and the play number
    (the same search wherever it runs)."""
    return f"{bot.seed}|{view.round_number}|{len(view.plays)}"


async def decide(bot: Bot, view: SeatView, deadline: float, search: Search) -> Play:
    """One decision as every :class:`BotService` makes it: a level that answers at once
    answers here, and so does a single legal play; a search (two legal plays or more) goes
    to ``search`` with the decision's seed."""
    if not isinstance(bot, SearchBot):  # the levels that answer at once
        return bot.choose(view)
    if len(view.legal) == 1:
        return view.legal[0]
    return await search(bot, view, decision_seed(bot, view), deadline)


def search(level: str, seed: str, iterations: int, budget: float, view: SeatView) -> Play:
    """One decision, in a worker process: a fresh bot of ``level`` seeded for this decision
    searches for ``budget`` seconds at most."""
    bot = make_bot(level, seed=seed, iterations=iterations, time_cap=max(budget, LEAST_BUDGET))
    return bot.choose(view)


__all__ = ["LEAST_BUDGET", "BotService", "Search", "budget_of", "decide", "decision_seed",
           "search"]
