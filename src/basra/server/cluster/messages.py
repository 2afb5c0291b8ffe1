"""Cluster mode, node to node: every message one node publishes to another through the
relay (:mod:`~basra.server.cluster.relay`), typed, the one :func:`encode` that makes the bytes
published, and the one :func:`decode` that checks what a node receives.

Each message is one JSON object whose ``k`` names its kind, then its fields:

- to a table's owner, from the node that holds a player's socket (the *forwarder*):
  ``attach`` (:class:`AttachMessage`), ``in`` (:class:`InMessage`), ``detach``
  (:class:`DetachMessage`), and ``call`` (:class:`CallMessage`: a ``join`` or ``fill_bot``
  asked over HTTP on another node);
- to a forwarder, from the owner: ``out`` (:class:`OutMessage`), ``close``
  (:class:`CloseMessage`), and ``reply`` (:class:`ReplyMessage`, the answer to a call);
- to every node: ``signed_out`` (:class:`SignedOutMessage`: sessions ended).

**The wire format is the one the nodes spoke before these types** (untyped dicts): the
same kinds, the same keys (``k``, ``conn``, ``from``...), the same values, a call's
operation and arguments and a reply's answer flat beside ``k`` and ``id``. Only the order
of the keys may differ, which no reader looks at. So during a rolling upgrade a node of
the old code and a node of this one understand each other; keep it so (the tests pin the
JSON of every kind). Keys a reader does not know are ignored, so a later version may add
one; a missing or mistyped key, or an unknown kind, is one ``ValueError`` of one line.

>>> encode(CloseMessage("c1", 1012, "service restart"))
b'{"k":"close","conn":"c1","code":1012,"reason":"service restart"}'
>>> decode(b'{"k":"detach","conn":"c1"}')
DetachMessage(conn='c1')
>>> decode(b'{"k":"detach"}')
Traceback (most recent call last):
ValueError: node message 'detach': 'conn' must be text
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import orjson


@dataclass(frozen=True, slots=True)
class AttachMessage:
    """``attach``, to the owner: a socket opened on the forwarder for one of its tables."""

    conn: str
    """The socket's id (the forwarder's, unique in the cluster)."""
    table: str
    player: str | None
    """The player's id; None: a spectator."""
    sender: str
    """The forwarder's node id (the key ``from``): where ``out`` and ``close`` go."""
    address: str
    """The client's address (its key for the spectators' limits)."""
    account: bool
    """Whether the client is signed in to an account."""


@dataclass(frozen=True, slots=True)
class InMessage:
    """``in``, to the owner: a client message, already checked and rate limited by the
    forwarder, as the client sent it."""

    conn: str
    text: str


@dataclass(frozen=True, slots=True)
class DetachMessage:
    """``detach``, to the owner: the socket closed."""

    conn: str


@dataclass(frozen=True, slots=True)
class OutMessage:
    """``out``, to the forwarder: a server message's text to send on socket ``conn``."""

    conn: str
    text: str


@dataclass(frozen=True, slots=True)
class CloseMessage:
    """``close``, to the forwarder: close socket ``conn`` (what was sent goes first)."""

    conn: str
    code: int
    reason: str


@dataclass(frozen=True, slots=True)
class SignedOutMessage:
    """``signed_out``, to every node: sessions ended; their sockets close everywhere
    (:meth:`basra.server.identity.signed_in.SignedIn.end`)."""

    player: str
    session: str | None
    """The one session that ended; None: every one of the player's but ``keep``."""
    keep: str | None


@dataclass(frozen=True, slots=True)
class JoinCall:
    """A call's operation ``join``: take a seat at the owner's table."""

    name: ClassVar[str] = "join"
    table: str
    player: str
    nickname: str
    account: bool
    username: str | None
    seat: int | None = None
    """The free seat asked for (None: the first)."""


@dataclass(frozen=True, slots=True)
class FillBotCall:
    """A call's operation ``fill_bot``: seat a bot at the owner's table."""

    name: ClassVar[str] = "fill_bot"
    table: str
    seat: int | None
    """The seat to fill; None: the first free one."""
    level: str
    player: str
    """Who asks (the table's owner may)."""


CallOp = JoinCall | FillBotCall


