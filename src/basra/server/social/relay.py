"""How a message reaches a player's signed-in pages, wherever they are open, and who is
online anywhere: the :class:`Relay` port.

Each signed-in page holds one socket (``/ws/me``); this process's are in the :class:`Hub`.
A message for a player is published to every process (:meth:`Relay.publish`), and each
hands it to the player's pages it holds. In one process that is a call
(:class:`LocalRelay`); a cluster node publishes on Redis
(:class:`basra.server.cluster.social.RedisRelay`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection
from typing import Any, Protocol

import orjson

from basra.server.table.outbox import Outbox

Listener = Callable[[dict[str, Any]], None]
"""What a process does with each published message (:class:`~.presence.Presence`)."""


class Hub:
    """This process's signed-in pages, by player."""

    def __init__(self) -> None:
        self.pages: dict[str, set[Outbox]] = {}

    def add(self, player_id: str, outbox: Outbox) -> bool:
        """A page opened: whether it is the player's first here."""
        held = self.pages.setdefault(player_id, set())
        held.add(outbox)
        return len(held) == 1

    def remove(self, player_id: str, outbox: Outbox) -> bool:
        """A page closed: whether it was the player's last here."""
        held = self.pages.get(player_id)
        if held is None:
            return False
        held.discard(outbox)
        if held:
            return False
        del self.pages[player_id]
        return True

    def here(self, player_id: str) -> bool:
        return player_id in self.pages

    def send(self, player_id: str, message: dict[str, Any] | str) -> int:
        """Queue ``message`` on each of the player's pages here; how many."""
        held = self.pages.get(player_id)
        if not held:
            return 0
        text = message if isinstance(message, str) else orjson.dumps(message).decode()
        return sum(outbox.put(text) for outbox in list(held))

    def __len__(self) -> int:
        return sum(len(held) for held in self.pages.values())


class Relay(Protocol):
    """Messages to every process, and who is online on any."""

    def listen(self, listener: Listener) -> None:
        """Every message published from now on, this process's own too, goes to
        ``listener``."""

    async def publish(self, message: dict[str, Any]) -> None: ...

    async def mark(self, player_id: str, online: bool) -> bool:
        """This process holds the player's first page (``online``) or closed their last:
        whether the player came online or went offline everywhere by it."""

    async def online(self, player_ids: Collection[str]) -> set[str]:
        """Which of these players have a signed-in page open anywhere."""

    async def start(self) -> None: ...

    async def stop(self) -> None: ...


class LocalRelay:
    """One process: everything is here."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.listeners: list[Listener] = []

    def listen(self, listener: Listener) -> None:
        self.listeners.append(listener)

    async def publish(self, message: dict[str, Any]) -> None:
        for listener in self.listeners:
            listener(message)

    async def mark(self, player_id: str, online: bool) -> bool:
        return True  # the hub's first and last page are the player's everywhere

    async def online(self, player_ids: Collection[str]) -> set[str]:
        return {p for p in player_ids if self.hub.here(p)}

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        await asyncio.sleep(0)
