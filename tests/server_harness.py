"""A real server for the end-to-end tests: uvicorn on a free loopback port in a thread (or a
real ``basra serve`` process), and small async clients (httpx for HTTP, websockets for the
table protocol).

The ``backend`` fixture runs a test on both stores: SQLite in the test's temporary directory
and PostgreSQL (``$BASRA_TEST_POSTGRES``, default ``postgresql+asyncpg://root@127.0.0.1:5432/
test``) in a schema of its own, dropped afterwards. When PostgreSQL cannot be reached the
server does not start and the test fails: it never skips. A test module gets the fixture
by importing it: ``from server_harness import backend_fixture  # noqa: F401``.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
import uvicorn
from fastapi import FastAPI
from websockets.asyncio.client import ClientConnection, connect

from basra.game.cards import NAMES, names_of, parse_card
from basra.game.engine import Match, Round, new_match, start_round
from basra.game.engine import play as engine_play
from basra.game.rules import find_variant
from basra.match.records import MatchRecord, round_deck
from basra.server.app import create_app
from basra.server.config import Limits, RatedRules, Settings
from basra.server.http.listen import listening_socket
from basra.server.main import server_config
from basra.server.wire.server_messages import apply_played
from postgres_helpers import POSTGRES, drop_schema

T = TypeVar("T")
BACKENDS = ("sqlite", "postgresql")
FAST = {"seed_window_seconds": 0.0, "summary_seconds": 0.0, "bot_delay_seconds": 0.0,
        "grace_seconds": 0.3, "clock_seconds": 30.0, "quick_match_bot_offer_seconds": 0.5,
        "pairing_seconds": 0.05, "views_fresh_seconds": 0.0,
        "limits": Limits.unlimited(), "rated_rules": RatedRules.open(),
        "assist_analysis": False}
"""Settings that keep the tests quick: no seed window or summary wait, bots at once, a short
grace, no per-address limits (every client is on loopback; the limits have tests of their
own), and no background analysis of every rated match (the expert on every play of the
match, a core for seconds: tests/server/e2e/test_assist_analysis.py turns it on)."""

ERROR_CODES = frozenset((
    "protocol/bad_json", "protocol/too_large", "protocol/unknown_type",
    "protocol/bad_message", "protocol/bad_card", "play/stale", "play/not_your_turn",
    "play/not_seated", "play/no_round", "play/match_over", "play/not_in_hand",
    "play/must_take", "play/bad_take", "seed/bad", "seed/not_seated", "seed/round_started",
    "seed/wrong_round", "seed/reused", "protocol/rate_limited", "rematch/closed",
    "ready/not_seated", "rematch/not_seated", "rematch/not_over", "say/unknown",
    "say/not_seated", "say/limit", "say/too_fast", "say/muted", "table/too_many_spectators",
    "server/internal"))
"""The websocket error codes of docs/PROTOCOL.md."""


# ---------------------------------------------------------------------------------------
# databases


@dataclass(frozen=True)
class Backend:
    """Where a test's server keeps its store: SQLite in ``data_dir`` or a PostgreSQL URL."""

    name: str
    data_dir: Path
    db_url: str | None = None

    def settings(self, **extra: Any) -> Settings:
        return Settings(db_url=self.db_url, data_dir=self.data_dir, **{**FAST, **extra})

    def serve_args(self) -> list[str]:
        """The ``basra serve`` options naming this store."""
        args = ["--data-dir", str(self.data_dir)]
        return args + (["--db", self.db_url] if self.db_url else [])




@contextlib.contextmanager
def database(name: str, tmp_path: Path) -> Iterator[Backend]:
    """A fresh, empty store of back end ``name``: a new SQLite file or PostgreSQL schema."""
    data_dir = tmp_path / "data"
    if name == "sqlite":
        yield Backend(name, data_dir)
        return
    schema = f"basra_srv_{uuid.uuid4().hex[:16]}"
    try:
        yield Backend(name, data_dir, f"{POSTGRES}?schema={schema}")
    finally:
        asyncio.run(drop_schema(schema))