@dataclass(frozen=True, slots=True)
class CallMessage:
    """``call``, to a table's owner: an operation asked on another node, answered by a
    :class:`ReplyMessage` of the same ``id``. On the wire the operation's name is ``op``
    and its arguments are keys of the message itself."""

    id: str
    sender: str
    """The asking node (the key ``from``): where the reply goes."""
    op: CallOp


@dataclass(frozen=True, slots=True)
class Seated:
    """A call's answer: done, at this seat."""

    seat: int


@dataclass(frozen=True, slots=True)
class Refused:
    """A call's answer: refused (or failed), with the code and the message of the refusal
    the asking node raises in turn."""

    error: str
    message: str


Answer = Seated | Refused


@dataclass(frozen=True, slots=True)
class ReplyMessage:
    """``reply``, to the asking node: a call's answer. On the wire the answer's keys
    (``seat``, or ``error`` and ``message``) are keys of the message itself: a reply with
    an ``error`` key is a refusal."""

    id: str
    answer: Answer


Handled = (AttachMessage | InMessage | DetachMessage | OutMessage | CloseMessage
           | SignedOutMessage | CallMessage)
"""Every message but a reply: what a node's handler receives (a reply settles the call
awaiting it, in the relay)."""

NodeMessage = Handled | ReplyMessage


# ---------------------------------------------------------------------------------- encode


def op_json(op: CallOp) -> dict[str, Any]:
    """A call's operation as the keys it puts on the wire: ``op`` and its arguments."""
    match op:
        case JoinCall():
            joined = {"op": op.name, "table": op.table, "player": op.player,
                      "nickname": op.nickname, "account": op.account,
                      "username": op.username}
            # a seat asked for only when there is one (older nodes never send it)
            return joined if op.seat is None else {**joined, "seat": op.seat}
        case FillBotCall():
            return {"op": op.name, "table": op.table, "seat": op.seat, "level": op.level,
                    "player": op.player}


def answer_json(answer: Answer) -> dict[str, Any]:
    """A call's answer as the keys it puts on the wire (no ``error`` key unless refused:
    that key is what tells a refusal)."""
    match answer:
        case Seated():
            return {"seat": answer.seat}
        case Refused():
            return {"error": answer.error, "message": answer.message}


def to_json(message: NodeMessage) -> dict[str, Any]:
    """A message as the JSON object sent on the wire."""
    match message:
        case AttachMessage():
            return {"k": "attach", "conn": message.conn, "table": message.table,
                    "player": message.player, "from": message.sender,
                    "address": message.address, "account": message.account}
        case InMessage():
            return {"k": "in", "conn": message.conn, "text": message.text}
        case DetachMessage():
            return {"k": "detach", "conn": message.conn}
        case OutMessage():
            return {"k": "out", "conn": message.conn, "text": message.text}
        case CloseMessage():
            return {"k": "close", "conn": message.conn, "code": message.code,
                    "reason": message.reason}
        case SignedOutMessage():
            return {"k": "signed_out", "player": message.player, "session": message.session,
                    "keep": message.keep}
        case CallMessage():
            return {"k": "call", "id": message.id, "from": message.sender,
                    **op_json(message.op)}
        case ReplyMessage():
            return {"k": "reply", "id": message.id, **answer_json(message.answer)}


def encode(message: NodeMessage) -> bytes:
    """A message as the compact UTF-8 JSON published (orjson)."""
    return orjson.dumps(to_json(message))


# ---------------------------------------------------------------------------------- decode


class _Fields:
    """One received object's fields, each read with its type checked: a problem is one
    ``ValueError`` naming the kind and the key."""

    __slots__ = ("data", "kind")

    def __init__(self, kind: str, data: dict[str, Any]) -> None:
        self.kind = kind
        self.data = data

    def _refuse(self, name: str, what: str) -> ValueError:
        return ValueError(f"node message {self.kind!r}: {name!r} must be {what}")

    def text(self, name: str) -> str:
        value = self.data.get(name)
        if not isinstance(value, str):
            raise self._refuse(name, "text")
        return value

    def text_or_none(self, name: str) -> str | None:
        if name not in self.data:
            raise self._refuse(name, "text or null")
        value = self.data[name]
        if value is not None and not isinstance(value, str):
            raise self._refuse(name, "text or null")
        return value

    def number(self, name: str) -> int:
        value = self.data.get(name)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self._refuse(name, "a whole number")
        return value

    def number_or_none(self, name: str) -> int | None:
        if name not in self.data:
            raise self._refuse(name, "a whole number or null")
        value = self.data[name]
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise self._refuse(name, "a whole number or null")
        return value

    def flag(self, name: str) -> bool:
        value = self.data.get(name)
        if not isinstance(value, bool):
            raise self._refuse(name, "true or false")
        return value


