"""A tournament under load: N players in one arena (or Swiss), each a websocket client that
keeps the event's page open, plays every table it is paired to as people do (thinking
``--think`` seconds before each play), and W more pages that only watch.

It starts ``basra serve`` (SQLite in a temporary folder, or ``--db``), makes an account and
the event (starting once every player has joined), and reports:

- the seated players' time from sending a play to the ``played`` message that shows it
  (p50, p95, p99, max), over the whole event and over its first 20 s apart (the start is a
  wave: every player free at once, N/2 tables opened in one go);
- the standings' delay: from a player seeing its match end to the first page of the
  standings that counts it reaching a watching page (the watchers are spread over the
  pages, 20 rows each: watcher ``w`` opens page ``w % pages + 1`` in the event's first
  seconds; ``--sampled`` of them,
  all by default, record what they receive and when; the others read and drop, as a
  browser would), p50, p99 and max; and to the player's own row (``mine``) on its page;
- the director's CPU per pairing (the server's own log line for each wave or round), and
  the server's CPU over the event.

Everything runs on this machine: the server, its database, and ``--clients`` generator
processes. Traffic stays on 127.0.0.1; every loop is bounded by the event's end.

    .venv/bin/python benchmarks/tournament_load.py --players 200 --watchers 50 --minutes 3
    .venv/bin/python benchmarks/tournament_load.py --players 2000 --watchers 500 --minutes 5 \\
        --clients 2 --db postgresql+asyncpg://root@127.0.0.1:5432/test
    .venv/bin/python benchmarks/tournament_load.py --players 1000 --format swiss --rounds 2
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import multiprocessing
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

sys.path.insert(0, str(Path(__file__).parent))
from load import raise_nofile, seen, tree_cpu

SIGN_UPS_AT_ONCE = 16
"""A generator process's players signing up (a guest, then a join) at once."""
WAVE_LINE = re.compile(r"(wave|round) (\d+) paired, (\d+) tables, ([\d.]+) ms of CPU")


@dataclass
class Stats:
    """What one generator process saw."""

    play: list[tuple[float, float]] = field(default_factory=list)
    """(wall time sent, ms to the message that showed it)."""
    ends: list[tuple[str, int, float]] = field(default_factory=list)
    """(player, its games so far, wall time it saw its match end)."""
    deltas: list[tuple[float, dict[str, int]]] = field(default_factory=list)
    """A sampled watcher's pages of the standings: (wall time received, entrant -> games)."""
    mine: list[tuple[str, int, float]] = field(default_factory=list)
    """A player's own row as its page heard it: (player, its games, wall time received)."""
    received: dict[str, int] = field(default_factory=dict)
    """Bytes the pages (players' and watchers') received, by the messages' type."""

    def got(self, raw: str | bytes, message: dict[str, Any]) -> None:
        kind = str(message.get("type"))
        self.received[kind] = self.received.get(kind, 0) + len(raw)
    tables: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    lags: list[tuple[float, float]] = field(default_factory=list)
    """This process's own event-loop lag, sampled every 50 ms: (wall time, seconds late). A
    state heard late because the generator was busy is its delay, not the server's."""


async def sample_lag(stats: Stats, stop_at: float) -> None:
    """Sample this process's loop lag; and freeze what it holds every second
    (``gc.freeze``), as ``basra serve`` does: a full garbage pass over a thousand pages'
    sockets and the standings they parsed stopped a generator for up to a third of a
    second, and every state it heard meanwhile looked that much late."""
    sampled = 0
    while time.time() < stop_at:
        before = time.perf_counter()
        await asyncio.sleep(0.05)
        stats.lags.append((time.time(), time.perf_counter() - before - 0.05))
        sampled += 1
        if sampled % 20 == 0:
            gc.freeze()


def pct(values: list[float], p: float) -> float:
    """The ``p``-th percentile (0 to 100) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] if ordered else 0.0


def _over(message: dict[str, Any]) -> bool:
    """Whether a page's message says the event ended."""
    event = message.get("event")
    return isinstance(event, dict) and event.get("status") in ("finished", "cancelled")


async def _hello(ws: Any, token: str) -> None:
    await ws.send(orjson.dumps({"type": "hello", "token": token}).decode())


