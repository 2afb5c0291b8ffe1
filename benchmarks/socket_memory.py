"""What an open page's socket costs the server's garbage collector: ``--pages`` signed-in
pages (each its ``/ws/me`` socket, as issue 28's benchmark opens them) held open against one
server, then, in the server's process, the objects the collector tracks, the coroutines
among them, and how long a full collection takes (the median of three, every object
unfrozen, as the pacer's full pass does: ``basra.server.gc_pacing``). Run it twice to
compare: with no pages (``--pages 0``) and with some, the difference over the pages is what
one page holds.

The server runs the app as ``basra serve`` does (``server_config``), on SQLite in a fresh
folder with ``--pages`` accounts written straight into it, in a process of its own; the
pages are held by this process. Traffic stays on 127.0.0.1.

    .venv/bin/python benchmarks/socket_memory.py --pages 3000
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import multiprocessing
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from types import CoroutineType
from typing import Any

import httpx
import uvicorn
from websockets.asyncio.client import connect

from basra.server.app import create_app
from basra.server.main import build_parser, server_config, settings_from

sys.path.insert(0, str(Path(__file__).resolve().parent))
from social_load import free_port, seed, token


def serve(db: str, folder: str, port: int, asked: Any, told: Any) -> None:
    """The server, in its own process: serves until told ``measure``, measures, says so."""
    args = build_parser().parse_args(["--db", db, "--data-dir", folder, "--no-limits",
                                      "--tournament-schedule", "none",
                                      "--log-level", "warning"])
    settings = replace(settings_from(args), gc_pacing=False)
    config = server_config(create_app(settings), "warning", settings)
    config.port = port
    server = uvicorn.Server(config)

    async def measure() -> None:
        while not asked.poll():
            await asyncio.sleep(0.2)
        asked.recv()
        gc.collect()
        tracked = gc.get_objects()
        coroutines = sum(1 for o in tracked if type(o) is CoroutineType)
        count = len(tracked)
        del tracked
        took = []
        for _ in range(3):
            started = time.perf_counter()
            gc.collect()
            took.append(time.perf_counter() - started)
        told.send({"objects": count, "coroutines": coroutines,
                   "full_collection_ms": round(statistics.median(took) * 1000, 1)})
        server.should_exit = True

    async def main() -> None:
        task = asyncio.create_task(measure())
        await server.serve()
        task.cancel()

    asyncio.run(main())


async def hold(base: str, pages: int, asked: Any, told: Any) -> dict[str, Any]:
    held = []
    gate = asyncio.Semaphore(100)

    async def one(i: int) -> None:
        async with gate:
            page = await connect(f"{base}/ws/me", open_timeout=60, max_size=None)
            await page.send(json.dumps({"type": "hello", "token": token(i)}))
            await asyncio.wait_for(page.recv(), 60)  # its hello: it is open
            held.append(page)

    await asyncio.gather(*(one(i) for i in range(pages)))
    await asyncio.sleep(3)  # what the openings left settles
    asked.send("measure")
    while not told.poll():
        await asyncio.sleep(0.2)
    figures: dict[str, Any] = told.recv()
    for page in held:
        await page.close()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=3000)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="basra-socket-memory-")
    db = f"sqlite+aiosqlite:///{folder}/basra.db"
    asyncio.run(seed(db, max(1, args.pages), 0, 1))
    port = free_port()
    context = multiprocessing.get_context("spawn")
    asked, ask = context.Pipe(duplex=False)
    told, tell = context.Pipe(duplex=False)
    process = context.Process(target=serve, args=(db, folder, port, asked, tell))
    process.start()
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                if httpx.get(f"{base}/ready", timeout=2).json().get("ready"):
                    break
            except (httpx.HTTPError, ValueError):
                pass
            time.sleep(0.1)
        figures = asyncio.run(hold(base.replace("http://", "ws://"), args.pages, ask, told))
    finally:
        process.join(30)
        if process.is_alive():
            process.kill()
    print(json.dumps({"pages": args.pages, **figures}))


if __name__ == "__main__":
    main()