def _attach(f: _Fields) -> AttachMessage:
    return AttachMessage(f.text("conn"), f.text("table"), f.text_or_none("player"),
                         f.text("from"), f.text("address"), f.flag("account"))


def _in(f: _Fields) -> InMessage:
    return InMessage(f.text("conn"), f.text("text"))


def _detach(f: _Fields) -> DetachMessage:
    return DetachMessage(f.text("conn"))


def _out(f: _Fields) -> OutMessage:
    return OutMessage(f.text("conn"), f.text("text"))


def _close(f: _Fields) -> CloseMessage:
    return CloseMessage(f.text("conn"), f.number("code"), f.text("reason"))


def _signed_out(f: _Fields) -> SignedOutMessage:
    return SignedOutMessage(f.text("player"), f.text_or_none("session"),
                            f.text_or_none("keep"))


def _op(f: _Fields) -> CallOp:
    op = f.text("op")
    if op == JoinCall.name:
        return JoinCall(f.text("table"), f.text("player"), f.text("nickname"),
                        f.flag("account"), f.text_or_none("username"),
                        f.number_or_none("seat") if "seat" in f.data else None)
    if op == FillBotCall.name:
        return FillBotCall(f.text("table"), f.number_or_none("seat"), f.text("level"),
                           f.text("player"))
    raise ValueError(f"node message {f.kind!r}: unknown op {op[:40]!r} (join, fill_bot)")


def _call(f: _Fields) -> CallMessage:
    return CallMessage(f.text("id"), f.text("from"), _op(f))


def _answer(f: _Fields) -> Answer:
    if "error" in f.data:
        return Refused(f.text("error"), f.text("message"))
    return Seated(f.number("seat"))


def _reply(f: _Fields) -> ReplyMessage:
    return ReplyMessage(f.text("id"), _answer(f))


PARSERS: dict[str, Callable[[_Fields], NodeMessage]] = {
    "attach": _attach,
    "in": _in,
    "detach": _detach,
    "out": _out,
    "close": _close,
    "signed_out": _signed_out,
    "call": _call,
    "reply": _reply,
}
"""The parser of each kind (``k``)."""


def decode(data: bytes | str) -> NodeMessage:
    """One received message, checked: raises ``ValueError`` (one line) when it is not
    JSON, not an object, of an unknown kind, or a key is missing or of the wrong type."""
    try:
        obj = orjson.loads(data)
    except orjson.JSONDecodeError:
        raise ValueError("a node message must be one JSON object") from None
    if not isinstance(obj, dict):
        raise ValueError("a node message must be one JSON object")
    kind = obj.get("k")
    if kind is None:
        raise ValueError("a node message must name its kind ('k')")
    parser = PARSERS.get(kind) if isinstance(kind, str) else None  # a list: unhashable
    if parser is None:
        raise ValueError(f"unknown node message kind {str(kind)[:40]!r} "
                         f"({', '.join(PARSERS)})")
    return parser(_Fields(str(kind), obj))


def call_op(data: dict[str, Any]) -> CallOp:
    """A call's operation from its wire keys (``op`` and its arguments, as
    :func:`op_json` makes them); raises ``ValueError``."""
    return _op(_Fields("call", data))


__all__ = [
    "PARSERS",
    "Answer",
    "AttachMessage",
    "CallMessage",
    "CallOp",
    "CloseMessage",
    "DetachMessage",
    "FillBotCall",
    "Handled",
    "InMessage",
    "JoinCall",
    "NodeMessage",
    "OutMessage",
    "Refused",
    "ReplyMessage",
    "Seated",
    "SignedOutMessage",
    "answer_json",
    "call_op",
    "decode",
    "encode",
    "op_json",
    "to_json",
]
