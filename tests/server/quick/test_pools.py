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
from basra.server.quick.pools import Pool, PoolStore, Waiting, pair_waiting, rated_table
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


Made = list[tuple[str, ...]]


def recorder(made: Made) -> Callable[[Pool, list[PlayerRow], bool], Awaitable[str]]:
    """A table maker that notes each table: its players' ids in seat order, the pool's
    key and whether it is rated (``"rated"`` or ``"casual"``)."""
    async def make_table(pool: Pool, players: list[PlayerRow], rated: bool) -> str:
        made.append((*(p.id for p in players), pool.key, "rated" if rated else "casual"))
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
        first = await pools.join(amira, Pool("egyptian"), Rating())
        await asyncio.sleep(0.05)
        second = await pools.join(badr, Pool("egyptian"), Rating())
        assert (await pools.join(amira, Pool("egyptian"), Rating())).id == first.id  # the same
        made: Made = []
        assert await pools.pair_pools(recorder(made)) == 1
        assert made == [("amira", "badr", "egyptian", "rated")]
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
        ticket = await pools.join(amira, Pool("lebanese"), Rating())
        await pools.join(badr, Pool("lebanese"), Rating())
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
        await pools.join(player("Amira"), Pool("egyptian"), Rating())
        await asyncio.sleep(LAPSE + 0.2)
        pools.sweep(time.monotonic(), 60)
        await pools.join(player("Badr"), Pool("egyptian"), Rating())
        made: Made = []
        assert await pools.pair_pools(recorder(made)) == 0
        assert made == []

    run(kind, scenario)


@pytest.mark.parametrize("kind", KINDS)
def test_claimed_requeued_and_left(kind: str) -> None:
    async def scenario(pools: PoolStore) -> None:
        amira, badr, camil = player("Amira"), player("Badr"), player("Camil")
        ticket = await pools.join(amira, Pool("egyptian"), Rating())
        assert await pools.claim(ticket)  # took a bot instead
        await pools.matched(ticket, "bot-table")
        assert ticket.table_id == "bot-table"
        gone = await pools.join(badr, Pool("egyptian"), Rating())
        await pools.leave(gone)
        assert await pools.find(gone.id, badr) is None
        # a rival never came: Camil is put back, as if he had waited 20 s
        requeued = await pools.requeue(camil, Pool("egyptian"), 20.0, Rating())
        found = await pools.find(requeued, camil)
        assert found is not None and 19 < time.monotonic() - found.since < 25
        dana = player("Dana")
        await pools.join(dana, Pool("egyptian"), Rating())
        made: Made = []
        assert await pools.pair_pools(recorder(made)) == 1
        assert made == [("camil", "dana", "egyptian", "casual")]  # the longer waiting first
        assert not await pools.claim(found)  # matched: no bot any more

    run(kind, scenario)


@pytest.mark.parametrize("kind", KINDS)
def test_a_table_that_cannot_be_made_leaves_both_waiting(kind: str) -> None:
    async def scenario(pools: PoolStore) -> None:
        for name in ("Amira", "Badr"):
            await pools.join(player(name), Pool("serbian"), Rating())
        calls = []

        async def failing(pool: Pool, players: list[PlayerRow], rated: bool) -> str:
            calls.append(players[0].id)
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
            await pools.join(p, Pool("egyptian"), Rating())
        made: Made = []
        assert await pools.pair_pools(recorder(made)) == 1
        for p in (amira, badr, camil):
            await pools.join(p, Pool("egyptian"), Rating())
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

        async def matched(seated: list[Waiting], table_id: str, rated: bool) -> None:
            a, b = seated
            marked.append((a.ticket_id, b.ticket_id, table_id, rated))

        assert await pair_waiting(Pool("egyptian"), pool, recorder(made), matched) == 2
        assert sorted(made) == [("a", "c", "egyptian", "rated"),
                                ("b", "d", "egyptian", "rated")]
        assert sorted(marked) == [("t1", "t3", "table-1", True), ("t2", "t4", "table-2", True)
                                  ] or sorted(marked) == [("t1", "t3", "table-2", True),
                                                          ("t2", "t4", "table-1", True)]
        lost = [True, False]

        async def held() -> bool:
            return lost.pop(0)

        assert await pair_waiting(Pool("egyptian"), pool, recorder([]), matched, held) == 1

    asyncio.run(main())


def test_the_rated_rule() -> None:
    assert rated_table([player("A", True), player("B", True)])
    assert rated_table([player(n, True) for n in "ABCD"])
    assert not rated_table([player("A", True), player("B")])
    assert not rated_table([player("A", True)])


