"""The garbage collector's pacing (basra.server.gc_pacing): survivors are frozen, so the
collections that run see only what is new; garbage in cycles among frozen objects is freed
by the full pass."""

from __future__ import annotations

import asyncio
import gc
import weakref

from basra.server.gc_pacing import GcPacer


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
        pacer = GcPacer(freeze_seconds=0.02, full_seconds=0.1)
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
