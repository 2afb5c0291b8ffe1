"""What serving a puzzle and judging a play cost the server (issue 29's goal: under 1 ms of
server CPU each; the solution is stored, never solved per request).

A ``basra serve`` on SQLite in a temporary folder (``--no-limits``), and one client process
sending ``--requests`` requests of each kind, ``--concurrency`` at a time, over loopback:

- ``health``: ``GET /health``, the HTTP stack's own cost (uvicorn, Starlette, the
  middleware), for comparison;
- ``serve``: ``GET /api/puzzles/ID`` of random shipped puzzles, without a session;
- ``judge``: ``POST /api/puzzles/ID/play`` with the first play of the line, without a
  session (nothing kept);
- ``next``: ``GET /api/puzzles/next`` for signed-in guests (their puzzle rating and the
  puzzles they tried read from the store);
- ``rated``: a rated first try by a signed-in guest: a puzzle served by ``next`` (kept as
  served) and a wrong first play that ends the try (judged and rated, both ratings read
  locked and written in one transaction); the CPU is the two requests', per try.

For each kind: the server's CPU (its process tree, from /proc) per request, and the
latency p50/p99 seen by the client. Also the routes' own work without HTTP, in this
process: a puzzle shown and a play judged (each encoded as sent), and the solution tree's
walk alone (:func:`basra.puzzles.check.check`), per call.

    .venv/bin/python benchmarks/puzzle_serving.py --requests 2000
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import tree_cpu
from serving import free_port, wait_ready

from basra.puzzles.check import check
from basra.puzzles.shipped import load
from basra.server.learning.puzzles import Puzzles
from basra.server.wire.server_messages import dumps


async def start(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    log = (folder / "server.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "basra", "serve", "--port", str(port), "--data-dir",
         str(folder), "--no-limits", "--tournament-schedule", "none", "--bot-workers", "1"],
        stdout=subprocess.DEVNULL, stderr=log)
    base = f"http://127.0.0.1:{port}"
    try:
        await wait_ready(base)
    except RuntimeError:
        proc.kill()
        raise SystemExit("the server did not start") from None
    return proc, base


async def rated_tries(pid: int, base: str, guests: list[dict[str, str]], count: int,
                      http: httpx.AsyncClient, concurrency: int) -> dict[str, float]:
    """``count`` rated first tries: each a puzzle served by ``next`` and a wrong first play
    (the try ends, both ratings written in one transaction). Per try: the server's CPU of
    the two requests, and the latency of the play."""
    times: list[float] = []
    failures = 0
    left = count
    wrong: dict[str, str] = {}

    async def guest(headers: dict[str, str]) -> None:
        nonlocal left, failures
        while left > 0:
            left -= 1
            shown = (await http.get(f"{base}/api/puzzles/next", headers=headers)).json()
            pid_ = shown["id"]
            if pid_ not in wrong:
                puzzle = next(p for p in load("egyptian") if p.id == pid_)
                wrong[pid_] = next(text for text, _ in puzzle.tree.values
                                   if text not in puzzle.tree.accepted)
            began = time.perf_counter()
            r = await http.post(f"{base}/api/puzzles/{pid_}/play", headers=headers,
                                json={"plays": [wrong[pid_]]})
            times.append(time.perf_counter() - began)
            if r.status_code != 200 or r.json().get("rated") is None:
                failures += 1

    cpu_before, _ = tree_cpu([pid])
    # One worker a guest: a guest's next puzzle is its open try until that is settled.
    await asyncio.gather(*(guest(headers) for headers in guests[:concurrency]))
    cpu_after, _ = tree_cpu([pid])
    return {"requests": count, "failures": failures,
            "cpu_ms_per_request": round((cpu_after - cpu_before) * 1000 / count, 3),
            "p50_ms": round(percentile(times, 0.5) * 1000, 2),
            "p99_ms": round(percentile(times, 0.99) * 1000, 2)}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def measured(pid: int, requests: list[tuple[str, str, dict[str, Any] | None,
                                                   dict[str, str]]],
                   http: httpx.AsyncClient, concurrency: int) -> dict[str, float]:
    """Send ``requests`` (method, url, body, headers); the server's CPU per request and the
    client's latencies."""
    times: list[float] = []
    queue = list(requests)
    failures = 0

    async def worker() -> None:
        nonlocal failures
        while queue:
            method, url, body, headers = queue.pop()
            began = time.perf_counter()
            r = await http.request(method, url, json=body, headers=headers)
            times.append(time.perf_counter() - began)
            if r.status_code != 200:
                failures += 1

    cpu_before, _ = tree_cpu([pid])
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    cpu_after, _ = tree_cpu([pid])
    count = len(requests)
    return {"requests": count, "failures": failures,
            "cpu_ms_per_request": round((cpu_after - cpu_before) * 1000 / count, 3),
            "p50_ms": round(percentile(times, 0.5) * 1000, 2),
            "p99_ms": round(percentile(times, 0.99) * 1000, 2)}


