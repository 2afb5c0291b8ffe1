"""Who is online, and telling their followers (issue 28).

A player is online while a signed-in page of theirs is open anywhere (its ``/ws/me``
socket). When one comes online or goes offline (after ``grace`` seconds without a page: a
reload is not a departure), the process publishes it once (:class:`~.relay.Relay`); every
process hands it to the pages it holds of the player's followers. So that this costs a
dictionary look-up, each process keeps, for the players whose pages it holds, whom they
follow (:attr:`Presence.watchers`: followee to the followers here), read once when their
first page opens here and kept as they follow and unfollow.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

import orjson

from basra.server import metrics
from basra.server.social.relay import Hub, Relay
from basra.server.table.outbox import Outbox
from basra.store.base import PlayerRow
from basra.store.ports import SocialStore

log = logging.getLogger("basra.presence")

GRACE_SECONDS = 5.0
AT_ONCE = 16
"""Pages opening (their reads of the store) and presence marks under way at once: a burst
of pages (a node's restart, a site's evening) waits its turn instead of taking every
connection of the store's pool and the relay's."""


class Presence:
    """Signed-in pages here, who is online anywhere, and the news of it to followers."""

    def __init__(self, store: SocialStore, relay: Relay, hub: Hub,
                 grace: float = GRACE_SECONDS) -> None:
        self.store = store
        self.relay = relay
        self.hub = hub
        self.grace = grace
        self.watchers: dict[str, set[str]] = {}
        """Followee id to the ids of their followers whose pages are here."""
        self.follows: dict[str, set[str]] = {}
        """Each player here to whom they follow."""
        self.leaving: dict[str, asyncio.Task[None]] = {}
        self.told = 0
        """Presence messages handed to pages here (the benchmark's count)."""
        self.opening = asyncio.Semaphore(AT_ONCE)
        """Pages reading the store as they open (:meth:`attach`, the unread count)."""
        self.marking = asyncio.Semaphore(AT_ONCE)
        relay.listen(self._heard)

    # ------------------------------------------------------------------ pages

    async def attach(self, player: PlayerRow, outbox: Outbox) -> None:
        """A signed-in page of ``player`` opened here."""
        first = self.hub.add(player.id, outbox)
        leaving = self.leaving.pop(player.id, None)
        if leaving is not None:  # back within the grace: never gone
            leaving.cancel()
            return
        if not first:
            return
        async with self.opening:
            followed = set(await self.store.following_ids(player.id))
        if not self.hub.here(player.id):  # closed meanwhile
            return
        started = time.thread_time()
        self.follows[player.id] = followed
        for followee in followed:
            self.watchers.setdefault(followee, set()).add(player.id)
        metrics.presence_fanned(time.thread_time() - started)
        try:
            async with self.marking:
                if await self.relay.mark(player.id, True):
                    await self.relay.publish({"k": "presence", "p": player.id, "on": True,
                                              "u": player.username, "n": player.nickname})
        except Exception:  # Redis away: the page works, its friends hear of it later
            log.exception("presence: %s's arrival was not told", player.id)

    def detach(self, player: PlayerRow, outbox: Outbox) -> None:
        """A page closed; the last one here: offline after the grace, unless one opens."""
        if not self.hub.remove(player.id, outbox):
            return
        if player.id not in self.leaving:
            self.leaving[player.id] = asyncio.create_task(self._leave(player))

    async def _leave(self, player: PlayerRow) -> None:
        await asyncio.sleep(self.grace)
        self.leaving.pop(player.id, None)
        if self.hub.here(player.id):
            return
        started = time.thread_time()
        for followee in self.follows.pop(player.id, set()):
            held = self.watchers.get(followee)
            if held is not None:
                held.discard(player.id)
                if not held:
                    del self.watchers[followee]
        metrics.presence_fanned(time.thread_time() - started)
        try:
            async with self.marking:
                if await self.relay.mark(player.id, False):
                    await self.relay.publish({"k": "presence", "p": player.id,
                                              "on": False, "u": player.username,
                                              "n": player.nickname})
        except Exception:  # Redis away: the node's refresh lets the mark lapse
            log.exception("presence: %s's departure was not told", player.id)

    async def close(self) -> None:
        for task in list(self.leaving.values()):
            task.cancel()
        with contextlib.suppress(Exception):
            await asyncio.gather(*self.leaving.values(), return_exceptions=True)

    # ------------------------------------------------------------------ follows here

    def followed(self, follower: str, followee: str, following: bool) -> None:
        """``follower`` (whose pages may be here) started or stopped following."""
        mine = self.follows.get(follower)
        if mine is None:
            return
        if following:
            mine.add(followee)
            self.watchers.setdefault(followee, set()).add(follower)
        else:
            mine.discard(followee)
            held = self.watchers.get(followee)
            if held is not None:
                held.discard(follower)

    # ------------------------------------------------------------------ messages

    async def tell(self, player_id: str, message: dict[str, Any]) -> None:
        """Hand ``message`` to every signed-in page of the player, on any process."""
        await self.relay.publish({"k": "tell", "p": player_id, "x": message})

    async def online(self, player_ids: list[str]) -> set[str]:
        return await self.relay.online(player_ids)

    def _heard(self, message: dict[str, Any]) -> None:
        kind = message.get("k")
        if kind == "tell":
            self.hub.send(message["p"], message["x"])
        elif kind == "presence":
            started = time.thread_time()
            watchers = self.watchers.get(message["p"])
            if not watchers:
                metrics.presence_fanned(time.thread_time() - started)
                return
            said = orjson.dumps(
                {"type": "presence", "player": {"name": message.get("n"),
                                                "username": message.get("u")},
                 "online": bool(message.get("on"))}).decode()
            told = 0
            for watcher in list(watchers):
                told += self.hub.send(watcher, said)
            self.told += told
            metrics.presence_fanned(time.thread_time() - started, told)
