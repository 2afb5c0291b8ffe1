"""One way for the benchmarks to run a real ``basra serve``: on a free loopback port, in a
temporary directory (SQLite unless a database URL is given), ready before it is used, and
stopped afterwards whatever happens."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass(frozen=True)
class Served:
    base: str
    """``http://127.0.0.1:PORT``."""
    process: subprocess.Popen[bytes]


async def wait_ready(base: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    async with httpx.AsyncClient() as http:
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError):
                if (await http.get(f"{base}/ready")).status_code == 200:
                    return
            await asyncio.sleep(0.1)
    raise RuntimeError("basra serve did not become ready")


@contextlib.asynccontextmanager
async def basra_serve(*options: str, db: str | None = None) -> AsyncIterator[Served]:
    """``basra serve OPTIONS`` (logging warnings only), ready; stopped on the way out."""
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        command = [sys.executable, "-m", "basra", "serve", "--port", str(port),
                   "--data-dir", tmp, "--log-level", "warning", *options]
        if db:
            command += ["--db", db]
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        try:
            base = f"http://127.0.0.1:{port}"
            await wait_ready(base)
            yield Served(base, process)
        finally:
            process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(20)
            if process.poll() is None:
                process.kill()


def bench_main(doc: str, options: Callable[[argparse.ArgumentParser], None],
               run: Callable[[argparse.Namespace], Awaitable[Any]],
               report: Callable[[Any], None]) -> None:
    """A benchmark's command line: its ``options`` and ``--json``; runs ``run(args)`` and
    prints its result as one JSON value or as ``report`` tells it."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    options(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON value")
    args = parser.parse_args()
    result = asyncio.run(run(args))
    if args.json:
        print(json.dumps(result))
    else:
        report(result)
