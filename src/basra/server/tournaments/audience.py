"""Who watches a tournament, and how its news reaches them.

A tournament's page holds one socket (``/ws/tournaments/{id}``); each is a :class:`Watcher`
with its own :class:`~basra.server.table.outbox.Outbox` and the page of the standings it
shows. The :class:`Audience` port carries the director's news to every watcher of the
event (:meth:`Audience.publish`: the event's changes), to one player's
(:meth:`Audience.tell`: "you are paired, your table is ..."), or a batch of both kinds and
of pages (:meth:`Audience.news`: each changed page of the standings to the watchers of that
page, each player's own changed row to their watchers, the matches shown to all), and says
who is there (:meth:`Audience.present`): in a tournament, a player is paired only while
their page is open, or while they play one of its matches.

:class:`LocalAudience` is the one-process implementation; a cluster's nodes share theirs
through Redis (:mod:`basra.server.cluster.tournaments`), with the same methods.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from basra.server.table.outbox import Outbox

log = logging.getLogger("basra.tournaments")


@dataclass(eq=False)
class Watcher:
    """One open tournament page: its player (None: not signed in) and its way out."""

    tournament_id: str
    player_id: str | None
    outbox: Outbox
    page: int = 1
    """The page of the standings it shows (1: the first :data:`.views.PAGE_ROWS` rows)."""
    since: int = 0
    """The first delivery for everyone it is owed (:class:`LocalAudience` sets it when it
    starts watching: what was queued before is older than its first message)."""


@dataclass
class News:
    """One batch of an event's news: ``everyone`` to every watcher, ``pages`` (page number
    -> text) to the watchers of that page, ``players`` (player id -> text) to that player's
    watchers."""

    everyone: list[str] = field(default_factory=list)
    pages: dict[int, str] = field(default_factory=dict)
    players: dict[str, str] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.everyone or self.pages or self.players)


class Audience(Protocol):
    """Watchers of tournaments, and the player presence they make."""

    def watch(self, watcher: Watcher) -> None:
        """A page opened (its player counts as present from now on)."""

    def unwatch(self, watcher: Watcher) -> None:
        """A page closed."""

    async def publish(self, tournament_id: str, text: str) -> None:
        """Send ``text`` to every watcher of the event, on every node."""

    async def tell(self, tournament_id: str, player_id: str, text: str) -> None:
        """Send ``text`` to the watchers of the event that are ``player_id``'s."""

    async def news(self, tournament_id: str, news: News) -> None:
        """Send a batch of news (:class:`News`) to the event's watchers, on every node."""

    async def present(self, tournament_id: str) -> set[str]:
        """The players with the event's page open now (on any node)."""

    def on_news(self, listener: Callable[[str], None]) -> None:
        """Call ``listener(tournament_id)`` whenever news of an event comes from another
        process (never in one process: its news is its own)."""


DELIVER_AT_ONCE = 200
"""Watchers handed one piece of an event's news in one go of the event loop. Each watcher's
writer sends what it was handed in the loop's next go: at 2,500 pages of a 2,000-player
arena, a batch of news handed to all at once was 7,500 sends in one go, 80-160 ms every
second in which every table on the node waited (docs/BENCHMARKS.md). So what is for every
watcher of a large event goes out a slice at a time, the loop running between slices (the
tables' plays too), in the order it was given; a word for one player goes at once."""

Delivery = tuple[int, str, str | News]
"""What waits to be delivered to an event's watchers: its number in the order given, the
event's id, and a text for all or news."""


