"""Cluster mode: many ``basra serve`` processes, on one machine or many, as one site
(``basra serve --db postgresql+asyncpg://... --redis redis://...``; docs/DEPLOY.md).

Every node takes any HTTP request and any websocket. A live table is owned by exactly one
node at a time, the holder of its lease (:mod:`~basra.server.cluster.leases`); only the owner runs
the table's actor and writes its plays, fenced (:mod:`~basra.server.cluster.fence`). A socket
opened on another node is forwarded (:mod:`~basra.server.cluster.relay`): the forwarder checks and
rate-limits what the client sends and passes it on; the owner's messages for that socket
come back the same way. Quick-match queues and tickets are in Redis too
(:mod:`~basra.server.cluster.pools`), so players on different nodes meet.

Each node keeps three loops:

- **renew**: every lease it holds, a few times per lease time, in one round trip, and its
  heartbeat key; a lease it lost (another node holds it) lets the table go at once;
- **adopt**: every live table of the store that nobody holds (its node died) is taken,
  rebuilt from the event log and started, its clock resumed from the stored deadline;
- **watch**: a forwarded socket whose table changed owner is closed (1012, "service
  restart"), so its client reconnects and reaches the new owner; a remote socket whose
  forwarder died is detached from its table, so the seat counts as dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import random
import socket
import time
import uuid
from dataclasses import dataclass
from typing import Any, assert_never

from redis.asyncio import Redis

from basra.server import metrics
from basra.server.cluster.leases import Leases
from basra.server.cluster.messages import (
    Answer,
    AttachMessage,
    CallMessage,
    CallOp,
    CloseMessage,
    DetachMessage,
    FillBotCall,
    Handled,
    InMessage,
    JoinCall,
    OutMessage,
    Refused,
    Seated,
    SignedOutMessage,
)
from basra.server.cluster.relay import Relay, RemoteConnection
from basra.server.config import Settings
from basra.server.lobby.tables import Lobby
from basra.server.reads.live import ORDERS, ordered
from basra.server.table.actor import MOVED_CODE
from basra.server.table.commands import Attach, Detach, FillBot, Incoming, Join
from basra.server.table.outbox import Outbox
from basra.server.wire.client_messages import ProtocolError, error_message, parse_client_message
from basra.server.wire.errors import Refusal

log = logging.getLogger("basra.cluster")



LIVE_FRESH_SECONDS = 3.0
"""A node's published live list older than this is dropped (the node stopped)."""


def new_node_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


@dataclass(eq=False)
class Forwarded:
    """On a forwarder: a socket of this node whose table another node owns."""

    conn_id: str
    table_id: str
    owner: str
    outbox: Outbox


