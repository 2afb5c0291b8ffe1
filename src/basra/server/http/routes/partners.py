"""Partners (issue 28): a player invites a partner to queue with them in a team pool; the
partner accepts (or declines) by the invite's link; the host's long poll hands them their
ticket, and both wait as one side."""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from basra.server.http.deps import LobbyDep, Player, SocialDep, limit
from basra.server.http.routes.quick_match import ticket_out
from basra.server.quick.pools import PARTNER_INVITE_SECONDS, PartnerInvite
from basra.server.social.challenges import Terms
from basra.server.wire.errors import ApiError
from basra.store.base import PlayerRow

router = APIRouter()


class PartnerIn(BaseModel):
    variant: str = Field(default="lebanese", max_length=40)
    players: int = Field(default=4, ge=2, le=4)
    teams: bool = True


def who(player: PlayerRow | None) -> dict[str, Any] | None:
    if player is None:
        return None
    return {"name": player.nickname, "username": player.username}


def invite_out(invite: PartnerInvite, status: str, viewer: PlayerRow) -> dict[str, Any]:
    mine = viewer.id == invite.host.id
    return {"invite": invite.code, "link": f"/partner/{invite.code}", "status": status,
            "host": who(invite.host), "partner": who(invite.partner), "yours": mine,
            "variant": invite.pool.variant, "players": invite.pool.players,
            "teams": invite.pool.teams, "pool": invite.pool.key,
            "ticket": invite.host_ticket if mine else None,
            "expires_in": max(0, round(invite.created + PARTNER_INVITE_SECONDS - time.time()))}


@router.post("/api/partners", status_code=201)
async def invite(body: PartnerIn, player: Player, request: Request,
                 lobby: LobbyDep) -> dict[str, Any]:
    limit(request, "tables", "partner invites")
    made = await lobby.partner_invite(player, body.variant, body.players, body.teams)
    return invite_out(made, "waiting", player)


@router.get("/api/partners/{code}")
async def invitation(code: str, player: Player, lobby: LobbyDep,
                     wait: float = 0) -> dict[str, Any]:
    found = await lobby.partner_invitation(code, player, wait)
    return invite_out(found, found.shown_status(time.time(), lobby.settings.ticket_lapse_seconds),
                      player)


@router.post("/api/partners/{code}/accept")
async def accept(code: str, player: Player, request: Request,
                 lobby: LobbyDep) -> dict[str, Any]:
    limit(request, "tables", "partner invites")
    ticket = await lobby.accept_partner(code, player)
    return ticket_out(ticket, ticket.table_id, lobby.bot_offered(ticket), ticket.rated)


class SendIn(BaseModel):
    to: str = Field(min_length=1, max_length=64)


@router.post("/api/partners/{code}/send")
async def send(code: str, body: SendIn, player: Player, lobby: LobbyDep,
               social: SocialDep) -> dict[str, Any]:
    """The host sends their invite to an account: its bell and open pages (and Web Push)
    carry it, with the link."""
    found = await lobby.partner_invitation(code)
    if found.host.id != player.id:
        raise ApiError("only the invite's host sends it", "partner/not_yours")
    pool = found.pool
    other = await social.challenges.invite_partner(
        player, body.to, found.code, Terms(pool.variant, pool.players, pool.teams))
    return {"sent": who(other)}


@router.post("/api/partners/{code}/decline")
async def decline(code: str, player: Player, lobby: LobbyDep) -> dict[str, Any]:
    found = await lobby.refuse_partner(code, player)
    return invite_out(found, found.status, player)


@router.delete("/api/partners/{code}")
async def cancel(code: str, player: Player, lobby: LobbyDep) -> dict[str, Any]:
    found = await lobby.refuse_partner(code, player)
    return invite_out(found, found.status, player)
