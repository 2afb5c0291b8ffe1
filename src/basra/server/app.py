"""The ASGI app: HTTP endpoints for guests, tables, quick match, records and history, and
the websocket on which a table talks to its seats (docs/PROTOCOL.md)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Header, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from basra import __version__
from basra.rulebook import variants_json
from basra.server.auth import (
    NICKNAME_MAX,
    NICKNAME_MIN,
    NicknameError,
    clean_nickname,
    new_id,
    new_token,
    token_hash,
)
from basra.server.config import Settings
from basra.server.limits import (
    AddressBuckets,
    BodyLimit,
    RateLimited,
    SocketCounts,
    TokenBucket,
    address_key,
    client_address,
)
from basra.server.lobby import Lobby, LobbyError, TableOptions
from basra.server.outbox import Outbox, encode
from basra.server.protocol import PROTOCOL, ProtocolError, error, parse_client_message
from basra.server.table import Attach, Detach, Incoming, Table
from basra.store import open_store
from basra.store.base import PlayerRow, Store

log = logging.getLogger("basra.app")


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code


class GuestIn(BaseModel):
    nickname: str = Field(max_length=200)


class TableIn(BaseModel):
    variant: str = Field(default="egyptian", max_length=40)
    players: int = Field(default=2, ge=2, le=4)
    teams: bool = False
    bot_level: str = Field(default="medium", max_length=20)
    clock_seconds: float | None = None


class JoinIn(BaseModel):
    invite_code: str = Field(max_length=40)


class BotIn(BaseModel):
    seat: int | None = Field(default=None, ge=0, le=3)
    level: str = Field(default="medium", max_length=20)


class QuickIn(BaseModel):
    variant: str = Field(default="egyptian", max_length=40)


class BotOfferIn(BaseModel):
    level: str = Field(default="medium", max_length=20)


def _store(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


async def current_player(request: Request,
                         authorization: Annotated[str | None, Header()] = None) -> PlayerRow:
    """The guest a request's ``Authorization: Bearer TOKEN`` names, or 401."""
    token = (authorization or "").removeprefix("Bearer ").strip()
    player = await _store(request).player_by_token(token_hash(token)) if token else None
    if player is None:
        raise ApiError(401, "auth/required", "sign in as a guest first")
    return player


