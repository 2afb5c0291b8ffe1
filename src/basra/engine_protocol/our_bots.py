"""The engine side of basra-engine/1 (docs/ENGINE_PROTOCOL.md): our bots behind the
protocol, so any program in any language can use them. :func:`serve` is what
``basra engine`` runs; :class:`BotServer` holds its state (the options, the bot they make,
the handshake) and answers each line; :class:`BotOptions` are the options' first values.

>>> import io
>>> out = io.StringIO()
>>> serve(io.StringIO('{"type":"hello","protocol":"basra-engine/1"}\\n{"type":"quit"}\\n'), out)
0
>>> json.loads(out.getvalue())["protocol"]
'basra-engine/1'
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import IO, Any

from basra import __version__
from basra.bots import ARENA_ONLY, LEVELS, ORACLE, make_bot
from basra.bots.base import Bot
from basra.bots.hard import DEFAULT_ITERATIONS, DEFAULT_TIME_CAP
from basra.engine_protocol.messages import (
    BAD_JSON,
    BAD_MESSAGE,
    BAD_OPTION,
    BAD_VIEW,
    INTERNAL,
    LINE_TOO_LONG,
    MAX_LINE,
    NO_HELLO,
    NOT_OBJECT,
    NOT_YOUR_TURN,
    PROTOCOL,
    UNKNOWN_OPTION,
    UNKNOWN_TYPE,
    UNSUPPORTED,
    encode,
    error_reply,
    play_reply,
    short,
)
from basra.errors import BasraError
from basra.game.engine import Play
from basra.game.rules import find_variant
from basra.game.views import view_from_json

DEFAULT_LEVEL = "medium"
"""The bot level ``basra engine`` serves unless told another."""


class _Refusal(Exception):
    """A request the engine answers with an error line."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option the engine announces in its ``hello``."""

    name: str
    kind: str
    """``choice``, ``int``, ``number`` or ``seed`` (an integer, a string or null)."""
    help: str
    choices: tuple[str, ...] = ()
    minimum: float | None = None

    def describe(self, value: object) -> dict[str, object]:
        out: dict[str, object] = {"name": self.name, "type": self.kind, "default": value}
        if self.choices:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["min"] = self.minimum
        out["help"] = self.help
        return out


OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("level", "choice", "how well the bot plays", choices=tuple(LEVELS)),
    OptionSpec("iterations", "int", "hard, expert: search iterations per play", minimum=1),
    OptionSpec("time_cap", "number", "hard, expert: seconds per play at most; 0 for no cap "
               "(deterministic given the seed)", minimum=0),
    OptionSpec("seed", "seed", "seed of the bot's random choices (null: fresh); setting "
               "any option restarts them from it"),
)
_OPTION_BY_NAME = {o.name: o for o in OPTIONS}


def _check_option(name: object, value: object) -> object:
    """The option's value, checked; raises :class:`_Refusal`."""
    if not isinstance(name, str):
        raise _Refusal(BAD_MESSAGE, "option needs a 'name' (text)")
    spec = _OPTION_BY_NAME.get(name)
    if spec is None:
        known = ", ".join(_OPTION_BY_NAME)
        raise _Refusal(UNKNOWN_OPTION, f"unknown option {name[:40]!r} (known: {known})")
    if spec.kind == "choice":
        if name == "level" and value == ORACLE:
            raise _Refusal(BAD_OPTION, ARENA_ONLY)
        if value not in spec.choices:
            raise _Refusal(BAD_OPTION, f"{name} must be one of {', '.join(spec.choices)}, "
                                       f"got {short(value)}")
        return value
    if spec.kind == "seed":
        if value is None or isinstance(value, str) or _is_int(value):
            return value
        raise _Refusal(BAD_OPTION, f"seed must be an integer, a string or null, "
                                   f"got {short(value)}")
    if spec.kind == "int":
        if _is_int(value) and isinstance(value, int) and value >= 1:
            return value
        raise _Refusal(BAD_OPTION, f"{name} must be a whole number from 1 up, "
                                   f"got {short(value)}")
    if (_is_int(value) or isinstance(value, float)) and isinstance(value, int | float) and (
            math.isfinite(value) and value >= 0):
        return value
    raise _Refusal(BAD_OPTION, f"{name} must be a number of seconds from 0 up, "
                               f"got {short(value)}")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class BotOptions:
    """The protocol options' first values (``basra engine``'s command line); a client can
    change them with ``option`` messages. ``None``: the option's default."""

    level: str = DEFAULT_LEVEL
    seed: int | str | None = None
    iterations: int | None = None
    time_cap: float | None = None

    def values(self) -> dict[str, object]:
        """The options by name, defaults filled in, in the order ``hello`` lists them."""
        return {
            "level": self.level,
            "iterations": DEFAULT_ITERATIONS if self.iterations is None else self.iterations,
            "time_cap": DEFAULT_TIME_CAP if self.time_cap is None else self.time_cap,
            "seed": self.seed,
        }


