"""Passkeys (WebAuthn) through py_webauthn: an account registers one, then signs in with it
on any device that holds it (docs/PROTOCOL.md, "Passkeys").

Credentials are discoverable (resident key required), so sign-in needs no username: the
options carry no list of credentials, and the browser offers the passkeys it holds for the
site. User verification is preferred, not required (the site has no second factor to
protect). Attestation is not asked for. Every ceremony's challenge is stored
(:meth:`~basra.store.base.Store.put_challenge`) for :data:`CHALLENGE_SECONDS` and answered
once (:meth:`~basra.store.base.Store.take_challenge` removes it).

The relying party is the site: its id is :attr:`Settings.passkey_rp_id
<basra.server.config.Settings.passkey_rp_id>` or the host name of the site's public origin
(:func:`basra.server.origin.site_origin`, never a request's ``Host``), and a ceremony may
come from :attr:`Settings.passkey_origins <basra.server.config.Settings.passkey_origins>`
or that origin.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal
from urllib.parse import urlsplit

import webauthn
from starlette.requests import HTTPConnection
from webauthn.helpers import bytes_to_base64url, options_to_json_dict
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    AuthenticatorTransport,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from basra.server.config import Settings
from basra.server.ids import new_id
from basra.server.origin import site_origin
from basra.server.wire.errors import Refusal
from basra.store.base import ChallengeRow, PasskeyRow, PlayerRow
from basra.store.ports import Store

RP_NAME = "Basra"
PASSKEYS_MAX = 30
"""Passkeys one account may hold."""
CHALLENGE_SECONDS = 300
"""How long a ceremony's challenge may be answered."""
NAME_MAX = 60
"""A passkey's name (``Pixel 8``) is kept to this many characters."""
DEFAULT_NAME = "Passkey"

Purpose = Literal["register", "sign-in", "prove"]
"""What a challenge is for: adding a passkey, signing in, or proving who one is (a fresh
proof, :func:`basra.server.identity.sessions.require_proof`)."""


class PasskeyError(Refusal):
    """A passkey ceremony refused: ``passkey/failed`` (it did not verify),
    ``passkey/expired`` (no such challenge, or answered too late), ``passkey/unknown`` (no
    such credential), ``passkey/not_found`` (not one of the account's)."""

    code = "passkey/failed"


@dataclass(frozen=True, slots=True)
class RelyingParty:
    """Who the passkeys are for: the RP id (a domain) and the origins allowed."""

    id: str
    origins: tuple[str, ...]

    @classmethod
    def of(cls, settings: Settings, scheme: str, host: str | None,
           netloc: str) -> RelyingParty:
        """From the settings, else from the site's public origin (its scheme, host name
        and ``host[:port]``)."""
        rp_id = settings.passkey_rp_id or host or "localhost"
        origins = settings.passkey_origins or (f"{scheme}://{netloc}",)
        return cls(rp_id, tuple(origins))


def expires() -> datetime:
    return datetime.now(UTC) + timedelta(seconds=CHALLENGE_SECONDS)


def _transports(names: Sequence[str]) -> list[AuthenticatorTransport]:
    known = {t.value: t for t in AuthenticatorTransport}
    return [known[n] for n in names if n in known]


def registration_options(rp: RelyingParty, player: PlayerRow,
                         existing: Sequence[PasskeyRow]) -> tuple[bytes, dict[str, Any]]:
    """Options for ``navigator.credentials.create()``: the challenge and the
    PublicKeyCredentialCreationOptions JSON (base64url for bytes). The user id is the
    player id's bytes, so a sign-in's user handle names the player; the account's own
    passkeys are excluded (an authenticator holds one of them at most)."""
    assert player.username is not None, "only an account registers a passkey"
    options = webauthn.generate_registration_options(
        rp_id=rp.id, rp_name=RP_NAME, user_id=player.id.encode(),
        user_name=player.username, user_display_name=player.nickname,
        timeout=CHALLENGE_SECONDS * 1000,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.PREFERRED),
        exclude_credentials=[
            PublicKeyCredentialDescriptor(id=webauthn.base64url_to_bytes(p.credential_id),
                                          transports=_transports(p.transports) or None)
            for p in existing])
    return options.challenge, options_to_json_dict(options)


def authentication_options(rp: RelyingParty, allow: Sequence[PasskeyRow] = ()
                           ) -> tuple[bytes, dict[str, Any]]:
    """Options for ``navigator.credentials.get()``, user verification preferred: to sign
    in, no allow list (discoverable credentials); to prove who one is, ``allow``, the
    account's own passkeys."""
    options = webauthn.generate_authentication_options(
        rp_id=rp.id, timeout=CHALLENGE_SECONDS * 1000,
        user_verification=UserVerificationRequirement.PREFERRED,
        allow_credentials=[
            PublicKeyCredentialDescriptor(id=webauthn.base64url_to_bytes(p.credential_id),
                                          transports=_transports(p.transports) or None)
            for p in allow] or None)
    return options.challenge, options_to_json_dict(options)


async def new_challenge(store: Store, challenge: bytes, purpose: Purpose,
                        player_id: str | None) -> str:
    """Store a ceremony's challenge: the id the client answers it with."""
    row = ChallengeRow(new_id(12), challenge, purpose, player_id, expires())
    await store.put_challenge(row)
    return row.id


async def take_challenge(store: Store, challenge_id: object, purpose: Purpose,
                         player_id: str | None) -> bytes:
    """The challenge ``challenge_id`` names, used up; ``passkey/expired`` if there is no
    such challenge for this ceremony and player, or it is too late."""
    expired = PasskeyError("that passkey request expired: start again", "passkey/expired")
    if not isinstance(challenge_id, str) or not 0 < len(challenge_id) <= 64:
        raise expired
    row = await store.take_challenge(challenge_id)
    if (row is None or row.purpose != purpose or row.player_id != player_id
            or row.expires_at <= datetime.now(UTC)):
        raise expired
    return row.challenge


