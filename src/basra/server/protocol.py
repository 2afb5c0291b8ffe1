"""basra-ws/1: the messages between a browser (or any client) and a table, over a websocket.

Every message is one JSON object with a ``type``. The server only ever sends a seat its
own view (:func:`basra.views.view`); spectators get the public view. Client messages are
checked here (shape, size, types) before they reach the table; every problem is an
``error`` message with a stable code and one line, and changes nothing. docs/PROTOCOL.md
is the specification.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from basra.cards import parse_card
from basra.errors import BasraError
from basra.shuffle import part_problem

PROTOCOL = "basra-ws/1"
MAX_MESSAGE_BYTES = 4096


class ProtocolError(Exception):
    """A client message the server refuses: ``code`` is stable, the message one line."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code

    def to_json(self) -> dict[str, Any]:
        return error(self.code, str(self))


def error(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message}


@dataclass(frozen=True, slots=True)
class PlayMessage:
    version: int
    card: int
    take: int


@dataclass(frozen=True, slots=True)
class SeedMessage:
    round: int
    """The round (its nonce) this part is for: a part counts for that round only."""
    client_seed: str


@dataclass(frozen=True, slots=True)
class SimpleMessage:
    type: str
    """``ready``, ``rematch`` or ``ping``."""


ClientMessage = PlayMessage | SeedMessage | SimpleMessage


def _int(data: dict[str, Any], name: str) -> int:
    value = data.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ProtocolError("protocol/bad_message", f"'{name}' must be a whole number")
    return value


def parse_client_message(raw: str | bytes) -> ClientMessage:
    """Check one client message; raises :class:`ProtocolError`."""
    size = len(raw) if isinstance(raw, bytes) or len(raw) > MAX_MESSAGE_BYTES else len(
        raw.encode("utf-8", "surrogatepass"))
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError("protocol/too_large",
                            f"a message may be at most {MAX_MESSAGE_BYTES} bytes")
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: deep nesting
        raise ProtocolError("protocol/bad_json", "a message must be one JSON object") from None
    if not isinstance(data, dict):
        raise ProtocolError("protocol/bad_json", "a message must be one JSON object")
    kind = data.get("type")
    if kind == "play":
        version = _int(data, "version")
        card_text = data.get("card")
        take_list = data.get("take")
        if not isinstance(card_text, str) or not isinstance(take_list, list):
            raise ProtocolError("protocol/bad_message",
                                "a play needs 'card' (text) and 'take' (a list of cards)")
        if len(take_list) > 52 or not all(isinstance(t, str) for t in take_list):
            raise ProtocolError("protocol/bad_message", "'take' must be a list of cards")
        try:
            card = parse_card(card_text)
            take = 0
            for t in take_list:
                c = parse_card(t)
                if take >> c & 1:
                    raise ProtocolError("protocol/bad_message", f"'take' lists {t} twice")
                take |= 1 << c
        except BasraError as exc:
            raise ProtocolError("protocol/bad_card", str(exc)) from None
        return PlayMessage(version, card, take)
    if kind == "seed":
        number = _int(data, "round")
        seed = data.get("client_seed")
        if not isinstance(seed, str):
            raise ProtocolError("protocol/bad_message", "'client_seed' must be text")
        problem = part_problem(seed)
        if problem is not None:
            raise ProtocolError("seed/bad", problem)
        return SeedMessage(number, seed)
    if isinstance(kind, str) and kind in {"ready", "rematch", "ping"}:  # a list: unhashable
        return SimpleMessage(kind)
    raise ProtocolError("protocol/unknown_type",
                        f"unknown message type {str(kind)[:40]!r} (play, seed, ready, "
                        "rematch, ping)")

