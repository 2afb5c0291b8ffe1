"""The leaver ladder (docs/MODERATION.md, "Leavers"), with the clock faked: the waits
after the first to the sixth leave, forgiveness after 7 days, and the service over a real
store (each back end) refusing quick match and tournaments with the reason in plain words
until the wait is over."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from basra.server.fairplay.leavers import FORGIVEN_AFTER, LADDER, leaver_state, wait_until
from basra.server.fairplay.service import FairPlay
from basra.server.wire.errors import ApiError
from basra.store import Store
from store.test_social import accounts
from store.test_store import run, seat, table

T = datetime(2026, 12, 6, 12, tzinfo=UTC)
MINUTE = timedelta(minutes=1)


def test_the_ladder_climbs_with_each_leave() -> None:
    expected = [0, 2, 5, 15, 60, 60]
    for count, minutes in enumerate(expected, 1):
        leaves = [T - (count - i) * timedelta(hours=1) for i in range(1, count)] + [T]
        until = wait_until(leaves, T)
        assert (until - T if until else timedelta(0)) == minutes * MINUTE, count
    assert [step // MINUTE for step in LADDER] == [0, 2, 5, 15, 60]


def test_the_wait_runs_from_the_last_leave_and_leaves_are_forgiven() -> None:
    leaves = [T - timedelta(days=2), T - timedelta(days=1), T]
    assert wait_until(leaves, T + 4 * MINUTE) == T + 5 * MINUTE
    assert wait_until(leaves, T + 5 * MINUTE) is None  # served
    # Six and a half days on, the first two are forgiven: the next leave is a second one.
    later = T + timedelta(days=6, hours=12)
    assert wait_until([*leaves, later], later) == later + 2 * MINUTE
    assert leaver_state([*leaves, later], later).left == 2
    assert wait_until([T - FORGIVEN_AFTER, T], T) is None  # forgiven at exactly 7 days


def test_the_message_says_why_and_how_long() -> None:
    state = leaver_state([T - timedelta(hours=2), T - timedelta(hours=1), T], T + MINUTE)
    assert state.message(T + MINUTE) == (
        "You left 3 matches before the end in the last 7 days: quick match and tournaments "
        "open again in 4 minutes")
    assert state.to_json(T + MINUTE)["wait_until"] == (T + 5 * MINUTE).isoformat()


class Clock:
    def __init__(self) -> None:
        self.now = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.now


async def nothing(*_: Any) -> None:
    return None


def test_the_service_refuses_until_the_wait_is_over(url: str) -> None:
    async def scenario(store: Store) -> None:
        [sami] = await accounts(store, "Sami")
        player = await store.player(sami)
        assert player is not None
        clock = Clock()
        fairplay = FairPlay(store, nothing, lambda: "Calm Heron 12", clock=clock)
        for number in range(3):  # three matches left, each written with its result
            table_id = f"t{number}"
            await store.create_table(table(table_id, status="playing"),
                                     [seat(0, sami), seat(1, bot="easy")])
            await store.finish_table(table_id, {"winner": 1, "left": [0]})
            clock.now = datetime.now(UTC)
            if number == 0:
                await fairplay.may_play(player, rated=True)  # the first costs nothing
        assert await store.completion(sami) == (3, 3)
        with pytest.raises(ApiError) as refused:
            await fairplay.may_play(player)
        assert refused.value.code == "fairplay/leaver_wait"
        assert "You left 3 matches before the end" in str(refused.value)
        me = await fairplay.me_json(player)
        assert me["leaver"]["left"] == 3 and me["leaver"]["wait_until"] is not None
        clock.now += 5 * MINUTE + timedelta(seconds=1)
        await fairplay.may_play(player)  # served
        clock.now += FORGIVEN_AFTER
        assert (await fairplay.leaver(sami)).left == 0  # forgiven

    run(url, scenario)