@pytest.fixture(params=BACKENDS, name="backend")
def backend_fixture(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    with database(str(request.param), tmp_path) as chosen:
        yield chosen


# ---------------------------------------------------------------------------------------
# servers


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def listens(pid: int, port: int) -> bool:
    """Whether process ``pid`` holds the socket listening on ``port`` (Linux's /proc): a
    free port can be taken by another test's server between :func:`free_port` and the bind,
    and that server would answer the probes in this one's place."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError), open(table) as lines:
            for line in list(lines)[1:]:
                fields = line.split()
                if fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port:
                    inodes.add(f"socket:[{fields[9]}]")
    with contextlib.suppress(OSError):
        for fd in os.listdir(f"/proc/{pid}/fd"):
            with contextlib.suppress(OSError):
                if os.readlink(f"/proc/{pid}/fd/{fd}") in inodes:
                    return True
    return False


PORT_TAKEN = b"Address already in use"
"""What ``basra serve`` says when its port was taken meanwhile: it is started again on
another."""


@contextlib.contextmanager
def running_server(settings: Settings, app: FastAPI | None = None) -> Iterator[str]:
    """Serve ``app`` (default ``create_app(settings)``) on 127.0.0.1 in a thread; yields
    the base URL.

    Uvicorn's logging is left unconfigured, so its records (an ASGI traceback included)
    reach the root logger, where pytest's ``caplog`` sees them."""
    port = free_port()
    sock = listening_socket("127.0.0.1", port, settings)
    server = uvicorn.Server(server_config(app or create_app(settings), "warning", settings))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            server.should_exit = True
            thread.join(10)
            raise RuntimeError("the test server did not start (is the database up?)")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(30)
        sock.close()


class ServeProcess:
    """A real ``basra serve`` process (``python -m basra serve``), its stderr in a file."""

    def __init__(self, args: list[str], log: Path, port: int | None = None) -> None:
        self.port = port or free_port()
        self.own_port = port is None
        """Chosen here: on a first start, another is chosen if the port was taken meanwhile."""
        self.args = ["--port", str(self.port), *args]
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None
        self.started_at = 0.0

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60) -> ServeProcess:
        self.started_at = time.monotonic()
        deadline = time.monotonic() + timeout
        may_move = self.own_port and self.proc is None
        for _ in range(3):
            logged = self.log.stat().st_size if self.log.exists() else 0
            with self.log.open("ab") as err:
                self.proc = subprocess.Popen(
                    [sys.executable, "-m", "basra", "serve", *self.args],
                    stdout=subprocess.DEVNULL, stderr=err)
            while True:
                if self.proc.poll() is not None:
                    said = self.log.read_bytes()[logged:]
                    if PORT_TAKEN in said and may_move:
                        break  # another server took the port first: another one
                    raise RuntimeError(f"basra serve exited with {self.proc.returncode}: "
                                       + self.log.read_text()[-2000:])
                try:
                    answer = httpx.get(f"{self.base}/ready", timeout=2).json()["ready"]
                    if answer is True and listens(self.proc.pid, self.port):
                        return self
                except (httpx.HTTPError, ValueError):
                    pass
                if time.monotonic() > deadline:
                    raise RuntimeError("basra serve did not become ready")
                time.sleep(0.05)
            self.port = free_port()
            self.args[1] = str(self.port)
        raise RuntimeError("basra serve found its port taken three times")

    def kill(self) -> None:
        """SIGKILL: no shutdown of any kind."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(30)

    def stop(self) -> int:
        """SIGINT, as Ctrl-C: the server shuts down cleanly; returns the exit status."""
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(30)
        return self.proc.returncode

    def log_lines(self) -> list[str]:
        return [line for line in self.log.read_text().splitlines() if line.strip()]

    @contextlib.contextmanager
    def running(self) -> Iterator[ServeProcess]:
        try:
            yield self.start()
        finally:
            self.kill()


# ---------------------------------------------------------------------------------------
# clients


GAME_MESSAGES = ("state", "played")
"""The messages that change what a client holds of the game."""


def changes(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The messages among ``messages`` that changed the game a client holds."""
    return [m for m in messages if m["type"] in GAME_MESSAGES]


