"""Sessions: each device's sign-in, and the fresh proof of who holds one.

- A session is made at sign-in: a fresh token handed out once, its SHA-256 and the device
  (user agent, trimmed to 200 characters; client address) stored.
- **A fresh proof**: a token alone is not the account. Adding a passkey or a password,
  removing a passkey, exporting and deleting need the session to have proved who holds it
  (the password or one of the account's passkeys) within the last five minutes
  (``Settings.fresh_proof_seconds``): a sign-in is a proof, and so is ``POST
  /api/sessions/current/proof``. Otherwise ``auth/proof_needed`` (403). An account with
  neither a password nor a passkey has nothing to prove with and is not asked
  (:func:`require_proof`). A proof renews the token (:func:`proved`).
"""

from __future__ import annotations

import math
from datetime import UTC, datetime
from typing import Any

from basra.server.identity.guests import new_token, token_hash
from basra.server.ids import new_id
from basra.server.limits import Scope
from basra.server.wire.errors import Refusal
from basra.store.base import PlayerRow, SessionKind, SessionRow
from basra.store.ports import Store

USER_AGENT_MAX = 200
"""How much of a browser's user agent a session keeps."""


class ProofNeeded(Refusal):
    """``auth/proof_needed``: the session must prove who holds it first."""

    code = "auth/proof_needed"





def now() -> datetime:
    return datetime.now(UTC)


def user_agent_of(scope: Scope) -> str | None:
    for name, value in scope.get("headers", ()):
        if name == b"user-agent":
            text = value.decode("latin-1")
            text = "".join(ch for ch in text if ch.isprintable())[:USER_AGENT_MAX].strip()
            return text or None
    return None


async def open_session(store: Store, scope: Scope, player_id: str,
                       kind: SessionKind) -> tuple[str, SessionRow]:
    """A new session of the player's on this device: its token (handed out once; only its
    SHA-256 is stored) and row. A password or passkey sign-in is a proof (its
    ``proved_at``); a new guest's session proves nothing."""
    token = new_token()
    client = scope.get("client")
    began = now()
    row = SessionRow(new_id(), player_id, kind, began, user_agent_of(scope),
                     str(client[0]) if client else None,
                     proved_at=None if kind == "guest" else began)
    await store.add_session(row, token_hash(token))
    return token, row


def session_json(session: SessionRow, current: str | None) -> dict[str, Any]:
    return {"id": session.id, "kind": session.kind,
            "created_at": session.created_at.isoformat(),
            "user_agent": session.user_agent, "address": session.address,
            "current": session.id == current}


def session_key(session: SessionRow) -> str:
    """The sign-in limiter's key for proofs from a session (its failures are counted per
    session and address, never against the account)."""
    return f"session {session.id}"


async def proved(store: Store, session: SessionRow) -> str:
    """The session's holder just proved who they are (a password or a passkey): it is
    marked proved and given a new token, returned (the client keeps it; a copy of the old
    one, which could otherwise ride on this proof, names nobody any more).
    ``auth/required`` if the session ended meanwhile."""
    token = new_token()
    if not await store.prove_session(session.id, token_hash(token)):
        raise ProofNeeded("this session has ended: sign in again", "auth/required")
    return token


def fresh(session: SessionRow, seconds: float, at: datetime | None = None) -> bool:
    """Whether the session proved who holds it within the last ``seconds``."""
    return (session.proved_at is not None
            and ((at or now()) - session.proved_at).total_seconds() <= seconds)


async def require_proof(store: Store, player: PlayerRow, session: SessionRow,
                        seconds: float) -> None:
    """``auth/proof_needed`` unless the session proved who holds it within the last
    ``seconds``, or the account has nothing to prove with (no password, no passkey: a
    guest, or an account claimed without a password)."""
    if fresh(session, seconds):
        return
    if not player.has_password and not await store.passkeys(player.id):
        return
    lasts = (f"{round(seconds / 60)} minutes" if seconds >= 120
             else f"{math.ceil(seconds)} seconds")
    raise ProofNeeded("confirm it is you first: your password or one of your passkeys "
                      f"(a confirmation lasts {lasts})")


__all__ = ["USER_AGENT_MAX", "ProofNeeded", "fresh", "now", "open_session", "proved",
           "require_proof", "session_json", "session_key", "user_agent_of"]
