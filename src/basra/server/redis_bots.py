"""Searching bots think in bot workers anywhere, through Redis (cluster mode).

:class:`RedisBots` is the lobby's decision service when ``Settings.redis_url`` is set (see
:func:`basra.server.bot_pool.bot_service`); it has :class:`~.bot_pool.BotPool`'s interface,
``await choose(bot, view, deadline)`` and ``close()``. A level that answers at once
(``random``, ``easy``, ``medium``) still answers inline; a search (``hard``, ``expert``)
becomes a job that any bot worker takes: ``basra bot-worker --redis URL``
(:mod:`basra.bot_worker`), any number of them, on any machine.

Keys (``prefix`` is the site's, ``Settings.redis_prefix``, ``basra:`` unless told otherwise;
``basra serve --redis-prefix`` and ``basra bot-worker --redis-prefix`` must agree):

``{prefix}bots:jobs``
    A stream, read by the consumer group ``workers``. Each entry has one field, ``job``: a
    JSON object ``{"id": 32 hex digits, "level": "hard", "seed": "<bot seed>|<round>|<play
    number>", "iterations": N, "deadline": <time.time() seconds>, "view": SeatView.to_json()}``
    (the view is read back with :func:`basra.views.view_from_json`: plain data, never a
    pickle, comes from the network).
``{prefix}bots:reply:{id}``
    A list on which the worker pushes the answer, ``Play.to_json()`` as JSON
    (``{"card": "5H", "take": ["4C", "AD"]}``), with the job's acknowledgement in the same
    transaction; the server waits on it with ``BLPOP``. It expires after
    :data:`REPLY_TTL` seconds (an answer that came too late is never read).

Timing. The deadline counts from the start of the bot's turn, as with the local pool: a job
that waited searches for what is left of it. The server waits until the deadline and
:data:`GRACE` more; if no answer has come (no worker, all busy, Redis down, a bad answer) the
``medium`` bot decides inline (well under a millisecond), a warning is logged, and the job is
withdrawn from the stream: the table never stalls. A worker that takes a job whose deadline
has passed searches with the least budget (one rollout per legal play, then it answers) while
the server may still be waiting (up to :data:`GRACE` late), and drops a job later than that
(the server has fallen back already). The deadline is wall-clock time (``time.time()``) of
the server node, compared with the worker's own clock: the machines' clocks are assumed
NTP-synced (a skew of a few milliseconds is nothing against the grace).

A worker killed mid-search. A stream with a consumer group, not a list, because a job taken
is not gone: it stays pending in the group, under the worker's consumer name, until the
answer acknowledges it. The worker's supervisor (:class:`basra.bot_worker.Workers`) starts a
replacement under the same name, which first takes back its name's pending jobs (and
searches what is left of their time). Jobs left pending by a worker host that is gone
altogether are claimed by the other workers once idle for :data:`STALE_SECONDS` and dropped
(long past their deadline).

Cluster mode on one machine with no ``basra bot-worker`` started: each server node runs
``--bot-workers`` worker processes of its own (default one per core, as without Redis) that
take jobs from the same stream, any node's, so a site of server nodes alone plays hard bots,
and dedicated bot-worker machines only add capacity. ``Settings.bot_workers = 0`` runs none
on the node (every search then waits for ``basra bot-worker`` processes); idle, a node's
workers cost a blocked Redis read each. They start with the node's first search and stop
with :meth:`RedisBots.close`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import re
import time
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from redis.asyncio import Redis
from redis.exceptions import RedisError

from basra.analysis import Values
from basra.bots import LEVELS, make_bot
from basra.bots.base import SearchBot
from basra.cards import parse_card, parse_card_set
from basra.engine import Play
from basra.server.bot_pool import LEAST_BUDGET, BotPool
from basra.views import SeatView, view_from_json

if TYPE_CHECKING:
    from basra.bot_worker import Workers

log = logging.getLogger("basra.bots")

PREFIX = "basra:"
"""The site's keys' default prefix (``Settings.redis_prefix``'s)."""
GROUP = "workers"
"""The consumer group of every bot worker."""
GRACE = 0.5
"""Seconds past a decision's deadline the server still waits for its answer; a worker drops
a job later than that."""
GUARD = 0.5
"""Seconds past the grace after which a Redis that does not answer at all is given up."""
REPLY_TTL = 10
"""Seconds an answer waits on its reply key to be read."""
MAX_JOBS = 10_000
"""The jobs stream is trimmed to about this many entries."""
MAX_BUDGET = 30.0
"""A job's deadline may be at most this far ahead of the worker's clock (a worker searches
no longer than this): a later one is refused as malformed."""
STALE_SECONDS = 60.0
"""A job pending this long with a worker that is gone is claimed by another and dropped; a
consumer idle this long with nothing pending is deleted from the group."""
CONNECT_TIMEOUT = 5.0

_JOB_ID = re.compile(r"[0-9a-f]{32}")
ANALYSIS = "analysis"
ANALYSIS_SECONDS = 20.0
"""How long the server waits for one play of an analysis (a worker's clock may lag the
node's by up to ``MAX_BUDGET - ANALYSIS_SECONDS`` before it takes the job for malformed)."""
"""The level of a job that asks the expert's values of every legal play (a play of a match
being analysed) instead of a decision: its answer is :func:`encode_values`."""


@dataclass(frozen=True, slots=True)
class Keys:
    """The Redis keys of one site's bot jobs (``prefix``: the site's)."""

    prefix: str = PREFIX

    @property
    def jobs(self) -> str:
        return f"{self.prefix}bots:jobs"

    def reply(self, job_id: str) -> str:
        return f"{self.prefix}bots:reply:{job_id}"


@dataclass(frozen=True, slots=True)
class Job:
    """One search asked of the bot workers."""

    id: str
    level: str
    seed: str
    iterations: int
    deadline: float
    """``time.time()`` seconds at which the search must have answered."""
    view: SeatView

    def encode(self) -> bytes:
        return json.dumps({"id": self.id, "level": self.level, "seed": self.seed,
                           "iterations": self.iterations, "deadline": self.deadline,
                           "view": self.view.to_json()}, separators=(",", ":")).encode()

    @classmethod
    def decode(cls, data: bytes | str, now: float) -> Job:
        """A job read from the stream; ``ValueError`` for anything but a well-formed search
        of a searching level, a deadline at most :data:`MAX_BUDGET` ahead of ``now`` and a
        view with a legal play."""
        try:
            raw = json.loads(data)
            if not isinstance(raw, dict):
                raise ValueError("not a JSON object")
            job_id, level, seed = raw["id"], raw["level"], raw["seed"]
            iterations, deadline = raw["iterations"], raw["deadline"]
            if not (isinstance(job_id, str) and _JOB_ID.fullmatch(job_id)):
                raise ValueError("bad id")
            if not (isinstance(level, str) and (level == ANALYSIS or (level in LEVELS
                    and issubclass(LEVELS[level], SearchBot)))):
                raise ValueError(f"not a searching level: {level!r}")
            if not isinstance(seed, str):
                raise ValueError("bad seed")
            if type(iterations) is not int or iterations < 1:
                raise ValueError("bad iterations")
            if (type(deadline) not in (int, float) or not math.isfinite(deadline)
                    or deadline > now + MAX_BUDGET):
                raise ValueError("bad deadline")
            seen = view_from_json(raw["view"])
        except (KeyError, TypeError) as exc:
            raise ValueError(f"missing or malformed field {exc}") from None
        if not seen.legal:
            raise ValueError("a view with no legal play")
        return cls(job_id, level, seed, iterations, float(deadline), seen)


def budget_at(deadline: float, now: float) -> float | None:
    """What a worker taking a job at ``now`` searches for: what is left before the deadline,
    at the least :data:`~.bot_pool.LEAST_BUDGET`; None (drop it) past the deadline by more
    than :data:`GRACE`, when the server no longer waits."""
    if now - deadline > GRACE:
        return None
    return max(deadline - now, LEAST_BUDGET)


def encode_values(values: Values) -> bytes:
    """An analysis job's answer: every legal play with its value."""
    return json.dumps([[play.to_json(), value] for play, value in values],
                      separators=(",", ":")).encode()


def decode_values(data: bytes | str, view: SeatView) -> Values:
    """An analysis job's answer read back; ``ValueError`` unless it values exactly
    ``view``'s legal plays."""
    try:
        out = [(Play(parse_card(str(raw["card"])),
                     parse_card_set(str(c) for c in raw["take"])), float(value))
               for raw, value in json.loads(data)]
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"not an analysis: {exc}") from None
    if sorted(p for p, _ in out) != sorted(view.legal):
        raise ValueError("an analysis that does not value the legal plays")
    return out


