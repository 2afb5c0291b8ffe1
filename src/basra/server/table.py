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
from typing import Any, Protocol

from basra.bots import make_bot
from basra.bots.base import Bot
from basra.cards import NAMES, mask_of, names_of, parse_card
from basra.engine import Match, Play, new_match, start_round
from basra.engine import play as engine_play
from basra.errors import BasraError
from basra.records import Fairness, MatchRecord, RecordBuilder, to_json
from basra.rules import find_variant
from basra.server.config import Settings
from basra.server.protocol import (
    PROTOCOL,
    ClientMessage,
    PlayMessage,
    ProtocolError,
    SeedMessage,
    error,
)
from basra.shuffle import commitment, new_server_seed, shuffled_deck
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


class Connection(Protocol):
    """A client's socket as a table sees it."""

    async def send_json(self, data: Any) -> None: ...


@dataclass(eq=False)
class Seat:
    number: int
    player_id: str | None
    nickname: str | None
    bot_level: str | None
    client_seed: str
    bot: Bot
    connections: set[Connection] = field(default_factory=set)
    dropped_at: float | None = None
    takeover: bool = False
    """A bot plays for the absent player until they return."""
    ready: bool = False
    rematch: bool = False

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
        return SeatRow(self.number, self.player_id, self.bot_level, self.client_seed,
                       self.nickname)


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


