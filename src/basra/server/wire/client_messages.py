"""basra-ws/2, client to server: the messages a browser (or any client) sends a table.

Every message is one JSON object with a ``type``. Client messages are read by orjson and
checked here (shape, size, types) before they reach the table, by one parser per type;
every problem is a :class:`ProtocolError`, sent back as an ``error`` message with a stable
code and one line (:mod:`basra.server.wire.server_messages`), and changes nothing.
docs/PROTOCOL.md is the specification.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson

from basra.errors import BasraError
from basra.game.cards import parse_card, parse_card_set
from basra.game.shuffle import part_problem
from basra.server.wire.errors import Refusal
from basra.server.wire.sayings import PHRASES, REACTIONS
from basra.server.wire.server_messages import PROTOCOL, Error

MAX_MESSAGE_BYTES = 4096


class ProtocolError(Refusal):
    """A client message the server refuses: ``code`` is stable, the message one line."""

    code = "protocol/bad_message"


def error_message(exc: BasraError) -> Error:
    """The ``error`` message that tells a client why its message was refused."""
    return Error(exc.code, exc.message)


@dataclass(frozen=True, slots=True)
class PlayMessage:
    """``play``: the card and the take, on the state of ``version``."""

    version: int
    card: int
    take: int


@dataclass(frozen=True, slots=True)
class SeedMessage:
    """``seed``: the seat's part of a round's client seed."""

    round: int
    """The round (its nonce) this part is for: a part counts for that round only."""
    client_seed: str


@dataclass(frozen=True, slots=True)
class SayMessage:
    """``say`` (a phrase) or ``react`` (a reaction): an id from the fixed lists
    (:mod:`basra.server.wire.sayings`)."""

    kind: str
    """``phrase`` or ``reaction``."""
    what: str


@dataclass(frozen=True, slots=True)
class SimpleMessage:
    """A message with no fields but its type."""

    type: str
    """``ready``, ``rematch``, ``ping``, ``sync``, ``resign``, ``hint`` or ``cancel``."""


@dataclass(frozen=True, slots=True)
class MoveMessage:
    """``move``: a seated player moves to a free seat of the waiting room."""

    seat: int


ClientMessage = PlayMessage | SeedMessage | SayMessage | SimpleMessage | MoveMessage


def _int(data: dict[str, Any], name: str) -> int:
    value = data.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ProtocolError(f"'{name}' must be a whole number", "protocol/bad_message")
    return value


def _play(data: dict[str, Any]) -> PlayMessage:
    version = _int(data, "version")
    card_text = data.get("card")
    take_list = data.get("take")
    if not isinstance(card_text, str) or not isinstance(take_list, list):
        raise ProtocolError("a play needs 'card' (text) and 'take' (a list of cards)",
                            "protocol/bad_message")
    if len(take_list) > 52 or not all(isinstance(t, str) for t in take_list):
        raise ProtocolError("'take' must be a list of cards", "protocol/bad_message")
    try:
        card = parse_card(card_text)
        take = parse_card_set(take_list, what="'take'")
    except BasraError as exc:  # the card notation's own code says which problem it is
        code = "protocol/bad_message" if exc.code == "card/duplicate" else "protocol/bad_card"
        raise ProtocolError(exc.message, code) from None
    return PlayMessage(version, card, take)


def _seed(data: dict[str, Any]) -> SeedMessage:
    number = _int(data, "round")
    seed = data.get("client_seed")
    if not isinstance(seed, str):
        raise ProtocolError("'client_seed' must be text", "protocol/bad_message")
    problem = part_problem(seed)
    if problem is not None:
        raise ProtocolError(problem, "seed/bad")
    return SeedMessage(number, seed)


def _say(data: dict[str, Any]) -> SayMessage:
    phrase = data.get("phrase")
    if not isinstance(phrase, str) or phrase not in PHRASES:
        raise ProtocolError(f"'phrase' must be one of {', '.join(PHRASES)}", "say/unknown")
    return SayMessage("phrase", phrase)


def _react(data: dict[str, Any]) -> SayMessage:
    reaction = data.get("reaction")
    if not isinstance(reaction, str) or reaction not in REACTIONS:
        raise ProtocolError(f"'reaction' must be one of {', '.join(REACTIONS)}",
                            "say/unknown")
    return SayMessage("reaction", reaction)


def _simple(data: dict[str, Any]) -> SimpleMessage:
    return SimpleMessage(str(data["type"]))


def _move(data: dict[str, Any]) -> MoveMessage:
    seat = _int(data, "seat")
    if not 0 <= seat <= 3:
        raise ProtocolError("'seat' is 0 to 3", "protocol/bad_message")
    return MoveMessage(seat)


PARSERS: dict[str, Callable[[dict[str, Any]], ClientMessage]] = {
    "play": _play,
    "seed": _seed,
    "ready": _simple,
    "rematch": _simple,
    "ping": _simple,
    "sync": _simple,
    "resign": _simple,
    "hint": _simple,
    "cancel": _simple,
    "move": _move,
    "say": _say,
    "react": _react,
}
"""The parser of each client message type."""


def _decode(raw: str | bytes) -> dict[str, Any]:
    size = len(raw) if isinstance(raw, bytes) or len(raw) > MAX_MESSAGE_BYTES else len(
        raw.encode("utf-8", "surrogatepass"))
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError(f"a message may be at most {MAX_MESSAGE_BYTES} bytes",
                            "protocol/too_large")
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:
        data = _standard(raw)
    else:
        if isinstance(data, dict) and any(isinstance(v, float) for v in data.values()):
            # A number orjson read as a float may be a whole number past 64 bits, which
            # the standard library keeps whole (a version far ahead is play/stale).
            data = _standard(raw)
    if not isinstance(data, dict):
        raise ProtocolError("a message must be one JSON object", "protocol/bad_json")
    return data


def _standard(raw: str | bytes) -> Any:
    """A message orjson refused, read by the standard library, so that every refusal keeps
    its code: a lone surrogate (``"\\ud800"``) or ``NaN`` is read, then refused by the
    field it is in (``seed/bad``, ``protocol/bad_card``...); what neither reads is not
    JSON."""
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: deep nesting
        raise ProtocolError("a message must be one JSON object", "protocol/bad_json") from None


def parse_client_message(raw: str | bytes) -> ClientMessage:
    """Check one client message; raises :class:`ProtocolError`."""
    data = _decode(raw)
    kind = data.get("type")
    parser = PARSERS.get(kind) if isinstance(kind, str) else None  # a list: unhashable
    if parser is None:
        raise ProtocolError(f"unknown message type {str(kind)[:40]!r} (play, seed, ready, "
                            "rematch, ping, sync, resign, hint, cancel, move, say, react)",
                            "protocol/unknown_type")
    return parser(data)


__all__ = [
    "MAX_MESSAGE_BYTES",
    "PARSERS",
    "PROTOCOL",
    "ClientMessage",
    "PlayMessage",
    "ProtocolError",
    "SayMessage",
    "SeedMessage",
    "SimpleMessage",
    "error_message",
    "parse_client_message",
]
