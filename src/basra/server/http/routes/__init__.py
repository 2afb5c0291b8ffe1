"""The app's routes, one router per concern; :func:`basra.server.app.create_app` includes
them all."""

from __future__ import annotations

from fastapi import APIRouter

from basra.server.http.routes import (
    account,
    guests,
    health,
    history,
    live,
    metrics,
    partners,
    passkeys,
    play_socket,
    players,
    quick_match,
    replays,
    sessions,
    social,
    tables,
    tournaments,
    variants,
)

ROUTERS: tuple[APIRouter, ...] = (health.router, variants.router, guests.router,
                                  account.router, sessions.router, passkeys.router,
                                  tables.router, quick_match.router, partners.router,
                                  history.router, live.router, players.router, replays.router,
                                  play_socket.router, tournaments.router, social.router,
                                  metrics.router)
