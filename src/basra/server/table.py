"""One table, one actor: an asyncio task that owns a match, its seats, clock and fairness.

Everything that happens at a table arrives as a command in its inbox and is handled one at a
time, so no two plays race. A play is checked against the engine, committed to the store,
then applied and broadcast, in that order. Each connection is sent its own seat's view,
never more; the server seed of a round is sent only once the round is over.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from basra.bots import make_bot
from basra.bots.base import Bot
from basra.cards import NAMES, mask_of, names_of, parse_card
from basra.engine import Match, Play, new_match, start_round
from basra.engine import play as engine_play
from basra.errors import BasraError
from basra.records import Fairness, MatchRecord, RecordBuilder, to_json
from basra.rules import find_variant
from basra.server.config import Settings
from basra.server.outbox import Outbox, encode
from basra.server.protocol import (
    PROTOCOL,
    ClientMessage,
    PlayMessage,
    ProtocolError,
    SeedMessage,
    error,
)
from basra.shuffle import commitment, new_server_seed, seat_part, shuffled_deck
from basra.store.base import (
    PlayRow,
    SeatRow,
    Store,
    StoreError,
    TableLog,
    TableRow,
    TableStatus,
)
from basra.views import view

log = logging.getLogger("basra.table")


Connection = Outbox
"""A client's connection as a table sees it: a queue it puts messages in, never awaits."""


@dataclass(eq=False)
class Seat:
    number: int
    player_id: str | None
    nickname: str | None
    bot_level: str | None
    bot: Bot
    connections: set[Connection] = field(default_factory=set)
    dropped_at: float | None = None
    takeover: bool = False
    """A bot plays for the absent player until they return."""
    ready: bool = False
    part: str | None = None
    """This seat's part of the pending round's client seed, if its player sent one."""
    rematch: bool = False
    arrived: bool = False
    """Whether the seat's player has connected to this table at least once."""

    @property
    def human(self) -> bool:
        return self.player_id is not None

    @property
    def empty(self) -> bool:
        return self.player_id is None and self.bot_level is None

    @property
    def name(self) -> str:
        if self.player_id is not None:
            return self.nickname or "player"
        return f"bot:{self.bot_level}" if self.bot_level else ""

    def row(self) -> SeatRow:
        return SeatRow(self.number, self.player_id, self.bot_level, "", self.nickname)


@dataclass(frozen=True, slots=True)
class RoundSeeds:
    number: int
    server_seed: str
    commitment: str
    client_seed: str | None = None


# Commands: what reaches a table's inbox.
@dataclass(frozen=True, slots=True)
class Attach:
    conn: Connection
    player_id: str | None


@dataclass(frozen=True, slots=True)
class Detach:
    conn: Connection


@dataclass(frozen=True, slots=True)
class Incoming:
    conn: Connection
    message: ClientMessage


@dataclass(frozen=True, slots=True)
class BotMove:
    seat: int
    version: int
    play: Play


@dataclass(frozen=True, slots=True)
class Join:
    player_id: str
    nickname: str
    future: asyncio.Future[int]


@dataclass(frozen=True, slots=True)
class FillBot:
    seat: int | None
    level: str
    by: str
    future: asyncio.Future[int]


@dataclass(frozen=True, slots=True)
class Stop:
    pass


@dataclass(frozen=True, slots=True)
class Evict:
    """The lobby lets a finished table go: tell its connections, then stop."""


Command = Attach | Detach | Incoming | BotMove | Join | FillBot | Evict | Stop
RematchHook = Callable[["Table"], Awaitable[str | None]]
AbsentHook = Callable[["Table", list[str]], Awaitable[dict[str, str]]]
"""Called when a quick-match table is given up because matched players never came: with the
ids of the players who did come; returns each one's new quick-match ticket."""