Player = Annotated[PlayerRow, Depends(current_player)]


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    state: dict[str, Any] = {}
    limits = settings.limits
    guest_buckets = AddressBuckets(limits.guests_per_minute, limits.guest_burst)
    table_buckets = AddressBuckets(limits.tables_per_minute, limits.table_burst)
    sockets = SocketCounts(limits.sockets_per_address)

    def limit(buckets: AddressBuckets, what: str, request: Request) -> None:
        wait = buckets.take(address_key(client_address(request.scope)))
        if wait is not None:
            raise RateLimited(what, wait)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = open_store(settings.db_url, settings.data_dir)
        await store.open()
        lobby = Lobby(store, settings)
        restored = await lobby.restore()
        lobby.start()
        log.info("server ready: %d live tables restored", restored)
        state["store"] = store
        state["lobby"] = lobby
        app.state.store = store
        try:
            yield
        finally:
            await lobby.close()
            await store.close()

    app = FastAPI(title="Basra", version=__version__, lifespan=lifespan)
    app.add_middleware(BodyLimit, most=limits.max_body_bytes)
    # Outermost: behind a proxy the operator names, the client is the one it forwards for.
    app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=list(limits.trusted_proxies))

    def store() -> Store:
        s: Store = state["store"]
        return s

    def lobby() -> Lobby:
        lb: Lobby = state["lobby"]
        return lb

    async def player_of_id(player_id: str | None) -> PlayerRow | None:
        return await store().player(player_id) if player_id else None

    async def player_of(token: str | None) -> PlayerRow | None:
        if not token:
            return None
        return await store().player_by_token(token_hash(token))

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse({"error": {"code": exc.code, "message": str(exc)}}, exc.status)

    @app.exception_handler(RateLimited)
    async def rate_limited(request: Request, exc: RateLimited) -> JSONResponse:
        return JSONResponse({"error": {"code": "rate/limited", "message": str(exc)}}, 429,
                            headers={"Retry-After": str(exc.retry_after)})

    @app.exception_handler(LobbyError)
    async def lobby_error(request: Request, exc: LobbyError) -> JSONResponse:
        return JSONResponse({"error": {"code": exc.code, "message": str(exc)}}, exc.status)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        message = f"{where}: {first.get('msg', 'invalid')}" if where else "invalid request"
        return JSONResponse({"error": {"code": "request/invalid", "message": message}}, 422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"error": {"code": f"http/{exc.status_code}",
                                       "message": str(exc.detail)}}, exc.status_code)

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception) -> JSONResponse:
        log.exception("request failed: %s %s", request.method, request.url.path)
        return JSONResponse({"error": {"code": "server/internal",
                                       "message": "the server could not do that"}}, 500)

    # -------------------------------------------------------------- health

    @app.get("/health")
    async def health() -> dict[str, Any]:
        """Alive, with what the process holds in memory now."""
        lb: Lobby | None = state.get("lobby")
        held = {"tables": len(lb.tables) if lb else 0,
                "tickets": len(lb.tickets) if lb else 0,
                "sockets": sum(sockets.open.values()),
                "evicted": lb.evicted if lb else 0}
        return {"status": "ok", "version": __version__, "memory": held}

    @app.get("/ready")
    async def ready() -> JSONResponse:
        ok = "store" in state and await store().ping()
        return JSONResponse({"ready": ok}, 200 if ok else 503)

    # -------------------------------------------------------------- rules

    @app.get("/api/variants")
    async def variants() -> dict[str, Any]:
        book = variants_json()
        limits = book["limits"]
        assert isinstance(limits, dict)
        limits.update(nickname_min=NICKNAME_MIN, nickname_max=NICKNAME_MAX)
        return book

    # -------------------------------------------------------------- guests

    @app.post("/api/guests", status_code=201)
    async def guest(body: GuestIn, request: Request) -> dict[str, Any]:
        try:
            nickname = clean_nickname(body.nickname)
        except NicknameError as exc:
            raise ApiError(422, "guest/bad_nickname", str(exc)) from None
        limit(guest_buckets, "new guests", request)
        token = new_token()
        player = await store().create_player(new_id(), nickname, token_hash(token))
        return {"token": token, "player": {"id": player.id, "nickname": player.nickname}}

    @app.get("/api/me")
    async def me(player: Player) -> dict[str, Any]:
        return {"id": player.id, "nickname": player.nickname}

    # -------------------------------------------------------------- tables

    def options(body: TableIn) -> TableOptions:
        return TableOptions(body.variant, body.players, body.teams, body.bot_level,
                            body.clock_seconds)

    def table_out(table: Table, seat: int | None) -> dict[str, Any]:
        """A table as HTTP answers give it; the invite link only to a seated player."""
        out: dict[str, Any] = {"table": table.table_json(seat), "seat": seat}
        if table.row.invite_code and seat is not None:
            out["invite_link"] = f"/join/{table.row.invite_code}"
        return out

    @app.post("/api/tables/bot", status_code=201)
    async def play_bot(body: TableIn, player: Player, request: Request) -> dict[str, Any]:
        limit(table_buckets, "new tables", request)
        table = await lobby().play_bot(player, options(body))
        return table_out(table, 0)

    @app.post("/api/tables/private", status_code=201)
    async def create_private(body: TableIn, player: Player,
                             request: Request) -> dict[str, Any]:
        limit(table_buckets, "new tables", request)
        table = await lobby().create_private(player, options(body))
        return table_out(table, 0)

    @app.post("/api/tables/join")
    async def join(body: JoinIn, player: Player) -> dict[str, Any]:
        table, seat = await lobby().join(player, body.invite_code)
        return table_out(table, seat)

    @app.post("/api/tables/{table_id}/bots")
    async def add_bot(table_id: str, body: BotIn, player: Player) -> dict[str, Any]:
        seat = await lobby().fill_bot(player, table_id, body.seat, body.level)
        return {"seat": seat}

    async def any_table(table_id: str) -> Table:
        """The live table, or one that left memory rebuilt from the store (not started:
        it only answers questions)."""
        table = lobby().table(table_id)
        if table is not None:
            return table
        table_log = await store().load(table_id) if len(table_id) <= 64 else None
        if table_log is None:
            raise ApiError(404, "table/not_found", "no such table")
        stored = Table.restore(table_log, store(), settings)
        stored.rematch_table = await store().rematch_of(table_id)
        return stored

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str,
                         authorization: Annotated[str | None, Header()] = None
                         ) -> dict[str, Any]:
        table = await any_table(table_id)
        token = (authorization or "").removeprefix("Bearer ").strip()
        me = await player_of(token)
        seat = next((s.number for s in table.seats
                     if me is not None and s.player_id == me.id), None)
        return table_out(table, seat)

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str) -> dict[str, Any]:
        return (await any_table(table_id)).record_json()

    # -------------------------------------------------------------- quick match

    def ticket_out(ticket_id: str, table_id: str | None, offered: bool) -> dict[str, Any]:
        return {"ticket": ticket_id, "status": "matched" if table_id else "waiting",
                "table": table_id, "bot_offer": offered}

    @app.post("/api/quick-match")
    async def quick(body: QuickIn, player: Player, request: Request) -> dict[str, Any]:
        limit(table_buckets, "quick-match requests", request)
        ticket = await lobby().quick_match(player, body.variant)
        return ticket_out(ticket.id, ticket.table_id, lobby().bot_offered(ticket))

    @app.get("/api/quick-match/{ticket_id}")
    async def quick_wait(ticket_id: str, player: Player, request: Request,
                         wait: float = 0) -> dict[str, Any]:
        ticket = lobby().ticket(ticket_id, player)
        if ticket.table_id is None:
            await lobby().wait(ticket, wait, request.is_disconnected)
        return ticket_out(ticket.id, ticket.table_id, lobby().bot_offered(ticket))

    @app.post("/api/quick-match/{ticket_id}/bot")
    async def quick_bot(ticket_id: str, body: BotOfferIn, player: Player,
                        request: Request) -> dict[str, Any]:
        limit(table_buckets, "new tables", request)
        ticket = lobby().ticket(ticket_id, player)
        table = await lobby().take_bot(ticket, body.level)
        return ticket_out(ticket.id, table.row.id, False)

    @app.delete("/api/quick-match/{ticket_id}")
    async def quick_leave(ticket_id: str, player: Player) -> dict[str, Any]:
        await lobby().leave(lobby().ticket(ticket_id, player))
        return {"left": True}

    # -------------------------------------------------------------- history

    @app.get("/api/history")
    async def history(player: Player) -> dict[str, Any]:
        rows = await store().history(player.id)
        return {"matches": [{
            "table": r.table_id, "variant": r.variant, "seat": r.seat,
            "players": list(r.players), "teams": r.teams, "winner": r.winner,
            "totals": list(r.totals), "finished_at": r.finished_at.isoformat(),
            "record": f"/api/tables/{r.table_id}/record",
        } for r in rows]}

    # -------------------------------------------------------------- the websocket

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str,
                           token: str | None = None) -> None:
        address = address_key(client_address(websocket.scope))
        if not sockets.acquire(address):
            await websocket.send_denial_response(JSONResponse(
                {"error": {"code": "rate/limited",
                           "message": "too many open connections from your address"}},
                429, headers={"Retry-After": "10"}))
            return
        try:
            await websocket.accept()
            table = lobby().table(table_id)
            player = await player_of(token)
            if table is None:
                await _from_store(websocket, table_id, player)
                return
            await _play(websocket, table, player.id if player else None)
        finally:
            sockets.release(address)

    async def _from_store(websocket: WebSocket, table_id: str,
                          player: PlayerRow | None) -> None:
        """A table no longer in memory: its last state once (a seated player's own view),
        then ``closed``."""
        try:
            table = await any_table(table_id)
        except ApiError:
            await websocket.send_text(encode(error("table/not_found", "no such table")))
            await websocket.close(code=4404)
            return
        seat = next((s.number for s in table.seats
                     if player is not None and s.player_id == player.id), None)
        await websocket.send_text(encode({"type": "welcome", "protocol": PROTOCOL,
                                          "table": table_id, "seat": seat}))
        await websocket.send_text(encode(table.state_for(seat)))
        await websocket.send_text(encode({"type": "closed", "reason": table.status,
                                          "message": "this table is over; its record "
                                                     "stays available"}))
        await websocket.close(code=1000)

    async def _play(websocket: WebSocket, table: Table, player_id: str | None) -> None:
        """One connection at a table: its writer drains its outbox; this reads, checks the
        message rate, parses and hands messages to the table."""
        outbox = Outbox(websocket, limit=settings.send_queue_limit,
                        stall_seconds=settings.stall_seconds)
        await table.inbox.put(Attach(outbox, player_id))  # before any message of its own
        writer = asyncio.create_task(outbox.run())
        reader = asyncio.create_task(_read(websocket, table, outbox))
        actor = table.task
        watched = {reader, writer} | ({actor} if actor is not None else set())
        try:
            await asyncio.wait(watched, return_when=asyncio.FIRST_COMPLETED)
            if (actor is not None and actor.done() and outbox.queued == 0
                    and not outbox.closed):
                # The table left memory before it took this connection: answer from the store.
                for task in (reader, writer):
                    task.cancel()
                await asyncio.gather(reader, writer, return_exceptions=True)
                outbox.closed = True
                await _from_store(websocket, table.row.id, await player_of_id(player_id))
                return
            if not reader.done() and not writer.done():
                await asyncio.wait([reader, writer], return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (reader, writer):
                task.cancel()
            await asyncio.gather(reader, writer, return_exceptions=True)
            await table.inbox.put(Detach(outbox))
            closing = outbox.closing
            outbox.closed = True
            with contextlib.suppress(Exception):
                if closing is not None:  # the outbox closes it, with its own code
                    await asyncio.wait_for(asyncio.shield(closing),
                                           settings.stall_seconds + 1)
                else:
                    await asyncio.wait_for(websocket.close(), 1.0)

    async def _read(websocket: WebSocket, table: Table, outbox: Outbox) -> None:
        bucket = TokenBucket(limits.messages_per_second, limits.message_burst)
        # Dropped messages drain this one: flood_close drops within 10 s close the socket,
        # however they are spaced.
        patience = TokenBucket(limits.flood_close / 10, limits.flood_close)
        warned = 0.0
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):
            while not outbox.closed:
                frame = await websocket.receive()
                if frame["type"] == "websocket.disconnect":
                    return
                if not bucket.take():
                    if not patience.take():
                        outbox.close("message flood", code=1008)
                        return
                    now = time.monotonic()
                    if now - warned >= 1.0:  # one warning a second, not one a message
                        warned = now
                        outbox.put(error("protocol/rate_limited",
                                         f"at most {limits.messages_per_second:g} messages "
                                         "a second: this one was dropped"))
                    continue
                # A text frame, or a binary one (taken as UTF-8 JSON): never a KeyError.
                text: str | None = frame.get("text")
                raw: str | bytes = text if text is not None else frame.get("bytes") or b""
                try:
                    message = parse_client_message(raw)
                except ProtocolError as exc:
                    outbox.put(exc.to_json())
                    continue
                await table.inbox.put(Incoming(outbox, message))

    _mount_web(app, settings.static_dir or WEB_DIR)
    return app


WEB_DIR = Path(__file__).resolve().parent.parent / "web"
"""The browser client's static files (no build step)."""


def _mount_web(app: FastAPI, web_dir: Path) -> None:
    """Serve the browser client: its files under /static, and index.html for the page's own
    paths (/, /join/CODE, /table/ID, /rules, /history), which the client routes itself."""
    if not (web_dir / "index.html").exists():
        return
    app.mount("/static", StaticFiles(directory=web_dir), name="static")

    async def index() -> FileResponse:
        return FileResponse(web_dir / "index.html", headers={"Cache-Control": "no-cache"})

    for path in ("/", "/join/{code}", "/table/{table_id}", "/rules", "/rules/{variant}",
                 "/history"):
        app.add_api_route(path, index, methods=["GET"], include_in_schema=False)
