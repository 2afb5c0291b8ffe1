"""The account (docs/PROTOCOL.md, "Accounts"): claim the guest as an account, change the
password, delete the account, download everything stored about the player. What a stolen
token must not do (add a password, export, delete) needs a fresh proof
(:func:`basra.server.identity.sessions.require_proof`; sessions.py: ``POST
/api/sessions/current/proof``)."""

from __future__ import annotations

import asyncio
import math
import re
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any
from urllib.parse import quote

import orjson
from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, Field

from basra.errors import BasraError
from basra.server.http.deps import (
    Account,
    CurrentSession,
    GuardsDep,
    LobbyDep,
    Player,
    ProvedAccount,
    ProvedPlayer,
    StoreDep,
    get_fairplay,
    get_guards,
    get_lobby,
    get_settings,
    me_out,
)
from basra.server.identity.accounts import (
    PASSWORD_FIELD,
    BadCredentials,
    address_of,
    check_password,
    clean_password,
    clean_username,
    hash_password,
    me_json,
    username_key,
)
from basra.server.identity.names import generated
from basra.server.identity.passkeys import passkey_json
from basra.server.identity.sessions import now, require_proof, session_json, session_key
from basra.server.wire.errors import ApiError, RateLimited
from basra.store.base import AlreadyClaimed, PlayerRow, UsernameLookalike, UsernameTaken

router = APIRouter()


EXPORT_MATCHES = 10_000
"""The most matches an export holds (the newest)."""


class ClaimIn(BaseModel):
    username: str = Field(max_length=200)
    password: str | None = Field(default=None, max_length=PASSWORD_FIELD)



class PasswordIn(BaseModel):
    current: str | None = Field(default=None, max_length=PASSWORD_FIELD)
    password: str = Field(max_length=PASSWORD_FIELD)


class DeleteIn(BaseModel):
    confirm: str = Field(max_length=200)



# ---------------------------------------------------------------------------------------
# the account


@router.post("/api/account", status_code=201)
async def claim(body: ClaimIn, request: Request, player: Player, session: CurrentSession,
                store: StoreDep) -> dict[str, Any]:
    """The signed-in guest becomes an account, keeping its id, history and sessions."""
    fairplay = get_fairplay(request)
    guards = get_guards(request)
    if player.account:
        raise ApiError("you already have an account", "account/already")
    username = clean_username(body.username)
    await fairplay.check_name(username)
    password = clean_password(body.password) if body.password is not None else None
    taken = ApiError("that username is taken", "account/username_taken")
    lookalike = ApiError("that username looks like another player's: choose another",
                         "account/username_lookalike")
    already = ApiError("you already have an account", "account/already")
    found = await store.account(username)
    if found is not None:  # (its own, claimed a moment ago: a double tap)
        raise already if found.player.id == player.id else taken
    if await store.lookalike(username) is not None:
        now = await store.player(player.id)
        raise already if now is not None and now.account else lookalike
    hashed = (await hash_password(guards.hashing, address_of(request.scope), password)
              if password is not None else None)
    try:
        claimed = await store.claim_account(player.id, username, hashed)
    except UsernameTaken:
        raise taken from None
    except UsernameLookalike:
        raise lookalike from None
    except AlreadyClaimed:  # two claims at once (a double tap): the other one won
        raise already from None
    if generated(claimed.nickname):  # a name the guest never chose: the username now
        await store.rename_player(claimed.id, username)
        claimed = replace(claimed, nickname=username)
    return await me_out(request, claimed)


@router.put("/api/account/password")
async def change_password(body: PasswordIn, request: Request, player: Account,
                          session: CurrentSession, store: StoreDep) -> dict[str, Any]:
    """A new password; the current one is needed if there is one (and is a proof; wrong
    ones count against this session and its address, not the account, which a stranger
    could lock), else a fresh proof by passkey (an account with neither needs none).
    Every other session ends. It proves nothing by itself (the token stays as it is: a
    client keeps it; ``POST /api/sessions/current/proof`` with the new password then
    proves and renews it)."""
    assert player.username is not None
    password = clean_password(body.password)
    if not player.has_password:
        await require_proof(store, player, session,
                            get_settings(request).fresh_proof_seconds)
    else:
        if body.current is None:
            raise BadCredentials("give your current password")
        address, key = address_of(request.scope), session_key(session)
        limiter = get_guards(request).sign_ins
        stamp = limiter.begin(address, key)
        found = await store.account(player.username)
        checked = await check_password(get_guards(request).hashing, address,
                                       found.password_hash if found else None, body.current)
        if not checked.ok:
            raise BadCredentials("your current password is wrong")
        limiter.succeeded(address, key, stamp, remember=False)
    await store.set_password(player.id, await hash_password(
        get_guards(request).hashing, address_of(request.scope), password))
    await store.revoke_sessions(player.id, keep=session.id)
    get_lobby(request).sign_out(player.id, keep=session.id)
    return {"changed": True}


