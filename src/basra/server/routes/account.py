"""Accounts, sessions and passkeys (docs/PROTOCOL.md, "Accounts"): claim the guest as an
account, sign in with a password or a passkey, list and end sessions, change the password,
delete the account, download everything stored about the player. What a stolen token must
not do (add a passkey or a password, remove a passkey, export, delete) needs a fresh proof
(:func:`basra.server.accounts.require_proof`): ``POST /api/sessions/current/proof``."""

from __future__ import annotations

import asyncio
import math
import re
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Annotated, Any
from urllib.parse import quote, urlsplit

import orjson
from fastapi import APIRouter, Depends, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, Field

from basra.errors import BasraError
from basra.server.accounts import (
    BadCredentials,
    UsernameError,
    address_of,
    check_password,
    clean_password,
    clean_username,
    fresh,
    hash_password,
    me_json,
    now,
    open_session,
    require_proof,
    session_json,
    username_key,
)
from basra.server.config import Settings
from basra.server.deps import (
    Account,
    CurrentSession,
    Guards,
    LobbyDep,
    Player,
    ProvedAccount,
    ProvedPlayer,
    StoreDep,
    get_guards,
    get_lobby,
    get_settings,
)
from basra.server.errors import ApiError, RateLimited
from basra.server.names import generated
from basra.server.origin import site_origin
from basra.server.passkeys import (
    PasskeyError,
    RelyingParty,
    authentication_options,
    clean_name,
    credential_id,
    new_challenge,
    passkey_json,
    registration_options,
    take_challenge,
    verify_authentication,
    verify_registration,
)
from basra.store.base import (
    AlreadyClaimed,
    PasskeyRow,
    PlayerRow,
    UsernameLookalike,
    UsernameTaken,
)

router = APIRouter()

GuardsDep = Annotated[Guards, Depends(get_guards)]
SettingsDep = Annotated[Settings, Depends(get_settings)]

PASSWORD_FIELD = 1024
"""Longest password field a request may carry (the rules allow 128 characters; this only
keeps absurd input from reaching the hasher)."""
PASSKEYS_MAX = 30
"""Passkeys one account may hold."""
EXPORT_MATCHES = 10_000
"""The most matches an export holds (the newest)."""



class ClaimIn(BaseModel):
    username: str = Field(max_length=200)
    password: str | None = Field(default=None, max_length=PASSWORD_FIELD)


class SignInIn(BaseModel):
    username: str = Field(max_length=200)
    password: str = Field(max_length=PASSWORD_FIELD)


class ProofIn(BaseModel):
    """The account's password, or a passkey's answer to a ``prove`` challenge."""

    password: str | None = Field(default=None, max_length=PASSWORD_FIELD)
    challenge: str | None = Field(default=None, max_length=64)
    credential: dict[str, Any] | None = None


class PasswordIn(BaseModel):
    current: str | None = Field(default=None, max_length=PASSWORD_FIELD)
    password: str = Field(max_length=PASSWORD_FIELD)


class DeleteIn(BaseModel):
    confirm: str = Field(max_length=200)


class PasskeyIn(BaseModel):
    challenge: str = Field(max_length=64)
    credential: dict[str, Any]
    name: str | None = Field(default=None, max_length=200)


class PasskeySignInIn(BaseModel):
    challenge: str = Field(max_length=64)
    credential: dict[str, Any]


# ---------------------------------------------------------------------------------------
# the account


@router.post("/api/account", status_code=201)
async def claim(body: ClaimIn, request: Request, player: Player, session: CurrentSession,
                store: StoreDep) -> dict[str, Any]:
    """The signed-in guest becomes an account, keeping its id, history and sessions."""
    guards = get_guards(request)
    if player.account:
        raise ApiError("you already have an account", "account/already")
    username = clean_username(body.username)
    password = clean_password(body.password) if body.password is not None else None
    taken = ApiError("that username is taken", "account/username_taken")
    lookalike = ApiError("that username looks like another player's: choose another",
                         "account/username_lookalike")
    if await store.account(username) is not None:
        raise taken
    if await store.lookalike(username) is not None:
        raise lookalike
    hashed = (await hash_password(guards.hashing, address_of(request.scope), password)
              if password is not None else None)
    try:
        claimed = await store.claim_account(player.id, username, hashed)
    except UsernameTaken:
        raise taken from None
    except UsernameLookalike:
        raise lookalike from None
    except AlreadyClaimed:  # two claims at once (a double tap): the other one won
        raise ApiError("you already have an account", "account/already") from None
    if generated(claimed.nickname):  # a name the guest never chose: the username now
        await store.rename_player(claimed.id, username)
        claimed = replace(claimed, nickname=username)
    if hashed is not None:  # the password just chosen is a proof
        await store.prove_session(session.id)
    return await me_json(store, claimed)