async def play_table(base: str, token: str, table: str, stats: Stats, rng: random.Random,
                     think: tuple[float, float], stop_at: float) -> bool:
    """Play a table out as a person does; whether the match ended."""
    me: int | None = None
    sent_version, sent_at = -1, None
    parts: set[int] = set()
    async with connect(f"{base}/ws/tables/{table}?auth=1", ping_interval=None,
                       open_timeout=30) as ws:
        await _hello(ws, token)
        while time.time() < stop_at:
            try:
                raw = await asyncio.wait_for(ws.recv(), 60)
            except TimeoutError:
                stats.errors["timeout"] = stats.errors.get("timeout", 0) + 1
                return False
            message = orjson.loads(raw)
            kind = message.get("type")
            if kind == "welcome":
                me = message.get("seat")
                continue
            if kind == "closed":
                return True
            s = seen(message, me)
            if s is None:
                continue
            if sent_at is not None and s.version > sent_version:
                stats.play.append((sent_at, (time.time() - sent_at) * 1000))
                sent_at = None
            if s.finished:
                return True
            if s.seeding is not None and s.seeding not in parts:
                parts.add(s.seeding)
                await ws.send(orjson.dumps({"type": "seed", "round": s.seeding,
                                            "client_seed": f"t{rng.getrandbits(48):x}"})
                              .decode())
            if s.mine and s.legal and sent_at is None and s.version > sent_version:
                await asyncio.sleep(rng.uniform(*think))
                play = rng.choice(s.legal)
                sent_version, sent_at = s.version, time.time()
                await ws.send(orjson.dumps({"type": "play", "version": s.version,
                                            "card": play["card"], "take": play["take"]})
                              .decode())
    return False


async def player(base: str, http: httpx.AsyncClient, tournament: str, index: int,
                 stats: Stats, think: tuple[float, float], stop_at: float,
                 joined: asyncio.Event, gate: asyncio.Semaphore) -> None:
    ws_base = base.replace("http://", "ws://")
    rng = random.Random(index)
    # A few sign-ups at a time: a thousand requests waiting on httpx's pool at once cost
    # this process more CPU than the server spends answering them.
    async with gate:
        r = await http.post(f"{base}/api/guests", json={"nickname": f"Entrant {index}"})
        token, me = r.json()["token"], r.json()["player"]["id"]
        headers = {"Authorization": f"Bearer {token}"}
        r = await http.post(f"{base}/api/tournaments/{tournament}/join", headers=headers,
                            json={})
        r.raise_for_status()
    joined.set()
    tables: asyncio.Queue[str] = asyncio.Queue()
    games = 0
    async with connect(f"{ws_base}/ws/tournaments/{tournament}?auth=1", ping_interval=None,
                       max_size=None, open_timeout=60) as page:
        await _hello(page, token)

        over = asyncio.Event()

        async def read_page() -> None:
            async for raw in page:
                message = orjson.loads(raw)
                stats.got(raw, message)
                if message.get("type") == "paired":
                    await tables.put(message["table"])
                elif message.get("type") == "mine":
                    stats.mine.append((me, message["row"]["games"], time.time()))
                elif _over(message):
                    over.set()

        reader = asyncio.create_task(read_page())
        try:
            while time.time() < stop_at and not (over.is_set() and tables.empty()):
                try:
                    table = await asyncio.wait_for(tables.get(), 1.0)
                except TimeoutError:
                    continue
                try:
                    ended = await play_table(ws_base, token, table, stats, rng, think,
                                             stop_at)
                except (OSError, InvalidHandshake, ConnectionClosed) as exc:
                    name = type(exc).__name__
                    stats.errors[name] = stats.errors.get(name, 0) + 1
                    continue
                stats.tables += 1
                if ended:
                    games += 1
                    stats.ends.append((me, games, time.time()))
        finally:
            reader.cancel()


async def watcher(base: str, tournament: str, page_number: int, stats: Stats,
                  sampled: bool, opens_at: float, stop_at: float) -> None:
    """A page that watches page ``page_number`` of the standings from ``opens_at`` (once the
    event started: before, the page may not be there yet, and a page asked for past the
    last is the last)."""
    await asyncio.sleep(max(0.0, opens_at - time.time()))
    ws_base = base.replace("http://", "ws://")
    async with connect(f"{ws_base}/ws/tournaments/{tournament}?page={page_number}",
                       ping_interval=None, max_size=None, open_timeout=60) as page:
        while time.time() < stop_at:
            try:
                raw = await asyncio.wait_for(page.recv(), 1.0)
            except TimeoutError:
                continue
            message = orjson.loads(raw)
            stats.got(raw, message)
            if _over(message):
                return
            if not sampled:
                continue
            if message.get("type") == "standings":
                stats.deltas.append((time.time(), {row["entrant"]: row["games"]
                                                   for row in message["rows"]}))


