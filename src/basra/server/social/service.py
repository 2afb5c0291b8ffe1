"""The social parts of one process, built together (:func:`build`) by the composition root,
which hands them their relay (one process's, or a cluster node's) and the lobby's ways to
check a challenge's terms and make its table."""

from __future__ import annotations

from dataclasses import dataclass

from basra.server.config import Settings
from basra.server.social.challenges import Challenges, CheckTerms, MakeTable
from basra.server.social.friends import Friends
from basra.server.social.notify import Notifier
from basra.server.social.presence import Presence
from basra.server.social.push import Pusher
from basra.server.social.relay import Hub, Relay
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

    async def close(self) -> None:
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
