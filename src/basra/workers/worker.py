"""``basra bot-worker``: take searching bots' decisions from Redis and answer them.

``basra bot-worker --redis URL [--processes N]`` runs N worker processes (default one per
core), each a plain loop on the blocking Redis client: read a job from the site's jobs stream
(consumer group ``workers``, :mod:`basra.workers.jobs` describes the keys and the job),
search it with :func:`basra.workers.service.search` for what is left of its time, push the
answer and acknowledge the job in one transaction. Any number of bot workers, on any machine,
share the work; a server node in cluster mode runs some of its own too.

A worker process that dies (killed, out of memory) is replaced by its parent under the same
consumer name, and the replacement takes back the job it left half-searched. SIGTERM or
SIGINT stops the command cleanly: each worker ends the search under way, answers it and
leaves the group. An unreachable Redis at start is a one-line error, exit status 2; once
running, a worker waits for Redis to come back.
"""

from __future__ import annotations

import argparse
import logging
import os
import secrets
import signal
import socket
import threading
import time
from collections.abc import Callable, Sequence
from multiprocessing import get_context
from multiprocessing.connection import wait
from multiprocessing.process import BaseProcess
from types import FrameType
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import redis
from redis.exceptions import RedisError, ResponseError

from basra.cliargs import OneLineParser, parse_or_status, whole_number
from basra.logs import setup_logging
from basra.match.analysis import play_values
from basra.procs import watch_parent
from basra.workers.jobs import (
    ANALYSIS,
    CONNECT_TIMEOUT,
    GROUP,
    PREFIX,
    REPLY_TTL,
    STALE_SECONDS,
    Job,
    Keys,
    budget_at,
    encode_play,
    encode_values,
)
from basra.workers.service import search

log = logging.getLogger("basra.bot_worker")

BLOCK_SECONDS = 1.0
"""How long a worker's read waits for a job before it looks whether it should stop."""
SWEEP_SECONDS = 10.0
"""How often an idle worker looks for jobs and consumers that gone workers left."""
RESPAWN_PAUSE = 1.0
"""A worker that dies is replaced no sooner than this after it started (no tight loop)."""
STOP_SECONDS = 10.0
"""How long a stop waits for the workers to end their searches before killing them."""


def ensure_group(client: redis.Redis, keys: Keys) -> None:
    """The jobs stream and its consumer group, made if missing (jobs queued before the
    first worker came are read too)."""
    try:
        client.xgroup_create(keys.jobs, GROUP, id="0", mkstream=True)
    except ResponseError as exc:
        if "BUSYGROUP" not in str(exc):
            raise


