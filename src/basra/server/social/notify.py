"""The bell (issue 28): a player's notifications (a challenge, a partner invite, a
challenge's answer, a tournament starting), kept in the store, sent at once to every
signed-in page they have open (:class:`~.presence.Presence`), and pushed by Web Push to
their subscribed browsers when no page of theirs is open. A friend coming online is news
for open pages only (:mod:`.presence`), never kept or pushed.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

from basra.server.ids import new_id
from basra.server.social.presence import Presence
from basra.server.social.push import Pusher
from basra.store.base import NotificationRow
from basra.store.ports import SocialStore


def notification_json(row: NotificationRow) -> dict[str, Any]:
    return {"id": row.id, "kind": row.kind, "body": row.body,
            "at": row.created_at.isoformat(), "read": row.read_at is not None}


log = logging.getLogger("basra.social")

BELLS_AT_ONCE = 200
"""The most players one write of :meth:`Notifier.notify_all` keeps a bell for."""


class Notifier:
    """Tell a player something: kept for the bell, sent to open pages, else pushed."""

    def __init__(self, store: SocialStore, presence: Presence,
                 pusher: Pusher | None = None) -> None:
        self.store = store
        self.presence = presence
        self.pusher = pusher

    async def notify(self, player_id: str, kind: str, body: dict[str, Any],
                     push: dict[str, Any] | None = None) -> NotificationRow:
        """Keep and send a notification; ``push`` (``title``, ``body``, ``url``) is what a
        closed browser shows."""
        row = NotificationRow(new_id(), player_id, kind, body, datetime.now(UTC))
        # The open pages first (what the player waits for), then the bell's copy: what it
        # tells is stored already (a challenge, a table, an event).
        await self.presence.tell(player_id, {"type": "notification",
                                             "notification": notification_json(row)})
        await self.store.add_notification(row)
        if self.pusher is not None and push is not None:
            online = await self.presence.online([player_id])
            if player_id not in online:
                self.pusher.push(player_id, push)
        return row

    async def notify_all(self, player_ids: list[str], kind: str, body: dict[str, Any],
                         push: dict[str, Any] | None = None) -> None:
        """:meth:`notify` each of ``player_ids`` the same thing (an event's start, to its
        thousands of entrants), as a few writes rather than one each: the bells' copies
        :data:`BELLS_AT_ONCE` players to a write, and who is online asked once a slice. A
        bell a player asked the store for two statements in the group commit, whose
        statements run in the event loop: 2,000 at a start held the tables' plays behind
        them for seconds (docs/BENCHMARKS.md)."""
        for start in range(0, len(player_ids), BELLS_AT_ONCE):
            slice_ids = player_ids[start:start + BELLS_AT_ONCE]
            try:
                await self._notify_slice(slice_ids, kind, body, push)
            except Exception:  # the store or the bus away: the next slice still rings
                log.exception("%d bells of %s not rung", len(slice_ids), kind)

    async def _notify_slice(self, player_ids: list[str], kind: str, body: dict[str, Any],
                            push: dict[str, Any] | None) -> None:
        rows = [NotificationRow(new_id(), player_id, kind, body, datetime.now(UTC))
                for player_id in player_ids]
        for row in rows:
            await self.presence.tell(row.player_id, {
                "type": "notification", "notification": notification_json(row)})
        await self.store.add_notifications(rows)
        if self.pusher is not None and push is not None:
            online = await self.presence.online(player_ids)
            for player_id in player_ids:
                if player_id not in online:
                    self.pusher.push(player_id, push)

    async def tell(self, player_id: str, message: dict[str, Any]) -> None:
        """Send to open pages only (nothing kept): a challenge cancelled, say."""
        await self.presence.tell(player_id, message)
