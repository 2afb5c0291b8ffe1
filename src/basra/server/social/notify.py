"""The bell (issue 28): a player's notifications (a challenge, a partner invite, a
challenge's answer, a tournament starting), kept in the store, sent at once to every
signed-in page they have open (:class:`~.presence.Presence`), and pushed by Web Push to
their subscribed browsers when no page of theirs is open. A friend coming online is news
for open pages only (:mod:`.presence`), never kept or pushed.
"""

from __future__ import annotations

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

    async def tell(self, player_id: str, message: dict[str, Any]) -> None:
        """Send to open pages only (nothing kept): a challenge cancelled, say."""
        await self.presence.tell(player_id, message)
