"""A session ended elsewhere, in a real browser against a real ``basra serve`` (issue 12):
after "sign out everywhere" every other device is told once (a table whose socket was closed
4401 does not reopen it and says so, with a way back to the seat; an account page on its next
load), while a guest's token that stops working is forgotten without a word. Screenshots at
390x844 in English and Arabic go to test-output/screenshots/ (fixes-signed-out-*.png)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from web.phone import person
from web.test_account import PASSWORD, catalogue, create_account, no_errors, sign_in
from web_helpers import Player, basra_server, shot

CLOSES = """(() => {
  // Every websocket the page opens, and the close code of each that closes.
  const Native = window.WebSocket;
  window.__sockets = 0;
  window.__closes = [];
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      if (!String(args[0]).includes("/ws/tables/")) return;  // the table's socket only
      window.__sockets += 1;
      this.addEventListener("close", (event) => window.__closes.push(event.code));
    }
  };
})();"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with basra_server(tmp_path_factory.mktemp("signed-out")) as base:
        yield base.replace("127.0.0.1", "localhost")


def toasts(page: Page, text: str) -> int:
    count: int = page.evaluate(
        "text => [...document.querySelectorAll('#toasts .toast')]"
        ".filter(e => e.textContent === text).length", text)
    return count


@pytest.mark.parametrize("lang", ["ar"])
def test_signed_out_everywhere_is_told_on_each_device(players: list[Player], browser: Browser,
                                                      server: str, lang: str) -> None:
    words = catalogue(lang)
    told = words["account.signed_out_here"]
    name = f"Layla {lang}"
    home = person(players, browser, server, lang)
    home.sign_in(name)
    create_account(home)
    # B: another browser, on its account page.
    away = person(players, browser, server, lang)
    sign_in(away, name)
    away.page.goto(server + "/account")
    away.page.wait_for_selector(".account-top .signed-in")
    # C: a third, at a bot table, its socket open.
    table = person(players, browser, server, lang, reduced_motion=True)
    table.context.add_init_script(CLOSES)
    sign_in(table, name)
    tpage = table.page
    tpage.click("#play-bot")
    tpage.wait_for_url("**/table/*")
    tpage.wait_for_selector(".table-page[data-status='playing']")
    table_id = tpage.url.rsplit("/", 1)[1]
    assert tpage.evaluate("window.__sockets") == 1

    # A signs out everywhere.
    page = home.page
    page.goto(server + "/account")
    page.click("#sign-out-everywhere")
    page.click("dialog[open] [data-answer='yes']")
    page.wait_for_url(server + "/sign-in")
    assert toasts(page, told) == 0

    # C: the socket closed 4401 is not reopened; the page says so, with a way to sign in.
    tpage.wait_for_selector(".conn-banner[data-state='signed-out']")
    assert tpage.evaluate("window.__closes") == [4401]
    assert tpage.inner_text(".conn-banner .conn-text") == told
    assert toasts(tpage, told) == 1
    assert tpage.evaluate("localStorage.getItem('basra.token')") is None
    shot(tpage, f"fixes-signed-out-table-phone-{lang}")
    tpage.wait_for_timeout(4500)  # longer than every reconnect delay
    assert tpage.evaluate("window.__sockets") == 1
    assert toasts(tpage, told) == 1

    # B: the next load of its page tells it, once; the load after that says nothing.
    away.page.reload()
    away.page.wait_for_selector("#create-form, .account-top")
    away.page.wait_for_function("text => [...document.querySelectorAll('#toasts .toast')]"
                                ".some(e => e.textContent === text)", arg=told)
    away.page.wait_for_timeout(600)
    assert toasts(away.page, told) == 1
    assert away.page.evaluate("localStorage.getItem('basra.token')") is None
    shot(away.page, f"fixes-signed-out-account-phone-{lang}")
    away.page.reload()
    away.page.wait_for_selector("#create-form")
    away.page.wait_for_timeout(800)
    assert toasts(away.page, told) == 0

    # C signs in again from the banner and is back at its seat, without a leave prompt.
    tpage.click(".conn-banner a")
    tpage.wait_for_url("**/sign-in?next=*")
    assert table.dialogs == []
    tpage.wait_for_selector("#signin-form")
    tpage.fill("#signin-username", name)
    tpage.fill("#signin-password", PASSWORD)
    tpage.click("#signin-form button[type=submit]")
    tpage.wait_for_url(f"**/table/{table_id}")
    tpage.wait_for_function("() => document.querySelector('.conn-banner')?.dataset.state === ''"
                            " && document.querySelector('.table-page')?.dataset.status")
    assert table.state()["you"] == 0
    no_errors(home)
    no_errors(away, refusals=True)
    no_errors(table, refusals=True)


def test_a_guest_token_that_stops_working_is_not_told(players: list[Player], browser: Browser,
                                                      server: str) -> None:
    """A 401 for a guest's token (never an account) forgets it without a word."""
    p = person(players, browser, server, "en")
    p.context.add_init_script("localStorage.setItem('basra.token', 'no-such-token');"
                              "localStorage.setItem('basra.me', JSON.stringify("
                              "{id: 'p1', nickname: 'Ghost', account: false}));")
    page = p.page
    page.goto(server + "/account")
    page.wait_for_selector("#create-form")
    page.wait_for_timeout(600)
    assert toasts(page, catalogue("en")["account.signed_out_here"]) == 0
    no_errors(p, refusals=True)
