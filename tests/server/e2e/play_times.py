"""How fast a table shows a play while something else loads the server: whole matches played
at machine speed with each play timed, and the bound that tells a slowed table from one that
is not. The stalled-socket and flood tests share it."""

from __future__ import annotations

import statistics
import time

from server_harness import Guest, over


async def timed_match(guest: Guest, matches: int = 1) -> list[float]:
    """Play whole matches (first legal play, rematch after each) and return, per play, the
    milliseconds from sending it to the state that shows it."""
    times: list[float] = []
    for _ in range(matches):
        sent = -1
        while True:
            state = await guest.until(lambda s, last=sent: over(s)
                                      or (guest.my_turn(s) and s["version"] > last))
            if over(state):
                break
            sent = state["version"]
            start = time.monotonic()
            await guest.play_first_legal()
            await guest.until(lambda s, last=sent: s["version"] > last)
            times.append((time.monotonic() - start) * 1000)
    return times


SLOW_MS = 1000
"""A bound that tells a table slowed by its stalled or flooding neighbours (frozen, or
seconds a play, before this was built) from one that is not, with room for a loaded 2-core
machine where client and server share a process; the figure itself (a p99 under 100 ms,
single milliseconds measured) is benchmarks/abuse.py's (docs/BENCHMARKS.md)."""


def p99(times: list[float]) -> float:
    return statistics.quantiles(times, n=100)[98]
