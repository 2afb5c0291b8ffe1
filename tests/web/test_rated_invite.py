"""A rated table's invite opened by a guest, in a real browser against a real ``basra
serve``: the guest is told why it cannot sit, makes an account and comes straight back to the
invite to take the seat (``/account?next=/join/CODE``); only a path of the site is ever
followed from ``next``. Screenshots at 390x844 in English and Arabic go to
test-output/screenshots/ (rated-invite-*.png)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from web.test_account import (
    LOCALES,
    PASSWORD,
    PHONE,
    catalogue,
    create_account,
    me,
    new_player,
    no_errors,
    rated_table,
)
from web_helpers import Player, basra_server, shot


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with basra_server(tmp_path_factory.mktemp("rated-invite")) as base:
        yield base


@pytest.mark.parametrize("lang", ["ar"])
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
      const { nextPath } = await import(new URL('./lib/ui.js', main));
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