class BotServer:
    """The state behind ``basra engine``: options, the bot they make, the handshake."""

    def __init__(self, options: BotOptions | None = None) -> None:
        self.options: dict[str, object] = (options or BotOptions()).values()
        for name, value in self.options.items():
            try:
                _check_option(name, value)
            except _Refusal as exc:
                raise ValueError(str(exc)) from None
        self.greeted = False
        self._bot: Bot | None = None

    @property
    def bot(self) -> Bot:
        """The bot the current options make (made again after any option is set)."""
        if self._bot is None:
            seed = self.options["seed"]
            iterations = self.options["iterations"]
            time_cap = self.options["time_cap"]
            assert seed is None or isinstance(seed, int | str)
            assert isinstance(iterations, int) and isinstance(time_cap, int | float)
            self._bot = make_bot(str(self.options["level"]), seed, iterations=iterations,
                                 time_cap=float(time_cap))
        return self._bot

    def hello(self) -> dict[str, object]:
        return {
            "type": "hello",
            "protocol": PROTOCOL,
            "name": "basra",
            "version": __version__,
            "options": [o.describe(self.options[o.name]) for o in OPTIONS],
        }

    def handle_line(self, line: str) -> dict[str, object] | None:
        """The reply to one input line; ``None`` for a blank line. Raises
        :class:`StopIteration` on ``quit``."""
        if not line.strip():
            return None
        try:
            message = json.loads(line)
        except ValueError as exc:
            detail = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)
            return error_reply(BAD_JSON, f"not JSON: {detail}")
        except RecursionError:
            return error_reply(BAD_JSON, "not JSON: nested too deeply")
        if not isinstance(message, dict):
            return error_reply(NOT_OBJECT, "each line must be one JSON object")
        request_id = message.get("id")
        if request_id is not None and not (isinstance(request_id, str) or _is_int(request_id)):
            return error_reply(BAD_MESSAGE, "id must be an integer or a string")
        try:
            return self.handle(message)
        except _Refusal as exc:
            return error_reply(exc.code, str(exc), request_id)

    def handle(self, message: dict[str, Any]) -> dict[str, object]:
        """The reply to one decoded message. Raises :class:`_Refusal` or
        :class:`StopIteration` (``quit``)."""
        kind = message.get("type")
        request_id = message.get("id")
        if not isinstance(kind, str):
            raise _Refusal(BAD_MESSAGE, "a message needs a 'type' (text)")
        if kind == "quit":
            raise StopIteration
        if kind == "hello":
            protocol = message.get("protocol")
            if not isinstance(protocol, str):
                raise _Refusal(BAD_MESSAGE, "hello needs a 'protocol' (text)")
            if protocol != PROTOCOL:
                raise _Refusal(UNSUPPORTED, f"this engine speaks {PROTOCOL}, not "
                                            f"{short(protocol)}")
            self.greeted = True
            return _with_id(self.hello(), request_id)
        if kind not in ("option", "ping", "play"):
            raise _Refusal(UNKNOWN_TYPE, f"unknown message type {short(kind)} (known: hello, "
                                         "option, ping, play, quit)")
        if not self.greeted:
            raise _Refusal(NO_HELLO, f'send {{"type":"hello","protocol":"{PROTOCOL}"}} first')
        if kind == "ping":
            return _with_id({"type": "pong"}, request_id)
        if kind == "option":
            name = message.get("name")
            if "value" not in message:
                raise _Refusal(BAD_MESSAGE, "option needs a 'value'")
            value = _check_option(name, message["value"])
            assert isinstance(name, str)
            self.options[name] = value
            self._bot = None
            return _with_id({"type": "ok", "name": name, "value": value}, request_id)
        return play_reply(self.choose(message.get("view")), request_id)

    def choose(self, data: object) -> Play:
        """The bot's play for a view sent as JSON."""
        if not isinstance(data, dict):
            raise _Refusal(BAD_MESSAGE, "play needs a 'view' (an object)")
        try:
            seat_view = view_from_json(data)
            find_variant(seat_view.variant)
        except (ValueError, BasraError) as exc:  # UnknownVariantError is a KeyError
            raise _Refusal(BAD_VIEW, str(exc)) from None
        if not seat_view.legal:
            raise _Refusal(NOT_YOUR_TURN, "the view has no legal play: it is not this "
                                          "seat's turn")
        if seat_view.seat is None or seat_view.turn != seat_view.seat:
            raise _Refusal(BAD_VIEW, "the view has legal plays but its seat is not the seat "
                                     "to play")
        try:
            return self.bot.choose(seat_view)
        except (BasraError, ValueError, KeyError, IndexError) as exc:
            # A view that parses but does not hold together (a hand that is not the seat's).
            raise _Refusal(BAD_VIEW, f"the bot could not use this view: {exc}") from None


