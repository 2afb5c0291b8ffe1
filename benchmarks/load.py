"""Load: how many concurrent matches one server process holds with the 99th-percentile
time from a play to its broadcast under 100 ms.

Starts a real ``basra serve`` (SQLite in a temporary directory unless ``--db`` is given) on
a free loopback port, then, for each step of ``--steps``, runs that many guests at once,
each playing its own match against a bot over a real websocket: the guest plays a random
legal play as soon as it is its turn, and the time from sending the play to receiving the
state that shows it is one sample. Each step runs ``--seconds``; the report is one line per
step (and ``--json`` one object). Traffic goes to 127.0.0.1 only, and every loop is bounded.

    .venv/bin/python benchmarks/load.py --steps 10,20,40,80 --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import time
from typing import Any

import httpx
from serving import basra_serve, bench_main
from websockets.asyncio.client import connect

TARGET_MS = 100.0


async def one_player(base: str, http: httpx.AsyncClient, index: int, stop_at: float,
                     samples: list[float], bot_level: str, rng: random.Random) -> int:
    """Play matches against a bot until ``stop_at``; returns the number of plays made."""
    r = await http.post(f"{base}/api/guests", json={"nickname": f"load{index}"})
    token = r.json()["token"]
    headers = {"Authorization": f"Bearer {token}"}
    plays = 0
    ws_base = base.replace("http://", "ws://")
    while time.monotonic() < stop_at:
        r = await http.post(f"{base}/api/tables/bot", headers=headers,
                            json={"bot_level": bot_level})
        table_id = r.json()["table"]["id"]
        async with connect(f"{ws_base}/ws/tables/{table_id}?token={token}") as ws:
            sent_at: float | None = None
            sent_version = -1
            while time.monotonic() < stop_at:
                left = stop_at - time.monotonic()
                try:
                    message = json.loads(await asyncio.wait_for(ws.recv(), left + 5))
                except TimeoutError:
                    break
                if message["type"] != "state":
                    continue
                if sent_at is not None and message["version"] > sent_version:
                    samples.append((time.perf_counter() - sent_at) * 1000)
                    sent_at = None
                if message["table"]["status"] == "finished":
                    break
                view = message["view"]
                if view["legal"] and view["turn"] == message["you"] and sent_at is None \
                        and message["version"] > sent_version:
                    play = rng.choice(view["legal"])
                    sent_version = message["version"]
                    sent_at = time.perf_counter()
                    await ws.send(json.dumps({"type": "play", "version": sent_version,
                                              "card": play["card"], "take": play["take"]}))
                    plays += 1
    return plays


async def step(base: str, clients: int, seconds: float, bot_level: str,
               seed: int) -> dict[str, Any]:
    samples: list[float] = []
    stop_at = time.monotonic() + seconds
    limits = httpx.Limits(max_connections=clients + 10)
    async with httpx.AsyncClient(limits=limits, timeout=60) as http:
        counts = await asyncio.gather(*(
            one_player(base, http, i, stop_at, samples, bot_level,
                       random.Random(seed * 100_000 + i)) for i in range(clients)))
    samples.sort()

    def pct(p: float) -> float:
        return samples[min(len(samples) - 1, int(p * len(samples)))] if samples else 0.0

    return {"matches": clients, "plays": sum(counts), "samples": len(samples),
            "plays_per_second": round(sum(counts) / seconds, 1),
            "p50_ms": round(pct(0.50), 1), "p95_ms": round(pct(0.95), 1),
            "p99_ms": round(pct(0.99), 1),
            "mean_ms": round(statistics.fmean(samples), 1) if samples else 0.0,
            "under_target": pct(0.99) < TARGET_MS}


async def run(args: argparse.Namespace) -> dict[str, Any]:
    options = ["--seed-window", "0", "--bot-delay", "0", "--clock", "600", "--grace", "600",
               "--no-limits"]
    async with basra_serve(*options, db=args.db) as served:
        results = []
        for clients in args.steps:
            result = await step(served.base, clients, args.seconds, args.bot, args.seed)
            results.append(result)
            if not args.json:
                print(f"{clients:>5} matches: {result['plays_per_second']:>7} plays/s  "
                      f"p50 {result['p50_ms']:>7} ms  p95 {result['p95_ms']:>7} ms  "
                      f"p99 {result['p99_ms']:>7} ms", flush=True)
    held = [r["matches"] for r in results if r["under_target"]]
    return {"benchmark": "load", "db": "postgresql" if args.db else "sqlite",
            "bot": args.bot, "seconds_per_step": args.seconds, "cpus": os.cpu_count(),
            "steps": results, "max_matches_p99_under_100ms": max(held) if held else 0}


def options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--steps", default="5,10,20,40,80",
                        type=lambda t: [int(x) for x in t.split(",")])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--bot", default="medium", help="the bots' level (default medium)")
    parser.add_argument("--db", default=None, help="a database URL (default: SQLite)")
    parser.add_argument("--seed", type=int, default=1)


def report(result: dict[str, Any]) -> None:
    print(f"most concurrent matches with p99 under {TARGET_MS:.0f} ms: "
          f"{result['max_matches_p99_under_100ms']}")


if __name__ == "__main__":
    bench_main(__doc__, options, run, report)
