"""Which :class:`~.service.BotService` a server runs, from plain values (the server passes
its settings' ``redis_url``, ``redis_prefix`` and ``bot_workers``)."""

from __future__ import annotations

import os

from basra.workers.jobs import PREFIX
from basra.workers.local import LocalPool
from basra.workers.redis_bots import RedisBots


def bot_service(redis_url: str | None, *, prefix: str = PREFIX,
                workers: int | None = None) -> LocalPool | RedisBots:
    """Where a server's searching bots think: with ``redis_url``, bot workers through Redis
    under the site's ``prefix`` (the node running ``workers`` of them itself, see
    :mod:`~.redis_bots`); else this process's own pool of ``workers`` worker processes.
    ``workers`` None: one per core."""
    if redis_url is None:
        return LocalPool(workers)
    local = workers if workers is not None else os.cpu_count() or 1
    return RedisBots(redis_url, prefix=prefix, local_workers=local)


__all__ = ["bot_service"]
