"""basra-ws/1, server to client: every message a table sends, typed (docs/PROTOCOL.md,
section 2.1), and the one :func:`encode` that makes the text sent on the wire.

>>> encode(Pong(42))
'{"type":"pong","version":42}'
>>> encode(Error("play/stale", "play on the latest state"))
'{"type":"error","code":"play/stale","message":"play on the latest state"}'
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from typing import Any, ClassVar

PROTOCOL = "basra-ws/1"

CLOSED_MESSAGE = "this table is over; its record stays available"
REPLACED_MESSAGE = "this seat was opened in another tab"
REQUEUED_MESSAGE = ("your opponent never came: you are first in the queue again, or play "
                    "a bot now")


class Message:
    """A server message: its ``type``, then its fields in order, as JSON."""

    __slots__ = ()
    type: ClassVar[str]
    __dataclass_fields__: ClassVar[dict[str, Any]]  # every message is a dataclass

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, **{f.name: getattr(self, f.name) for f in fields(self)}}


@dataclass(frozen=True, slots=True)
class Welcome(Message):
    """The first message on every connection: which protocol, which table, and the seat it
    plays."""

    type: ClassVar[str] = "welcome"
    table: str
    seat: int | None
    protocol: str = PROTOCOL

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "protocol": self.protocol, "table": self.table,
                "seat": self.seat}


@dataclass(frozen=True, slots=True)
class State(Message):
    """A seat's whole picture after a change: the public table and the seat's own view."""

    type: ClassVar[str] = "state"
    version: int
    you: int | None
    table: dict[str, Any]
    view: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Error(Message):
    """A client message refused; nothing changed."""

    type: ClassVar[str] = "error"
    code: str
    message: str


@dataclass(frozen=True, slots=True)
class Pong(Message):
    type: ClassVar[str] = "pong"
    version: int


@dataclass(frozen=True, slots=True)
class Requeued(Message):
    """A quick-match table given up because the opponent never came: a new ticket."""

    type: ClassVar[str] = "requeued"
    ticket: str
    variant: str
    bot_offer: bool = True
    message: str = REQUEUED_MESSAGE


@dataclass(frozen=True, slots=True)
class Closed(Message):
    """The connection is closed next: the table left memory, or the seat was replaced."""

    type: ClassVar[str] = "closed"
    reason: str
    message: str = CLOSED_MESSAGE


ServerMessage = Welcome | State | Error | Pong | Requeued | Closed


def encode(message: ServerMessage) -> str:
    """A message as the compact JSON text sent on the wire (ASCII, so that no stray
    surrogate in a text can break a send)."""
    return json.dumps(message.to_json(), separators=(",", ":"))
