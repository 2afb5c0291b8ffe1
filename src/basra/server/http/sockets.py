"""The site's websockets, reached in front of the HTTP middleware.

A websocket lives as long as its page: every coroutine between uvicorn and the socket's
handler stays suspended, and is walked by each full garbage collection, for all that time.
Through FastAPI's middleware and routing a socket held 22 of them (each middleware's
``__call__``, which only passes a websocket on, the routers', the route's, two exception
wrappers with their ``send`` closures, three exit stacks for dependencies no socket uses):
about 90 of the 205 objects a signed-in page's socket held. So :class:`Sockets` sends a
websocket whose path is one of the site's sockets (:data:`SocketRoute`: Starlette's
``WebSocketRoute`` matches the path) straight to its handler, with the app in its scope
as Starlette would set it; every other request, and a websocket to any other path (which
the router then closes), goes through the whole stack. The client's address behind a
trusted proxy (uvicorn's ``ProxyHeadersMiddleware``) is read before either, so a socket's
per-address limits see the same address as a request's.

The handlers take the ``WebSocket`` alone and read their path's parameters
(``websocket.path_params``) and query (``websocket.query_params``) themselves.
"""

from __future__ import annotations

from collections.abc import Sequence

from starlette.routing import Match, WebSocketRoute
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

SocketRoute = WebSocketRoute
"""A socket of the site: its path (with ``{parameters}``) and its handler, which takes the
``WebSocket`` alone."""


class Sockets:
    """ASGI: a websocket to one of ``routes`` goes straight to its handler; everything
    else to ``rest`` (the app's middleware and routes)."""

    def __init__(self, site: ASGIApp, routes: Sequence[WebSocketRoute], rest: ASGIApp) -> None:
        self.site = site
        self.routes = tuple(routes)
        self.rest = rest

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            for route in self.routes:
                match, child = route.matches(scope)
                if match is Match.FULL:
                    scope.update(child)
                    scope["app"] = self.site
                    await route.endpoint(WebSocket(scope, receive, send))
                    return
        await self.rest(scope, receive, send)


__all__ = ["SocketRoute", "Sockets"]
