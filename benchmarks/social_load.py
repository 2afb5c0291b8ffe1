"""Presence and challenges under load (issue 28's goal): ``--accounts`` accounts (10,000)
following ``--follows`` others each (50), every one with a signed-in page open (its
``/ws/me`` socket), each going offline and coming back every few minutes; meanwhile
``--challenges`` a second, a random online account challenges another. It reports what the
presence fan-out costs the server (its CPU while the pages come and go, less its CPU with
the same pages open and still) and the time from a challenge's ``POST`` to the challenged's
page receiving it (p50, p95, p99, max).

The accounts, their sessions and follows are written straight into a fresh database before
the server starts (SQLite in a temporary folder, or ``--db`` PostgreSQL, the schema dropped
afterwards is the caller's); ``--nodes 2 --redis URL`` runs two ``basra serve`` nodes as one
site (the pages spread over both, a challenge made on one node for a page on the other half
of the time). The pages are held by ``--clients`` processes (2), each with its share of the
accounts.

Two windows, each ``--seconds`` long, after every page is open: *still* (nobody comes or
goes) and *churn* (each account leaves after ``--online`` seconds on average, random, and
comes back ``--offline`` seconds later). The fan-out's cost is the churn window's server CPU
less the still one's, as a share of one core. Traffic stays on 127.0.0.1, every loop ends.

    .venv/bin/python benchmarks/social_load.py --accounts 10000 --follows 50 --seconds 60
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import multiprocessing
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import insert
from sqlalchemy.exc import IntegrityError
from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import raise_nofile, tree_cpu

from basra.server.identity.guests import token_hash
from basra.store import open_store
from basra.store.schema import follows, players, sessions
from basra.store.sql import SqlStore

CHUNK = 5000


def token(i: int) -> str:
    return f"load-token-{i:06d}"


async def seed(url: str, accounts: int, follows_each: int, seed_value: int) -> None:
    """The accounts, a session each, and each one's follows, written at once."""
    store = open_store(url)
    await store.open()
    assert isinstance(store, SqlStore)
    now = datetime.now(UTC)
    rng = random.Random(seed_value)
    try:
        async with store.engine.begin() as db:
            rows = [{"id": f"p{i}", "nickname": f"Player {i}", "token_hash": f"first-{i}",
                     "created_at": now, "username": f"player{i}",
                     "username_key": f"player{i}"} for i in range(accounts)]
            for start in range(0, accounts, CHUNK):
                await db.execute(insert(players), rows[start:start + CHUNK])
            rows = [{"id": f"s{i}", "player_id": f"p{i}", "token_hash": token_hash(token(i)),
                     "kind": "password", "created_at": now, "proved_at": now}
                    for i in range(accounts)]
            for start in range(0, accounts, CHUNK):
                await db.execute(insert(sessions), rows[start:start + CHUNK])
            edges = []
            for i in range(accounts):
                for j in rng.sample(range(accounts - 1), min(follows_each, accounts - 1)):
                    edges.append({"follower_id": f"p{i}", "followee_id": f"p{j + (j >= i)}",
                                  "created_at": now})
            for start in range(0, len(edges), CHUNK):
                await db.execute(insert(follows), edges[start:start + CHUNK])
    except IntegrityError:
        raise SystemExit("social_load: the database holds this benchmark's accounts already "
                         "(an earlier run's): give a fresh schema= in --db, or drop it") from None
    finally:
        await store.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_node(db: str, folder: Path, redis: str | None,
               prefix: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    extra = ["--redis", redis, "--redis-prefix", prefix] if redis else []
    log = (folder / f"node-{port}.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "basra", "serve", "--port", str(port), "--data-dir",
         str(folder), "--db", db, "--no-limits", "--tournament-schedule", "none", *extra],
        stdout=subprocess.DEVNULL, stderr=log)
    base = f"http://127.0.0.1:{port}"
    for _ in range(900):
        try:
            if httpx.get(f"{base}/ready", timeout=2).json().get("ready"):
                return proc, base
        except (httpx.HTTPError, ValueError):
            pass
        time.sleep(0.1)
    raise RuntimeError("the server did not start")


# ---------------------------------------------------------------------------- the pages

