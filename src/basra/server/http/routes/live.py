"""``GET /api/live``: the matches being played now (:mod:`basra.server.reads.live`), newest or
best-rated first, of the whole site (:meth:`basra.server.lobby.tables.Lobby.live_matches`)."""

from __future__ import annotations

import time

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from basra.server.http.deps import LobbyDep, get_guards
from basra.server.reads.live import ORDERS, ordered
from basra.server.wire.errors import ApiError
from basra.server.wire.server_messages import dumps

router = APIRouter()

FRESH_SECONDS = 1.0
"""How long one list is answered again (a list costs a pass over the live tables)."""


@router.get("/api/live")
async def live(request: Request, lobby: LobbyDep,
               order: str = Query("newest", max_length=10)) -> Response:
    """The live matches (limited per address as profiles are; a page polls it every few
    seconds, well within)."""
    get_guards(request).views.check(request.scope)
    if order not in ORDERS:
        raise ApiError("order must be newest or rating", "request/invalid")
    now = time.monotonic()
    kept = lobby.live_list
    if kept is None or now - kept[0] > FRESH_SECONDS:
        matches = await lobby.live_matches()
        kept = lobby.live_list = (now, {o: dumps({"matches": ordered(matches, o)})
                                        for o in ORDERS})
    return Response(kept[1][order], media_type="application/json")


__all__ = ["router"]
