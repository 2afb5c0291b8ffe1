"""Cluster mode's :class:`~basra.server.social.relay.Relay`: messages for players' pages and
who is online, through Redis, so that a player connected to one node hears a challenge made
on another, and followers on every node hear them come online.

- ``{prefix}social``: one pub/sub channel; every node hands each message to the pages it
  holds (:class:`~basra.server.social.presence.Presence`).
- ``{prefix}online:{player}``: a hash, a field per node holding a page of the player's (its
  value the time the node last said so). The node that adds the first field publishes that
  the player came online, the one that removes the last that they went offline. Every node
  says again every :data:`REFRESH_SECONDS` for the players it holds; a field older than
  :data:`STALE_SECONDS` (its node died) does not count, and the key expires with them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Collection
from typing import Any

import orjson
from redis.asyncio import Redis
from redis.asyncio.client import PubSub

from basra.server.social.relay import Hub, Listener

log = logging.getLogger("basra.cluster.social")

REFRESH_SECONDS = 20.0
STALE_SECONDS = 60.0
REFRESH_AT_ONCE = 200
"""Players said again in one pipeline (about 4 ms of the loop's time)."""


class RedisRelay:
    """Every node's pages through Redis."""

    def __init__(self, redis: Redis, hub: Hub, node: str, prefix: str = "basra:") -> None:
        self.redis = redis
        self.hub = hub
        self.node = node
        self.prefix = prefix
        self.channel = f"{prefix}social"
        self.listeners: list[Listener] = []
        self.pubsub: PubSub | None = None
        self.tasks: list[asyncio.Task[None]] = []

    def _key(self, player_id: str) -> str:
        return f"{self.prefix}online:{player_id}"

    def listen(self, listener: Listener) -> None:
        self.listeners.append(listener)

    async def start(self) -> None:
        self.pubsub = self.redis.pubsub()
        await self.pubsub.subscribe(self.channel)
        self.tasks = [asyncio.create_task(self._listen(), name="social relay"),
                      asyncio.create_task(self._refresh_forever(), name="social presence")]

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        if self.pubsub is not None:
            with contextlib.suppress(Exception):
                await self.pubsub.aclose()
        with contextlib.suppress(Exception):  # this node's pages are gone with it
            for player_id in list(self.hub.pages):
                await self.redis.hdel(self._key(player_id), self.node)

    async def publish(self, message: dict[str, Any]) -> None:
        await self.redis.publish(self.channel, orjson.dumps(message))

    async def _listen(self) -> None:
        assert self.pubsub is not None
        while True:
            try:
                got = await self.pubsub.get_message(ignore_subscribe_messages=True,
                                                    timeout=1.0)
                if got is None:
                    continue
                message = orjson.loads(got["data"])
                for listener in self.listeners:
                    listener(message)
            except asyncio.CancelledError:
                raise
            except Exception:  # one bad message, or Redis away for a moment
                log.exception("social relay: a message was lost")
                await asyncio.sleep(0.5)

    @staticmethod
    def _live(fields: dict[Any, Any], now: float) -> int:
        return sum(1 for value in fields.values() if now - float(value) < STALE_SECONDS)

    async def mark(self, player_id: str, online: bool) -> bool:
        key = self._key(player_id)
        now = time.time()
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hgetall(key)
            if online:
                pipe.hset(key, self.node, repr(now))
                pipe.expire(key, int(STALE_SECONDS * 2))
            else:
                pipe.hdel(key, self.node)
            before = (await pipe.execute())[0]
        others = {k: v for k, v in before.items()
                  if (k.decode() if isinstance(k, bytes) else k) != self.node}
        return self._live(others, now) == 0

    async def online(self, player_ids: Collection[str]) -> set[str]:
        ids = list(player_ids)
        if not ids:
            return set()
        async with self.redis.pipeline(transaction=False) as pipe:
            for player_id in ids:
                pipe.hvals(self._key(player_id))
            found = await pipe.execute()
        now = time.time()
        return {player_id for player_id, values in zip(ids, found, strict=True)
                if any(now - float(v) < STALE_SECONDS for v in values)}

    async def refresh(self) -> None:
        """Say again that this node holds its players' pages, :data:`REFRESH_AT_ONCE`
        players a pipeline: one pipeline of 5,000 players held the event loop for 100 ms
        (building the commands and reading the replies), every page's messages waiting."""
        now = repr(time.time())
        players = list(self.hub.pages)
        for start in range(0, len(players), REFRESH_AT_ONCE):
            async with self.redis.pipeline(transaction=False) as pipe:
                for player_id in players[start:start + REFRESH_AT_ONCE]:
                    if player_id not in self.hub.pages:
                        continue  # gone while the earlier batches went: not said again
                    pipe.hset(self._key(player_id), self.node, now)
                    pipe.expire(self._key(player_id), int(STALE_SECONDS * 2))
                await pipe.execute()

    async def _refresh_forever(self) -> None:
        while True:
            await asyncio.sleep(REFRESH_SECONDS)
            try:
                await self.refresh()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("social presence: the refresh failed")
