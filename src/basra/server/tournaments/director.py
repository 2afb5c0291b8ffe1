"""A running tournament's director: it starts the event, decides each finished match, pairs
the free entrants (arena) or the next round (Swiss), and ends the event.

One director runs per event, on the process that leads it (:mod:`.service`: one process, or
the holder of the event's lease in a cluster). Everything it decides is written to the
store before it acts on it: a pairing is stored (with its table's id) before the table is
made, a result before the standings move, so a director that dies is replaced by one that
reloads the event (:meth:`Director.load`) and goes on: a pairing whose table was never made
gets its table, a finished match not yet counted is counted once (the store decides a
pairing only once), and an entrant is never paired twice in one round or wave (the store
refuses it).

The maths (who plays whom, the standings) is pure: :mod:`.arena` and :mod:`.swiss`. The
director's own rules:

- an entrant is free when they are active (not paused or withdrawn), present (their page
  open: :meth:`Audience.present`) and not at an undecided pairing;
- an arena pairs its free entrants each tick until ``last_pairing_seconds`` before its end
  (a match that could not end in time is not begun); matches begun before the end count
  when they end, and the event ends with the last of them;
- a Swiss round starts when every match of the last one ended; an active entrant absent at
  pairing time is not paired, and one absent twice is withdrawn;
- an entrant whose seat a bot played from the start (they never came to the table) scores
  nothing for that match and is paused: they join again to be paired;
- the pages hear of the standings by page (:data:`.views.PAGE_ROWS` rows): a page whose
  rows changed goes to the watchers of that page, whole, at most once every
  :data:`NEWS_SECONDS`, with the matches shown (those of the best placed) when they changed
  and each player's own row when it changed; the event's own changes (started, ended) go
  out at once.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import orjson

from basra.server import metrics
from basra.server.ids import new_id
from basra.server.tournaments import views
from basra.server.tournaments.arena import Free, arena_pairs, arena_standings
from basra.server.tournaments.audience import Audience, News
from basra.server.tournaments.games import Game
from basra.server.tournaments.swiss import swiss_pairs, swiss_standings
from basra.store.base import (
    ENDED,
    DuplicatePairing,
    EntrantRow,
    PairingRow,
    TableRow,
    TournamentRow,
)
from basra.store.ports import TournamentStore

log = logging.getLogger("basra.tournaments")

MakeTable = Callable[[TournamentRow, PairingRow, list[EntrantRow]], Awaitable[None]]
Started = Callable[[TournamentRow, list[str]], None]
"""The event started: its row and the ids of its active entrants' players."""
"""Make a pairing's table (its id is the pairing's ``table_id``), seating each entrant's
players in the pairing's order; nothing if it exists already."""

ENTRANTS_RELOAD_SECONDS = 5.0
"""How often a director reads the entrants again (joins through other nodes)."""
REMATCH_WAIT = 10.0
"""Seconds two arena entrants who just met wait for someone else before meeting again."""
TABLES_AT_ONCE = 50
"""Tables of a wave made at once (their writes share group commits)."""
POLL_SECONDS = 1.0
"""How often a director reads every undecided pairing's table from the store."""
NEWS_SECONDS = 1.0
"""The least time between two batches of news (standings, matches) to an event's pages.
What changes meanwhile goes out together, a second at most after it happened: at 2,000
entrants a message for each result would cost the server and every page far more than
the few rows it carries (docs/BENCHMARKS.md)."""
READ_FRESH = 1.0
"""Seconds old the standings a read sees may be (a page opening, an ask, the API)."""
SWISS_ABSENCES = 2
"""A Swiss entrant absent at this many pairings is withdrawn."""


def ends_at(row: TournamentRow) -> datetime | None:
    """When an arena stops (its start and its duration); None for a Swiss."""
    if row.format != "arena" or row.minutes is None:
        return None
    return row.starts_at + timedelta(minutes=row.minutes)


