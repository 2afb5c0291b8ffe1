"""Tournaments (docs/PROTOCOL.md, "Tournaments"): the list, one event, its standings and
results, making one, joining, withdrawing and pausing, and ``/ws/tournaments/{id}``, the
socket on which an event's page hears its news (its page of the standings, the matches
shown, the player's own row, "you are paired") and asks for another page."""

from __future__ import annotations

import asyncio
import contextlib
from datetime import datetime
from typing import Any, Literal

import orjson
from fastapi import APIRouter, Depends, Query, Request, WebSocket, WebSocketDisconnect
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
from basra.server.http.routes.play_socket import HELLO_SECONDS, hello_token
from basra.server.http.sockets import SocketRoute
from basra.server.limits import address_key, client_address
from basra.server.table.outbox import Outbox
from basra.server.tournaments.audience import Watcher
from basra.server.tournaments.service import Tournaments
from basra.server.tournaments.spec import EventSpec, TournamentError
from basra.server.tournaments.views import event_json
from basra.server.wire.client_messages import ProtocolError

router = APIRouter()

TournamentsDep = Depends(tournaments_dep)
PAGE_MOST = 100_000
"""The highest page of standings an address may ask for."""
PageQuery = Query(default=None, ge=1, le=PAGE_MOST)

ASK_GAP = 0.2
"""Seconds a page's socket rests after each frame it sends (a few asks a second at most)."""
ASK_BYTES = 200
"""A longer frame on a page's socket is not read."""


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
async def tournament_one(tournament_id: str, request: Request, page: int | None = PageQuery,
                         tournaments: Tournaments = TournamentsDep) -> Response:
    """The event, a page of its standings (``?page=N``, the first by default) and the
    matches shown: what its page shows first."""
    _views(request)
    return Response(await tournaments.state(tournament_id, page or 1),
                    media_type="application/json")


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


async def tournament_socket(websocket: WebSocket) -> None:
    """``/ws/tournaments/{tournament_id}``, an event's page: ``?auth=1`` and a ``hello``
    first (as a table's socket) for a player, whose open page makes them present
    (paired); without it, a watcher. The first message is the event with one page of its
    standings (``tournament``: ``?page=N``, or the page of the player's own row, or the
    first), then the player's own row (``mine``), then the news; ``{"type": "page",
    "page": N}`` (or ``"me": true``) asks for another page."""
    tournament_id: str = websocket.path_params["tournament_id"]
    auth = websocket.query_params.get("auth") is not None
    try:
        page = _page_asked(websocket.query_params.get("page"))
    except ValueError:  # refused before it opens, as a request's bad query is
        await websocket.close(code=1008, reason=f"page: a whole number from 1 to {PAGE_MOST}")
        return
    async with socket_slot(websocket) as admitted:
        if admitted:
            await websocket.accept()
            await _watch(websocket, tournament_id, auth, page)


def _page_asked(text: str | None) -> int | None:
    """The ``page`` a socket's address asks for (None: not given), as ``PageQuery`` takes
    a request's; a ValueError if it is no whole number in its range."""
    if text is None:
        return None
    page = int(text)
    if not 1 <= page <= PAGE_MOST:
        raise ValueError(text)
    return page


async def _watch(websocket: WebSocket, tournament_id: str, auth: bool,
                 page: int | None) -> None:
    tournaments = get_tournaments(websocket)
    player_id: str | None = None
    try:
        token = await asyncio.wait_for(hello_token(websocket), HELLO_SECONDS + 1) if auth \
            else None
        player = await player_of(get_store(websocket), token, get_guards(websocket).touches)
        player_id = player.id if player is not None else None
        _views(websocket)
        first = await tournaments.state(tournament_id, page, player_id)
        mine = await tournaments.mine(tournament_id, player_id) if player_id else None
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
    watcher = Watcher(tournament_id, player_id, outbox,
                      page=int(orjson.loads(first).get("page", 1)))
    outbox.put(first)
    if mine is not None:
        outbox.put(mine)
    tournaments.audience.watch(watcher)
    if player_id is not None:
        tournaments.wake()
    writer = asyncio.create_task(outbox.run())
    reader = asyncio.create_task(_asks(websocket, watcher, tournaments))
    try:
        await asyncio.wait({writer, reader}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        tournaments.audience.unwatch(watcher)
        for task in (writer, reader):
            task.cancel()
        await asyncio.gather(writer, reader, return_exceptions=True)
        with contextlib.suppress(Exception):
            await websocket.close()


async def _asks(websocket: WebSocket, watcher: Watcher, tournaments: Tournaments) -> None:
    """What an event's page sends: asks for a page of the standings (anything else is
    dropped), read until it closes, a few frames a second at most."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while not watcher.outbox.closed:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                return
            asked = page_asked(frame.get("text"))
            if asked is not None:
                try:
                    number, text = await tournaments.page(
                        watcher.tournament_id, asked or None, watcher.player_id)
                except TournamentError:
                    return
                watcher.page = number
                watcher.outbox.put(text)
            await asyncio.sleep(ASK_GAP)


def page_asked(text: str | None) -> int | None:
    """The page a frame asks for: its number, 0 for the player's own, None if it asks
    for none (not an ask, or not one this socket understands)."""
    if not text or len(text) > ASK_BYTES:
        return None
    try:
        ask = orjson.loads(text)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(ask, dict) or ask.get("type") != "page":
        return None
    if ask.get("me") is True:
        return 0
    number = ask.get("page")
    if isinstance(number, int) and not isinstance(number, bool) and 1 <= number <= 100_000:
        return number
    return None


async def _refuse(websocket: WebSocket, code: str, message: str) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_text(orjson.dumps(
            {"type": "error", "code": code, "message": message}).decode())
        await websocket.close(code=4404 if code.endswith("not_found") else 4400)


SOCKET = SocketRoute("/ws/tournaments/{tournament_id}", tournament_socket)
"""An event's page's socket (:mod:`basra.server.http.sockets`)."""

__all__ = ["SOCKET", "router"]