@dataclass
class Guest:
    """A guest with a token and, once seated, a websocket to a table. Every message it
    receives is kept in ``log``; ``state`` is the whole state it holds (the last ``state``
    message with every ``played`` message since applied, as a client does), and ``seen``
    every such state in turn. A ``played`` message that does not follow the state held
    fails the test, unless ``sync_on_gap``: then the guest asks for a full state (``sync``)
    as the browser does, and ``gaps`` counts how often."""

    base: str
    nickname: str
    token: str = ""
    player_id: str = ""
    socket: ClientConnection | None = None
    state: dict[str, Any] = field(default_factory=dict)
    errors: list[dict[str, Any]] = field(default_factory=list)
    log: list[dict[str, Any]] = field(default_factory=list)
    seen: list[dict[str, Any]] = field(default_factory=list)
    sync_on_gap: bool = False
    gaps: int = 0
    syncing: bool = False

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    async def sign_in(self, http: httpx.AsyncClient) -> Guest:
        r = await http.post(f"{self.base}/api/guests", json={"nickname": self.nickname})
        r.raise_for_status()
        self.token = r.json()["token"]
        self.player_id = r.json()["player"]["id"]
        return self

    async def connect(self, table_id: str) -> None:
        """Open the table's websocket (a spectator's when the guest has no token)."""
        await self.close()  # (a socket to a node that died is closed, never dropped)
        ws_base = self.base.replace("http://", "ws://")
        self.state = {}
        self.syncing = False
        if self.token:  # a player: the token goes in the first message, never the address
            socket = await connect(f"{ws_base}/ws/tables/{table_id}?auth=1", max_size=None)
            try:
                await socket.send(json.dumps({"type": "hello", "token": self.token}))
            except BaseException:
                await socket.close()
                raise
            self.socket = socket
        else:
            self.socket = await connect(f"{ws_base}/ws/tables/{table_id}", max_size=None)

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()
            self.socket = None

    async def send(self, message: dict[str, Any]) -> None:
        await self.send_raw(json.dumps(message))

    async def send_raw(self, raw: str | bytes) -> None:
        assert self.socket is not None
        await self.socket.send(raw)

    async def receive(self, timeout: float = 20) -> dict[str, Any]:
        assert self.socket is not None
        raw = await asyncio.wait_for(self.socket.recv(), timeout)
        message: dict[str, Any] = json.loads(raw)
        self.log.append(message)
        if message["type"] == "state":
            self.state = message
            self.syncing = False
            self.seen.append(message)
        elif message["type"] == "played":
            await self.take_played(message)
        elif message["type"] == "error":
            self.errors.append(message)
        return message

    async def take_played(self, message: dict[str, Any]) -> None:
        if self.state and message["version"] <= self.state["version"]:
            return  # already in the full state held
        if self.syncing:
            return  # a full state is on its way
        try:
            self.state = apply_played(self.state, message)
        except (ValueError, KeyError) as exc:
            if not self.sync_on_gap:
                raise AssertionError(f"{self.nickname}: {exc}") from None
            self.gaps += 1
            self.syncing = True
            await self.send({"type": "sync"})
            return
        self.seen.append(self.state)

    async def until(self, predicate: Callable[[dict[str, Any]], bool],
                    timeout: float = 60) -> dict[str, Any]:
        """Read messages until a state satisfies ``predicate``."""
        deadline = time.monotonic() + timeout
        while True:
            if self.state and predicate(self.state):
                return self.state
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.nickname}: no state matched in {timeout} s")
            await self.receive(left)

    async def ping(self, timeout: float = 20) -> tuple[int, list[dict[str, Any]]]:
        """Send a ping; the version in the pong and every other message read before it."""
        await self.send({"type": "ping"})
        return await self.ping_answer(timeout)

    async def ping_answer(self, timeout: float = 20) -> tuple[int, list[dict[str, Any]]]:
        """Read up to the next pong: its version and every other message before it."""
        before = []
        while True:
            message = await self.receive(timeout)
            if message["type"] == "pong":
                return int(message["version"]), before
            before.append(message)

    def my_turn(self, state: dict[str, Any]) -> bool:
        view = state["view"]
        return bool(view["legal"]) and view["turn"] == state["you"]

    async def play_first_legal(self) -> None:
        await self.play_legal(0)

    async def play_legal(self, index: int) -> dict[str, Any]:
        play: dict[str, Any] = self.state["view"]["legal"][index]
        await self.send({"type": "play", "version": self.state["version"],
                         "card": play["card"], "take": play["take"]})
        return play