@pytest.mark.parametrize("kind", KINDS)
def test_four_alone_fill_a_table_of_two_sides(kind: str) -> None:
    async def scenario(pools: PoolStore) -> None:
        teams = Pool("serbian", 4, True)
        ratings = {"Amira": 1500, "Badr": 1580, "Camil": 1510, "Dana": 1570}
        tickets = {}
        for name, rating in ratings.items():
            tickets[name] = await pools.join(player(name), teams, Rating(rating, 100))
            await asyncio.sleep(0.02)
        assert tickets["Amira"].pool == teams
        # another seating's pool is another pool
        await pools.join(player("Eve"), Pool("serbian"), Rating())
        made: Made = []
        assert await pools.pair_pools(recorder(made)) == 1
        # sides as close as can be: Amira & Badr (3080) v Camil & Dana (3080);
        # seats 0 and 2 against 1 and 3, the longest waiting first
        assert made == [("amira", "camil", "badr", "dana", "serbian:2x2", "casual")]
        for name, ticket in tickets.items():
            found = await pools.find(ticket.id, player(name))
            assert found is not None and found.table_id == "table-1"
            assert (found.players, found.teams) == (4, True)

    run(kind, scenario)


@pytest.mark.parametrize("kind", KINDS)
def test_partners_sit_together_against_two_alone(kind: str) -> None:
    async def scenario(pools: PoolStore) -> None:
        teams = Pool("lebanese", 4, True)
        await pools.join(player("Amira", True), teams, Rating(), party="p1")
        await pools.join(player("Dana", True), teams, Rating(), party="p1")
        await pools.join(player("Badr", True), teams, Rating())
        made: Made = []
        assert await pools.pair_pools(recorder(made)) == 0  # three are not four
        await pools.join(player("Camil", True), teams, Rating())
        assert await pools.pair_pools(recorder(made)) == 1
        (seated,) = made
        assert {seated[0], seated[2]} == {"amira", "dana"}  # one side
        assert {seated[1], seated[3]} == {"badr", "camil"}
        assert seated[4:] == ("lebanese:2x2", "rated")

    run(kind, scenario)


@pytest.mark.parametrize("kind", KINDS)
def test_three_alone(kind: str) -> None:
    async def scenario(pools: PoolStore) -> None:
        three = Pool("lebanese", 3)
        for name in ("Amira", "Badr"):
            await pools.join(player(name), three, Rating())
        made: Made = []
        assert await pools.pair_pools(recorder(made)) == 0  # two are not three
        await pools.join(player("Camil"), three, Rating())
        assert await pools.pair_pools(recorder(made)) == 1
        assert made == [("amira", "badr", "camil", "lebanese:3", "casual")]

    run(kind, scenario)


def test_pool_keys() -> None:
    for pool in (Pool("egyptian"), Pool("lebanese", 3), Pool("lebanese", 4),
                 Pool("lebanese", 4, True), Pool("serbian", 4, True)):
        assert Pool.of_key(pool.key) == pool
    assert Pool("egyptian").key == "egyptian" and Pool("lebanese", 4, True).key == \
        "lebanese:2x2"


@pytest.mark.parametrize("kind", KINDS)
def test_a_partner_invite_is_answered_once_and_hands_the_host_a_ticket(kind: str) -> None:
    async def scenario(pools: PoolStore) -> None:
        amira, badr, camil = player("Amira"), player("Badr"), player("Camil")
        teams = Pool("lebanese", 4, True)
        invite = await pools.invite(amira, teams)
        found = await pools.invitation(invite.code)
        assert found is not None and found.status == "waiting" and found.pool == teams
        assert found.host.id == "amira"
        # the host waits on it; Badr's answer wakes the wait
        waiting = asyncio.create_task(pools.wait_invite(invite.code, time.monotonic() + 5))
        await asyncio.sleep(0.1)
        assert await pools.answer(invite.code, "accepted", badr)
        assert not await pools.answer(invite.code, "accepted", camil)  # once only
        host = await pools.join(amira, teams, Rating(), party=invite.code)
        mine = await pools.join(badr, teams, Rating(), party=invite.code)
        await pools.hand_ticket(invite.code, host.id, mine.id)
        answered = await asyncio.wait_for(waiting, 3)
        assert answered is not None and answered.status == "accepted"
        assert answered.host_ticket == host.id and answered.partner_ticket == mine.id
        assert answered.partner is not None and answered.partner.id == "badr"
        assert await pools.invitation("NOSUCHCODE") is None

    run(kind, scenario)


@pytest.mark.parametrize("kind", KINDS)
def test_a_partner_who_leaves_takes_the_other_out_of_the_pool(kind: str) -> None:
    async def scenario(pools: PoolStore) -> None:
        teams = Pool("serbian", 4, True)
        amira, badr = player("Amira"), player("Badr")
        mine = await pools.join(amira, teams, Rating(), party="P1")
        theirs = await pools.join(badr, teams, Rating(), party="P1")
        for name in ("Camil", "Dana"):
            await pools.join(player(name), teams, Rating())
        await pools.leave(theirs)
        made: Made = []
        assert await pools.pair_pools(recorder(made)) == 0
        found = await pools.find(mine.id, amira)
        assert found is not None and found.partner_left and found.table_id is None
        await pools.wait(found, time.monotonic() + 1, None)  # says so at once
        assert found.partner_left

    run(kind, scenario)
