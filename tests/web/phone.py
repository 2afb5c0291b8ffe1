"""A person at a phone (390x844) in English or Arabic: the size and the languages the
account form, the rated resign dialog and the signed-out pages are tried and shot at."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser

from web.test_account import LOCALES, PHONE, new_player
from web_helpers import Player


def person(players: list[Player], browser: Browser, server: str, lang: str,
           **options: Any) -> Player:
    """A new browser at phone size in ``lang`` ("en" or "ar"), one of the test's players."""
    return new_player(players, browser, server, viewport=PHONE, locale=LOCALES[lang],
                      **options)
