"""What reaches a table's inbox: one command at a time, handled by the table's actor
(:mod:`basra.server.table`), in the order they arrived."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from basra.engine import Play
from basra.server.outbox import Outbox
from basra.server.protocol import ClientMessage

if TYPE_CHECKING:
    from basra.server.table import Table

Connection = Outbox
"""A client's connection as a table sees it: a queue it puts messages in, never awaits."""


@dataclass(frozen=True, slots=True)
class Attach:
    conn: Connection
    player_id: str | None


@dataclass(frozen=True, slots=True)
class Detach:
    conn: Connection


@dataclass(frozen=True, slots=True)
class Incoming:
    conn: Connection
    message: ClientMessage


@dataclass(frozen=True, slots=True)
class BotMove:
    seat: int
    version: int
    play: Play


@dataclass(frozen=True, slots=True)
class Join:
    player_id: str
    nickname: str
    future: asyncio.Future[int]


@dataclass(frozen=True, slots=True)
class FillBot:
    seat: int | None
    level: str
    by: str
    future: asyncio.Future[int]


@dataclass(frozen=True, slots=True)
class Stop:
    pass


@dataclass(frozen=True, slots=True)
class Evict:
    """The lobby lets a finished table go: tell its connections, then stop."""


Command = Attach | Detach | Incoming | BotMove | Join | FillBot | Evict | Stop
RematchHook = Callable[["Table"], Awaitable[str | None]]
AbsentHook = Callable[["Table", list[str]], Awaitable[dict[str, str]]]
"""Called when a quick-match table is given up because matched players never came: with the
ids of the players who did come; returns each one's new quick-match ticket."""