class Worker:
    """One worker process's loop: take a job, search, answer, acknowledge."""

    def __init__(self, client: redis.Redis, keys: Keys, name: str) -> None:
        self.client = client
        self.keys = keys
        self.name = name
        self.answered = 0

    def run(self, stopping: Callable[[], bool]) -> None:
        """Take jobs until ``stopping()``: first the jobs this consumer name took and did
        not acknowledge (a worker of the name died mid-search), then new ones."""
        backlog, ready, down = True, False, False
        sweep_at = time.monotonic() + SWEEP_SECONDS
        while not stopping():
            try:
                if not ready:
                    ensure_group(self.client, self.keys)
                    ready = True
                entries = self._read(backlog)
                if down:
                    log.info("bot worker %s: Redis answers again", self.name)
                    down = False
                if backlog and not entries:
                    backlog = False
                for entry_id, fields in entries:
                    self.take(entry_id, fields)
                if not entries and time.monotonic() >= sweep_at:
                    self.sweep()
                    sweep_at = time.monotonic() + SWEEP_SECONDS
            except RedisError as exc:
                if isinstance(exc, ResponseError) and "NOGROUP" in str(exc):
                    ready = False  # the stream was deleted: make it again
                    continue
                if not down:
                    log.warning("bot worker %s: Redis: %s (trying again)", self.name,
                                " ".join(str(exc).split()))
                    down = True
                backlog = True  # a job taken but not answered: look at it again
                time.sleep(BLOCK_SECONDS)
        self.leave()

    def _read(self, backlog: bool) -> list[tuple[bytes, dict[bytes, bytes]]]:
        got: Any = self.client.xreadgroup(
            GROUP, self.name, {self.keys.jobs: "0" if backlog else ">"}, count=1,
            block=None if backlog else int(BLOCK_SECONDS * 1000))
        return list(got[0][1]) if got else []

    def take(self, entry_id: bytes, fields: dict[bytes, bytes]) -> None:
        """Answer one job (or drop it: withdrawn, malformed, or far past its deadline)."""
        data = fields.get(b"job")
        if data is None:  # withdrawn by the server, or trimmed
            self._done(entry_id)
            return
        now = time.time()
        try:
            job = Job.decode(data, now)
        except ValueError as exc:
            log.warning("bot worker %s: a malformed job is dropped: %s", self.name, exc)
            self._done(entry_id)
            return
        budget = budget_at(job.deadline, now)
        if budget is None:
            log.info("bot worker %s: a job %.1f s past its deadline is dropped", self.name,
                     now - job.deadline)
            self._done(entry_id)
            return
        try:
            if job.level == ANALYSIS:
                answer = encode_values(play_values(job.view, job.seed, job.iterations))
            else:
                answer = encode_play(search(job.level, job.seed, job.iterations, budget,
                                            job.view))
        except Exception:  # a bad view the checks let through: drop it, keep working
            log.exception("bot worker %s: a search failed; the job is dropped", self.name)
            self._done(entry_id)
            return
        reply = self.keys.reply(job.id)
        pipe = self.client.pipeline(transaction=True)
        pipe.rpush(reply, answer)
        pipe.expire(reply, REPLY_TTL)
        self._done(entry_id, pipe)
        self.answered += 1

    def _done(self, entry_id: bytes, pipe: Any = None) -> None:
        """Acknowledge and delete the job (with ``pipe``'s commands, in one transaction)."""
        pipe = self.client.pipeline(transaction=True) if pipe is None else pipe
        pipe.xack(self.keys.jobs, GROUP, entry_id)
        pipe.xdel(self.keys.jobs, entry_id)
        pipe.execute()

    def sweep(self) -> None:
        """Claim the jobs gone workers left pending (long past their deadline: dropped) and
        delete the consumers of gone workers."""
        stale = int(STALE_SECONDS * 1000)
        claimed: Any = self.client.xautoclaim(self.keys.jobs, GROUP, self.name, stale,
                                              "0-0", count=16)
        for entry_id, fields in claimed[1]:
            self.take(entry_id, fields)
        consumers: Any = self.client.xinfo_consumers(self.keys.jobs, GROUP)
        for consumer in consumers:
            name = consumer["name"]
            if (consumer["pending"] == 0 and consumer["idle"] > stale
                    and name != self.name.encode()):
                self.client.xgroup_delconsumer(self.keys.jobs, GROUP, name)

    def leave(self) -> None:
        """Leave the group on a clean stop (when nothing is pending under this name)."""
        try:
            pending: Any = self.client.xpending_range(self.keys.jobs, GROUP, "-", "+", 1,
                                                      consumername=self.name)
            if not pending:
                self.client.xgroup_delconsumer(self.keys.jobs, GROUP, self.name)
        except RedisError:
            pass


def work(url: str, prefix: str, name: str, parent: int, log_level: str) -> None:
    """A worker process: :class:`Worker` until SIGTERM (SIGINT is its parent's to
    handle), or until its parent is gone."""
    stop = threading.Event()

    def on_term(signum: int, frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, on_term)
    watch_parent(parent)
    setup_logging(log_level)
    client = redis.Redis.from_url(url, socket_connect_timeout=CONNECT_TIMEOUT,
                                  socket_timeout=BLOCK_SECONDS + 10)
    try:
        Worker(client, Keys(prefix), name).run(stop.is_set)
    finally:
        client.close()


