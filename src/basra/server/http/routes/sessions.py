"""Sessions (docs/PROTOCOL.md, "Accounts"): sign in with a password, list the player's
sessions, prove who holds this one (the password or a passkey: a fresh proof), end one of
them, this one or every one."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from basra.server.http.deps import (
    Account,
    CurrentSession,
    GuardsDep,
    LobbyDep,
    Player,
    SettingsDep,
    StoreDep,
    get_guards,
    get_settings,
    me_out,
)
from basra.server.identity import passkeys
from basra.server.identity.accounts import (
    PASSWORD_FIELD,
    BadCredentials,
    UsernameError,
    address_of,
    check_password,
    clean_username,
    username_key,
)
from basra.server.identity.guests import token_hash
from basra.server.identity.sessions import fresh, open_session, proved, session_json, session_key
from basra.server.wire.errors import ApiError
from basra.store.base import PlayerRow

router = APIRouter()



class SignInIn(BaseModel):
    username: str = Field(max_length=200)
    password: str = Field(max_length=PASSWORD_FIELD)



class ProofIn(BaseModel):
    """The account's password, or a passkey's answer to a ``prove`` challenge."""

    password: str | None = Field(default=None, max_length=PASSWORD_FIELD)
    challenge: str | None = Field(default=None, max_length=64)
    credential: dict[str, Any] | None = None



# ---------------------------------------------------------------------------------------
# sessions


@router.post("/api/sessions", status_code=201)
async def sign_in(body: SignInIn, request: Request, store: StoreDep,
                  guards: GuardsDep) -> dict[str, Any]:
    """Sign in with a username and a password: a new session's token. A wrong password
    and an unknown username get the same answer, after the same work."""
    try:
        username: str | None = clean_username(body.username)
    except UsernameError:
        username = None
    address = address_of(request.scope)
    key = username_key(username or body.username)
    stamp = guards.sign_ins.begin(address, key)
    found = await store.account(username) if username is not None else None
    checked = await check_password(guards.hashing, address,
                                   found.password_hash if found else None, body.password)
    if found is None or not checked.ok:
        raise BadCredentials()
    guards.sign_ins.succeeded(address, key, stamp)
    if checked.rehashed is not None:
        await store.set_password(found.player.id, checked.rehashed)
    token, _ = await open_session(store, request.scope, found.player.id, "password")
    get_guards(request).touches.fresh(token_hash(token))
    return {"token": token, "player": await me_out(request, found.player)}


@router.get("/api/sessions")
async def sessions(request: Request, player: Player, session: CurrentSession,
                   store: StoreDep) -> dict[str, Any]:
    """The player's sessions, newest first; ``proved``: whether this one holds a fresh
    proof."""
    return {"sessions": [session_json(s, session.id)
                         for s in await store.sessions(player.id)],
            "proved": fresh(session, get_settings(request).fresh_proof_seconds)}


@router.post("/api/sessions/current/proof/options")
async def proof_options(request: Request, player: Account, store: StoreDep,
                        settings: SettingsDep, guards: GuardsDep) -> dict[str, Any]:
    """Begin proving who holds this session with a passkey: the challenge's id and the
    options for ``navigator.credentials.get()``, allowing the account's own passkeys."""
    guards.challenges.check(request.scope)
    mine = await store.passkeys(player.id)
    if not mine:
        raise passkeys.PasskeyError("this account has no passkey: use your password",
                                    "passkey/not_found")
    party = passkeys.relying_party(request, settings)
    challenge, options = passkeys.authentication_options(party, mine)
    return {"challenge": await passkeys.new_challenge(store, challenge, "prove", player.id),
            "options": options}


@router.post("/api/sessions/current/proof")
async def prove(body: ProofIn, request: Request, player: Account, session: CurrentSession,
                store: StoreDep) -> dict[str, Any]:
    """Prove who holds this session: the account's password, or one of its passkeys'
    answer to a ``prove`` challenge; the session goes on with a new token (in the
    answer). Counted as sign-ins are, per address and per session (not per account: a
    stranger's failed sign-ins must not keep the owner from proving)."""
    assert player.username is not None
    guards, settings = get_guards(request), get_settings(request)
    address = address_of(request.scope)
    if body.password is not None:
        key = session_key(session)
        stamp = guards.sign_ins.begin(address, key)
        found = await store.account(player.username)
        checked = await check_password(guards.hashing, address,
                                       found.password_hash if found else None,
                                       body.password)
        if not checked.ok:
            raise BadCredentials("that is not your password")
        guards.sign_ins.succeeded(address, key, stamp, remember=False)
    elif body.challenge is not None and body.credential is not None:
        stamp = guards.sign_ins.begin(address, passkey=True)
        await passkeys.answered(store, passkeys.relying_party(request, settings),
                                body.challenge, "prove", body.credential, player.id,
                                "that passkey is not one of this account's")
        guards.sign_ins.succeeded(address, None, stamp, passkey=True)
    else:
        raise ApiError("give your password, or a passkey's answer", "request/invalid")
    token = await proved(store, session)
    return {"proved": True, "seconds": settings.fresh_proof_seconds, "token": token}


def _may_sign_out(player: PlayerRow) -> None:
    if not player.account:
        raise ApiError("a guest who signs out loses their guest: claim an account first",
                       "auth/guest_sign_out")


@router.delete("/api/sessions/current")
async def sign_out(player: Player, session: CurrentSession, store: StoreDep,
                   lobby: LobbyDep) -> dict[str, Any]:
    """Sign out on this device."""
    _may_sign_out(player)
    revoked = await store.revoke_sessions(player.id, session.id)
    lobby.sign_out(player.id, session.id)
    return {"revoked": revoked}


@router.delete("/api/sessions/{session_id}")
async def revoke(session_id: str, player: Player, store: StoreDep,
                 lobby: LobbyDep) -> dict[str, Any]:
    """End one of the player's sessions (this one too, if named)."""
    _may_sign_out(player)
    revoked = await store.revoke_sessions(player.id, session_id) if len(session_id) <= 64 else 0
    if revoked == 0:
        raise ApiError("no such session", "session/not_found")
    lobby.sign_out(player.id, session_id)
    return {"revoked": revoked}


@router.delete("/api/sessions")
async def sign_out_everywhere(player: Player, store: StoreDep,
                              lobby: LobbyDep) -> dict[str, Any]:
    """End every session of the player's, this one too."""
    _may_sign_out(player)
    revoked = await store.revoke_sessions(player.id)
    lobby.sign_out(player.id)
    return {"revoked": revoked}
