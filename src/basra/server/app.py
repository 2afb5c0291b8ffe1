"""The ASGI app: HTTP endpoints for guests, tables, quick match, records and history, and
the websocket on which a table talks to its seats (docs/PROTOCOL.md)."""

from __future__ import annotations

import contextlib
import logging
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

from basra import __version__
from basra.server.auth import NicknameError, clean_nickname, new_id, new_token, token_hash
from basra.server.config import Settings
from basra.server.lobby import Lobby, LobbyError, TableOptions
from basra.server.protocol import ProtocolError, parse_client_message
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

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = open_store(settings.db_url, settings.data_dir)
        await store.open()
        lobby = Lobby(store, settings)
        restored = await lobby.restore()
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

    def store() -> Store:
        s: Store = state["store"]
        return s

    def lobby() -> Lobby:
        lb: Lobby = state["lobby"]
        return lb

    async def player_of(token: str | None) -> PlayerRow | None:
        if not token:
            return None
        return await store().player_by_token(token_hash(token))

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse({"error": {"code": exc.code, "message": str(exc)}}, exc.status)

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
    async def health() -> dict[str, str]:
        return {"status": "ok", "version": __version__}

    @app.get("/ready")
    async def ready() -> JSONResponse:
        ok = "store" in state and await store().ping()
        return JSONResponse({"ready": ok}, 200 if ok else 503)

    # -------------------------------------------------------------- guests

    @app.post("/api/guests", status_code=201)
    async def guest(body: GuestIn) -> dict[str, Any]:
        try:
            nickname = clean_nickname(body.nickname)
        except NicknameError as exc:
            raise ApiError(422, "guest/bad_nickname", str(exc)) from None
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
        out: dict[str, Any] = {"table": table.table_json(seat), "seat": seat}
        if table.row.invite_code:
            out["invite_link"] = f"/join/{table.row.invite_code}"
        return out

    @app.post("/api/tables/bot", status_code=201)
    async def play_bot(body: TableIn, player: Player) -> dict[str, Any]:
        table = await lobby().play_bot(player, options(body))
        return table_out(table, 0)

    @app.post("/api/tables/private", status_code=201)
    async def create_private(body: TableIn, player: Player) -> dict[str, Any]:
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

    def live_table(table_id: str) -> Table:
        table = lobby().table(table_id)
        if table is None:
            raise ApiError(404, "table/not_found", "no such table")
        return table

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str) -> dict[str, Any]:
        return table_out(live_table(table_id), None)

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str) -> dict[str, Any]:
        table = lobby().table(table_id)
        if table is None:
            table_log = await store().load(table_id)
            if table_log is None:
                raise ApiError(404, "table/not_found", "no such table")
            table = Table.restore(table_log, store(), settings)
        return table.record_json()

    # -------------------------------------------------------------- quick match

    def ticket_out(ticket_id: str, table_id: str | None, offered: bool) -> dict[str, Any]:
        return {"ticket": ticket_id, "status": "matched" if table_id else "waiting",
                "table": table_id, "bot_offer": offered}

    @app.post("/api/quick-match")
    async def quick(body: QuickIn, player: Player) -> dict[str, Any]:
        ticket = await lobby().quick_match(player, body.variant)
        return ticket_out(ticket.id, ticket.table_id, lobby().bot_offered(ticket))

    @app.get("/api/quick-match/{ticket_id}")
    async def quick_wait(ticket_id: str, player: Player, wait: float = 0) -> dict[str, Any]:
        ticket = lobby().ticket(ticket_id, player)
        if ticket.table_id is None and wait > 0:
            await lobby().wait(ticket, wait)
        return ticket_out(ticket.id, ticket.table_id, lobby().bot_offered(ticket))

    @app.post("/api/quick-match/{ticket_id}/bot")
    async def quick_bot(ticket_id: str, body: BotOfferIn, player: Player) -> dict[str, Any]:
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
        table = lobby().table(table_id)
        await websocket.accept()
        if table is None:
            await websocket.send_json({"type": "error", "code": "table/not_found",
                                       "message": "no such table"})
            await websocket.close(code=4404)
            return
        player = await player_of(token)
        await table.inbox.put(Attach(websocket, player.id if player else None))
        try:
            while True:
                frame = await websocket.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                # A text frame, or a binary one (taken as UTF-8 JSON): never a KeyError.
                text: str | None = frame.get("text")
                raw: str | bytes = text if text is not None else frame.get("bytes") or b""
                try:
                    message = parse_client_message(raw)
                except ProtocolError as exc:
                    await websocket.send_json(exc.to_json())
                    continue
                await table.inbox.put(Incoming(websocket, message))
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            await table.inbox.put(Detach(websocket))
            with contextlib.suppress(Exception):
                await websocket.close()

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
