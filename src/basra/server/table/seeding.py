"""A pending round's seed window (FAIRNESS.md, "Seat parts"): the parts players send, when
the round may start, and the marks that tell the commitment reached every connection.

The round starts once every connected player sent a part for it (or said ready), or when
the window ends; never before each connection's outbox has sent a state holding the
round's commitment.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import Any

from basra.match.driver import RoundSeeds
from basra.server.table.commands import Connection
from basra.server.table.seats import Seat, Seats
from basra.server.wire.client_messages import ProtocolError, SeedMessage


class Seeding:
    """The seed window of a table's pending round (closed while no round is pending)."""

    def __init__(self) -> None:
        self.deadline: float | None = None
        """When the window ends; None while it is closed."""
        self.seconds = 0.0
        """How long the window is."""
        self.commit_marks: dict[Connection, int] = {}
        """How many messages each connection must have been sent for the round's
        commitment to have reached it."""

    @property
    def open(self) -> bool:
        return self.deadline is not None

    def start(self, seats: Seats, seconds: float) -> None:
        """Open the window: no part sent, nobody ready yet."""
        seats.open_round()
        self.commit_marks.clear()
        self.seconds = seconds
        self.deadline = time.monotonic() + seconds

    def next_round_json(self, round_number: int, seats: Iterable[Seat]) -> dict[str, Any] | None:
        """``table.next_round`` while the window is open: the round, the time left, and
        the connected players it still waits for."""
        if self.deadline is None:
            return None
        left = max(0, int((self.deadline - time.monotonic()) * 1000))
        waiting = [s.number for s in seats if s.human and s.connected and not s.ready]
        return {"round": round_number, "remaining_ms": left, "seconds": self.seconds,
                "waiting_for": waiting}

    def close(self) -> None:
        self.deadline = None
        self.commit_marks.clear()

    def mark(self, conn: Connection) -> None:
        """``conn`` was just put a state holding the commitment."""
        self.commit_marks.setdefault(conn, conn.queued)

    def forget(self, conn: Connection) -> None:
        self.commit_marks.pop(conn, None)

    def delivered(self, seats: Iterable[Seat]) -> bool:
        """Whether the pending round's commitment reached every connected player."""
        for seat in seats:
            for conn in seat.connections:
                if conn.closed:
                    continue
                mark = self.commit_marks.get(conn)
                if mark is None or not conn.delivered(mark):
                    return False
        return True

    def may_start(self, seats: Iterable[Seat], window_over: bool = False) -> bool:
        """Whether the pending round may start now."""
        if self.deadline is None:
            return False
        window_over = window_over or time.monotonic() >= self.deadline
        everyone = all(s.ready for s in seats if s.human and s.connected)
        return (window_over or everyone) and self.delivered(seats)

    def check_part(self, rounds: Sequence[RoundSeeds], seat: Seat,
                   message: SeedMessage) -> None:
        """A part is for the pending round only, and never one this seat used before."""
        pending = rounds[-1] if rounds else None
        if self.deadline is None or pending is None:
            if pending is not None and message.round == pending.number:
                raise ProtocolError(f"round {pending.number} has started: its client seed "
                                    "is fixed", "seed/round_started")
            raise ProtocolError(f"round {message.round} is not waiting for client seeds",
                                "seed/wrong_round")
        if message.round != pending.number:
            raise ProtocolError(f"round {pending.number} is waiting for client seeds, not "
                                f"round {message.round}", "seed/wrong_round")
        for earlier in rounds[:-1]:
            used = (earlier.client_seed or "").split("|")
            if seat.number < len(used) and used[seat.number] == message.client_seed:
                raise ProtocolError(f"that part was used in round {earlier.number}: send a "
                                    "fresh one for each round", "seed/reused")


def parts(seats: Iterable[Seat]) -> list[str | None]:
    """Each seat's part of the client seed: the one its player sent, or None (a bot, or a
    player who sent none: the part derived from the committed server seed)."""
    return [seat.part if seat.human else None for seat in seats]