@router.put("/api/account/password")
async def change_password(body: PasswordIn, request: Request, player: Account,
                          session: CurrentSession, store: StoreDep) -> dict[str, Any]:
    """A new password; the current one is needed if there is one (and is a proof), else a
    fresh proof by passkey (an account with neither needs none). Every other session
    ends."""
    assert player.username is not None
    password = clean_password(body.password)
    if not player.has_password:
        await require_proof(store, player, session,
                            get_settings(request).fresh_proof_seconds)
    else:
        if body.current is None:
            raise BadCredentials("give your current password")
        address, key = address_of(request.scope), username_key(player.username)
        limiter = get_guards(request).sign_ins
        stamp = limiter.begin(address, key)
        found = await store.account(player.username)
        checked = await check_password(get_guards(request).hashing, address,
                                       found.password_hash if found else None, body.current)
        if not checked.ok:
            raise BadCredentials("your current password is wrong")
        limiter.succeeded(address, key, stamp)
    await store.set_password(player.id, await hash_password(
        get_guards(request).hashing, address_of(request.scope), password))
    await store.revoke_sessions(player.id, keep=session.id)
    await store.prove_session(session.id)
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
    return {"token": token, "player": await me_json(store, found.player)}


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
        raise PasskeyError("this account has no passkey: use your password",
                           "passkey/not_found")
    challenge, options = authentication_options(relying_party(request, settings), mine)
    return {"challenge": await new_challenge(store, challenge, "prove", player.id),
            "options": options}


@router.post("/api/sessions/current/proof")
async def prove(body: ProofIn, request: Request, player: Account, session: CurrentSession,
                store: StoreDep) -> dict[str, Any]:
    """Prove who holds this session: the account's password, or one of its passkeys'
    answer to a ``prove`` challenge. Counted as sign-ins are (the same limits)."""
    assert player.username is not None
    guards, settings = get_guards(request), get_settings(request)
    address = address_of(request.scope)
    if body.password is not None:
        key = username_key(player.username)
        stamp = guards.sign_ins.begin(address, key)
        found = await store.account(player.username)
        checked = await check_password(guards.hashing, address,
                                       found.password_hash if found else None,
                                       body.password)
        if not checked.ok:
            raise BadCredentials("that is not your password")
        guards.sign_ins.succeeded(address, key, stamp)
    elif body.challenge is not None and body.credential is not None:
        stamp = guards.sign_ins.begin(address, passkey=True)
        challenge = await take_challenge(store, body.challenge, "prove", player.id)
        passkey = await store.passkey(credential_id(body.credential))
        if passkey is None or passkey.player_id != player.id:
            raise PasskeyError("that passkey is not one of this account's",
                               "passkey/unknown")
        count = verify_authentication(relying_party(request, settings), challenge,
                                      body.credential, passkey)
        await store.passkey_used(passkey.credential_id, count)
        guards.sign_ins.succeeded(address, None, stamp, passkey=True)
    else:
        raise ApiError("give your password, or a passkey's answer", "request/invalid")
    await store.prove_session(session.id)
    return {"proved": True, "seconds": settings.fresh_proof_seconds}


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


# ---------------------------------------------------------------------------------------
# passkeys


def relying_party(request: Request, settings: Settings) -> RelyingParty:
    """The site's relying party: from the settings and the site's public origin, never
    from the request's ``Host``."""
    site = urlsplit(site_origin(settings, request.scope))
    return RelyingParty.of(settings, site.scheme, site.hostname, site.netloc)


