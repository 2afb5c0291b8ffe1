"""The lobby: every live table, and the ways to reach one (play a bot, quick match, a
private table by invite code, a rematch)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime

from basra.bots import LEVELS
from basra.rules import find_variant
from basra.server.auth import new_id, new_invite_code
from basra.server.config import Settings
from basra.server.table import FillBot, Join, SeatError, Table
from basra.store.base import PlayerRow, SeatRow, Store, TableKind, TableRow

log = logging.getLogger("basra.lobby")


class LobbyError(Exception):
    """A lobby request that cannot be met: ``code`` is stable, the message one line."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.status = status


@dataclass(eq=False)
class Ticket:
    id: str
    player: PlayerRow
    variant: str
    since: float
    table_id: str | None = None
    matched: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass(frozen=True, slots=True)
class TableOptions:
    variant: str = "egyptian"
    players: int = 2
    teams: bool = False
    bot_level: str = "medium"
    clock_seconds: float | None = None


class Lobby:
    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self.tables: dict[str, Table] = {}
        self.queues: dict[str, list[Ticket]] = {}
        self.tickets: dict[str, Ticket] = {}
        self.lock = asyncio.Lock()

    # ------------------------------------------------------------------ life

    async def restore(self) -> int:
        """Rebuild and start every live table from the store (after a restart)."""
        count = 0
        for table_id in await self.store.live_tables():
            table_log = await self.store.load(table_id)
            if table_log is None:
                continue
            try:
                table = Table.restore(table_log, self.store,
                                      self._table_settings(table_log.table), self._rematch)
            except Exception:
                log.exception("table %s could not be restored", table_id)
                await self.store.set_status(table_id, "abandoned")
                continue
            self.tables[table_id] = table
            table.start()
            count += 1
        return count

    async def close(self) -> None:
        for table in list(self.tables.values()):
            await table.stop()

    # ------------------------------------------------------------------ tables

    def check_options(self, options: TableOptions) -> None:
        try:
            rules = find_variant(options.variant)
            rules.check_seating(options.players, options.teams)
        except Exception as exc:
            raise LobbyError("table/bad_options", str(exc)) from None
        if options.bot_level not in LEVELS:
            raise LobbyError("table/bad_options",
                             f"unknown bot level {options.bot_level!r} "
                             f"(known: {', '.join(LEVELS)})")
        if options.clock_seconds is not None and not 5 <= options.clock_seconds <= 600:
            raise LobbyError("table/bad_options", "a turn clock is 5 to 600 seconds")

    async def _create(self, kind: TableKind, options: TableOptions,
                      humans: list[PlayerRow], bots_fill: bool,
                      owner: PlayerRow | None, rematch_of: str | None = None) -> Table:
        self.check_options(options)
        rules = find_variant(options.variant)
        table_id = new_id()
        seats = []
        for number in range(options.players):
            if number < len(humans):
                h = humans[number]
                seats.append(SeatRow(number, h.id, None, "", h.nickname))
            elif bots_fill:
                seats.append(SeatRow(number, None, options.bot_level, ""))
            else:
                seats.append(SeatRow(number, None, None, ""))
        full = all(s.player_id or s.bot_level for s in seats)
        row = TableRow(
            id=table_id, kind=kind, variant=rules.name, seats=options.players,
            teams=options.teams,
            clock_seconds=options.clock_seconds or self.settings.clock_seconds,
            bot_level=options.bot_level, status="playing" if full else "waiting",
            created_at=datetime.now(UTC),
            invite_code=new_invite_code() if kind == "private" else None,
            owner_id=owner.id if owner else None, rematch_of=rematch_of)
        table = await Table.create(row, seats, self.store, self._table_settings(row),
                                   self._rematch)
        self.tables[table_id] = table
        table.start()
        return table

    def _table_settings(self, row: TableRow) -> Settings:
        return replace(self.settings, clock_seconds=row.clock_seconds)

    async def play_bot(self, player: PlayerRow, options: TableOptions) -> Table:
        return await self._create("bot", options, [player], bots_fill=True, owner=player)

    async def create_private(self, player: PlayerRow, options: TableOptions) -> Table:
        return await self._create("private", options, [player], bots_fill=False, owner=player)

    def table(self, table_id: str) -> Table | None:
        return self.tables.get(table_id)

    async def join(self, player: PlayerRow, invite_code: str) -> tuple[Table, int]:
        row = await self.store.table_by_code(invite_code.strip().upper())
        table = self.tables.get(row.id) if row else None
        if table is None:
            raise LobbyError("table/not_found", "no open table has that invite code", 404)
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        await table.inbox.put(Join(player.id, player.nickname, future))
        try:
            seat = await asyncio.wait_for(future, 10)
        except SeatError as exc:
            raise LobbyError(exc.code, str(exc), 409) from None
        return table, seat

    async def fill_bot(self, player: PlayerRow, table_id: str, seat: int | None,
                       level: str) -> int:
        table = self.tables.get(table_id)
        if table is None:
            raise LobbyError("table/not_found", "no such table", 404)
        if level not in LEVELS:
            raise LobbyError("table/bad_options", f"unknown bot level {level!r}")
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        await table.inbox.put(FillBot(seat, level, player.id, future))
        try:
            return await asyncio.wait_for(future, 10)
        except SeatError as exc:
            raise LobbyError(exc.code, str(exc), 409) from None

    async def _rematch(self, old: Table) -> str | None:
        """A new table with the same people and bots, seats turned by one."""
        humans = [s for s in old.seats if s.human]
        options = TableOptions(old.row.variant, old.row.seats, old.row.teams,
                               old.row.bot_level, old.row.clock_seconds)
        players = [PlayerRow(s.player_id or "", s.nickname or "", datetime.now(UTC))
                   for s in humans]
        kind: TableKind = old.row.kind
        owner = players[0] if players else None
        table = await self._create(kind, options, players, bots_fill=True, owner=owner,
                                   rematch_of=old.row.id)
        return table.row.id

    # ------------------------------------------------------------------ quick match

    async def quick_match(self, player: PlayerRow, variant: str) -> Ticket:
        self.check_options(TableOptions(variant=variant))
        name = find_variant(variant).name
        async with self.lock:
            queue = self.queues.setdefault(name, [])
            for ticket in queue:
                if ticket.player.id == player.id:
                    return ticket
            rival = next((t for t in queue if t.table_id is None), None)
            ticket = Ticket(new_id(), player, name, time.monotonic())
            self.tickets[ticket.id] = ticket
            if rival is None:
                queue.append(ticket)
                return ticket
            queue.remove(rival)
            table = await self._create("quick", TableOptions(variant=name),
                                       [rival.player, player], bots_fill=False, owner=None)
            for t in (rival, ticket):
                t.table_id = table.row.id
                t.matched.set()
            return ticket

    def ticket(self, ticket_id: str, player: PlayerRow) -> Ticket:
        ticket = self.tickets.get(ticket_id)
        if ticket is None or ticket.player.id != player.id:
            raise LobbyError("queue/not_found", "no such quick-match ticket", 404)
        return ticket

    async def wait(self, ticket: Ticket, seconds: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(ticket.matched.wait(), max(0.0, min(seconds, 30.0)))

    def bot_offered(self, ticket: Ticket) -> bool:
        return (ticket.table_id is None and time.monotonic() - ticket.since
                >= self.settings.quick_match_bot_offer_seconds)

    async def take_bot(self, ticket: Ticket, level: str) -> Table:
        async with self.lock:
            if ticket.table_id is not None:
                raise LobbyError("queue/matched", "you were matched with a player already", 409)
            self._leave(ticket)
        table = await self.play_bot(ticket.player, TableOptions(ticket.variant, bot_level=level))
        ticket.table_id = table.row.id
        ticket.matched.set()
        return table

    async def leave(self, ticket: Ticket) -> None:
        async with self.lock:
            self._leave(ticket)
            self.tickets.pop(ticket.id, None)

    def _leave(self, ticket: Ticket) -> None:
        queue = self.queues.get(ticket.variant, [])
        if ticket in queue:
            queue.remove(ticket)
