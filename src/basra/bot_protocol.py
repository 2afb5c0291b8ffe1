"""The engine protocol, basra-engine/1 (docs/ENGINE_PROTOCOL.md): bots as programs.

Like UCI for chess engines, a Basra engine is a program that reads one JSON object a line
on standard input and answers each with one JSON object a line on standard output. This
module holds both ends:

- :func:`serve` (``basra engine``): our bots behind the protocol, so any program in any
  language can use them;
- :class:`ExternalBot`: any program that speaks the protocol, used as a bot
  (``basra arena --b cmd:"python3 examples/random_bot.py"``). Its replies are checked: a
  play that is not one of ``view.legal``, a timeout, a crash or a line that is not the
  protocol is an :class:`ExternalBotError` with a one-line message naming the program.

>>> import io
>>> out = io.StringIO()
>>> serve(io.StringIO('{"type":"hello","protocol":"basra-engine/1"}\\n{"type":"quit"}\\n'), out)
0
>>> json.loads(out.getvalue())["protocol"]
'basra-engine/1'
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import queue
import shlex
import subprocess
import sys
import threading
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Any, NoReturn

from basra import __version__
from basra.bots import LEVELS, make_bot
from basra.bots.base import Bot
from basra.bots.hard import DEFAULT_ITERATIONS, DEFAULT_TIME_CAP
from basra.cards import NAMES, names_of, parse_card, parse_card_set
from basra.cliargs import OneLineParser, parse_or_status, seconds, whole_number
from basra.engine import Play
from basra.errors import BasraError
from basra.rules import find_variant
from basra.views import SeatView, view_from_json

PROTOCOL = "basra-engine/1"
"""The protocol's name and version, sent in both ``hello`` messages."""

MAX_LINE = 1 << 20
"""The longest line (in characters, newline excluded) either end must accept."""

DEFAULT_LEVEL = "medium"
PLAY_TIMEOUT = 10.0
"""Seconds an :class:`ExternalBot` waits for a play before giving up (default)."""
START_TIMEOUT = 10.0
"""Seconds an :class:`ExternalBot` waits for the handshake and each option's answer."""

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


