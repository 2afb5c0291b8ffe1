"""Tournaments (docs/PROTOCOL.md, "Tournaments"): the list, one event, its standings and
results, making one, joining, withdrawing and pausing, and ``/ws/tournaments/{id}``, the
socket on which an event's page hears its news (standings deltas, new pairings, "you are
paired")."""

from __future__ import annotations

import asyncio
import contextlib
from datetime import datetime
from typing import Any, Literal

import orjson
from fastapi import APIRouter, Depends, Request, WebSocket
from fastapi.responses import Response
from pydantic import BaseModel, Field

from basra.server.http.deps import (
    Player,
    get_fairplay,
    get_guards,
    get_settings,
    get_store,
    get_tournaments,
    limit,
    player_of,
    socket_slot,
    tournaments_dep,
)
from basra.server.http.routes.play_socket import HELLO_SECONDS, drain, hello_token
from basra.server.limits import address_key, client_address
from basra.server.table.outbox import Outbox
from basra.server.tournaments.audience import Watcher
from basra.server.tournaments.service import Tournaments
from basra.server.tournaments.spec import EventSpec, TournamentError
from basra.server.tournaments.views import event_json
from basra.server.wire.client_messages import ProtocolError

router = APIRouter()

TournamentsDep = Depends(tournaments_dep)


class EventIn(BaseModel):
    name: str = Field(max_length=200)
    variant: str = Field(default="egyptian", max_length=40)
    format: Literal["arena", "swiss"] = "arena"
    starts_at: datetime | None = None
    minutes: int | None = Field(default=None, ge=1, le=10_000)
    rounds: int | None = Field(default=None, ge=1, le=100)
    rated: bool = True
    length: Literal["short", "full"] = "short"
    clock_seconds: float | None = Field(default=None, ge=1, le=10_000)
    min_rating: int | None = Field(default=None, ge=0, le=10_000)
    max_rating: int | None = Field(default=None, ge=0, le=10_000)
    private: bool = False
    password: str | None = Field(default=None, max_length=200)


class JoinIn(BaseModel):
    password: str | None = Field(default=None, max_length=200)


def _json(data: Any) -> Response:
    return Response(orjson.dumps(data), media_type="application/json")


def _views(request: Request | WebSocket) -> None:
    """Public reads are limited per address as profiles are."""
    get_guards(request).views.check(request.scope)


@router.get("/api/tournaments")
async def tournaments_list(request: Request,
                           tournaments: Tournaments = TournamentsDep) -> Response:
    """Upcoming, running and recently finished events (the listed ones)."""
    _views(request)
    return _json(await tournaments.listing())


@router.post("/api/tournaments")
async def tournament_create(body: EventIn, player: Player, request: Request,
                            tournaments: Tournaments = TournamentsDep) -> Response:
    limit(request, "tables", "tournaments")
    spec = EventSpec(**body.model_dump())
    await get_fairplay(request).check_name(spec.name)  # shown to everyone: no insults
    address = address_key(client_address(request.scope))
    row = await tournaments.create(player, spec, address)
    return _json({"tournament": event_json(row)})


@router.get("/api/tournaments/{tournament_id}")
async def tournament_one(tournament_id: str, request: Request,
                         tournaments: Tournaments = TournamentsDep) -> Response:
    """The event, its standings and the matches being played: what its page shows."""
    _views(request)
    return Response(await tournaments.state(tournament_id), media_type="application/json")


@router.get("/api/tournaments/{tournament_id}/results")
async def tournament_results(tournament_id: str, request: Request,
                             tournaments: Tournaments = TournamentsDep) -> Response:
    """Every pairing with its result, by round (or wave), and the podium once it ended."""
    _views(request)
    return _json(await tournaments.results(tournament_id))


@router.post("/api/tournaments/{tournament_id}/join")
async def tournament_join(tournament_id: str, body: JoinIn, player: Player,
                          request: Request,
                          tournaments: Tournaments = TournamentsDep) -> Response:
    limit(request, "tables", "tournament joins")
    await get_fairplay(request).may_play(player, rated=True)
    address = address_key(client_address(request.scope))
    entrant = await tournaments.join(player, tournament_id, body.password, address)
    return _json({"entrant": entrant.id, "status": entrant.status})


@router.post("/api/tournaments/{tournament_id}/withdraw")
async def tournament_withdraw(tournament_id: str, player: Player,
                              tournaments: Tournaments = TournamentsDep) -> Response:
    entrant = await tournaments.leave(player, tournament_id, pause=False)
    return _json({"entrant": entrant.id, "status": entrant.status})


@router.post("/api/tournaments/{tournament_id}/pause")
async def tournament_pause(tournament_id: str, player: Player,
                           tournaments: Tournaments = TournamentsDep) -> Response:
    entrant = await tournaments.leave(player, tournament_id, pause=True)
    return _json({"entrant": entrant.id, "status": entrant.status})


@router.websocket("/ws/tournaments/{tournament_id}")
async def tournament_socket(websocket: WebSocket, tournament_id: str,
                            auth: str | None = None) -> None:
    """An event's page: ``?auth=1`` and a ``hello`` first (as a table's socket) for a
    player, whose open page makes them present (paired); without it, a watcher. The
    first message is the whole event (``tournament``), then its news."""
    async with socket_slot(websocket) as admitted:
        if admitted:
            await websocket.accept()
            await _watch(websocket, tournament_id, auth is not None)


async def _watch(websocket: WebSocket, tournament_id: str, auth: bool) -> None:
    tournaments = get_tournaments(websocket)
    player_id: str | None = None
    try:
        token = await asyncio.wait_for(hello_token(websocket), HELLO_SECONDS + 1) if auth \
            else None
        player = await player_of(get_store(websocket), token, get_guards(websocket).touches)
        player_id = player.id if player is not None else None
        _views(websocket)
        first = await tournaments.state(tournament_id)
    except (ProtocolError, TournamentError) as exc:
        await _refuse(websocket, exc.code, exc.message)
        return
    except TimeoutError:
        await _refuse(websocket, "auth/no_hello", "no hello in time")
        return
    except Exception as exc:  # e.g. rate/limited
        code = getattr(exc, "code", "server/internal")
        await _refuse(websocket, code, getattr(exc, "message", "the server could not do that"))
        return
    settings = get_settings(websocket)
    outbox = Outbox(websocket, limit=settings.send_queue_limit,
                    stall_seconds=settings.stall_seconds)
    watcher = Watcher(tournament_id, player_id, outbox)
    outbox.put(first)
    tournaments.audience.watch(watcher)
    if player_id is not None:
        tournaments.wake()
    writer = asyncio.create_task(outbox.run())
    reader = asyncio.create_task(drain(websocket, outbox))
    try:
        await asyncio.wait({writer, reader}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        tournaments.audience.unwatch(watcher)
        for task in (writer, reader):
            task.cancel()
        await asyncio.gather(writer, reader, return_exceptions=True)
        with contextlib.suppress(Exception):
            await websocket.close()


async def _refuse(websocket: WebSocket, code: str, message: str) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_text(orjson.dumps(
            {"type": "error", "code": code, "message": message}).decode())
        await websocket.close(code=4404 if code.endswith("not_found") else 4400)


__all__ = ["router"]
