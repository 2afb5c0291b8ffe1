"""What a table sends: the public table JSON (seats, clock, fairness, rematch), each seat's
``state``, each seat's ``played`` message after a play that keeps the round going, and the
fan-out to every connection without ever awaiting a socket.

Each connection gets its own seat's message (a spectator the public one), and the message
of a seat is encoded once for all its connections. What is sent is read from a
:class:`TableState`: only what a snapshot shows, never the actor or its inbox.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from basra.game.cards import NAMES, names_of
from basra.game.engine import Match, legal_plays
from basra.match.driver import MatchDriver
from basra.server.config import Limits
from basra.server.table.clock import Timers
from basra.server.table.commands import Command, Connection, Detach
from basra.server.table.seats import Seat, Seats
from basra.server.table.seeding import Seeding
from basra.server.wire.server_messages import Played, ServerMessage, State, encode
from basra.store.base import TableRow, TableStatus


class TableState(Protocol):
    """What a snapshot of a table reads: the table's row and status, its seats (with their
    presence, seed parts and rematch votes), the match (its driver), the clock, the seed
    window, the rematch and the result, and how many watch. The match's flow
    (:class:`~basra.server.table.flow.TableFlow`) is one."""

    @property
    def row(self) -> TableRow: ...

    @property
    def status(self) -> TableStatus: ...

    @property
    def version(self) -> int: ...

    @property
    def seats(self) -> Seats: ...

    @property
    def driver(self) -> MatchDriver: ...

    @property
    def timers(self) -> Timers: ...

    @property
    def seeding(self) -> Seeding: ...

    @property
    def clock_seconds(self) -> float:
        """The turn clock's length."""

    @property
    def rematch_table(self) -> str | None: ...

    @property
    def result(self) -> dict[str, Any] | None: ...

    @property
    def spectators(self) -> int:
        """How many spectators watch."""

    def to_play(self) -> int | None:
        """The seat to move, while the table is playing."""


def phase(table: TableState) -> str:
    """``waiting``, ``arriving``, ``seeding``, ``playing``, ``finished`` or ``abandoned``."""
    if table.status in ("waiting", "finished", "abandoned"):
        return table.status
    if table.timers.arrival is not None:
        return "arriving"
    return "seeding" if table.seeding.open else "playing"


def fairness_json(table: TableState) -> dict[str, Any]:
    """The commitment of the round now seeding or in play (``current``) and every finished
    round's seeds (``revealed``): a server seed is never shown before its round ends."""
    match = table.driver.match
    revealed = []
    current = None
    for r in table.driver.rounds:
        finished = r.client_seed is not None and (
            r.number < match.rounds_started or not match.in_round or match.over)
        entry: dict[str, Any] = {"round": r.number, "commitment": r.commitment,
                                 "client_seed": r.client_seed}
        if finished:
            revealed.append({**entry, "server_seed": r.server_seed, "nonce": r.number})
        else:
            current = entry
    if current is not None and table.seeding.open:
        current["parts_sent"] = [s.part is not None if s.human else None
                                 for s in table.seats]
    return {"current": current, "revealed": revealed}


def seat_kind(seat: Seat) -> str:
    """``human``, ``bot`` or ``empty``."""
    return "human" if seat.human else ("bot" if seat.bot_level else "empty")


def player_json(seat: Seat, you: int | None) -> dict[str, Any]:
    return {
        "seat": seat.number,
        "name": seat.name,
        "kind": seat_kind(seat),
        "connected": bool(seat.connections) if seat.human else None,
        "bot_playing": seat.takeover,
        "client_seed": seat.part if seat.number == you else None,
        "rematch": seat.rematch,
        "account": seat.account,
        "rating": seat.rating,
        "said": seat.sayings.count,
    }


def table_json(table: TableState, seat: int | None) -> dict[str, Any]:
    """The public table as ``seat`` (None: a spectator) is shown it."""
    clock = table.timers.clock_json(table.to_play(), table.clock_seconds)
    out: dict[str, Any] = {
        "id": table.row.id,
        "kind": table.row.kind,
        "variant": table.row.variant,
        "seats": table.row.seats,
        "teams": table.row.teams,
        "bot_level": table.row.bot_level,
        "status": table.status,
        "phase": phase(table),
        "players": [player_json(s, seat) for s in table.seats],
        "clock": clock,
        "fairness": fairness_json(table),
        "rematch_table": table.rematch_table,
        "resigned": table.driver.resigned,
        "rated": table.row.rated,
        "result": table.result,
        "spectators": table.spectators,
        "next_round": (table.seeding.next_round_json(table.driver.next_round, table.seats)
                       if table.timers.arrival is None else None),
    }
    if seat is not None and table.row.invite_code:
        out["invite_code"] = table.row.invite_code
    return out


def state_for(table: TableState, seat: int | None) -> State:
    return State(table.version, seat, table_json(table, seat),
                 table.driver.view(seat).to_json())


