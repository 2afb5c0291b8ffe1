"""Rated matches in the history, in a real browser against a real ``basra serve``: a rated
match is marked ("Rated" and the rating change, green or red, its sign left of its digits in
Arabic too), in the history and the lobby's recent matches alike; an unrated one has no
marks. Screenshots at 390x844 in English and Arabic go to test-output/screenshots/
(rated-history-*.png)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from playwright.sync_api import Browser

from web.test_account import (
    LOCALES,
    PHONE,
    catalogue,
    create_account,
    new_player,
    no_errors,
    rated_table,
    token,
)
from web_helpers import Player, basra_server, shot

MINUS = "\u2212"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with basra_server(tmp_path_factory.mktemp("rated-history")) as base:
        yield base


def signed(n: int) -> str:
    """A change as the pages write it: ``+12``, ``−12`` (the minus sign), ``0``."""
    return f"+{n}" if n > 0 else f"{MINUS}{-n}" if n < 0 else "0"


def as_account(players: list[Player], browser: Browser, server: str, bearer: str,
               lang: str = "en") -> Player:
    """A browser signed in with ``bearer`` (the session another browser made)."""
    p = new_player(players, browser, server, viewport=PHONE, locale=LOCALES[lang])
    p.context.add_init_script(f"localStorage.setItem('basra.token', {bearer!r});")
    return p


@dataclass
class RatedMatch:
    table: str
    tokens: dict[int, str]
    """Each seat's session."""
    changes: dict[int, int]
    """Each seat's rating change, as the server gives it."""


@pytest.fixture(scope="module")
def rated_match(browser: Browser, server: str) -> Iterator[RatedMatch]:
    """Two accounts at a rated private table: both play a card, then the host resigns."""
    made: list[Player] = []
    host = new_player(made, browser, server, reduced_motion=True)
    host.sign_in("Farida")
    create_account(host)
    rival = new_player(made, browser, server, reduced_motion=True)
    rival.sign_in("Omar")
    create_account(rival)
    rival.page.goto(rated_table(host))
    for p in (host, rival):
        p.page.wait_for_selector(".table-page[data-status='playing']")
    assert host.state()["table"]["rated"] is True
    table = host.page.url.rsplit("/", 1)[1]
    played = {0: 0, 1: 0}
    while min(played.values()) < 1:
        for seat, p in ((0, host), (1, rival)):
            if p.dataset().get("turn") == "mine" and p.page.locator(".hand.my-turn").count():
                p.play_first()
                played[seat] += 1
        host.page.wait_for_timeout(50)
    host.page.click(".table-head .resign")
    host.page.click("dialog[open] [data-answer='yes']")
    for p in (host, rival):
        p.page.wait_for_selector(".overlay-match .end-rating >> nth=1")
    changes = {r["seat"]: r["change"] for r in host.state()["table"]["result"]["ratings"]}
    tokens = {0: token(host.page), 1: token(rival.page)}
    for p in made:
        no_errors(p)
        p.close()
    yield RatedMatch(table, tokens, changes)


@pytest.mark.parametrize("lang", ["en"])
def test_the_history_marks_a_rated_match(players: list[Player], browser: Browser, server: str,
                                         rated_match: RatedMatch, lang: str) -> None:
    words = catalogue(lang)
    for seat in (1, 0):
        p = as_account(players, browser, server, rated_match.tokens[seat], lang)
        page = p.page
        # The history the server gives: this match rated, with this seat's change.
        answer = page.request.get(f"{server}/api/history",
                                  headers={"Authorization": f"Bearer {rated_match.tokens[seat]}"})
        listed = next(m for m in answer.json()["matches"] if m["table"] == rated_match.table)
        assert listed["rated"] is True and listed["change"] == rated_match.changes[seat]
        change = rated_match.changes[seat]
        assert change != 0

        page.goto(server + "/history")
        item = page.locator(f".history-page .history-item[data-table='{rated_match.table}']")
        item.wait_for()
        assert item.get_attribute("data-rated") == "true"
        assert item.locator(".history-title .history-rated").inner_text() == words["profile.rated"]
        shown = item.locator(".history-change")
        assert shown.locator(".signed").inner_text() == signed(change)
        assert shown.get_attribute("data-change") == str(change)
        assert ("up" if change > 0 else "down") in (shown.get_attribute("class") or "")
        # Read out whole ("Rating change: +12"), the figures shown once to the eye.
        assert shown.locator(".sr-only").inner_text() == words["profile.change_label"].replace(
            "{change}", signed(change))
        assert shown.locator("[aria-hidden='true']").inner_text() == signed(change)
        looks = page.evaluate("""(sel) => {
          const item = document.querySelector(sel);
          const style = (q) => getComputedStyle(item.querySelector(q));
          const root = getComputedStyle(document.documentElement);
          return { dir: style('.history-change .signed').direction,
                   bidi: style('.history-change .signed').unicodeBidi,
                   score: style('.history-score').direction,
                   colour: style('.history-change').color,
                   tag: style('.history-rated').backgroundColor,
                   good: root.getPropertyValue('--good').trim(),
                   bad: root.getPropertyValue('--bad').trim() };
        }""", f".history-item[data-table='{rated_match.table}']")
        assert looks["dir"] == "ltr" and looks["bidi"] == "isolate" and looks["score"] == "ltr"
        # On the screen, the sign is left of the digits and the score keeps its order.
        order = page.evaluate("""(sel) => [' .history-change .signed', ' .history-score'].map(
        (q) => {
          const text = document.querySelector(sel + q).firstChild;
          const range = document.createRange();
          const left = (i) => { range.setStart(text, i); range.setEnd(text, i + 1);
                                return range.getBoundingClientRect().left; };
          return left(0) < left(text.data.length - 1);
        })""", f".history-item[data-table='{rated_match.table}']")
        assert order == [True, True]
        expected = {"#45d49a": "rgb(69, 212, 154)", "#ff7a7a": "rgb(255, 122, 122)",
                    # the light theme's (the device asks for light: Playwright's default)
                    "#0f7a4f": "rgb(15, 122, 79)", "#b3261e": "rgb(179, 38, 30)"}
        assert looks["colour"] == expected[looks["good" if change > 0 else "bad"]], looks
        assert looks["tag"] == "rgb(47, 111, 176)", looks
        # The lobby's recent matches are the same list.
        page.goto(server + "/")
        recent = page.locator(f".recent .history-item[data-table='{rated_match.table}']")
        recent.wait_for()
        assert recent.locator(".history-rated").count() == 1
        assert recent.locator(".history-change .signed").inner_text() == signed(change)
        page.goto(server + "/history")
        item.wait_for()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], width
        shot(page, f"rated-history-{'won' if change > 0 else 'lost'}-phone-{lang}")
        no_errors(p)


def test_an_unrated_match_has_no_marks(players: list[Player], browser: Browser,
                                       server: str) -> None:
    p = new_player(players, browser, server)
    p.sign_in("Sami")
    page = p.page
    page.click("#play-bot")
    page.wait_for_url("**/table/*")
    page.wait_for_selector(".table-page[data-status='playing']")
    page.click(".table-head .resign")
    page.click("dialog[open] [data-answer='yes']")
    page.wait_for_selector(".overlay-match .resigned-line")
    page.goto(server + "/history")
    page.wait_for_selector(".history-page .history-item")
    assert page.locator(".history-item[data-rated]").count() == 0
    assert page.locator(".history-rated, .history-change").count() == 0
    no_errors(p)