def _with_id(message: dict[str, object], request_id: object) -> dict[str, object]:
    if request_id is None:
        return message
    return {"type": message["type"], "id": request_id,
            **{k: v for k, v in message.items() if k != "type"}}


def _read_line(stdin: IO[str]) -> tuple[str, bool] | None:
    """The next line without its newline, and whether it was too long; ``None`` at the
    end of the input. A too-long line is read to its end and dropped."""
    line = stdin.readline(MAX_LINE + 1)
    if not line:
        return None
    if len(line) <= MAX_LINE or line.endswith("\n"):
        return line.rstrip("\r\n"), False
    while True:  # skip the rest of an over-long line
        rest = stdin.readline(MAX_LINE)
        if not rest or rest.endswith("\n"):
            return "", True


def serve(stdin: IO[str], stdout: IO[str], options: BotOptions | None = None) -> int:
    """Answer protocol lines from ``stdin`` on ``stdout`` until ``quit`` or the end of the
    input; returns the exit status (0). Every reply is one line, flushed at once; nothing
    else is written to ``stdout``. ``options`` are the options' first values."""
    engine = BotServer(options)
    while True:
        read = _read_line(stdin)
        if read is None:
            return 0
        line, too_long = read
        if too_long:
            reply: dict[str, object] | None = error_reply(
                LINE_TOO_LONG, f"a line may hold at most {MAX_LINE} characters")
        else:
            try:
                reply = engine.handle_line(line)
            except StopIteration:
                return 0
            except Exception as exc:  # the engine must keep going whatever happens
                reply = error_reply(INTERNAL, f"{type(exc).__name__}: {exc}")
        if reply is not None:
            try:
                stdout.write(encode(reply))
                stdout.flush()
            except (BrokenPipeError, OSError):  # the client has gone away
                return 0


__all__ = ["DEFAULT_LEVEL", "OPTIONS", "BotOptions", "BotServer", "OptionSpec", "serve"]
