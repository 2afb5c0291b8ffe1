"""Fair play in one object the composition root builds and the routes use: reports,
moderation, leavers' waits and bans at the door of rated play, and the assistance flag."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from basra.server.fairplay.assistance import Assistance
from basra.server.fairplay.leavers import FORGIVEN_AFTER, LeaverState, leaver_state
from basra.server.fairplay.moderation import Moderation, Notify, completion_json, standing_json
from basra.server.fairplay.names import NameWords
from basra.server.fairplay.reports import Reports
from basra.server.wire.errors import ApiError
from basra.store.base import ModLogRow, PlayerRow
from basra.store.ports import Store

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


class FairPlay:
    """Reports, moderators, leavers and the assistance flag over one store."""

    def __init__(self, store: Store, notify: Notify, rename: Callable[[], str], *,
                 signed_out: Callable[[str], None] | None = None,
                 clock: Clock = utc_now) -> None:
        self.store = store
        self.clock = clock
        self.reports = Reports(store)
        self.moderation = Moderation(store, notify, rename, signed_out)
        self.assistance = Assistance(store)
        self.names = NameWords(store)

    async def leaver(self, player_id: str) -> LeaverState:
        now = self.clock()
        return leaver_state(await self.store.leaves(player_id, now - FORGIVEN_AFTER), now)

    async def may_play(self, player: PlayerRow, *, rated: bool = False) -> None:
        """Refuse a player who must wait after leaving matches (quick match and
        tournaments), or who is banned from rated play (``rated``: a rated game or a
        tournament)."""
        now = self.clock()
        state = await self.leaver(player.id)
        message = state.message(now)
        if message is not None:
            raise ApiError(message, "fairplay/leaver_wait")
        if rated and (await self.store.standing(player.id)).rated_ban:
            raise ApiError("a moderator banned you from rated play and tournaments",
                           "fairplay/banned")

    async def me_json(self, player: PlayerRow) -> dict[str, Any]:
        """What ``GET /api/me`` adds: the player's standing and leaver state."""
        state = await self.leaver(player.id)
        return {"standing": standing_json(await self.store.standing(player.id)),
                "leaver": state.to_json(self.clock())}

    async def completion(self, player_id: str) -> dict[str, Any]:
        return completion_json(*await self.store.completion(player_id))

    async def analysed(self, table_id: str, document: dict[str, Any]) -> None:
        await self.assistance.analysed(table_id, document, self.clock())

    async def check_name(self, name: str) -> None:
        """Refuse a nickname or username that holds a listed word (``name/offensive``)."""
        await self.names.check(name)

    async def add_word(self, moderator: PlayerRow, word: str) -> list[str]:
        """A moderator adds a word to the names' list (logged)."""
        words = await self.names.add(word, moderator.id, self.clock())
        await self._log_word(moderator, "add_word", word)
        return words

    async def remove_word(self, moderator: PlayerRow, word: str) -> list[str]:
        words = await self.names.remove(word)
        await self._log_word(moderator, "remove_word", word)
        return words

    async def _log_word(self, moderator: PlayerRow, action: str, word: str) -> None:
        name = moderator.username or moderator.nickname
        await self.store.append_mod_log(ModLogRow(
            self.clock(), moderator.id, name, "", "", action, "the names' word list",
            detail={"word": word}))

    async def dossier(self, player_id: str) -> dict[str, Any]:
        return await self.moderation.dossier(player_id, self.clock(),
                                             await self.assistance.assessment(player_id))


__all__ = ["Clock", "FairPlay", "utc_now"]
