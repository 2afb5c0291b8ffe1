"""The client side of basra-engine/1 (docs/ENGINE_PROTOCOL.md): :class:`ExternalBot` runs
any program that speaks the protocol and uses it as a bot
(``basra arena --b cmd:"python3 examples/random_bot.py"``). Its replies are checked: a play
that is not one of ``view.legal``, a timeout, a crash or a line that is not the protocol is
an :class:`ExternalBotError` with a one-line message naming the program.
"""

from __future__ import annotations

import contextlib
import json
import queue
import shlex
import subprocess
import threading
from collections import deque
from collections.abc import Mapping, Sequence
from typing import IO, Any, NoReturn

from basra.bots.base import Bot
from basra.engine_protocol.messages import PROTOCOL, encode, format_play, hello_request, short
from basra.errors import BasraError
from basra.game.cards import parse_card, parse_card_set
from basra.game.engine import Play
from basra.game.views import SeatView

PLAY_TIMEOUT = 10.0
"""Seconds an :class:`ExternalBot` waits for a play before giving up (default)."""
START_TIMEOUT = 10.0
"""Seconds an :class:`ExternalBot` waits for the handshake and each option's answer."""


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
            self._fail(f"answered option {name} with {short(reply)[:60]}", "external/garbage")

    def choose(self, view: SeatView) -> Play:
        if not view.legal:
            raise ValueError("no legal play: it is not this seat's turn")
        return self.decide(view)

    def decide(self, view: SeatView) -> Play:
        reply = self._request({"type": "play", "view": view.to_json()}, self.timeout, "play")
        if reply.get("type") != "play":
            self._fail(f"answered play with {short(reply)[:60]}", "external/garbage")
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
                       f"{short(line.strip())}", "external/garbage")
        if "id" in reply and reply["id"] != request_id:
            self._fail(f"answered {what} with id {short(reply['id'])}, expected {request_id}",
                       "external/garbage")
        if reply["type"] == "error":
            self._fail(f"refused {what}: {reply.get('code', '?')}: "
                       f"{' '.join(str(reply.get('message', '')).split())[:160]}",
                       "external/refused")
        return reply

    def _handshake(self, options: Mapping[str, object]) -> None:
        reply = self._request(hello_request(), self.start_timeout, "hello")
        if reply.get("type") != "hello" or reply.get("protocol") != PROTOCOL:
            self._fail(f"answered hello with {short(reply)[:60]}, not a {PROTOCOL} hello",
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


__all__ = ["PLAY_TIMEOUT", "START_TIMEOUT", "ExternalBot", "ExternalBotError"]
