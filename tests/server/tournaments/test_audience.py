"""An event's news reaches its watchers in order; to a large audience a slice at a time,
with the event loop running between slices (the tables' plays with it)."""

from __future__ import annotations

import asyncio
import logging

import pytest

from basra.server.table.outbox import Outbox
from basra.server.tournaments.audience import DELIVER_AT_ONCE, LocalAudience, News, Watcher
from basra.server.wire.server_messages import ServerMessage


class Socket:
    async def send_text(self, data: str) -> None:
        raise AssertionError("nothing is sent in this test")

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        return None


def _watchers(audience: LocalAudience, count: int) -> list[Watcher]:
    watchers = [Watcher("t1", f"p{n}", Outbox(Socket()), page=1 + n % 3) for n in range(count)]
    for watcher in watchers:
        audience.watch(watcher)
    return watchers


def _got(watcher: Watcher) -> list[str]:
    return [text for _, text in watcher.outbox.queue]


def test_a_small_audience_hears_at_once() -> None:
    async def scenario() -> None:
        audience = LocalAudience()
        watchers = _watchers(audience, 3)
        await audience.news("t1", News(["all"], {1: "page 1", 2: "page 2"}, {"p2": "mine"}))
        await audience.publish("t1", "event")
        assert [_got(w) for w in watchers] == [["all", "page 1", "event"],
                                               ["all", "page 2", "event"],
                                               ["all", "mine", "event"]]

    asyncio.run(scenario())


def test_a_large_audience_hears_a_slice_at_a_time_in_order() -> None:
    async def scenario() -> None:
        audience = LocalAudience()
        count = 2 * DELIVER_AT_ONCE + 50
        watchers = _watchers(audience, count)
        await audience.news("t1", News(["counts"], {1: "page 1"}, {"p3": "mine"}))
        await audience.publish("t1", "event")
        await audience.tell("t1", f"p{count - 1}", "paired")  # one player's word: at once
        assert [_got(w) for w in watchers if _got(w)] == [["paired"]]
        handed = []
        while audience.backlog:  # the loop runs between slices
            await asyncio.sleep(0)
            handed.append(sum("counts" in _got(w) for w in watchers))
        assert handed[:3] == [DELIVER_AT_ONCE, 2 * DELIVER_AT_ONCE, count], handed
        assert _got(watchers[0]) == ["counts", "page 1", "event"]
        assert _got(watchers[3]) == ["counts", "page 1", "mine", "event"]
        assert _got(watchers[5]) == ["counts", "event"]
        assert _got(watchers[-1]) == ["paired", "counts", "event"]
        audience.unwatch(watchers[0])  # the next news skips a page that closed
        await audience.publish("t1", "again")
        while audience.backlog:
            await asyncio.sleep(0)
        assert _got(watchers[0])[-1] == "event" and _got(watchers[1])[-1] == "again"

    asyncio.run(scenario())


def test_a_page_that_opens_meanwhile_gets_only_what_came_after_it() -> None:
    async def scenario() -> None:
        audience = LocalAudience()
        watchers = _watchers(audience, DELIVER_AT_ONCE + 10)
        small = Watcher("t2", "q1", Outbox(Socket()))
        audience.watch(small)
        await audience.publish("t1", "old")
        late = Watcher("t1", "p-late", Outbox(Socket()))
        audience.watch(late)  # its first message had "old" in it already
        await audience.publish("t2", "behind")  # a small event waits its turn
        assert _got(small) == []
        await audience.publish("t1", "new")
        while audience.backlog:
            await asyncio.sleep(0)
        assert _got(late) == ["new"]
        assert all(_got(w) == ["old", "new"] for w in watchers)
        assert _got(small) == ["behind"]
        await audience.close()

    asyncio.run(scenario())


def test_a_delivery_that_fails_does_not_hold_the_next(caplog: pytest.LogCaptureFixture) -> None:
    class Flaky(Outbox):
        failed = False

        def put(self, message: ServerMessage | str) -> bool:
            if not self.failed:
                self.failed = True
                raise RuntimeError("a broken outbox")
            return super().put(message)

    async def scenario() -> None:
        audience = LocalAudience()
        _watchers(audience, DELIVER_AT_ONCE + 1)
        flaky = Watcher("t1", None, Flaky(Socket()))
        audience.watch(flaky)
        await audience.publish("t1", "lost somewhere")
        await audience.publish("t1", "after")
        while audience.backlog:
            await asyncio.sleep(0)
        assert _got(flaky) == ["after"]
        await audience.close()

    with caplog.at_level(logging.ERROR, logger="basra.tournaments"):
        asyncio.run(scenario())
    assert "news not delivered to every page" in caplog.text