def credential_id(credential: object) -> str:
    """The credential id a response names (base64url, as stored)."""
    if isinstance(credential, Mapping):
        found = credential.get("id")
        if isinstance(found, str) and 0 < len(found) <= 1400 and found.isascii():
            return found.rstrip("=")
    raise PasskeyError("the passkey answer is not a WebAuthn credential")


def clean_name(raw: object) -> str:
    """A passkey's name as kept: printable, spaces folded, at most 60 characters.

    >>> clean_name("  Pixel\\t 8  "), clean_name(None)
    ('Pixel 8', 'Passkey')
    """
    if not isinstance(raw, str):
        return DEFAULT_NAME
    try:
        raw.encode("utf-8")
    except UnicodeEncodeError:
        return DEFAULT_NAME
    name = " ".join("".join(ch if ch.isprintable() else " " for ch in raw).split())
    return name[:NAME_MAX].strip() or DEFAULT_NAME


@dataclass(frozen=True, slots=True)
class Registered:
    credential_id: str
    public_key: bytes
    sign_count: int
    transports: tuple[str, ...]


def _failed(exc: Exception) -> PasskeyError:
    """One line, whatever the library said."""
    text = " ".join(str(exc).split())[:200]
    return PasskeyError(f"the passkey did not verify: {text}" if text
                        else "the passkey did not verify")


def verify_registration(rp: RelyingParty, challenge: bytes,
                        credential: object) -> Registered:
    """Check a ``navigator.credentials.create()`` answer; ``passkey/failed`` if it does
    not verify."""
    if not isinstance(credential, dict):
        raise PasskeyError("the passkey answer is not a WebAuthn credential")
    try:
        verified = webauthn.verify_registration_response(
            credential=credential, expected_challenge=challenge, expected_rp_id=rp.id,
            expected_origin=list(rp.origins))
    except (WebAuthnException, ValueError, TypeError, KeyError) as exc:
        raise _failed(exc) from None
    response = credential.get("response")
    names = response.get("transports") if isinstance(response, dict) else None
    transports = tuple(t.value for t in _transports(
        [n for n in names if isinstance(n, str)] if isinstance(names, list) else []))
    return Registered(bytes_to_base64url(verified.credential_id),
                      verified.credential_public_key, verified.sign_count, transports)


def verify_authentication(rp: RelyingParty, challenge: bytes, credential: object,
                          passkey: PasskeyRow) -> int:
    """Check a ``navigator.credentials.get()`` answer made with ``passkey``: its new sign
    count; ``passkey/failed`` if it does not verify (a bad signature, another site, a
    sign count that went back, a user handle not the passkey's owner)."""
    if not isinstance(credential, dict):
        raise PasskeyError("the passkey answer is not a WebAuthn credential")
    try:
        verified = webauthn.verify_authentication_response(
            credential=credential, expected_challenge=challenge, expected_rp_id=rp.id,
            expected_origin=list(rp.origins), credential_public_key=passkey.public_key,
            credential_current_sign_count=passkey.sign_count)
    except (WebAuthnException, ValueError, TypeError, KeyError) as exc:
        raise _failed(exc) from None
    response = credential.get("response")
    handle = response.get("userHandle") if isinstance(response, dict) else None
    if isinstance(handle, str) and handle:
        try:
            owner = webauthn.base64url_to_bytes(handle)
        except ValueError:
            owner = b""
        if owner != passkey.player_id.encode():
            raise PasskeyError("the passkey did not verify: it names another player")
    return verified.new_sign_count


async def answered(  # noqa: PLR0913 - one ceremony's parts, named at both call sites
        store: Store, rp: RelyingParty, challenge_id: object, purpose: Purpose,
        credential: object, player_id: str | None, unknown: str) -> PasskeyRow:
    """The passkey that answered a ``sign-in`` challenge (``player_id`` None: any account's)
    or a ``prove`` one (the account's own), checked once for both: the challenge used up,
    the passkey known (``passkey/unknown`` with the message ``unknown`` otherwise), its
    answer verified (``passkey/failed``) and its use recorded (the sign count moves)."""
    challenge = await take_challenge(store, challenge_id, purpose, player_id)
    passkey = await store.passkey(credential_id(credential))
    if passkey is None or (player_id is not None and passkey.player_id != player_id):
        raise PasskeyError(unknown, "passkey/unknown")
    count = verify_authentication(rp, challenge, credential, passkey)
    await store.passkey_used(passkey.credential_id, count)
    return passkey


def passkey_json(passkey: PasskeyRow, session_id: str | None = None) -> dict[str, Any]:
    """A passkey as the API lists it (never its key): ``added_here`` when it was added
    from ``session_id``, the asking session; ``added_from``, the browser it was added
    from."""
    return {"id": passkey.credential_id, "name": passkey.name,
            "created_at": passkey.created_at.isoformat(),
            "last_used_at": (passkey.last_used_at.isoformat()
                             if passkey.last_used_at else None),
            "added_from": passkey.added_from,
            "added_here": session_id is not None and passkey.added_by == session_id}


def relying_party(request: HTTPConnection, settings: Settings) -> RelyingParty:
    """The site's relying party: from the settings and the site's public origin, never
    from the request's ``Host``."""
    site = urlsplit(site_origin(settings, request.scope))
    return RelyingParty.of(settings, site.scheme, site.hostname, site.netloc)
