"""The social parts of one process, built together (:func:`build`) by the composition root,
which hands them their relay (one process's, or a cluster node's) and the lobby's ways to
check a challenge's terms and make its table."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any

from basra.server.config import Settings
from basra.server.social.challenges import Challenges, CheckTerms, MakeTable
from basra.server.social.friends import Friends
from basra.server.social.notify import Notifier
from basra.server.social.presence import Presence
from basra.server.social.push import Pusher
from basra.server.social.relay import Hub, Relay
from basra.store.base import TournamentRow
from basra.store.ports import Store


@dataclass
class Social:
    hub: Hub
    relay: Relay
    presence: Presence
    notifier: Notifier
    friends: Friends
    challenges: Challenges
    pusher: Pusher | None
    tasks: set[asyncio.Task[Any]] = field(default_factory=set)

    def tournament_started(self, row: TournamentRow, players: list[str]) -> None:
        """An event started: each of its players' bells (pushed to closed pages)."""
        self._later(self.notifier.notify_all(
            players, "tournament", {"tournament": row.id, "name": row.name},
            push={"title": f"{row.name} has started", "body": "",
                  "url": f"/tournament/{row.id}", "tag": row.id}))

    def _later(self, work: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def close(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        await self.presence.close()
        if self.pusher is not None:
            await self.pusher.close()
        await self.relay.stop()


async def build(store: Store, hub: Hub, relay: Relay, check: CheckTerms,  # noqa: PLR0913
                make_table: MakeTable, pusher: Pusher | None, settings: Settings) -> Social:
    presence = Presence(store, relay, hub, settings.presence_grace_seconds)
    notifier = Notifier(store, presence, pusher)
    friends = Friends(store, store, presence)
    challenges = Challenges(store, friends, notifier, check, make_table,
                            settings.challenge_seconds)
    await relay.start()
    return Social(hub, relay, presence, notifier, friends, challenges, pusher)
