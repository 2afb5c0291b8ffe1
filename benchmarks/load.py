"""Load: how many concurrent matches a server holds with the 99th-percentile time from a
guest's play to the message that shows it under 100 ms, and what each play costs it in CPU.

Each match is a guest (a real websocket client) against a bot of ``--bot``'s level. For each
step of ``--steps`` (or the one ``--matches N``), that many guests play at once for
``--seconds``; a guest whose match ends opens another at once, so the step holds N matches.
The N matches are opened over ``--ramp`` seconds (guest i at ramp * i / N), and the
measured window starts once every one of them is open (at the ramp's end at the soonest,
``--open-wait`` after it at the latest): samples, counts and CPU are of the window only;
plays made while the matches were opening are reported apart. Each step has a fresh server
(and, on PostgreSQL, a fresh schema, dropped afterwards).

Two paces:

- ``--paced``: as people play. Before each play a guest thinks a random 1 to 3 s
  (``--think``, seeded by ``--seed``); it sends its part of each round's client seed as the
  browser does; the server runs with its defaults (the bots' least delay 0.7 s, a 5 s seed
  window, a 30 s clock), ``--no-limits`` only. A round lasts about 65 s at this pace and a
  match several minutes: a window under a minute sees no round change and no match end
  (the report counts both); ``--seconds 120`` sees them.
- default (fast): a guest plays the moment it is its turn, and the server runs with
  ``--bot-delay 0 --seed-window 0 --summary-window 0 --clock 600 --grace 600`` (a stress
  test of the play path, not a human load).

Per step it reports: guest plays a second (and with the bots' plays), the time from sending
a play to the first message with a higher version (the one that shows the play: a ``state``
in basra-ws/1, a ``played`` delta in basra-ws/2; :func:`seen` reads both and :data:`DELTA`
names the delta's fields) as p50, p95, p99 and max; the bot's answer, from receiving the
message that shows it is the bot's turn to receiving the one that shows its play, as p50
and p95 (the bot's least delay included); errors (by code) and timeouts (no answer within
10 s: the guest then opens a new match); the server's CPU over the window (utime+stime from
``/proc/PID/stat`` of the server process and all its descendants: the bot workers, the
``--workers`` processes) as cores and as CPU ms per play (guest and bot plays alike;
PostgreSQL's own processes are not in it, only in the whole machine's figure); the load
generator's CPU (its K processes, ``--clients K``; the busiest one near 1.0 means the
generator is the bottleneck) and the whole machine's (``/proc/stat``: other work on the
machine shows there).

Spectators (issue 14): ``--spectators K`` opens, with each match, K spectators that read
every message (websockets with no token, as a browser watching), and ``--slow-spectators
K`` K more that do the handshake and never read a byte (benchmarks/load_spectators.py).
Per step it then also reports the spectator sockets opened, the messages they received in
the window, the time from a guest sending a play to a spectator's first message that shows
it (p50, p95, p99 and max, as the guest's own), the spectator sockets the server closed
while their match went on (should be none), and of the slow ones: how many the server had
closed by the time their match ended (each is read out then: a close frame, or the stream's
end or reset), how, what they had been sent, and how long after the match opened the
server's own count of the table's spectators (``spectators``, as its guest receives it) fell.
The server's CPU a play, compared with a run without spectators, is what they cost; the
guests' p99 whether they slowed the tables. On a machine whose other work comes and goes,
``--watch-every N`` gives the spectators to every N-th guest's matches only and reports the
guests' delay at watched and unwatched tables apart: one window, one machine.

Targets: by default it starts ``basra serve`` itself (SQLite in a temporary directory, or
``--db``), or ``--nodes K`` of them on one database (``--redis URL`` puts them in cluster
mode, with this step's own key prefix; ``--server-args`` passes any other flag, e.g.
``'--workers 2'`` or ``'--bot-workers 2'``), or it drives servers already running
(``--url``, one or more; ``--server-pid`` to read their CPU; the tables of one step are left
to their bots). Guests are spread round-robin over the URLs. ``--server-src DIR`` starts the
servers with another source tree's basra (a "before"). Traffic stays on 127.0.0.1, every
loop is bounded, and RLIMIT_NOFILE is raised to its hard limit (the servers and generator
processes started here inherit it).

Profiles over each step's window: ``--profile FILE`` (py-spy, Python frames; a summary by
benchmarks/profile_summary.py, and ``--profile-raw`` keeps the stacks) and ``--perf FILE``
(perf, below Python: the interpreter, uvloop, zlib, SQLite, the kernel). py-spy takes up to
a third of a core itself: take the figures of a step from a run without it.

    # the paced load, one process, SQLite, medium bots
    .venv/bin/python benchmarks/load.py --paced --steps 300,600 --seconds 30
    .venv/bin/python benchmarks/load.py --paced --steps 500,1000,2000 --seconds 60
    .venv/bin/python benchmarks/load.py --paced --matches 2000 --seconds 120 --clients 2
    # the same on PostgreSQL (each step gets its own schema)
    .venv/bin/python benchmarks/load.py --paced --matches 2000 --seconds 60 --clients 2 \\
        --db postgresql+asyncpg://root@127.0.0.1:5432/test
    # hard bots (their worker processes: one per core unless --bot-workers)
    .venv/bin/python benchmarks/load.py --paced --bot hard --matches 200 --seconds 60
    # two processes in cluster mode on this machine: two nodes, or one node's --workers 2
    .venv/bin/python benchmarks/load.py --paced --matches 3200 --nodes 2 --clients 2 \\
        --db postgresql+asyncpg://root@127.0.0.1:5432/test --redis redis://127.0.0.1:6379/0
    .venv/bin/python benchmarks/load.py --paced --matches 3200 --clients 2 \\
        --db postgresql+asyncpg://root@127.0.0.1:5432/test --redis redis://127.0.0.1:6379/0 \\
        --server-args '--workers 2'
    # servers already running
    .venv/bin/python benchmarks/load.py --paced --matches 300 \\
        --url http://127.0.0.1:8000 --server-pid 1234
    # before and after: the servers run an export of the commit before
    mkdir -p /tmp/before && git archive HEAD src | tar -x -C /tmp/before
    .venv/bin/python benchmarks/load.py --paced --steps 300,600 --server-src /tmp/before/src
    # where the server's CPU goes (py-spy: pip install py-spy; perf: the system's)
    .venv/bin/python benchmarks/load.py --paced --matches 300 --seconds 30 \\
        --profile benchmarks/profiles/paced-300-medium-sqlite.txt
    .venv/bin/python benchmarks/load.py --paced --matches 300 --seconds 30 \\
        --perf benchmarks/profiles/paced-300-medium-sqlite-perf.txt
    # spectators: 3 reading ones a match, or 1 that never reads
    .venv/bin/python benchmarks/load.py --paced --matches 300 --seconds 45 --spectators 3
    .venv/bin/python benchmarks/load.py --paced --matches 300 --seconds 45 --slow-spectators 1
    # the fast (unpaced) stress test, as before
    .venv/bin/python benchmarks/load.py --steps 10,20,40,80 --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import multiprocessing
import os
import queue
import random
import resource
import shlex
import shutil
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
from load_spectators import Spectators, SpectatorStats
from serving import basra_serve, bench_main
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

TARGET_MS = 100.0
TIMEOUT_S = 10.0
"""A guest that waits this long for an answer (to its play, its seed, the bot's move)
counts a timeout and opens a new match."""

FAST_OPTIONS = ("--seed-window", "0", "--summary-window", "0", "--bot-delay", "0", "--clock",
                "600", "--grace", "600")
"""The server's options in the fast (unpaced) mode; both modes add ``--no-limits``."""

DELTA: dict[str, str | None] = {
    "type": "played",     # the message type of a delta broadcast after a play
    "version": "version",
    "turn": "turn",       # whose turn it is now (None between rounds)
    "legal": "legal",     # the receiving seat's legal plays ([] unless its turn)
    "hand": "hand",       # the receiving seat's hand (not needed to play)
    "finished": None,     # a field that is true once the match is over; None: a delta
                          # never ends a match (a full state does)
}
"""basra-ws/2's delta after a play: its type and field names (a dotted name reaches into a
nested object). The one place to change when the protocol's final shape is known."""


# ---------------------------------------------------------------------------- messages

@dataclass(frozen=True, slots=True)
class Seen:
    """What a guest needs from one server message."""

    version: int
    turn: int | None
    """The seat to play now (None between rounds or once the match is over)."""
    mine: bool
    legal: list[dict[str, Any]]
    finished: bool
    seeding: int | None = None
    """The round waiting for this seat's part of its client seed (a full state only)."""


def _get(message: dict[str, Any], name: str | None) -> Any:
    if name is None:
        return None
    value: Any = message
    for key in name.split("."):
        value = value.get(key) if isinstance(value, dict) else None
    return value


def seen(message: dict[str, Any], me: int | None) -> Seen | None:
    """A ``state`` or a delta message as (version, whose turn, mine?, legal plays,
    finished?); None for any other message.

    >>> seen({"type": "played", "version": 8, "turn": 0, "legal": [{"card": "5H",
    ...       "take": []}], "hand": ["5H"]}, 0).mine
    True
    """
    kind = message.get("type")
    if kind == "state":
        table = message["table"]
        view = message["view"]
        finished = table["status"] in ("finished", "abandoned")
        turn = view.get("turn") if table["phase"] == "playing" and not finished else None
        seeding = None
        current = table["fairness"]["current"]
        if table["phase"] == "seeding" and current is not None and me is not None \
                and current.get("client_seed") is None \
                and table["players"][me].get("client_seed") is None:
            seeding = current["round"]
        return Seen(message["version"], turn, turn is not None and turn == me,
                    view.get("legal") or [], finished, seeding)
    if kind == DELTA["type"]:
        turn = _get(message, DELTA["turn"])
        return Seen(_get(message, DELTA["version"]), turn, turn is not None and turn == me,
                    _get(message, DELTA["legal"]) or [],
                    bool(_get(message, DELTA["finished"])))
    return None


def _version(message: dict[str, Any]) -> int | None:
    """The version a ``state`` or delta message shows (what a spectator measures by)."""
    s = seen(message, None)
    return s.version if s is not None else None


# ---------------------------------------------------------------------------- a guest

HTTP_AT_ONCE = 32
"""HTTP requests one generator process has in flight at once (httpx's pool slows down
with the length of its queue)."""


@dataclass
class ClientConfig:
    """What one load-generator process runs (sent to it whole)."""

    urls: list[str]
    indices: list[int]
    """The guests of this process: their global numbers (0 to total - 1)."""
    total: int
    ramp: float
    think: tuple[float, float]
    paced: bool
    bot: str
    seed: int
    deflate: bool = True
    timeout: float = TIMEOUT_S
    spectators: int = 0
    """Reading spectators per match (opened with it)."""
    slow_spectators: int = 0
    """Spectators per match that never read."""
    watch_every: int = 1
    """Only the matches of every this-many-th guest have spectators."""
    backstop: float = 600.0
    """Seconds from the start after which this process stops whatever happens."""


@dataclass
class ClientStats:
    """What one load-generator process measured (in the measured window only)."""

    play_ms: list[float] = field(default_factory=list)
    bot_s: list[float] = field(default_factory=list)
    opening_play_ms: list[float] = field(default_factory=list)
    """Plays sent before the window, while the matches were being opened (not measured,
    reported apart)."""
    errors: dict[str, int] = field(default_factory=dict)
    timeouts: int = 0
    matches_opened: int = 0
    matches_finished: int = 0
    cpu_s: float = 0.0
    guests: int = 0
    messages: dict[str, int] = field(default_factory=dict)
    """Messages received in the window, by type."""
    rounds_seeded: int = 0
    """Rounds whose seed window opened in the window (a round's start)."""
    open_at_start: int = 0
    """Guests whose first match had begun when the measured window began (counted as they
    open until then)."""
    unwatched_play_ms: list[float] = field(default_factory=list)
    """Of ``play_ms``, the plays at tables without spectators (with ``watch_every`` > 1)."""
    watch: SpectatorStats = field(default_factory=SpectatorStats)
    """What the matches' spectators measured (load_spectators.py)."""


class Window:
    """The measured window as one generator process knows it: unknown (infinite) until the
    parent, once every match is open, writes it into shared memory."""

    def __init__(self, shared: Any) -> None:
        self.shared = shared
        self.start = math.inf
        self.stop = math.inf

    def read(self) -> bool:
        start, stop = self.shared[0], self.shared[1]
        if start > 0 and stop > 0:
            self.start, self.stop = start, stop
            return True
        return False


class Guest:
    """One guest: its matches, one after another, until the step ends."""

    def __init__(self, index: int, cfg: ClientConfig, http: httpx.AsyncClient,
                 slots: asyncio.Semaphore, stats: ClientStats, window: Window,
                 t0: float) -> None:
        self.index = index
        self.cfg = cfg
        self.base = cfg.urls[index % len(cfg.urls)]
        self.http = http
        self.slots = slots
        self.stats = stats
        self.win = window
        self.rng = random.Random(cfg.seed * 1_000_003 + index)
        self.start_at = t0 + cfg.ramp * index / max(1, cfg.total)
        self.opened = False
        """Whether its first match has begun (or it gave up trying)."""
        self.watched = index % max(1, cfg.watch_every) == 0
        """Whether its matches have spectators."""

    def measured(self, at: float) -> bool:
        return self.win.start <= at < self.win.stop

    def error(self, code: str) -> None:
        if time.monotonic() >= self.win.start:
            self.stats.errors[code] = self.stats.errors.get(code, 0) + 1

    async def _post(self, path: str, body: dict[str, Any],
                    token: str | None = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else None
        async with self.slots:
            r = await self.http.post(f"{self.base}{path}", json=body, headers=headers)
        r.raise_for_status()
        return r.json()

    def open(self) -> None:
        if not self.opened:
            self.opened = True
            self.stats.open_at_start += 1  # counts until the window starts

    async def run(self) -> None:
        try:
            await self._run()
        finally:
            self.open()

    async def _run(self) -> None:
        await asyncio.sleep(max(0.0, self.start_at - time.monotonic()))
        token = None
        while token is None and time.monotonic() < self.win.stop:
            try:
                token = (await self._post("/api/guests",
                                          {"nickname": f"load{self.index}"}))["token"]
            except (httpx.HTTPError, ValueError, KeyError):
                self.error("http/guest")
                await asyncio.sleep(1.0)
        while time.monotonic() < self.win.stop:
            try:
                table_id = (await self._post("/api/tables/bot", {"bot_level": self.cfg.bot},
                                             token))["table"]["id"]
            except (httpx.HTTPError, ValueError, KeyError):
                self.error("http/table")
                await asyncio.sleep(1.0)
                continue
            if time.monotonic() >= self.win.start:
                self.stats.matches_opened += 1
            ws_url = self.base.replace("http://", "ws://", 1)
            watchers = Spectators(self.base, table_id,
                                  self.cfg.spectators if self.watched else 0,
                                  self.cfg.slow_spectators if self.watched else 0,
                                  self.stats.watch, self.measured,
                                  _version, deflate=self.cfg.deflate,
                                  timeout=self.cfg.timeout)
            watchers.start()  # as the match opens, alongside the guest
            try:
                async with connect(f"{ws_url}/ws/tables/{table_id}?auth=1",
                                   compression="deflate" if self.cfg.deflate else None,
                                   open_timeout=self.cfg.timeout, close_timeout=2,
                                   ping_interval=None) as ws:
                    await ws.send(orjson.dumps({"type": "hello", "token": token}).decode())
                    await self.match(ws, watchers)
            except (OSError, InvalidHandshake, TimeoutError):
                self.error("ws/connect")
                await asyncio.sleep(1.0)
            except ConnectionClosed:
                self.error("ws/closed")
            finally:
                await watchers.stop()

    async def match(self, ws: Any, watchers: Spectators) -> None:
        """Play one match until it ends, the step ends, or an answer takes too long (each
        play sent is told to ``watchers``, the match's spectators)."""
        cfg, stats = self.cfg, self.stats
        me: int | None = None
        sent_version = -1
        sent_at: float | None = None
        bot_version = -1
        bot_at: float | None = None
        parts: set[int] = set()
        sent_parts: set[int] = set()
        while True:
            try:
                async with asyncio.timeout(cfg.timeout):
                    raw = await ws.recv()
            except TimeoutError:
                if time.monotonic() >= self.win.start:
                    stats.timeouts += 1
                return
            now = time.monotonic()
            message = orjson.loads(raw)
            kind = message.get("type")
            if self.win.start <= now < self.win.stop:
                stats.messages[kind] = stats.messages.get(kind, 0) + 1
            watchers.told(message, now)
            if kind == "welcome":
                me = message.get("seat")
                continue
            if kind == "error":
                self.error(str(message.get("code")))
                if sent_at is not None and str(message.get("code", "")).startswith("play/"):
                    sent_at = None  # refused: nothing will show it
                    watchers.plays.refused()
                continue
            if kind == "closed":
                return
            s = seen(message, me)
            if s is None:
                continue
            self.open()
            if sent_at is not None and s.version > sent_version:
                if self.measured(sent_at):
                    stats.play_ms.append((now - sent_at) * 1000)
                    if not self.watched:
                        stats.unwatched_play_ms.append((now - sent_at) * 1000)
                elif sent_at < self.win.start:
                    stats.opening_play_ms.append((now - sent_at) * 1000)
                sent_at = None
            if bot_at is not None and s.version > bot_version:
                if self.measured(bot_at):
                    stats.bot_s.append(now - bot_at)
                bot_at = None
            if s.finished:
                if now >= self.win.start:
                    stats.matches_finished += 1
                return
            if s.seeding is not None and s.seeding not in parts:
                parts.add(s.seeding)
                if self.measured(now):
                    stats.rounds_seeded += 1
            if cfg.paced and s.seeding is not None and s.seeding not in sent_parts:
                sent_parts.add(s.seeding)  # as the browser does: a fresh part, at once
                await ws.send(orjson.dumps({
                    "type": "seed", "round": s.seeding,
                    "client_seed": f"load{self.index}.{self.rng.getrandbits(64):016x}"}
                    ).decode())
            if s.turn is not None and not s.mine and bot_at is None \
                    and s.version > bot_version:
                bot_version, bot_at = s.version, now
            if s.mine and s.legal and sent_at is None and s.version > sent_version:
                if now >= self.win.stop:
                    return
                lo, hi = cfg.think
                if hi > 0:
                    await asyncio.sleep(self.rng.uniform(lo, hi))
                play = self.rng.choice(s.legal)
                sent_version, sent_at = s.version, time.monotonic()
                watchers.plays.add(sent_version, sent_at)
                await ws.send(orjson.dumps({"type": "play", "version": s.version,
                                            "card": play["card"], "take": play["take"]}
                                           ).decode())
            if time.monotonic() >= self.win.stop and sent_at is None and bot_at is None:
                return


async def client_run(cfg: ClientConfig, t0: float, shared: Any, opened: Any) -> ClientStats:
    """Run this process's guests; tell the parent (``opened``) once every one of them has
    its first match, and measure over the window it then writes into ``shared``."""
    stats = ClientStats(guests=len(cfg.indices))
    window = Window(shared)
    cpu: dict[str, float] = {}
    limits = httpx.Limits(max_connections=HTTP_AT_ONCE + 8,
                          max_keepalive_connections=HTTP_AT_ONCE + 8)
    slots = asyncio.Semaphore(HTTP_AT_ONCE)
    async with httpx.AsyncClient(limits=limits, timeout=60) as http:
        guests = [Guest(i, cfg, http, slots, stats, window, t0) for i in cfg.indices]

        async def watch() -> None:
            told = False
            while not window.read():  # bounded: the backstop below ends it
                if not told and stats.open_at_start == len(guests):
                    opened.put(os.getpid())
                    told = True
                await asyncio.sleep(0.02)
            opened_then = stats.open_at_start
            await asyncio.sleep(max(0.0, window.start - time.monotonic()))
            cpu["from"] = time.process_time()
            await asyncio.sleep(max(0.0, window.stop - time.monotonic()))
            cpu["to"] = time.process_time()
            stats.open_at_start = opened_then

        watcher = asyncio.create_task(watch())
        # Bounded: every guest stops at the window's end (plus one answer's timeout); the
        # backstop ends the process even if the parent never writes the window.
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(t0 + cfg.backstop - time.monotonic()):
                await asyncio.gather(*(g.run() for g in guests))
                await watcher
        watcher.cancel()
    now = time.process_time()
    stats.cpu_s = cpu.get("to", now) - cpu.get("from", now)
    return stats


def client_main(cfg: ClientConfig, t0: Any, shared: Any, ready: Any, opened: Any,
                start: Any, out: Any) -> None:
    """One load-generator process (spawned): say ready, wait for the start, run, report."""
    raise_nofile()
    ready.put(os.getpid())
    if not start.wait(120):
        out.put(asdict(ClientStats()))
        return
    try:
        import uvloop  # noqa: PLC0415  (the generator's loop is as fast as the server's)
        runner = uvloop.run
    except ImportError:
        runner = asyncio.run
    stats = runner(client_run(cfg, t0.value, shared, opened))
    out.put(asdict(stats))


# ---------------------------------------------------------------------------- CPU

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> tuple[int, float] | None:
    """A process's parent and its CPU seconds (its own, and its reaped children's)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            fields = f.read().rpartition(")")[2].split()
    except OSError:
        return None
    ppid = int(fields[1])
    utime, stime, cutime, cstime = (int(x) for x in fields[11:15])
    return ppid, (utime + stime + cutime + cstime) / CLOCK_TICKS


def tree_cpu(roots: list[int]) -> tuple[float, int]:
    """CPU seconds of these processes and all their descendants, and how many there are."""
    stats: dict[int, tuple[int, float]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            s = _stat(int(entry))
            if s is not None:
                stats[int(entry)] = s
    children: dict[int, list[int]] = {}
    for pid, (ppid, _) in stats.items():
        children.setdefault(ppid, []).append(pid)
    seen_pids: set[int] = set()
    todo = [p for p in roots if p in stats]
    total = 0.0
    while todo:
        pid = todo.pop()
        if pid in seen_pids:
            continue
        seen_pids.add(pid)
        total += stats[pid][1]
        todo.extend(children.get(pid, []))
    return total, len(seen_pids)


def machine_busy() -> float:
    """CPU seconds the whole machine has been busy since boot (all cores, every process:
    /proc/stat, everything but idle and iowait)."""
    with open("/proc/stat", encoding="ascii") as f:
        values = [int(x) for x in f.readline().split()[1:]]
    idle = values[3] + (values[4] if len(values) > 4 else 0)
    guest = sum(values[8:10]) if len(values) > 9 else 0  # already counted in user and nice
    return (sum(values) - idle - guest) / CLOCK_TICKS


def raise_nofile() -> int:
    """Raise this process's open-file limit to its hard limit (children inherit it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        hard = max(soft, 1 << 20)
    if soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


# ---------------------------------------------------------------------------- servers

@dataclass(frozen=True)
class Target:
    base: str
    pid: int | None


def _schema_url(db: str, schema: str) -> tuple[str, str]:
    """The database URL with this schema, and a plain asyncpg DSN to drop it with."""
    from sqlalchemy.engine import make_url  # noqa: PLC0415

    url = make_url(db)
    query = {k: v for k, v in url.query.items() if k != "schema"}
    with_schema = url.set(query={**query, "schema": schema})
    plain = url.set(drivername="postgresql", query={})
    return (with_schema.render_as_string(hide_password=False),
            plain.render_as_string(hide_password=False))


async def _drop_schema(dsn: str, schema: str) -> None:
    import asyncpg  # noqa: PLC0415

    with contextlib.suppress(Exception):
        connection = await asyncpg.connect(dsn, timeout=10)
        try:
            await connection.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        finally:
            await connection.close()


@contextlib.contextmanager
def server_source(src: str | None) -> Any:
    """While a server starts: its ``basra`` from ``src`` (a source tree's ``src``
    directory, e.g. an export of an older commit), not the installed one."""
    if src is None:
        yield
        return
    before = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.path.abspath(src)
    try:
        yield
    finally:
        if before is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = before


@contextlib.asynccontextmanager
async def targets(args: argparse.Namespace, step_no: int) -> AsyncIterator[list[Target]]:
    """The servers of one step: those of ``--url``, or fresh ones started here."""
    if args.url:
        pids = args.server_pid or []
        yield [Target(u.rstrip("/"), pids[i] if i < len(pids) else None)
               for i, u in enumerate(args.url)]
        return
    options = ["--no-limits", *([] if args.paced else FAST_OPTIONS),
               *shlex.split(args.server_args or "")]
    if args.redis:  # cluster mode: this run's own keys
        options += ["--redis", args.redis, "--redis-prefix",
                    f"loadbench-{os.getpid()}-{step_no}:"]
    db = args.db
    drop: tuple[str, str] | None = None
    if db and db.startswith("postgresql"):
        schema = f"loadbench_{os.getpid()}_{step_no}"
        db, dsn = _schema_url(db, schema)
        drop = (dsn, schema)
    try:
        async with contextlib.AsyncExitStack() as stack:
            served = []
            for _ in range(args.nodes):
                with server_source(args.server_src):
                    served.append(await stack.enter_async_context(
                        basra_serve(*options, db=db)))
            yield [Target(s.base, s.process.pid) for s in served]
    finally:
        if drop is not None:
            await _drop_schema(*drop)


# ---------------------------------------------------------------------------- one step

def pct(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    return values[min(len(values) - 1, int(p * len(values)))]


async def _wait_until(at: float) -> None:
    await asyncio.sleep(max(0.0, at - time.monotonic()))


def _py_spy() -> str | None:
    local = Path(sys.executable).parent / "py-spy"
    return str(local) if local.exists() else shutil.which("py-spy")


async def step(args: argparse.Namespace, step_no: int, matches: int) -> dict[str, Any]:
    ramp = args.ramp if args.ramp is not None else (
        min(20.0, max(3.0, matches / 200)) if args.paced else 0.0)
    think = tuple(args.think) if args.paced else (0.0, 0.0)
    async with targets(args, step_no) as servers:
        clients = max(1, min(args.clients, matches))
        ctx = multiprocessing.get_context("spawn")
        t0 = ctx.Value("d", 0.0)
        window = ctx.Array("d", [0.0, 0.0], lock=False)  # [start, stop], 0: not yet
        ready, opened, out, start = ctx.Queue(), ctx.Queue(), ctx.Queue(), ctx.Event()
        backstop = ramp + args.open_wait + args.seconds + 3 * TIMEOUT_S + 60
        procs = []
        for k in range(clients):
            cfg = ClientConfig([t.base for t in servers], list(range(k, matches, clients)),
                               matches, ramp, think, args.paced, args.bot,
                               args.seed * 1000 + step_no, deflate=not args.no_deflate,
                               backstop=backstop, spectators=args.spectators,
                               slow_spectators=args.slow_spectators,
                               watch_every=args.watch_every)
            p = ctx.Process(target=client_main,
                            args=(cfg, t0, window, ready, opened, start, out),
                            name=f"load client {k}", daemon=True)
            p.start()
            procs.append(p)
        try:
            for _ in procs:
                await asyncio.to_thread(ready.get, True, 120)
            t0.value = time.monotonic() + 0.2
            start.set()
            # The window opens once every match is open (and not before the ramp's end).
            open_by = t0.value + ramp + args.open_wait
            all_open = True
            for _ in procs:
                try:
                    await asyncio.to_thread(opened.get, True,
                                            max(0.1, open_by - time.monotonic()))
                except queue.Empty:
                    all_open = False
                    break
            measure_from = max(time.monotonic() + 0.05, t0.value + ramp)
            stop_at = measure_from + args.seconds
            window[1] = stop_at
            window[0] = measure_from
            pids = [t.pid for t in servers if t.pid is not None]
            await _wait_until(measure_from)
            cpu_from, processes_from = tree_cpu(pids)
            own_from = time.process_time()
            busy_from = machine_busy()
            spies = await _start_profile(args, pids, processes_from > len(pids)) \
                if args.profile else []
            perf = await _start_perf(args, pids) if args.perf else None
            health = asyncio.create_task(_health(servers, stop_at - 1.0))
            await _wait_until(stop_at)
            cpu_to, processes = tree_cpu(pids)
            own_cpu = time.process_time() - own_from
            busy = machine_busy() - busy_from
            load_average = os.getloadavg()[0]
            results = [await asyncio.to_thread(out.get, True, 3 * TIMEOUT_S + 120)
                       for _ in procs]
            profile = await _finish_profile(args, spies, matches,
                                            (cpu_to - cpu_from) / args.seconds,
                                            pids) if spies else None
            if perf is not None:
                profile = [*(profile or []), await _finish_perf(args, perf, matches,
                                                                 len(pids))]
        finally:
            start.set()
            window[1] = window[1] or time.monotonic()
            window[0] = window[0] or time.monotonic()
            for p in procs:
                await asyncio.to_thread(p.join, 10)
                if p.is_alive():
                    p.kill()
    opening = sorted(x for r in results for x in r["opening_play_ms"])
    play_ms = sorted(x for r in results for x in r["play_ms"])
    bot_s = sorted(x for r in results for x in r["bot_s"])
    errors: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    for r in results:
        errors.update(r["errors"])
        kinds.update(r["messages"])
    watched = _spectators(args, [r["watch"] for r in results])
    if args.watch_every > 1:
        watched.update(_watched_apart(play_ms, [r["unwatched_play_ms"] for r in results]))
    seconds = args.seconds
    plays = len(play_ms) + len(bot_s)
    server_cpu = cpu_to - cpu_from
    client_cpu = [r["cpu_s"] / seconds for r in results]
    result: dict[str, Any] = {
        "matches": matches, "ramp_seconds": ramp,
        "opened_seconds": round(measure_from - t0.value, 1),
        "all_open_before_window": all_open,
        "open_at_window_start": sum(r["open_at_start"] for r in results),
        "opening_plays": len(opening), "opening_p50_ms": round(pct(opening, 0.5), 1),
        "opening_p99_ms": round(pct(opening, 0.99), 1),
        "measured_seconds": seconds,
        "guest_plays": len(play_ms), "bot_plays": len(bot_s),
        "guest_plays_per_second": round(len(play_ms) / seconds, 1),
        "plays_per_second": round(plays / seconds, 1),
        "p50_ms": round(pct(play_ms, 0.50), 1), "p95_ms": round(pct(play_ms, 0.95), 1),
        "p99_ms": round(pct(play_ms, 0.99), 1),
        "max_ms": round(play_ms[-1], 1) if play_ms else 0.0,
        "bot_p50_s": round(pct(bot_s, 0.50), 3), "bot_p95_s": round(pct(bot_s, 0.95), 3),
        "errors": dict(errors), "timeouts": sum(r["timeouts"] for r in results),
        "matches_opened": sum(r["matches_opened"] for r in results),
        "matches_finished": sum(r["matches_finished"] for r in results),
        "rounds_started": sum(r["rounds_seeded"] for r in results),
        "messages_by_type": dict(kinds.most_common()),
        "server_processes": processes if pids else None,
        "server_cores": round(server_cpu / seconds, 3) if pids else None,
        "server_cpu_ms_per_play": round(1000 * server_cpu / plays, 3) if pids and plays
        else None,
        "generator_clients": clients,
        "generator_cores": round(sum(client_cpu) + own_cpu / seconds, 3),
        "generator_max_client_core": round(max(client_cpu), 3),
        "machine_busy_cores": round(busy / seconds, 3),
        "load_average_1min": round(load_average, 2),
        "held_in_memory": await health,
        **watched,
    }
    result["under_target"] = bool(play_ms) and result["p99_ms"] < TARGET_MS and \
        result["timeouts"] == 0
    if profile is not None:
        result["profile"] = profile
    return result


def _watched_apart(play_ms: list[float], unwatched: list[list[float]]) -> dict[str, Any]:
    """``--watch-every``: the guests' play->shown at tables with spectators and at the
    others, in the same window (the same machine, the same moment)."""
    without = sorted(x for r in unwatched for x in r)
    with_ = sorted((Counter(play_ms) - Counter(without)).elements())
    out: dict[str, Any] = {}
    for name, values in (("watched", with_), ("unwatched", without)):
        out[f"{name}_guest_plays"] = len(values)
        for p in (50, 95, 99):
            out[f"{name}_p{p}_ms"] = round(pct(values, p / 100), 1)
        out[f"{name}_max_ms"] = round(values[-1], 1) if values else 0.0
    return out


def _spectators(args: argparse.Namespace, stats: list[dict[str, Any]]) -> dict[str, Any]:
    """The spectators' figures of a step (load_spectators.py), added to its report."""
    delay = sorted(x for w in stats for x in w["delay_ms"])
    gone = sorted(x for w in stats for x in w["slow_gone_s"])
    kinds: Counter[str] = Counter()
    closes: Counter[str] = Counter()
    counted: Counter[str] = Counter()
    slow_closes: Counter[str] = Counter()
    for w in stats:
        slow_closes.update(w["slow_closes"])
        kinds.update(w["messages"])
        closes.update(w["closed_by_server"])
        counted.update(w["counted"])

    def total(name: str) -> int:
        return sum(int(w[name]) for w in stats)

    slow_read = total("slow_closed") + total("slow_open")
    return {
        "spectators_per_match": args.spectators,
        "slow_spectators_per_match": args.slow_spectators,
        "watch_every": args.watch_every,
        "spectators_opened": total("opened"),
        "spectator_connect_errors": total("connect_errors"),
        "spectator_messages": sum(kinds.values()),
        "spectator_messages_by_type": dict(kinds.most_common()),
        "spectator_plays_seen": len(delay),
        "spectator_p50_ms": round(pct(delay, 0.50), 1),
        "spectator_p95_ms": round(pct(delay, 0.95), 1),
        "spectator_p99_ms": round(pct(delay, 0.99), 1),
        "spectator_max_ms": round(delay[-1], 1) if delay else 0.0,
        "spectators_closed_by_server": sum(closes.values()),
        "spectator_closes_by_code": dict(closes),
        "slow_spectators_opened": total("slow_opened"),
        "slow_spectator_errors": total("slow_errors"),
        "slow_spectators_closed_by_server": total("slow_closed"),
        "slow_spectator_closes": dict(slow_closes.most_common()),
        "slow_spectators_open_at_end": total("slow_open"),
        "slow_spectator_mean_kib": round(total("slow_bytes") / 1024 / slow_read, 1)
        if slow_read else 0.0,
        "slow_let_go_matches": len(gone),
        "slow_let_go_p50_s": round(pct(gone, 0.50), 1),
        "slow_let_go_max_s": round(gone[-1], 1) if gone else 0.0,
        "spectator_counts_told": dict(sorted(counted.items(), key=lambda kv: int(kv[0]))),
    }


async def _health(servers: list[Target], at: float) -> list[Any]:
    """What each server holds (``/health``) at ``at``, just before the step ends."""
    await _wait_until(at)
    out = []
    async with httpx.AsyncClient(timeout=10) as http:
        for t in servers:
            try:
                out.append((await http.get(f"{t.base}/health")).json().get("memory"))
            except (httpx.HTTPError, ValueError):
                out.append(None)
    return out


async def _start_profile(args: argparse.Namespace, pids: list[int],
                         children: bool) -> list[Any]:
    """py-spy on each server (and its children, when it has some: the bot workers) over
    the measured window."""
    spy = _py_spy()
    if spy is None or not pids:
        print("--profile: py-spy not found (pip install py-spy), or no server pid",
              file=sys.stderr)
        return []
    spies = []
    for pid in pids:
        fd, raw = tempfile.mkstemp(prefix=f"load-{pid}-", suffix=".collapsed")
        os.close(fd)
        process = await asyncio.create_subprocess_exec(
            spy, "record", "--pid", str(pid), "--duration", str(max(1, int(args.seconds))),
            "--rate", str(args.profile_rate), "--nonblocking", "--full-filenames",
            *spy_flags(args, children),
            "--format", "raw", "-o", raw,
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
        spies.append((pid, raw, process, spy_flags(args, children)))
    return spies


async def _start_perf(args: argparse.Namespace, pids: list[int]) -> tuple[Any, str] | None:
    """``perf record`` of the servers' processes (their threads; not the bot workers') over
    the measured window: where the time goes below Python (the interpreter, uvloop, zlib,
    SQLite, the kernel)."""
    perf = shutil.which("perf")
    if perf is None or not pids:
        print("--perf: perf not found, or no server pid", file=sys.stderr)
        return None
    fd, data = tempfile.mkstemp(prefix="load-", suffix=".perf")
    os.close(fd)
    process = await asyncio.create_subprocess_exec(
        perf, "record", "-F", "99", "-g", "-p", ",".join(map(str, pids)), "-o", data,
        "--", "sleep", str(args.seconds),
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
    return process, data


async def _perf_report(data: str, *sort: str) -> str:
    process = await asyncio.create_subprocess_exec(
        "perf", "report", "-i", data, "--no-children", "--stdio", "-g", "none",
        "--sort", ",".join(sort), stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL)
    out, _ = await process.communicate()
    return "\n".join(x for x in out.decode(errors="replace").splitlines()
                     if x.strip() and not x.startswith("#"))


async def _finish_perf(args: argparse.Namespace, perf: tuple[Any, str], matches: int,
                       nodes: int) -> str:
    process, data = perf
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(process.wait(), args.seconds + 60)
    if process.returncode is None:
        process.kill()
        await process.wait()
    by_dso = await _perf_report(data, "dso")
    by_symbol = "\n".join((await _perf_report(data, "dso", "sym")).splitlines()[:40])
    process = await asyncio.create_subprocess_exec(
        "perf", "report", "-i", data, "--no-children", "--stdio", "--sort", "sym",
        "--percent-limit", "3", "-g", "caller,1,callee,function,percent", "--max-stack", "14",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
    chains = "\n".join(x for x in (await process.communicate())[0].decode(
        errors="replace").splitlines() if x.strip() and not x.startswith("#"))
    os.unlink(data)
    path = Path(args.perf)
    if len(args.steps) > 1:
        path = path.with_name(f"{path.stem}-{matches}{path.suffix}")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        f"perf record -F 99 -g of {nodes} server process(es) over the measured "
        f"{args.seconds:g} s of a {'paced' if args.paced else 'fast'} step of {matches} "
        f"matches ({args.bot} bots, {db_label(args)})\n"
        f"command: {' '.join(shlex.quote(a) for a in sys.argv)}\n\n"
        f"by shared object (self time)\n{by_dso}\n\ntop 40 symbols (self time)\n"
        f"{by_symbol}\n\nthe call chains of the symbols over 3%\n"
        f"{chains[:12000]}\n", encoding="utf-8")
    return str(path)


def spy_flags(args: argparse.Namespace, children: bool) -> list[str]:
    return [*(["--subprocesses"] if children else []), *(["--gil"] if args.profile_gil else [])]


async def _finish_profile(args: argparse.Namespace, spies: list[Any], matches: int,
                          cores: float, pids: list[int]) -> list[str]:
    from profile_summary import parse, summarize  # noqa: PLC0415

    written = []
    env = f"(servers' basra from {args.server_src}) " if args.server_src else ""
    for n, (pid, raw, process, flags) in enumerate(spies):
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(process.wait(), 60)
        if process.returncode is None:
            process.kill()
            await process.wait()
        with open(raw, encoding="utf-8") as f:
            stacks = parse(f)
        path = Path(args.profile)
        if len(spies) > 1 or len(args.steps) > 1:
            path = path.with_name(f"{path.stem}-{matches}"
                                  f"{f'-node{n}' if len(spies) > 1 else ''}{path.suffix}")
        path.parent.mkdir(parents=True, exist_ok=True)
        head = (f"py-spy record --rate {args.profile_rate} --nonblocking {' '.join(flags)}, "
                f"server pid {pid}, over the measured {args.seconds:g} s of a "
                f"{'paced' if args.paced else 'fast'} step of {matches} matches "
                f"({args.bot} bots, {db_label(args)}); the servers' "
                f"CPU by /proc over the same window: {cores:.2f} cores "
                f"({len(pids)} server(s) and their children)\n"
                f"command: {env}{' '.join(shlex.quote(a) for a in sys.argv)}\n\n")
        path.write_text(head + summarize(stacks, args.seconds, args.profile_rate),
                        encoding="utf-8")
        if args.profile_raw:
            shutil.copy(raw, f"{args.profile_raw}.{pid}" if len(spies) > 1
                        else args.profile_raw)
        os.unlink(raw)
        written.append(str(path))
    return written


# ---------------------------------------------------------------------------- the run

def db_label(args: argparse.Namespace) -> str:
    if args.url:
        return "the servers' own store"
    return "PostgreSQL" if args.db else "SQLite"


def line(r: dict[str, Any]) -> str:
    errors = ", ".join(f"{k} {v}" for k, v in sorted(r["errors"].items())) or "0"
    cpu = (f"server {r['server_cores']} cores, {r['server_cpu_ms_per_play']} ms CPU a play"
           if r["server_cores"] is not None else "server CPU not read (no pid)")
    opened = (f"all open {r['opened_seconds']} s after the start" if
              r["all_open_before_window"] else
              f"NOT all open after {r['opened_seconds']} s: {r['open_at_window_start']}")
    if r["opening_plays"]:
        opened += (f"; while opening, {r['opening_plays']} plays p50 {r['opening_p50_ms']} "
                   f"p99 {r['opening_p99_ms']} ms, not measured")
    return (f"{r['matches']:>5} matches ({opened}): "
            f"{r['guest_plays_per_second']:>6} guest plays/s "
            f"({r['plays_per_second']} with the bots'); play->shown p50 {r['p50_ms']} "
            f"p95 {r['p95_ms']} p99 {r['p99_ms']} max {r['max_ms']} ms; bot answer p50 "
            f"{r['bot_p50_s']} p95 {r['bot_p95_s']} s; errors {errors}; timeouts "
            f"{r['timeouts']}; in the window {r['rounds_started']} rounds started, "
            f"{r['matches_finished']} matches ended; received "
            f"{', '.join(f'{v} {k}' for k, v in r['messages_by_type'].items()) or 'nothing'}"
            f"\n       {cpu}; generator "
            f"{r['generator_cores']} cores over "
            f"{r['generator_clients']} process(es), busiest {r['generator_max_client_core']}; "
            f"whole machine busy {r['machine_busy_cores']} of {os.cpu_count()} cores, load "
            f"average {r['load_average_1min']}{spectators_line(r)}")


def spectators_line(r: dict[str, Any]) -> str:
    """The spectators' part of a step's lines (nothing without spectators)."""
    out = ""
    if r["spectators_per_match"]:
        closes = ", ".join(f"{k} {v}" for k, v in sorted(
            r["spectator_closes_by_code"].items())) or "none"
        out += (f"\n       {r['spectators_per_match']} spectators a match "
                f"({r['spectators_opened']} sockets opened, "
                f"{r['spectator_connect_errors']} refused): {r['spectator_messages']} "
                f"messages received; guest play->seen by a spectator p50 "
                f"{r['spectator_p50_ms']} p95 {r['spectator_p95_ms']} p99 "
                f"{r['spectator_p99_ms']} max {r['spectator_max_ms']} ms "
                f"({r['spectator_plays_seen']} seen); closed by the server: {closes}")
    if r["slow_spectators_per_match"]:
        out += (f"\n       {r['slow_spectators_per_match']} slow spectators a match "
                f"(never read; {r['slow_spectators_opened']} opened, "
                f"{r['slow_spectator_errors']} refused): "
                f"{r['slow_spectators_closed_by_server']} closed by the server ("
                f"{', '.join(f'{k}: {v}' for k, v in r['slow_spectator_closes'].items())}"
                f"), "
                f"{r['slow_spectators_open_at_end']} still open when their match ended "
                f"(each had been sent {r['slow_spectator_mean_kib']} KiB on average); "
                f"in {r['slow_let_go_matches']} matches the server's count fell, p50 "
                f"{r['slow_let_go_p50_s']} max {r['slow_let_go_max_s']} s after the match "
                f"opened")
    if "watched_p99_ms" in r:
        out += (f"\n       every {r['watch_every']} matches one watched: guest play->shown "
                + "; ".join(f"{name} tables p50 {r[f'{name}_p50_ms']} p95 "
                            f"{r[f'{name}_p95_ms']} p99 {r[f'{name}_p99_ms']} max "
                            f"{r[f'{name}_max_ms']} ms ({r[f'{name}_guest_plays']} plays)"
                            for name in ("watched", "unwatched")))
    if r["spectator_counts_told"] and (r["spectators_per_match"]
                                       or r["slow_spectators_per_match"]):
        out += ("\n       spectators as the server counted them (guests' messages): " +
                ", ".join(f"{k}: {v}" for k, v in r["spectator_counts_told"].items()))
    return out


async def run(args: argparse.Namespace) -> dict[str, Any]:
    if args.matches is not None:
        args.steps = [args.matches]
    if args.nodes > 1 and not args.url and not args.db:
        raise SystemExit("--nodes needs a shared database (--db postgresql+asyncpg://...)")
    nofile = raise_nofile()
    # A server started here holds every socket of the step (a guest's and its match's
    # spectators'); a generator process its share, and its HTTP pool.
    sockets = max(args.steps) * (1 + args.spectators + args.slow_spectators)
    need = max(sockets // max(1, args.clients) + HTTP_AT_ONCE,
               0 if args.url else sockets // max(1, args.nodes)) + 100
    if nofile < need:
        print(f"warning: RLIMIT_NOFILE is {nofile}; about {need} may be needed",
              file=sys.stderr)
    if args.url and len(args.steps) > 1:
        print("warning: with --url, the tables of one step stay on the servers; their bots "
              "play them out after the grace period, during the next steps",
              file=sys.stderr)
    mode = "paced" if args.paced else "fast"
    if not args.json:
        ramp = "the start" if args.ramp == 0 or (args.ramp is None and not args.paced) \
            else "the ramp-up (not measured)"
        think = f"{args.think[0]:g} to {args.think[1]:g} s of thought before each guest " \
            "play, the server's default bot delay" if args.paced else \
            "guests play at once, --bot-delay 0"
        print(f"{mode} load, {args.bot} bots, {db_label(args)}"
              f"{f', {args.nodes} nodes' if args.nodes > 1 else ''}"
              f"{', ' + ' '.join(args.url) if args.url else ''}: {think}; "
              f"measured for {args.seconds:g} s from {ramp}; bot answer times include "
              f"the bot's least delay", flush=True)
    results = []
    for n, matches in enumerate(args.steps):
        result = await step(args, n, matches)
        results.append(result)
        if not args.json:
            print(line(result), flush=True)
            for path in result.get("profile", []):
                print(f"       profile summary: {path}", flush=True)
    held = [r["matches"] for r in results if r["under_target"]]
    return {"benchmark": "load", "mode": mode,
            "db": "postgresql" if args.db else ("external" if args.url else "sqlite"),
            "bot": args.bot, "nodes": len(args.url) if args.url else args.nodes,
            "think_seconds": list(args.think) if args.paced else [0, 0],
            "seconds_per_step": args.seconds, "cpus": os.cpu_count(),
            "load_average": os.getloadavg()[0], "steps": results,
            "max_matches_p99_under_100ms": max(held) if held else 0}


def options(parser: argparse.ArgumentParser) -> None:
    counts = lambda t: [int(x) for x in t.split(",")]  # noqa: E731
    parser.add_argument("--paced", action="store_true",
                        help="guests think before each play, the server keeps its delays")
    parser.add_argument("--steps", default="5,10,20,40,80", type=counts,
                        help="concurrent matches of each step (default 5,10,20,40,80)")
    parser.add_argument("--matches", type=int, default=None,
                        help="one step of this many concurrent matches")
    parser.add_argument("--seconds", type=float, default=20.0,
                        help="the measured window of each step (default 20)")
    parser.add_argument("--ramp", type=float, default=None,
                        help="seconds over which the matches are opened, not measured "
                             "(default: paced, matches/200 between 3 and 20; fast, 0)")
    parser.add_argument("--open-wait", type=float, default=60.0,
                        help="after the ramp, the longest wait for every match to be open "
                             "before the measured window starts anyway (default 60)")
    parser.add_argument("--think", default=(1.0, 3.0),
                        type=lambda t: tuple(float(x) for x in t.split(",")),
                        help="paced: a guest's thought before a play, MIN,MAX seconds")
    parser.add_argument("--bot", default="medium", help="the bots' level (default medium)")
    parser.add_argument("--db", default=None, help="a database URL (default: SQLite)")
    parser.add_argument("--nodes", type=int, default=1,
                        help="start this many servers on one --db (cluster mode)")
    parser.add_argument("--redis", default=None, metavar="URL",
                        help="cluster mode: every server started here joins this Redis "
                             "(with a key prefix of this step's own)")
    parser.add_argument("--server-args", default="",
                        help="more `basra serve` flags, e.g. '--bot-workers 2'")
    parser.add_argument("--server-src", default=None, metavar="DIR",
                        help="start the servers with basra from DIR (a source tree's src, "
                             "e.g. `git archive HEAD src | tar -x -C /tmp/before`)")
    parser.add_argument("--url", nargs="+", default=None,
                        help="servers already running (base URLs); guests round-robin")
    parser.add_argument("--server-pid", type=int, nargs="+", default=None,
                        help="with --url: their process ids, to read their CPU")
    parser.add_argument("--clients", type=int, default=1,
                        help="load-generator processes the guests are split over")
    parser.add_argument("--spectators", type=int, default=0, metavar="K",
                        help="K spectators per match that read every message, opened "
                             "with it (default 0)")
    parser.add_argument("--slow-spectators", type=int, default=0, metavar="K",
                        help="K spectators per match that never read a byte (default 0)")
    parser.add_argument("--watch-every", type=int, default=1, metavar="N",
                        help="only every N-th guest's matches have the spectators; the "
                             "report then gives the guests' delay at watched and unwatched "
                             "tables apart (default 1: every match)")
    parser.add_argument("--no-deflate", action="store_true",
                        help="no permessage-deflate (browsers ask for it; default: asked)")
    parser.add_argument("--profile", default=None, metavar="FILE",
                        help="py-spy the servers over each measured window; a summary here")
    parser.add_argument("--profile-raw", default=None, metavar="FILE",
                        help="with --profile: keep py-spy's raw collapsed stacks here too")
    parser.add_argument("--profile-rate", type=int, default=100)
    parser.add_argument("--perf", default=None, metavar="FILE",
                        help="perf record the servers over each measured window; its "
                             "report by shared object and symbol here")
    parser.add_argument("--profile-gil", action="store_true",
                        help="with --profile: sample only the thread holding the GIL "
                             "(Python's CPU; no thread waiting in C, e.g. in SQLite's fsync)")
    parser.add_argument("--seed", type=int, default=1)


def report(result: dict[str, Any]) -> None:
    print(f"most concurrent matches with p99 under {TARGET_MS:.0f} ms (and no timeout): "
          f"{result['max_matches_p99_under_100ms']}")


if __name__ == "__main__":
    bench_main(__doc__, options, run, report)
