"""The lobby: every live table, and the ways to reach one (play a bot, quick match, a
private table by invite code, a rematch)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from basra.bots import refuse_level
from basra.errors import BasraError
from basra.game.rules import MATCH_LENGTHS, find_variant
from basra.ratings import Rating
from basra.server.config import Settings
from basra.server.identity.signed_in import SignedIn
from basra.server.ids import new_id, new_invite_code
from basra.server.lobby.placement import LocalPlacement, Placement, RemoteTable
from basra.server.quick.memory import MemoryPools
from basra.server.quick.pools import PartnerInvite, Pool, PoolStore, Ticket
from basra.server.reads.analyses import Analyses
from basra.server.reads.live import live_summaries
from basra.server.reads.replays import Replays
from basra.server.reads.stored import NotStored, StoredTables
from basra.server.social.challenges import Terms
from basra.server.table.actor import RematchHook, Table
from basra.server.table.commands import FillBot, Handover, Join
from basra.server.table.standing import StoredStanding
from basra.server.wire.errors import Refusal
from basra.store.base import GameChallengeRow, PlayerRow, SeatRow, TableKind, TableRow
from basra.store.ports import Store, TableStore
from basra.workers.factory import bot_service
from basra.workers.service import BotService

log = logging.getLogger("basra.lobby")

ADOPTION_WAIT = 20.0
"""Seconds a socket waits for a table this process claimed and is rebuilding."""


class LobbyError(Refusal):
    """A lobby request that cannot be met: ``code`` is stable, the message one line (its
    HTTP status is :func:`basra.server.wire.errors.status_of` the code)."""

    code = "table/bad_options"


@dataclass(frozen=True, slots=True)
class TableOptions:
    variant: str = "egyptian"
    players: int = 2
    teams: bool = False
    bot_level: str = "medium"
    clock_seconds: float | None = None
    rated: bool = False
    """A table whose every player is an account, rated (a private table its creator
    marks rated; a quick match of accounts)."""
    length: str = "full"
    """The match's length: the variant's own, or ``short`` (RULES.md 6.5)."""
    listed: bool = False
    """A private table listed in the lobby for anyone to sit at (an open table)."""


class Lobby:
    """The live tables of this process, by id, and every way to reach one.

    ``placement`` says which process runs each live table and ``pools`` where quick match's
    tickets wait: by default this process alone (:class:`LocalPlacement`, in-memory pools);
    a cluster node passes its Redis implementations of the same ports.
    """

    def __init__(self, store: Store, settings: Settings, *, tables: TableStore | None = None,
                 placement: Placement | None = None, pools: PoolStore | None = None) -> None:
        self.store = store
        self.table_store: TableStore = tables or store
        """Where the tables' rounds and plays are written: the store, or a cluster node's
        fenced view of it (writes only while the node holds the table's lease)."""
        self.settings = settings
        self.placement: Placement = placement or LocalPlacement()
        self.bots: BotService = bot_service(settings.redis_url, prefix=settings.redis_prefix,
                                            workers=settings.bot_workers)
        """Where the live tables' searching bots think (worker processes)."""
        self.analyses = Analyses(store, self.bots, settings.analysis_iterations)
        """The expert's analyses of finished matches, in the same bot workers."""
        self.replays = Replays()
        """Replays being built and kept."""
        self.stored = StoredTables(store, settings)
        """Tables that left memory, rebuilt from the store off the loop and kept."""
        self.live_list: tuple[float, dict[str, bytes]] | None = None
        """When the live list (``GET /api/live``) was last made, and its answer per order."""
        self.tables: dict[str, Table] = {}
        self.pools: PoolStore = pools or MemoryPools(settings.ticket_lapse_seconds)
        """Quick match's pools: this process's, or a cluster's shared ones (Redis)."""
        self.sweeper: asyncio.Task[None] | None = None
        self.evicted = 0
        """Tables let go since start (finished or abandoned, served from the store after)."""
        self.adopting = asyncio.Lock()
        self.pairer: asyncio.Task[None] | None = None
        self.signed_in = SignedIn()
        """The open sockets of each session (closed when it ends: :meth:`sign_out`)."""
        self.adoptions: dict[str, asyncio.Event] = {}
        """The tables this process claimed and is rebuilding (:meth:`adopt`): set when done.
        A socket that arrives meanwhile waits for the table, never takes it for ended."""
        self.background: set[asyncio.Task[bool]] = set()
        """Rated matches being queued for their background analysis."""
        self.on_ended: list[Callable[[TableRow], None]] = []
        """Told when a table of this process ends (finished or given up): the tournaments
        count its result at once."""

    # ------------------------------------------------------------------ life

    async def restore(self) -> int:
        """Rebuild and start the live tables of the store this process runs from the start
        (after a restart: all of them; a cluster's node none: it adopts the tables nobody
        holds as it goes)."""
        count = 0
        for table_id in self.placement.at_start(await self.table_store.live_tables()):
            if await self._rebuild(table_id) is not None:
                count += 1
        return count

    async def _rebuild(self, table_id: str) -> Table | None:
        """Rebuild a live table from its stored log and start it here."""
        table_log = await self.table_store.load(table_id)
        if table_log is None or table_log.table.status not in ("waiting", "playing"):
            return None
        try:
            table = Table.restore(table_log, self.table_store,
                                  self._table_settings(table_log.table),
                                  self._rematch_of(table_log.table),
                                  on_absent=self._absent, bots=self.bots,
                                  standing=StoredStanding(self.store), on_end=self._ended)
        except Exception:
            log.exception("table %s could not be restored", table_id)
            await self.table_store.set_status(table_id, "abandoned")
            return None
        self._add(table)
        return table

    async def adopt(self, table_id: str) -> Table | None:
        """Take a live table nobody runs (its process died), rebuilt from the store; None if
        another process got it first or it is not live."""
        if table_id in self.tables:
            return self.tables[table_id]
        if table_id in self.adoptions:  # claimed here, being rebuilt: the same table
            return await self._adopted(table_id)
        done = self.adoptions[table_id] = asyncio.Event()
        claimed = False
        try:
            if not await self.placement.adopt(table_id):
                return None
            claimed = True
            async with self.adopting:
                if table_id in self.tables:
                    return self.tables[table_id]
                table = await self._rebuild(table_id)
            if table is None:
                await self.placement.release(table_id)
            else:
                log.info("table %s adopted here", table_id)
            return table
        except BaseException:
            if claimed and table_id not in self.tables:  # (the store away, or cancelled)
                with contextlib.suppress(Exception):  # the lease lapses by itself then
                    await asyncio.shield(self.placement.release(table_id))
            raise
        finally:
            del self.adoptions[table_id]
            done.set()

    async def _adopted(self, table_id: str) -> Table | None:
        """The table this process is rebuilding, once rebuilt (None if that failed, or
        took past :data:`ADOPTION_WAIT`)."""
        underway = self.adoptions.get(table_id)
        if underway is not None:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(ADOPTION_WAIT):
                    await underway.wait()
        return self.tables.get(table_id)

    async def drop(self, table_id: str) -> None:
        """The table is not this process's any more (another took it over); stop it without
        writing and close its connections (1012), so its clients reconnect to the new owner."""
        table = self.tables.pop(table_id, None)
        if table is None:
            return
        table.on_rematch = None
        await table.stop(Handover())
        if table_id in self.tables or table_id in self.adoptions:
            return  # claimed here again while it stopped: that lease is the new table's
        await self.placement.handed_over(table_id)

    async def _quick_table(self, pool: Pool, players: list[PlayerRow], rated: bool) -> str:
        """The table quick match filled (its players in seat order)."""
        options = TableOptions(variant=pool.variant, players=pool.players, teams=pool.teams,
                               rated=rated)
        table = await self._create("quick", options, players)
        return table.row.id

    def start(self) -> None:
        """Start the sweeper (lapsed tickets and finished tables leave memory) and the
        pairing of quick match's pools."""
        self.sweeper = asyncio.create_task(self._sweep_forever(), name="lobby sweeper")
        self.pairer = asyncio.create_task(self._pair_forever(), name="quick-match pairing")

    async def close(self) -> None:
        for task in (self.sweeper, self.pairer):
            if task is None:
                continue
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self.analyses.close()
        for table in list(self.tables.values()):
            await table.stop()
        await asyncio.to_thread(self.bots.close)

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.settings.sweep_seconds)
            try:
                await self.sweep()
            except Exception:  # the sweeper must outlive one bad sweep
                log.exception("lobby sweep failed")

    async def sweep(self, now: float | None = None) -> None:
        """Drop lapsed and long-matched tickets; evict tables finished longer than the
        rematch window (or abandoned)."""
        now = time.monotonic() if now is None else now
        self.pools.sweep(now, self.settings.rematch_window_seconds)
        for table in list(self.tables.values()):
            done = table.finished_at
            if done is not None and now - done >= self.settings.rematch_window_seconds:
                await self.evict(table)

    async def evict(self, table: Table) -> None:
        """Let a finished table go: its connections are told and closed; from now on it is
        served from the store."""
        if self.tables.get(table.row.id) is not table:
            return
        del self.tables[table.row.id]
        table.on_rematch = None
        await table.evict()
        self.evicted += 1
        await self.placement.release(table.row.id)

    def _add(self, table: Table) -> None:
        self.tables[table.row.id] = table
        table.start()

    # ------------------------------------------------------------------ sessions

    def sign_out(self, player_id: str, session_id: str | None = None,
                 keep: str | None = None, *, forget: bool = False) -> None:
        """Sessions ended (one, or all of the player's but ``keep``): their open sockets
        close here and wherever else they are open; with ``forget`` (the account is deleted)
        the player's quick-match tickets go too."""
        self.signed_in.end(player_id, session_id, keep)
        if forget:
            self.pools.forget(player_id)
        self.placement.signed_out(player_id, session_id, keep)

    # ------------------------------------------------------------------ tables

    def check_options(self, options: TableOptions) -> None:
        try:
            rules = find_variant(options.variant)
            rules.check_seating(options.players, options.teams)
        except BasraError as exc:  # the variant's or seating's own code names no option
            raise LobbyError(exc.message, "table/bad_options") from None
        refused = refuse_level(options.bot_level)
        if refused is not None:
            raise LobbyError(refused, "table/bad_options")
        if options.clock_seconds is not None and not 5 <= options.clock_seconds <= 600:
            raise LobbyError("a turn clock is 5 to 600 seconds", "table/bad_options")
        if options.length not in MATCH_LENGTHS:
            raise LobbyError(f"a match is {' or '.join(MATCH_LENGTHS)}", "table/bad_options")

    async def _create(  # noqa: PLR0913 - a table's every origin
            self, kind: TableKind, options: TableOptions,
            humans: Sequence[PlayerRow | None],
            owner: PlayerRow | None = None, rematch_of: str | None = None, *,
            table_id: str | None = None, tournament_id: str | None = None) -> Table:
        """A new table of ``humans`` in seat order (None: no one there); the other seats
        get bots at a bot table
        and a rematch, and stay empty at a private or quick-match table."""
        self.check_options(options)
        bots_fill = kind == "bot" or rematch_of is not None
        rules = find_variant(options.variant)
        table_id = table_id or new_id()
        await self.placement.claim_new(table_id)
        seats = []
        for number in range(options.players):
            h = humans[number] if number < len(humans) else None
            if h is not None:
                seats.append(SeatRow(number, h.id, None, "", h.nickname, h.account,
                                     h.username))
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
            owner_id=owner.id if owner else None, rematch_of=rematch_of,
            rated=options.rated and kind != "bot",
            length=options.length, tournament_id=tournament_id,
            listed=options.listed and kind == "private")
        table = await Table.create(row, seats, self.table_store, self._table_settings(row),
                                   self._rematch_of(row), on_absent=self._absent,
                                   bots=self.bots, standing=StoredStanding(self.store),
                                   on_end=self._ended)
        self._add(table)
        return table

    def _rematch_of(self, row: TableRow) -> RematchHook | None:
        """A tournament's tables have no rematch: the event pairs its players."""
        return None if row.kind == "tournament" else self._rematch

    def _ended(self, row: TableRow) -> None:
        for listener in self.on_ended:
            listener(row)
        result = row.result or {}
        table = self.tables.get(row.id)
        if (self.settings.assist_analysis and row.status == "finished"
                and result.get("ratings") and table is not None):
            # Every rated match is analysed in the background, behind every analysis a
            # player asked for: the engine-assistance statistic reads it.
            record = table.flow.export_record()
            task = asyncio.create_task(self.analyses.background(row.id, record))
            self.background.add(task)
            task.add_done_callback(self.background.discard)

    async def tournament_table(self, players: list[PlayerRow], table_id: str,
                               tournament_id: str, options: TableOptions) -> None:
        """A tournament's table of ``players`` in seat order, with the id its pairing
        gave it (made once: nothing if it exists already, here or in the store)."""
        if table_id in self.tables or await self.table_store.table(table_id) is not None:
            return
        await self._create("tournament", options, players, table_id=table_id,
                           tournament_id=tournament_id)

    def _table_settings(self, row: TableRow) -> Settings:
        return replace(self.settings, clock_seconds=row.clock_seconds)

    async def play_bot(self, player: PlayerRow, options: TableOptions) -> Table:
        return await self._create("bot", options, [player], owner=player)

    async def create_private(self, player: PlayerRow, options: TableOptions) -> Table:
        if options.rated and not player.account:
            raise LobbyError("a rated table needs an account: create one first",
                             "table/rated_needs_account")
        return await self._create("private", options, [player], owner=player)

    def table(self, table_id: str) -> Table | None:
        """The live table of this process, if it runs it."""
        return self.tables.get(table_id)

    def statuses(self) -> Counter[str]:
        """How many live tables of this process are waiting, playing or finished."""
        return Counter(table.status for table in self.tables.values())

    async def any_table(self, table_id: str) -> Table:
        """The live table, or one that left memory rebuilt from the store, off the event
        loop and kept once finished (:mod:`basra.server.reads.stored`: not started, it only
        answers questions)."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        try:
            return await self.stored.get(table_id)
        except NotStored:
            raise LobbyError("no such table", "table/not_found") from None

    def needs_build(self, table_id: str) -> bool:
        """Whether :meth:`any_table` must rebuild ``table_id`` from the store (the routes
        limit those answers per address)."""
        return table_id not in self.tables and self.stored.needs_build(table_id)

    async def join(self, player: PlayerRow, invite_code: str) -> tuple[Table, int]:
        code = invite_code.strip().upper()
        valid = code.isascii() and code.isalnum()  # nothing else is ever a code
        row = await self.table_store.table_by_code(code) if valid else None
        if row is None:
            raise LobbyError("no open table has that invite code", "table/not_found")
        return await self._sit(player, row, None)

    async def sit(self, player: PlayerRow, table_id: str,
                  seat: int | None = None) -> tuple[Table, int]:
        """Take a seat (the one asked for, or the first free) at an open table, one listed
        in the lobby: no invite needed."""
        row = await self.table_store.table(table_id) if len(table_id) <= 64 else None
        if row is None or not row.listed:
            raise LobbyError("no open table of that id", "table/not_found")
        return await self._sit(player, row, seat)

    async def _sit(self, player: PlayerRow, row: TableRow,
                   seat: int | None) -> tuple[Table, int]:
        missing = LobbyError("no open table has that invite code", "table/not_found")
        if row.rated and not player.account:
            raise LobbyError("this table is rated: sign in to an account to take a seat",
                             "table/rated_needs_account")
        table = await self.live(row.id)
        if table is None:
            raise missing
        if not isinstance(table, Table):  # another process runs it
            return await self.any_table(row.id), await table.join(player, seat)
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        await table.inbox.put(Join(player.id, player.nickname, future, player.account,
                                   player.username, seat))
        return table, await asyncio.wait_for(future, 10)  # a SeatError as it is

    async def fill_bot(self, player: PlayerRow, table_id: str, seat: int | None,
                       level: str) -> int:
        refused = refuse_level(level)
        if refused is not None:
            raise LobbyError(refused, "table/bad_options")
        table = await self.live(table_id) if len(table_id) <= 64 else None
        if table is None:
            raise LobbyError("no such table", "table/not_found")
        if not isinstance(table, Table):  # another process runs it
            return await table.fill_bot(seat, level, player.id)
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        await table.inbox.put(FillBot(seat, level, player.id, future))
        return await asyncio.wait_for(future, 10)  # a SeatError as it is

    async def live(self, table_id: str) -> Table | RemoteTable | None:
        """The live table if this process runs it, or the way to it when another process
        does (a table nobody runs is adopted here first); None if it is not live."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        where = await self.placement.locate(table_id)
        if where is True:
            adopted = await self.adopt(table_id)
            if adopted is not None:
                return adopted
            # Another process adopted it between the look and the claim (every survivor of
            # a dead node reaches for its tables at once): the way to it, not its last
            # stored state as if it had ended.
            where = await self.placement.locate(table_id)
            if where is True:
                return None  # not live after all
        if where is False:  # this process's: running, or claimed and being rebuilt
            return await self._adopted(table_id)
        return where

    async def live_matches(self) -> list[dict[str, Any]]:
        """The matches being played now on the whole site (``GET /api/live``)."""
        return await self.placement.live_matches(self.live_here())

    def live_here(self) -> list[dict[str, Any]]:
        """The summaries of the matches this process runs (:mod:`basra.server.reads.live`)."""
        return live_summaries(self.tables.values())

    async def _rematch(self, old: Table) -> str | None:
        """A new table with the same people and bots, seats turned by one."""
        humans = [s for s in old.seats if s.human]
        options = TableOptions(old.row.variant, old.row.seats, old.row.teams,
                               old.row.bot_level, old.row.clock_seconds, old.row.rated,
                               old.row.length)
        # (the username stands for "an account" here: only .account is read)
        players = [PlayerRow(s.player_id or "", s.nickname or "", datetime.now(UTC),
                             username=s.nickname if s.account else None) for s in humans]
        kind: TableKind = old.row.kind
        owner = players[0] if players else None
        table = await self._create(kind, options, players, owner=owner, rematch_of=old.row.id)
        return table.row.id

    # ------------------------------------------------------------------ quick match

    async def quick_match(self, player: PlayerRow, variant: str, players: int = 2,
                          teams: bool = False, party: str | None = None) -> Ticket:
        """The player's ticket in the pool of ``variant`` and the seating (their waiting
        one, or a new one): the pools are filled every ``pairing_seconds``
        (:meth:`pair_pools`)."""
        pool = self.quick_pool(variant, players, teams)
        return await self.pools.join(player, pool, await self.rating_of(player, pool.variant),
                                     party, await self.avoided(player))

    async def avoided(self, player: PlayerRow) -> frozenset[str]:
        """Whom quick match never seats ``player`` with: those they block and who block
        them (an account's)."""
        return frozenset(await self.store.blocked_ids(player.id)) if player.account \
            else frozenset()

    def quick_pool(self, variant: str, players: int = 2, teams: bool = False) -> Pool:
        """The quick-match pool of a variant and a seating (where the variant plays that
        many only in teams, in teams); a seating the variant does not play is refused."""
        self.check_options(TableOptions(variant=variant))
        rules = find_variant(variant)
        if not teams and (players, False) not in rules.seatings:
            teams = True
        self.check_options(TableOptions(variant=variant, players=players, teams=teams))
        return Pool(rules.name, players, teams)

    async def rating_of(self, player: PlayerRow, variant: str) -> Rating:
        """The player's rating in ``variant`` (a guest's, or a newcomer's: the start)."""
        if not player.account:
            return Rating()
        for row in await self.store.ratings(player.id):
            if row.variant == variant:
                return Rating(row.rating, row.deviation, row.volatility)
        return Rating()

    async def _pair_forever(self) -> None:
        while True:
            await asyncio.sleep(self.settings.pairing_seconds)
            try:
                await self.pair_pools()
            except Exception:  # pairing must outlive one bad pass
                log.exception("quick-match pairing failed")

    async def pair_pools(self) -> int:
        """Pair every variant's pool once (:func:`basra.server.quick.pools.pair_waiting`:
        as many pairs as can be, the smallest sum of rating gaps, windows widening with
        the wait); how many tables were made. A cluster's shared pools are paired under
        their Redis locks, by whichever node gets there first."""
        return await self.pools.pair_pools(self._quick_table)

    async def _absent(self, table: Table, present: list[str]) -> dict[str, str]:
        """A quick-match table given up because a matched player never came: every player
        who did come gets a new ticket at the front of the queue, with a bot offered at
        once. Returns their new ticket ids by player id."""
        out: dict[str, str] = {}
        if table.row.kind != "quick":
            return out
        waited = self.settings.quick_match_bot_offer_seconds
        for seat in table.seats:
            if seat.player_id is None or seat.player_id not in present:
                continue
            player = await self.store.player(seat.player_id) or PlayerRow(
                seat.player_id, seat.nickname or "", datetime.now(UTC))
            rating = await self.rating_of(player, table.row.variant)
            pool = Pool(table.row.variant, table.row.seats, table.row.teams)
            out[player.id] = await self.pools.requeue(player, pool, waited, rating)
        return out

    async def ticket(self, ticket_id: str, player: PlayerRow) -> Ticket:
        ticket = await self.pools.find(ticket_id, player)
        if ticket is None:
            raise LobbyError("no such quick-match ticket", "queue/not_found")
        return ticket

    async def wait(self, ticket: Ticket, seconds: float,
                   gone: Callable[[], Awaitable[bool]] | None = None) -> None:
        """Wait up to ``seconds`` (30 at most) for a match, or until a bot is offered; the
        ticket stays alive while this runs, and ``gone`` (the client hung up) ends the wait
        early."""
        deadline = time.monotonic() + max(0.0, min(seconds, 30.0))
        if not self.bot_offered(ticket):
            offer_at = ticket.since + self.settings.quick_match_bot_offer_seconds
            deadline = min(deadline, offer_at + 0.01)
        await self.pools.wait(ticket, deadline, gone)

    def bot_offered(self, ticket: Ticket) -> bool:
        return (ticket.table_id is None and time.monotonic() - ticket.since
                >= self.settings.quick_match_bot_offer_seconds)

    async def take_bot(self, ticket: Ticket, level: str) -> Table:
        """Bots in the empty seats now: the ticket's player (and their partner, on their
        side) and bots of ``level``."""
        partner = await self._partner_ticket(ticket)
        if ticket.table_id is not None or not await self.pools.claim(ticket):
            raise LobbyError("you were matched with a player already", "queue/matched")
        if partner is not None and not await self.pools.claim(partner):
            partner = None  # gone meanwhile: the player alone with bots
        options = TableOptions(ticket.variant, ticket.players, ticket.teams, bot_level=level)
        seated: list[PlayerRow | None] = [ticket.player]
        if partner is not None:
            seated = [ticket.player, None, partner.player]  # seats 0 and 2: one side
        table = await self._create("bot", options, seated, owner=ticket.player)
        for mine in (ticket, partner):
            if mine is not None:
                await self.pools.matched(mine, table.row.id)
        return table

    async def _partner_ticket(self, ticket: Ticket) -> Ticket | None:
        """The ticket of the partner the ticket queued with, if they still wait."""
        if ticket.party is None:
            return None
        invite = await self.pools.invitation(ticket.party)
        if invite is None or invite.partner is None:
            return None
        if ticket.player.id == invite.host.id:
            other, other_id = invite.partner, invite.partner_ticket
        else:
            other, other_id = invite.host, invite.host_ticket
        found = await self.pools.find(other_id, other) if other_id else None
        return found if found is not None and found.table_id is None else None

    async def leave(self, ticket: Ticket) -> None:
        await self.pools.leave(ticket)

    # ------------------------------------------------------------------ challenges

    def challenge_terms(self, terms: Terms) -> Terms:
        """A challenge's terms as its table would be made (four where the variant plays
        four only in teams is in teams; a rated one needs an account on every seat, which
        a challenge between accounts has for two; more are invited by the table's link
        and must be accounts to sit): refused with the table's codes."""
        self.check_options(TableOptions(variant=terms.variant))
        rules = find_variant(terms.variant)
        teams = terms.teams
        if not teams and (terms.players, False) not in rules.seatings:
            teams = True
        options = TableOptions(terms.variant, terms.players, teams, rated=terms.rated,
                               length=terms.length)
        self.check_options(options)
        return replace(terms, variant=rules.name, teams=teams)

    async def challenge_table(self, challenge: GameChallengeRow, challenger: PlayerRow,
                              challenged: PlayerRow) -> str:
        """The private table of an accepted challenge: the challenger in seat 0, the
        challenged in seat 1 (opponents in every seating), the other seats open to its
        invite link."""
        options = TableOptions(challenge.variant, challenge.players, challenge.teams,
                               rated=challenge.rated, length=challenge.length)
        table = await self._create("private", options, [challenger, challenged],
                                   owner=challenger)
        return table.row.id

    # ------------------------------------------------------------------ partners

    async def partner_invite(self, host: PlayerRow, variant: str, players: int = 4,
                             teams: bool = True) -> PartnerInvite:
        """A partner invite of ``host`` for a team pool: whoever accepts it first queues
        with them, on their side (:meth:`accept_partner`)."""
        pool = self.quick_pool(variant, players, teams)
        if not pool.teams:
            raise LobbyError("a partner sits beside you in a game of two teams: choose four "
                             "players in teams", "partner/not_teams")
        return await self.pools.invite(host, pool)

    async def partner_invitation(self, code: str, player: PlayerRow | None = None,
                                 wait: float = 0) -> PartnerInvite:
        """The invite of ``code``; its host asking (``player``) says they are still there,
        and may wait up to ``wait`` seconds (30 at most) for an answer."""
        code = code.strip().upper()[:32]
        invite = await self.pools.invitation(code)
        if invite is None:
            raise LobbyError("no such partner invite", "partner/not_found")
        if player is not None and player.id == invite.host.id:
            deadline = time.monotonic() + max(0.0, min(wait, 30.0))
            invite = await self.pools.wait_invite(code, deadline) or invite
        return invite

    def invite_open(self, invite: PartnerInvite) -> bool:
        return invite.open(time.time(), self.settings.ticket_lapse_seconds)

    async def accept_partner(self, code: str, player: PlayerRow) -> Ticket:
        """``player`` accepts the invite: both wait in its team pool as partners (the
        host's ticket is handed to the host's wait); the player's ticket."""
        invite = await self.partner_invitation(code)
        if invite.host.id == player.id:
            raise LobbyError("this is your own invite: send its link to your partner",
                             "partner/self")
        closed = LobbyError(f"{invite.host.nickname} is no longer looking for a partner with "
                            "this invite", "partner/closed")
        if not self.invite_open(invite):
            raise closed
        if player.id in await self.avoided(invite.host):
            raise LobbyError(f"you cannot partner {invite.host.nickname}", "social/blocked")
        if not await self.pools.answer(invite.code, "accepted", player):
            raise closed
        pool = invite.pool
        host = await self.pools.join(invite.host, pool,
                                     await self.rating_of(invite.host, pool.variant),
                                     invite.code, await self.avoided(invite.host))
        mine = await self.pools.join(player, pool, await self.rating_of(player, pool.variant),
                                     invite.code, await self.avoided(player))
        await self.pools.hand_ticket(invite.code, host.id, mine.id)
        return mine

    async def refuse_partner(self, code: str, player: PlayerRow) -> PartnerInvite:
        """The invite is declined (by anyone but its host) or cancelled (by its host)."""
        invite = await self.partner_invitation(code)
        status = "cancelled" if invite.host.id == player.id else "declined"
        if not await self.pools.answer(invite.code, status, player):
            raise LobbyError("this invite was answered already", "partner/closed")
        return await self.partner_invitation(code)