def played_for(table: TableState, by_bot: bool) -> Callable[[int | None], Played]:
    """Each seat's ``played`` message (None: a spectator's) after the play just applied,
    which kept the round going: what every seat may see is worked out once, and only the
    hand and the legal plays are the seat's own. The fields are the view's, as
    :func:`basra.game.views.view` makes them for a round in play (``turn`` is the round's)."""
    match = table.driver.match
    rnd = match.round
    assert rnd is not None and rnd.log is not None and match.in_round
    last = rnd.log
    turn = rnd.turn
    common: dict[str, Any] = {
        "version": table.version, "round": match.rounds_started, "seat": last.seat,
        "card": NAMES[last.card], "take": names_of(last.take), "basra": last.basra,
        "by_bot": by_bot, "turn": turn, "deal": rnd.deal_number,
        "hand_counts": [h.bit_count() for h in rnd.hands], "floor": names_of(rnd.floor),
        "stock_count": rnd.stock_left, "pile_counts": [p.bit_count() for p in rnd.piles],
        "basras": list(rnd.basras), "basra_points": list(rnd.bonus),
        "last_taker": rnd.last_taker if rnd.last_taker >= 0 else None,
        "clock": table.timers.clock_json(table.to_play(), table.clock_seconds),
        "spectators": table.spectators,
    }

    def for_seat(seat: int | None) -> Played:
        if seat is None:
            return Played(hand=[], legal=[], **common)
        legal = [p.to_json() for p in legal_plays(rnd)] if seat == turn else []
        return Played(hand=names_of(rnd.hand(seat)), legal=legal, **common)

    return for_seat


def result_json(match: Match, resigned: int | None = None) -> dict[str, Any]:
    """A finished match's result as the store keeps it (``resigned``: the seat whose
    player resigned it)."""
    last = match.results[-1] if match.results else None
    sides = len(match.totals)
    out: dict[str, Any] = {"winner": match.winner,
                           "totals": list(last.totals) if last else list(match.totals),
                           "sets": list(match.sets),
                           "rounds": len(match.results),
                           "basras": [sum(r.basras[side] for r in match.results)
                                      for side in range(sides)],
                           "points": [sum(r.points[side] for r in match.results)
                                      for side in range(sides)]}
    if resigned is not None:
        out["resigned"] = resigned
    return out


SPECTATOR_STATE_FRESH = 0.25
"""Seconds the spectators' encoded full state is sent again as it is (same version)."""


class Audience:
    """Everyone connected to a table: the seats' connections and the spectators'."""

    def __init__(self, inbox: asyncio.Queue[Command]) -> None:
        self.inbox = inbox
        self.spectators: set[Connection] = set()
        self.watching_from: dict[Connection, str] = {}
        """Each spectator's address."""
        self.per_address: Counter[str] = Counter()
        """Spectators by address."""
        self.spectator_text: tuple[tuple[int, int], float, str] | None = None
        """The spectators' full state as last encoded: its (version, spectators), when."""
        self.lost: set[Connection] = set()
        """Connections their outbox closed, waiting for the actor to detach them."""

    def refuse_spectator(self, address: str, account: bool, limits: Limits) -> str | None:
        """Why one more spectator from ``address`` is not taken (None: it is). The last
        ``spectators_reserved`` places are kept for spectators signed in to an account, and
        one address takes at most ``spectators_per_address`` places."""
        room = limits.spectators_per_table - (0 if account else limits.spectators_reserved)
        if len(self.spectators) >= room:
            return ("this table has as many spectators as it takes: try again later, or "
                    "watch another match")
        if address and self.per_address[address] >= limits.spectators_per_address:
            return (f"at most {limits.spectators_per_address} spectators of one table from "
                    "one address")
        return None

    def watch(self, conn: Connection, address: str) -> None:
        self.spectators.add(conn)
        if address:
            self.watching_from[conn] = address
            self.per_address[address] += 1

    def unwatch(self, conn: Connection) -> None:
        self.spectators.discard(conn)
        address = self.watching_from.pop(conn, None)
        if address is not None:
            self.per_address[address] -= 1
            if self.per_address[address] <= 0:
                del self.per_address[address]

    def spectators_state(self, version: int, make: Callable[[], State]) -> str:
        """The spectators' full state, encoded once per version and number of spectators
        for at most :data:`SPECTATOR_STATE_FRESH` seconds (its clock's time left is that
        old at most): a crowd that joins or asks ``sync`` costs one encoding."""
        key = (version, len(self.spectators))
        now = time.monotonic()
        cached = self.spectator_text
        if cached is not None and cached[0] == key and now - cached[1] <= SPECTATOR_STATE_FRESH:
            return cached[2]
        text = encode(make())
        self.spectator_text = (key, now, text)
        return text

    def connections(self, seats: Seats) -> list[Connection]:
        return seats.connections() + list(self.spectators)

    def send(self, conn: Connection, message: ServerMessage | str) -> None:
        """Queue a message for one connection; a connection that cannot take it (its queue
        overflowed, or it stopped reading) is closed and counts as gone at once."""
        if not conn.put(message):
            self.lose(conn)

    def lose(self, conn: Connection) -> None:
        """A connection closed by its outbox: the actor detaches it next (once)."""
        if conn not in self.lost:
            self.lost.add(conn)
            self.inbox.put_nowait(Detach(conn))

    def send_seat(self, seat: Seat, state: State) -> None:
        text = encode(state)
        for conn in list(seat.connections):
            self.send(conn, text)

    def broadcast(self, seats: Iterable[Seat], message: Callable[[int | None], State | Played],
                  seeding: Seeding) -> None:
        """Every connection gets its own seat's message (``message(seat)``, ``message(None)``
        for the spectators: a ``state`` or a ``played`` message), encoded once per seat;
        while a round is seeding, each seat connection's commitment mark is taken."""
        for seat in seats:
            if seat.connections:
                text = encode(message(seat.number))
                for conn in list(seat.connections):
                    self.send(conn, text)
                    if seeding.open and conn in seat.connections:
                        seeding.mark(conn)
        if self.spectators:
            text = encode(message(None))
            for conn in list(self.spectators):
                self.send(conn, text)
