"""One table, one actor: an asyncio task that owns a match, its seats, clock and fairness.

Everything that happens at a table arrives as a command in its inbox
(:mod:`basra.server.table.commands`) and is handled one at a time, so no two plays race. A play
is checked once against the match's :class:`~basra.match.driver.MatchDriver`, committed to the
store, then applied (once) and broadcast, in that order. Each connection is sent its own
seat's view, never more; the server seed of a round is sent only once the round is over.
The concerns around the actor live next door: the match's course (:mod:`~.flow`), seats
and arrivals (:mod:`~.seats`), the seed window (:mod:`~.seeding`), timers (:mod:`~.clock`),
bots (:mod:`~.thinking`), what is sent (:mod:`~.snapshot`, :mod:`~.messages`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar

from basra.bots import make_bot
from basra.bots.base import Bot
from basra.errors import IllegalPlayError
from basra.game.cards import NAMES, names_of
from basra.game.engine import legal_match_plays
from basra.server.config import Settings
from basra.server.table import seats as seating
from basra.server.table.clock import grace_ends, take_over
from basra.server.table.commands import (
    Attach,
    BotMove,
    Connection,
    Detach,
    Evict,
    FillBot,
    Handover,
    Incoming,
    Join,
    RematchHook,
    Stop,
)
from basra.server.table.flow import TableFlow
from basra.server.table.seats import Seat, SeatError, make_seat, seat_of, seat_of_player
from basra.server.wire.client_messages import (
    ClientMessage,
    PlayMessage,
    ProtocolError,
    SayMessage,
    SeedMessage,
    error_message,
)
from basra.server.wire.errors import Refusal
from basra.server.wire.sayings import SayingRefused
from basra.server.wire.server_messages import (
    REPLACED_MESSAGE,
    Away,
    Closed,
    Error,
    Hint,
    Pong,
    Requeued,
    Said,
    Welcome,
    encode,
)
from basra.store.base import SeatRow, Store, StoreError, TableLog, TableRow

log = logging.getLogger("basra.table")

RESUME_LEAST = 5.0
"""Seconds a rebuilt table's player to move has at least, whatever their stored clock says."""

MOVED_CODE = 1012
"""Close code of a connection whose table moved to another node (cluster mode)."""


def turn_began(log_: TableLog) -> float | None:
    """When (``time.time()``) the turn of a stored round in play began: its last play was
    stored then, or the round started then."""
    if not log_.rounds or log_.rounds[-1].client_seed is None:
        return None
    last = log_.rounds[-1]
    plays = [p.created_at for p in log_.plays if p.round_number == last.number]
    moment = plays[-1] if plays else last.started_at
    return None if moment is None else moment.timestamp()


