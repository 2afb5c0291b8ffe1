"""The garbage collector's pacing (basra.server.gc_pacing): survivors are frozen, so the
collections that run see only what is new; garbage in cycles among frozen objects is freed
by the full pass."""

from __future__ import annotations

import asyncio
import gc
import math
import sys
import time
import weakref
from pathlib import Path
from unittest import mock

import httpx
import pytest

from basra.server.app import create_app, services_of
from basra.server.gc_pacing import GcPacer
from server_harness import Backend, at_a_bot_table, play_out, running_server


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def cycle() -> weakref.ref[Node]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def test_frozen_survivors_are_not_walked_and_the_full_pass_frees_their_cycles() -> None:
    async def scenario() -> None:
        pacer = GcPacer(freeze_seconds=0.05, full_seconds=3600)
        pacer.start()
        try:
            assert gc.get_freeze_count() > 0
            gc.disable()  # no collection of its own before the pacer freezes
            try:
                garbage = cycle()  # a cycle that becomes garbage at once...
                await asyncio.sleep(0.2)  # ... is frozen by the pacer...
            finally:
                gc.enable()
            gc.collect()
            assert garbage() is not None  # ... and no collection walks it
            pacer.full_pass()
            assert garbage() is None  # the full pass freed it
            assert pacer.full_passes == 1
            assert gc.get_freeze_count() > 0  # and froze the survivors again
            plain = [Node() for _ in range(10)]
            probe = weakref.ref(plain[0])
            del plain  # memory without cycles is freed at once, frozen or not
            assert probe() is None
        finally:
            await pacer.stop()
        assert gc.get_freeze_count() == 0  # stopped: nothing left frozen

    asyncio.run(scenario())


def test_the_full_pass_comes_by_itself() -> None:
    async def scenario() -> None:
        pacer = GcPacer(freeze_seconds=0.02, full_seconds=0.1, least_seconds=0.05)
        pacer.start()
        try:
            garbage = cycle()
            for _ in range(100):
                await asyncio.sleep(0.02)
                if pacer.full_passes:
                    break
            assert pacer.full_passes >= 1
            assert garbage() is None
        finally:
            await pacer.stop()

    asyncio.run(scenario())


def test_a_table_let_go_is_freed_without_the_garbage_collector(tmp_path: Path) -> None:
    """A finished table, evicted, leaves nothing behind in reference cycles: with the
    collector off, it is freed as soon as the lobby lets it go (under ``basra serve`` a
    cycle would wait for the full pass)."""
    settings = Backend("sqlite", tmp_path / "data").settings(
        rematch_window_seconds=0.2, sweep_seconds=0.05)
    app = create_app(settings)
    with running_server(settings, app) as base:
        async def scenario() -> weakref.ref[object]:
            async with httpx.AsyncClient() as http:
                guest = await at_a_bot_table(base, http, "Amira")
                lobby = services_of(app).lobby
                assert lobby is not None and len(lobby.tables) == 1
                table = weakref.ref(next(iter(lobby.tables.values())))
                gc.disable()
                await play_out(guest)
                await guest.close()
                for _ in range(200):
                    if not lobby.tables:
                        break
                    await asyncio.sleep(0.05)
                assert not lobby.tables  # evicted
                return table

        try:
            table = asyncio.run(scenario())
            for _ in range(100):  # the actor's last references go as its task ends
                if table() is None:
                    break
                time.sleep(0.05)
            assert table() is None
        finally:
            gc.enable()


def test_the_full_pass_is_paced_by_its_own_cost() -> None:
    """A cheap pass comes every ``least_seconds``; one that takes long, later, so that
    passes take at most ``cost_share`` of the time; never over ``full_seconds`` apart."""
    pacer = GcPacer(full_seconds=600, cost_share=0.005, least_seconds=20, cheap_seconds=0.1)
    assert pacer.next_interval(0.002) == 20
    assert pacer.next_interval(0.09) == 20  # cheap: garbage never waits long
    assert pacer.next_interval(0.2) == 40
    assert pacer.next_interval(10.0) == 600
    pacer.full_pass()  # a real pass: its own duration sets the next
    assert 20 <= pacer.interval <= 600 and pacer.full_passes == 1
    gc.unfreeze()


