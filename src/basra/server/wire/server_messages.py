"""basra-ws/2, server to client: every message a table sends, typed (docs/PROTOCOL.md,
section 2.1), the one :func:`encode` that makes the text sent on the wire, and
:func:`apply_played`, the client's side of a ``played`` message (the reference the tests'
and the benchmarks' clients use; the browser's is ``state.js``).

>>> encode(Pong(42))
'{"type":"pong","version":42}'
>>> encode(Error("play/stale", "play on the latest state"))
'{"type":"error","code":"play/stale","message":"play on the latest state"}'
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from typing import Any, ClassVar

import orjson

PROTOCOL = "basra-ws/2"

CLOSED_MESSAGE = "this table is over; its record stays available"
REPLACED_MESSAGE = "this seat was opened in another tab"
REQUEUED_MESSAGE = ("your opponent never came: you are first in the queue again, or play "
                    "a bot now")


_FIELDS: dict[type[Any], tuple[str, ...]] = {}
"""Each message type's field names, in order (read once per type)."""


class Message:
    """A server message: its ``type``, then its fields in order, as JSON."""

    __slots__ = ()
    type: ClassVar[str]
    __dataclass_fields__: ClassVar[dict[str, Any]]  # every message is a dataclass

    def to_json(self) -> dict[str, Any]:
        kind = type(self)
        names = _FIELDS.get(kind)
        if names is None:
            names = _FIELDS[kind] = tuple(f.name for f in fields(self))
        out: dict[str, Any] = {"type": self.type}
        for name in names:
            out[name] = getattr(self, name)
        return out


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
    """A seat's whole picture: the public table and the seat's own view. Sent on connect,
    after a change a ``played`` message cannot carry, and in answer to ``sync``."""

    type: ClassVar[str] = "state"
    version: int
    you: int | None
    table: dict[str, Any]
    view: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Played(Message):
    """After a play that keeps the round going: the play and what it changed, as the
    receiving seat may see it (its own hand and, on its turn, its legal plays; a
    spectator's are empty). Each field but the play's own, ``clock`` and ``spectators``
    replaces the view's field of that name; the play is appended to ``view.plays``;
    ``clock`` and ``spectators`` replace the table's fields; ``clock`` replaces
    ``table.clock``."""

    type: ClassVar[str] = "played"
    version: int
    round: int
    seat: int
    card: str
    take: list[str]
    basra: int
    """The basra points the play scored (0: none)."""
    by_bot: bool
    turn: int
    deal: int
    hand: list[str]
    hand_counts: list[int]
    floor: list[str]
    stock_count: int
    pile_counts: list[int]
    basras: list[int]
    basra_points: list[int]
    last_taker: int | None
    legal: list[dict[str, Any]]
    clock: dict[str, Any] | None
    spectators: int
    """How many spectators are connected now (``table.spectators``)."""


PLAYED_VIEW = ("round", "turn", "deal", "hand", "hand_counts", "floor", "stock_count",
               "pile_counts", "basras", "basra_points", "last_taker", "legal")
"""The fields of a ``played`` message that replace the view's fields of the same name."""
PLAYED_PLAY = ("seat", "card", "take", "basra")
"""The fields of a ``played`` message that make the entry appended to ``view.plays``."""


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


@dataclass(frozen=True, slots=True)
class Away(Message):
    """To a player who comes back (right after their ``state``): every play a bot made
    for their seat since they last played themselves, each ``{"round", "card", "take",
    "reason"}`` (``reason``: ``clock``, their time ran out; ``dropped``, they were away)."""

    type: ClassVar[str] = "away"
    plays: list[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class Hint(Message):
    """The answer to ``hint`` (bot tables, on your turn): the play the medium bot would
    make from your seat's view, on the state of ``version``."""

    type: ClassVar[str] = "hint"
    version: int
    card: str
    take: list[str]


@dataclass(frozen=True, slots=True)
class Said(Message):
    """A seat's quick phrase or reaction (an id: each client shows it in its reader's
    language), to every connection of the table; ``count`` is how many that seat has sent
    this match."""

    type: ClassVar[str] = "said"
    seat: int
    count: int
    kind: str
    """``phrase`` or ``reaction``: the name of the field the id goes in."""
    what: str

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, self.kind: self.what,
                "count": self.count}


ServerMessage = (Welcome | State | Played | Error | Pong | Requeued | Closed | Away | Hint
                 | Said)


def encode(message: ServerMessage) -> str:
    """A message as the compact JSON text sent on the wire (UTF-8 JSON by orjson).

    Every text a player can send is valid Unicode by the time it is sent back (nicknames and
    parts are checked, refused values are quoted with ``repr``), but a text that still held
    a lone surrogate, which orjson refuses, is sent as the standard library writes it
    (ASCII, the surrogate escaped) rather than break a send:

    >>> encode(Error("x/y", "a lone \\ud800"))
    '{"type":"error","code":"x/y","message":"a lone \\\\ud800"}'
    """
    return dumps(message.to_json()).decode()


def dumps(data: Any) -> bytes:
    """Compact UTF-8 JSON of any answer (a message, a replay, a list): orjson's, or the
    standard library's for a text holding a lone surrogate (:func:`encode`)."""
    try:
        return orjson.dumps(data)
    except TypeError:  # orjson.JSONEncodeError: a lone surrogate
        return json.dumps(data, separators=(",", ":")).encode()


def apply_played(state: dict[str, Any], played: dict[str, Any]) -> dict[str, Any]:
    """The ``state`` message a client holds, once ``played`` is applied to it: a new
    message (``state`` is not changed), the same as the full state of that version. Raises
    ``ValueError`` when ``played`` does not follow ``state`` (a version gap, another
    round, a field missing): the client then asks for a full state (``sync``).

    >>> view = {"round": 1, "plays": [], "hand": ["5H"], "turn": 0}
    >>> state = {"type": "state", "version": 7, "you": 0, "table": {"clock": None},
    ...          "view": view}
    >>> apply_played(state, {"version": 9})
    Traceback (most recent call last):
    ValueError: a played message of version 9 does not follow version 7
    """
    version = state.get("version")
    if not isinstance(version, int) or played.get("version") != version + 1:
        raise ValueError(f"a played message of version {played.get('version')} does not "
                         f"follow version {version}")
    view = state["view"]
    if played.get("round") != view["round"]:
        raise ValueError(f"a played message of round {played.get('round')} does not follow "
                         f"round {view['round']}")
    try:
        entry = {name: played[name] for name in PLAYED_PLAY}
        changed = {name: played[name] for name in PLAYED_VIEW}
        clock = played["clock"]
        spectators = played["spectators"]
    except KeyError as exc:
        raise ValueError(f"a played message without {exc}") from None
    return {**state, "version": played["version"],
            "table": {**state["table"], "clock": clock, "spectators": spectators},
            "view": {**view, **changed, "plays": [*view["plays"], entry]}}
