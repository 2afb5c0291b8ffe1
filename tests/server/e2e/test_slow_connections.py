"""HTTP connections a stranger cannot hold for free (issue 25, item 2: slowloris): a
request's head and body have deadlines, one address holds a bounded number of HTTP
connections (its websockets are counted apart, once upgraded), and ``basra serve`` raises
its open-files limit or refuses to start below what it needs."""

from __future__ import annotations

import resource
import socket
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from urllib.parse import urlparse

import httpx
import pytest

from basra.server.config import Limits, Settings
from basra.server.http import guard as http_guard
from basra.server.http.guard import OPEN_FILES_LEAST, guarded_http, open_files_limit
from server_harness import Guest, database, new_guest, run, running_server

GUARDED = {"request_head_seconds": 0.5, "request_body_seconds": 0.5}


def raw(base: str, source: str = "127.0.0.1") -> socket.socket:
    """A plain TCP connection to the server from ``source`` (any 127.x address is ours)."""
    url = urlparse(base)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind((source, 0))
    sock.settimeout(5)
    sock.connect((url.hostname, url.port))
    return sock


def closed_within(sock: socket.socket, seconds: float) -> float:
    """How long until the server closed ``sock`` (reading nothing but the end, or a reset);
    fails if it is still open after ``seconds``."""
    started = time.monotonic()
    sock.settimeout(seconds)
    try:
        while sock.recv(4096):
            pass
    except ConnectionResetError:
        pass
    except TimeoutError:
        pytest.fail(f"still open after {seconds} s")
    return time.monotonic() - started


def still_open(sock: socket.socket, seconds: float) -> bool:
    sock.settimeout(seconds)
    try:
        return sock.recv(1) != b""
    except TimeoutError:
        return True
    except ConnectionResetError:
        return False


def test_a_request_sent_too_slowly_is_cut_off(tmp_path: Path) -> None:
    with database("sqlite", tmp_path) as store, \
            running_server(store.settings(**GUARDED)) as base:
        host = urlparse(base).netloc.encode()
        silent = raw(base)  # connects and sends nothing
        assert closed_within(silent, 5) < 3
        trickle = raw(base)  # a head, a byte at a time
        try:
            for byte in b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 40:
                trickle.send(bytes([byte]))
                time.sleep(0.05)
            pytest.fail("a head sent over 3 s was still read")
        except (BrokenPipeError, ConnectionResetError):
            pass
        body = raw(base)  # a whole head, then a body that never comes
        body.sendall(b"POST /api/guests HTTP/1.1\r\nHost: " + host
                     + b"\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
        assert closed_within(body, 5) < 3
        # A request sent at once is answered, and its connection kept alive for the next.
        quick = raw(base)
        quick.sendall(b"GET /health HTTP/1.1\r\nHost: " + host + b"\r\n\r\n")
        assert b"200 OK" in quick.recv(4096)
        quick.sendall(b"GET /health HTTP/1.1\r\nHost: " + host + b"\r\n\r\n")
        assert b"200 OK" in quick.recv(4096)
        # ...but its next request's head has the same deadline.
        quick.sendall(b"GET /health HT")
        assert closed_within(quick, 5) < 3
        for sock in (silent, trickle, body, quick):
            sock.close()


def test_one_address_holds_a_bounded_number_of_http_connections(tmp_path: Path) -> None:
    limits = replace(Limits.unlimited(), http_connections_per_address=5)
    settings = {"limits": limits, "request_head_seconds": 30.0}

    async def websockets_beyond(base: str) -> None:
        # Websockets leave the count once upgraded: six tabs of one address play on.
        async with httpx.AsyncClient() as http:
            amira = await new_guest(base, http, "Amira")
            r = await http.post(f"{base}/api/tables/bot", headers=amira.headers,
                                json={"bot_level": "random"})
            table_id = r.json()["table"]["id"]
        tabs = [Guest(base, "Amira", token=amira.token) for _ in range(6)]
        try:
            for tab in tabs:
                await tab.connect(table_id)
                await tab.until(lambda s: s["table"]["id"] == table_id)
        finally:
            for tab in tabs:
                await tab.close()

    with database("sqlite", tmp_path) as store, \
            running_server(store.settings(**settings)) as base:
        run(websockets_beyond(base))
        held = [raw(base) for _ in range(5)]
        time.sleep(0.2)
        assert all(still_open(sock, 0.2) for sock in held)
        extra = raw(base)
        assert closed_within(extra, 2) < 1  # refused at once, before anything is read
        # Another address is served meanwhile.
        other = raw(base, "127.0.0.2")
        other.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert b"200 OK" in other.recv(4096)
        other.close()
        # One of the five let go: a place again.
        held.pop().close()
        time.sleep(0.2)
        again = raw(base)
        again.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert b"200 OK" in again.recv(4096)
        for sock in [*held, extra, again]:
            sock.close()


def test_the_open_files_limit_is_raised_or_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    limits = {"now": (1024, 65536)}

    def get(which: int) -> tuple[int, int]:
        assert which == resource.RLIMIT_NOFILE
        return limits["now"]

    def set_(which: int, value: tuple[int, int]) -> None:
        if value[0] > limits["now"][1]:
            raise ValueError("not allowed")
        limits["now"] = value

    monkeypatch.setattr(http_guard.resource, "getrlimit", get)
    monkeypatch.setattr(http_guard.resource, "setrlimit", set_)
    assert open_files_limit() == 65536 and limits["now"] == (65536, 65536)
    limits["now"] = (1024, 2048)
    with pytest.raises(RuntimeError) as refused:
        open_files_limit()
    message = str(refused.value)
    assert "\n" not in message and f"ulimit -n {OPEN_FILES_LEAST}" in message
    assert "2048" in message


def test_basra_serve_refuses_to_start_below_the_open_files_limit(tmp_path: Path) -> None:
    script = ("import resource, sys; resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024));"
              "from basra.server.main import main; sys.exit(main(sys.argv[1:]))")
    done = subprocess.run([sys.executable, "-c", script, "--port", "0", "--data-dir",
                           str(tmp_path)], capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 2
    assert "open-files limit is 1024" in done.stderr.strip().splitlines()[-1]


def test_each_server_counts_its_own_connections() -> None:
    first, second = guarded_http(Settings()), guarded_http(Settings())
    assert first.open is not second.open
    assert first.per_address == Limits().http_connections_per_address
    assert guarded_http(Settings(limits=Limits.unlimited())).per_address == 0