async def client_run(base: str, tournament: str, players: range, watchers: range,
                     sampled: int, pages: int, think: tuple[float, float],
                     start: float, stop_at: float) -> Stats:
    stats = Stats()
    limits = httpx.Limits(max_connections=64)
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        flags = [asyncio.Event() for _ in players]
        gate = asyncio.Semaphore(SIGN_UPS_AT_ONCE)
        tasks = [asyncio.create_task(player(base, http, tournament, i, stats, think, stop_at,
                                            flag, gate)) for i, flag in zip(players, flags,
                                                                            strict=True)]
        lag = asyncio.create_task(sample_lag(stats, stop_at))
        tasks += [asyncio.create_task(watcher(base, tournament, w % pages + 1, stats,
                                              w - watchers.start < sampled,
                                              start + 1 + w % 50 * 0.1, stop_at))
                  for w in watchers]
        done = await asyncio.gather(*tasks, return_exceptions=True)
        lag.cancel()
        for result in done:
            if isinstance(result, BaseException):
                name = type(result).__name__
                stats.errors[name] = stats.errors.get(name, 0) + 1
    return stats


def client_main(args: tuple[Any, ...], out: Any) -> None:
    raise_nofile()
    out.put(asyncio.run(client_run(*args)))


def start_server(db: str | None, folder: Path, port: int, last_pairing: float
                 ) -> subprocess.Popen[bytes]:
    extra = ["--db", db] if db else []
    log = (folder / "server.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "basra", "serve", "--port", str(port), "--data-dir",
         str(folder), "--no-limits", "--tournament-schedule", "none",
         "--tournament-last-pairing", str(last_pairing), *extra],
        stdout=subprocess.DEVNULL, stderr=log)
    for _ in range(600):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/ready", timeout=2).json().get("ready"):
                return proc
        except (httpx.HTTPError, ValueError):
            pass
        time.sleep(0.1)
    raise RuntimeError("the server did not start")


def make_event(base: str, args: argparse.Namespace, starts_in: float) -> str:
    with httpx.Client(timeout=30) as http:
        r = http.post(f"{base}/api/guests", json={"nickname": "Organiser"})
        token = r.json()["token"]
        headers = {"Authorization": f"Bearer {token}"}
        http.post(f"{base}/api/account", headers=headers,
                  json={"username": "organiser", "password": "a long enough password"})
        r = http.post(f"{base}/api/sessions", json={"username": "organiser",
                                                    "password": "a long enough password"})
        headers = {"Authorization": f"Bearer {r.json()['token']}"}
        starts = datetime.now(UTC) + timedelta(seconds=starts_in)
        body: dict[str, Any] = {"name": "Load Cup", "format": args.format, "rated": False,
                                "starts_at": starts.isoformat()}
        body.update({"minutes": args.minutes} if args.format == "arena"
                    else {"rounds": args.rounds})
        r = http.post(f"{base}/api/tournaments", headers=headers, json=body)
        r.raise_for_status()
        event_id: str = r.json()["tournament"]["id"]
        return event_id


def report(stats: list[Stats], start: float, waves: list[tuple[int, int, float]],
           cpu: float, seconds: float) -> None:
    plays = [(at, ms) for s in stats for at, ms in s.play]
    all_ms = [ms for _, ms in plays]
    wave_ms = [ms for at, ms in plays if start <= at < start + 20]
    print(f"plays: {len(all_ms)}; tables played: {sum(s.tables for s in stats)}; "
          f"errors: {_merge(stats)}")
    for name, values in (("play to state, whole event", all_ms),
                         ("play to state, its first 20 s", wave_ms)):
        if values:
            print(f"{name}: p50 {pct(values, 50):.1f} ms, p95 {pct(values, 95):.1f} ms, "
                  f"p99 {pct(values, 99):.1f} ms, max {max(values):.1f} ms ({len(values)})")
    ends = [e for s in stats for e in s.ends]
    heard: dict[str, list[tuple[float, int]]] = {}
    for s in stats:
        for got_at, rows in s.deltas:
            for who, games in rows.items():
                heard.setdefault(who, []).append((got_at, games))
    own: dict[str, list[tuple[float, int]]] = {}
    for s in stats:
        for who, games, got_at in s.mine:
            own.setdefault(who, []).append((got_at, games))
    for name, seen_by in (("standings to a watcher", heard), ("own row to the player", own)):
        delays = []
        for who, games, at in ends:
            for got_at, counted in sorted(seen_by.get(who, ())):
                if counted >= games and got_at >= at - 5:
                    delays.append(max(0.0, got_at - at) * 1000)
                    break
        if delays:
            print(f"{name} after a match end: p50 {pct(delays, 50):.0f} ms, "
                  f"p99 {pct(delays, 99):.0f} ms, max {max(delays):.0f} ms "
                  f"({len(delays)} of {len(ends)})")
    kinds: dict[str, int] = {}
    for s in stats:
        for kind, size in s.received.items():
            kinds[kind] = kinds.get(kind, 0) + size
    print(f"the pages received {sum(kinds.values()) / 1e6:.1f} MB: " + ", ".join(
        f"{kind} {size / 1e6:.1f}" for kind, size in sorted(kinds.items(), key=lambda x: -x[1])))
    if waves:
        cpus = [w[2] for w in waves]
        print(f"pairings: {len(waves)}, tables {sum(w[1] for w in waves)}, the largest "
              f"{max(w[1] for w in waves)}; director CPU p50 {pct(cpus, 50):.1f} ms, "
              f"max {max(cpus):.1f} ms")
    print(f"server CPU: {cpu / seconds:.2f} cores over {seconds:.0f} s")
    lags = [lag * 1000 for s in stats for _, lag in s.lags]
    if lags:
        print(f"the generators' own loop lag (sampled every 50 ms): p99 {pct(lags, 99):.0f} ms, "
              f"max {max(lags):.0f} ms, {sum(lag > 100 for lag in lags)} samples over 100 ms")


