"""The open sockets of each signed-in session, so that signing out ends them at once.

A websocket is opened with a session's token and checked once, when it connects; a token
revoked later (signed out on another device, everywhere, a new password, the account
deleted) must not keep playing through a socket it already holds. Each socket here is
registered under its player and session while it is open; :meth:`SignedIn.end` closes
those of one session, of every session of a player but one, or of all of them, with the
close code ``4401`` (the client must sign in again). In cluster mode the lobby tells every
node (:meth:`basra.server.lobby.tables.Lobby.sign_out`).
"""

from __future__ import annotations

from basra.server.table.outbox import Outbox

SIGNED_OUT = 4401
"""Close code of a socket whose session ended."""


class SignedIn:
    def __init__(self) -> None:
        self.sockets: dict[str, dict[str, set[Outbox]]] = {}
        """Open sockets by player id, then session id."""

    def add(self, player_id: str, session_id: str, outbox: Outbox) -> None:
        self.sockets.setdefault(player_id, {}).setdefault(session_id, set()).add(outbox)

    def remove(self, player_id: str, session_id: str, outbox: Outbox) -> None:
        sessions = self.sockets.get(player_id)
        if sessions is None:
            return
        held = sessions.get(session_id)
        if held is not None:
            held.discard(outbox)
            if not held:
                del sessions[session_id]
        if not sessions:
            del self.sockets[player_id]

    def end(self, player_id: str, session_id: str | None = None,
            keep: str | None = None) -> int:
        """Close the sockets of ``session_id`` (None: every session of the player's but
        ``keep``); how many were closed."""
        sessions = self.sockets.get(player_id, {})
        closed = 0
        for session, held in list(sessions.items()):
            if (session_id is not None and session != session_id) or session == keep:
                continue
            for outbox in list(held):
                outbox.close("signed out", code=SIGNED_OUT, flush=True)
                closed += 1
        return closed

    def __len__(self) -> int:
        return sum(len(held) for sessions in self.sockets.values() for held in sessions.values())