def over(state: dict[str, Any]) -> bool:
    return bool(state["table"]["status"] == "finished")


def pending_round(state: dict[str, Any]) -> int | None:
    """The round waiting for client seeds, if any."""
    current = state["table"]["fairness"]["current"]
    if state["table"]["phase"] != "seeding" or current is None:
        return None
    number: int = current["round"]
    return number


async def new_guest(base: str, http: httpx.AsyncClient, name: str) -> Guest:
    return await Guest(base, name).sign_in(http)


async def play_out(*guests: Guest, timeout: float = 240,
                   rng: random.Random | None = None) -> dict[str, Any]:
    """Every guest plays a legal play (the first, or a random one with ``rng``) whenever
    it is its turn, until the end."""
    async def one(guest: Guest) -> dict[str, Any]:
        sent = -1
        while True:
            state = await guest.until(
                lambda s, last=sent: over(s) or (guest.my_turn(s) and s["version"] > last),
                timeout)
            if over(state):
                return state
            sent = state["version"]
            legal = state["view"]["legal"]
            await guest.play_legal(rng.randrange(len(legal)) if rng else 0)

    results = await asyncio.gather(*(one(g) for g in guests))
    return results[0]


async def bot_table(base: str, http: httpx.AsyncClient, guest: Guest,
                    level: str = "random", **options: Any) -> str:
    """A table where ``guest`` plays bots of ``level``: its id."""
    r = await http.post(f"{base}/api/tables/bot", headers=guest.headers,
                        json={"bot_level": level, **options})
    assert r.status_code == 201, r.text
    table_id: str = r.json()["table"]["id"]
    return table_id


async def at_a_bot_table(base: str, http: httpx.AsyncClient, name: str = "Amira",
                         level: str = "random", **options: Any) -> Guest:
    """A new guest called ``name``, connected to a new table of their own against bots of
    ``level`` (``options`` as for :func:`bot_table`)."""
    guest = await new_guest(base, http, name)
    await guest.connect(await bot_table(base, http, guest, level, **options))
    return guest


async def rematch(guest: Guest) -> str:
    """``guest`` asks for a rematch (of a finished match) and waits until their table names
    it: the rematch table's id."""
    await guest.send({"type": "rematch"})
    state = await guest.until(lambda s: s["table"]["rematch_table"] is not None)
    table_id: str = state["table"]["rematch_table"]
    return table_id


async def private_table(base: str, http: httpx.AsyncClient, owner: Guest,
                        **options: Any) -> tuple[str, str]:
    """A private table ``owner`` creates: its id and invite code."""
    r = await http.post(f"{base}/api/tables/private", headers=owner.headers, json=options)
    assert r.status_code == 201, r.text
    link: str = r.json()["invite_link"]
    return r.json()["table"]["id"], link.rsplit("/", maxsplit=1)[-1]


