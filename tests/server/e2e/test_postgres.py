"""The server on PostgreSQL, beyond the scenarios every test module runs on both stores (see
the ``backend`` fixture): the data really lands in the schema the URL names, and when the
database goes away the server says it is not ready and refuses plays, changing nothing,
then carries on when the database is back.

The database "goes away" through a small TCP proxy between the server and PostgreSQL that
the test stops and starts. These tests fail, never skip, when PostgreSQL is down."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.pool import NullPool

from server_harness import (
    POSTGRES,
    Backend,
    drop_schema,
    free_port,
    new_guest,
    run,
    running_server,
)


class Proxy:
    """A TCP proxy to PostgreSQL on its own event loop in a thread; ``stop`` closes the
    port and cuts every connection, ``start`` opens the same port again."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.port = free_port()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.server: asyncio.Server | None = None
        self.writers: set[asyncio.StreamWriter] = set()
        self.thread.start()

    def _call(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(30)

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError):
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        writer.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.writers.add(writer)
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.close()
            return
        self.writers.add(up_writer)
        await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer))

    async def _start(self) -> None:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", self.port)

    async def _stop(self) -> None:
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()
            self.server = None
        for writer in list(self.writers):
            writer.transport.abort()
        self.writers.clear()
        await asyncio.sleep(0.05)

    def start(self) -> None:
        self._call(self._start())

    def stop(self) -> None:
        self._call(self._stop())

    def close(self) -> None:
        self.stop()

        async def rest() -> None:
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        self._call(rest())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


@contextlib.contextmanager
def proxied_postgres() -> Iterator[tuple[Proxy, str, str]]:
    """A proxy to PostgreSQL and a fresh schema: (proxy, URL through it, schema)."""
    url = make_url(POSTGRES)
    proxy = Proxy(url.host or "127.0.0.1", url.port or 5432)
    proxy.start()
    schema = f"basra_srv_{uuid.uuid4().hex[:16]}"
    through = url.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False)
    try:
        yield proxy, f"{through}?schema={schema}", schema
    finally:
        proxy.close()
        asyncio.run(drop_schema(schema))


async def count_plays(schema: str, table_id: str) -> int:
    """Straight from PostgreSQL, not through the proxy."""
    engine = create_async_engine(POSTGRES, poolclass=NullPool)
    try:
        async with engine.connect() as connection:
            found = await connection.execute(
                text(f'SELECT count(*) FROM "{schema}".plays WHERE table_id = :t'),
                {"t": table_id})
            return int(found.scalar_one())
    finally:
        await engine.dispose()


async def ready(http: httpx.AsyncClient, base: str, expected: bool) -> None:
    """Wait (a little) for /ready to say ``expected``."""
    for _ in range(100):
        r = await http.get(f"{base}/ready")
        if r.json() == {"ready": expected, "database": expected, "redis": None}:
            assert r.status_code == (200 if expected else 503)
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"/ready never said {expected}")


def test_postgres_down_means_not_ready_and_plays_refused_then_it_carries_on(
        tmp_path: Any) -> None:
    async def scenario(base: str, proxy: Proxy, schema: str) -> None:
        async with httpx.AsyncClient(timeout=30) as http:
            await ready(http, base, True)
            amira = await new_guest(base, http, "Amira")
            r = await http.post(f"{base}/api/tables/bot", headers=amira.headers,
                                json={"bot_level": "random"})
            table_id = r.json()["table"]["id"]
            await amira.connect(table_id)
            try:
                state = await amira.until(amira.my_turn)
                plays = len(state["view"]["plays"])
                # the plays are in the schema the URL named
                assert await count_plays(schema, table_id) == plays

                proxy.stop()  # the database is gone
                await ready(http, base, False)
                move = state["view"]["legal"][0]
                play = {"type": "play", "version": state["version"], **move}
                await amira.send(play)
                reply = await amira.receive()
                assert reply["type"] == "error" and reply["code"] == "server/internal"
                version, before = await amira.ping()
                assert version == state["version"] and before == []

                proxy.start()  # it is back: the same play now goes through
                await ready(http, base, True)
                await amira.send(play)
                after = await amira.until(lambda s: s["version"] > state["version"])
                assert after["view"]["plays"][plays]["card"] == move["card"]
                await amira.until(amira.my_turn)
                assert await count_plays(schema, table_id) == len(
                    amira.state["view"]["plays"]) > plays
            finally:
                await amira.close()

    with proxied_postgres() as (proxy, url, schema):
        backend = Backend("postgresql", tmp_path / "data", url)
        with running_server(backend.settings()) as base:
            run(scenario(base, proxy, schema))