def encode_play(play: Play) -> bytes:
    return json.dumps(play.to_json(), separators=(",", ":")).encode()


def decode_play(data: bytes | str, view: SeatView) -> Play:
    """An answer read back; ``ValueError`` unless it is one of ``view``'s legal plays."""
    try:
        raw = json.loads(data)
        play = Play(parse_card(str(raw["card"])), parse_card_set(str(c) for c in raw["take"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"not a play: {exc}") from None
    if play not in view.legal:
        raise ValueError(f"{play} is not a legal play")
    return play


class RedisBots(BotPool):
    """Searches asked of the bot workers through Redis (and, with ``local_workers``, this
    node's own worker processes among them).

    A :class:`~.bot_pool.BotPool` (what a table's thinking holds) whose searches go through
    Redis: its local process pool is never started. Used from one event loop."""

    def __init__(self, redis_url: str, *, prefix: str = PREFIX, local_workers: int = 0,
                 log_level: str | None = None) -> None:
        super().__init__(1)
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
            from basra.bot_worker import Workers  # noqa: PLC0415 (it imports this module)

            self.local = Workers(self.url, self.keys.prefix, self.workers,
                                 log_level=self.log_level or _level_name())
            self.local.start_in_thread()

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
        bot workers as a job of level :data:`ANALYSIS`; ``RuntimeError`` when none
        answers within :data:`MAX_BUDGET` seconds."""
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


def _level_name() -> str:
    """The ``basra`` logger's level as :func:`basra.server.logs.setup_logging` takes it."""
    level = logging.getLogger("basra").getEffectiveLevel()
    for name in ("debug", "info", "warning", "error"):
        if level <= getattr(logging, name.upper()):
            return name
    return "error"


__all__ = ["GRACE", "GROUP", "PREFIX", "Job", "Keys", "RedisBots", "budget_at", "decode_play",
           "encode_play"]
