"""The quick-match wait, in a real browser against a real ``basra serve``: it says whether
the search is rated (an account) or casual (a guest, with a link to make an account, which
stops the search). Screenshots at 390x844 in English and Arabic go to
test-output/screenshots/ (rated-quick-*.png)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from web.test_account import LOCALES, PHONE, catalogue, create_account, new_player, no_errors
from web_helpers import Player, basra_server, shot


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with basra_server(tmp_path_factory.mktemp("quick-wait")) as base:
        yield base


def stop_waiting(page: Page) -> None:
    page.click("#quick-cancel")
    page.wait_for_selector("#quick-match")


@pytest.mark.parametrize("lang", ["en"])
def test_the_quick_match_wait_says_rated_or_casual(players: list[Player], browser: Browser,
                                                   server: str, lang: str) -> None:
    words = catalogue(lang)
    # A guest (made by the first tap): casual, with the way to an account.
    guest = new_player(players, browser, server, locale=LOCALES[lang])
    page = guest.page
    page.goto(server + "/")
    page.click("#quick-match")
    page.wait_for_selector(".quick-option.waiting .quick-rated")
    line = page.locator(".quick-rated")
    assert line.get_attribute("data-rated") == "false"
    assert line.inner_text() == words["lobby.quick.casual"].replace(
        "{link}", words["lobby.quick.casual_link"])
    to_account = line.locator("a")
    assert to_account.get_attribute("href") == "/account"
    assert to_account.inner_text() == words["lobby.quick.casual_link"]
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width
    shot(page, f"rated-quick-guest-phone-{lang}")
    # The link opens the account page in the page (and the search stops).
    with page.expect_request(lambda r: r.method == "DELETE" and "/api/quick-match/" in r.url):
        to_account.click()
    page.wait_for_selector("#create-form")
    assert page.evaluate("location.pathname") == "/account"
    no_errors(guest)

    # An account: rated.
    p = new_player(players, browser, server, locale=LOCALES[lang])
    p.sign_in(f"Hala {lang}")
    create_account(p, username=f"Hala_{lang}")
    page = p.page
    page.goto(server + "/")
    page.click("#quick-match")
    page.wait_for_selector(".quick-option.waiting .quick-rated")
    line = page.locator(".quick-rated")
    assert line.get_attribute("data-rated") == "true"
    assert line.inner_text() == words["lobby.quick.rated"]
    assert line.locator("a").count() == 0
    shot(page, f"rated-quick-account-phone-{lang}")
    stop_waiting(page)
    no_errors(p)
