"""Guests: ``POST /api/guests`` (a nickname in, a session token out) and ``GET /api/me``."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from basra.server.auth import clean_nickname, new_id, new_token, token_hash
from basra.server.deps import Player, StoreDep, limit

router = APIRouter()


class GuestIn(BaseModel):
    nickname: str = Field(max_length=200)


@router.post("/api/guests", status_code=201)
async def guest(body: GuestIn, request: Request, store: StoreDep) -> dict[str, Any]:
    nickname = clean_nickname(body.nickname)  # a NicknameError answers 422 as it is
    limit(request, "guests")
    token = new_token()
    player = await store.create_player(new_id(), nickname, token_hash(token))
    return {"token": token, "player": {"id": player.id, "nickname": player.nickname}}


@router.get("/api/me")
async def me(player: Player) -> dict[str, Any]:
    return {"id": player.id, "nickname": player.nickname}