Command = Attach | Detach | Incoming | BotMove | Join | FillBot | Stop
RematchHook = Callable[["Table"], Awaitable[str | None]]


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
        self.bot_seeds: dict[int, str] = {}

    # ------------------------------------------------------------------ construction

    @staticmethod
    def make_seat(row: SeatRow, table_id: str, default_level: str) -> Seat:
        level = row.bot_level or default_level
        return Seat(row.seat, row.player_id, row.nickname, row.bot_level, row.client_seed,
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
        for seat in table.seats:
            if seat.human:
                seat.dropped_at = time.monotonic()
        return table

    # ------------------------------------------------------------------ the actor

    def start(self) -> None:
        self.task = asyncio.create_task(self._run(), name=f"table {self.row.id}")

    async def stop(self) -> None:
        if self.task is None:
            return
        await self.inbox.put(Stop())
        with contextlib.suppress(asyncio.CancelledError):
            await self.task
        if self.thinking is not None:
            self.thinking.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.thinking

    async def _run(self) -> None:
        await self._resume()
        while True:
            timeout = self._next_timer()
            try:
                command = await asyncio.wait_for(self.inbox.get(), timeout)
            except TimeoutError:
                await self._on_timers()
                continue
            if isinstance(command, Stop):
                return
            try:
                await self._handle(command)
            except Exception:  # a table must never die of one bad command
                log.exception("table %s: command %s failed", self.row.id, type(command).__name__)
                if isinstance(command, Incoming):
                    await self._send(command.conn, error("server/internal",
                                                         "the server could not do that"))

    def _next_timer(self) -> float | None:
        now = time.monotonic()
        times = [t for t in (self.turn_deadline, self.seed_deadline) if t is not None]
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
        if self.seed_deadline is not None and now >= self.seed_deadline:
            await self._start_round()
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
        if self.status != "playing":
            await self._broadcast()
            return
        if self.match.winner is not None:
            await self._finish()
        elif self.match.in_round:
            self._begin_turn()
            await self._broadcast()
        elif self.rounds and self.rounds[-1].client_seed is None:
            self.seed_deadline = time.monotonic() + self.settings.seed_window_seconds
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
                await self._send(command.conn, exc.to_json())
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
        if seat is None:
            self.spectators.add(command.conn)
        else:
            seat.connections.add(command.conn)
            seat.dropped_at = None
            seat.takeover = False
            if self.thinking is not None and self._to_play() == seat.number:
                self.thinking.cancel()
                self.thinking = None
                self._begin_turn()
        await self._send(command.conn, {"type": "welcome", "protocol": PROTOCOL,
                                        "table": self.row.id,
                                        "seat": None if seat is None else seat.number})
        await self._broadcast()

    async def _detach(self, conn: Connection) -> None:
        self.spectators.discard(conn)
        seat = self.seat_of(conn)
        if seat is None:
            return
        seat.connections.discard(conn)
        if not seat.connections:
            seat.dropped_at = time.monotonic()
            await self._broadcast()

    async def _message(self, conn: Connection, message: ClientMessage) -> None:
        seat = self.seat_of(conn)
        if isinstance(message, PlayMessage):
            if seat is None:
                raise ProtocolError("play/not_seated", "spectators cannot play")
            await self._human_play(seat, message)
        elif isinstance(message, SeedMessage):
            if seat is None:
                raise ProtocolError("seed/not_seated", "spectators have no client seed")
            if self.status == "playing" and self.match.in_round:
                raise ProtocolError("seed/round_started",
                                    "the round has started: the seed counts from the next one")
            seat.client_seed = message.client_seed
            await self.store.set_seat(self.row.id, seat.row())
            self.version += 1
            await self._broadcast()
        elif message.type == "ping":
            await self._send(conn, {"type": "pong", "version": self.version})
        elif message.type == "ready":
            if seat is None:
                raise ProtocolError("ready/not_seated", "spectators are never waited for")
            seat.ready = True
            if self.seed_deadline is not None and all(
                    s.ready for s in self.seats if s.human and s.connections):
                await self._start_round()
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
            await self._prepare_round()
        else:
            await self._broadcast()

    async def _set_status(self, status: TableStatus) -> None:
        self.status = status
        await self.store.set_status(self.row.id, status)

    # ------------------------------------------------------------------ rounds

    async def _prepare_round(self) -> None:
        """Draw the next round's server seed and publish its commitment."""
        number = self.match.rounds_started + 1
        seed = new_server_seed()
        commit = commitment(seed)
        await self.store.add_round(self.row.id, number, seed, commit)
        self.rounds.append(RoundSeeds(number, seed, commit))
        for s in self.seats:
            s.ready = False
        self.version += 1
        if self.settings.seed_window_seconds <= 0 or not any(s.human for s in self.seats):
            await self._start_round()
            return
        self.seed_deadline = time.monotonic() + self.settings.seed_window_seconds
        await self._broadcast()

    def _client_seed(self, number: int) -> str:
        parts = []
        for seat in self.seats:
            seed = seat.client_seed if seat.human else ""
            if not seed:
                seed = secrets.token_hex(8)
            parts.append(seed)
        return "|".join(parts)

    async def _start_round(self) -> None:
        self.seed_deadline = None
        pending = self.rounds[-1]
        client_seed = self._client_seed(pending.number)
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
        await self.store.finish_table(self.row.id, self.result())
        self.version += 1
        await self._broadcast()

    async def _rematch_vote(self, seat: Seat | None) -> None:
        if seat is None:
            raise ProtocolError("rematch/not_seated", "spectators cannot ask for a rematch")
        if self.status != "finished":
            raise ProtocolError("rematch/not_over", "the match is not over yet")
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
        players = [{
            "seat": s.number,
            "name": s.name,
            "kind": "human" if s.human else ("bot" if s.bot_level else "empty"),
            "connected": bool(s.connections) if s.human else None,
            "bot_playing": s.takeover,
            "client_seed": s.client_seed if s.human else None,
            "rematch": s.rematch,
        } for s in self.seats]
        out: dict[str, Any] = {
            "id": self.row.id,
            "kind": self.row.kind,
            "variant": self.row.variant,
            "seats": self.row.seats,
            "teams": self.row.teams,
            "status": self.status,
            "phase": ("waiting" if self.status == "waiting" else "finished"
                      if self.status == "finished" else "seeding"
                      if self.seed_deadline is not None else "playing"),
            "players": players,
            "clock": clock,
            "fairness": {"current": current, "revealed": revealed},
            "rematch_table": self.rematch_table,
        }
        if seat is not None and self.row.invite_code:
            out["invite_code"] = self.row.invite_code
        return out

    def state_for(self, seat: int | None) -> dict[str, Any]:
        return {"type": "state", "version": self.version, "you": seat,
                "table": self.table_json(seat), "view": view(self.match, seat).to_json()}

    async def _send(self, conn: Connection, message: dict[str, Any]) -> None:
        try:
            await conn.send_json(message)
        except Exception:  # a broken socket is the reader's to notice
            log.debug("table %s: send failed", self.row.id)

    async def _broadcast(self) -> None:
        for seat in self.seats:
            if seat.connections:
                message = self.state_for(seat.number)
                for conn in list(seat.connections):
                    await self._send(conn, message)
        if self.spectators:
            message = self.state_for(None)
            for conn in list(self.spectators):
                await self._send(conn, message)
