"""Cluster presence's refresh, on this machine's real Redis (it fails, never skips, when
absent): every page this node holds is said again, in pipelines of a bounded size, so that
a node with thousands of pages never holds its event loop for one long pipeline; a player
who left while the earlier batches went is not said again."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from redis.asyncio import Redis
from redis.asyncio.client import Pipeline

from basra.server.cluster import social
from basra.server.cluster.social import RedisRelay
from basra.server.social.relay import Hub
from server.cluster.test_cluster import REDIS, prefix


def test_the_refresh_says_every_page_again_in_bounded_pipelines(
        monkeypatch: pytest.MonkeyPatch) -> None:
    hub = Hub()
    sizes: list[int] = []
    execute = Pipeline.execute

    left: list[str] = []

    async def counted(pipe: Pipeline, raise_on_error: bool = True) -> list[Any]:
        sizes.append(len(pipe.command_stack))
        done = await execute(pipe, raise_on_error)
        if left:  # a player of a later batch leaves while this one went
            hub.pages.pop(left[0], None)
        return done

    monkeypatch.setattr(Pipeline, "execute", counted)

    async def run() -> None:
        redis = Redis.from_url(REDIS)
        keys = prefix()
        players = [f"p{i}" for i in range(2 * social.REFRESH_AT_ONCE + 7)]
        for player in players:
            hub.pages[player] = set()
        left.append(players[-1])
        relay = RedisRelay(redis, hub, "node-a", prefix=keys)
        try:
            before = time.time()
            await relay.refresh()
            assert sizes == [2 * social.REFRESH_AT_ONCE, 2 * social.REFRESH_AT_ONCE, 12]
            assert await relay.online(players) == set(players[:-1])
            said = await redis.hget(f"{keys}online:{players[-2]}", "node-a")
            assert said is not None and float(said) >= before
            assert 0 < await redis.ttl(f"{keys}online:{players[0]}") <= 2 * social.STALE_SECONDS
        finally:
            stale = [k async for k in redis.scan_iter(f"{keys}*")]
            if stale:
                await redis.delete(*stale)
            await redis.aclose()

    asyncio.run(run())
