"""Messages between the nodes of a cluster, through Redis pub/sub.

Every node listens on one channel of its own, ``{prefix}node:{id}``, and every message
between nodes is a small JSON object on the receiver's channel, one of the typed messages
of :mod:`~basra.server.cluster.messages` (which says what each carries, and keeps the wire
format), encoded there and decoded once here, on receipt:

- to a table's owner, from the node that holds a player's socket (the *forwarder*):
  ``attach`` (a socket opened), ``in`` (a client message, already checked and rate limited
  by the forwarder), ``detach`` (the socket closed), and ``call`` (``join`` or
  ``fill_bot`` asked over HTTP on another node, answered by a ``reply``);
- to a forwarder, from the owner: ``out`` (the text to send on a socket), ``close``
  (close it, with a code), ``reply``;
- to every node (:data:`EVERY_NODE`): ``signed_out``.

A reply is the relay's own (it settles the :meth:`Relay.call` awaiting it); every other
message goes to the node's one handler (:class:`~basra.server.cluster.node.Cluster`), which
dispatches on its type. A message that cannot be read is logged and dropped.

On the owner a remote socket is a :class:`RemoteConnection`, which a table treats like any
connection: ``put`` publishes, in order, and never awaits. Publishing is batched: a sender
task drains a queue into one pipeline per round trip. A message to a node that died is
lost with it; the nodes notice (leases, heartbeats: :mod:`~basra.server.cluster.node`) and the
client reconnects.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import Awaitable, Callable

from redis.asyncio import Redis
from redis.asyncio.client import PubSub

from basra.server.cluster import messages as node_messages
from basra.server.cluster.messages import (
    Answer,
    CallMessage,
    CallOp,
    CloseMessage,
    Handled,
    NodeMessage,
    OutMessage,
    ReplyMessage,
)
from basra.server.wire.server_messages import ServerMessage, encode

log = logging.getLogger("basra.relay")

Handler = Callable[[Handled], Awaitable[None]]
"""The node's handler of every message but a reply."""

CALL_TIMEOUT = 10.0
"""Seconds a forwarded ``call`` waits for its reply."""


class RemoteConnection:
    """On a table's owner: a player's socket held by another node."""

    def __init__(self, relay: Relay, node: str, conn_id: str) -> None:
        self.relay = relay
        self.node = node
        self.id = conn_id
        self.closed = False
        self.close_after: tuple[int, str] | None = None
        self.opened = time.monotonic()
        self.queued = 0

    def put(self, message: ServerMessage | str) -> bool:
        if self.closed:
            return False
        text = message if isinstance(message, str) else encode(message)
        self.relay.publish(self.node, OutMessage(self.id, text))
        self.queued += 1
        return True

    def close(self, reason: str, code: int = 1013, *, flush: bool = False) -> None:
        if self.closed:
            return
        self.closed = True
        self.relay.publish(self.node, CloseMessage(self.id, code, reason))

    def delivered(self, count: int) -> bool:
        """Published in order on the forwarder's channel: as delivered as this node can
        know (the forwarder's own outbox bounds what follows)."""
        return self.queued >= count


EVERY_NODE = "every"
"""The channel every node listens on besides its own (node ids are hex: never this)."""


class Relay:
    """One node's end of the pub/sub: its channel, the sender, the calls awaiting replies,
    and the ``handler`` of every other message received (none: they are dropped)."""

    def __init__(self, redis: Redis, node: str, prefix: str = "basra:",
                 handler: Handler | None = None) -> None:
        self.redis = redis
        self.node = node
        self.prefix = prefix
        self.handler = handler
        self.outgoing: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue()
        self.calls: dict[str, asyncio.Future[Answer]] = {}
        self.pubsub: PubSub | None = None
        self.tasks: list[asyncio.Task[None]] = []

    def channel(self, node: str) -> str:
        return f"{self.prefix}node:{node}"

    async def start(self) -> None:
        self.pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self.pubsub.subscribe(self.channel(self.node), self.channel(EVERY_NODE))
        self.tasks = [asyncio.create_task(self._listen(), name="relay listener"),
                      asyncio.create_task(self._send(), name="relay sender")]

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        self.tasks = []
        if self.pubsub is not None:
            with contextlib.suppress(Exception):
                await self.pubsub.unsubscribe()
                await self.pubsub.aclose()
            self.pubsub = None

    # ------------------------------------------------------------------ sending

    def publish(self, node: str, message: NodeMessage) -> None:
        """Queue a message for ``node`` (:data:`EVERY_NODE`: for every node, this one
        too); never awaits (the sender publishes it)."""
        self.outgoing.put_nowait((self.channel(node), node_messages.encode(message)))

    async def _send(self) -> None:
        while True:
            first = await self.outgoing.get()
            batch = [first]
            while not self.outgoing.empty() and len(batch) < 512:
                batch.append(self.outgoing.get_nowait())
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for channel, data in batch:
                        pipe.publish(channel, data)
                    await pipe.execute()
            except Exception:  # Redis is down: these are lost, the nodes recover
                log.exception("relay: %d messages could not be published", len(batch))
                await asyncio.sleep(0.5)

    # ------------------------------------------------------------------ receiving

    async def _listen(self) -> None:
        assert self.pubsub is not None
        while True:
            try:
                message = await self.pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:  # the connection to Redis dropped: redis-py reconnects
                log.exception("relay: reading the node channel failed")
                await asyncio.sleep(0.5)
                continue
            if message is None or message.get("type") != "message":
                continue
            try:
                received = node_messages.decode(message["data"])
            except ValueError as exc:  # a node of a newer (or broken) code: drop it
                log.warning("relay: a message could not be read: %s", exc)
                continue
            try:
                await self._dispatch(received)
            except Exception:  # one bad message must not stop the node's relay
                log.exception("relay: a message could not be handled")

    async def _dispatch(self, message: NodeMessage) -> None:
        match message:
            case ReplyMessage():
                future = self.calls.pop(message.id, None)
                if future is not None and not future.done():
                    future.set_result(message.answer)
            case _:
                if self.handler is not None:
                    await self.handler(message)

    # ------------------------------------------------------------------ calls

    async def call(self, node: str, op: CallOp) -> Answer:
        """Ask ``node`` and wait for its ``reply`` (TimeoutError after CALL_TIMEOUT)."""
        call_id = uuid.uuid4().hex
        future: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self.calls[call_id] = future
        self.publish(node, CallMessage(call_id, self.node, op))
        try:
            return await asyncio.wait_for(future, CALL_TIMEOUT)
        finally:
            self.calls.pop(call_id, None)

    def reply(self, node: str, call_id: str, answer: Answer) -> None:
        self.publish(node, ReplyMessage(call_id, answer))
