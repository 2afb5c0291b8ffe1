"""The words no name may hold: the shipped list (:mod:`basra.offensive`, four languages,
look-alikes and separators seen through) and the words moderators added, kept in the store
and read again every :data:`REFRESH_SECONDS` (so a word added on one node reaches the
others within that time, and at once on the node that added it)."""

from __future__ import annotations

import time
from datetime import datetime

from basra.offensive import OffensiveName, WordList, check_name, entry, normalised
from basra.server.wire.errors import ApiError
from basra.store.ports import Store

REFRESH_SECONDS = 30.0
WORD_MOST = 40
WORD_LEAST = 3
"""Letters a moderator's word holds at least, once normalised: a shorter one would refuse
too many names."""


class NameWords:
    """The list names are checked against, over the store."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.words = WordList()
        self.read_at: float | None = None

    async def current(self) -> WordList:
        now = time.monotonic()
        if self.read_at is None or now - self.read_at >= REFRESH_SECONDS:
            extra = await self.store.name_words()
            self.words = WordList(extra)
            self.read_at = now
        return self.words

    async def check(self, name: str) -> None:
        """Refuse a name that holds a listed word (``name/offensive``)."""
        try:
            check_name(name, await self.current())
        except OffensiveName as exc:
            raise ApiError(str(exc), "name/offensive") from None

    async def add(self, word: str, by: str, at: datetime) -> list[str]:
        word = " ".join(word.split())
        if not 2 <= len(word) <= WORD_MOST:
            raise ApiError(f"a word is 2 to {WORD_MOST} characters", "report/bad")
        try:
            if entry(word) is None:
                raise ValueError("a comment, not a word")
            if len(normalised(word.strip("=*"))) < WORD_LEAST:
                raise ValueError(f"it holds fewer than {WORD_LEAST} letters once look-alikes "
                                 "and separators are seen through")
        except ValueError as exc:
            raise ApiError(f"not a word the list can hold: {exc}", "report/bad") from None
        await self.store.add_name_word(word, by, at)
        self.read_at = None
        return await self.store.name_words()

    async def remove(self, word: str) -> list[str]:
        await self.store.remove_name_word(word)
        self.read_at = None
        return await self.store.name_words()


__all__ = ["NameWords"]
