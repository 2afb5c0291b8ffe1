"""Friends, challenges, notifications and the signed-in page's socket (issue 28;
docs/PROTOCOL.md, section 1.8)."""

from __future__ import annotations

import asyncio
import contextlib
from datetime import UTC, datetime
from typing import Any

from fastapi import APIRouter, Request, WebSocket
from pydantic import BaseModel, Field

from basra.server.http.deps import (
    FairPlayDep,
    Player,
    SocialDep,
    StoreDep,
    get_guards,
    get_lobby,
    get_settings,
    get_social,
    get_store,
    limit,
    player_of,
    socket_slot,
)
from basra.server.http.routes.play_socket import drain, hello_token
from basra.server.http.sockets import SocketRoute
from basra.server.identity.guests import token_hash
from basra.server.social.challenges import Terms, challenge_json
from basra.server.social.friends import person_json
from basra.server.social.notify import notification_json
from basra.server.table.outbox import Outbox
from basra.server.wire.client_messages import ProtocolError
from basra.server.wire.errors import ApiError
from basra.store.base import PushRow

router = APIRouter()


# ---------------------------------------------------------------------- follows and blocks

@router.post("/api/follows/{username}")
async def follow(username: str, player: Player, social: SocialDep) -> dict[str, Any]:
    other = await social.friends.follow(player, username)
    return {"following": person_json(other)}


@router.delete("/api/follows/{username}")
async def unfollow(username: str, player: Player, social: SocialDep) -> dict[str, Any]:
    other = await social.friends.unfollow(player, username)
    return {"unfollowed": person_json(other)}


@router.post("/api/blocks/{username}")
async def block(username: str, player: Player, social: SocialDep) -> dict[str, Any]:
    other = await social.friends.block(player, username)
    return {"blocked": person_json(other)}


@router.delete("/api/blocks/{username}")
async def unblock(username: str, player: Player, social: SocialDep) -> dict[str, Any]:
    other = await social.friends.unblock(player, username)
    return {"unblocked": person_json(other)}


@router.get("/api/friends")
async def friends(player: Player, social: SocialDep) -> dict[str, Any]:
    return await social.friends.page(player)


class SettingsIn(BaseModel):
    challenges: str = Field(max_length=20)


@router.put("/api/me/social")
async def social_settings(body: SettingsIn, player: Player,
                          social: SocialDep) -> dict[str, Any]:
    return {"challenges": await social.friends.set_policy(player, body.challenges)}


@router.get("/api/players")
async def search(request: Request, store: StoreDep, search: str = "") -> dict[str, Any]:
    """Accounts whose username starts with ``search`` (2 characters at least)."""
    get_guards(request).views.check(request.scope, "player searches")
    prefix = search.strip()[:32]
    if len(prefix) < 2:
        raise ApiError("search with two characters or more", "request/invalid")
    return {"players": [person_json(p) for p in await store.search_accounts(prefix)]}


# ---------------------------------------------------------------------- challenges

class ChallengeIn(BaseModel):
    to: str = Field(min_length=1, max_length=64)
    variant: str = Field(default="egyptian", max_length=40)
    players: int = Field(default=2, ge=2, le=4)
    teams: bool = False
    rated: bool = False
    length: str = Field(default="full", max_length=10)


@router.post("/api/challenges", status_code=201)
async def challenge(body: ChallengeIn, player: Player, request: Request,
                    social: SocialDep, fairplay: FairPlayDep) -> dict[str, Any]:
    limit(request, "tables", "challenges")
    if body.rated:
        await fairplay.may_play(player, rated=True)
    made = await social.challenges.make(player, body.to, Terms(
        body.variant, body.players, body.teams, body.rated, body.length))
    return {"challenge": challenge_json(made)}


@router.get("/api/challenges")
async def challenges(player: Player, social: SocialDep) -> dict[str, Any]:
    return await social.challenges.listing(player)


@router.post("/api/challenges/{challenge_id}/accept")
async def accept(challenge_id: str, player: Player, request: Request,
                 social: SocialDep) -> dict[str, Any]:
    limit(request, "tables", "challenges")
    done = await social.challenges.accept(player, challenge_id)
    return {"challenge": challenge_json(done), "table": done.table_id}


@router.post("/api/challenges/{challenge_id}/decline")
async def decline(challenge_id: str, player: Player, social: SocialDep) -> dict[str, Any]:
    return {"challenge": challenge_json(await social.challenges.refuse(player, challenge_id))}


@router.delete("/api/challenges/{challenge_id}")
async def cancel(challenge_id: str, player: Player, social: SocialDep) -> dict[str, Any]:
    return {"challenge": challenge_json(await social.challenges.refuse(player, challenge_id))}


