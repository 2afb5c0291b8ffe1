"""Quick phrases and reactions at a table: a fixed list, never free text, so nothing a player
sends can insult in any language and each reader sees the phrase in their own language (the
server sends ids; the client has the words).

A seat may say :data:`PER_MATCH` things a match (phrases and reactions together), at least
:data:`GAP_SECONDS` apart; a spectator says nothing. Muting is the reader's own (the
client hides a muted seat's phrases), so it needs nothing here.
"""

from __future__ import annotations

from dataclasses import dataclass

from basra.server.wire.errors import Refusal

PHRASES = ("hello", "good_luck", "have_fun", "well_played", "thanks", "good_game", "bye")
REACTIONS = ("clap", "laugh", "wow", "sad", "heart")
PER_MATCH = 12
"""Phrases and reactions a seat may send in one match."""
GAP_SECONDS = 2.0
"""The least time between two of one seat's (``Settings.saying_gap_seconds``, by default)."""


class SayingRefused(Refusal):
    """A phrase or reaction the table does not pass on (``say/...``)."""

    code = "say/unknown"


@dataclass(slots=True)
class Sayings:
    """What one seat has said this match: how many, and when last."""

    count: int = 0
    last: float | None = None

    def take(self, now: float, gap: float = GAP_SECONDS) -> int:
        """Count one more saying at ``now`` (``time.monotonic()``), at least ``gap``
        seconds after the last; its number in the match. Raises :class:`SayingRefused`
        past the limits."""
        if self.count >= PER_MATCH:
            raise SayingRefused(f"you have said {PER_MATCH} things this match: that is the "
                                "most", "say/limit")
        if self.last is not None and now - self.last < gap:
            wait = gap - (now - self.last)
            raise SayingRefused(f"one phrase at a time: wait {wait:.1f} s", "say/too_fast")
        self.count += 1
        self.last = now
        return self.count


__all__ = ["GAP_SECONDS", "PER_MATCH", "PHRASES", "REACTIONS", "SayingRefused", "Sayings"]
