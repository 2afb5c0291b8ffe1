"""One way for the benchmarks to run a real ``basra serve``: on a free loopback port, in a
temporary directory (SQLite unless a database URL is given), ready before it is used, and
stopped afterwards whatever happens; :class:`Held`, what a benchmark's client holds of its
table (basra-ws/2: the last ``state`` with every ``played`` message since applied); and
:class:`RawSocket`, a websocket client that never reads, which
tests/server/e2e/test_stalled_sockets.py imports too (pyproject puts ``benchmarks`` on the
tests' path)."""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from dataclasses import dataclass
from typing import Any

import httpx

from basra.server.wire.server_messages import apply_played


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
async def basra_serve(*options: str, db: str | None = None,
                      env: dict[str, str] | None = None) -> AsyncIterator[Served]:
    """``basra serve OPTIONS`` (logging warnings only; ``env`` added to its environment),
    ready; stopped on the way out."""
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        command = [sys.executable, "-m", "basra", "serve", "--port", str(port),
                   "--data-dir", tmp, "--log-level", "warning", *options]
        if db:
            command += ["--db", db]
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL,
                                   env={**os.environ, **(env or {})})
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


class Held:
    """What a client holds of its table, as the browser holds it: the last ``state``
    message with every ``played`` message since applied to it. A ``played`` message that
    does not follow (a version gap) raises ``ValueError``: over one websocket it never
    happens."""

    def __init__(self) -> None:
        self.state: dict[str, Any] = {}

    def take(self, message: dict[str, Any]) -> dict[str, Any] | None:
        """The whole state held after ``message``; None when ``message`` is not one that
        changes it (a pong, an error...)."""
        if message["type"] == "state":
            self.state = message
        elif message["type"] == "played":
            self.state = apply_played(self.state, message)
        else:
            return None
        return self.state


class RawSocket:
    """A websocket client that does the handshake (with a tiny receive buffer) and then
    never reads a byte; raises ``ConnectionError`` unless the server upgrades it."""

    def __init__(self, base: str, path: str) -> None:
        host, port = base.removeprefix("http://").split(":")
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.sock.connect((host, int(port)))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.sock.recv(1)
        if not head.startswith(b"HTTP/1.1 101"):
            self.sock.close()
            raise ConnectionError(f"no websocket upgrade: {head!r}")

    def closed_by_server(self, timeout: float) -> bool:
        """Read everything now: whether the server closed the connection (a close frame
        or the end of the stream) within ``timeout`` seconds."""
        self.sock.settimeout(timeout)
        deadline = time.monotonic() + timeout
        data = b""
        try:
            while time.monotonic() < deadline:
                chunk = self.sock.recv(1 << 16)
                if not chunk:
                    return True
                data += chunk
                if b"\x88" in data[-4096:]:  # an opcode-8 (close) frame header
                    return True
        except ConnectionResetError:  # the server gave up flushing and aborted: closed too
            return True
        except TimeoutError:
            return False
        return False

    def close(self) -> None:
        self.sock.close()


def bench_main(doc: str, options: Callable[[argparse.ArgumentParser], None],
               run: Callable[[argparse.Namespace], Coroutine[Any, Any, Any]],
               report: Callable[[Any], None]) -> None:
    """A benchmark's command line: its ``options`` and ``--json``; runs ``run(args)`` and
    prints its result as one JSON value or as ``report`` tells it."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    options(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON value")
    args = parser.parse_args()
    result: Any = asyncio.run(run(args))
    if args.json:
        print(json.dumps(result))
    else:
        report(result)
