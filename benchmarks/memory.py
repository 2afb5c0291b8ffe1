"""Memory: does a long-running server give back what finished matches, lapsed quick-match
tickets and closed connections held?

Starts a real ``basra serve`` (SQLite in a temporary directory) on a free loopback port and
reads its resident memory (VmRSS) idle; plays ``--warmup`` matches and reads it again (code
paths, caches and the allocator's arenas are warm then); then plays ``--matches`` more whole
matches, each a guest against the random bot over a real websocket (``--concurrency`` at a
time), and leaves ``--tickets`` quick-match tickets that nobody waits on. Once idle (the
rematch window and the ticket lapse have passed) it reads the memory a last time and what
the server says it holds (``/health``: live tables, tickets, sockets). Traffic goes to
127.0.0.1 only, and every loop is bounded.

    .venv/bin/python benchmarks/memory.py --matches 1000
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

import httpx
from serving import Held, basra_serve, bench_main
from websockets.asyncio.client import connect

REMATCH_WINDOW = 2.0
TICKET_LAPSE = 5.0  # the server's default
ARRIVAL = 10.0  # likewise: how long a quick-match table waits for its players


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


async def one_match(base: str, http: httpx.AsyncClient, index: int) -> int:
    """A guest plays a whole match against the random bot; returns its plays."""
    r = await http.post(f"{base}/api/guests", json={"nickname": f"mem{index}"})
    token = r.json()["token"]
    headers = {"Authorization": f"Bearer {token}"}
    r = await http.post(f"{base}/api/tables/bot", headers=headers,
                        json={"bot_level": "random"})
    table = r.json()["table"]["id"]
    ws_url = base.replace("http://", "ws://") + f"/ws/tables/{table}?auth=1"
    plays = 0
    deadline = time.monotonic() + 600
    async with connect(ws_url, max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent = -1
        held = Held()
        while time.monotonic() < deadline:
            state = held.take(json.loads(await asyncio.wait_for(ws.recv(), 120)))
            if state is None:
                continue
            if state["table"]["status"] == "finished":
                return plays
            view = state["view"]
            if view["legal"] and view["turn"] == state["you"] and state["version"] > sent:
                sent = state["version"]
                play = view["legal"][0]
                await ws.send(json.dumps({"type": "play", "version": sent,
                                          "card": play["card"], "take": play["take"]}))
                plays += 1
    raise RuntimeError("a match did not end in 600 s")


async def matches(base: str, count: int, concurrency: int, offset: int) -> int:
    queue = iter(range(offset, offset + count))
    total = 0
    limits = httpx.Limits(max_connections=concurrency + 4)
    async with httpx.AsyncClient(limits=limits, timeout=60) as http:
        async def worker() -> None:
            nonlocal total
            for index in queue:
                plays = await one_match(base, http, index)
                total += plays  # not `total += await ...`: that reads total before awaiting

        await asyncio.gather(*(worker() for _ in range(concurrency)))
    return total


async def tickets(base: str, count: int) -> None:
    """Quick-match tickets whose owners never wait on them: those matched in pairs make
    tables nobody opens (given up after the arrival wait), the rest lapse."""
    variants = ["egyptian", "arabic101", "lebanese", "serbian"]
    async with httpx.AsyncClient(timeout=60) as http:
        for i in range(count):
            r = await http.post(f"{base}/api/guests", json={"nickname": f"tk{i}"})
            headers = {"Authorization": f"Bearer {r.json()['token']}"}
            r = await http.post(f"{base}/api/quick-match", headers=headers,
                                json={"variant": variants[i % len(variants)]})
            r.raise_for_status()


async def health(base: str) -> dict[str, Any]:
    async with httpx.AsyncClient() as http:
        body: dict[str, Any] = (await http.get(f"{base}/health")).json()
        return body


async def snapshot(pid: int, folder: Path, index: int) -> Path:
    """Has the server (``BASRA_TRACEMALLOC_DIR``) write its tracemalloc snapshot ``index``."""
    path = folder / f"snapshot-{index}.tracemalloc"
    os.kill(pid, signal.SIGUSR2)
    for _ in range(600):
        await asyncio.sleep(0.5)
        if path.exists():  # written whole, then renamed
            return path
    raise RuntimeError("the server wrote no snapshot in 300 s")


def compare(before: Path, after: Path, top: int) -> list[dict[str, Any]]:
    """What the traced heap gained between two snapshots, by file and line, biggest first."""
    ignore = [tracemalloc.Filter(False, tracemalloc.__file__),
              tracemalloc.Filter(False, "<frozen importlib._bootstrap*>")]
    old = tracemalloc.Snapshot.load(str(before)).filter_traces(ignore)
    new = tracemalloc.Snapshot.load(str(after)).filter_traces(ignore)
    rows = []
    for stat in new.compare_to(old, "lineno")[:top]:
        frame = stat.traceback[0]
        rows.append({"where": f"{frame.filename}:{frame.lineno}",
                     "kb": round(stat.size_diff / 1024, 1), "blocks": stat.count_diff})
    return rows


async def run(args: argparse.Namespace) -> dict[str, Any]:
    options = ["--seed-window", "0", "--summary-window", "0", "--bot-delay", "0",
               "--rematch-window", str(REMATCH_WINDOW), "--no-limits"]
    trace = Path(tempfile.mkdtemp(prefix="basra-trace-")) if args.trace else None
    env = {"BASRA_TRACEMALLOC_DIR": str(trace)} if trace else None
    async with basra_serve(*options, db=args.db, env=env) as served:
        base, pid = served.base, served.process.pid
        idle = rss_mb(pid)
        started = time.monotonic()
        await matches(base, args.warmup, args.concurrency, 0)
        await asyncio.sleep(REMATCH_WINDOW + 2)
        warm = rss_mb(pid)
        if trace:
            first = await snapshot(pid, trace, 0)
        samples: list[tuple[int, float]] = [(0, round(warm, 1))]
        plays, played = 0, 0
        step = max(1, args.matches // args.samples)
        while played < args.matches:
            count = min(step, args.matches - played)
            plays += await matches(base, count, args.concurrency, args.warmup + played)
            played += count
            samples.append((played, round(rss_mb(pid), 1)))
        peak = rss_mb(pid)
        await tickets(base, args.tickets)
        await asyncio.sleep(ARRIVAL + REMATCH_WINDOW + TICKET_LAPSE + 3)
        after = rss_mb(pid)
        held = (await health(base))["memory"]
        gained = compare(first, await snapshot(pid, trace, 1), args.top) if trace else []
        # what the cycle collector found at the second snapshot: garbage made since the first
        cycles = json.loads((trace / "garbage-1.json").read_text())[:args.top] if trace else []
        elapsed = time.monotonic() - started
    quarter = [rss for done, rss in samples if done >= args.matches * 3 // 4]
    return {"benchmark": "memory", "db": "postgresql" if args.db else "sqlite",
            "matches": args.matches, "warmup": args.warmup,
            "plays": plays, "tickets": args.tickets, "concurrency": args.concurrency,
            "seconds": round(elapsed, 1), "rss_idle_mb": round(idle, 1),
            "rss_warm_mb": round(warm, 1), "rss_peak_mb": round(peak, 1),
            "rss_after_mb": round(after, 1), "growth_after_warmup_mb": round(after - warm, 1),
            "rss_max_mb": max(rss for _, rss in samples),
            "last_quarter_growth_mb": round(quarter[-1] - quarter[0], 1),
            "samples": samples, "held_after": held, "traced_growth": gained,
            "cycle_garbage": cycles}


def options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--warmup", type=int, default=50)
    parser.add_argument("--tickets", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--db", default=None, help="a database URL (default: SQLite)")
    parser.add_argument("--samples", type=int, default=20,
                        help="how many times to read RSS along the matches (default 20)")
    parser.add_argument("--trace", action="store_true",
                        help="trace the server's allocations and list what the heap gained "
                             "between warm-up and idle, by file and line (slower)")
    parser.add_argument("--top", type=int, default=15, help="lines listed by --trace")


def report(result: dict[str, Any]) -> None:
    print(f"{result['db']}: {result['matches']} matches ({result['plays']} plays) and "
          f"{result['tickets']} lapsed tickets in {result['seconds']} s")
    print(f"RSS: idle {result['rss_idle_mb']} MB, after {result['warmup']} warm-up matches "
          f"{result['rss_warm_mb']} MB, at the end of play {result['rss_peak_mb']} MB, "
          f"idle again {result['rss_after_mb']} MB "
          f"(growth after warm-up {result['growth_after_warmup_mb']:+} MB)")
    print(f"RSS at most {result['rss_max_mb']} MB; over the last quarter "
          f"{result['last_quarter_growth_mb']:+} MB")
    print("RSS along the way (matches, MB): "
          + ", ".join(f"{done} {rss}" for done, rss in result["samples"]))
    print(f"held once idle: {result['held_after']}")
    if result["traced_growth"]:
        print("what the traced heap gained from warm-up to idle, by file and line:")
    for row in result["traced_growth"]:
        print(f"  {row['kb']:+10.1f} KB {row['blocks']:+8d} blocks  {row['where']}")
    if result["cycle_garbage"]:
        print("garbage in reference cycles made over the run (objects by type):")
    for kind, count in result["cycle_garbage"]:
        print(f"  {count:10d}  {kind}")


if __name__ == "__main__":
    bench_main(__doc__, options, run, report)
