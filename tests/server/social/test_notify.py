"""The bell for many players at once (an event's start): each player's open pages told,
each bell kept, a few writes for thousands of players, and a push only to those with no
page open."""

from __future__ import annotations

import asyncio
from typing import Any, cast

import pytest

from basra.server.social.notify import BELLS_AT_ONCE, Notifier
from basra.server.social.presence import Presence
from basra.server.social.push import Pusher
from basra.store.base import NotificationRow, StoreError
from basra.store.ports import SocialStore


class Bells:
    def __init__(self) -> None:
        self.writes: list[list[NotificationRow]] = []

    async def add_notifications(self, rows: list[NotificationRow]) -> None:
        self.writes.append(list(rows))


class Pages:
    def __init__(self, online: set[str]) -> None:
        self.told: list[tuple[str, dict[str, Any]]] = []
        self.asked = 0
        self.here = online

    async def tell(self, player_id: str, message: dict[str, Any]) -> None:
        self.told.append((player_id, message))

    async def online(self, player_ids: list[str]) -> set[str]:
        self.asked += 1
        return self.here & set(player_ids)


class Pushes:
    def __init__(self) -> None:
        self.pushed: list[str] = []

    def push(self, player_id: str, what: dict[str, Any]) -> None:
        self.pushed.append(player_id)


def test_an_events_start_rings_every_bell_in_a_few_writes() -> None:
    players = [f"p{n}" for n in range(2 * BELLS_AT_ONCE + 1)]
    bells, pages, pushes = Bells(), Pages({"p1", "p450"}), Pushes()
    notifier = Notifier(cast(SocialStore, bells), cast(Presence, pages), cast(Pusher, pushes))
    asyncio.run(notifier.notify_all(players, "tournament", {"tournament": "e1"},
                                    push={"title": "E1 has started", "url": "/tournament/e1"}))
    assert len(bells.writes) == 3 and pages.asked == 3
    kept = [row for write in bells.writes for row in write]
    assert [row.player_id for row in kept] == players
    assert all(row.kind == "tournament" and row.body == {"tournament": "e1"} for row in kept)
    assert len({row.id for row in kept}) == len(players)
    assert [player for player, _ in pages.told] == players
    told = pages.told[0][1]
    assert told["type"] == "notification" and told["notification"]["id"] == kept[0].id
    assert pushes.pushed == [p for p in players if p not in {"p1", "p450"}]


def test_no_push_asked_none_sent_and_nobody_asked_about() -> None:
    bells, pages, pushes = Bells(), Pages(set()), Pushes()
    notifier = Notifier(cast(SocialStore, bells), cast(Presence, pages), cast(Pusher, pushes))
    asyncio.run(notifier.notify_all(["a", "b"], "tournament", {"tournament": "e1"}))
    assert len(bells.writes) == 1 and pages.asked == 0 and pushes.pushed == []


def test_a_slice_that_cannot_be_kept_leaves_the_others_ringing(
        caplog: pytest.LogCaptureFixture) -> None:
    class Refusing(Bells):
        async def add_notifications(self, rows: list[NotificationRow]) -> None:
            if not self.writes:
                self.writes.append([])
                raise StoreError("cannot notify players: the store is away")
            await super().add_notifications(rows)

    players = [f"p{n}" for n in range(BELLS_AT_ONCE + 5)]
    bells, pages, pushes = Refusing(), Pages(set()), Pushes()
    notifier = Notifier(cast(SocialStore, bells), cast(Presence, pages), cast(Pusher, pushes))
    asyncio.run(notifier.notify_all(players, "tournament", {"tournament": "e1"},
                                    push={"title": "E1 has started", "url": "/tournament/e1"}))
    assert [row.player_id for row in bells.writes[1]] == players[BELLS_AT_ONCE:]
    assert pushes.pushed == players[BELLS_AT_ONCE:]
    assert "bells of tournament not rung" in caplog.text
