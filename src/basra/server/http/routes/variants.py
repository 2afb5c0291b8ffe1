"""``GET /api/variants``: the rule book as data (every variant, seatings, targets, card
points, bots, limits), from :func:`basra.game.rulebook.variants_json`, the nickname bounds and
the password's."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from basra.bots import LEVELS
from basra.game.rulebook import variants_json
from basra.server.http.deps import get_settings
from basra.server.identity.accounts import PASSWORD_MAX, PASSWORD_MIN
from basra.server.identity.guests import NICKNAME_MAX, NICKNAME_MIN
from basra.server.wire import sayings

router = APIRouter()


@router.get("/api/variants")
async def variants(request: Request) -> dict[str, Any]:
    book = variants_json(LEVELS)
    limits = book["limits"]
    assert isinstance(limits, dict)
    limits.update(nickname_min=NICKNAME_MIN, nickname_max=NICKNAME_MAX,
                  password_min=PASSWORD_MIN, password_max=PASSWORD_MAX,
                  sayings_per_match=sayings.PER_MATCH,
                  saying_gap_ms=round(get_settings(request).saying_gap_seconds * 1000),
                  phrases=list(sayings.PHRASES), reactions=list(sayings.REACTIONS))
    return book
