"""``GET /metrics``: this node's metrics in Prometheus's text format
(:mod:`basra.server.metrics`; docs/DEPLOY.md has a scrape config)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from basra.server import metrics
from basra.server.deps import services

router = APIRouter()


@router.get("/metrics", include_in_schema=False)
async def scrape(request: Request) -> Response:
    return Response(metrics.scrape(services(request)), media_type=metrics.CONTENT_TYPE)
