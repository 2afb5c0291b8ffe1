"""The cyclic garbage collector, paced for a server holding thousands of live tables.

CPython's full collection walks every tracked object: with 2,000 live matches a process
holds over half a million of them (each socket's coroutines, tasks and buffers, each
table's match), and a full collection stops the event loop for 100 to 600 ms, several
times a minute: that was the 99th percentile of a play's answer (docs/BENCHMARKS.md).

So ``basra serve`` freezes what survives (``gc.freeze``, every ``freeze_seconds``): frozen
objects are never walked again, so the collections that still run see only what is new
and take a few milliseconds. Memory is still freed as ever by reference counting; only
garbage in reference cycles among frozen objects waits, until the full pass every
``full_seconds`` (``gc.unfreeze`` then one full collection) frees it.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time

log = logging.getLogger("basra.gc")


class GcPacer:
    """Freezes survivors every ``freeze_seconds``; a full pass every ``full_seconds``."""

    def __init__(self, freeze_seconds: float = 1.0, full_seconds: float = 600.0) -> None:
        self.freeze_seconds = freeze_seconds
        self.full_seconds = full_seconds
        self.task: asyncio.Task[None] | None = None
        self.full_passes = 0

    def start(self) -> None:
        gc.collect()
        gc.freeze()
        self.task = asyncio.create_task(self._run(), name="gc pacing")

    async def _run(self) -> None:
        full_at = time.monotonic() + self.full_seconds
        while True:
            await asyncio.sleep(self.freeze_seconds)
            if time.monotonic() >= full_at:
                self.full_pass()
                full_at = time.monotonic() + self.full_seconds
            else:
                gc.freeze()

    def full_pass(self) -> None:
        started = time.perf_counter()
        gc.unfreeze()
        freed = gc.collect()
        gc.freeze()
        self.full_passes += 1
        log.info("full garbage collection: %d objects freed in %.0f ms", freed,
                 (time.perf_counter() - started) * 1000)

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None
        gc.unfreeze()