class LocalAudience:
    """The watchers of this process: one process is the whole site."""

    def __init__(self) -> None:
        self.listeners: list[Callable[[str], None]] = []
        self.watchers: dict[str, set[Watcher]] = {}
        self.players: dict[str, dict[str, set[Watcher]]] = {}
        """Each event's signed-in watchers, by player."""
        self.backlog: collections.deque[Delivery] = collections.deque()
        """What is for every watcher of an event and waits for the slices before it."""
        self.given = 0
        """How many deliveries for everyone were queued (the next one's number)."""
        self.delivering: asyncio.Task[None] | None = None

    def watch(self, watcher: Watcher) -> None:
        watcher.since = self.given  # what waits now is older than its first message
        self.watchers.setdefault(watcher.tournament_id, set()).add(watcher)
        if watcher.player_id is not None:
            mine = self.players.setdefault(watcher.tournament_id, {})
            mine.setdefault(watcher.player_id, set()).add(watcher)

    def unwatch(self, watcher: Watcher) -> None:
        here = self.watchers.get(watcher.tournament_id)
        if here is None or watcher not in here:
            return
        here.discard(watcher)
        if not here:
            del self.watchers[watcher.tournament_id]
        if watcher.player_id is not None:
            players = self.players.get(watcher.tournament_id, {})
            mine = players.get(watcher.player_id)
            if mine is not None:
                mine.discard(watcher)
                if not mine:
                    del players[watcher.player_id]
            if not players:
                self.players.pop(watcher.tournament_id, None)

    def deliver(self, tournament_id: str, text: str, player_id: str | None = None) -> None:
        """Put ``text`` in the outbox of each watcher here (of ``player_id`` only, if given:
        at once; for all, after what waits before it, :data:`DELIVER_AT_ONCE` at a time)."""
        if player_id is not None:
            for watcher in list(self.players.get(tournament_id, {}).get(player_id, ())):
                watcher.outbox.put(text)
            return
        self._deliver_in_turn(tournament_id, text)

    def _deliver_in_turn(self, tournament_id: str, what: str | News) -> None:
        """Deliver ``what`` to the event's watchers: at once if they are few and nothing
        waits, else after what waits, a slice at a time (:meth:`_deliver_backlog`)."""
        if not self.backlog and len(self.watchers.get(tournament_id, ())) <= DELIVER_AT_ONCE:
            self._hand(list(self.watchers.get(tournament_id, ())), what)
            return
        self.backlog.append((self.given, tournament_id, what))
        self.given += 1
        if self.delivering is None or self.delivering.done():
            self.delivering = asyncio.get_running_loop().create_task(
                self._deliver_backlog(), name="tournament news")

    async def _deliver_backlog(self) -> None:
        while self.backlog:
            number, tournament_id, what = self.backlog[0]
            try:
                # a page that opened since this was given had it in its first message
                watchers = [w for w in self.watchers.get(tournament_id, ())
                            if w.since <= number]
                for start in range(0, len(watchers), DELIVER_AT_ONCE):
                    if start:
                        await asyncio.sleep(0)  # the writers send the last slice; tables play
                    self._hand(watchers[start:start + DELIVER_AT_ONCE], what)
            except Exception:  # never stuck behind one delivery
                log.exception("tournament %s: news not delivered to every page", tournament_id)
            finally:
                self.backlog.popleft()
            await asyncio.sleep(0)

    async def close(self) -> None:
        """Stop delivering (the server is stopping)."""
        if self.delivering is not None:
            self.delivering.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.delivering
            self.delivering = None
        self.backlog.clear()

    @staticmethod
    def _hand(watchers: list[Watcher], what: str | News) -> None:
        """Put ``what`` (a text for all, or news) in the outboxes of ``watchers`` it is for."""
        if isinstance(what, str):
            for watcher in watchers:
                watcher.outbox.put(what)
            return
        for watcher in watchers:
            for text in what.everyone:
                watcher.outbox.put(text)
            page = what.pages.get(watcher.page)
            if page is not None:
                watcher.outbox.put(page)
            if watcher.player_id is not None:
                mine = what.players.get(watcher.player_id)
                if mine is not None:
                    watcher.outbox.put(mine)

    def on_news(self, listener: Callable[[str], None]) -> None:
        self.listeners.append(listener)

    def deliver_news(self, tournament_id: str, news: News) -> None:
        """Put a batch of news in the outboxes of the watchers here it is for (in turn with
        what is for every watcher, as :meth:`deliver`)."""
        self._deliver_in_turn(tournament_id, news)

    async def publish(self, tournament_id: str, text: str) -> None:
        self.deliver(tournament_id, text)

    async def news(self, tournament_id: str, news: News) -> None:
        self.deliver_news(tournament_id, news)

    async def tell(self, tournament_id: str, player_id: str, text: str) -> None:
        self.deliver(tournament_id, text, player_id)

    def present_here(self, tournament_id: str) -> set[str]:
        return set(self.players.get(tournament_id, ()))

    async def present(self, tournament_id: str) -> set[str]:
        return self.present_here(tournament_id)
