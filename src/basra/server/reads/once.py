"""One computation per key, however many ask for it at once (what lila calls a "sync
cache"): the first asker runs it; anyone who asks for the same key meanwhile waits for that
answer (or its error) instead of running it again. Nothing is kept once it is answered:
keeping is the caller's (:mod:`basra.server.reads.replays`, :mod:`basra.server.reads.stored`)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Once(Generic[K, V]):
    def __init__(self) -> None:
        self.running: dict[K, asyncio.Future[V]] = {}

    async def run(self, key: K, make: Callable[[], Awaitable[V]]) -> V:
        """``make()``'s answer for ``key``, shared with whoever asks while it runs."""
        pending = self.running.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[V] = asyncio.get_running_loop().create_future()
        self.running[key] = future
        try:
            value = await make()
        except BaseException as exc:
            if isinstance(exc, asyncio.CancelledError):
                future.cancel()
            else:
                future.set_exception(exc)
                future.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            self.running.pop(key, None)
        future.set_result(value)
        return value


__all__ = ["Once"]
