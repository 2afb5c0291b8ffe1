"""A socket that stops reading (issue 8; ``serving.RawSocket``: the handshake, then never a
byte read, the same client as benchmarks/abuse.py's stalled sockets) does not slow its table,
and is let go by its writer's stall limit."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import httpx
from serving import RawSocket

from server.e2e.play_times import SLOW_MS, p99, timed_match
from server_harness import bot_table, changes, new_guest, serve


def test_a_socket_that_never_reads_does_not_slow_the_table_and_is_closed(
        tmp_path: Path) -> None:
    async def scenario(base: str, http: httpx.AsyncClient) -> None:
        amira = await new_guest(base, http, "Amira")
        table_id = await bot_table(base, http, amira)
        await amira.connect(table_id)
        stalled = [RawSocket(base, f"/ws/tables/{table_id}") for _ in range(9)]
        try:
            started = time.monotonic()
            times = await timed_match(amira)
            # Thousands of broadcasts went out (each of the 9 stalled sockets and
            # Amira got one per change), and the table never waited on the stalled.
            broadcasts = len(changes(amira.log)) * 10
            assert broadcasts > 1000, broadcasts
            assert p99(times) < SLOW_MS, (p99(times), max(times))
            # Without reading a byte of theirs, the stalled are let go within 30 s:
            # only Amira's socket is left, and each stalled one finds itself closed.
            while time.monotonic() - started < 30:
                health = (await http.get(f"{base}/health")).json()
                if health["memory"]["sockets"] == 1:
                    break
                await asyncio.sleep(0.2)
            assert health["memory"]["sockets"] == 1, health
            gone_after = time.monotonic() - started
            for raw in stalled:
                assert raw.closed_by_server(10), gone_after
        finally:
            for raw in stalled:
                raw.close()
            await amira.close()

    # A small send buffer: a whole match of basra-ws/2 messages (a few kilobytes a
    # round) must fill it, so that the stalled are let go by their writers' stall limit.
    serve(tmp_path, scenario, stall_seconds=2.0, socket_send_buffer=8 * 1024)
