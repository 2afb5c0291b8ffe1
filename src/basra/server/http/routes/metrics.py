"""``GET /metrics``: this node's metrics in Prometheus's text format
(:mod:`basra.server.metrics`; docs/DEPLOY.md has a scrape config)."""

from __future__ import annotations

from collections import Counter

from fastapi import APIRouter, Request
from fastapi.responses import Response

from basra.server import metrics
from basra.server.http.deps import services

router = APIRouter()


@router.get("/metrics", include_in_schema=False)
async def scrape(request: Request) -> Response:
    held = services(request)
    lobby = held.lobby
    tables: Counter[str] = lobby.statuses() if lobby else Counter()
    now = metrics.Held(tables, sum(held.guards.sockets.open.values()),
                       lobby.pools.held() if lobby else 0)
    return Response(metrics.scrape(now), media_type=metrics.CONTENT_TYPE)