class Pages:
    """One client process's pages: its accounts' sockets, their comings and goings, and the
    challenges it makes between its own accounts."""

    def __init__(self, mine: list[int], bases: list[str], args: argparse.Namespace,
                 worker: int) -> None:
        self.mine = mine
        self.bases = bases
        self.args = args
        self.rng = random.Random(args.seed * 100 + worker)
        self.open: dict[int, ClientConnection] = {}
        self.presence = 0
        self.sent: dict[str, float] = {}
        self.latencies: list[float] = []
        self.errors: dict[str, int] = {}
        self.phase = "opening"
        self.tasks: list[asyncio.Task[None]] = []
        self.lags: list[float] = []
        """This process's own event-loop lag, sampled every 50 ms: a challenge heard late
        because the generator was busy (its sockets, its garbage collection) is its delay,
        not the server's."""

    async def sample_lag(self) -> None:
        while self.phase != "done":
            before = time.perf_counter()
            await asyncio.sleep(0.05)
            self.lags.append(time.perf_counter() - before - 0.05)

    def base(self, i: int) -> str:
        return self.bases[i % len(self.bases)]

    async def page(self, i: int) -> None:
        """Account ``i``'s page: open, read everything, until told to go."""
        ws = self.base(i).replace("http://", "ws://") + "/ws/me"
        try:
            async with connect(ws, open_timeout=60, max_size=None) as socket_:
                await socket_.send(json.dumps({"type": "hello", "token": token(i)}))
                self.open[i] = socket_
                async for raw in socket_:
                    message = json.loads(raw)
                    kind = message.get("type")
                    if kind == "presence":
                        self.presence += 1
                    elif kind == "notification":
                        made = message["notification"]["body"].get("challenge", {})
                        key = f"{made.get('from', {}).get('username')}>{i}"
                        sent = self.sent.pop(key, None)
                        if sent is not None:
                            self.latencies.append(time.perf_counter() - sent)
        except Exception as exc:
            name = type(exc).__name__
            self.errors[name] = self.errors.get(name, 0) + 1
        finally:
            self.open.pop(i, None)

    async def life(self, i: int, start_at: float) -> None:
        """Open at ``start_at``; once churning, leave now and then and come back."""
        await asyncio.sleep(max(0.0, start_at - time.monotonic()))
        while self.phase != "done":
            task = asyncio.create_task(self.page(i))
            while self.phase in ("opening", "still"):
                await asyncio.sleep(1.0)
            if self.phase == "done":
                task.cancel()
                break
            await asyncio.sleep(self.rng.expovariate(1 / self.args.online))
            socket_ = self.open.get(i)
            if socket_ is not None:
                await socket_.close()
            with contextlib.suppress(BaseException):
                await task
            await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.args.offline)

    async def challenges(self, http: httpx.AsyncClient) -> None:
        per_process = self.args.challenges / self.args.clients
        while self.phase != "done":
            await asyncio.sleep(self.rng.expovariate(per_process))
            online = list(self.open)
            if len(online) < 2:
                continue
            a, b = self.rng.sample(online, 2)
            task = asyncio.create_task(self.challenge(http, a, b))
            self.tasks.append(task)
            task.add_done_callback(self.tasks.remove)

    async def challenge(self, http: httpx.AsyncClient, a: int, b: int) -> None:
        """``a`` challenges ``b`` (on any node), and takes it back a little later."""
        headers = {"Authorization": f"Bearer {token(a)}"}
        key = f"player{a}>{b}"
        self.sent[key] = time.perf_counter()  # before: the page may hear it first
        try:
            r = await http.post(f"{self.base(self.rng.randrange(len(self.bases)))}"
                                "/api/challenges", headers=headers, json={"to": f"player{b}"})
            if r.status_code != 201:
                self.sent.pop(key, None)
                code = r.json().get("error", {}).get("code", str(r.status_code))
                self.errors[code] = self.errors.get(code, 0) + 1
                return
            made = r.json()["challenge"]["id"]
            await asyncio.sleep(2.0)
            self.sent.pop(key, None)
            await http.delete(f"{self.base(a)}/api/challenges/{made}", headers=headers)
        except httpx.HTTPError as exc:
            self.errors[type(exc).__name__] = self.errors.get(type(exc).__name__, 0) + 1

    async def run(self, control: Any, report: Any) -> None:
        ramp = self.args.ramp
        now = time.monotonic()
        lives = [asyncio.create_task(self.life(i, now + ramp * k / max(1, len(self.mine))))
                 for k, i in enumerate(self.mine)]
        lag = asyncio.create_task(self.sample_lag())
        async with httpx.AsyncClient(timeout=30, limits=httpx.Limits(max_connections=50)) as http:
            challenger: asyncio.Task[None] | None = None
            loop = asyncio.get_running_loop()
            while True:
                order = await loop.run_in_executor(None, control.get)
                if order == "count":
                    report.put({"open": len(self.open), "presence": self.presence})
                elif order == "still":
                    # Every page open: what is held from now on is left out of the
                    # generator's garbage passes (a full pass over 5,000 sockets' objects
                    # stopped its loop for half a second, challenges heard late for it).
                    gc.collect()
                    gc.freeze()
                    self.phase = "still"
                    self.latencies.clear()
                    self.lags.clear()
                    challenger = asyncio.create_task(self.challenges(http))
                elif order == "churn":
                    self.phase = "churn"
                elif order == "take":
                    report.put({"open": len(self.open), "presence": self.presence,
                                "latencies": list(self.latencies), "errors": dict(self.errors),
                                "lags": list(self.lags)})
                    self.latencies.clear()
                    self.lags.clear()
                    self.errors.clear()
                elif order == "done":
                    self.phase = "done"
                    if challenger is not None:
                        challenger.cancel()
                    # the challenges still open are taken back (each within 2 s)
                    await asyncio.gather(*self.tasks, return_exceptions=True)
                    for socket_ in list(self.open.values()):
                        with contextlib.suppress(Exception):
                            await socket_.close()
                    for life in lives:
                        life.cancel()
                    await asyncio.gather(*lives, return_exceptions=True)
                    lag.cancel()
                    report.put({"done": True})
                    return


