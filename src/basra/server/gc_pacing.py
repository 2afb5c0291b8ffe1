"""The cyclic garbage collector, paced for a server holding thousands of live tables.

CPython's full collection walks every tracked object: with 2,000 live matches a process
holds over half a million of them (each socket's coroutines, tasks and buffers, each
table's match), and a full collection stops the event loop for 100 to 600 ms, several
times a minute: that was the 99th percentile of a play's answer (docs/BENCHMARKS.md).

So ``basra serve`` freezes what survives (``gc.freeze``, every ``freeze_seconds``): frozen
objects are never walked again, so the collections that still run see only what is new
and take a few milliseconds. Memory is still freed as ever by reference counting; only
garbage in reference cycles among frozen objects waits, until the full pass
(``gc.unfreeze`` then one full collection) frees it. The full pass is paced by its own
cost, as it would be now (the last pass's time, grown as the objects have grown since): a
pass that would take under ``cheap_seconds`` (50 ms: a process with few live tables) comes
again every ``least_seconds`` (20 s), so garbage never waits long; a dearer one
after ``1 / cost_share`` times as long as it took (1,000 times: a 0.3 s pass every 5
minutes; the 0.6-1 s pass of 2,000 live tables every 10 minutes, ``full_seconds``, as
before: near its limit a loaded server takes seconds to catch up after such a pause, so
it must stay rare), and sooner once the process has grown
``full_growth_bytes`` (or a quarter of its size, if more) since the last one. Growth is
not always garbage: a burst of new tables (a tournament's start) grows the process with
live objects, and a pass then frees next to nothing while it stops the loop for 100-300 ms,
again and again as the burst goes on (at 2,000 live tables a pass takes half a second).
So after a pass that freed less than ``live_share`` (1%) of what it walked, growth brings
no pass: the next comes when its time does, as its cost paced it (and so from the start,
until a pass has found garbage). And a pass that is due waits while the loop is busy (the
pacer's own wake-up is over 20 ms late: a burst is on) for up to a minute. What waits
in cycles is then a few seconds' garbage (closed connections, mostly: their buffers are
held with them), and a long-running process's memory stays flat (docs/BENCHMARKS.md,
"Memory over 10,000 matches"): a pass only after the process had grown 48 MB let it climb,
as freed garbage is seldom given back to the system whole.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import math
import os
import signal
import sys
import time
import tracemalloc
from collections import Counter
from pathlib import Path

log = logging.getLogger("basra.gc")


def resident_bytes() -> int:
    """The process's resident memory (Linux ``/proc/self/statm``; 0 elsewhere)."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