async def join(base: str, http: httpx.AsyncClient, guest: Guest, code: str) -> int:
    """``guest`` opens the invite: their seat."""
    r = await http.post(f"{base}/api/tables/join", headers=guest.headers,
                        json={"invite_code": code})
    assert r.status_code == 200, r.text
    seat: int = r.json()["seat"]
    return seat


async def two_at_a_private_table(base: str, http: httpx.AsyncClient,
                                 **options: Any) -> tuple[str, Guest, Guest]:
    """Amira opens a private table, Omar joins it by its invite, both connect: the table's
    id and the two guests."""
    amira = await new_guest(base, http, "Amira")
    omar = await new_guest(base, http, "Omar")
    table_id, code = await private_table(base, http, amira, **options)
    await join(base, http, omar, code)
    await amira.connect(table_id)
    await omar.connect(table_id)
    return table_id, amira, omar


async def next_message(guest: Guest, kind: str, timeout: float = 10) -> dict[str, Any]:
    """The first message of ``kind`` the guest got, or the next one (read on)."""
    for message in guest.log:
        if message["type"] == kind:
            return message
    deadline = time.monotonic() + timeout
    while True:
        message = await guest.receive(max(0.1, deadline - time.monotonic()))
        if message["type"] == kind:
            return message


async def play_match_sending_parts(
        guest: Guest, parts: dict[int, str], timeout: float = 240,
        choose: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
        part: Callable[[int], str] | None = None) -> dict[str, Any]:
    """Play to the end: on every turn the first legal play (or ``choose(view)``, a play
    ``{"card", "take"}``); for every round, send a fresh part (or ``part(round)``) the
    moment its commitment is seen (as the browser does), and note it in ``parts``."""
    sent = -1
    while True:
        state = await guest.until(
            lambda s, last=sent: over(s)
            or (pending_round(s) is not None and pending_round(s) not in parts)
            or (guest.my_turn(s) and s["version"] > last), timeout)
        if over(state):
            return state
        number = pending_round(state)
        if number is not None and number not in parts:
            parts[number] = part(number) if part else f"part-{number}-{os.urandom(6).hex()}"
            await guest.send({"type": "seed", "round": number, "client_seed": parts[number]})
            continue
        sent = state["version"]
        if choose is None:
            await guest.play_first_legal()
        else:
            await guest.send({"type": "play", "version": sent, **choose(state["view"])})


async def play_turns(guests: list[Guest], until: Callable[[dict[str, Any]], bool],
                     timeout: float = 120, rng: random.Random | None = None) -> None:
    """Like :func:`play_out`, but each guest stops playing once its latest state satisfies
    ``until`` (checked before each of its plays) or the match is over."""
    async def one(guest: Guest) -> None:
        sent = -1
        while True:
            state = await guest.until(
                lambda s, last=sent: until(s) or over(s)
                or (guest.my_turn(s) and s["version"] > last), timeout)
            if until(state) or over(state):
                return
            sent = state["version"]
            legal = state["view"]["legal"]
            await guest.play_legal(rng.randrange(len(legal)) if rng else 0)

    await asyncio.gather(*(one(g) for g in guests))


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def serve(where: Backend | Path, scenario: Callable[[str, httpx.AsyncClient], Awaitable[T]],
          **settings: Any) -> T:
    """Run ``scenario(base, http)`` against a real server with ``settings`` (over
    :data:`FAST`): on the back end ``where``, or on SQLite in the folder ``where``; its
    answer is the scenario's."""
    async def with_client(base: str) -> T:
        async with httpx.AsyncClient() as http:
            return await scenario(base, http)

    if isinstance(where, Backend):
        with running_server(where.settings(**settings)) as base:
            answer: T = run(with_client(base))
            return answer
    with database("sqlite", where) as store, running_server(store.settings(**settings)) as base:
        answer = run(with_client(base))
        return answer


