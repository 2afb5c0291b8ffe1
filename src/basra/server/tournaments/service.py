"""The site's tournaments: making an event, joining it, and running the ones this process
leads.

:class:`Tournaments` is what the routes ask. It checks a new event (:mod:`.spec`), lets
players join, withdraw and pause, and runs a :class:`~.director.Director` for each event
running or starting within :data:`LEAD_BEFORE_SECONDS` that this process leads
(:class:`Leadership`: one process leads every event; a cluster node leads those whose
lease it holds, :mod:`basra.server.cluster.tournaments`). A
director that loses its lease stops; whoever takes the lease reloads the event from the
store and goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any, Protocol, cast

from basra.ratings import Rating
from basra.server.identity.accounts import check_password, hash_password
from basra.server.identity.hashing import Hashing
from basra.server.lobby.tables import Lobby, TableOptions
from basra.server.tournaments import views
from basra.server.tournaments.audience import Audience
from basra.server.tournaments.director import READ_FRESH, Director, MakeTable, Started
from basra.server.tournaments.schedule import Schedule
from basra.server.tournaments.spec import EventSpec, TournamentError, new_event
from basra.store.base import (
    EntrantRow,
    EntrantStatus,
    PairingRow,
    PlayerRow,
    TableRow,
    TournamentRow,
    TournamentStatus,
)
from basra.store.ports import TournamentStore

log = logging.getLogger("basra.tournaments")

RatingOf = Callable[[PlayerRow, str], Awaitable[Rating]]
"""A player's rating in a variant (a guest's is the starting one)."""

FRESH_SECONDS = 1.0
"""How long a read (the list, an event led elsewhere) is answered again as it is."""
KEPT_READS = 256
"""Events led elsewhere whose last read is kept."""
MOST_TICKS_GAP = 0.2
"""The least time between two ticks, however often they are asked for."""
MOST_OPEN_EVENTS = 3
LEAD_BEFORE_SECONDS = 3600.0
"""An event is directed from this long before its start: its director tells the pages of
the entrants who join with the news (at most once a second), as it will once it runs.
Joins to an event further off are told to its pages one by one."""
"""Events one account may have upcoming or running at once."""


class Leadership(Protocol):
    """Which events this process directs."""

    async def lead(self, tournament_id: str) -> bool:
        """Take or keep the lead of the event: whether this process has it now."""

    async def let_go(self, tournament_id: str) -> None:
        """Stop leading the event (it ended, or this process stops)."""


class SoleLeader:
    """One process leads every event."""

    async def lead(self, tournament_id: str) -> bool:
        return True

    async def let_go(self, tournament_id: str) -> None:
        return None


class Tournaments:
    """Every event of the site, and the directors of the ones this process leads."""

    def __init__(  # noqa: PLR0913 - every port is an argument
            self, store: TournamentStore, audience: Audience, make_table: MakeTable,
                 rating_of: RatingOf, *, leadership: Leadership | None = None,
                 schedule: Schedule | None = None, hashing: Hashing | None = None,
                 tick_seconds: float = 1.0, last_pairing_seconds: float = 180.0) -> None:
        self.store = store
        self.audience = audience
        self.make_table = make_table
        self.rating_of = rating_of
        self.leadership: Leadership = leadership or SoleLeader()
        self.schedule = schedule
        self.hashing = hashing or Hashing()
        self.tick_seconds = tick_seconds
        self.last_pairing_seconds = last_pairing_seconds
        self.directors: dict[str, Director] = {}
        self.task: asyncio.Task[None] | None = None
        self.woken = asyncio.Event()
        self.scheduled_at: datetime | None = None
        self.kept: dict[str, tuple[float, Any]] = {}
        """Reads answered again for a moment: the list (key ""), and events led elsewhere
        (until news of the event comes from the process that leads it)."""
        self.loading: dict[str, asyncio.Task[Director]] = {}
        """Events led elsewhere being loaded for a read (one load however many ask)."""
        audience.on_news(self._heard)
        self.on_start: list[Started] = []
        """Told when an event this process directs starts (the players' bells)."""

    # ------------------------------------------------------------------ events

    def _started(self, row: TournamentRow, players: list[str]) -> None:
        for listener in self.on_start:
            listener(row, players)

    async def create(self, player: PlayerRow, spec: EventSpec, address: str = "",
                     now: datetime | None = None) -> TournamentRow:
        """A new event made by an account."""
        if not player.account:
            raise TournamentError("making a tournament needs an account: create one first",
                                  "tournament/needs_account")
        now = now or datetime.now(UTC)
        mine = [t for t in await self.store.tournaments(("upcoming", "running"),
                                                        listed_only=False)
                if t.created_by == player.id]
        if len(mine) >= MOST_OPEN_EVENTS:
            raise TournamentError(f"you have {MOST_OPEN_EVENTS} events to come already",
                                  "tournament/too_many")
        password = (await hash_password(self.hashing, address, spec.password)
                    if spec.password else None)
        row = new_event(spec, now, created_by=player.id, password_hash=password)
        await self.store.create_tournament(row)
        self.woken.set()
        return row

    async def event(self, tournament_id: str) -> TournamentRow:
        row = (await self.store.tournament(tournament_id)
               if 0 < len(tournament_id) <= 64 else None)
        if row is None:
            raise TournamentError("no such tournament", "tournament/not_found")
        director = self.directors.get(tournament_id)
        return director.row if director is not None else row

    async def join(self, player: PlayerRow, tournament_id: str,
                   password: str | None = None, address: str = "") -> EntrantRow:
        """The player enters the event (or comes back to it after a pause or a withdrawal)."""
        row = await self.event(tournament_id)
        if row.status not in ("upcoming", "running") or (
                row.format == "swiss" and row.rounds is not None and row.round >= row.rounds):
            raise TournamentError("this tournament is over", "tournament/closed")
        if row.rated and not player.account:
            raise TournamentError("this tournament is rated: sign in to an account to join",
                                  "tournament/needs_account")
        entrant = await self.store.entrant_of(tournament_id, player.id)
        if row.password_hash is not None and entrant is None and not (
                password and (await check_password(self.hashing, address,
                                                   row.password_hash, password)).ok):
            raise TournamentError("wrong tournament password", "tournament/password")
        if entrant is None:
            rating = await self.rating_of(player, row.variant)
            self._check_range(row, player, rating)
            entrant = await self.store.add_entrant(EntrantRow(
                tournament_id, player.id, (player.id,), player.nickname, rating.rating,
                "active", datetime.now(UTC), usernames=(player.username,)))
        if entrant.status != "active":
            await self.store.set_entrant(tournament_id, entrant.id, status="active",
                                         absences=0)
            entrant = replace(entrant, status="active", absences=0)
        await self._changed(entrant)
        return entrant

    @staticmethod
    def _check_range(row: TournamentRow, player: PlayerRow, rating: Rating) -> None:
        if row.min_rating is None and row.max_rating is None:
            return
        if not player.account:
            raise TournamentError("this tournament has a rating range: sign in to an "
                                  "account to join", "tournament/needs_account")
        if ((row.min_rating is not None and rating.rating < row.min_rating)
                or (row.max_rating is not None and rating.rating > row.max_rating)):
            raise TournamentError(
                f"your {row.variant} rating ({rating.rating:.0f}) is outside this "
                f"tournament's range", "tournament/rating_range")

    async def leave(self, player: PlayerRow, tournament_id: str, *, pause: bool) -> EntrantRow:
        """Withdraw from the event, or (an arena only) pause: not paired until joining
        again. Points scored stay in the standings."""
        row = await self.event(tournament_id)
        entrant = await self.store.entrant_of(tournament_id, player.id)
        if entrant is None:
            raise TournamentError("you are not in this tournament", "tournament/not_joined")
        if pause and row.format != "arena":
            raise TournamentError("only an arena can be paused: withdraw instead",
                                  "tournament/bad_options")
        status: EntrantStatus = "paused" if pause else "withdrawn"
        await self.store.set_entrant(tournament_id, entrant.id, status=status)
        entrant = replace(entrant, status=status)
        await self._changed(entrant)
        return entrant

    async def _changed(self, entrant: EntrantRow) -> None:
        """An entrant joined, left or paused: the director here counts it at its next step
        (and pushes the standings); else (an event not directed yet, or directed by another
        node, which reads the entrants again within seconds) its pages get their pages as
        they are now."""
        director = self.directors.get(entrant.tournament_id)
        if director is not None:
            director.entrant_changed(entrant)
            self.woken.set()
            return
        self.kept.pop(entrant.tournament_id, None)
        reader = await self._director(entrant.tournament_id)
        await self.audience.news(entrant.tournament_id, reader.everything(entrant.players))

    async def listing(self, now: datetime | None = None) -> dict[str, list[dict[str, Any]]]:
        """The listed events: upcoming and running (soonest first), the last finished."""
        now = now or datetime.now(UTC)
        kept = self.kept.get("")
        if kept is not None and time.monotonic() - kept[0] < FRESH_SECONDS:
            return cast(dict[str, list[dict[str, Any]]], kept[1])
        out: dict[str, list[dict[str, Any]]] = {"upcoming": [], "running": [], "finished": []}
        lists: tuple[tuple[TournamentStatus, int], ...] = (
            ("upcoming", 100), ("running", 100), ("finished", 30))
        for status, most in lists:
            for row in await self.store.tournaments((status,), most):
                director = self.directors.get(row.id)
                row = director.row if director is not None else row
                out[row.status].append(views.event_json(row, now))
        self.kept[""] = (time.monotonic(), out)
        return out

    async def _director(self, tournament_id: str) -> Director:
        """The event's director here, or one loaded from the store to answer a read (kept
        for a second: reads of an event led elsewhere cost one load a second)."""
        director = self.directors.get(tournament_id)
        if director is not None:
            return director
        kept = self.kept.get(tournament_id)
        if kept is not None and time.monotonic() - kept[0] < FRESH_SECONDS:
            return cast(Director, kept[1])
        loading = self.loading.get(tournament_id)
        if loading is None:
            loading = self.loading[tournament_id] = asyncio.ensure_future(
                self._load(tournament_id))
            loading.add_done_callback(lambda _: self.loading.pop(tournament_id, None))
        return await asyncio.shield(loading)

    async def _load(self, tournament_id: str) -> Director:
        row = await self.event(tournament_id)
        director = Director(row, self.store, self.audience, self.make_table)
        await director.load()
        if len(self.kept) >= KEPT_READS:
            self.kept.pop(next(iter(self.kept)))
        self.kept[tournament_id] = (time.monotonic(), director)
        return director

    def _heard(self, tournament_id: str) -> None:
        """News of an event came from the process that leads it: a read loaded before it
        is not kept (a page opened from it would show what the news just changed)."""
        self.kept.pop(tournament_id, None)

    async def state(self, tournament_id: str, page: int | None = None,
                    player_id: str | None = None) -> str:
        """The event as its page first shows it (the socket's first message): one page of
        its standings, ``page`` or else the one that holds ``player_id``'s row."""
        director = await self._director(tournament_id)
        return director.snapshot(page if page is not None else director.page_of(player_id))

    async def page(self, tournament_id: str, page: int | None,
                   player_id: str | None = None) -> tuple[int, str]:
        """One page of the standings (``page``, or ``player_id``'s own): its number and its
        ``standings`` message."""
        director = await self._director(tournament_id)
        number = page if page is not None else director.page_of(player_id)
        number = min(max(1, number), director.pages)
        return number, director.page_text(number)

    async def mine(self, tournament_id: str, player_id: str) -> str | None:
        """``player_id``'s own row (a ``mine`` message), None if they have not joined."""
        return (await self._director(tournament_id)).mine(player_id)

    async def results(self, tournament_id: str) -> dict[str, Any]:
        """Every pairing by round with its result, the final standings and the podium."""
        director = await self._director(tournament_id)
        director.refresh(READ_FRESH)
        rounds: dict[int, list[dict[str, Any]]] = {}
        names = {e.id: e.name for e in director.entrants.values()}
        for pairing in director.pairings.values():
            rounds.setdefault(pairing.round, []).append(views.pairing_json(pairing, names))
        finished = director.row.status == "finished"
        return {"event": views.event_json(director.row),
                "standings": director.standings,
                "podium": director.standings[:3] if finished else [],
                "rounds": [{"round": number, "pairings": rounds[number]}
                           for number in sorted(rounds)]}

    def wake(self) -> None:
        """Something happened (a page opened): tick now rather than at the next second."""
        self.woken.set()

    def table_ended(self, table: TableRow) -> None:
        """A tournament's table ended in this process: its director counts it at once."""
        director = self.directors.get(table.tournament_id or "")
        if director is not None:
            director.ended(table)
            self.woken.set()

    # ------------------------------------------------------------------ running

    def start(self) -> None:
        self.task = asyncio.create_task(self._run_forever(), name="tournaments")

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        for tournament_id, director in list(self.directors.items()):
            director.close()
            await self.leadership.let_go(tournament_id)
        self.directors.clear()

    async def _run_forever(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.woken.wait(), self.tick_seconds)
            # Woken by many ends at once (a wave of matches), tick a few times a second.
            await asyncio.sleep(min(MOST_TICKS_GAP, self.tick_seconds))
            self.woken.clear()
            try:
                await self.tick()
            except Exception:  # the tournaments must outlive one bad tick
                log.exception("tournaments: a tick failed")

    async def tick(self, now: datetime | None = None) -> None:
        """Make the scheduled events due, take up the events due here, and move each one
        this process leads on by a step."""
        now = now or datetime.now(UTC)
        if self.schedule is not None and (
                self.scheduled_at is None or (now - self.scheduled_at).total_seconds() >= 60):
            self.scheduled_at = now
            for row in self.schedule.due(now):
                await self.store.create_tournament(row)
        for row in await self.store.tournaments(("upcoming", "running"), listed_only=False):
            if row.id in self.directors or (
                    row.status == "upcoming"
                    and (row.starts_at - now).total_seconds() > LEAD_BEFORE_SECONDS):
                continue
            if await self.leadership.lead(row.id):
                director = Director(row, self.store, self.audience, self.make_table,
                                    last_pairing_seconds=self.last_pairing_seconds,
                                    on_start=self._started)
                await director.load()
                self.directors[row.id] = director
                log.info("tournament %s directed here", row.id)
        for tournament_id, director in list(self.directors.items()):
            if not await self.leadership.lead(tournament_id):
                del self.directors[tournament_id]
                director.close()
                log.info("tournament %s is directed elsewhere now", tournament_id)
                continue
            if await director.tick(now):
                del self.directors[tournament_id]
                director.close()
                await self.leadership.let_go(tournament_id)


def lobby_tables(lobby: Lobby) -> MakeTable:
    """The lobby as the directors' table maker: a pairing's table, a tournament table of
    the event's variant, clock and length, rated when the event is and everyone seated has
    an account."""

    async def make(row: TournamentRow, pairing: PairingRow, entrants: list[EntrantRow]) -> None:
        assert pairing.table_id is not None
        now = datetime.now(UTC)
        players = [PlayerRow(player, entrant.name, now, username=username)
                   for entrant in entrants
                   for player, username in zip(entrant.players,
                                               entrant.usernames or (None,) * len(
                                                   entrant.players), strict=True)]
        options = TableOptions(row.variant, len(players), False, "medium", row.clock_seconds,
                               row.rated and all(p.account for p in players), row.length)
        await lobby.tournament_table(players, pairing.table_id, row.id, options)

    return make
