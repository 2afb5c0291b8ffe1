"""What reaches a table's inbox: one command at a time, handled by the table's actor
(:mod:`basra.server.table.actor`), in the order they arrived."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Protocol

from basra.game.engine import Play
from basra.server.wire.client_messages import ClientMessage
from basra.server.wire.server_messages import ServerMessage


class Connection(Protocol):
    """A client's connection as a table sees it: a queue it puts messages in, never awaits.
    A socket on this node (:class:`~basra.server.table.outbox.Outbox`) or, in cluster mode, a
    socket on another node (:class:`~basra.server.cluster.relay.RemoteConnection`)."""

    closed: bool
    close_after: tuple[int, str] | None
    opened: float
    queued: int

    def put(self, message: ServerMessage | str) -> bool: ...

    def close(self, reason: str, code: int = ..., *, flush: bool = False) -> None: ...

    def delivered(self, count: int) -> bool: ...


@dataclass(frozen=True, slots=True)
class Attach:
    """A connection opened: as the seat of ``player_id`` if it has one here, else as a
    spectator."""

    conn: Connection
    player_id: str | None
    address: str = ""
    """The client's address (its /64 for IPv6): spectators are limited per address."""
    account: bool = False
    """Signed in to an account: a spectator may take the places kept for them."""


@dataclass(frozen=True, slots=True)
class Detach:
    """A connection closed (by its peer, or by its outbox)."""

    conn: Connection


@dataclass(frozen=True, slots=True)
class Incoming:
    """A client message, already checked by :mod:`basra.server.wire.client_messages`."""

    conn: Connection
    message: ClientMessage


@dataclass(frozen=True, slots=True)
class BotMove:
    """A bot's choice for ``seat``, made on the table at ``version`` (dropped if stale)."""

    seat: int
    version: int
    play: Play


@dataclass(frozen=True, slots=True)
class Join:
    """A player takes an empty seat (private tables); the future gets the seat."""

    player_id: str
    nickname: str
    future: asyncio.Future[int]
    account: bool = False
    username: str | None = None
    seat: int | None = None
    """The free seat asked for (None: the first)."""


@dataclass(frozen=True, slots=True)
class FillBot:
    """The table's creator seats a bot of ``level`` (``seat`` None: the first empty)."""

    seat: int | None
    level: str
    by: str
    future: asyncio.Future[int]


@dataclass(frozen=True, slots=True)
class Stop:
    """Stop the actor (the server shuts down)."""


@dataclass(frozen=True, slots=True)
class Evict:
    """The lobby lets a finished table go: tell its connections, then stop."""


@dataclass(frozen=True, slots=True)
class Handover:
    """Cluster mode: the table is not this node's any more (its lease was lost): close
    every connection so that its client reconnects to the new owner, and stop, writing
    nothing."""


Command = Attach | Detach | Incoming | BotMove | Join | FillBot | Evict | Handover | Stop
