"""The ASGI app, assembled: the lifespan that opens the store and the lobby, the
middleware (security headers, body limit, trusted proxies), the one error handler and the
routers (:mod:`basra.server.http.routes`: guests, tables, quick match, history, variants,
health, the websocket; docs/PROTOCOL.md), and the browser client's files."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, cast

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from basra import __version__
from basra.server import metrics
from basra.server.cluster.fence import FencedTables
from basra.server.cluster.node import Cluster
from basra.server.cluster.placement import ClusterPlacement
from basra.server.cluster.pools import RedisQueue
from basra.server.cluster.social import RedisRelay
from basra.server.cluster.tournaments import LeasedLeadership, RedisAudience
from basra.server.config import Settings
from basra.server.fairplay.service import FairPlay
from basra.server.gc_pacing import GcPacer
from basra.server.http.deps import Guards, Services, services
from basra.server.http.headers import SecurityHeaders
from basra.server.http.routes import ROUTERS, SOCKETS
from basra.server.http.routes.pages import WEB_DIR, mount_web, wants_html
from basra.server.http.routes.replays import MAX_RECORD_BYTES
from basra.server.http.sockets import Sockets
from basra.server.identity.names import friendly_name
from basra.server.learning.puzzles import Puzzles
from basra.server.limits import BodyLimit
from basra.server.lobby.tables import Lobby
from basra.server.social.push import Pusher, vapid_key
from basra.server.social.relay import Hub, LocalRelay, Relay
from basra.server.social.service import Social, build
from basra.server.tournaments.audience import LocalAudience
from basra.server.tournaments.schedule import Schedule
from basra.server.tournaments.service import Leadership, SoleLeader, Tournaments, lobby_tables
from basra.server.wire.errors import Refusal, error_response, headers_of
from basra.store import open_store
from basra.store.ports import Store

log = logging.getLogger("basra.app")


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    held = services_of(app)
    settings = held.settings
    store = open_store(settings.db_url, settings.data_dir)
    await store.open()
    cluster = Cluster.connect(settings) if settings.redis_url else None
    if cluster is None:
        lobby = Lobby(store, settings)
    else:  # the node writes a table only while it holds the table's lease
        lobby = Lobby(store, settings,
                      tables=FencedTables(store, cluster.leases, cluster.let_go),
                      placement=ClusterPlacement(cluster),
                      pools=RedisQueue(cluster.redis, settings))
        await cluster.start(lobby)
        held.redis = cluster.redis
    restored = await lobby.restore()
    lobby.start()
    audience, leadership = await tournament_ports(cluster, settings)
    tournaments = Tournaments(
        store, audience, lobby_tables(lobby), lobby.rating_of, leadership=leadership,
        schedule=Schedule.load(settings.tournament_schedule)
        if settings.tournament_schedule else None,
        hashing=held.guards.hashing, tick_seconds=settings.tournament_tick_seconds,
        last_pairing_seconds=settings.tournament_last_pairing_seconds)
    lobby.on_ended.append(tournaments.table_ended)
    tournaments.start()
    social = await social_of(store, lobby, cluster, settings)
    tournaments.on_start.append(social.tournament_started)
    pacer = GcPacer() if settings.gc_pacing else None
    if pacer is not None:
        pacer.start()
    lag = asyncio.create_task(metrics.sample_loop_lag(), name="loop lag")
    log.info("server ready: %d live tables restored, on %s%s", restored, metrics.loop_name(),
             f", cluster node {cluster.node}" if cluster else "")
    held.store, held.lobby, held.tournaments, held.social = store, lobby, tournaments, social
    held.puzzles = Puzzles(store)
    fairplay = FairPlay(store, social.notifier.notify, friendly_name,
                        signed_out=lambda player_id: lobby.sign_out(player_id, forget=True))
    lobby.analyses.on_done.append(fairplay.analysed)
    held.fairplay = fairplay
    try:
        yield
    finally:
        lag.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await lag
        await social.close()
        await tournaments.close()
        if isinstance(audience, RedisAudience) and isinstance(leadership, LeasedLeadership):
            await leadership.stop()
            await audience.stop()
        else:
            await audience.close()
        if pacer is not None:
            await pacer.stop()
        await lobby.close()
        if cluster is not None:
            await cluster.stop()
        await store.close()


async def social_of(store: Store, lobby: Lobby, cluster: Cluster | None,
                    settings: Settings) -> Social:
    """Friends, presence, challenges and notifications, over this process's relay or a
    cluster node's (:mod:`basra.server.cluster.social`)."""
    hub = Hub()
    relay: Relay = LocalRelay(hub) if cluster is None else RedisRelay(
        cluster.redis, hub, cluster.node, settings.redis_prefix)
    origin = settings.public_origin or ""
    subject = origin if origin.startswith("https://") else "mailto:operator@localhost"
    pusher = Pusher(store, vapid_key(settings.data_dir), subject)
    return await build(store, hub, relay, lobby.challenge_terms, lobby.challenge_table, pusher,
                       settings)