class Cluster:
    """One node of the site: its id, Redis, leases, relay and loops."""

    def __init__(self, redis: Redis, settings: Settings, node: str | None = None) -> None:
        self.redis = redis
        self.settings = settings
        self.node = node or new_node_id()
        self.prefix = settings.redis_prefix
        self.leases = Leases(redis, self.node, settings.lease_seconds, self.prefix)
        self.relay = Relay(redis, self.node, self.prefix, self._receive)
        self.lobby: Lobby | None = None
        self.forwarded: dict[str, Forwarded] = {}
        self.remote: dict[str, tuple[str, RemoteConnection]] = {}
        """On an owner: each remote socket's table and connection, by connection id."""
        self.tasks: list[asyncio.Task[None]] = []

    async def _receive(self, message: Handled) -> None:
        """A message from another node (a reply is the relay's own)."""
        match message:
            case AttachMessage():
                await self._on_attach(message)
            case InMessage():
                await self._on_in(message)
            case DetachMessage():
                await self._detach(message.conn)
            case CallMessage():
                await self._on_call(message)
            case OutMessage():
                self._on_out(message)
            case CloseMessage():
                self._on_close(message)
            case SignedOutMessage():
                self._on_signed_out(message)
            case _:
                assert_never(message)

    def _on_signed_out(self, message: SignedOutMessage) -> None:
        """Another node ended sessions: close their sockets here too."""
        if self.lobby is not None:
            self.lobby.signed_in.end(message.player, message.session, message.keep)

    @classmethod
    def connect(cls, settings: Settings) -> Cluster:
        assert settings.redis_url is not None
        return cls(Redis.from_url(settings.redis_url, socket_timeout=5,
                                  socket_connect_timeout=5, health_check_interval=10),
                   settings)

    # ------------------------------------------------------------------ life

    async def start(self, lobby: Lobby) -> None:
        self.lobby = lobby
        await self.redis.ping()
        await self._heartbeat()
        await self.relay.start()
        metrics.node_info(self.node)
        self.tasks = [asyncio.create_task(self._every(self.settings.lease_seconds / 4,
                                                      self._renew), name="lease renewal"),
                      asyncio.create_task(self._every(1.0, self._adopt), name="adoption"),
                      asyncio.create_task(self._every(1.0, self._watch), name="socket watch"),
                      asyncio.create_task(self._every(1.0, self._publish_live),
                                          name="live list")]
        log.info("cluster node %s up", self.node)

    async def stop(self) -> None:
        """Stop the loops and give every lease up, so that other nodes adopt at once."""
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        self.tasks = []
        await self.relay.stop()
        with contextlib.suppress(Exception):
            for table_id in list(self.leases.until):
                await self.leases.release(table_id)
            await self.redis.delete(self._alive_key(self.node))
            await self.redis.hdel(self._live_key, self.node)
        await self.redis.aclose()

    async def _every(self, seconds: float, step: Any) -> None:
        while True:
            await asyncio.sleep(seconds * random.uniform(0.8, 1.0))
            try:
                await step()
            except asyncio.CancelledError:
                raise
            except Exception:  # Redis or the store is down: try again next time
                log.exception("cluster: %s failed", getattr(step, "__name__", step))

    def _alive_key(self, node: str) -> str:
        return f"{self.prefix}alive:{node}"

    @property
    def _live_key(self) -> str:
        return f"{self.prefix}live"

    async def _publish_live(self) -> None:
        """This node's live matches for every node's ``GET /api/live``: the ones a list
        could show (the newest and the best-rated hundred), in one field of one hash, with
        the time they were published (a node that stops publishing drops out after 3 s)."""
        assert self.lobby is not None
        mine = self.lobby.live_here()
        shown = {m["table"]: m for order in ORDERS for m in ordered(mine, order)}
        await self.redis.hset(self._live_key, self.node,
                              json.dumps({"at": time.time(), "matches": list(shown.values())}))

    async def live_matches(self, here: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Every node's live matches, as they last published them (this node's, ``here``,
        as now)."""
        found = list(here)
        seen = {m["table"] for m in found}
        gone = []
        for node, raw in (await self.redis.hgetall(self._live_key)).items():
            name = node.decode() if isinstance(node, bytes) else str(node)
            if name == self.node:
                continue
            entry = json.loads(raw)
            if time.time() - float(entry["at"]) > LIVE_FRESH_SECONDS:
                gone.append(name)
                continue
            for match in entry["matches"]:
                if match["table"] not in seen:
                    seen.add(match["table"])
                    found.append(match)
        if gone:
            await self.redis.hdel(self._live_key, *gone)
        return found

    async def _heartbeat(self) -> None:
        await self.redis.set(self._alive_key(self.node), "1",
                             px=int(self.settings.lease_seconds * 1000))

    # ------------------------------------------------------------------ leases

    async def _renew(self) -> None:
        await self._heartbeat()
        started = time.monotonic()
        for table_id in await self.leases.renew():
            metrics.lease_moved("lost")
            log.warning("table %s: lease lost; another node owns it now", table_id)
            self.let_go(table_id)
        if time.monotonic() - started > self.settings.lease_seconds / 4:
            metrics.lease_moved("renewed_late")

    def let_go(self, table_id: str) -> None:
        """The table is not this node's any more (lease lost, or a write fenced): stop it
        without writing, and move its sockets (in the background: never inside the
        table's own actor)."""
        assert self.lobby is not None
        asyncio.get_running_loop().create_task(self.lobby.drop(table_id))

    async def _adopt(self) -> None:
        """Take over every live table that nobody holds (its node died)."""
        lobby = self.lobby
        assert lobby is not None
        ids = [t for t in await lobby.store.live_tables() if lobby.table(t) is None]
        if not ids:
            return
        owners = await self.leases.owners(ids)
        orphans = [t for t, owner in owners.items() if owner is None]
        random.shuffle(orphans)  # survivors share the adoption
        for table_id in orphans:
            if await lobby.adopt(table_id) is not None:
                metrics.lease_moved("adopted")

    # ------------------------------------------------------------------ forwarding

    async def owner(self, table_id: str) -> str | None:
        return await self.leases.owner(table_id)

    def forward(self, conn_id: str, table_id: str, owner: str, outbox: Outbox,  # noqa: PLR0913
                player_id: str | None, address: str = "", account: bool = False) -> Forwarded:
        """A socket of this node for a table ``owner`` holds: attach it there (with its
        client's address and whether it is signed in to an account, for the spectators'
        limits)."""
        entry = Forwarded(conn_id, table_id, owner, outbox)
        self.forwarded[conn_id] = entry
        self.relay.publish(owner, AttachMessage(conn_id, table_id, player_id, self.node,
                                                address, account))
        return entry

    def pass_on(self, entry: Forwarded, text: str) -> None:
        self.relay.publish(entry.owner, InMessage(entry.conn_id, text))

    def unforward(self, entry: Forwarded) -> None:
        if self.forwarded.pop(entry.conn_id, None) is not None:
            self.relay.publish(entry.owner, DetachMessage(entry.conn_id))

    def _on_out(self, message: OutMessage) -> None:
        entry = self.forwarded.get(message.conn)
        if entry is not None:
            entry.outbox.put(message.text)

    def _on_close(self, message: CloseMessage) -> None:
        entry = self.forwarded.get(message.conn)
        if entry is not None:
            entry.outbox.close(message.reason, message.code, flush=True)

    async def _watch(self) -> None:
        """Forwarded sockets whose table moved are closed (their clients reconnect);
        remote sockets whose forwarder died are detached."""
        if self.forwarded:
            entries = list(self.forwarded.values())
            owners = await self.leases.owners({e.table_id for e in entries})
            for entry in entries:
                if owners.get(entry.table_id) != entry.owner:
                    entry.outbox.close("the table moved to another node", MOVED_CODE)
        if self.remote:
            nodes = sorted({conn.node for _, conn in self.remote.values()})
            alive = await self.redis.mget([self._alive_key(n) for n in nodes])
            dead = {n for n, a in zip(nodes, alive, strict=True) if a is None}
            for conn_id, (_table_id, conn) in list(self.remote.items()):
                if conn.node in dead:
                    # Told too, should it only have stalled: a socket it still holds would
                    # otherwise wait for a table that no longer hears it.
                    conn.close("the table lost sight of this server", MOVED_CODE)
                    await self._detach(conn_id)

    # ------------------------------------------------------------------ the owner's side

    async def _on_attach(self, message: AttachMessage) -> None:
        assert self.lobby is not None
        conn_id, table_id = message.conn, message.table
        table = self.lobby.table(table_id)
        conn = RemoteConnection(self.relay, message.sender, conn_id)
        if table is None:  # not ours (any more): the client reconnects to the owner
            conn.close("the table moved to another node", MOVED_CODE)
            return
        self.remote[conn_id] = (table_id, conn)
        await table.inbox.put(Attach(conn, message.player or None, message.address,
                                     message.account))

    async def _on_in(self, message: InMessage) -> None:
        assert self.lobby is not None
        found = self.remote.get(message.conn)
        if found is None:
            return
        table_id, conn = found
        table = self.lobby.table(table_id)
        if table is None:
            return
        try:
            client_message = parse_client_message(message.text)
        except ProtocolError as exc:  # the forwarder checked it: only a newer protocol
            conn.put(error_message(exc))
            return
        await table.inbox.put(Incoming(conn, client_message))

    async def _detach(self, conn_id: str) -> None:
        assert self.lobby is not None
        found = self.remote.pop(conn_id, None)
        if found is None:
            return
        table_id, conn = found
        conn.closed = True
        table = self.lobby.table(table_id)
        if table is not None:
            await table.inbox.put(Detach(conn))

    def forget_table(self, table_id: str) -> None:
        """The table left this node: its remote sockets are not ours to track."""
        for conn_id, (tid, _) in list(self.remote.items()):
            if tid == table_id:
                del self.remote[conn_id]

    async def _on_call(self, message: CallMessage) -> None:
        """``join`` or ``fill_bot`` asked on another node, for a table of ours."""
        assert self.lobby is not None
        node, call_id, op = message.sender, message.id, message.op
        table = self.lobby.table(op.table)
        if table is None:
            self.relay.reply(node, call_id, Refused("table/moved",
                                                    "the table moved to another node"))
            return
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        match op:
            case JoinCall():
                await table.inbox.put(Join(op.player, op.nickname, future, op.account,
                                           op.username, op.seat))
            case FillBotCall():
                await table.inbox.put(FillBot(op.seat, op.level, op.player, future))
            case _:
                assert_never(op)

        async def answer() -> None:
            try:
                seat_no = await asyncio.wait_for(future, 10)
            except Refusal as exc:
                self.relay.reply(node, call_id, Refused(exc.code, exc.message))
            except Exception:
                log.exception("table %s: a forwarded %s failed", table.row.id, op.name)
                self.relay.reply(node, call_id, Refused("server/internal",
                                                        "the server could not do that"))
            else:
                self.relay.reply(node, call_id, Seated(seat_no))

        asyncio.get_running_loop().create_task(answer())

    async def ask(self, owner: str, op: CallOp) -> Answer:
        """Ask the node that owns a table to do ``op``: its answer (TimeoutError after
        :data:`~basra.server.cluster.relay.CALL_TIMEOUT`)."""
        return await self.relay.call(owner, op)