def outcome(pairing: PairingRow, table: TableRow | None
            ) -> tuple[tuple[float, ...], tuple[str, ...]] | None:
    """A pairing's points per entrant and its absent entrants, once its table ended (None
    while it plays, or if its table is missing). A table given up before its first card
    (nobody came) scores nothing for anyone, all absent."""
    if table is None or table.status not in ENDED:
        return None
    entrants = pairing.entrants
    if table.status == "abandoned" or table.result is None:
        return tuple(0.0 for _ in entrants), entrants
    winner = table.result.get("winner")
    points = tuple(0.5 if winner is None else 1.0 if winner == side else 0.0
                   for side in range(len(entrants)))
    absent = tuple(entrants[seat] for seat in table.result.get("absent", ())
                   if isinstance(seat, int) and 0 <= seat < len(entrants))
    return points, absent


def game_of(pairing: PairingRow) -> Game | None:
    """A decided pairing as the standings count it (None while undecided)."""
    if pairing.points is None:
        return None
    return Game(pairing.round, pairing.entrants, pairing.points,
                frozenset(pairing.absent), pairing.ratings)


class Director:
    """One event's director while this process leads it. Call :meth:`load`, then
    :meth:`tick` every second or so (and :meth:`wake` when a table of it ends here)."""

    def __init__(self, row: TournamentRow, store: TournamentStore, audience: Audience,  # noqa: PLR0913
                 make_table: MakeTable, *, last_pairing_seconds: float = 180.0,
                 news_seconds: float = NEWS_SECONDS, on_start: Started | None = None) -> None:
        self.row = row
        self.on_start = on_start
        """Told the players of the active entrants when the event starts (their bells)."""
        self.store = store
        self.audience = audience
        self.make_table = make_table
        self.last_pairing_seconds = last_pairing_seconds
        self.entrants: dict[str, EntrantRow] = {}
        self.by_player: dict[str, str] = {}
        self.pairings: dict[str, PairingRow] = {}
        self.games: list[Game] = []
        self.busy: dict[str, str] = {}
        """Entrant -> the undecided pairing they are at."""
        self.unmade: set[str] = set()
        """Pairings whose table is still to be made."""
        self.free_since: dict[str, float] = {}
        self.last_opponent: dict[str, str] = {}
        self.version = 0
        self.standings: list[dict[str, Any]] = []
        """The standings as they are now (the pages hear of them with the next news)."""
        self.told: dict[str, dict[str, Any]] = {}
        """Each entrant's row as its player last heard of it (``mine``), without its rank."""
        self.at: dict[str, int] = {}
        """Each entrant's place (from 0) in :attr:`standings`."""
        self.told_pages: list[list[dict[str, Any]]] = []
        """The standings as the news last told them, page by page."""
        self.unsure: set[int] = set()
        """Pages some page was shown fresher than the news told them (the next news sends
        them whatever they are by then)."""
        self.shown: list[dict[str, Any]] = []
        """The matches the pages list (:data:`.views.PLAYING_SHOWN`), as they last heard."""
        self.counts = (0, 1, 0)
        """How many entrants, pages and matches being played, as the pages last heard."""
        self.texts: dict[tuple[str, int], str] = {}
        """Messages made once for every watcher who asks (a page's snapshot, a page)."""
        self.standings_stale = False
        """An entrant or a result changed since the standings were counted (:meth:`refresh`)."""
        self.counted_at = -READ_FRESH
        """When the standings were last counted (``time.monotonic()``)."""
        self.entrants_loaded = time.monotonic()
        self.ended_tables: dict[str, TableRow] = {}
        self.polled_at = 0.0
        self.playing_due = False
        """Pairings were made or decided since the last news (:meth:`_news`)."""
        self.standings_due = False
        """Whether the standings changed since the last news."""
        self.news_seconds = news_seconds
        self.news_at = -news_seconds
        """When the last news went out (``time.monotonic()``)."""
        self.news_timer: asyncio.TimerHandle | None = None
        self.news_task: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ state

    async def load(self) -> None:
        """The event as stored: its entrants and every pairing so far."""
        row = await self.store.tournament(self.row.id)
        if row is not None:
            self.row = row
        self.entrants = {}
        for entrant in await self.store.entrants(self.row.id):
            self._add_entrant(entrant)
        self.pairings, self.games, self.busy = {}, [], {}
        for pairing in await self.store.pairings(self.row.id):
            self._add_pairing(pairing)
        # The tables of undecided pairings are asked for at the first tick: those missing
        # are made then (the store's `undecided`), the others are being played.
        self.unmade = set()
        self._count()
        # What the pages heard is not known here (another process may have led the event
        # until now, and died before its last news): the first news tells them everything.
        self.told, self.told_pages = {}, []
        self.standings_due = True
        self.shown, live = self._shown()
        self.counts = (len(self.standings), self.pages, live)
        self.version += 1
        self.texts = {}

    def _add_entrant(self, entrant: EntrantRow) -> None:
        self.entrants[entrant.id] = entrant
        for player in entrant.players:
            self.by_player[player] = entrant.id
        self.free_since.setdefault(entrant.id, time.monotonic())

    def _add_pairing(self, pairing: PairingRow) -> None:
        self.pairings[pairing.id] = pairing
        game = game_of(pairing)
        if game is not None:
            self.games.append(game)
        elif pairing.table_id is not None:
            for entrant in pairing.entrants:
                self.busy[entrant] = pairing.id
        if len(pairing.entrants) == 2:
            a, b = pairing.entrants
            self.last_opponent[a], self.last_opponent[b] = b, a

    def refresh(self, within: float = 0.0) -> None:
        """The standings counted again if an entrant or a result changed them since, unless
        they were counted less than ``within`` seconds ago (a read: counting 2,000 entrants
        holds the event loop some 20 ms, so reads see them at most :data:`READ_FRESH` old;
        the pages hear of them with the news, which counts them first)."""
        if self.standings_stale and time.monotonic() - self.counted_at >= within:
            self.standings_stale = False
            self._count()
            self.texts = {}
            self.standings_due = True

    def entrant_changed(self, entrant: EntrantRow) -> None:
        """An entrant joined or changed status (on this process): counted at the next tick."""
        known = entrant.id in self.entrants
        self._add_entrant(entrant)
        if not known:
            self.free_since[entrant.id] = time.monotonic()
        self.standings_stale = True

    # ------------------------------------------------------------------ the tick

    async def tick(self, now: datetime | None = None) -> bool:
        """One step of the event: start it when due, decide ended matches, pair, end it.
        Whether the event is over (its director can go)."""
        now = now or datetime.now(UTC)
        if self.row.status in ("finished", "cancelled"):
            return True
        if self.row.status == "upcoming":
            if now < self.row.starts_at:
                await self._before_start()
                return False
            if not await self._start(now):
                return True
        changed = await self._reload_entrants()
        changed |= await self._decide()
        await self._make_tables()
        if self.row.format == "arena":
            changed |= await self._arena(now)
        else:
            changed |= await self._swiss(now)
        if changed and self.row.status == "running":
            self.standings_stale = True
        await self._news()
        return self.row.status in ("finished", "cancelled")

    async def _before_start(self) -> None:
        """Before the start, the entrants who joined or left go to the pages with the news
        (a joining crowd is a row each, at most once a second, not a message each)."""
        await self._reload_entrants()
        await self._news()

    async def _reload_entrants(self) -> bool:
        """Every few seconds, the entrants as stored: those who joined or left through
        another process of a cluster are counted too."""
        clock = time.monotonic()
        if clock - self.entrants_loaded < ENTRANTS_RELOAD_SECONDS:
            return False
        self.entrants_loaded = clock
        changed = False
        for entrant in await self.store.entrants(self.row.id):
            if self.entrants.get(entrant.id) != entrant:
                self.entrant_changed(entrant)
                changed = True
        return changed

    async def _start(self, now: datetime) -> bool:
        """Start the event; whether it runs (a Swiss of fewer than two is cancelled)."""
        active = [e for e in self.entrants.values() if e.status == "active"]
        if self.row.format == "swiss" and len(active) < 2:
            await self._set(status="cancelled", finished_at=now)
            return False
        await self._set(status="running", started_at=now)
        if self.on_start is not None:
            ids = {e.id for e in active}
            try:
                self.on_start(self.row, [p for p, e in self.by_player.items() if e in ids])
            except Exception:  # a listener's fault never stops the event
                log.exception("tournament %s: its start hook failed", self.row.id)
        return True

    async def _set(self, **changes: Any) -> None:
        await self.store.update_tournament(self.row.id, **changes)
        self.row = replace(self.row, **changes)
        self.version += 1
        self.texts = {}
        await self.audience.publish(self.row.id, _text(
            {"type": "event", "v": self.version, "event": views.event_json(self.row)}))

    def ended(self, table: TableRow) -> None:
        """A table of this event ended in this process: counted at the next tick without
        asking the store."""
        self.ended_tables[table.id] = table

    async def _undecided(self) -> list[tuple[PairingRow, TableRow | None]]:
        """The undecided pairings with their tables: those whose tables ended here, and
        every second all of them as stored (tables of other processes, hooks missed)."""
        clock = time.monotonic()
        if clock - self.polled_at >= POLL_SECONDS:
            self.polled_at = clock
            self.ended_tables.clear()
            return await self.store.undecided(self.row.id)
        by_table = {p.table_id: p for p in self.pairings.values()
                    if p.points is None and p.table_id in self.ended_tables}
        out: list[tuple[PairingRow, TableRow | None]] = [
            (by_table[t], row) for t, row in self.ended_tables.items() if t in by_table]
        self.ended_tables.clear()
        return out

    async def _decide(self) -> bool:
        """Count the matches that ended (a result counts once: the store decides it). The
        results of many matches that ended together are written together (they share the
        store's group commits); one whose write failed is counted at a later tick."""
        if not self.busy and not self.unmade:
            return False
        ended: list[tuple[PairingRow, tuple[float, ...], tuple[str, ...]]] = []
        for pairing, table in await self._undecided():
            if table is None:
                if pairing.table_id is not None:
                    self.unmade.add(pairing.id)
                continue
            self.unmade.discard(pairing.id)
            result = outcome(pairing, table)
            if result is not None:
                ended.append((pairing, *result))
        stored = await asyncio.gather(
            *(self.store.decide(self.row.id, pairing.id, points, absent)
              for pairing, points, absent in ended), return_exceptions=True)
        decided = False
        away: list[str] = []
        for (pairing, points, absent), written in zip(ended, stored, strict=True):
            if isinstance(written, BaseException):
                if not isinstance(written, Exception):
                    raise written
                log.error("tournament %s: pairing %s could not be decided: %s", self.row.id,
                          pairing.id, written)
                continue
            decided |= written
            pairing = replace(pairing, points=points, absent=absent,
                              decided_at=datetime.now(UTC))
            self.pairings[pairing.id] = pairing
            game = game_of(pairing)
            if game is not None:
                self.games.append(game)
            for entrant in pairing.entrants:
                self.busy.pop(entrant, None)
                self.free_since[entrant] = time.monotonic()
            away.extend(absent)
            self.playing_due = True
        # Every result is counted before anyone is paused: a pause that fails leaves its
        # entrant active (paired again), never a decided match busy for good.
        await self._pause_all(away)
        return decided

    async def _pause_all(self, away: list[str]) -> None:
        """Pause the entrants ``away``, written together as results are: one after
        another, the hundreds absent from a start's wave held the tick (and the
        standings' news) for seconds."""
        paused = await asyncio.gather(*(self._pause(entrant) for entrant in away),
                                      return_exceptions=True)
        for entrant, failed in zip(away, paused, strict=True):
            if isinstance(failed, BaseException):
                if not isinstance(failed, Exception):
                    raise failed
                log.error("tournament %s: entrant %s could not be paused", self.row.id,
                          entrant, exc_info=failed)

    async def _pause(self, entrant_id: str) -> None:
        entrant = self.entrants.get(entrant_id)
        if entrant is None or entrant.status != "active":
            return
        await self.store.set_entrant(self.row.id, entrant_id, status="paused")
        self.entrants[entrant_id] = replace(entrant, status="paused")

    async def _make_tables(self) -> None:
        """Make the tables of the pairings that have none yet, :data:`TABLES_AT_ONCE` at a
        time (a wave of a thousand opens as a few dozen group commits, and the event loop
        serves the tables already playing between them), then tell each player."""
        waiting = [self.pairings[p] for p in sorted(self.unmade) if p in self.pairings]
        for start in range(0, len(waiting), TABLES_AT_ONCE):
            chunk = waiting[start:start + TABLES_AT_ONCE]
            made = await asyncio.gather(*(self._make_table(p) for p in chunk))
            for pairing, ok in zip(chunk, made, strict=True):
                if not ok:
                    continue
                self.unmade.discard(pairing.id)
                for entrant in pairing.entrants:
                    for player in self.entrants[entrant].players:
                        await self.audience.tell(self.row.id, player, _text(
                            {"type": "paired", "table": pairing.table_id,
                             "tournament": self.row.id}))
            await asyncio.sleep(0)

    async def _make_table(self, pairing: PairingRow) -> bool:
        """Make one pairing's table; whether it is there now (a failure is tried again
        at the next tick)."""
        if pairing.table_id is None:
            self.unmade.discard(pairing.id)
            return False
        try:
            await self.make_table(self.row, pairing,
                                  [self.entrants[e] for e in pairing.entrants])
        except Exception:  # e.g. the store is down: tried again next tick
            log.exception("tournament %s: table %s could not be made", self.row.id,
                          pairing.table_id)
            return False
        return True

    # ------------------------------------------------------------------ pairing

    async def _free(self) -> list[str]:
        present = await self.audience.present(self.row.id)
        return [e.id for e in self.entrants.values()
                if e.status == "active" and e.id not in self.busy
                and all(p in present for p in e.players)]

    async def _arena(self, now: datetime) -> bool:
        end = ends_at(self.row)
        if end is not None and now >= end:
            if self.busy or self.unmade:
                return False  # the matches begun before the end count when they end
            await self._finish(now)
            return True
        if end is not None and (end - now).total_seconds() < self.last_pairing_seconds:
            return False
        free = await self._free()
        started = time.thread_time()
        if len(free) < 2 or self._rematch_too_soon(free):
            return False
        ranks = {row["entrant"]: row["rank"] for row in self.standings}
        clock = time.monotonic()
        pairs = arena_pairs([
            Free(e, ranks.get(e, len(ranks) + 1), self.entrants[e].rating,
                 self.last_opponent.get(e), clock - self.free_since.get(e, clock))
            for e in free])
        if not pairs:
            return False
        await self._pair(self.row.round + 1, pairs, None, started)
        return True

    def _rematch_too_soon(self, free: list[str]) -> bool:
        """Two who just played each other are the only ones free: they wait a little for
        someone else to be free before they meet again."""
        if len(free) != 2 or self.last_opponent.get(free[0]) != free[1]:
            return False
        clock = time.monotonic()
        return min(clock - self.free_since.get(e, clock) for e in free) < REMATCH_WAIT

    async def _swiss(self, now: datetime) -> bool:
        if self.busy or self.unmade:
            return False
        rounds = self.row.rounds or 0
        if self.row.round >= rounds:
            await self._finish(now)
            return True
        present = await self.audience.present(self.row.id)
        active = {e.id: e for e in self.entrants.values() if e.status == "active"}
        here = {e for e, row in active.items() if all(p in present for p in row.players)}
        for entrant_id, entrant in active.items():
            if entrant_id in here:
                continue
            absences = entrant.absences + 1
            status = "withdrawn" if absences >= SWISS_ABSENCES else entrant.status
            await self.store.set_entrant(self.row.id, entrant_id, absences=absences,
                                         status=status)
            self.entrants[entrant_id] = replace(entrant, absences=absences, status=status)
        started = time.thread_time()
        ratings = {e: row.rating for e, row in active.items()
                   if self.entrants[e].status == "active"}
        pairing = swiss_pairs(ratings, self.games, here)
        await self._pair(self.row.round + 1, pairing.pairs, pairing.bye, started)
        return True

    async def _pair(self, number: int, pairs: list[tuple[str, str]], bye: str | None,
                    started: float) -> None:
        """Store a round's (or a wave's) pairings with their tables' ids, then make the
        tables: a pairing is never lost nor made twice. ``started``: the thread time when
        this pairing began (its CPU is measured up to the store's write)."""
        made = datetime.now(UTC)
        rows = [PairingRow(self.row.id, new_id(), number, (a, b), new_id(), made,
                           ratings=(self.entrants[a].rating, self.entrants[b].rating))
                for a, b in pairs]
        if bye is not None:
            rows.append(PairingRow(self.row.id, new_id(), number, (bye,), None, made,
                                   points=(1.0,), ratings=(self.entrants[bye].rating,),
                                   decided_at=made))
        cpu = time.thread_time() - started
        try:
            await self.store.add_pairings(self.row.id, rows, round=number)
        except DuplicatePairing:  # another director got there first: it leads now
            log.warning("tournament %s: round %d was paired elsewhere", self.row.id, number)
            await self.load()
            return
        metrics.paired(self.row.format, cpu)
        log.info("tournament %s: %s %d paired, %d tables, %.1f ms of CPU", self.row.id,
                 "round" if self.row.format == "swiss" else "wave", number, len(pairs),
                 cpu * 1000)
        self.row = replace(self.row, round=number)
        if self.row.format == "swiss":  # its pages say which round is played
            self.version += 1
            await self.audience.publish(self.row.id, _text(
                {"type": "event", "v": self.version, "event": views.event_json(self.row)}))
        for pairing in rows:
            self._add_pairing(pairing)
            if pairing.table_id is not None:
                self.unmade.add(pairing.id)
        self.version += 1
        self.texts = {}
        self.playing_due = True
        await self._make_tables()

    # ------------------------------------------------------------------ the end

    async def _finish(self, now: datetime) -> None:
        self.standings_stale = True
        self.refresh()
        await self._news(now=True)  # the last results' rows first, then the end
        places = {row["entrant"]: row["rank"] for row in self.standings
                  if row.get("games", 0) > 0}
        await self.store.set_places(self.row.id, places)
        await self._set(status="finished", finished_at=now)
        log.info("tournament %s finished: %d entrants, %d games", self.row.id,
                 len(self.entrants), len(self.games))

    # ------------------------------------------------------------------ news

    async def _news(self, *, now: bool = False) -> None:
        """What changed since the last news, in one batch: the pages of the standings whose
        rows changed (each to its watchers), each player's own row that changed, and the
        matches shown if they changed; if the last news went out less than
        ``news_seconds`` (:data:`NEWS_SECONDS`) ago (and not ``now``), at that time
        instead. The standings are counted here (a second at most after they changed),
        not at every tick."""
        if not (self.playing_due or self.standings_due or self.standings_stale):
            return
        wait = self.news_at + self.news_seconds - time.monotonic()
        if wait > 0 and not now:
            if self.news_timer is None:
                self.news_timer = asyncio.get_running_loop().call_later(wait, self._news_due)
            return
        if self.news_timer is not None:
            self.news_timer.cancel()
            self.news_timer = None
        self.news_at = time.monotonic()
        self.refresh()
        self.version += 1
        self.texts = {}
        news = News()
        if self.standings_due:
            self.standings_due = False
            self._standings_news(news)
        if self.playing_due or news.pages:
            self.playing_due = False
            shown, live = self._shown()
            if shown != self.shown:
                news.everyone.append(_text({"type": "playing", "v": self.version,
                                            "matches": shown, "live": live}))
            self.shown = shown
        else:
            live = self.counts[2]
        counts = (len(self.standings), self.pages, live)
        if counts != self.counts:
            # How many entrants, pages and matches: a few bytes to every page, where the
            # count in every page's message would send every page again.
            self.counts = counts
            news.everyone.append(_text({"type": "counts", "v": self.version,
                                        "count": counts[0], "pages": counts[1],
                                        "live": counts[2]}))
        if news:
            await self.audience.news(self.row.id, news)

    def _news_due(self) -> None:
        self.news_timer = None
        if self.news_task is None or self.news_task.done():
            self.news_task = asyncio.create_task(self._news_safely(), name="tournament news")

    async def _news_safely(self) -> None:
        try:
            await self._news()
        except Exception:  # e.g. the cluster's bus is down: the next tick tries again
            log.exception("tournament %s: the news could not go out", self.row.id)

    def close(self) -> None:
        """This process no longer leads the event: no more news from here."""
        if self.news_timer is not None:
            self.news_timer.cancel()
            self.news_timer = None
        if self.news_task is not None:
            self.news_task.cancel()

    # ------------------------------------------------------------------ standings

    def _standings(self) -> list[dict[str, Any]]:
        ratings = {e.id: e.rating for e in self.entrants.values()}
        if self.row.format == "arena":
            return [views.arena_row_json(r, self.entrants[r.entrant], self._table(r.entrant))
                    for r in arena_standings(ratings, self.games)]
        names = {e.id: e.name for e in self.entrants.values()}
        return [views.swiss_row_json(r, self.entrants[r.entrant], self._table(r.entrant), names)
                for r in swiss_standings(ratings, self.games)]

    def _table(self, entrant: str) -> str | None:
        """The table ``entrant`` plays at now (their undecided pairing's), or None."""
        pairing = self.busy.get(entrant)
        return self.pairings[pairing].table_id if pairing is not None else None

    def _standings_news(self, news: News) -> None:
        """The pages whose rows changed since the news last told them, and the rows
        changed for their own players (a row whose rank alone moved is not: one result
        moves the ranks of many)."""
        before, pages = self.told_pages, _paged(self.standings)
        for index, rows in enumerate(pages):
            if index >= len(before) or index + 1 in self.unsure or before[index] != rows:
                news.pages[index + 1] = self.page_text(index + 1)
        self.told_pages = pages
        self.unsure.clear()
        for row in self.standings:
            unranked = _unranked(row)
            if self.told.get(row["entrant"]) != unranked:
                self.told[row["entrant"]] = unranked
                text = _text({"type": "mine", "v": self.version, "row": row})
                for player in self.entrants[row["entrant"]].players:
                    news.players[player] = text

    def _count(self) -> None:
        """The standings counted now (the news tells the pages later)."""
        self.counted_at = time.monotonic()
        self.standings = self._standings()
        self.at = {row["entrant"]: place for place, row in enumerate(self.standings)}

    def _shown(self) -> tuple[list[dict[str, Any]], int]:
        """The matches the pages list (those of the best placed first), and how many are
        being played."""
        live = {p for p in self.busy.values() if self.pairings[p].table_id is not None}
        last = len(self.at)
        best = sorted(live, key=lambda p: (min(self.at.get(e, last)
                                              for e in self.pairings[p].entrants), p))
        names = {e: self.entrants[e].name for p in best[:views.PLAYING_SHOWN]
                 for e in self.pairings[p].entrants if e in self.entrants}
        return [views.pairing_json(self.pairings[p], names)
                for p in best[:views.PLAYING_SHOWN]], len(live)

    # ------------------------------------------------------------------ what pages ask

    @property
    def pages(self) -> int:
        return max(1, -(-len(self.standings) // views.PAGE_ROWS))

    def page_of(self, player_id: str | None) -> int:
        """The page that holds ``player_id``'s row (1 if they have none)."""
        self.refresh(READ_FRESH)
        place = self.at.get(self.by_player.get(player_id or "") or "")
        return 1 if place is None else place // views.PAGE_ROWS + 1

    def page_text(self, page: int) -> str:
        """One page of the standings as they are now (a ``standings`` message: the page's
        rows, whole). Shown fresher than the news told it, it goes out with the next news
        whatever it is by then (or the page that saw it would keep it)."""
        self.refresh(READ_FRESH)
        page = min(max(1, page), self.pages)
        text = self.texts.get(("page", page))
        if text is None:
            text = self.texts["page", page] = _text({
                "type": "standings", "v": self.version, "page": page, "pages": self.pages,
                "count": len(self.standings), "rows": self._shown_rows(page)})
        return text

    def _shown_rows(self, page: int) -> list[dict[str, Any]]:
        rows = self.standings[(page - 1) * views.PAGE_ROWS:page * views.PAGE_ROWS]
        if page > len(self.told_pages) or self.told_pages[page - 1] != rows:
            self.unsure.add(page)
        return rows

    def snapshot(self, page: int = 1) -> str:
        """The event as a new watcher of ``page`` first gets it (kept until the next
        change): the event, that page of the standings, the matches shown."""
        self.refresh(READ_FRESH)
        page = min(max(1, page), self.pages)
        text = self.texts.get(("snapshot", page))
        if text is None:
            text = self.texts["snapshot", page] = _text({
                "type": "tournament", "v": self.version, "event": views.event_json(self.row),
                "page": page, "pages": self.pages, "count": len(self.standings),
                "standings": self._shown_rows(page), "playing": self.shown,
                "live": self.counts[2]})
        return text

    def everything(self, players: Iterable[str] = ()) -> News:
        """Every page of the standings as they are now, the counts and ``players``' own
        rows: what a process that does not direct the event tells the pages of a join or a
        leave it took (one row more moves every page after it)."""
        self.refresh()
        pages = {n: self.page_text(n) for n in range(1, self.pages + 1)}
        news = News([_text({"type": "counts", "v": self.version, "count": len(self.standings),
                            "pages": self.pages, "live": self.counts[2]})], pages)
        for player in players:
            mine = self.mine(player)
            if mine is not None:
                news.players[player] = mine
        return news

    def mine(self, player_id: str | None) -> str | None:
        """``player_id``'s own row as it is now (a ``mine`` message), None if they have
        none. Fresher than the news told it, the news tells it again."""
        self.refresh(READ_FRESH)
        entrant = self.by_player.get(player_id or "")
        place = self.at.get(entrant or "")
        if entrant is None or place is None:
            return None
        row = self.standings[place]
        if self.told.get(entrant) != _unranked(row):
            self.told.pop(entrant, None)
        return _text({"type": "mine", "v": self.version, "row": row})


def _unranked(row: dict[str, Any]) -> dict[str, Any]:
    """A row as its player's news compares it: without its rank (one result moves the
    ranks of many)."""
    return {key: value for key, value in row.items() if key != "rank"}


def _paged(rows: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    return [rows[start:start + views.PAGE_ROWS]
            for start in range(0, len(rows), views.PAGE_ROWS)]


def _text(message: dict[str, Any]) -> str:
    return orjson.dumps(message).decode()
