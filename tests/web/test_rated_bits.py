"""Rated matches around the pages, in a real browser against a real ``basra serve``: the
history list marks a rated match ("Rated" and the rating change, green or red, read left to
right in Arabic too), the quick-match wait says whether the search is rated (an account) or
casual (a guest, with the way to an account), and a guest opening a rated table's invite is
told why it cannot sit, makes an account and comes straight back to the invite to take the
seat (``/account?next=/join/CODE``; only a path of the site is followed). Screenshots at
390x844 in English and Arabic go to test-output/screenshots/ (rated-*.png)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from web.test_account import (
    PASSWORD,
    catalogue,
    create_account,
    me,
    new_player,
    no_errors,
    rated_table,
    token,
)
from web_helpers import Player, basra_server, shot

PHONE = {"width": 390, "height": 844}
LOCALES = {"en": "en-US", "ar": "ar-EG"}
MINUS = "\u2212"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with basra_server(tmp_path_factory.mktemp("rated")) as base:
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


# ---------------------------------------------------------------------------------------
# the history of a rated match


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


@pytest.mark.parametrize("lang", ["en", "ar"])
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
        expected = {"#45d49a": "rgb(69, 212, 154)", "#ff7a7a": "rgb(255, 122, 122)"}
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


# ---------------------------------------------------------------------------------------
# the quick-match wait


def stop_waiting(page: Page) -> None:
    page.click("#quick-cancel")
    page.wait_for_selector("#quick-match")


@pytest.mark.parametrize("lang", ["en", "ar"])
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


# ---------------------------------------------------------------------------------------
# a rated table's invite, for a guest


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_guest_at_a_rated_invite_makes_an_account_and_comes_back(
        players: list[Player], browser: Browser, server: str, lang: str) -> None:
    words = catalogue(lang)
    host = new_player(players, browser, server, reduced_motion=True)
    host.sign_in(f"Mona {lang}")
    create_account(host, username=f"Mona_{lang}")
    invite = rated_table(host)
    code = invite.rsplit("/", 1)[1]

    # A first visit opening the invite: a guest is made, the seat refused, the words said.
    guest = new_player(players, browser, server, locale=LOCALES[lang], reduced_motion=True)
    page = guest.page
    page.goto(invite)
    page.wait_for_selector(".invite-error[data-code='table/rated_needs_account']")
    assert page.inner_text(".invite-error") == words["error.table.rated_needs_account"]
    assert page.inner_text(".invite-rated-hint") == words["lobby.invite.rated_back"]
    button = page.locator("#invite-account")
    assert button.inner_text() == words["rated.create_account"]
    assert button.get_attribute("href") == f"/account?next=%2Fjoin%2F{code}"
    assert page.locator("#invite-lobby").get_attribute("href") == "/"
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width
    shot(page, f"rated-invite-guest-phone-{lang}")
    made = me(page, server)
    assert made["account"] is False

    # The account page says it comes back; made, it is back at the invite, then the table.
    button.click()
    page.wait_for_selector("#create-form")
    assert page.evaluate("location.pathname + location.search") == \
        f"/account?next=%2Fjoin%2F{code}"
    assert page.inner_text(".create-next") == words["account.create.then_back"]
    shot(page, f"rated-invite-account-phone-{lang}", full_page=True)
    page.fill("#create-username", f"Tarek_{lang}")
    page.fill("#create-password", PASSWORD)
    page.click("#create-account")
    page.wait_for_url("**/table/*")
    page.wait_for_selector(".table-page[data-status='playing']")
    host.page.wait_for_selector(".table-page[data-status='playing']")
    player = me(page, server)
    assert player["id"] == made["id"] and player["account"] is True
    state = guest.state()["table"]
    assert state["rated"] is True
    # a guest still under its generated name sits down under its new username
    assert [s["name"] for s in state["players"]] == [f"Mona {lang}", f"Tarek_{lang}"]
    assert player["nickname"] == f"Tarek_{lang}" != made["nickname"]
    assert page.inner_text(".rated-chip") == words["rated.badge"]
    no_errors(host)
    # The invite's refusal (403) is the only console error.
    assert all("403" in e for e in guest.errors), guest.errors


def test_only_a_path_of_the_site_is_followed(players: list[Player], browser: Browser,
                                            server: str) -> None:
    p = new_player(players, browser, server)
    page = p.page
    page.goto(server + "/account")
    page.wait_for_selector("#create-form")
    followed = page.evaluate("""async () => {
      const main = document.querySelector('script[type=module][src*="main.js"]').src;
      const { nextPath } = await import(new URL('./ui.js', main));
      const out = {};
      for (const next of ['/join/AB12', '/join/AB12?x=1#y', '/players/Zeïna',
                          '//example.com/x', '/\\\\example.com', 'https://example.com/',
                          'javascript:alert(1)', 'join/AB12', '/\\t/example.com', '']) {
        history.replaceState({}, '', '/account?next=' + encodeURIComponent(next));
        out[next] = nextPath();
      }
      history.replaceState({}, '', '/account?other=1');
      out.none = nextPath();
      history.replaceState({}, '', '/account');
      return out;
    }""")
    assert followed == {
        "/join/AB12": "/join/AB12", "/join/AB12?x=1#y": "/join/AB12?x=1#y",
        "/players/Zeïna": "/players/Ze%C3%AFna",
        "//example.com/x": None, "/\\example.com": None, "https://example.com/": None,
        "javascript:alert(1)": None, "join/AB12": None, "/\t/example.com": None, "": None,
        "none": None,
    }

    # Another site's address in `next`: the account is made and the page stays here.
    page.goto(server + "/account?next=" + "%2F%2Fexample.com%2Fx")
    page.wait_for_selector("#create-form")
    assert page.locator(".create-next").count() == 0
    create_account_here(page)
    assert page.evaluate("location.pathname") == "/account"
    assert page.evaluate("location.host") == server.split("//", 1)[1]
    no_errors(p)


def create_account_here(page: Page) -> dict[str, Any]:
    """Make the account from the form as it is (the username the first visit prefills)."""
    page.fill("#create-username", "Walid")
    page.fill("#create-password", PASSWORD)
    page.click("#create-account")
    page.wait_for_selector(".account-top .signed-in")
    data: dict[str, Any] = page.evaluate("JSON.parse(localStorage.getItem('basra.me'))")
    return data