async def tournament_ports(cluster: Cluster | None, settings: Settings
                           ) -> tuple[LocalAudience, Leadership]:
    """Where the tournaments' news goes and who directs each event: this process alone,
    or a cluster's nodes through Redis (:mod:`basra.server.cluster.tournaments`)."""
    if cluster is None:
        return LocalAudience(), SoleLeader()
    audience = RedisAudience(cluster.redis, settings.redis_prefix)
    leadership = LeasedLeadership(cluster.redis, cluster.node, settings.lease_seconds,
                                  settings.redis_prefix)
    await audience.start()
    leadership.start()
    return audience, leadership


def services_of(app: FastAPI) -> Services:
    held: Services = app.state.services
    return held


async def refused(request: Request, exc: Exception) -> JSONResponse:
    """The one handler of the server's refusals: the code's status from the one table.
    Any other error, the package's own included, is a fault (``internal_error``)."""
    assert isinstance(exc, Refusal)
    return error_response(exc.code, exc.message, headers_of(exc))


async def bad_request(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    first = exc.errors()[0] if exc.errors() else {}
    where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
    message = f"{where}: {first.get('msg', 'invalid')}" if where else "invalid request"
    return error_response("request/invalid", message)


async def http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own (unknown paths and methods, malformed requests): ``http/NNN``; a
    browser asking for a page that does not exist gets a page saying so."""
    assert isinstance(exc, StarletteHTTPException)
    pages = getattr(request.app.state, "pages", None)
    if exc.status_code == 404 and pages is not None and wants_html(request):
        notice: Response = pages.notice(request, "not_found", 404)
        return notice
    return error_response(f"http/{exc.status_code}", str(exc.detail))


async def internal_error(request: Request, exc: Exception) -> JSONResponse:
    log.exception("request failed: %s %s", request.method, request.url.path)
    return error_response("server/internal", "the server could not do that")


class Site(FastAPI):
    """The app, with the security headers (:mod:`basra.server.http.headers`) outside even
    the server error's handler (Starlette's outermost middleware), so that every answer
    carries them, a 500 too; its sockets in front of all the middleware
    (:mod:`basra.server.http.sockets`), and before them, behind a proxy the operator
    names, the client made the one it forwards for."""

    def __init__(self, settings: Settings, **options: Any) -> None:
        super().__init__(**options)
        self.settings = settings

    def build_middleware_stack(self) -> ASGIApp:
        rest = SecurityHeaders(super().build_middleware_stack(), self.settings)
        # (uvicorn's middleware is typed with its own ASGI types, Starlette's with theirs)
        sockets: Any = Sockets(self, SOCKETS, rest)
        outermost: Any = ProxyHeadersMiddleware(
            sockets, trusted_hosts=list(self.settings.limits.trusted_proxies))
        return cast(ASGIApp, outermost)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    app = Site(settings, title="Basra", version=__version__, lifespan=lifespan)
    app.state.services = Services(settings, Guards.of(settings))
    app.add_middleware(GZipMiddleware, minimum_size=512)
    app.add_middleware(BodyLimit, most=settings.limits.max_body_bytes,
                       larger={"/api/replays": MAX_RECORD_BYTES})
    app.add_exception_handler(Refusal, refused)
    app.add_exception_handler(RequestValidationError, bad_request)
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(Exception, internal_error)
    for router in ROUTERS:
        app.include_router(router)
    mount_web(app, settings.static_dir or WEB_DIR)
    return app


__all__ = ["WEB_DIR", "create_app", "services"]
