"""Random identifiers the server hands out: players, tables, sessions, tickets, invite codes."""

from __future__ import annotations

import secrets


def new_id(nbytes: int = 9) -> str:
    """A short random identifier for players and tables."""
    return secrets.token_urlsafe(nbytes)


def new_invite_code() -> str:
    """An invite code people can read aloud: 8 letters and digits, no look-alikes."""
    alphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
    return "".join(secrets.choice(alphabet) for _ in range(8))


__all__ = ["new_id", "new_invite_code"]
