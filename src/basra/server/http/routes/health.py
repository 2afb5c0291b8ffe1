"""Probes: ``GET /health`` (alive, and what the process holds) and ``GET /ready`` (the
database and, in cluster mode, Redis answer)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from redis.asyncio import Redis
from redis.exceptions import RedisError

from basra import __version__
from basra.server.http.deps import services
from basra.store.ports import Store

router = APIRouter()

REDIS_TIMEOUT = 1.0
"""Seconds Redis has to answer the readiness probe's ping."""


@router.get("/health")
async def health(request: Request) -> dict[str, Any]:
    """Alive, with what the process holds in memory now."""
    held = services(request)
    lobby = held.lobby
    memory = {"tables": lobby.statuses().total() if lobby else 0,
              "tickets": lobby.pools.held() if lobby else 0,
              "sockets": sum(held.guards.sockets.open.values()),
              "evicted": lobby.evicted if lobby else 0,
              "kept": len(lobby.stored.kept) if lobby else 0,
              "rebuilt": lobby.stored.builds if lobby else 0}
    return {"status": "ok", "version": __version__, "memory": memory}


async def database_up(store: Store | None) -> bool:
    return store is not None and await store.ping()


async def redis_up(redis: Redis | None) -> bool | None:
    """Whether Redis answers a ping within :data:`REDIS_TIMEOUT`; None without Redis."""
    if redis is None:
        return None
    try:
        async with asyncio.timeout(REDIS_TIMEOUT):
            return bool(await redis.ping())
    except (RedisError, OSError, TimeoutError):
        return False


@router.get("/ready")
async def ready(request: Request) -> JSONResponse:
    """Ready when the database answers, and Redis too in cluster mode (both asked at
    once); 503 when either does not."""
    held = services(request)
    database, redis = await asyncio.gather(database_up(held.store), redis_up(held.redis))
    ok = database and redis is not False
    return JSONResponse({"ready": ok, "database": database, "redis": redis},
                        200 if ok else 503)
