"""Quick match's pools without a server: the one pairing pass
(:func:`basra.server.quick.pools.pair_waiting`) and the :class:`PoolStore` port, the same
scenarios run on one process's pools (:class:`MemoryPools`) and on a cluster's shared
ones (:class:`RedisQueue`, on the real Redis at 127.0.0.1:6379, which fails, never
skips, when it is down): who is paired, seated first, rated, woken; lapsed, requeued,
claimed and left tickets."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from datetime import UTC, datetime

import pytest
from redis.asyncio import Redis

from basra.ratings import Rating
from basra.server.cluster.pools import RedisQueue
from basra.server.config import Settings
from basra.server.quick.memory import MemoryPools
from basra.server.quick.pools import PoolStore, Waiting, pair_waiting, rated_pair
from basra.store.base import PlayerRow

REDIS = "redis://127.0.0.1:6379/0"
LAPSE = 0.3


def player(name: str, account: bool = False) -> PlayerRow:
    return PlayerRow(name.lower(), name, datetime.now(UTC),
                     username=name if account else None)


@asynccontextmanager
async def pools_of(kind: str) -> AsyncIterator[PoolStore]:
    if kind == "memory":
        yield MemoryPools(LAPSE)
        return
    redis = Redis.from_url(REDIS)
    prefix = f"test-pools-{uuid.uuid4().hex[:8]}:"
    settings = replace(Settings(), redis_prefix=prefix, ticket_lapse_seconds=LAPSE)
    try:
        yield RedisQueue(redis, settings)
    finally:
        keys = [key async for key in redis.scan_iter(f"{prefix}*")]
        if keys:
            await redis.delete(*keys)
        await redis.aclose()


Made = list[tuple[str, str, str, bool]]


def recorder(made: Made) -> Callable[[PlayerRow, PlayerRow, str, bool], Awaitable[str]]:
    async def make_table(first: PlayerRow, second: PlayerRow, variant: str,
                         rated: bool) -> str:
        made.append((first.id, second.id, variant, rated))
        return f"table-{len(made)}"

    return make_table


def run(kind: str, scenario: Callable[[PoolStore], Awaitable[None]]) -> None:
    async def main() -> None:
        async with pools_of(kind) as pools:
            await scenario(pools)

    asyncio.run(main())


KINDS = ["memory", "redis"]


@pytest.mark.parametrize("kind", KINDS)
def test_two_waiting_are_paired_the_longer_waiting_first(kind: str) -> None:
    async def scenario(pools: PoolStore) -> None:
        amira, badr = player("Amira", True), player("Badr", True)
        first = await pools.join(amira, "egyptian", Rating())
        await asyncio.sleep(0.05)
        second = await pools.join(badr, "egyptian", Rating())
        assert (await pools.join(amira, "egyptian", Rating())).id == first.id  # the same
        made: Made = []
        assert await pools.pair_pools(recorder(made)) == 1
        assert made == [("amira", "badr", "egyptian", True)]
        for ticket, who in ((first, amira), (second, badr)):
            found = await pools.find(ticket.id, who)
            assert found is not None and (found.table_id, found.rated) == ("table-1", True)
            await pools.wait(found, time.monotonic() + 1, None)  # matched: at once
            assert found.table_id == "table-1"
        assert await pools.find(first.id, badr) is None  # not Badr's
        assert await pools.pair_pools(recorder(made)) == 0  # nobody left

    run(kind, scenario)


@pytest.mark.parametrize("kind", KINDS)
def test_a_waiting_poll_wakes_when_paired(kind: str) -> None:
    async def scenario(pools: PoolStore) -> None:
        amira, badr = player("Amira"), player("Badr")
        ticket = await pools.join(amira, "lebanese", Rating())
        await pools.join(badr, "lebanese", Rating())
        waiting = asyncio.create_task(pools.wait(ticket, time.monotonic() + 5, None))
        await asyncio.sleep(0.1)
        made: Made = []
        assert await pools.pair_pools(recorder(made)) == 1
        started = time.monotonic()
        await asyncio.wait_for(waiting, 2)
        assert time.monotonic() - started < 1
        assert (ticket.table_id, ticket.rated) == ("table-1", False)  # guests: casual

    run(kind, scenario)


@pytest.mark.parametrize("kind", KINDS)
def test_a_ticket_nobody_waits_on_lapses(kind: str) -> None:
    async def scenario(pools: PoolStore) -> None:
        await pools.join(player("Amira"), "egyptian", Rating())
        await asyncio.sleep(LAPSE + 0.2)
        pools.sweep(time.monotonic(), 60)
        await pools.join(player("Badr"), "egyptian", Rating())
        made: Made = []
        assert await pools.pair_pools(recorder(made)) == 0
        assert made == []

    run(kind, scenario)


@pytest.mark.parametrize("kind", KINDS)
def test_claimed_requeued_and_left(kind: str) -> None:
    async def scenario(pools: PoolStore) -> None:
        amira, badr, camil = player("Amira"), player("Badr"), player("Camil")
        ticket = await pools.join(amira, "egyptian", Rating())
        assert await pools.claim(ticket)  # took a bot instead
        await pools.matched(ticket, "bot-table")
        assert ticket.table_id == "bot-table"
        gone = await pools.join(badr, "egyptian", Rating())
        await pools.leave(gone)
        assert await pools.find(gone.id, badr) is None
        # a rival never came: Camil is put back, as if he had waited 20 s
        requeued = await pools.requeue(camil, "egyptian", 20.0, Rating())
        found = await pools.find(requeued, camil)
        assert found is not None and 19 < time.monotonic() - found.since < 25
        dana = player("Dana")
        await pools.join(dana, "egyptian", Rating())
        made: Made = []
        assert await pools.pair_pools(recorder(made)) == 1
        assert made == [("camil", "dana", "egyptian", False)]  # the longer waiting first
        assert not await pools.claim(found)  # matched: no bot any more

    run(kind, scenario)


@pytest.mark.parametrize("kind", KINDS)
def test_a_table_that_cannot_be_made_leaves_both_waiting(kind: str) -> None:
    async def scenario(pools: PoolStore) -> None:
        for name in ("Amira", "Badr"):
            await pools.join(player(name), "serbian", Rating())
        calls = []

        async def failing(first: PlayerRow, second: PlayerRow, variant: str,
                          rated: bool) -> str:
            calls.append(first.id)
            raise RuntimeError("the database is down")

        assert await pools.pair_pools(failing) == 0
        made: Made = []
        assert await pools.pair_pools(recorder(made)) == 1
        assert calls == ["amira"] and len(made) == 1

    run(kind, scenario)


@pytest.mark.parametrize("kind", KINDS)
def test_no_rematch_in_a_row_while_someone_else_waits(kind: str) -> None:
    async def scenario(pools: PoolStore) -> None:
        amira, badr, camil = player("Amira"), player("Badr"), player("Camil")
        for p in (amira, badr):
            await pools.join(p, "egyptian", Rating())
        made: Made = []
        assert await pools.pair_pools(recorder(made)) == 1
        for p in (amira, badr, camil):
            await pools.join(p, "egyptian", Rating())
            await asyncio.sleep(0.02)
        assert await pools.pair_pools(recorder(made)) == 1
        assert {made[1][0], made[1][1]} != {"amira", "badr"}

    run(kind, scenario)


def test_the_pass_pairs_by_rating_and_stops_when_its_lock_is_lost() -> None:
    async def main() -> None:
        pool = [Waiting("t1", player("A", True), 5.0, Rating(1500, 50)),
                Waiting("t2", player("B", True), 9.0, Rating(1900, 50)),
                Waiting("t3", player("C", True), 1.0, Rating(1520, 50)),
                Waiting("t4", player("D", True), 2.0, Rating(1880, 50))]
        made: Made = []
        marked: list[tuple[str, str, str, bool]] = []

        async def matched(a: Waiting, b: Waiting, table_id: str, rated: bool) -> None:
            marked.append((a.ticket_id, b.ticket_id, table_id, rated))

        assert await pair_waiting("egyptian", pool, recorder(made), matched) == 2
        assert sorted(made) == [("a", "c", "egyptian", True), ("b", "d", "egyptian", True)]
        assert sorted(marked) == [("t1", "t3", "table-1", True), ("t2", "t4", "table-2", True)
                                  ] or sorted(marked) == [("t1", "t3", "table-2", True),
                                                          ("t2", "t4", "table-1", True)]
        lost = [True, False]

        async def held() -> bool:
            return lost.pop(0)

        assert await pair_waiting("egyptian", pool, recorder([]), matched, held) == 1

    asyncio.run(main())


def test_the_rated_rule() -> None:
    assert rated_pair([player("A", True), player("B", True)])
    assert not rated_pair([player("A", True), player("B")])
    assert not rated_pair([player("A", True)])
