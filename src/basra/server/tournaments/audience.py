"""Who watches a tournament, and how its news reaches them.

A tournament's page holds one socket (``/ws/tournaments/{id}``); each is a :class:`Watcher`
with its own :class:`~basra.server.table.outbox.Outbox`. The :class:`Audience` port carries
the director's news to every watcher of the event (:meth:`Audience.publish`: standings
deltas, new pairings, the event's changes) or to one player's (:meth:`Audience.tell`: "you
are paired, your table is ..."), and says who is there (:meth:`Audience.present`): in a
tournament, a player is paired only while their page is open, or while they play one of its
matches.

:class:`LocalAudience` is the one-process implementation; a cluster's nodes share theirs
through Redis (:mod:`basra.server.cluster.tournaments`), with the same methods.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from basra.server.table.outbox import Outbox


@dataclass(eq=False)
class Watcher:
    """One open tournament page: its player (None: not signed in) and its way out."""

    tournament_id: str
    player_id: str | None
    outbox: Outbox


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

    async def present(self, tournament_id: str) -> set[str]:
        """The players with the event's page open now (on any node)."""


class LocalAudience:
    """The watchers of this process: one process is the whole site."""

    def __init__(self) -> None:
        self.watchers: dict[str, set[Watcher]] = {}
        self.players: dict[str, dict[str, set[Watcher]]] = {}
        """Each event's signed-in watchers, by player."""

    def watch(self, watcher: Watcher) -> None:
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
        """Put ``text`` in the outbox of each watcher here (of ``player_id`` only, if given)."""
        if player_id is None:
            watchers = self.watchers.get(tournament_id, ())
        else:
            watchers = self.players.get(tournament_id, {}).get(player_id, ())
        for watcher in list(watchers):
            watcher.outbox.put(text)

    async def publish(self, tournament_id: str, text: str) -> None:
        self.deliver(tournament_id, text)

    async def tell(self, tournament_id: str, player_id: str, text: str) -> None:
        self.deliver(tournament_id, text, player_id)

    def present_here(self, tournament_id: str) -> set[str]:
        return set(self.players.get(tournament_id, ()))

    async def present(self, tournament_id: str) -> set[str]:
        return self.present_here(tournament_id)
