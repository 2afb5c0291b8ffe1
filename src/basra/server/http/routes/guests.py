"""Guests: ``POST /api/guests`` (a nickname in, or none for a generated one; a session
token out), ``GET /api/me`` (who the player is: account, passkeys, ratings) and
``PATCH /api/me`` (a new nickname)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from basra.server.fairplay.moderation import RENAMED
from basra.server.http.deps import FairPlayDep, Player, StoreDep, get_guards, limit, me_out
from basra.server.identity.guests import clean_nickname, new_token, token_hash
from basra.server.identity.names import friendly_name
from basra.server.ids import new_id
from basra.server.wire.errors import ApiError
from basra.store.base import StandingChange

router = APIRouter()


class GuestIn(BaseModel):
    nickname: str | None = Field(default=None, max_length=200)
    """None (or absent): a friendly generated name (one tap to play)..."""
    language: str | None = Field(default=None, max_length=16)
    """...in this language (``en``, ``ar``, ``fr``, ``sr``; English otherwise)."""


class RenameIn(BaseModel):
    nickname: str = Field(max_length=200)


@router.post("/api/guests", status_code=201)
async def guest(request: Request, store: StoreDep, fairplay: FairPlayDep,
                body: GuestIn | None = None) -> dict[str, Any]:
    raw = body.nickname if body is not None else None
    # A NicknameError answers 422 as it is.
    nickname = (friendly_name(body.language if body is not None else None) if raw is None
                else clean_nickname(raw))
    limit(request, "guests")  # first: a refused name costs a guest's share too
    if raw is not None:
        await fairplay.check_name(nickname)
    token = new_token()
    player = await store.create_player(new_id(), nickname, token_hash(token))
    get_guards(request).touches.fresh(token_hash(token))
    return {"token": token, "player": {"id": player.id, "nickname": player.nickname}}


@router.get("/api/me")
async def me(request: Request, player: Player) -> dict[str, Any]:
    return await me_out(request, player)


@router.patch("/api/me")
async def rename(body: RenameIn, request: Request, player: Player, store: StoreDep,
                 fairplay: FairPlayDep) -> dict[str, Any]:
    """A new nickname: shown at every table the player sits down at from now on (a table
    already seated keeps the name its match record was begun with)."""
    nickname = clean_nickname(body.nickname)
    if nickname.casefold().startswith(RENAMED):
        raise ApiError("choose a name of your own", "report/bad")
    await fairplay.check_name(nickname)
    await store.rename_player(player.id, nickname)
    if not player.account and (await store.standing(player.id)).rename:
        await store.change_standing(player.id, StandingChange(rename=False))
    renamed = replace(player, nickname=nickname)
    return await me_out(request, renamed)
