"""basra-ws/1, server to client: every message a table sends, typed (docs/PROTOCOL.md,
section 2.1), and the one :func:`encode` that makes the text sent on the wire.

>>> encode(Pong(42))
'{"type":"pong","version":42}'
>>> encode(Error("play/stale", "play on the latest state"))
'{"type":"error","code":"play/stale","message":"play on the latest state"}'
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, ClassVar

PROTOCOL = "basra-ws/1"

CLOSED_MESSAGE = "this table is over; its record stays available"
REPLACED_MESSAGE = "this seat was opened in another tab"
REQUEUED_MESSAGE = ("your opponent never came: you are first in the queue again, or play "
                    "a bot now")


@dataclass(frozen=True, slots=True)
class Welcome:
    """The first message on every connection: which table, and the seat it plays."""

    type: ClassVar[str] = "welcome"
    table: str
    seat: int | None

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "protocol": PROTOCOL, "table": self.table,
                "seat": self.seat}


@dataclass(frozen=True, slots=True)
class State:
    """A seat's whole picture after a change: the public table and the seat's own view."""

    type: ClassVar[str] = "state"
    version: int
    you: int | None
    table: dict[str, Any]
    view: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "version": self.version, "you": self.you,
                "table": self.table, "view": self.view}


@dataclass(frozen=True, slots=True)
class Error:
    """A client message refused; nothing changed."""

    type: ClassVar[str] = "error"
    code: str
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "code": self.code, "message": self.message}


@dataclass(frozen=True, slots=True)
class Pong:
    type: ClassVar[str] = "pong"
    version: int

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "version": self.version}


@dataclass(frozen=True, slots=True)
class Requeued:
    """A quick-match table given up because the opponent never came: a new ticket."""

    type: ClassVar[str] = "requeued"
    ticket: str
    variant: str
    bot_offer: bool = True
    message: str = REQUEUED_MESSAGE

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "ticket": self.ticket, "variant": self.variant,
                "bot_offer": self.bot_offer, "message": self.message}


@dataclass(frozen=True, slots=True)
class Closed:
    """The connection is closed next: the table left memory, or the seat was replaced."""

    type: ClassVar[str] = "closed"
    reason: str
    message: str = CLOSED_MESSAGE

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "reason": self.reason, "message": self.message}


ServerMessage = Welcome | State | Error | Pong | Requeued | Closed


def encode(message: ServerMessage) -> str:
    """A message as the compact JSON text sent on the wire (ASCII, so that no stray
    surrogate in a text can break a send)."""
    return json.dumps(message.to_json(), separators=(",", ":"))
