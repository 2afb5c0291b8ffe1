"""Searching bots think in bot workers anywhere, through Redis (cluster mode).

:class:`RedisBots` is the server's :class:`~.service.BotService` when it has a Redis URL
(see :func:`basra.workers.factory.bot_service`). A level that answers at once (``random``,
``easy``, ``medium``) still answers inline; a search (``hard``, ``expert``) becomes a job
(:mod:`~.jobs`: the keys, the job format and the timing) that any bot worker takes:
``basra bot-worker --redis URL`` (:mod:`~.worker`), any number of them, on any machine. No
answer by the deadline and :data:`~.jobs.GRACE` more, and the ``medium`` bot decides inline.

Cluster mode on one machine with no ``basra bot-worker`` started: each server node runs
``--bot-workers`` worker processes of its own (default one per core, as without Redis) that
take jobs from the same stream, any node's, so a site of server nodes alone plays hard bots,
and dedicated bot-worker machines only add capacity. ``local_workers = 0`` runs none on the
node (every search then waits for ``basra bot-worker`` processes); idle, a node's workers
cost a blocked Redis read each. They start with the node's first search and stop with
:meth:`RedisBots.close`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import RedisError

from basra.bots import make_bot
from basra.bots.base import Bot, SearchBot
from basra.game.engine import Play
from basra.game.views import SeatView
from basra.logs import level_name
from basra.match.analysis import Values
from basra.workers.jobs import (
    ANALYSIS,
    ANALYSIS_SECONDS,
    CONNECT_TIMEOUT,
    GRACE,
    GUARD,
    MAX_JOBS,
    PREFIX,
    Job,
    Keys,
    decode_play,
    decode_values,
)
from basra.workers.service import decide
from basra.workers.worker import Workers

log = logging.getLogger("basra.bots")


class RedisBots:
    """Searches asked of the bot workers through Redis (and, with ``local_workers``, this
    node's own worker processes among them): a :class:`~.service.BotService`. Used from one
    event loop."""

    def __init__(self, redis_url: str, *, prefix: str = PREFIX, local_workers: int = 0,
                 log_level: str | None = None) -> None:
        self.url = redis_url
        self.keys = Keys(prefix)
        self.workers = max(0, local_workers)
        """Worker processes this node runs (started with its first search)."""
        self.log_level = log_level
        """Their log level (None: the ``basra`` logger's)."""
        self.fallbacks = 0
        """Decisions the ``medium`` bot made because no answer came in time."""
        self.local: Workers | None = None
        self._client: Redis | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closing: set[asyncio.Task[None]] = set()

    def _redis(self) -> Redis:
        loop = asyncio.get_running_loop()
        if self._client is None or self._loop is not loop:
            self._client = Redis.from_url(self.url, socket_connect_timeout=CONNECT_TIMEOUT)
            self._loop = loop
        return self._client

    def _start_local(self) -> None:
        if self.workers and self.local is None:
            self.local = Workers(self.url, self.keys.prefix, self.workers,
                                 log_level=self.log_level or level_name())
            self.local.start_in_thread()

    async def choose(self, bot: Bot, view: SeatView, deadline: float) -> Play:
        """``bot``'s play on ``view``; ``deadline`` (``time.time()``) ends its search."""
        return await decide(bot, view, deadline, self._search)

    async def _search(self, bot: SearchBot, view: SeatView, seed: str, deadline: float) -> Play:
        self._start_local()
        job = Job(uuid.uuid4().hex, bot.level, seed, bot.iterations, deadline, view)
        give_up = deadline + GRACE
        client = self._redis()
        entry: Any = None
        reason = "no bot worker answered in time"
        try:
            async with asyncio.timeout(max(0.0, give_up - time.time()) + GUARD):
                entry = await client.xadd(self.keys.jobs, {"job": job.encode()},
                                          maxlen=MAX_JOBS, approximate=True)
                wait = give_up - time.time()
                if wait > 0:
                    reply = await client.blpop([self.keys.reply(job.id)],
                                               timeout=max(wait, 0.01))
                    if reply is not None:
                        return decode_play(reply[1], view)
        except TimeoutError:
            reason = "Redis did not answer"
        except (RedisError, OSError) as exc:
            reason = f"Redis: {' '.join(str(exc).split())}"
        except ValueError as exc:
            reason = f"a bad answer: {exc}"
        if entry is not None:  # withdraw the job: nobody waits for it now
            with contextlib.suppress(RedisError, OSError, TimeoutError):
                async with asyncio.timeout(GUARD):
                    await client.xdel(self.keys.jobs, entry)
        self.fallbacks += 1
        log.warning("a searching bot's search got no answer (%s): the medium bot plays", reason)
        return make_bot("medium", seed=seed).choose(view)

    async def values(self, view: SeatView, seed: str, iterations: int) -> Values:
        """The expert's values of ``view``'s plays (a match being analysed), asked of the
        bot workers as a job of level :data:`~.jobs.ANALYSIS`; ``RuntimeError`` when none
        answers within :data:`~.jobs.ANALYSIS_SECONDS` seconds."""
        self._start_local()
        deadline = time.time() + ANALYSIS_SECONDS  # well inside a worker's MAX_BUDGET
        job = Job(uuid.uuid4().hex, ANALYSIS, seed, iterations, deadline, view)
        client = self._redis()
        entry: Any = None
        reply: Any = None
        try:
            async with asyncio.timeout(ANALYSIS_SECONDS + GRACE + GUARD):
                entry = await client.xadd(self.keys.jobs, {"job": job.encode()},
                                          maxlen=MAX_JOBS, approximate=True)
                reply = await client.blpop([self.keys.reply(job.id)],
                                           timeout=max(deadline + GRACE - time.time(), 0.01))
        except (TimeoutError, RedisError, OSError) as exc:
            raise RuntimeError(f"no bot worker analysed a play: {exc}") from None
        finally:
            if entry is not None:
                with contextlib.suppress(RedisError, OSError, TimeoutError):
                    async with asyncio.timeout(GUARD):
                        await client.xdel(self.keys.jobs, entry)
        if reply is None:
            raise RuntimeError("no bot worker analysed a play in time")
        return decode_values(reply[1], view)

    async def aclose(self) -> None:
        """:meth:`close`, awaited on the event loop."""
        local, self.local = self.local, None
        if local is not None:
            await asyncio.to_thread(local.stop)
        client, self._client, self._loop = self._client, None, None
        if client is not None:
            await client.aclose()

    def close(self) -> None:
        """Stop this node's worker processes and let go of Redis. From another thread (as
        the lobby calls it) it waits for the connections to close; from the event loop's
        own, they close soon after."""
        local, self.local = self.local, None
        if local is not None:
            local.stop()
        client, loop = self._client, self._loop
        self._client, self._loop = None, None
        if client is None or loop is None or loop.is_closed():
            return
        try:
            running: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            task = loop.create_task(client.aclose())
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)
        elif loop.is_running():
            with contextlib.suppress(Exception):
                asyncio.run_coroutine_threadsafe(client.aclose(), loop).result(CONNECT_TIMEOUT)
        else:
            loop.run_until_complete(client.aclose())


__all__ = ["RedisBots"]
