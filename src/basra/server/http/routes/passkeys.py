"""Passkeys (docs/PROTOCOL.md, "Accounts"; WebAuthn through :mod:`basra.server.identity.passkeys`):
add one (a fresh proof first), list and remove them, sign in with one."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from basra.server.http.deps import (
    Account,
    CurrentSession,
    GuardsDep,
    ProvedAccount,
    SettingsDep,
    StoreDep,
    get_guards,
    get_settings,
    me_out,
)
from basra.server.identity.accounts import address_of
from basra.server.identity.guests import token_hash
from basra.server.identity.passkeys import (
    PASSKEYS_MAX,
    PasskeyError,
    answered,
    authentication_options,
    clean_name,
    new_challenge,
    passkey_json,
    registration_options,
    relying_party,
    take_challenge,
    verify_registration,
)
from basra.server.identity.sessions import now, open_session
from basra.store.base import PasskeyRow

router = APIRouter()



class PasskeyIn(BaseModel):
    challenge: str = Field(max_length=64)
    credential: dict[str, Any]
    name: str | None = Field(default=None, max_length=200)


class PasskeySignInIn(BaseModel):
    challenge: str = Field(max_length=64)
    credential: dict[str, Any]



# ---------------------------------------------------------------------------------------
# passkeys


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
async def add_passkey(body: PasskeyIn, request: Request, player: ProvedAccount,
                      session: CurrentSession, store: StoreDep) -> dict[str, Any]:
    """Finish registering: the answer of ``navigator.credentials.create()``, to a
    challenge only a freshly proved session was given, from a session whose proof still
    holds (a challenge handed out to another session is no use to an unproved one)."""
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
    """Remove one of the account's passkeys: needs a fresh proof; never the last way to
    sign in (``passkey/last`` when the account has no password and no other passkey)."""
    if not player.has_password:
        mine = [p.credential_id for p in await store.passkeys(player.id)]
        if mine == [passkey_id]:
            raise PasskeyError("this passkey is the only way to sign in to your account: "
                               "set a password or add another passkey first", "passkey/last")
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
    unknown = "no account has that passkey"
    passkey = await answered(store, relying_party(request, settings), body.challenge,
                             "sign-in", body.credential, None, unknown)
    player = await store.player(passkey.player_id)
    if player is None or not player.account:  # (deleting an account deletes its passkeys)
        raise PasskeyError(unknown, "passkey/unknown")
    guards.sign_ins.succeeded(address, None, stamp, passkey=True)
    token, _ = await open_session(store, request.scope, player.id, "passkey")
    get_guards(request).touches.fresh(token_hash(token))
    return {"token": token, "player": await me_out(request, player)}