# ---------------------------------------------------------------------------------------
# what happened at a table


class PlayLog:
    """Every play a client saw, by round, from the states it received. A later state of the
    same round must extend what an earlier one showed: a play never changes or vanishes."""

    def __init__(self) -> None:
        self.rounds: dict[int, list[tuple[int, str, tuple[str, ...]]]] = {}

    def see(self, state: dict[str, Any]) -> None:
        view = state["view"]
        number = view["round"]
        if number == 0:
            return
        plays = [(p["seat"], p["card"], tuple(sorted(p["take"]))) for p in view["plays"]]
        known = self.rounds.get(number, [])
        shorter, longer = sorted((known, plays), key=len)
        assert longer[:len(shorter)] == shorter, f"round {number}: plays changed"
        self.rounds[number] = longer

    def see_all(self, messages: list[dict[str, Any]]) -> None:
        for message in messages:
            if message["type"] == "state":
                self.see(message)

    def total(self) -> int:
        return sum(len(p) for p in self.rounds.values())


def comparable(state: dict[str, Any]) -> dict[str, Any]:
    """A state without what may change across a restart: the version, the time left on
    the clock and who is connected right now (spectators too)."""
    out = copy.deepcopy(state)
    del out["version"]
    out["table"].pop("spectators", None)
    if out["table"]["clock"] is not None:
        del out["table"]["clock"]["remaining_ms"]
    for player in out["table"]["players"]:
        del player["connected"]
        del player["bot_playing"]
    return out


def record_plays(record: MatchRecord) -> dict[int, list[tuple[int, str, tuple[str, ...]]]]:
    """A record's plays, in the shape of :class:`PlayLog` (seats as the replay finds them)."""
    out: dict[int, list[tuple[int, str, tuple[str, ...]]]] = {}
    match = new_match(record.rules, len(record.players), record.teams)
    for number, rnd in enumerate(record.rounds, 1):
        match = start_round(match, round_deck(rnd))
        plays = out.setdefault(number, [])
        for entry in rnd.plays:
            assert match.round is not None
            seat = match.round.turn
            plays.append((seat, NAMES[entry.card], tuple(sorted(names_of(entry.take)))))
            match = engine_play(match, entry.play, entry.seat)
    return out


def round_states(record: MatchRecord) -> dict[int, list[Round]]:
    """Every state of every round of a record: ``[r][k]`` is round r after k plays."""
    out: dict[int, list[Round]] = {}
    match: Match = new_match(find_variant(record.variant), len(record.players), record.teams)
    for number, rnd in enumerate(record.rounds, 1):
        match = start_round(match, round_deck(rnd))
        assert match.round is not None
        states = [match.round]
        for entry in rnd.plays:
            match = engine_play(match, entry.play, entry.seat)
            assert match.round is not None
            states.append(match.round)
        out[number] = states
    return out


def hidden_from(rnd: Round, seat: int | None) -> set[int]:
    """The cards ``seat`` (None: a spectator) may not know at this moment of the round:
    the other hands and the stock still to deal."""
    hidden = set(rnd.setup.stock[rnd.dealt:])
    for other in range(rnd.setup.seats):
        if other != seat:
            hand = rnd.hand(other)
            hidden |= {c for c in range(52) if hand >> c & 1}
    return hidden


def card_names_in(message: Any) -> set[int]:
    """Every card named anywhere in a message: each text value that is a card's name."""
    found: set[int] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, str) and 2 <= len(value) <= 3:
            with contextlib.suppress(Exception):
                found.add(parse_card(value))

    walk(message)
    return found


def strings_in(message: Any) -> list[str]:
    """Every text value (and key) anywhere in a message."""
    out: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                out.append(str(k))
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, str):
            out.append(value)

    walk(message)
    return out
