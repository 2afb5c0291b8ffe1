"""Probes: ``GET /health`` (alive, and what the process holds) and ``GET /ready``."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from basra import __version__
from basra.server.deps import services

router = APIRouter()


@router.get("/health")
async def health(request: Request) -> dict[str, Any]:
    """Alive, with what the process holds in memory now."""
    held = services(request)
    lobby = held.lobby
    memory = {"tables": len(lobby.tables) if lobby else 0,
              "tickets": len(lobby.tickets) if lobby else 0,
              "sockets": sum(held.guards.sockets.open.values()),
              "evicted": lobby.evicted if lobby else 0}
    return {"status": "ok", "version": __version__, "memory": memory}


@router.get("/ready")
async def ready(request: Request) -> JSONResponse:
    store = services(request).store
    ok = store is not None and await store.ping()
    return JSONResponse({"ready": ok}, 200 if ok else 503)