class _NoRatings:
    """The one store read a session-less puzzle needs: no puzzle rated yet."""

    async def puzzle_ratings(self) -> list[Any]:
        return []


async def handler_alone(count: int) -> dict[str, float]:
    """The routes' own work, without HTTP: a puzzle shown, and a first play judged (each
    encoded to JSON as the routes send it), session-less, per call."""
    service = Puzzles(_NoRatings())  # type: ignore[arg-type]
    puzzles = list(load("egyptian"))
    rng = random.Random(1)
    chosen = [rng.choice(puzzles) for _ in range(count)]
    await service.shown(chosen[0], None, "rated")
    began = time.process_time()
    for puzzle in chosen:
        dumps(await service.shown(puzzle, None, "rated"))
    shown = time.process_time() - began
    began = time.process_time()
    for puzzle in chosen:
        dumps(await service.play(puzzle, None, [puzzle.best_play]))
    judged = time.process_time() - began
    began = time.process_time()
    for puzzle in chosen:
        check(puzzle, [puzzle.best_play])
    walked = time.process_time() - began
    return {"calls": count, "serve_us": round(shown * 1e6 / count, 1),
            "judge_us": round(judged * 1e6 / count, 1),
            "check_us": round(walked * 1e6 / count, 1)}


async def run(args: argparse.Namespace) -> dict[str, Any]:
    puzzles = list(load("egyptian"))
    rng = random.Random(7)
    report: dict[str, Any] = {"handler_alone": await handler_alone(args.requests)}
    with tempfile.TemporaryDirectory(prefix="basra-puzzles-") as folder:
        proc, base = await start(Path(folder))
        try:
            async with httpx.AsyncClient(timeout=30) as http:
                guests = []
                for i in range(args.guests):
                    r = await http.post(f"{base}/api/guests", json={"nickname": f"P{i}"})
                    guests.append({"Authorization": f"Bearer {r.json()['token']}"})
                # Warm up: the catalogue read, the ratings loaded.
                await http.get(f"{base}/api/puzzles/next", headers=guests[0])
                n = args.requests
                kinds: dict[str, list[tuple[str, str, dict[str, Any] | None,
                                            dict[str, str]]]] = {
                    "health": [("GET", f"{base}/health", None, {})] * n,
                    "serve": [("GET", f"{base}/api/puzzles/{rng.choice(puzzles).id}", None, {})
                              for _ in range(n)],
                    "judge": [("POST", f"{base}/api/puzzles/{p.id}/play",
                               {"plays": [p.best_play]}, {})
                              for p in (rng.choice(puzzles) for _ in range(n))],
                    "next": [("GET", f"{base}/api/puzzles/next", None, guests[i % len(guests)])
                             for i in range(n)],
                }
                for kind, requests in kinds.items():
                    report[kind] = await measured(proc.pid, requests, http, args.concurrency)
                report["rated"] = await rated_tries(proc.pid, base, guests, n // 2, http,
                                                    args.concurrency)
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--guests", type=int, default=50)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report = asyncio.run(run(args))
    if args.json:
        print(json.dumps(report))
        return
    alone = report["handler_alone"]
    print(f"without HTTP: a puzzle shown {alone['serve_us']} us, a play judged "
          f"{alone['judge_us']} us (the tree walked alone: {alone['check_us']} us)")
    for kind in ("health", "serve", "judge", "next", "rated"):
        r = report[kind]
        print(f"{kind:7s} {r['requests']:6d} requests  server CPU "
              f"{r['cpu_ms_per_request']:.3f} ms each  p50 {r['p50_ms']} ms  "
              f"p99 {r['p99_ms']} ms  failures {r['failures']}")


if __name__ == "__main__":
    main()
