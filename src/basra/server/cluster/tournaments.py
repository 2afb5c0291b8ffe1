"""Tournaments across a cluster's nodes: who directs each event, who watches it, who is
there.

- :class:`LeasedLeadership`: a node directs an event while it holds the event's lease
  (``{prefix}tournament:lease:{id}``, as tables have theirs: :mod:`.leases`), renewed a few
  times per time to live. A node that dies lets its leases lapse, and the next node whose
  tick finds the event leaderless takes it over, reloading it from the store.
- :class:`RedisAudience`: the watchers of this node (:class:`LocalAudience`), the news of
  every event published once on one channel (``{prefix}tournament-news``) that every node
  hears and hands to its own watchers, and presence as a sorted set per event
  (``{prefix}tournament-present:{id}``: player -> when a node last saw their page), kept
  fresh by each node for its own watchers every :data:`PRESENCE_REFRESH` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Coroutine
from typing import Any

import orjson
from redis.asyncio import Redis
from redis.asyncio.client import PubSub

from basra.server.cluster.leases import Leases
from basra.server.tournaments.audience import LocalAudience, News, Watcher

log = logging.getLogger("basra.cluster.tournaments")

PRESENCE_REFRESH = 2.0
"""How often a node marks its watchers' players present again."""
PRESENCE_TTL = 6.0
"""A player no node has marked present for this long is gone."""


class LeasedLeadership:
    """A node leads the events whose lease it holds."""

    def __init__(self, redis: Redis, node: str, ttl: float, prefix: str = "basra:") -> None:
        self.leases = Leases(redis, node, ttl, f"{prefix}tournament:")
        self.ttl = ttl
        self.task: asyncio.Task[None] | None = None

    async def lead(self, tournament_id: str) -> bool:
        if self.leases.holds(tournament_id):
            return True
        return await self.leases.acquire(tournament_id)

    async def let_go(self, tournament_id: str) -> None:
        await self.leases.release(tournament_id)

    def start(self) -> None:
        self.task = asyncio.create_task(self._renew_forever(), name="tournament leases")

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        for tournament_id in list(self.leases.until):
            with contextlib.suppress(Exception):
                await self.leases.release(tournament_id)

    async def _renew_forever(self) -> None:
        while True:
            await asyncio.sleep(self.ttl / 4)
            try:
                lost = await self.leases.renew()
            except Exception:  # Redis away: the leases lapse; holds() says so in time
                log.exception("tournament leases: renewal failed")
                continue
            for tournament_id in lost:
                log.warning("tournament %s: lease lost", tournament_id)


class RedisAudience(LocalAudience):
    """This node's watchers, and every node's news and presence through Redis."""

    def __init__(self, redis: Redis, prefix: str = "basra:") -> None:
        super().__init__()
        self.redis = redis
        self.prefix = prefix
        self.channel = f"{prefix}tournament-news"
        self.pubsub: PubSub | None = None
        self.tasks: list[asyncio.Task[None]] = []
        self.pending: set[asyncio.Task[None]] = set()
        """Presence writes under way (a socket never waits for Redis)."""

    def _present_key(self, tournament_id: str) -> str:
        return f"{self.prefix}tournament-present:{tournament_id}"

    async def start(self) -> None:
        self.pubsub = self.redis.pubsub()
        await self.pubsub.subscribe(self.channel)
        self.tasks = [asyncio.create_task(self._listen(), name="tournament news"),
                      asyncio.create_task(self._refresh_forever(), name="tournament presence")]

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        await self.close()
        if self.pubsub is not None:
            with contextlib.suppress(Exception):
                await self.pubsub.aclose()

    async def _listen(self) -> None:
        assert self.pubsub is not None
        while True:
            try:
                message = await self.pubsub.get_message(ignore_subscribe_messages=True,
                                                        timeout=1.0)
                if message is None:
                    continue
                news = orjson.loads(message["data"])
                if "p" not in news:  # the event's news, not one player's word
                    for listener in self.listeners:
                        listener(news["t"])
                if "n" in news:
                    batch = news["n"]
                    self.deliver_news(news["t"], News(
                        batch["e"], {int(page): text for page, text in batch["g"].items()},
                        batch["m"]))
                else:
                    self.deliver(news["t"], news["x"], news.get("p"))
            except asyncio.CancelledError:
                raise
            except Exception:  # one bad message, or Redis away for a moment
                log.exception("tournament news: a message was lost")
                await asyncio.sleep(0.5)

    async def publish(self, tournament_id: str, text: str) -> None:
        await self.redis.publish(self.channel, orjson.dumps({"t": tournament_id, "x": text}))

    async def tell(self, tournament_id: str, player_id: str, text: str) -> None:
        await self.redis.publish(self.channel, orjson.dumps(
            {"t": tournament_id, "p": player_id, "x": text}))

    async def news(self, tournament_id: str, news: News) -> None:
        # One message for the batch, whatever its pages and players: each node hands each
        # of its watchers its part.
        await self.redis.publish(self.channel, orjson.dumps({"t": tournament_id, "n": {
            "e": news.everyone, "g": {str(page): text for page, text in news.pages.items()},
            "m": news.players}}))

    def watch(self, watcher: Watcher) -> None:
        super().watch(watcher)
        if watcher.player_id is not None:
            self._mark(watcher.tournament_id, [watcher.player_id])

    def unwatch(self, watcher: Watcher) -> None:
        super().unwatch(watcher)
        player = watcher.player_id
        if player is not None and player not in self.players.get(watcher.tournament_id, {}):
            self._later(self._gone(watcher.tournament_id, player))

    async def _gone(self, tournament_id: str, player_id: str) -> None:
        # Another node with the player's page marks them again within PRESENCE_REFRESH.
        with contextlib.suppress(Exception):
            await self.redis.zrem(self._present_key(tournament_id), player_id)

    def _mark(self, tournament_id: str, players: list[str]) -> None:
        self._later(self._mark_now(tournament_id, players))

    def _later(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)

    async def _mark_now(self, tournament_id: str, players: list[str]) -> None:
        key = self._present_key(tournament_id)
        now = time.time()
        with contextlib.suppress(Exception):
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.zadd(key, dict.fromkeys(players, now))
                pipe.zremrangebyscore(key, 0, now - PRESENCE_TTL)
                pipe.expire(key, int(PRESENCE_TTL * 10))
                await pipe.execute()

    async def _refresh_forever(self) -> None:
        while True:
            await asyncio.sleep(PRESENCE_REFRESH)
            for tournament_id in list(self.players):
                players = list(self.present_here(tournament_id))
                if players:
                    await self._mark_now(tournament_id, players)

    async def present(self, tournament_id: str) -> set[str]:
        found = await self.redis.zrangebyscore(self._present_key(tournament_id),
                                               time.time() - PRESENCE_TTL, "+inf")
        return {p.decode() if isinstance(p, bytes) else str(p) for p in found}