def client_main(mine: list[int], bases: list[str], args: argparse.Namespace, worker: int,
                control: Any, report: Any) -> None:
    raise_nofile()
    asyncio.run(Pages(mine, bases, args, worker).run(control, report))


# ---------------------------------------------------------------------------- the run

def fanout(bases: list[str]) -> tuple[float, float]:
    """The nodes' presence fan-out CPU seconds and presence messages, from /metrics."""
    seconds = told = 0.0
    for base in bases:
        for line in httpx.get(f"{base}/metrics", timeout=10).text.splitlines():
            if line.startswith("basra_presence_fanout_seconds_total"):
                seconds += float(line.split()[-1])
            elif line.startswith("basra_presence_told_total"):
                told += float(line.split()[-1])
    return seconds, told


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def gather(reports: list[Any], controls: list[Any], order: str) -> list[dict[str, Any]]:
    for control in controls:
        control.put(order)
    return [report.get(timeout=120) for report in reports]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--accounts", type=int, default=10_000)
    parser.add_argument("--follows", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0, help="each window's length")
    parser.add_argument("--online", type=float, default=180.0,
                        help="mean seconds a page stays before leaving (churn)")
    parser.add_argument("--offline", type=float, default=20.0,
                        help="mean seconds before it comes back")
    parser.add_argument("--challenges", type=float, default=2.0, help="a second")
    parser.add_argument("--ramp", type=float, default=60.0, help="seconds to open the pages")
    parser.add_argument("--clients", type=int, default=2)
    parser.add_argument("--nodes", type=int, default=1)
    parser.add_argument("--db", help="a database URL (default: SQLite in a new folder)")
    parser.add_argument("--redis", help="cluster mode for --nodes > 1")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--settle", type=float, default=20.0,
                        help="seconds after every page is open before the still window "
                             "(the arrivals' news is still being told)")
    parser.add_argument("--json", action="store_true", help="the windows as JSON at the end")
    args = parser.parse_args()
    raise_nofile()
    folder = Path(tempfile.mkdtemp(prefix="basra-social-"))
    db = args.db or f"sqlite+aiosqlite:///{folder}/basra.db"
    started = time.monotonic()
    asyncio.run(seed(db, args.accounts, args.follows, args.seed))
    print(f"seeded {args.accounts} accounts, {args.follows} follows each, in "
          f"{time.monotonic() - started:.1f} s", flush=True)
    prefix = f"basra-social-{os.getpid()}:"
    nodes = [start_node(db, folder, args.redis, prefix) for _ in range(args.nodes)]
    pids = [proc.pid for proc, _ in nodes]
    bases = [base for _, base in nodes]
    context = multiprocessing.get_context("spawn")
    controls = [context.Queue() for _ in range(args.clients)]
    reports = [context.Queue() for _ in range(args.clients)]
    workers = [context.Process(target=client_main, args=(
        list(range(w, args.accounts, args.clients)), bases, args, w, controls[w], reports[w]))
        for w in range(args.clients)]
    for worker in workers:
        worker.start()
    try:
        deadline = time.monotonic() + args.ramp + 120
        while True:
            time.sleep(2)
            counts = gather(reports, controls, "count")
            opened = sum(c["open"] for c in counts)
            if opened >= args.accounts * 0.995 or time.monotonic() > deadline:
                break
        print(f"{opened} pages open", flush=True)
        time.sleep(args.settle)
        windows = {}
        for phase in ("still", "churn"):
            for control in controls:
                control.put(phase)
            if phase == "churn":
                time.sleep(min(30.0, args.seconds / 2))  # the comings and goings settle
                gather(reports, controls, "take")
            cpu0 = tree_cpu(pids)[0]
            gen0 = tree_cpu([w.pid for w in workers if w.pid is not None])[0]
            fan0 = fanout(bases)
            before = gather(reports, controls, "count")
            t0 = time.monotonic()
            time.sleep(args.seconds)
            cpu1 = tree_cpu(pids)[0]
            gen1 = tree_cpu([w.pid for w in workers if w.pid is not None])[0]
            fan1 = fanout(bases)
            taken = gather(reports, controls, "take")
            span = time.monotonic() - t0
            latencies = [x for t in taken for x in t["latencies"]]
            lags = [x for t in taken for x in t["lags"]]
            errors: dict[str, int] = {}
            for t in taken:
                for k, v in t["errors"].items():
                    errors[k] = errors.get(k, 0) + v
            windows[phase] = {
                "cores": (cpu1 - cpu0) / span,
                "generator_cores": (gen1 - gen0) / span,
                "presence_per_second": (sum(t["presence"] for t in taken)
                                        - sum(b["presence"] for b in before)) / span,
                "fanout_cores": (fan1[0] - fan0[0]) / span,
                "told_per_second": (fan1[1] - fan0[1]) / span,
                "open": sum(t["open"] for t in taken), "challenges": len(latencies),
                "p50_ms": percentile(latencies, 0.50) * 1000,
                "p95_ms": percentile(latencies, 0.95) * 1000,
                "p99_ms": percentile(latencies, 0.99) * 1000,
                "max_ms": max(latencies, default=float("nan")) * 1000, "errors": errors,
                "generator_lag_p99_ms": percentile(lags, 0.99) * 1000,
                "generator_lag_max_ms": max(lags, default=float("nan")) * 1000}
            w = windows[phase]
            print(f"{phase}: server {w['cores'] * 100:.1f}% of a core (the fan-out "
                  f"{w['fanout_cores'] * 100:.2f}%, {w['told_per_second']:.0f} presence "
                  f"messages/s queued), pages open at the end "
                  f"{w['open']}, presence messages {w['presence_per_second']:.0f}/s, "
                  f"challenges {w['challenges']}: p50 {w['p50_ms']:.1f} p95 {w['p95_ms']:.1f} "
                  f"p99 {w['p99_ms']:.1f} max {w['max_ms']:.1f} ms, errors {errors}; the "
                  f"generator's own loop lag p99 {w['generator_lag_p99_ms']:.1f} max "
                  f"{w['generator_lag_max_ms']:.1f} ms, its CPU "
                  f"{w['generator_cores'] * 100:.0f}% of a core",
                  flush=True)
        cost = (windows["churn"]["cores"] - windows["still"]["cores"]) * 100
        print(f"presence fan-out: {windows['churn']['fanout_cores'] * 100:.2f}% of one core "
              f"(its own CPU, by /metrics); the pages' comings and goings in all "
              f"(sockets, sign-in, follows read, fan-out): {cost:.1f}% "
              f"({args.nodes} node{'s' if args.nodes > 1 else ''})", flush=True)
        if args.json:
            print(json.dumps({"accounts": args.accounts, "nodes": args.nodes,
                              "opened": opened, "windows": windows}), flush=True)
        gather(reports, controls, "done")
    finally:
        for worker in workers:
            worker.join(timeout=30)
            if worker.is_alive():
                worker.kill()
        for proc, _ in nodes:
            proc.terminate()
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:  # a node that does not stop is not left behind
                proc.kill()
                proc.wait(5)


if __name__ == "__main__":
    main()
