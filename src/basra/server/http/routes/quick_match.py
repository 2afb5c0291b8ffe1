"""Quick match: a ticket, its long poll, the bot offered after a while, leaving the queue."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from basra.server.http.deps import FairPlayDep, LobbyDep, Player, limit
from basra.server.quick.pools import Ticket

router = APIRouter()


class QuickIn(BaseModel):
    variant: str = Field(default="egyptian", max_length=40)
    players: int = Field(default=2, ge=2, le=4)
    teams: bool = False


class BotOfferIn(BaseModel):
    level: str = Field(default="medium", max_length=20)


def ticket_out(ticket: Ticket, table_id: str | None, offered: bool,
               rated: bool = False) -> dict[str, Any]:
    status = "matched" if table_id else "partner_left" if ticket.partner_left else "waiting"
    return {"ticket": ticket.id, "status": status, "table": table_id,
            "bot_offer": offered and not ticket.partner_left, "rated": rated,
            "variant": ticket.variant, "players": ticket.players, "teams": ticket.teams,
            "pool": ticket.pool.key, "partner": ticket.party}


@router.post("/api/quick-match")
async def quick(body: QuickIn, player: Player, request: Request,
                lobby: LobbyDep, fairplay: FairPlayDep) -> dict[str, Any]:
    limit(request, "tables", "quick-match requests")
    await fairplay.may_play(player, rated=player.account)  # an account's pools are rated
    ticket = await lobby.quick_match(player, body.variant, body.players, body.teams)
    return ticket_out(ticket, ticket.table_id, lobby.bot_offered(ticket), ticket.rated)


@router.get("/api/quick-match/{ticket_id}")
async def quick_wait(ticket_id: str, player: Player, request: Request, lobby: LobbyDep,
                     wait: float = 0) -> dict[str, Any]:
    ticket = await lobby.ticket(ticket_id, player)
    if ticket.table_id is None and not ticket.partner_left:
        await lobby.wait(ticket, wait, request.is_disconnected)
    return ticket_out(ticket, ticket.table_id, lobby.bot_offered(ticket), ticket.rated)


@router.post("/api/quick-match/{ticket_id}/bot")
async def quick_bot(ticket_id: str, body: BotOfferIn, player: Player, request: Request,
                    lobby: LobbyDep) -> dict[str, Any]:
    limit(request, "tables")
    ticket = await lobby.ticket(ticket_id, player)
    table = await lobby.take_bot(ticket, body.level)
    return ticket_out(ticket, table.row.id, False)


@router.delete("/api/quick-match/{ticket_id}")
async def quick_leave(ticket_id: str, player: Player, lobby: LobbyDep) -> dict[str, Any]:
    await lobby.leave(await lobby.ticket(ticket_id, player))
    return {"left": True}