def test_growth_brings_the_full_pass_sooner() -> None:
    async def scenario() -> None:
        pacer = GcPacer(freeze_seconds=0.02, full_seconds=3600, full_growth_bytes=2**20)
        pacer.grew_live = False  # as if a pass had found garbage
        pacer.rss_after_full = 0  # as if the process had grown by all it holds
        assert pacer.growth_limit() == 2**20
        pacer.start()
        pacer.rss_after_full, pacer.grew_live = 0, False
        try:
            for _ in range(100):
                await asyncio.sleep(0.02)
                if pacer.full_passes:
                    break
            assert pacer.full_passes >= 1
            base = max(2**20, pacer.rss_after_full // 4)
            assert pacer.growth_limit() == (math.inf if pacer.grew_live else base)
        finally:
            await pacer.stop()

    asyncio.run(scenario())


class _Cycle:
    def __init__(self) -> None:
        self.me = self


def test_growth_that_is_live_waits_longer_for_the_next_pass() -> None:
    """After a pass that frees next to nothing (the process grew with live tables), growth
    brings no pass until the next one comes at its time; after a pass that frees garbage,
    a quarter of the process's size does again."""
    pacer = GcPacer(full_growth_bytes=2**20)
    try:
        pacer.full_pass()  # nothing much to free: what grew was live
        assert pacer.grew_live
        assert pacer.growth_limit() == math.inf
        held = [_Cycle() for _ in range(gc.get_freeze_count() // 50 + 10_000)]
        del held  # garbage in cycles, more than 1% of what a pass walks
        pacer.full_pass()
        assert not pacer.grew_live
        pacer.rss_after_full = 400 * 2**20
        assert pacer.growth_limit() == 100 * 2**20
    finally:
        gc.unfreeze()


def test_a_due_pass_waits_while_the_loop_is_busy() -> None:
    """A full pass stops the loop: while the loop is busy (a burst of openings), a pass
    that is due waits, then comes once the loop is quiet."""
    async def scenario() -> None:
        pacer = GcPacer(freeze_seconds=0.02, full_seconds=0.05, least_seconds=0.05,
                        busy_wait_seconds=10)
        pacer.start()
        try:
            busy_until = time.monotonic() + 0.6
            while time.monotonic() < busy_until:  # each turn of the loop takes 40 ms
                time.sleep(0.04)
                await asyncio.sleep(0)
            assert pacer.full_passes == 0
            for _ in range(100):
                await asyncio.sleep(0.02)
                if pacer.full_passes:
                    break
            assert pacer.full_passes >= 1
        finally:
            await pacer.stop()

    asyncio.run(scenario())


def test_the_next_pass_is_paced_by_what_it_would_cost_now() -> None:
    """A process that grew from a few tables to thousands since its last, cheap, pass
    is not stopped for a second on the old, short, schedule: the next pass is paced by
    the last one's time, grown as the objects have grown since."""
    pacer = GcPacer(least_seconds=20, cost_share=0.001, cheap_seconds=0.05)
    pacer.last_took = 0.01
    assert pacer.predicted_seconds() == pytest.approx(0.01, rel=0.5)  # has not grown
    held = [[number] for number in range(200_000)]  # the process grows by its objects
    assert pacer.predicted_seconds() > 0.012
    del held
    pacer.last_blocks = sys.getallocatedblocks() // 100  # since grown a hundredfold
    assert pacer.predicted_seconds() >= 0.9
    assert pacer.next_interval(pacer.predicted_seconds()) == 600
    assert pacer.predicted_seconds(blocks=pacer.last_blocks * 50) == pytest.approx(0.5)


def test_pacing_never_counts_the_frozen_objects() -> None:
    """Counting the frozen objects walks them all (90 ms at 2,000 live tables): the
    pacer's every-second check must not, only a full pass does, once."""
    async def scenario() -> None:
        pacer = GcPacer(freeze_seconds=0.01)
        pacer.start()
        try:
            with mock.patch.object(gc, "get_freeze_count",
                                   side_effect=AssertionError("counted")) as counted:
                await asyncio.sleep(0.1)
            assert counted.call_count == 0
            assert pacer.task is not None and not pacer.task.done()
        finally:
            await pacer.stop()

    asyncio.run(scenario())