# ---------------------------------------------------------------------- the bell

@router.get("/api/notifications")
async def notifications(player: Player, store: StoreDep) -> dict[str, Any]:
    rows = await store.notifications(player.id)
    return {"unread": sum(1 for r in rows if r.read_at is None),
            "notifications": [notification_json(r) for r in rows]}


class ReadIn(BaseModel):
    ids: list[str] | None = Field(default=None, max_length=100)


@router.post("/api/notifications/read")
async def read(body: ReadIn, player: Player, store: StoreDep) -> dict[str, Any]:
    return {"read": await store.read_notifications(player.id, datetime.now(UTC), body.ids)}


# ---------------------------------------------------------------------- Web Push

@router.get("/api/push/key")
async def push_key(social: SocialDep) -> dict[str, Any]:
    return {"key": social.pusher.public if social.pusher is not None else None}


class Keys(BaseModel):
    p256dh: str = Field(min_length=1, max_length=200)
    auth: str = Field(min_length=1, max_length=100)


class SubscriptionIn(BaseModel):
    endpoint: str = Field(min_length=8, max_length=1000)
    keys: Keys


@router.post("/api/push", status_code=201)
async def subscribe(body: SubscriptionIn, player: Player, store: StoreDep) -> dict[str, Any]:
    if not body.endpoint.startswith(("https://", "http://127.0.0.1", "http://localhost")):
        raise ApiError("a push endpoint is an https address", "request/invalid")
    if len(await store.pushes(player.id)) >= 10:
        raise ApiError("at most 10 browsers take pushes: remove one first", "push/too_many")
    await store.add_push(PushRow(body.endpoint, player.id, body.keys.p256dh, body.keys.auth,
                                 datetime.now(UTC)))
    return {"subscribed": True}


class EndpointIn(BaseModel):
    endpoint: str = Field(min_length=8, max_length=1000)


@router.post("/api/push/remove")
async def unsubscribe(body: EndpointIn, player: Player, store: StoreDep) -> dict[str, Any]:
    return {"removed": await store.remove_push(body.endpoint, player.id)}


# ---------------------------------------------------------------------- the page's socket

async def my_socket(websocket: WebSocket) -> None:
    """``/ws/me``, a signed-in page's socket: a ``hello`` with the session token first (as
    a table's), then it carries the player's notifications, challenges' answers and
    friends' presence; the page sends nothing else. While one is open the player is
    online."""
    async with socket_slot(websocket) as admitted:
        if not admitted:
            return
        await websocket.accept()
        try:
            token = await hello_token(websocket)
        except ProtocolError as exc:
            with contextlib.suppress(Exception):
                await websocket.send_json({"type": "error", "code": exc.code,
                                           "message": exc.message})
                await websocket.close(code=4400)
            return
        store = get_store(websocket)
        player = await player_of(store, token, get_guards(websocket).touches)
        session = await store.session_by_token(token_hash(token)) if player else None
        if player is None or session is None:
            with contextlib.suppress(Exception):
                await websocket.send_json({"type": "error", "code": "auth/required",
                                           "message": "sign in first"})
                await websocket.close(code=4401)
            return
        await _serve(websocket, player, session.id)


async def _serve(websocket: WebSocket, player: Any, session_id: str) -> None:
    settings = get_settings(websocket)
    social = get_social(websocket)
    outbox = Outbox(websocket, limit=settings.send_queue_limit,
                    stall_seconds=settings.stall_seconds)
    # The writer first: a page that waits its turn to read the store (a burst of pages)
    # must not find its first message stale and be closed for it.
    writer = asyncio.create_task(outbox.run())
    reader = asyncio.create_task(drain(websocket, outbox))
    signed_in = get_lobby(websocket).signed_in  # its session's end closes it (4401)
    signed_in.add(player.id, session_id, outbox)
    try:
        async with social.presence.opening:
            unread = await get_store(websocket).unread_count(player.id)
        outbox.put(f'{{"type":"hello","unread":{unread}}}')
        await social.presence.attach(player, outbox)
        await asyncio.wait({writer, reader}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        signed_in.remove(player.id, session_id, outbox)
        social.presence.detach(player, outbox)
        for task in (writer, reader):
            task.cancel()
        await asyncio.gather(writer, reader, return_exceptions=True)
        with contextlib.suppress(Exception):
            await websocket.close()


SOCKET = SocketRoute("/ws/me", my_socket)
"""The signed-in page's socket (:mod:`basra.server.http.sockets`)."""

__all__ = ["SOCKET", "router"]
