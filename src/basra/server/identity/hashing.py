"""Password hashing shared fairly (issue 25, item 5).

An argon2id check costs tens of milliseconds of a core, on purpose. Sign-ins, account
creations and password changes share :class:`Hashing`: a bounded number of checks waiting
per address and in all (one more is refused at once with ``auth/busy`` and a
``Retry-After``, costing nothing), taken address by address, the one served longest ago
first, so that one address sending many sign-ins waits behind everyone else's, never in
front of them.
The work runs in worker threads (argon2-cffi lets go of the interpreter while it hashes).
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from basra.server.wire.errors import RateLimited

T = TypeVar("T")

PER_ADDRESS = 4
"""Checks one address may have waiting or running at once."""
WAITING = 32
"""Checks waiting or running in all."""


class Hashing:
    def __init__(self, workers: int = 1, per_address: int = PER_ADDRESS,
                 most: int = WAITING) -> None:
        self.workers = max(1, workers)
        self.per_address = per_address
        self.most = most
        self.queues: dict[str, deque[tuple[Callable[[], Any], asyncio.Future[Any]]]] = {}
        """Waiting work by address."""
        self.held: dict[str, int] = {}
        """Work waiting or running, by address."""
        self.served: dict[str, float] = {}
        """When each address's work last started."""
        self.running = 0
        self.executor = ThreadPoolExecutor(self.workers, thread_name_prefix="argon2")
        self.refused = 0

    def __len__(self) -> int:
        return sum(self.held.values())

    async def run(self, address: str, work: Callable[[], T]) -> T:
        """``work()``'s answer, computed in a worker thread in this address's turn; an
        ``auth/busy`` refusal when the address, or everyone, has too much waiting."""
        if self.held.get(address, 0) >= self.per_address or len(self) >= self.most:
            self.refused += 1
            raise RateLimited("the server is busy checking passwords: try again in a moment",
                              2, "auth/busy")
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self.queues.setdefault(address, deque()).append((work, future))
        self.held[address] = self.held.get(address, 0) + 1
        self._start()
        try:
            return await asyncio.shield(future)
        finally:
            left = self.held.get(address, 1) - 1
            if left > 0:
                self.held[address] = left
            else:
                self.held.pop(address, None)

    def _start(self) -> None:
        while self.running < self.workers and self.queues:
            # The address served longest ago (or never) goes next.
            address = min(self.queues, key=lambda a: self.served.get(a, -1.0))
            waiting = self.queues[address]
            work, future = waiting.popleft()
            if not waiting:
                del self.queues[address]
            self.served[address] = time.monotonic()
            if len(self.served) > 4 * self.most:  # only the recent ones matter
                for old in [a for a in self.served if a not in self.held]:
                    del self.served[old]
            if future.cancelled():
                continue
            self.running += 1
            task = asyncio.get_running_loop().run_in_executor(self.executor, work)
            task.add_done_callback(functools.partial(self._done, future))

    def _done(self, future: asyncio.Future[Any], done: asyncio.Future[Any]) -> None:
        self.running -= 1
        if not future.done():
            if done.cancelled():
                future.cancel()
            elif done.exception() is not None:
                future.set_exception(done.exception())  # type: ignore[arg-type]
            else:
                future.set_result(done.result())
        self._start()


__all__ = ["PER_ADDRESS", "WAITING", "Hashing"]