@router.post("/api/passkeys/options")
async def passkey_options(request: Request, player: ProvedAccount, store: StoreDep,
                          settings: SettingsDep, guards: GuardsDep) -> dict[str, Any]:
    """Begin registering a passkey: the challenge's id and the options for
    ``navigator.credentials.create()``. Needs a fresh proof (the challenge, the player's
    for a few minutes, is what finishing needs)."""
    guards.challenges.check(request.scope)
    existing = await store.passkeys(player.id)
    if len(existing) >= PASSKEYS_MAX:
        raise PasskeyError(f"an account may hold at most {PASSKEYS_MAX} passkeys")
    challenge, options = registration_options(relying_party(request, settings), player,
                                              existing)
    return {"challenge": await new_challenge(store, challenge, "register", player.id),
            "options": options}


@router.post("/api/passkeys", status_code=201)
async def add_passkey(body: PasskeyIn, request: Request, player: Account,
                      session: CurrentSession, store: StoreDep) -> dict[str, Any]:
    """Finish registering: the answer of ``navigator.credentials.create()`` (to a
    challenge only a freshly proved session was given)."""
    settings = get_settings(request)
    challenge = await take_challenge(store, body.challenge, "register", player.id)
    registered = verify_registration(relying_party(request, settings), challenge,
                                     body.credential)
    if await store.passkey(registered.credential_id) is not None:
        raise PasskeyError("that passkey is already registered")
    row = PasskeyRow(registered.credential_id, player.id, registered.public_key,
                     registered.sign_count, clean_name(body.name), now(),
                     registered.transports, added_by=session.id,
                     added_from=session.user_agent)
    await store.add_passkey(row)
    return passkey_json(row, session.id)


@router.get("/api/passkeys")
async def list_passkeys(player: Account, session: CurrentSession,
                        store: StoreDep) -> dict[str, Any]:
    return {"passkeys": [passkey_json(p, session.id)
                         for p in await store.passkeys(player.id)]}


@router.delete("/api/passkeys/{passkey_id}")
async def remove_passkey(passkey_id: str, player: ProvedAccount,
                         store: StoreDep) -> dict[str, Any]:
    """Remove one of the account's passkeys: needs a fresh proof."""
    removed = len(passkey_id) <= 1400 and await store.remove_passkey(player.id, passkey_id)
    if not removed:
        raise PasskeyError("no such passkey", "passkey/not_found")
    return {"removed": True}


@router.post("/api/passkeys/sign-in/options")
async def sign_in_options(request: Request, store: StoreDep, settings: SettingsDep,
                          guards: GuardsDep) -> dict[str, Any]:
    """Begin a passkey sign-in: the challenge's id and the options for
    ``navigator.credentials.get()`` (no allow list: the browser offers what it holds)."""
    guards.challenges.check(request.scope)
    challenge, options = authentication_options(relying_party(request, settings))
    return {"challenge": await new_challenge(store, challenge, "sign-in", None),
            "options": options}


@router.post("/api/passkeys/sign-in", status_code=201)
async def passkey_sign_in(body: PasskeySignInIn, request: Request, store: StoreDep,
                          settings: SettingsDep, guards: GuardsDep) -> dict[str, Any]:
    """Sign in with a passkey: a new session's token. Failures count against the
    address, as failed password sign-ins do."""
    address = address_of(request.scope)
    stamp = guards.sign_ins.begin(address, passkey=True)
    challenge = await take_challenge(store, body.challenge, "sign-in", None)
    unknown = PasskeyError("no account has that passkey", "passkey/unknown")
    passkey = await store.passkey(credential_id(body.credential))
    if passkey is None:
        raise unknown
    count = verify_authentication(relying_party(request, settings), challenge,
                                  body.credential, passkey)
    player = await store.player(passkey.player_id)
    if player is None or not player.account:
        raise unknown
    await store.passkey_used(passkey.credential_id, count)
    guards.sign_ins.succeeded(address, None, stamp, passkey=True)
    token, _ = await open_session(store, request.scope, player.id, "passkey")
    return {"token": token, "player": await me_json(store, player)}
