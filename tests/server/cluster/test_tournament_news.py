"""A tournament's news between nodes, on this machine's real Redis (it fails, never skips,
when absent): one batch (pages of the standings, players' own rows, the matches shown) is
one message on the bus, and each node hands each of its watchers its part only: the page
it shows, its player's row, what is for everyone; the event's other messages and "you are
paired" reach the right pages too; a node hears of the event's news (to drop what it
kept of the event for reads), not of one player's."""

from __future__ import annotations

import asyncio

from redis.asyncio import Redis

from basra.server.cluster.tournaments import RedisAudience
from basra.server.tournaments.audience import News, Watcher
from server.cluster.test_cluster import REDIS, prefix


class Box:
    """An outbox that keeps what it is given."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    def put(self, text: str) -> None:
        self.texts.append(text)


def test_a_batch_of_news_reaches_each_page_on_every_node_as_its_own() -> None:
    async def run() -> None:
        redis = Redis.from_url(REDIS)
        keys = prefix()
        a, b = RedisAudience(redis, keys), RedisAudience(redis, keys)
        await a.start()
        await b.start()
        boxes = {name: Box() for name in ("a1", "a2", "b1", "b2", "b3", "other")}
        watchers = [(a, Watcher("ev", None, boxes["a1"], page=1)),  # type: ignore[arg-type]
                    (a, Watcher("ev", "amira", boxes["a2"], page=2)),  # type: ignore[arg-type]
                    (b, Watcher("ev", "badr", boxes["b1"], page=1)),  # type: ignore[arg-type]
                    (b, Watcher("ev", "amira", boxes["b2"], page=3)),  # type: ignore[arg-type]
                    (b, Watcher("ev", None, boxes["b3"], page=9)),  # type: ignore[arg-type]
                    (b, Watcher("ev2", "badr", boxes["other"], page=1))]  # type: ignore[arg-type]
        for audience, watcher in watchers:
            audience.watch(watcher)
        heard: list[str] = []
        b.on_news(heard.append)  # (the tournaments' reads kept: dropped on the event's news)
        try:
            await asyncio.sleep(0.2)  # both subscribed
            await a.news("ev", News(everyone=["all"], pages={1: "page 1", 3: "page 3"},
                                    players={"amira": "amira's row"}))
            await b.tell("ev", "badr", "badr is paired")
            await b.publish("ev", "the event started")
            for _ in range(100):
                if len(boxes["b2"].texts) == 4 and len(boxes["a2"].texts) == 3:
                    break
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.1)
            assert boxes["a1"].texts == ["all", "page 1", "the event started"]
            assert boxes["a2"].texts == ["all", "amira's row", "the event started"]
            assert boxes["b1"].texts == ["all", "page 1", "badr is paired",
                                         "the event started"]
            assert boxes["b2"].texts == ["all", "page 3", "amira's row", "the event started"]
            assert boxes["b3"].texts == ["all", "the event started"]
            assert boxes["other"].texts == []  # another event's page hears nothing of it
            assert heard == ["ev", "ev"]  # the batch and the event's message, not a word
            # to one player
        finally:
            for audience, watcher in watchers:
                audience.unwatch(watcher)
            await a.stop()
            await b.stop()
            stale = [k async for k in redis.scan_iter(f"{keys}*")]
            if stale:
                await redis.delete(*stale)
            await redis.aclose()

    asyncio.run(run())