# --------------------------------------------------------------------------- the engine


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
    OptionSpec("iterations", "int", "hard: search iterations per play", minimum=1),
    OptionSpec("time_cap", "number", "hard: seconds per play at most; 0 for no cap "
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
        if value not in spec.choices:
            raise _Refusal(BAD_OPTION, f"{name} must be one of {', '.join(spec.choices)}, "
                                       f"got {_short(value)}")
        return value
    if spec.kind == "seed":
        if value is None or isinstance(value, str) or _is_int(value):
            return value
        raise _Refusal(BAD_OPTION, f"seed must be an integer, a string or null, "
                                   f"got {_short(value)}")
    if spec.kind == "int":
        if _is_int(value) and isinstance(value, int) and value >= 1:
            return value
        raise _Refusal(BAD_OPTION, f"{name} must be a whole number from 1 up, "
                                   f"got {_short(value)}")
    if (_is_int(value) or isinstance(value, float)) and isinstance(value, int | float) and (
            math.isfinite(value) and value >= 0):
        return value
    raise _Refusal(BAD_OPTION, f"{name} must be a number of seconds from 0 up, "
                               f"got {_short(value)}")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _short(value: object) -> str:
    text = json.dumps(value) if _jsonable(value) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _jsonable(value: object) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


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
                                            f"{_short(protocol)}")
            self.greeted = True
            return _with_id(self.hello(), request_id)
        if kind not in ("option", "ping", "play"):
            raise _Refusal(UNKNOWN_TYPE, f"unknown message type {_short(kind)} (known: hello, "
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


# --------------------------------------------------------------------------- the client


class ExternalBotError(BasraError):
    """An external program that failed: it could not start, broke the protocol, answered
    with an illegal play or an error, took too long or exited. One line, naming it.

    Codes: ``external/start``, ``external/exited``, ``external/timeout``,
    ``external/garbage``, ``external/refused`` (it answered with an ``error``),
    ``external/illegal_play``.
    """

    code = "external/failed"


def _command_args(command: str | Sequence[str]) -> list[str]:
    if isinstance(command, str):
        try:
            args = shlex.split(command)
        except ValueError as exc:
            raise ExternalBotError(f"bad command {command!r}: {exc}", "external/start") from None
    else:
        args = list(command)
    if not args:
        raise ExternalBotError("empty command for an external program", "external/start")
    return args


class ExternalBot(Bot):
    """A program that speaks basra-engine/1, used as a bot.

    The program is started at once and greeted; ``options`` (name to value) are then set
    one by one and must each be accepted. Use it as a context manager, or call
    :meth:`close`, which asks the program to quit and waits for it.

    :meth:`choose` sends the view and waits at most ``timeout`` seconds for the play, which
    must be one of ``view.legal``. Every failure is an :class:`ExternalBotError`; after one
    the program is stopped and the bot stays failed.
    """

    level = "external"

    def __init__(self, command: str | Sequence[str], *, timeout: float = PLAY_TIMEOUT,
                 start_timeout: float = START_TIMEOUT,
                 options: Mapping[str, object] | None = None,
                 label: str | None = None) -> None:
        super().__init__(None)
        self.args = _command_args(command)
        self.label = label or (command if isinstance(command, str) else shlex.join(self.args))
        self.timeout = timeout
        self.start_timeout = start_timeout
        self.engine_name = ""
        self.engine_version = ""
        self.engine_options: dict[str, dict[str, object]] = {}
        self._next_id = 0
        self._failure: ExternalBotError | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=5)
        try:
            self._proc: subprocess.Popen[str] | None = subprocess.Popen(
                self.args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True, encoding="utf-8", errors="replace",
                bufsize=1)
        except OSError as exc:
            self._proc = None
            raise ExternalBotError(
                f"external bot {self._quoted}: cannot start: {exc.strerror or exc}",
                "external/start") from None
        assert self._proc.stdout is not None and self._proc.stderr is not None
        self._readers = [
            threading.Thread(target=self._pump_stdout, args=(self._proc.stdout,), daemon=True),
            threading.Thread(target=self._pump_stderr, args=(self._proc.stderr,), daemon=True),
        ]
        for thread in self._readers:
            thread.start()
        try:
            self._handshake(options or {})
        except ExternalBotError:
            self.close()
            raise

    # -- what the arena and other callers use

    @property
    def name(self) -> str:
        return f"external:{self.engine_name or self.label}"

    @property
    def has_seed(self) -> bool:
        """Whether the program announced a ``seed`` option."""
        return "seed" in self.engine_options

    def set_option(self, name: str, value: object) -> None:
        """Set one option; the program must answer ``ok``."""
        reply = self._request({"type": "option", "name": name, "value": value},
                              self.start_timeout, f"option {name}")
        if reply.get("type") != "ok":
            self._fail(f"answered option {name} with {_short(reply)[:60]}", "external/garbage")

    def choose(self, view: SeatView) -> Play:
        if not view.legal:
            raise ValueError("no legal play: it is not this seat's turn")
        return self.decide(view)

    def decide(self, view: SeatView) -> Play:
        reply = self._request({"type": "play", "view": view.to_json()}, self.timeout, "play")
        if reply.get("type") != "play":
            self._fail(f"answered play with {_short(reply)[:60]}", "external/garbage")
        try:
            card_name, take_names = reply.get("card"), reply.get("take", [])
            if not isinstance(card_name, str):
                raise ValueError("card must be a card such as '5H'")
            if not isinstance(take_names, list) or not all(isinstance(t, str)
                                                           for t in take_names):
                raise ValueError("take must be a list of cards")
            card = parse_card(card_name)
            take = parse_card_set(take_names)
        except (BasraError, ValueError) as exc:
            self._fail(f"sent a malformed play: {' '.join(str(exc).split())}",
                       "external/garbage")
        choice = Play(card, take)
        if choice not in view.legal:
            self._fail(f"illegal play {choice} (not one of the {len(view.legal)} legal plays: "
                       f"{_list_plays(view.legal)})", "external/illegal_play")
        return choice

    def close(self) -> None:
        """Ask the program to quit, wait for it (killing it after a grace period) and
        release its pipes. Safe to call twice."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        if proc.poll() is None:
            with contextlib.suppress(OSError, ValueError):
                proc.stdin.write(encode({"type": "quit"}))
                proc.stdin.flush()
        with contextlib.suppress(OSError, ValueError):
            proc.stdin.close()
        try:
            proc.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        for thread in self._readers:
            thread.join(timeout=2.0)
        proc.stdout.close()
        proc.stderr.close()

    def __enter__(self) -> ExternalBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the wire

    @property
    def _quoted(self) -> str:
        label = self.label  # elide the middle: the program's name is often at the end
        return repr(label if len(label) <= 60 else label[:27] + "..." + label[-30:])

    def _pump_stdout(self, stream: IO[str]) -> None:
        """Reader thread: the program's output lines into the queue, then ``None``."""
        try:
            for line in stream:
                self._lines.put(line)
        except (OSError, ValueError):
            pass
        finally:
            self._lines.put(None)

    def _pump_stderr(self, stream: IO[str]) -> None:
        """Reader thread: keep the program's last few error lines for messages."""
        with contextlib.suppress(OSError, ValueError):
            for line in stream:
                if line.strip():
                    self._stderr.append(" ".join(line.split()))

    def _fail(self, what: str, code: str) -> NoReturn:
        error = ExternalBotError(f"external bot {self._quoted}: {what}", code)
        self._failure = error
        self._stop()
        raise error

    def _stop(self) -> None:
        """Kill the program after a failure (it may be stuck) and release it."""
        proc = self._proc
        if proc is not None and proc.poll() is None:
            with contextlib.suppress(OSError):
                proc.kill()
        self.close()

    def _exit_detail(self) -> str:
        proc = self._proc
        status = None
        if proc is not None:
            try:
                status = proc.wait(timeout=2.0)
            except subprocess.TimeoutExpired:
                status = None
        for thread in self._readers[1:]:
            thread.join(timeout=1.0)
        return "exited" if status is None else f"exited with status {status}"

    def _stderr_tail(self) -> str:
        if not self._stderr:
            return ""
        last = self._stderr[-1]
        return f" (stderr: {last if len(last) <= 120 else last[:117] + '...'})"

    def _request(self, message: dict[str, object], timeout: float, what: str
                 ) -> dict[str, Any]:
        if self._failure is not None:
            raise self._failure
        proc = self._proc
        if proc is None:
            raise ExternalBotError(f"external bot {self._quoted}: already closed",
                                   "external/exited")
        self._next_id += 1
        request_id = self._next_id
        assert proc.stdin is not None
        try:
            proc.stdin.write(encode({"type": message["type"], "id": request_id, **message}))
            proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            self._fail(f"{self._exit_detail()} before {what}{self._stderr_tail()}",
                       "external/exited")
        try:
            line = self._lines.get(timeout=timeout if timeout > 0 else None)
        except queue.Empty:
            self._fail(f"no answer to {what} within {timeout:g} s", "external/timeout")
        if line is None:
            self._fail(f"{self._exit_detail()} instead of answering {what}"
                       f"{self._stderr_tail()}", "external/exited")
        try:
            reply = json.loads(line)
        except (ValueError, RecursionError):
            reply = None
        if not isinstance(reply, dict) or not isinstance(reply.get("type"), str):
            self._fail(f"answered {what} with a line that is not the protocol: "
                       f"{_short(line.strip())}", "external/garbage")
        if "id" in reply and reply["id"] != request_id:
            self._fail(f"answered {what} with id {_short(reply['id'])}, expected {request_id}",
                       "external/garbage")
        if reply["type"] == "error":
            self._fail(f"refused {what}: {reply.get('code', '?')}: "
                       f"{' '.join(str(reply.get('message', '')).split())[:160]}",
                       "external/refused")
        return reply

    def _handshake(self, options: Mapping[str, object]) -> None:
        reply = self._request(hello_request(), self.start_timeout, "hello")
        if reply.get("type") != "hello" or reply.get("protocol") != PROTOCOL:
            self._fail(f"answered hello with {_short(reply)[:60]}, not a {PROTOCOL} hello",
                       "external/garbage")
        self.engine_name = str(reply.get("name") or "")[:60]
        self.engine_version = str(reply.get("version") or "")[:30]
        announced = reply.get("options", [])
        if isinstance(announced, list):
            for spec in announced:
                if isinstance(spec, dict) and isinstance(spec.get("name"), str):
                    self.engine_options[spec["name"]] = spec
        for name, value in options.items():
            self.set_option(name, value)


