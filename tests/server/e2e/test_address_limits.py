"""Limits per address (issue 8), end to end: too many guests, tables or open sockets from one
address answer 429 with ``Retry-After``; a body over the bound is refused with 413 (however it
comes: whole, streamed without a length, or announced too long to read); and
``X-Forwarded-For`` counts only from a trusted proxy, and then only the address it
appended."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from basra.server.config import Limits
from server_harness import serve


def test_per_address_limits_answer_429_with_retry_after(tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        answers = [await http.post(f"{base}/api/guests", json={"nickname": f"g{i}"})
                   for i in range(8)]
        assert [a.status_code for a in answers] == [201] * 5 + [429] * 3
        refused = answers[-1]
        assert refused.json()["error"]["code"] == "rate/limited"
        assert int(refused.headers["Retry-After"]) >= 1
        # X-Forwarded-For from a client that is no trusted proxy changes nothing
        spoofed = await http.post(f"{base}/api/guests", json={"nickname": "spoof"},
                                  headers={"X-Forwarded-For": "203.0.113.9"})
        assert spoofed.status_code == 429
        token = answers[0].json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        tables = [await http.post(f"{base}/api/tables/bot", headers=auth,
                                  json={"bot_level": "random"}) for _ in range(5)]
        assert [t.status_code for t in tables] == [201] * 3 + [429] * 2
        assert tables[-1].json()["error"]["code"] == "rate/limited"
        # bodies over the bound are refused before they are parsed
        big = await http.post(f"{base}/api/guests", content=b"{" + b" " * 20_000 + b"}",
                              headers={"content-type": "application/json"})
        assert big.status_code == 413
        assert big.json()["error"]["code"] == "request/too_large"
        # a body with no Content-Length is refused as it streams in
        assert await refused_when_streamed(base, 40_000) == 413
        # an 8 MB body is refused on its Content-Length, before a byte of it is read
        assert await refused_on_length(base, 8_000_000) == 413
        # open sockets per address
        ws = base.replace("http://", "ws://") + f"/ws/tables/{tables[0].json()['table']['id']}"
        held = [await connect(ws) for _ in range(4)]
        with pytest.raises(InvalidStatus) as refused_socket:
            await connect(ws)
        assert refused_socket.value.response.status_code == 429
        await held.pop().close()
        await asyncio.sleep(0.2)
        held.append(await connect(ws))  # one was freed
        for h in held:
            await h.close()

    limits = Limits(guest_burst=5, guests_per_minute=1, table_burst=3, tables_per_minute=1,
                    sockets_per_address=4)
    serve(tmp_path, scenario, limits=limits)


async def refused_on_length(base: str, length: int) -> int:
    """The status a POST announcing ``length`` body bytes gets before sending any."""
    host, port = base.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    writer.write(f"POST /api/guests HTTP/1.1\r\nHost: {host}\r\nContent-Type: "
                 f"application/json\r\nContent-Length: {length}\r\n\r\n".encode())
    await writer.drain()
    status = await asyncio.wait_for(reader.readline(), 10)
    writer.close()
    return int(status.split()[1])


async def refused_when_streamed(base: str, length: int) -> int:
    """The status a chunked POST of ``length`` bytes (no Content-Length) gets."""
    host, port = base.removeprefix("http://").split(":")

    def post() -> int:
        with socket.create_connection((host, int(port)), timeout=10) as sock:
            sock.sendall(f"POST /api/guests HTTP/1.1\r\nHost: {host}\r\nContent-Type: "
                         "application/json\r\nTransfer-Encoding: chunked\r\n\r\n".encode())
            chunk = b" " * 1000
            try:
                for _ in range(length // len(chunk)):
                    sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                sock.sendall(b"0\r\n\r\n")
            except OSError:
                pass  # refused part way: the answer is already there to read
            return int(sock.recv(100).split()[1])

    return await asyncio.to_thread(post)


def test_forwarded_for_counts_only_from_a_trusted_proxy(tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        for client in ("198.51.100.1", "198.51.100.2"):
            codes = [(await http.post(f"{base}/api/guests", json={"nickname": "nn"},
                                      headers={"X-Forwarded-For": f"{client}"}))
                     .status_code for _ in range(3)]
            assert codes == [201, 201, 429], (client, codes)
        # the proxy appends the address it saw: a forged first entry does not help
        forged = await http.post(f"{base}/api/guests", json={"nickname": "nn"},
                                 headers={"X-Forwarded-For": "10.9.9.9, 198.51.100.1"})
        assert forged.status_code == 429

    limits = Limits(guest_burst=2, guests_per_minute=1, trusted_proxies=("127.0.0.1",))
    serve(tmp_path, scenario, limits=limits)
