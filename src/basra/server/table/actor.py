"""One table, one actor: an asyncio task that owns a match, its seats, clock and fairness.

Everything that happens at a table arrives as a command in its inbox
(:mod:`basra.server.table.commands`) and is handled one at a time, so no two plays race. A play
is checked once against the match's :class:`~basra.match.driver.MatchDriver`, committed to the
store, then applied (once) and broadcast, in that order. Each connection is sent its own
seat's view, never more; the server seed of a round is sent only once the round is over.

The actor is glue (as lila's ``RoundAsyncActor``): it inherits nothing, and the work is done
by the members it makes from the ports it is given. The match's course is its
:class:`~basra.server.table.flow.TableFlow`; seats and presence are
:class:`~basra.server.table.seats.Seats`; what a client's messages do is
:class:`~basra.server.table.incoming.Answers`; the seed window, timers, bots and what is sent
live in :mod:`~.seeding`, :mod:`~.clock`, :mod:`~.thinking` and :mod:`~.snapshot`. Its
ports: the table's record in the store, the settings, the bot workers, the players'
standing (rated tables), and the lobby's hooks for a rematch and for absent players.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar

from basra.errors import IllegalPlayError
from basra.game.engine import legal_match_plays
from basra.match.driver import MatchDriver
from basra.match.records import MatchRecord
from basra.server.config import Settings
from basra.server.table.commands import (
    Attach,
    BotMove,
    Command,
    Connection,
    Detach,
    Evict,
    FillBot,
    Handover,
    Incoming,
    Join,
    Stop,
)
from basra.server.table.flow import TableFlow
from basra.server.table.incoming import Answers
from basra.server.table.seats import Seat, SeatError, Seats
from basra.server.table.snapshot import Audience
from basra.server.table.standing import Standing
from basra.server.wire.client_messages import ProtocolError, SimpleMessage, error_message
from basra.server.wire.errors import Refusal
from basra.server.wire.server_messages import (
    REPLACED_MESSAGE,
    Away,
    Closed,
    Error,
    Requeued,
    State,
    Welcome,
)
from basra.store.base import SeatRow, StoreError, TableLog, TableRow, TableStatus
from basra.store.ports import TableStore
from basra.workers.service import BotService

log = logging.getLogger("basra.table")

MOVED_CODE = 1012
"""Close code of a connection whose table moved to another node (cluster mode)."""

RematchHook = Callable[["Table"], Awaitable[str | None]]
"""Called when every player at a finished table asked for a rematch: the new table's id."""
EndHook = Callable[[TableRow], None]
"""Called when the table's match ends (finished, or given up before its first card)."""
AbsentHook = Callable[["Table", list[str]], Awaitable[dict[str, str]]]
"""Called when a quick-match table is given up because matched players never came: with the
ids of the players who did come; returns each one's new quick-match ticket."""