def _list_plays(plays: Sequence[Play], most: int = 6) -> str:
    shown = ", ".join(format_play(p) for p in plays[:most])
    return shown + (", ..." if len(plays) > most else "")


# --------------------------------------------------------------------------- the command


def _seed(text: str) -> int | str:
    try:
        return int(text)
    except ValueError:
        return text


def build_parser() -> argparse.ArgumentParser:
    """The ``basra engine`` argument parser; the options give the protocol options' first
    values (a client can change them with ``option`` messages)."""
    parser = OneLineParser(
        prog="basra engine",
        description=f"Speak {PROTOCOL} (docs/ENGINE_PROTOCOL.md) on standard input and "
                    "output: one JSON object a line in, one JSON object a line out.")
    parser.add_argument("--level", choices=list(LEVELS), default=DEFAULT_LEVEL,
                        help=f"the bot's level (default {DEFAULT_LEVEL})")
    parser.add_argument("--iterations", type=whole_number(1), metavar="N",
                        help=f"hard: search iterations per play (default {DEFAULT_ITERATIONS})")
    parser.add_argument("--time-cap", type=seconds(zero=True), metavar="S",
                        help=f"hard: seconds per play at most, 0 for none (default "
                             f"{DEFAULT_TIME_CAP:g})")
    parser.add_argument("--seed", type=_seed, metavar="SEED",
                        help="seed of the bot's random choices (default: fresh)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``basra engine``: serve the protocol on standard input and output. Returns the
    exit status: 0 after ``quit`` or the end of the input, 2 for bad arguments."""
    args = parse_or_status(build_parser(), argv)
    if isinstance(args, int):  # bad arguments, or --help
        return args
    stdin, stdout = sys.stdin, sys.stdout
    for stream in (stdin, stdout):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):
                reconfigure(encoding="utf-8", errors="replace")
    # Only protocol lines reach the real standard output; a stray print goes to stderr.
    sys.stdout = sys.stderr
    try:
        return serve(stdin, stdout, BotOptions(args.level, args.seed, args.iterations,
                                               args.time_cap))
    except KeyboardInterrupt:
        return 130
    finally:
        sys.stdout = stdout


__all__ = [
    "ERROR_CODES",
    "PROTOCOL",
    "BotOptions",
    "BotServer",
    "ExternalBot",
    "ExternalBotError",
    "build_parser",
    "encode",
    "main",
    "serve",
]


if __name__ == "__main__":
    sys.exit(main())
