"""basra-engine/1's messages (docs/ENGINE_PROTOCOL.md): the protocol's name, the line limit,
the stable error codes of an engine's ``error`` replies, and the shapes of the messages
both ends send, one compact ASCII JSON object a line (:func:`encode`).

>>> encode(play_reply(Play.parse("5H:AD+4C"), 3))
'{"type":"play","id":3,"card":"5H","take":["4C","AD"]}\\n'
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from basra.game.cards import NAMES, names_of
from basra.game.engine import Play
from basra.game.views import SeatView

PROTOCOL = "basra-engine/1"
"""The protocol's name and version, sent in both ``hello`` messages."""

MAX_LINE = 1 << 20
"""The longest line (in characters, newline excluded) either end must accept."""

# Stable error codes of the engine's ``error`` replies (docs/ENGINE_PROTOCOL.md).
BAD_JSON = "protocol/bad_json"
NOT_OBJECT = "protocol/not_object"
LINE_TOO_LONG = "protocol/line_too_long"
BAD_MESSAGE = "protocol/bad_message"
UNKNOWN_TYPE = "protocol/unknown_type"
UNSUPPORTED = "protocol/unsupported_version"
NO_HELLO = "protocol/no_hello"
UNKNOWN_OPTION = "option/unknown"
BAD_OPTION = "option/bad_value"
BAD_VIEW = "view/invalid"
NOT_YOUR_TURN = "view/not_your_turn"
INTERNAL = "engine/internal"

ERROR_CODES = (BAD_JSON, NOT_OBJECT, LINE_TOO_LONG, BAD_MESSAGE, UNKNOWN_TYPE, UNSUPPORTED,
               NO_HELLO, UNKNOWN_OPTION, BAD_OPTION, BAD_VIEW, NOT_YOUR_TURN, INTERNAL)


# --------------------------------------------------------------------------- messages


def encode(message: Mapping[str, object]) -> str:
    """One protocol line (newline included): compact JSON, ASCII only."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=True) + "\n"


def hello_request() -> dict[str, object]:
    """The client's first message."""
    return {"type": "hello", "protocol": PROTOCOL}


def play_request(view: SeatView, request_id: int | str | None = None) -> dict[str, object]:
    """Ask for a play: the seat's view, ``legal`` included."""
    message: dict[str, object] = {"type": "play"}
    if request_id is not None:
        message["id"] = request_id
    message["view"] = view.to_json()
    return message


def play_reply(play: Play, request_id: object = None) -> dict[str, object]:
    """The engine's answer to a ``play`` request."""
    message: dict[str, object] = {"type": "play"}
    if request_id is not None:
        message["id"] = request_id
    message["card"] = NAMES[play.card]
    message["take"] = names_of(play.take)
    return message


def error_reply(code: str, message: str, request_id: object = None) -> dict[str, object]:
    """A one-line error with a stable ``code``; the engine goes on reading."""
    out: dict[str, object] = {"type": "error"}
    if request_id is not None:
        out["id"] = request_id
    out["code"] = code
    out["message"] = " ".join(message.split())
    return out


def format_play(play: Play) -> str:
    """A play as ``5H:AD+4C`` (the card alone when it takes nothing)."""
    return str(play)


def short(value: object) -> str:
    """``value`` for a one-line message: its JSON (or ``repr``), at most 40 characters."""
    text = json.dumps(value) if _jsonable(value) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _jsonable(value: object) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


__all__ = [
    "BAD_JSON",
    "BAD_MESSAGE",
    "BAD_OPTION",
    "BAD_VIEW",
    "ERROR_CODES",
    "INTERNAL",
    "LINE_TOO_LONG",
    "MAX_LINE",
    "NOT_OBJECT",
    "NOT_YOUR_TURN",
    "NO_HELLO",
    "PROTOCOL",
    "UNKNOWN_OPTION",
    "UNKNOWN_TYPE",
    "UNSUPPORTED",
    "encode",
    "error_reply",
    "format_play",
    "hello_request",
    "play_reply",
    "play_request",
    "short",
]
