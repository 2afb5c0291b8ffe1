"""Leavers: a player who leaves matches (gone past the grace period and never back: their
bot finishes the match, the result says ``left``) waits before quick match and
tournaments, longer each time, and is forgiven with time (docs/MODERATION.md, "Leavers").

The rule, in one place:

- a leave counts for :data:`FORGIVEN_AFTER` (7 days), then it is forgiven;
- the first counted leave costs nothing (a dropped connection happens to anyone: the grace
  period is there for it); the second makes the player wait 2 minutes from that leave,
  the third 5, the fourth 15, the fifth and every one after 60 (:data:`LADDER`).

>>> from datetime import UTC, datetime, timedelta
>>> t = datetime(2026, 12, 6, 12, tzinfo=UTC)
>>> wait_until([t], t) is None
True
>>> wait_until([t - timedelta(hours=1), t], t) == t + timedelta(minutes=2)
True
>>> wait_until([t - timedelta(days=8), t], t) is None  # the older one is forgiven
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

FORGIVEN_AFTER = timedelta(days=7)
"""How long a leave counts against a player."""
LADDER = (timedelta(0), timedelta(minutes=2), timedelta(minutes=5), timedelta(minutes=15),
          timedelta(minutes=60))
"""The wait after the n-th counted leave (the last step for every one after)."""


def counted(leaves: Sequence[datetime], now: datetime) -> list[datetime]:
    """The leaves not yet forgiven at ``now``, oldest first."""
    return sorted(at for at in leaves if now - at < FORGIVEN_AFTER)


def wait_until(leaves: Sequence[datetime], now: datetime) -> datetime | None:
    """Until when a player who left at ``leaves`` waits before quick match and
    tournaments (None: they need not wait)."""
    kept = counted(leaves, now)
    if not kept:
        return None
    step = LADDER[min(len(kept), len(LADDER)) - 1]
    if not step:
        return None
    until = kept[-1] + step
    return until if until > now else None


@dataclass(frozen=True, slots=True)
class LeaverState:
    """What a player's leaves mean now: how many count, and the wait if any."""

    left: int
    until: datetime | None

    def message(self, now: datetime) -> str | None:
        """The wait in plain words (None: no wait)."""
        if self.until is None:
            return None
        minutes = max(1, math.ceil((self.until - now).total_seconds() / 60))
        return (f"You left {self.left} matches before the end in the last 7 days: quick "
                f"match and tournaments open again in {minutes} minute"
                f"{'' if minutes == 1 else 's'}")

    def to_json(self, now: datetime) -> dict[str, object]:
        return {"left": self.left,
                "wait_until": None if self.until is None else self.until.isoformat(),
                "message": self.message(now)}


def leaver_state(leaves: Sequence[datetime], now: datetime) -> LeaverState:
    return LeaverState(len(counted(leaves, now)), wait_until(leaves, now))


__all__ = ["FORGIVEN_AFTER", "LADDER", "LeaverState", "counted", "leaver_state",
           "wait_until"]