class GcPacer:
    """Freezes survivors every ``freeze_seconds``; a full pass paced by its cost (at most
    ``cost_share`` of the time, at least every ``full_seconds``)."""

    def __init__(self, freeze_seconds: float = 1.0, full_seconds: float = 600.0,  # noqa: PLR0913
                 full_growth_bytes: int = 16 * 2**20, cost_share: float = 0.001,
                 least_seconds: float = 20.0, cheap_seconds: float = 0.05,
                 live_share: float = 0.01, busy_seconds: float = 0.02,
                 busy_wait_seconds: float = 60.0) -> None:
        self.freeze_seconds = freeze_seconds
        self.full_seconds = full_seconds
        self.cost_share = cost_share
        """The share of the time full passes may take: the next comes ``1 / cost_share``
        times the last one's duration later."""
        self.least_seconds = least_seconds
        """Full passes never come closer together than this (unless the growth says)."""
        self.cheap_seconds = cheap_seconds
        """A pass quicker than this comes again every ``least_seconds``."""
        self.interval = least_seconds
        """How long until the next full pass, from the last one's cost."""
        self.full_growth_bytes = full_growth_bytes
        """A full pass comes sooner once the process has grown this much since the last
        one (garbage in cycles, frozen, waits for it: this bounds it)."""
        self.live_share = live_share
        """A pass that freed less than this share of what it walked found the growth
        live: the next one comes at its time, not on growth."""
        self.grew_live = True
        """Whether the last pass freed next to nothing (see :meth:`growth_limit`); until a
        pass says otherwise, growth is taken for live tables."""
        self.busy_seconds = busy_seconds
        self.busy_wait_seconds = busy_wait_seconds
        """A pass that is due waits while the loop is busy (its own wake-up is over
        ``busy_seconds`` late), for ``busy_wait_seconds`` at most."""
        self.rss_after_full = resident_bytes()
        self.task: asyncio.Task[None] | None = None
        self.full_passes = 0
        self.last_at = time.monotonic()
        """When the last full pass ended."""
        self.last_took = 0.0
        self.last_walked = 1
        self.last_blocks = sys.getallocatedblocks()
        """How long the last pass took, how many objects it walked (counted once, after the
        pass) and how many blocks the allocator held then: a pass costs about as much per
        block as the last, so the next one's cost is known before it starts
        (:meth:`predicted_seconds`)."""

    def start(self) -> None:
        started = time.perf_counter()
        gc.collect()
        gc.freeze()
        self._passed(time.perf_counter() - started, 0)
        log.info("garbage collection paced: %d objects frozen in %.0f ms (%d blocks, %.0f MB)",
                 self.last_walked, self.last_took * 1000, self.last_blocks,
                 self.rss_after_full / 2**20)
        self.task = asyncio.create_task(self._run(), name="gc pacing")

    def predicted_seconds(self, blocks: int | None = None) -> float:
        """What a full pass would take now: the last one's time, grown as the objects have
        grown since, as the interpreter's allocator counts its blocks (``blocks`` if read
        already: ``sys.getallocatedblocks``, under a millisecond at 2,000 live tables).
        Counting the objects themselves is a walk of them all: CPython's
        ``gc.get_freeze_count`` follows the frozen list one by one, 90 ms at 2,000 live
        tables; asked every second it was 14% of a loaded server's CPU and a 90 ms stop of
        the loop every second (docs/BENCHMARKS.md). The process's resident memory grows
        more slowly than its objects: foretold by it, the 0.8 s pass of 2,000 tables came
        under two minutes after the start's, not ten."""
        now = sys.getallocatedblocks() if blocks is None else blocks
        return self.last_took * max(1.0, now / max(1, self.last_blocks))

    async def _run(self) -> None:
        waited = 0.0
        while True:
            asleep = time.monotonic()
            await asyncio.sleep(self.freeze_seconds)
            late = time.monotonic() - asleep - self.freeze_seconds
            grown = resident_bytes() - self.rss_after_full
            # paced by what the pass would cost now: a process that has grown from a few
            # tables to thousands since the last, cheap, pass is not stopped for a second
            # on the old, short, schedule
            self.interval = self.next_interval(self.predicted_seconds())
            due = (time.monotonic() >= self.last_at + self.interval
                   or grown >= self.growth_limit())
            if due and late > self.busy_seconds and waited < self.busy_wait_seconds:
                waited += self.freeze_seconds  # the loop is busy: not now
                gc.freeze()
            elif due:
                self.full_pass()
                waited = 0.0
            else:
                gc.freeze()

    def next_interval(self, took: float) -> float:
        """How long after a full pass that took ``took`` seconds the next one comes.

        >>> pacer = GcPacer()
        >>> pacer.next_interval(0.01), pacer.next_interval(0.04), pacer.next_interval(0.3)
        (20.0, 20.0, 300.0)
        >>> pacer.next_interval(0.8)
        600.0
        """
        if took < self.cheap_seconds:
            return self.least_seconds
        return min(self.full_seconds, max(self.least_seconds, took / self.cost_share))

    def growth_limit(self) -> int | float:
        """How much the process may grow before a full pass: ``full_growth_bytes``, or a
        quarter of its size after the last pass if more (so that a process that grows
        because it holds more live tables is not walked over and over); no limit if the
        last pass freed next to nothing (:attr:`grew_live`)."""
        if self.grew_live:
            return math.inf
        return max(self.full_growth_bytes, self.rss_after_full // 4)

    def full_pass(self) -> None:
        started = time.perf_counter()
        gc.unfreeze()
        freed = gc.collect()
        gc.freeze()
        took = time.perf_counter() - started
        self._passed(took, freed)
        self.grew_live = freed < self.live_share * self.last_walked
        self.full_passes += 1
        log.info("full garbage collection: %d objects freed of %d in %.0f ms (%d blocks, "
                 "%.0f MB); the next in %.0f s", freed, self.last_walked, took * 1000,
                 self.last_blocks, self.rss_after_full / 2**20, self.interval)

    def _passed(self, took: float, freed: int) -> None:
        self.last_at, self.last_took = time.monotonic(), took
        self.last_walked = freed + gc.get_freeze_count()
        self.last_blocks = sys.getallocatedblocks()
        self.rss_after_full = resident_bytes()
        self.interval = self.next_interval(took)

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None
        gc.unfreeze()


def snapshots_on_signal(directory: str) -> None:
    """Memory snapshots on demand, for finding what a long-running server holds: with
    ``BASRA_TRACEMALLOC_DIR`` set, ``basra serve`` traces allocations (``tracemalloc``,
    ten frames) and, on each ``SIGUSR2``, collects all garbage (frozen too), counting what
    was in reference cycles by type (``DIRECTORY/garbage-N.json``), and writes a snapshot
    to ``DIRECTORY/snapshot-N.tracemalloc`` (``benchmarks/memory.py --trace`` compares
    them by file and line). Tracing costs memory and time: never in production."""
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    tracemalloc.start(10)
    taken = 0

    def take(_signum: int, _frame: object) -> None:
        nonlocal taken
        gc.unfreeze()
        # What waited for the cycle collector, by type: kept aside for a moment and counted
        # (``garbage-N.json``), then freed.
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        found = Counter(f"{type(o).__module__}.{type(o).__qualname__}" for o in gc.garbage)
        gc.garbage.clear()
        gc.set_debug(0)
        gc.collect()
        gc.freeze()
        (folder / f"garbage-{taken}.json").write_text(json.dumps(found.most_common(60)))
        path = folder / f"snapshot-{taken}.tracemalloc"
        tracemalloc.take_snapshot().dump(str(path.with_suffix(".part")))
        os.replace(path.with_suffix(".part"), path)  # whole, or not there yet
        taken += 1
        log.warning("memory snapshot %d written to %s", taken - 1, folder)

    signal.signal(signal.SIGUSR2, take)