class Table(TableFlow):
    """A table's actor. Create with :meth:`create` or :meth:`restore`, then :meth:`start`."""

    hinter: Bot | None = None
    """The medium bot that answers ``hint`` (made at the first one)."""
    HANDLERS: ClassVar[dict[type[Any], Callable[[Table, Any], Awaitable[None]]]]
    """Each command's handler (filled in below the class: plain functions, not bound
    methods, so that a table holds no reference cycle and is freed as soon as it is let
    go, without waiting for the garbage collector)."""

    # ------------------------------------------------------------------ construction

    @classmethod
    async def create(cls, row: TableRow, seat_rows: list[SeatRow], store: Store,
                     settings: Settings, on_rematch: RematchHook | None = None) -> Table:
        await store.create_table(row, seat_rows)
        seats = [make_seat(s, row, settings) for s in seat_rows]
        return cls(row, seats, store, settings, on_rematch)

    @classmethod
    def restore(cls, log_: TableLog, store: Store, settings: Settings,
                on_rematch: RematchHook | None = None) -> Table:
        """Rebuild a table from its stored log: every stored round is dealt again from its
        seeds and every stored play applied again, through the driver."""
        seats = [make_seat(s, log_.table, settings) for s in log_.seats]
        table = cls(log_.table, seats, store, settings, on_rematch)
        table.replay(log_)
        # Versions only grow, across restarts too: a message made on a state from before
        # the restart can never match a state after it.
        table.version = int(time.time() * 1000)
        table.timers.arrival = None
        for seat in table.seats:
            seat.arrived = True
        if table.status == "finished":
            table.finished_at = time.monotonic()
        table.turn_began = turn_began(log_)
        return table

    # ------------------------------------------------------------------ the actor

    def start(self) -> None:
        self.task = asyncio.create_task(self._run(), name=f"table {self.row.id}")

    async def evict(self) -> None:
        """Close every connection with a ``closed`` message, then stop the actor."""
        await self.stop(Evict())

    async def stop(self, command: Stop | Evict | Handover | None = None) -> None:
        if self.task is None:
            return
        await self.inbox.put(command or Stop())
        with contextlib.suppress(asyncio.CancelledError):
            await self.task
        await self.thinking.stop()

    async def _run(self) -> None:
        try:
            await self.show_ratings()
            await self._resume()
        except Exception:  # the timers take it from here
            log.exception("table %s: resuming failed", self.row.id)
        while True:
            timeout = self.timers.next_timeout([
                self.seeding.deadline, self._unattended_at(),
                *grace_ends(self.seats, self.settings.grace_seconds)])
            try:  # a timer due goes first; no task is made for a wait (asyncio.timeout)
                if timeout is not None and timeout <= 0:
                    raise TimeoutError
                if self.inbox.empty():
                    async with asyncio.timeout(timeout):
                        command = await self.inbox.get()
                else:
                    command = self.inbox.get_nowait()
            except TimeoutError:
                try:
                    await self._on_timers()
                except Exception:  # e.g. the store is down: try again in a moment
                    log.exception("table %s: a timer failed", self.row.id)
                    await asyncio.sleep(1.0)
                continue
            if isinstance(command, Stop | Evict | Handover):
                if isinstance(command, Evict):
                    self._evict()
                elif isinstance(command, Handover):
                    self._hand_over()
                return
            try:
                await self.HANDLERS[type(command)](self, command)
            except Exception:  # a table must never die of one bad command
                log.exception("table %s: command %s failed", self.row.id, type(command).__name__)
                if isinstance(command, Incoming):
                    self.audience.send(command.conn, Error("server/internal",
                                                           "the server could not do that"))

    async def _on_timers(self) -> None:
        now = time.monotonic()
        changed = take_over(self.seats, self.settings.grace_seconds, now)
        if self.timers.arrival is not None and now >= self.timers.arrival:
            await self._arrival_over()
            return
        unattended = self._unattended_at()
        if unattended is not None and now >= unattended:
            await self._abandon([])  # waiting for players, and nobody has it open
            return
        if self.seeding.deadline is not None and now >= self.seeding.deadline:
            if not await self._maybe_start(window_over=True):
                # The commitment has not reached every connected player yet: look again soon
                # (a connection that does not read is closed within its stall limit).
                self.seeding.deadline = now + 0.02
            return
        if self.timers.turn is not None and now >= self.timers.turn:
            self.timers.turn = None
            self._think(immediately=True)
        if changed:
            self._schedule_bot()
            self._broadcast()

    async def _resume(self) -> None:
        """After creation or restore: carry on from wherever the table is."""
        if self.status == "waiting" and seating.full(self.seats):
            await self._set_status("playing")
        if self.status != "playing" or self.timers.arrival is not None:
            self._broadcast()
            return
        if self.driver.match.winner is not None:
            await self._finish()
        elif self.driver.match.in_round:
            self._begin_turn()
            self._resume_clock()
            self._broadcast()
        elif self.driver.pending is not None:
            self._open_seeding()
            self._broadcast()
        else:
            await self._prepare_round()

    def _resume_clock(self) -> None:
        """A rebuilt table's turn clock goes on from its stored deadline (the turn began
        when the last play or the round's start was stored), with at least
        ``RESUME_LEAST`` seconds so that the player can reconnect and see their hand."""
        began, self.turn_began = self.turn_began, None
        if self.timers.turn is None or began is None:
            return
        left = began + self.settings.clock_seconds - time.time()
        least = min(RESUME_LEAST, self.settings.clock_seconds)
        self.timers.turn = time.monotonic() + max(least, min(left,
                                                             self.settings.clock_seconds))

    # ------------------------------------------------------------------ commands

    async def _incoming(self, command: Incoming) -> None:
        try:
            await self._message(command.conn, command.message)
        except Refusal as exc:  # refused: nothing changed (any other error is a fault)
            self.audience.send(command.conn, error_message(exc))

    async def _bot_move(self, command: BotMove) -> None:
        # Only the current thinking counts: a player who came back cancels it.
        if (self.thinking.busy and command.version == self.version
                and self.to_play() == command.seat):
            move = command.play
            try:
                after = self.driver.check(command.seat, move)
            except IllegalPlayError:  # a bot's fault: the table must not stall on it
                log.exception("table %s: the bot at seat %d chose %s, an illegal play; it "
                              "plays its first legal play", self.row.id, command.seat, move)
                move = legal_match_plays(self.driver.match)[0]
                after = self.driver.check(command.seat, move)
            try:
                await self._play(command.seat, move, after, by_bot=True)
            except StoreError:
                log.exception("table %s: a bot's play was not stored", self.row.id)
                self.thinking.done()
                self._schedule_bot()  # think again: the table must not stall

    async def _seating(self, command: Join | FillBot) -> None:
        if isinstance(command, Join):
            seated = seat_of_player(self.seats, command.player_id)
            if seated is not None:  # already here (the invite opened again): nothing changes
                if not command.future.done():
                    command.future.set_result(seated.number)
                return
        try:
            if isinstance(command, Join):
                number = seating.join(self.seats, self.status, command)
            else:
                number = seating.fill_bot(self.seats, self.row, self.status, command,
                                          self.settings)
        except SeatError as exc:
            if not command.future.done():
                command.future.set_exception(exc)
            return
        if not command.future.done():
            command.future.set_result(number)
        await self._after_seating()

    async def _attach(self, command: Attach) -> None:
        conn = command.conn
        seat = seat_of_player(self.seats, command.player_id)
        if conn.closed:
            return
        if seat is None:
            refused = self.audience.refuse_spectator(command.address, command.account,
                                                     self.settings.limits)
            if refused is not None:
                conn.put(Error("table/too_many_spectators", refused))
                conn.close("too many spectators", code=1013, flush=True)
                return
        self.empty_since = None
        if seat is None:
            self.audience.watch(conn, command.address)
        else:
            self._seat_connection(seat, conn)
        self.audience.send(conn, Welcome(self.row.id, None if seat is None else seat.number))
        if seat is None:  # nothing changed for anyone else
            self.audience.send(conn, self._spectators_state())
            return
        if self.timers.arrival is not None:
            if not seating.missing(self.seats):
                self.timers.arrival = None
                await self._prepare_round()
                return
            self.timers.arrival = min(self.timers.arrival, time.monotonic()
                                      + seating.arrival_wait(self.seats, self.row,
                                                             self.settings))
        self._broadcast()
        if seat.away:  # back: what a bot played for them meanwhile, in plain words
            self.audience.send(conn, Away(list(seat.away)))
            seat.away.clear()

    def _spectators_state(self) -> str:
        """The spectators' full state, encoded once for a crowd (snapshot.Audience)."""
        return self.audience.spectators_state(self.version, lambda: self.state_for(None))

    def _seat_connection(self, seat: Seat, conn: Connection) -> None:
        """A seat's player connects: the seat is theirs again (a bot stops playing it)."""
        seat.connections.add(conn)
        if len(seat.connections) > self.settings.limits.connections_per_seat:
            oldest = min(seat.connections, key=lambda c: c.opened)
            oldest.put(Closed("replaced", REPLACED_MESSAGE))
            oldest.close("replaced by a newer connection", code=1000, flush=True)
            self.audience.lose(oldest)
        seat.dropped_at = None
        seat.takeover = False
        seat.arrived = True
        if self.thinking.busy and self.to_play() == seat.number:
            self.thinking.cancel()
            self._begin_turn()

    async def _detach(self, command: Detach) -> None:
        conn = command.conn
        self.audience.lost.discard(conn)
        self.seeding.forget(conn)
        self.audience.unwatch(conn)
        if not self.audience.connections(self.seats):
            self.empty_since = time.monotonic()
        seat = seat_of(self.seats, conn)
        if seat is None:
            return
        seat.connections.discard(conn)
        if not seat.connections:
            seat.dropped_at = time.monotonic()
            self._broadcast()
            if self.seeding.open:
                await self._maybe_start()

    async def _message(self, conn: Connection, message: ClientMessage) -> None:
        seat = seat_of(self.seats, conn)
        if isinstance(message, PlayMessage):
            if seat is None:
                raise ProtocolError("spectators cannot play", "play/not_seated")
            await self._human_play(seat, message)
        elif isinstance(message, SeedMessage):
            await self._part(seat, message)
        elif isinstance(message, SayMessage):
            self._say(seat, message)
        elif message.type == "ping":
            self.audience.send(conn, Pong(self.version))
        elif message.type == "sync":  # a client that could not apply a played message
            self.audience.send(conn, self.state_for(seat.number) if seat is not None
                               else self._spectators_state())
        elif message.type == "ready":
            if seat is None:
                raise ProtocolError("spectators are never waited for", "ready/not_seated")
            if seat.ready or not self.seeding.open:
                return  # nothing changes: ready already, or no round is pending
            seat.ready = True
            if not await self._maybe_start():
                self.version += 1
                self._broadcast()  # everyone sees who is still reading the summary
        else:
            await self._request(conn, seat, message.type)

    async def _request(self, conn: Connection, seat: Seat | None, kind: str) -> None:
        """``rematch``, ``resign`` and ``hint``."""
        if kind == "rematch":
            await self._rematch_vote(seat)
        elif kind == "resign":
            if seat is None:
                raise ProtocolError("spectators cannot resign", "resign/not_seated")
            await self._resign(seat)
        elif kind == "hint":
            self.audience.send(conn, self._hint(seat))

    def _say(self, seat: Seat | None, message: SayMessage) -> None:
        """A quick phrase or reaction, to everyone at the table (seats and spectators);
        changes nothing of the match (no new version)."""
        if seat is None or not seat.human:
            raise SayingRefused("spectators watch in silence: only the players may say "
                                "something", "say/not_seated")
        count = seat.sayings.take(time.monotonic(), self.settings.saying_gap_seconds)
        text = encode(Said(seat.number, count, message.kind, message.what))
        for conn in self.audience.connections(self.seats):
            self.audience.send(conn, text)

    def _hint(self, seat: Seat | None) -> Hint:
        """The medium bot's play from the asking seat's view: only at a table against
        bots, on the player's own turn."""
        if self.row.kind != "bot":
            raise ProtocolError("hints are given only in games against bots",
                                "hint/not_allowed")
        if seat is None or self.to_play() != seat.number:
            raise ProtocolError("a hint is given on your own turn", "hint/not_your_turn")
        if self.hinter is None:
            self.hinter = make_bot("medium", seed=f"{self.row.id}:hint")
        move = self.hinter.choose(self.driver.view(seat.number))
        return Hint(self.version, NAMES[move.card], names_of(move.take))

    async def _part(self, seat: Seat | None, message: SeedMessage) -> None:
        if seat is None:
            raise ProtocolError("spectators have no client seed", "seed/not_seated")
        if self.status != "playing":
            raise ProtocolError("the match is not in play: no round waits for client seeds",
                                "seed/wrong_round")
        self.seeding.check_part(self.driver.rounds, seat, message)
        if seat.part == message.client_seed:
            return
        first = seat.part is None
        seat.part = message.client_seed
        seat.ready = True
        self.version += 1
        if first:  # everyone sees that this seat has sent its part
            self._broadcast()
        else:  # a changed part is news to its own seat only
            self.audience.send_seat(seat, self.state_for(seat.number))
        await self._maybe_start()

    # ------------------------------------------------------------------ the end

    async def _arrival_over(self) -> None:
        """Not every seated player came. A quick-match table is given up before its first
        card (the players who came are matched again); another table starts without the
        absent, whose seats are played by bots after the grace period; a table nobody
        came to is given up. Nobody waits on an absent player's clock."""
        self.timers.arrival = None
        present = seating.present(self.seats)
        if present and self.row.kind != "quick":
            await self._prepare_round()
            return
        await self._abandon(present)

    async def _abandon(self, present: list[str]) -> None:
        self.timers.arrival = None
        await self._set_status("abandoned")
        self.finished_at = time.monotonic()
        self.version += 1
        self._broadcast()
        tickets = await self.on_absent(self, present) if self.on_absent is not None else {}
        for seat in self.seats:
            ticket = tickets.get(seat.player_id or "")
            if ticket is None:
                continue
            for conn in list(seat.connections):
                self.audience.send(conn, Requeued(ticket, self.row.variant))

    def _evict(self) -> None:
        """Tell every connection the table leaves the server's memory (it is served from
        the store from now on), then close them."""
        closing = Closed(self.status)
        for conn in self.audience.connections(self.seats):
            conn.put(closing)
            conn.close("table closed", code=1000, flush=True)

    def _hand_over(self) -> None:
        """Close every connection with "service restart" (1012): each client reconnects
        and reaches the table's new owner."""
        for conn in self.audience.connections(self.seats):
            conn.close("the table moved to another node", code=MOVED_CODE)

    async def _rematch_vote(self, seat: Seat | None) -> None:
        if seat is None:
            raise ProtocolError("spectators cannot ask for a rematch", "rematch/not_seated")
        if self.status != "finished":
            raise ProtocolError("the match is not over yet", "rematch/not_over")
        if self.on_rematch is None:
            raise ProtocolError("the rematch window has closed", "rematch/closed")
        if seat.rematch:
            return  # asked already: nothing changes, nobody is sent anything
        seat.rematch = True
        everyone = all(s.rematch for s in self.seats if s.human)
        if self.rematch_table is None and everyone and self.on_rematch is not None:
            self.rematch_table = await self.on_rematch(self)
        self.version += 1
        self._broadcast()


Table.HANDLERS = {Attach: Table._attach, Detach: Table._detach, Incoming: Table._incoming,
                  BotMove: Table._bot_move, Join: Table._seating, FillBot: Table._seating}
