"""``GET /api/live``: the matches being played now (:mod:`basra.server.live`), newest or
best-rated first; this node's own, or in cluster mode every node's."""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter, Query

from basra.server.deps import LobbyDep
from basra.server.errors import ApiError
from basra.server.live import ORDERS, live_summaries, ordered

router = APIRouter()

FRESH_SECONDS = 1.0
"""How long one list is answered again (a list costs a pass over the live tables)."""

_last: tuple[float, list[dict[str, Any]]] | None = None


@router.get("/api/live")
async def live(lobby: LobbyDep, order: str = Query("newest", max_length=10)) -> dict[str, Any]:
    global _last  # noqa: PLW0603 (one cache for the process)
    if order not in ORDERS:
        raise ApiError("order must be newest or rating", "request/invalid")
    now = time.monotonic()
    if _last is None or now - _last[0] > FRESH_SECONDS:
        if lobby.cluster is not None:
            matches = await lobby.cluster.live_matches()
        else:
            matches = live_summaries(lobby.tables.values())
        _last = (now, matches)
    return {"matches": ordered(_last[1], order)}


__all__ = ["router"]
