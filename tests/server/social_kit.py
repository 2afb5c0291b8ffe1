"""What the social tests share: a signed-in page's socket (``/ws/me``) and a Web Push
endpoint of the tests' own, on loopback, that decrypts what it is sent (RFC 8291) with the
keys of the subscription it handed out."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from websockets.asyncio.client import ClientConnection, connect

from server_harness import Guest


class Page:
    """A signed-in page's socket, and what it has heard."""

    def __init__(self, socket: ClientConnection) -> None:
        self.socket = socket
        self.heard: list[dict[str, Any]] = []

    @classmethod
    async def open(cls, guest: Guest) -> Page:
        ws = guest.base.replace("http://", "ws://")
        page = cls(await connect(f"{ws}/ws/me"))
        await page.socket.send(json.dumps({"type": "hello", "token": guest.token}))
        first = await page.next("hello")
        assert "unread" in first
        return page

    async def next(self, kind: str, timeout: float = 5, **where: Any) -> dict[str, Any]:
        """The next message of ``kind`` (heard already or to come) matching ``where``."""
        async def find() -> dict[str, Any]:
            while True:
                for message in self.heard:
                    if message.get("type") == kind and all(
                            _get(message, k) == v for k, v in where.items()):
                        self.heard.remove(message)
                        return message
                self.heard.append(json.loads(await self.socket.recv()))

        return await asyncio.wait_for(find(), timeout)

    async def close(self) -> None:
        await self.socket.close()


def _get(message: dict[str, Any], path: str) -> Any:
    value: Any = message
    for part in path.split("__"):
        value = value.get(part) if isinstance(value, dict) else None
    return value


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class PushEndpoint:
    """A push service of our own: the subscription a browser would make, and every push
    it was sent, decrypted."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.received: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.status = 201

    def subscription(self, name: str = "browser") -> dict[str, Any]:
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": f"http://127.0.0.1:{self.port}/push/{name}",
                "keys": {"p256dh": b64(public), "auth": b64(self.auth)}}

    def took(self, body: bytes, headers: dict[str, str]) -> None:
        plain = http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth,
                                 version="aes128gcm")
        self.received.append(json.loads(plain))
        self.headers.append(headers)


@contextmanager
def push_endpoint() -> Iterator[PushEndpoint]:
    holder: list[PushEndpoint] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            endpoint = holder[0]
            endpoint.took(body, dict(self.headers.items()))
            self.send_response(endpoint.status)
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    holder.append(PushEndpoint(server.server_address[1]))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield holder[0]
    finally:
        server.shutdown()
        server.server_close()
