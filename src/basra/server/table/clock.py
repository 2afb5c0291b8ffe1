"""A table's timers. The turn clock and the wait for arrivals are kept here; the seed window
(``Seeding.deadline``), the grace period of dropped players (``Seats.grace_ends``) and the
unattended waiting table (``TableFlow.unattended_at``) are kept where they belong and passed
in. The actor sleeps on its inbox until the first one falls due
(:meth:`Timers.next_timeout`)."""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any


class Timers:
    """The deadlines a table keeps (monotonic seconds; None: not running)."""

    def __init__(self) -> None:
        self.turn: float | None = None
        """The turn clock of the player to move; at zero the seat's bot plays."""
        self.arrival: float | None = None
        """The first round waits for seated players until then."""

    def next_timeout(self, others: Iterable[float | None]) -> float | None:
        """Seconds until the first of these timers and ``others`` falls due, or None."""
        times = [t for t in (self.turn, self.arrival, *others) if t is not None]
        if not times:
            return None
        return max(0.0, min(times) - time.monotonic())

    def clock_json(self, seat: int | None, seconds: float) -> dict[str, Any] | None:
        """The turn clock as the table's JSON shows it."""
        if self.turn is None:
            return None
        left = max(0, int((self.turn - time.monotonic()) * 1000))
        return {"seat": seat, "seconds": seconds, "remaining_ms": left}
