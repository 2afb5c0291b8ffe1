"""A real server for the end-to-end tests: uvicorn on a free loopback port in a thread,
and small async clients (httpx for HTTP, websockets for the table protocol)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import uvicorn
from websockets.asyncio.client import ClientConnection, connect

from basra.server.app import create_app
from basra.server.config import Settings


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.contextmanager
def running_server(settings: Settings) -> Iterator[str]:
    """Serve ``create_app(settings)`` on 127.0.0.1 in a thread; yields the base URL."""
    port = free_port()
    config = uvicorn.Config(create_app(settings), host="127.0.0.1", port=port,
                            log_level="warning", lifespan="on", ws_max_size=16 * 1024)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(30)


@dataclass
class Guest:
    """A guest with a token and, once seated, a websocket to a table."""

    base: str
    nickname: str
    token: str = ""
    player_id: str = ""
    socket: ClientConnection | None = None
    state: dict[str, Any] = field(default_factory=dict)
    errors: list[dict[str, Any]] = field(default_factory=list)

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    async def sign_in(self, http: httpx.AsyncClient) -> Guest:
        r = await http.post(f"{self.base}/api/guests", json={"nickname": self.nickname})
        r.raise_for_status()
        self.token = r.json()["token"]
        self.player_id = r.json()["player"]["id"]
        return self

    async def connect(self, table_id: str) -> None:
        ws_base = self.base.replace("http://", "ws://")
        self.state = {}
        self.socket = await connect(f"{ws_base}/ws/tables/{table_id}?token={self.token}")

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()
            self.socket = None

    async def send(self, message: dict[str, Any]) -> None:
        assert self.socket is not None
        await self.socket.send(json.dumps(message))

    async def receive(self, timeout: float = 20) -> dict[str, Any]:
        assert self.socket is not None
        raw = await asyncio.wait_for(self.socket.recv(), timeout)
        message: dict[str, Any] = json.loads(raw)
        if message["type"] == "state":
            self.state = message
        elif message["type"] == "error":
            self.errors.append(message)
        return message

    async def until(self, predicate: Any, timeout: float = 60) -> dict[str, Any]:
        """Read messages until a state satisfies ``predicate``."""
        deadline = time.monotonic() + timeout
        while True:
            if self.state and predicate(self.state):
                return self.state
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.nickname}: no state matched in {timeout} s")
            await self.receive(left)

    def my_turn(self, state: dict[str, Any]) -> bool:
        view = state["view"]
        return bool(view["legal"]) and view["turn"] == state["you"]

    async def play_first_legal(self) -> None:
        play = self.state["view"]["legal"][0]
        await self.send({"type": "play", "version": self.state["version"],
                         "card": play["card"], "take": play["take"]})


def over(state: dict[str, Any]) -> bool:
    return bool(state["table"]["status"] == "finished")