class Workers:
    """``count`` worker processes taking jobs from Redis; one that dies is replaced under
    the same consumer name (``host:pid:token:slot``), until :meth:`stop`."""

    def __init__(self, url: str, prefix: str, count: int, *, log_level: str = "info") -> None:
        self.url = url
        self.prefix = prefix
        self.log_level = log_level
        token = secrets.token_hex(3)  # two sets of workers in one process never share names
        self.names = [f"{socket.gethostname()}:{os.getpid()}:{token}:{slot}"
                      for slot in range(count)]
        self.processes: list[BaseProcess | None] = [None] * count
        self._started = [0.0] * count
        self.replaced = 0
        """Workers replaced after they died."""
        self.stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._context = get_context("spawn")

    def _spawn(self, slot: int) -> None:
        process = self._context.Process(
            target=work, name=f"basra bot worker {slot}", daemon=True,
            args=(self.url, self.prefix, self.names[slot], os.getpid(), self.log_level))
        process.start()
        self.processes[slot] = process
        self._started[slot] = time.monotonic()

    def start(self) -> None:
        for slot in range(len(self.processes)):
            self._spawn(slot)

    def supervise(self) -> None:
        """Replace the workers that end, until :attr:`stopping` is set."""
        while not self.stopping.is_set():
            alive = [p.sentinel for p in self.processes if p is not None and p.is_alive()]
            if alive:
                wait(alive, timeout=0.25)
            else:
                time.sleep(0.25)
            for slot, process in enumerate(self.processes):
                if (process is None or process.is_alive() or self.stopping.is_set()
                        or time.monotonic() - self._started[slot] < RESPAWN_PAUSE):
                    continue
                log.warning("bot worker %s ended (exit status %s): it is replaced",
                            self.names[slot], process.exitcode)
                process.close()
                self._spawn(slot)
                self.replaced += 1

    def start_in_thread(self) -> None:
        """:meth:`start`, then :meth:`supervise` in a thread of this process."""
        self.start()
        self._thread = threading.Thread(target=self.supervise, name="bot workers",
                                        daemon=True)
        self._thread.start()

    def stop(self, timeout: float = STOP_SECONDS) -> None:
        """Ask every worker to stop (SIGTERM), wait for them to end their searches, kill
        those still running after ``timeout`` seconds."""
        self.stopping.set()
        if self._thread is not None:
            self._thread.join()
        processes = [p for p in self.processes if p is not None]
        for process in processes:
            if process.is_alive():
                process.terminate()
        end = time.monotonic() + timeout
        for process in processes:
            process.join(max(0.0, end - time.monotonic()))
            if process.is_alive():
                process.kill()
                process.join()
            process.close()
        self.processes = [None] * len(self.processes)


def redacted(url: str) -> str:
    """``url`` without its password, for messages."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rpartition("@")[2]
    user = f"{parts.username}:***@" if parts.username else ":***@"
    return urlunsplit(parts._replace(netloc=user + host))


def check_redis(url: str, keys: Keys) -> None:
    """Reach Redis and make the jobs stream's consumer group; raises ``RedisError``,
    ``OSError`` or ``ValueError`` (a bad URL)."""
    client = redis.Redis.from_url(url, socket_connect_timeout=CONNECT_TIMEOUT,
                                  socket_timeout=CONNECT_TIMEOUT)
    try:
        client.ping()
        ensure_group(client, keys)
    finally:
        client.close()


def build_parser() -> OneLineParser:
    parser = OneLineParser(prog="basra bot-worker",
                           description="Take searching bots' decisions from Redis and answer "
                                       "them (cluster mode).")
    parser.add_argument("--redis", metavar="URL", default=os.environ.get("BASRA_REDIS") or None,
                        required=not os.environ.get("BASRA_REDIS"),
                        help="the site's Redis, e.g. redis://host:6379/0 (default: "
                             "$BASRA_REDIS, which keeps a password out of ps)")
    parser.add_argument("--processes", type=whole_number(1), default=None, metavar="N",
                        help="worker processes (default: one per core)")
    parser.add_argument("--redis-prefix", default=PREFIX, metavar="TEXT",
                        help=f"where the site's keys start in Redis, as for basra serve "
                             f"(default {PREFIX})")
    parser.add_argument("--log-level", default="info",
                        choices=["debug", "info", "warning", "error"])
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``basra bot-worker``; returns the exit status (2: bad arguments, no Redis)."""
    parser = build_parser()
    args = parse_or_status(parser, argv)
    if isinstance(args, int):
        return args
    assert isinstance(args, argparse.Namespace)
    keys = Keys(args.redis_prefix)
    try:
        check_redis(args.redis, keys)
    except ValueError as exc:  # not a Redis URL
        return parser.complain(f"--redis: {exc}")
    except (RedisError, OSError) as exc:
        return parser.complain(f"cannot reach Redis at {redacted(args.redis)}: {exc}")
    setup_logging(args.log_level)
    workers = Workers(args.redis, args.redis_prefix, args.processes or os.cpu_count() or 1,
                      log_level=args.log_level)

    def on_signal(signum: int, frame: FrameType | None) -> None:
        workers.stopping.set()

    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, on_signal)
    workers.start()
    log.info("%d bot worker processes take jobs from %s", len(workers.names),
             redacted(args.redis))
    try:
        workers.supervise()
    finally:
        workers.stop()
    log.info("bot workers stopped")
    return 0


__all__ = ["Worker", "Workers", "build_parser", "main", "work"]