class SeatError(Exception):
    """Joining or filling a seat that cannot be had (the message says why)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class Table:
    """A table's actor. Create with :meth:`create` or :meth:`restore`, then :meth:`start`."""

    def __init__(self, row: TableRow, seats: list[Seat], store: Store, settings: Settings,
                 on_rematch: RematchHook | None = None) -> None:
        self.row = row
        self.rules = find_variant(row.variant)
        self.seats = seats
        self.store = store
        self.settings = settings
        self.on_rematch = on_rematch
        self.match: Match = new_match(self.rules, row.seats, row.teams)
        self.record = RecordBuilder(self.rules, [s.name for s in seats], row.teams)
        self.rounds: list[RoundSeeds] = []
        self.version = 0
        self.status: TableStatus = row.status
        self.inbox: asyncio.Queue[Command] = asyncio.Queue()
        self.spectators: set[Connection] = set()
        self.turn_deadline: float | None = None
        self.seed_deadline: float | None = None
        self.thinking: asyncio.Task[None] | None = None
        self.task: asyncio.Task[None] | None = None
        self.rematch_table: str | None = None
        self.finished_at: float | None = None
        """When the match ended (monotonic): the lobby evicts the table a while after."""
        self.commit_marks: dict[Connection, int] = {}
        """For the pending round: how many messages each connection must have been sent
        for the round's commitment to have reached it."""
        self.on_absent: AbsentHook | None = None
        self.lost: set[Connection] = set()
        """Connections their outbox closed, waiting for the actor to detach them."""
        self.arrival_deadline: float | None = None
        now = time.monotonic()
        for seat in seats:
            if seat.human:  # nobody waits on a player who is not here: dropped from the start
                seat.dropped_at = now
        self.empty_since: float | None = now
        """Since when no connection is open here (None while one is)."""
        if row.status == "playing":
            self._await_arrivals()

    # ------------------------------------------------------------------ construction

    @staticmethod
    def make_seat(row: SeatRow, table_id: str, default_level: str) -> Seat:
        level = row.bot_level or default_level
        return Seat(row.seat, row.player_id, row.nickname, row.bot_level,
                    make_bot(level, seed=f"{table_id}:{row.seat}:{secrets.token_hex(4)}"))

    @classmethod
    async def create(cls, row: TableRow, seat_rows: list[SeatRow], store: Store,
                     settings: Settings, on_rematch: RematchHook | None = None) -> Table:
        await store.create_table(row, seat_rows)
        seats = [cls.make_seat(s, row.id, row.bot_level) for s in seat_rows]
        return cls(row, seats, store, settings, on_rematch)

    @classmethod
    def restore(cls, log_: TableLog, store: Store, settings: Settings,
                on_rematch: RematchHook | None = None) -> Table:
        """Rebuild a table from its stored log: every stored play is applied again."""
        seats = [cls.make_seat(s, log_.table.id, log_.table.bot_level) for s in log_.seats]
        table = cls(log_.table, seats, store, settings, on_rematch)
        plays_by_round: dict[int, list[PlayRow]] = {}
        for p in log_.plays:
            plays_by_round.setdefault(p.round_number, []).append(p)
        for r in log_.rounds:
            table.rounds.append(RoundSeeds(r.number, r.server_seed, r.commitment,
                                           r.client_seed))
            if r.client_seed is None:
                continue
            table._deal(r.number, r.server_seed, r.client_seed)
            for p in plays_by_round.get(r.number, []):
                take = mask_of(parse_card(name) for name in p.take)
                table._apply_in_memory(p.seat, Play(parse_card(p.card), take))
        # Versions only grow, across restarts too: a message made on a state from before
        # the restart can never match a state after it.
        table.version = int(time.time() * 1000)
        table.arrival_deadline = None
        for seat in table.seats:
            seat.arrived = True
        if table.status == "finished":
            table.finished_at = time.monotonic()
        return table

    # ------------------------------------------------------------------ the actor

    def start(self) -> None:
        self.task = asyncio.create_task(self._run(), name=f"table {self.row.id}")

    async def evict(self) -> None:
        """Close every connection with a ``closed`` message, then stop the actor."""
        await self.stop(Evict())

    async def stop(self, command: Stop | Evict | None = None) -> None:
        if self.task is None:
            return
        await self.inbox.put(command or Stop())
        with contextlib.suppress(asyncio.CancelledError):
            await self.task
        if self.thinking is not None:
            self.thinking.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.thinking

    async def _run(self) -> None:
        try:
            await self._resume()
        except Exception:  # the timers take it from here
            log.exception("table %s: resuming failed", self.row.id)
        while True:
            timeout = self._next_timer()
            try:
                command = await asyncio.wait_for(self.inbox.get(), timeout)
            except TimeoutError:
                try:
                    await self._on_timers()
                except Exception:  # e.g. the store is down: try again in a moment
                    log.exception("table %s: a timer failed", self.row.id)
                    await asyncio.sleep(1.0)
                continue
            if isinstance(command, Stop):
                return
            if isinstance(command, Evict):
                self._evict()
                return
            try:
                await self._handle(command)
            except Exception:  # a table must never die of one bad command
                log.exception("table %s: command %s failed", self.row.id, type(command).__name__)
                if isinstance(command, Incoming):
                    self._send(command.conn, error("server/internal",
                                                   "the server could not do that"))

    def _next_timer(self) -> float | None:
        now = time.monotonic()
        times = [t for t in (self.turn_deadline, self.seed_deadline, self.arrival_deadline,
                             self._unattended_at()) if t is not None]
        times += [s.dropped_at + self.settings.grace_seconds for s in self.seats
                  if s.dropped_at is not None and not s.takeover]
        if not times:
            return None
        return max(0.0, min(times) - now)

    async def _on_timers(self) -> None:
        now = time.monotonic()
        changed = False
        for seat in self.seats:
            if (seat.dropped_at is not None and not seat.takeover
                    and now >= seat.dropped_at + self.settings.grace_seconds):
                seat.takeover = True
                changed = True
        if self.arrival_deadline is not None and now >= self.arrival_deadline:
            await self._arrival_over()
            return
        unattended = self._unattended_at()
        if unattended is not None and now >= unattended:
            await self._abandon([])  # waiting for players, and nobody has it open
            return
        if self.seed_deadline is not None and now >= self.seed_deadline:
            if not await self._maybe_start(window_over=True):
                # The commitment has not reached every connected player yet: look again soon
                # (a connection that does not read is closed within its stall limit).
                self.seed_deadline = now + 0.02
            return
        if self.turn_deadline is not None and now >= self.turn_deadline:
            self.turn_deadline = None
            self._think(immediately=True)
        if changed:
            self._schedule_bot()
            await self._broadcast()

    async def _resume(self) -> None:
        """After creation or restore: carry on from wherever the table is."""
        if self.status == "waiting" and self._full():
            await self._set_status("playing")
        if self.status != "playing" or self.arrival_deadline is not None:
            await self._broadcast()
            return
        if self.match.winner is not None:
            await self._finish()
        elif self.match.in_round:
            self._begin_turn()
            await self._broadcast()
        elif self.rounds and self.rounds[-1].client_seed is None:
            self._open_seeding()
            await self._broadcast()
        else:
            await self._prepare_round()

    # ------------------------------------------------------------------ commands

    async def _handle(self, command: Command) -> None:
        if isinstance(command, Attach):
            await self._attach(command)
        elif isinstance(command, Detach):
            await self._detach(command.conn)
        elif isinstance(command, Incoming):
            try:
                await self._message(command.conn, command.message)
            except ProtocolError as exc:
                self._send(command.conn, exc.to_json())
        elif isinstance(command, BotMove):
            # Only the current thinking counts: a player who came back cancels it.
            if (self.thinking is not None and command.version == self.version
                    and self._to_play() == command.seat):
                try:
                    await self._apply(command.seat, command.play, by_bot=True)
                except StoreError:
                    log.exception("table %s: a bot's play was not stored", self.row.id)
                    self.thinking = None
                    self._schedule_bot()  # think again: the table must not stall
        elif isinstance(command, Join | FillBot):
            seated = next((s.number for s in self.seats if isinstance(command, Join)
                           and s.player_id == command.player_id), None)
            if seated is not None:  # already here (the invite opened again): nothing changes
                if not command.future.done():
                    command.future.set_result(seated)
                return
            try:
                seat = self._join(command) if isinstance(command, Join) else self._fill_bot(
                    command)
            except SeatError as exc:
                if not command.future.done():
                    command.future.set_exception(exc)
                return
            if not command.future.done():
                command.future.set_result(seat)
            await self._after_seating()

    def seat_of(self, conn: Connection) -> Seat | None:
        for seat in self.seats:
            if conn in seat.connections:
                return seat
        return None

    async def _attach(self, command: Attach) -> None:
        seat = next((s for s in self.seats if command.player_id is not None
                     and s.player_id == command.player_id), None)
        if command.conn.closed:
            return
        self.empty_since = None
        if seat is None:
            self.spectators.add(command.conn)
        else:
            seat.connections.add(command.conn)
            if len(seat.connections) > self.settings.limits.connections_per_seat:
                oldest = min(seat.connections, key=lambda c: c.opened)
                oldest.put({"type": "closed", "reason": "replaced",
                            "message": "this seat was opened in another tab"})
                oldest.close("replaced by a newer connection", code=1000, flush=True)
                self._lose(oldest)
            seat.dropped_at = None
            seat.takeover = False
            seat.arrived = True
            if self.thinking is not None and self._to_play() == seat.number:
                self.thinking.cancel()
                self.thinking = None
                self._begin_turn()
        self._send(command.conn, {"type": "welcome", "protocol": PROTOCOL,
                                  "table": self.row.id,
                                  "seat": None if seat is None else seat.number})
        if seat is None:  # nothing changed for anyone else
            self._send(command.conn, self.state_for(None))
            return
        if self.arrival_deadline is not None:
            if all(s.arrived for s in self.seats if s.human):
                self.arrival_deadline = None
                await self._prepare_round()
                return
            self.arrival_deadline = min(self.arrival_deadline,
                                        time.monotonic() + self._arrival_wait())
        await self._broadcast()

    async def _detach(self, conn: Connection) -> None:
        self.lost.discard(conn)
        self.commit_marks.pop(conn, None)
        self.spectators.discard(conn)
        if not self._connections():
            self.empty_since = time.monotonic()
        if conn not in (c for s in self.seats for c in s.connections):
            return
        seat = self.seat_of(conn)
        if seat is None:
            return
        seat.connections.discard(conn)
        if not seat.connections:
            seat.dropped_at = time.monotonic()
            await self._broadcast()
            if self.seed_deadline is not None:
                await self._maybe_start()

    async def _message(self, conn: Connection, message: ClientMessage) -> None:
        seat = self.seat_of(conn)
        if isinstance(message, PlayMessage):
            if seat is None:
                raise ProtocolError("play/not_seated", "spectators cannot play")
            await self._human_play(seat, message)
        elif isinstance(message, SeedMessage):
            if seat is None:
                raise ProtocolError("seed/not_seated", "spectators have no client seed")
            self._check_part(seat, message)
            if seat.part == message.client_seed:
                return
            first = seat.part is None
            seat.part = message.client_seed
            seat.ready = True
            self.version += 1
            if first:  # everyone sees that this seat has sent its part
                await self._broadcast()
            else:  # a changed part is news to its own seat only
                self._send_seat(seat)
            await self._maybe_start()
        elif message.type == "ping":
            self._send(conn, {"type": "pong", "version": self.version})
        elif message.type == "ready":
            if seat is None:
                raise ProtocolError("ready/not_seated", "spectators are never waited for")
            seat.ready = True
            await self._maybe_start()
        elif message.type == "rematch":
            await self._rematch_vote(seat)

    # ------------------------------------------------------------------ seating

    def _full(self) -> bool:
        return not any(s.empty for s in self.seats)

    def _join(self, command: Join) -> int:
        if self.status != "waiting":
            raise SeatError("table/started", "this table has already started")
        seat = next((s for s in self.seats if s.empty), None)
        if seat is None:
            raise SeatError("table/full", "every seat at this table is taken")
        seat.player_id = command.player_id
        seat.nickname = command.nickname
        seat.dropped_at = time.monotonic()  # until they open the table
        return seat.number

    def _fill_bot(self, command: FillBot) -> int:
        if self.row.owner_id != command.by:
            raise SeatError("table/not_owner", "only the table's creator may add bots")
        if self.status != "waiting":
            raise SeatError("table/started", "this table has already started")
        empty = [s for s in self.seats if s.empty]
        if command.seat is not None:
            empty = [s for s in empty if s.number == command.seat]
        if not empty:
            raise SeatError("table/seat_taken", "that seat is not empty")
        seat = empty[0]
        seat.bot_level = command.level
        seat.bot = make_bot(command.level, seed=f"{self.row.id}:{seat.number}")
        return seat.number

    async def _after_seating(self) -> None:
        for seat in self.seats:
            await self.store.set_seat(self.row.id, seat.row())
        self.record = RecordBuilder(self.rules, [s.name for s in self.seats], self.row.teams)
        self.version += 1
        if self.status == "waiting" and self._full():
            await self._set_status("playing")
            self._await_arrivals()
            if self.arrival_deadline is None:
                await self._prepare_round()
                return
        await self._broadcast()

    async def _set_status(self, status: TableStatus) -> None:
        self.status = status
        await self.store.set_status(self.row.id, status)

    # ------------------------------------------------------------------ rounds

    async def _prepare_round(self) -> None:
        """Draw the next round's server seed and publish its commitment. The round starts
        once every connected player sent a part for it (or said ready), or when the seed
        window ends; never before the commitment has been sent to every connected player."""
        number = self.match.rounds_started + 1
        seed = new_server_seed()
        commit = commitment(seed)
        await self.store.add_round(self.row.id, number, seed, commit)
        self.rounds.append(RoundSeeds(number, seed, commit))
        self.version += 1
        self._open_seeding()
        await self._broadcast()
        await self._maybe_start()

    def _open_seeding(self) -> None:
        for s in self.seats:
            s.ready = False
            s.part = None
        self.commit_marks.clear()
        self.seed_deadline = time.monotonic() + self.settings.seed_window_seconds

    def _check_part(self, seat: Seat, message: SeedMessage) -> None:
        """A part is for the pending round only, and never one this seat used before."""
        pending = self.rounds[-1] if self.rounds else None
        if self.seed_deadline is None or pending is None:
            if pending is not None and message.round == pending.number:
                raise ProtocolError("seed/round_started",
                                    f"round {pending.number} has started: its client seed "
                                    "is fixed")
            raise ProtocolError("seed/wrong_round", f"round {message.round} is not waiting "
                                "for client seeds")
        if message.round != pending.number:
            raise ProtocolError("seed/wrong_round", f"round {pending.number} is waiting for "
                                f"client seeds, not round {message.round}")
        for earlier in self.rounds[:-1]:
            parts = (earlier.client_seed or "").split("|")
            if seat.number < len(parts) and parts[seat.number] == message.client_seed:
                raise ProtocolError("seed/reused", f"that part was used in round "
                                    f"{earlier.number}: send a fresh one for each round")

    def _commitment_delivered(self) -> bool:
        """Whether the pending round's commitment reached every connected player."""
        for seat in self.seats:
            for conn in seat.connections:
                if conn.closed:
                    continue
                mark = self.commit_marks.get(conn)
                if mark is None or not conn.delivered(mark):
                    return False
        return True

    async def _maybe_start(self, window_over: bool = False) -> bool:
        """Start the pending round if it may start now; whether it started."""
        if self.seed_deadline is None:
            return False
        window_over = window_over or time.monotonic() >= self.seed_deadline
        everyone = all(s.ready for s in self.seats
                       if s.human and any(not c.closed for c in s.connections))
        if not (window_over or everyone) or not self._commitment_delivered():
            return False
        await self._start_round()
        return True

    def _client_seed(self, number: int, server_seed: str) -> str:
        """One part per seat: the part a player sent for this round, or else the part
        derived from the committed server seed (always so for a bot)."""
        return "|".join(
            seat.part if seat.human and seat.part is not None
            else seat_part(server_seed, number, seat.number)
            for seat in self.seats)

    async def _start_round(self) -> None:
        self.seed_deadline = None
        self.commit_marks.clear()
        pending = self.rounds[-1]
        client_seed = self._client_seed(pending.number, pending.server_seed)
        await self.store.start_round(self.row.id, pending.number, client_seed)
        self.rounds[-1] = RoundSeeds(pending.number, pending.server_seed, pending.commitment,
                                     client_seed)
        self._deal(pending.number, pending.server_seed, client_seed)
        self.version += 1
        self._begin_turn()
        await self._broadcast()

    def _deal(self, number: int, server_seed: str, client_seed: str) -> None:
        self.match = start_round(self.match, shuffled_deck(server_seed, client_seed, number))
        self.record.start_round(fairness=Fairness.from_seeds(server_seed, client_seed, number))

    # ------------------------------------------------------------------ turns

    def _to_play(self) -> int | None:
        if self.status != "playing" or not self.match.in_round or self.match.round is None:
            return None
        return self.match.round.turn

    def _begin_turn(self) -> None:
        self.turn_deadline = None
        seat_no = self._to_play()
        if seat_no is None:
            return
        seat = self.seats[seat_no]
        if seat.human and not seat.takeover:
            self.turn_deadline = time.monotonic() + self.settings.clock_seconds
        else:
            self._think(immediately=False)

    def _schedule_bot(self) -> None:
        seat_no = self._to_play()
        if seat_no is not None and self.thinking is None:
            seat = self.seats[seat_no]
            if not seat.human or seat.takeover:
                self.turn_deadline = None
                self._think(immediately=False)

    def _think(self, immediately: bool) -> None:
        seat_no = self._to_play()
        if seat_no is None:
            return
        seat_view = view(self.match, seat_no)
        bot = self.seats[seat_no].bot
        version = self.version
        delay = 0.0 if immediately else self.settings.bot_delay_seconds

        async def think() -> None:
            started = time.monotonic()
            choice = await asyncio.to_thread(bot.choose, seat_view)
            rest = delay - (time.monotonic() - started)
            if rest > 0:
                await asyncio.sleep(rest)
            await self.inbox.put(BotMove(seat_no, version, choice))

        if self.thinking is not None:
            self.thinking.cancel()
        self.thinking = asyncio.create_task(think())

    async def _human_play(self, seat: Seat, message: PlayMessage) -> None:
        if self.status == "finished":
            raise ProtocolError("play/match_over", "the match is over")
        if message.version != self.version:
            raise ProtocolError("play/stale", f"the table is at version {self.version}, "
                                f"not {message.version}: play on the latest state")
        turn = self._to_play()
        if turn is None:
            raise ProtocolError("play/no_round", "no round is in progress")
        if turn != seat.number:
            raise ProtocolError("play/not_your_turn", f"it is seat {turn}'s turn")
        try:
            engine_play(self.match, Play(message.card, message.take), seat.number)
        except BasraError as exc:
            raise ProtocolError(exc.code, str(exc)) from None
        await self._apply(seat.number, Play(message.card, message.take), by_bot=False)

    async def _apply(self, seat: int, move: Play, by_bot: bool) -> None:
        """Commit the play to the store, then apply and broadcast it."""
        assert self.match.round is not None
        number = self.match.rounds_started
        index = self.match.round.played + 1
        row = PlayRow(number, index, seat, NAMES[move.card], tuple(names_of(move.take)),
                      by_bot, datetime.now(UTC))
        await self.store.add_play(self.row.id, row)
        self._apply_in_memory(seat, move)
        self.thinking = None
        self.turn_deadline = None
        self.version += 1
        if self.match.winner is not None:
            await self._finish()
            return
        if not self.match.in_round:
            await self._broadcast()
            await self._prepare_round()
            return
        self._begin_turn()
        await self._broadcast()

    def _apply_in_memory(self, seat: int, move: Play) -> None:
        self.match = engine_play(self.match, move, seat)
        self.record.add_play(move, seat)

    # ------------------------------------------------------------------ the end

    def result(self) -> dict[str, Any]:
        last = self.match.results[-1] if self.match.results else None
        return {"winner": self.match.winner,
                "totals": list(last.totals) if last else list(self.match.totals),
                "sets": list(self.match.sets)}

    async def _finish(self) -> None:
        self.turn_deadline = None
        self.status = "finished"
        self.finished_at = time.monotonic()
        await self.store.finish_table(self.row.id, self.result())
        self.version += 1
        await self._broadcast()

    def _unattended_at(self) -> float | None:
        if self.status != "waiting" or self.empty_since is None:
            return None
        return self.empty_since + self.settings.unattended_seconds

    def _await_arrivals(self) -> None:
        """The first round waits for every seated player to open the table, so that each
        sees the first commitment before any card (a quick match waits less)."""
        if any(s.human and not s.arrived for s in self.seats):
            self.arrival_deadline = time.monotonic() + self._arrival_wait()

    def _arrival_wait(self) -> float:
        """How long the first round waits for missing players: briefly when someone is
        already here (or for a quick match), long when nobody has come yet."""
        someone = any(s.human and s.arrived for s in self.seats)
        if self.row.kind == "quick" or someone:
            return self.settings.arrival_seconds
        return self.settings.unattended_seconds

    async def _arrival_over(self) -> None:
        """Not every seated player came. A quick-match table is given up before its first
        card (the players who came are matched again); another table starts without the
        absent, whose seats are played by bots after the grace period; a table nobody
        came to is given up. Nobody waits on an absent player's clock."""
        self.arrival_deadline = None
        present = [s.player_id for s in self.seats
                   if s.human and s.player_id and any(not c.closed for c in s.connections)]
        if present and self.row.kind != "quick":
            await self._prepare_round()
            return
        await self._abandon(present)

    async def _abandon(self, present: list[str]) -> None:
        self.arrival_deadline = None
        await self._set_status("abandoned")
        self.finished_at = time.monotonic()
        self.version += 1
        await self._broadcast()
        tickets = await self.on_absent(self, present) if self.on_absent is not None else {}
        for seat in self.seats:
            ticket = tickets.get(seat.player_id or "")
            if ticket is None:
                continue
            for conn in list(seat.connections):
                self._send(conn, {"type": "requeued", "ticket": ticket,
                                  "variant": self.row.variant, "bot_offer": True,
                                  "message": "your opponent never came: you are first in "
                                             "the queue again, or play a bot now"})

    def _evict(self) -> None:
        """Tell every connection the table leaves the server's memory (it is served from
        the store from now on), then close them."""
        closing = {"type": "closed", "reason": self.status,
                   "message": "this table is over; its record stays available"}
        for conn in self._connections():
            conn.put(closing)
            conn.close("table closed", code=1000, flush=True)

    async def _rematch_vote(self, seat: Seat | None) -> None:
        if seat is None:
            raise ProtocolError("rematch/not_seated", "spectators cannot ask for a rematch")
        if self.status != "finished":
            raise ProtocolError("rematch/not_over", "the match is not over yet")
        if self.on_rematch is None:
            raise ProtocolError("rematch/closed", "the rematch window has closed")
        if seat.rematch:
            return  # asked already: nothing changes, nobody is sent anything
        seat.rematch = True
        everyone = all(s.rematch for s in self.seats if s.human)
        if self.rematch_table is None and everyone and self.on_rematch is not None:
            self.rematch_table = await self.on_rematch(self)
        self.version += 1
        await self._broadcast()

    def export_record(self) -> MatchRecord:
        """The match record with every round's seeds (for the server's own use: see
        :meth:`record_json` for what may be sent)."""
        return self.record.build()

    def record_json(self) -> dict[str, Any]:
        """The match record as sent to anyone: the server seed of a round still in play
        is left out (it would give away every hand and the stock)."""
        out = to_json(self.export_record())
        rounds = out["rounds"]
        if self.match.in_round and isinstance(rounds, list) and rounds:
            rounds[-1].pop("deck", None)
            fairness = rounds[-1].get("fairness")
            if isinstance(fairness, dict):
                fairness.pop("server_seed", None)
        return out

    # ------------------------------------------------------------------ messages out

    def table_json(self, seat: int | None) -> dict[str, Any]:
        clock = None
        if self.turn_deadline is not None:
            turn = self._to_play()
            clock = {"seat": turn, "seconds": self.settings.clock_seconds,
                     "remaining_ms": max(0, int((self.turn_deadline - time.monotonic())
                                                * 1000))}
        revealed = []
        current = None
        for r in self.rounds:
            finished = r.client_seed is not None and (
                r.number < self.match.rounds_started or not self.match.in_round)
            entry: dict[str, Any] = {"round": r.number, "commitment": r.commitment,
                                     "client_seed": r.client_seed}
            if finished:
                revealed.append({**entry, "server_seed": r.server_seed, "nonce": r.number})
            else:
                current = entry
        if current is not None and self.seed_deadline is not None:
            current["parts_sent"] = [s.part is not None if s.human else None
                                     for s in self.seats]
        players = [{
            "seat": s.number,
            "name": s.name,
            "kind": "human" if s.human else ("bot" if s.bot_level else "empty"),
            "connected": bool(s.connections) if s.human else None,
            "bot_playing": s.takeover,
            "client_seed": s.part if s.number == seat else None,
            "rematch": s.rematch,
        } for s in self.seats]
        out: dict[str, Any] = {
            "id": self.row.id,
            "kind": self.row.kind,
            "variant": self.row.variant,
            "seats": self.row.seats,
            "teams": self.row.teams,
            "status": self.status,
            "phase": self.phase,
            "players": players,
            "clock": clock,
            "fairness": {"current": current, "revealed": revealed},
            "rematch_table": self.rematch_table,
        }
        if seat is not None and self.row.invite_code:
            out["invite_code"] = self.row.invite_code
        return out

    @property
    def phase(self) -> str:
        if self.status in ("waiting", "finished", "abandoned"):
            return self.status
        if self.arrival_deadline is not None:
            return "arriving"
        return "seeding" if self.seed_deadline is not None else "playing"

    def state_for(self, seat: int | None) -> dict[str, Any]:
        return {"type": "state", "version": self.version, "you": seat,
                "table": self.table_json(seat), "view": view(self.match, seat).to_json()}

    def _send_seat(self, seat: Seat) -> None:
        text = encode(self.state_for(seat.number))
        for conn in list(seat.connections):
            self._send(conn, text)

    def _connections(self) -> list[Connection]:
        return [c for s in self.seats for c in s.connections] + list(self.spectators)

    def _send(self, conn: Connection, message: dict[str, Any] | str) -> None:
        """Queue a message for one connection; a connection that cannot take it (its queue
        overflowed, or it stopped reading) is closed and counts as gone at once."""
        if not conn.put(message):
            self._lose(conn)

    def _lose(self, conn: Connection) -> None:
        """A connection closed by its outbox: the actor detaches it next (once)."""
        if conn not in self.lost:
            self.lost.add(conn)
            self.inbox.put_nowait(Detach(conn))

    async def _broadcast(self) -> None:
        """Every connection gets its own seat's state; never awaits a socket."""
        seeding = self.seed_deadline is not None
        for seat in self.seats:
            if seat.connections:
                text = encode(self.state_for(seat.number))
                for conn in list(seat.connections):
                    self._send(conn, text)
                    if seeding and conn in seat.connections:
                        self.commit_marks.setdefault(conn, conn.queued)
        if self.spectators:
            text = encode(self.state_for(None))
            for conn in list(self.spectators):
                self._send(conn, text)