@router.delete("/api/account")
async def delete_account(body: DeleteIn, player: ProvedAccount, store: StoreDep,
                         guards: GuardsDep, lobby: LobbyDep) -> dict[str, Any]:
    """Forget the person (name, username, password, sessions, passkeys, ratings); the
    matches stay, their seats named "deleted player". Needs a fresh proof and the
    username typed."""
    assert player.username is not None
    key = username_key(player.username)
    if username_key(body.confirm) != key:
        raise ApiError("type your username to confirm", "account/confirm")
    await store.delete_account(player.id)
    lobby.sign_out(player.id, forget=True)
    guards.sign_ins.forget(key)
    return {"deleted": True}


def _download_name(player: PlayerRow) -> str:
    """``Content-Disposition`` for the export: ``basra-USERNAME.json`` (RFC 6266, with an
    ASCII fallback for names in other scripts)."""
    name = player.username or f"guest-{player.id}"
    fallback = re.sub(r"[^A-Za-z0-9_.-]", "_", name)
    return (f"attachment; filename=\"basra-{fallback}.json\"; "
            f"filename*=UTF-8''{quote(f'basra-{name}.json', safe='')}")


@router.get("/api/account/export")
async def export(request: Request, player: ProvedPlayer, session: CurrentSession,
                 store: StoreDep) -> StreamingResponse:
    """Everything stored about the player, their match records included (no hash of
    anything: no password, token or key). Streamed a match at a time, each record rebuilt
    from the store, the event loop given back between two; one record rebuilt at a time
    per server (never held while sending), and one export per player a minute
    (``rate/limited`` otherwise). An account needs a fresh proof."""
    guards = get_guards(request)
    wait = guards.exports.take(player.id)
    if wait is not None:
        raise RateLimited(f"one export a minute: try again in {math.ceil(wait)} s", wait)
    me = await me_json(store, player)
    sessions = await store.sessions(player.id)
    passkeys = await store.passkeys(player.id)
    ratings = await store.ratings(player.id)
    points = await store.rating_history(player.id)
    head = {
        "format": "basra-export/1",
        "exported_at": now().isoformat(),
        "player": {**me, "created_at": player.created_at.isoformat()},
        "sessions": [session_json(s, session.id) for s in sessions],
        "passkeys": [{**passkey_json(p, session.id), "transports": list(p.transports),
                      "sign_count": p.sign_count} for p in passkeys],
        "ratings": [{"variant": r.variant, "rating": r.rating, "deviation": r.deviation,
                     "volatility": r.volatility, "games": r.games,
                     "rated_at": r.rated_at.isoformat()} for r in ratings],
        "rating_history": [{"table": p.table_id, "variant": p.variant,
                            "finished_at": p.finished_at.isoformat(), "rating": p.rating,
                            "deviation": p.deviation, "change": p.change} for p in points],
    }
    lobby = get_lobby(request)

    async def body() -> AsyncIterator[bytes]:
        yield orjson.dumps(head)[:-1] + b', "matches": ['
        for n, row in enumerate(await store.history(player.id, EXPORT_MATCHES)):
            # One record rebuilt at a time across exports; the lock is never held while
            # a record is sent (a client that stops reading holds nobody up).
            async with guards.exporting:
                try:
                    record: dict[str, Any] | None = (
                        await lobby.any_table(row.table_id)).record_json()
                except BasraError:
                    record = None
            match = {
                "table": row.table_id, "variant": row.variant, "seat": row.seat,
                "players": list(row.players), "teams": row.teams, "winner": row.winner,
                "totals": list(row.totals), "finished_at": row.finished_at.isoformat(),
                "rated": row.rated, "change": row.change, "result": row.result,
                "record": record}
            yield (b", " if n else b"") + orjson.dumps(match)
            await asyncio.sleep(0)  # a table's play goes before the next record
        yield b"]}"

    return StreamingResponse(body(), media_type="application/json",
                             headers={"Content-Disposition": _download_name(player)})
