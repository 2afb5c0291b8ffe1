"""Resigning at a rated table, in a real browser against a real ``basra serve`` (issue 12):
the resign dialog says the match is rated and what resigning costs (at an unrated table it
says nothing of ratings), and a rated match resigned before both players had played ends
aborted and unrated, said in one line to both. Screenshots at 390x844 in English and Arabic
go to test-output/screenshots/ (fixes-resign-*.png, fixes-aborted-*.png)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from web.phone import person
from web.test_account import catalogue, create_account, no_errors, rated_table
from web_helpers import Player, basra_server, shot


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with basra_server(tmp_path_factory.mktemp("rated-resign")) as base:
        yield base.replace("127.0.0.1", "localhost")


def rated_pair(players: list[Player], browser: Browser, server: str, lang: str,
               names: tuple[str, str]) -> tuple[Player, Player]:
    """Two accounts at a new rated private table, the match begun."""
    host = person(players, browser, server, lang, reduced_motion=True)
    host.sign_in(names[0])
    create_account(host)
    rival = person(players, browser, server, lang, reduced_motion=True)
    rival.sign_in(names[1])
    create_account(rival)
    rival.page.goto(rated_table(host))
    for p in (host, rival):
        p.page.wait_for_selector(".table-page[data-status='playing']")
    assert host.state()["table"]["rated"] is True
    return host, rival


@pytest.mark.parametrize("lang", ["en"])
def test_resigning_at_once_from_a_rated_match(players: list[Player], browser: Browser,
                                              server: str, lang: str) -> None:
    words = catalogue(lang)
    host, rival = rated_pair(players, browser, server, lang, (f"Farida {lang}", f"Omar {lang}"))
    page = host.page
    # The dialog says the match is rated, and what resigning costs.
    page.click(".table-head .resign")
    page.wait_for_selector("dialog[open] .resign-rated")
    assert page.inner_text("dialog[open] .resign-rated") == words["resign.rated"]
    assert words["resign.text"] in page.inner_text("dialog[open] .dialog-body")
    shot(page, f"fixes-resign-rated-phone-{lang}")
    page.click("dialog[open] [data-answer='yes']")

    # Nobody had played: aborted, not rated, said in one line to both.
    for p in (host, rival):
        p.page.wait_for_selector(".overlay-match .end-aborted")
        assert p.page.inner_text(".overlay-match .end-aborted") == words["rated.aborted"]
        assert p.page.locator(".overlay-match .end-rating").count() == 0
    result = host.state()["table"]["result"]
    assert result["aborted"] is True and not result.get("ratings")
    shot(page, f"fixes-aborted-end-phone-{lang}")
    shot(rival.page, f"fixes-aborted-end-rival-phone-{lang}")
    no_errors(host)
    no_errors(rival)


def test_an_unrated_resign_dialog_says_nothing_of_ratings(
        players: list[Player], browser: Browser, server: str) -> None:
    p = person(players, browser, server, "en")
    p.sign_in("Casual Nadia")
    page = p.page
    page.click("#play-bot")
    page.wait_for_url("**/table/*")
    page.wait_for_selector(".table-page[data-status='playing']")
    page.click(".table-head .resign")
    page.wait_for_selector("dialog[open]")
    assert page.locator("dialog[open] .resign-rated").count() == 0
    page.click("dialog[open] [data-answer='no']")
    no_errors(p)
