"""A connection's outbox and the limits' small parts, without a server."""

from __future__ import annotations

import asyncio

from basra.server.limits import AddressBuckets, address_key
from basra.server.table.outbox import Outbox
from basra.server.wire.server_messages import Pong


class SlowSocket:
    """Takes ``delay`` seconds for every send: a peer that reads, but slowly."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.sent: list[str] = []
        self.closed: tuple[int, str | None] | None = None

    async def send_text(self, data: str) -> None:
        await asyncio.sleep(self.delay)
        self.sent.append(data)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed = (code, reason)


def test_a_peer_that_reads_too_slowly_to_keep_up_is_closed() -> None:
    """No single send takes as long as the stall limit, but the queue's oldest message
    waits longer than it: closed, though the queue never overflowed."""
    async def scenario() -> None:
        socket = SlowSocket(0.15)
        outbox = Outbox(socket, limit=100, stall_seconds=0.5)
        writer = asyncio.create_task(outbox.run())
        for _ in range(20):
            if not outbox.put(Pong(1)):
                break
            await asyncio.sleep(0.05)
        await asyncio.wait_for(writer, 5)
        assert outbox.closed and "waited" in (outbox.close_reason or "")
        assert outbox.closing is not None
        await outbox.closing
        assert socket.closed is not None and socket.closed[0] == 1013
        assert len(socket.sent) < 20

    asyncio.run(scenario())


def test_a_peer_that_keeps_up_is_never_closed() -> None:
    async def scenario() -> None:
        socket = SlowSocket(0.001)
        outbox = Outbox(socket, limit=100, stall_seconds=0.5)
        writer = asyncio.create_task(outbox.run())
        for _ in range(50):
            assert outbox.put(Pong(1))
            await asyncio.sleep(0.005)
        while outbox.queue:
            await asyncio.sleep(0.01)
        assert not outbox.closed and len(socket.sent) == 50 and outbox.delivered(50)
        outbox.close("done", code=1000, flush=True)
        await asyncio.wait_for(writer, 5)

    asyncio.run(scenario())


def test_a_goodbye_is_sent_before_the_close() -> None:
    async def scenario() -> None:
        socket = SlowSocket(0.01)
        outbox = Outbox(socket, stall_seconds=1)
        writer = asyncio.create_task(outbox.run())
        outbox.put('{"type":"closed"}')  # a text, encoded once for many
        outbox.close("bye", code=1000, flush=True)
        assert not outbox.put(Pong(2))  # nothing after the goodbye
        await asyncio.wait_for(writer, 5)
        assert outbox.closing is not None
        await outbox.closing
        assert socket.sent == ['{"type":"closed"}'] and socket.closed == (1000, "bye")

    asyncio.run(scenario())


def test_per_address_keys_and_bounded_buckets() -> None:
    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:ffff::9")
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("::ffff:192.0.2.7") == "192.0.2.7"
    assert address_key("unknown") == "unknown"
    buckets = AddressBuckets(per_minute=60, burst=2, most=3)
    for n in range(10):
        assert buckets.take(f"10.0.0.{n}", now=0.0) is None
    assert len(buckets.buckets) == 3  # the least recently seen went first
    buckets.take("10.0.0.9", now=0.0)
    assert buckets.take("10.0.0.9", now=0.0) == 1.0  # a token a second: wait one
    buckets.prune(now=100.0)
    assert not buckets.buckets  # full again: forgotten