class Table:
    """A table's actor. Create with :meth:`create` or :meth:`restore`, then :meth:`start`."""

    HANDLERS: ClassVar[dict[type[Any], Callable[[Table, Any], Awaitable[None]]]]
    """Each command's handler (filled in below the class: plain functions, not bound
    methods, so that a table holds no reference cycle and is freed as soon as it is let
    go, without waiting for the garbage collector)."""

    def __init__(  # noqa: PLR0913 - every port is an argument: nothing is set in afterwards
            self, row: TableRow, seats: Seats, store: TableStore, settings: Settings,
            on_rematch: RematchHook | None = None, *, on_absent: AbsentHook | None = None,
            bots: BotService | None = None, standing: Standing | None = None,
            on_end: EndHook | None = None) -> None:
        self.inbox: asyncio.Queue[Command] = asyncio.Queue()
        self.flow = TableFlow(row, seats, store, settings, self.inbox, bots=bots,
                              standing=standing, on_end=on_end)
        self.answers = Answers(self.flow)
        self.on_rematch = on_rematch
        """The lobby's rematch (None: the rematch window has closed)."""
        self.on_absent = on_absent
        self.task: asyncio.Task[None] | None = None
        self.background: set[asyncio.Task[None]] = set()
        """Reads under way beside the inbox (a seat's blocks)."""

    @classmethod
    async def create(  # noqa: PLR0913 - the constructor's ports
            cls, row: TableRow, seat_rows: list[SeatRow], store: TableStore,
            settings: Settings, on_rematch: RematchHook | None = None, *,
            on_absent: AbsentHook | None = None, bots: BotService | None = None,
            standing: Standing | None = None, on_end: EndHook | None = None) -> Table:
        await store.create_table(row, seat_rows)
        return cls(row, Seats.of_rows(seat_rows, row, settings), store, settings, on_rematch,
                   on_absent=on_absent, bots=bots, standing=standing, on_end=on_end)

    @classmethod
    def restore(  # noqa: PLR0913 - the constructor's ports
            cls, log_: TableLog, store: TableStore, settings: Settings,
            on_rematch: RematchHook | None = None, *, on_absent: AbsentHook | None = None,
            bots: BotService | None = None, standing: Standing | None = None,
            on_end: EndHook | None = None) -> Table:
        """Rebuild a table from its stored log: every stored round is dealt again from its
        seeds and every stored play applied again, through the driver."""
        seats = Seats.of_rows(log_.seats, log_.table, settings)
        table = cls(log_.table, seats, store, settings, on_rematch, on_absent=on_absent,
                    bots=bots, standing=standing, on_end=on_end)
        table.flow.rebuild(log_)
        return table

    # ------------------------------------------------------------------ what others read

    @property
    def row(self) -> TableRow:
        return self.flow.row

    @property
    def status(self) -> TableStatus:
        return self.flow.status

    @property
    def seats(self) -> Seats:
        return self.flow.seats

    @property
    def driver(self) -> MatchDriver:
        return self.flow.driver

    @property
    def audience(self) -> Audience:
        return self.flow.audience

    @property
    def version(self) -> int:
        return self.flow.version

    @property
    def finished_at(self) -> float | None:
        """When the match ended (monotonic): the lobby evicts the table a while after."""
        return self.flow.finished_at

    @property
    def rematch_table(self) -> str | None:
        return self.flow.rematch_table

    @rematch_table.setter
    def rematch_table(self, table_id: str | None) -> None:
        """A table rebuilt from the store learns its rematch from there."""
        self.flow.rematch_table = table_id

    def table_json(self, seat: int | None) -> dict[str, Any]:
        return self.flow.table_json(seat)

    def state_for(self, seat: int | None) -> State:
        return self.flow.state_for(seat)

    def export_record(self) -> MatchRecord:
        return self.flow.export_record()

    def record_json(self) -> dict[str, Any]:
        return self.flow.record_json()

    def seat_of_player(self, player_id: str | None) -> int | None:
        """The seat number of a player, if they are seated here."""
        seat = self.flow.seats.of_player(player_id)
        return None if seat is None else seat.number

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
        await self.flow.thinking.stop()

    async def _run(self) -> None:
        flow = self.flow
        try:
            await flow.show_ratings()
            await flow.resume()
        except Exception:  # the timers take it from here
            log.exception("table %s: resuming failed", self.row.id)
        while True:
            timeout = flow.timers.next_timeout([
                flow.seeding.deadline, flow.unattended_at(),
                *flow.seats.grace_ends(flow.settings.grace_seconds)])
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
                    flow.audience.send(command.conn, Error("server/internal",
                                                           "the server could not do that"))

    async def _on_timers(self) -> None:
        flow = self.flow
        now = time.monotonic()
        changed = flow.seats.take_over(flow.settings.grace_seconds, now)
        if flow.timers.arrival is not None and now >= flow.timers.arrival:
            await self._arrival_over()
            return
        unattended = flow.unattended_at()
        if unattended is not None and now >= unattended:
            await self._abandon([])  # waiting for players, and nobody has it open
            return
        if flow.seeding.deadline is not None and now >= flow.seeding.deadline:
            if not await flow.maybe_start(window_over=True):
                # The commitment has not reached every connected player yet: look again soon
                # (a connection that does not read is closed within its stall limit).
                flow.seeding.deadline = now + 0.02
            return
        if flow.timers.turn is not None and now >= flow.timers.turn:
            flow.timers.turn = None
            flow.think(immediately=True)
        if changed:
            flow.schedule_bot()
            flow.broadcast()

    # ------------------------------------------------------------------ commands

    async def _incoming(self, command: Incoming) -> None:
        conn, message = command.conn, command.message
        seat = self.flow.seats.of_connection(conn)
        try:
            if isinstance(message, SimpleMessage) and message.type == "rematch":
                await self._rematch_vote(seat)
            else:
                await self.answers.answer(conn, seat, message)
        except Refusal as exc:  # refused: nothing changed (any other error is a fault)
            self.flow.audience.send(conn, error_message(exc))

    async def _bot_move(self, command: BotMove) -> None:
        flow = self.flow
        # Only the current thinking counts: a player who came back cancels it.
        if (flow.thinking.busy and command.version == flow.version
                and flow.to_play() == command.seat):
            move = command.play
            try:
                after = flow.driver.check(command.seat, move)
            except IllegalPlayError:  # a bot's fault: the table must not stall on it
                log.exception("table %s: the bot at seat %d chose %s, an illegal play; it "
                              "plays its first legal play", self.row.id, command.seat, move)
                move = legal_match_plays(flow.driver.match)[0]
                after = flow.driver.check(command.seat, move)
            try:
                await flow.play(command.seat, move, after, by_bot=True)
            except StoreError:
                log.exception("table %s: a bot's play was not stored", self.row.id)
                flow.thinking.done()
                flow.schedule_bot()  # think again: the table must not stall

    async def _seating(self, command: Join | FillBot) -> None:
        flow = self.flow
        if isinstance(command, Join):
            seated = flow.seats.of_player(command.player_id)
            if seated is not None:  # already here (the invite opened again): nothing changes
                if not command.future.done():
                    command.future.set_result(seated.number)
                return
        try:
            if isinstance(command, Join):
                number = flow.seats.join(flow.status, command)
            else:
                number = flow.seats.fill_bot(flow.row, flow.status, command, flow.settings)
        except SeatError as exc:
            if not command.future.done():
                command.future.set_exception(exc)
            return
        if not command.future.done():
            command.future.set_result(number)
        await flow.after_seating()

    async def _attach(self, command: Attach) -> None:
        flow = self.flow
        conn = command.conn
        seat = flow.seats.of_player(command.player_id)
        if conn.closed:
            return
        if seat is None:
            refused = flow.audience.refuse_spectator(command.address, command.account,
                                                     flow.settings.limits)
            if refused is not None:
                conn.put(Error("table/too_many_spectators", refused))
                conn.close("too many spectators", code=1013, flush=True)
                return
        flow.empty_since = None
        if seat is None:
            flow.audience.watch(conn, command.address)
        else:
            self._seat_connection(seat, conn)
            if seat.account and flow.standing is not None and seat.player_id:
                self._hear_blocks(seat, seat.player_id)
        flow.audience.send(conn, Welcome(self.row.id, None if seat is None else seat.number))
        if seat is None:  # nothing changed for anyone else
            flow.audience.send(conn, flow.spectators_state())
            return
        if flow.timers.arrival is not None:
            if not flow.seats.missing:
                flow.timers.arrival = None
                await flow.prepare_round()
                return
            flow.timers.arrival = min(flow.timers.arrival, time.monotonic()
                                      + flow.seats.arrival_wait(flow.row, flow.settings))
        flow.broadcast()
        away = seat.take_away()
        if away:  # back: what a bot played for them meanwhile, in plain words
            flow.audience.send(conn, Away(away))

    def _hear_blocks(self, seat: Seat, player_id: str) -> None:
        """Read whom the seat's player blocks (off the inbox: the table goes on)."""
        standing = self.flow.standing
        assert standing is not None

        async def read() -> None:
            try:
                seat.deaf_to = await standing.avoided(player_id)
                seat.muted = await standing.muted(player_id)
            except Exception:  # the store away: phrases reach them meanwhile
                log.warning("table %s: the blocks of seat %d could not be read",
                            self.row.id, seat.number)

        task = asyncio.create_task(read())
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    def _seat_connection(self, seat: Seat, conn: Connection) -> None:
        """A seat's player connects: the seat is theirs again (a bot stops playing it)."""
        flow = self.flow
        oldest = flow.seats.connect(seat, conn, flow.settings.limits.connections_per_seat)
        if oldest is not None:
            oldest.put(Closed("replaced", REPLACED_MESSAGE))
            oldest.close("replaced by a newer connection", code=1000, flush=True)
            flow.audience.lose(oldest)
        if flow.thinking.busy and flow.to_play() == seat.number:
            flow.thinking.cancel()
            flow.begin_turn()

    async def _detach(self, command: Detach) -> None:
        flow = self.flow
        conn = command.conn
        flow.audience.lost.discard(conn)
        flow.seeding.forget(conn)
        flow.audience.unwatch(conn)
        if not flow.audience.connections(flow.seats):
            flow.empty_since = time.monotonic()
        if flow.seats.disconnect(conn, time.monotonic()) is None:
            return
        flow.broadcast()
        if flow.seeding.open:
            await flow.maybe_start()

    # ------------------------------------------------------------------ the end

    async def _arrival_over(self) -> None:
        """Not every seated player came. A quick-match table is given up before its first
        card (the players who came are matched again); another table starts without the
        absent, whose seats are played by bots after the grace period; a table nobody
        came to is given up. Nobody waits on an absent player's clock."""
        self.flow.timers.arrival = None
        present = self.flow.seats.present()
        if present and not self.flow.seats.given_up_when_missing(self.row):
            await self.flow.prepare_round()
            return
        await self._abandon(present)

    async def _abandon(self, present: list[str]) -> None:
        await self.flow.abandon()
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
        flow = self.flow
        if seat is None:
            raise ProtocolError("spectators cannot ask for a rematch", "rematch/not_seated")
        if flow.status != "finished":
            raise ProtocolError("the match is not over yet", "rematch/not_over")
        if self.on_rematch is None:
            raise ProtocolError("the rematch window has closed", "rematch/closed")
        if not seat.vote_rematch():
            return  # asked already: nothing changes, nobody is sent anything
        if (flow.rematch_table is None and flow.seats.everyone_rematch()
                and self.on_rematch is not None):
            flow.rematch_table = await self.on_rematch(self)
        flow.version += 1
        flow.broadcast()


Table.HANDLERS = {Attach: Table._attach, Detach: Table._detach, Incoming: Table._incoming,
                  BotMove: Table._bot_move, Join: Table._seating, FillBot: Table._seating}
