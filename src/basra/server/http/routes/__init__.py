"""The app's routes, one router per concern, and its sockets;
:func:`basra.server.app.create_app` includes them all."""

from __future__ import annotations

from fastapi import APIRouter

from basra.server.http.routes import (
    account,
    fairplay,
    guests,
    health,
    history,
    lessons,
    live,
    metrics,
    partners,
    passkeys,
    play_socket,
    players,
    puzzles,
    quick_match,
    replays,
    sessions,
    settings,
    social,
    tables,
    tournaments,
    variants,
)
from basra.server.http.sockets import SocketRoute

# Starlette tries the routes in order, each a regular expression: a puzzle's play, the most
# frequent small request a site of puzzlers makes, is matched first after the health check
# (a fifth of its server CPU went to trying the routes before it: docs/BENCHMARKS.md).
ROUTERS: tuple[APIRouter, ...] = (health.router, puzzles.router, variants.router,
                                  guests.router, account.router, sessions.router,
                                  passkeys.router, tables.router, quick_match.router,
                                  partners.router, history.router, live.router, players.router,
                                  replays.router, tournaments.router,
                                  social.router, lessons.router, settings.router,
                                  fairplay.router, metrics.router)

SOCKETS: tuple[SocketRoute, ...] = (play_socket.SOCKET, tournaments.SOCKET, social.SOCKET)
"""The site's websockets, reached in front of the middleware (:mod:`basra.server.http.sockets`)."""