def _merge(stats: list[Stats]) -> dict[str, int]:
    out: dict[str, int] = {}
    for s in stats:
        for key, value in s.errors.items():
            out[key] = out.get(key, 0) + value
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--watchers", type=int, default=50)
    parser.add_argument("--sampled", type=int, default=None,
                        help="watchers that record what they receive (default all)")
    parser.add_argument("--format", choices=["arena", "swiss"], default="arena")
    parser.add_argument("--minutes", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--clients", type=int, default=2)
    parser.add_argument("--think", default="1,3")
    parser.add_argument("--db", default=None)
    parser.add_argument("--join-seconds", type=float, default=None,
                        help="when the event starts, after it is made (default: 10 s + "
                             "a second per 100 players)")
    parser.add_argument("--server-log", type=Path, default=None,
                        help="keep the server's log here")
    parser.add_argument("--samples", type=Path, default=None,
                        help="write every play's (time sent, ms to its state) here, as JSON")
    args = parser.parse_args()
    think = tuple(float(x) for x in args.think.split(","))
    raise_nofile()
    port = 18_000 + os.getpid() % 1000
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        server = start_server(args.db, Path(folder), port, 30.0)
        try:
            starts_in = args.join_seconds or 10 + args.players / 100
            tournament = make_event(base, args, starts_in)
            start = time.time() + starts_in
            length = (args.minutes * 60 if args.format == "arena" else args.rounds * 400)
            stop_at = start + length + 30
            per = -(-args.players // args.clients)
            pages = max(1, -(-args.players // 20))
            watching = -(-args.watchers // args.clients)
            sampled = args.watchers if args.sampled is None else args.sampled
            queue: Any = multiprocessing.get_context("spawn").Queue()
            procs = []
            for k in range(args.clients):
                players = range(k * per, min(args.players, (k + 1) * per))
                watchers = range(k * watching, min(args.watchers, (k + 1) * watching))
                proc = multiprocessing.get_context("spawn").Process(
                    target=client_main,
                    args=((base, tournament, players, watchers, -(-sampled // args.clients),
                           pages, think, start, stop_at), queue))
                proc.start()
                procs.append(proc)
            time.sleep(max(0.0, start - time.time()))
            cpu0, _ = tree_cpu([server.pid])
            made0, _ = tree_cpu([p.pid for p in procs if p.pid is not None])
            t0 = time.time()
            while time.time() < stop_at:
                state = httpx.get(f"{base}/api/tournaments/{tournament}", timeout=30).json()
                if state["event"]["status"] == "finished":
                    break
                time.sleep(2)
            cpu1, _ = tree_cpu([server.pid])
            made1, _ = tree_cpu([p.pid for p in procs if p.pid is not None])
            elapsed = time.time() - t0
            stats = [queue.get(timeout=120) for _ in procs]
            for proc in procs:
                proc.join(30)
        finally:
            server.terminate()
            server.wait(30)
        log = (Path(folder) / "server.log").read_text()
        if args.server_log is not None:
            args.server_log.write_text(log)
    waves = [(int(m.group(2)), int(m.group(3)), float(m.group(4)))
             for m in WAVE_LINE.finditer(log)]
    print(f"{args.format}: {args.players} players, {args.watchers} watching "
          f"({sampled} sampled), {args.db or 'SQLite'}")
    report(stats, start, waves, cpu1 - cpu0, elapsed)
    print(f"the generators' CPU: {(made1 - made0) / elapsed:.2f} cores "
          f"({args.clients} processes; the machine has {os.cpu_count()})")
    if args.samples is not None:
        args.samples.write_bytes(orjson.dumps(sorted(at_ms for s in stats for at_ms in s.play)))
        args.samples.with_suffix(".lags.json").write_bytes(
            orjson.dumps(sorted(lag for s in stats for lag in s.lags)))


if __name__ == "__main__":
    main()
