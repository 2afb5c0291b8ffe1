"""The create-account form, in a real browser against a real ``basra serve`` (issue 12): what
is typed survives every redraw (a password refused by the page or by the server, a username
taken, a language switch), the focus goes to the field the error is about with the error
under it, no password is written into the markup, and what was shown is what is made; a
first visit keeps the name it typed. Screenshots at 390x844 in English and Arabic go to
test-output/screenshots/ (fixes-create-*.png)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from web.menu import choose_language
from web.phone import person
from web.test_account import PASSWORD, catalogue, create_account, me, no_errors
from web_helpers import Player, basra_server, shot


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with basra_server(tmp_path_factory.mktemp("account-form")) as base:
        yield base.replace("127.0.0.1", "localhost")


@pytest.mark.parametrize("lang", ["en"])
def test_what_is_typed_survives_every_redraw(players: list[Player], browser: Browser,
                                             server: str, lang: str) -> None:
    words = catalogue(lang)
    taken = f"Taken {lang}"
    owner = person(players, browser, server, lang)
    owner.sign_in(taken)
    create_account(owner)

    p = person(players, browser, server, lang)
    p.sign_in(f"Sunny Lynx {lang}")
    page = p.page
    page.goto(server + "/account")
    page.wait_for_selector("#create-form")
    assert page.input_value("#create-username") == f"Sunny Lynx {lang}"
    typed = f"Zed Player {lang}"

    # Too short a password (said by the page): what was typed stays, the focus goes to the
    # password, the error under it.
    page.fill("#create-username", typed)
    page.fill("#create-password", "short")
    page.click("#create-account")
    page.wait_for_selector("#create-error:not(:empty)")
    assert page.inner_text("#create-error") == words["error.account.weak_password"]
    assert page.input_value("#create-username") == typed
    assert page.input_value("#create-password") == "short"
    assert page.evaluate("document.activeElement.id") == "create-password"
    assert page.get_attribute("#create-password", "aria-invalid") == "true"
    assert "create-error" in (page.get_attribute("#create-password", "aria-describedby") or "")
    # No password is written into the markup.
    assert page.get_attribute("#create-password", "value") is None

    # Refused by the server (all one character): the same.
    page.fill("#create-password", "aaaaaaaaaa")
    page.click("#create-account")
    page.wait_for_function("document.activeElement?.id === 'create-password'")
    assert page.inner_text("#create-error") == words["error.account.weak_password"]
    assert page.input_value("#create-username") == typed
    shot(page, f"fixes-create-password-refused-phone-{lang}", full_page=True)

    # A username taken (in another case): the error is about the username, under it, and
    # the name refused is the one shown.
    page.fill("#create-username", taken.upper())
    page.fill("#create-password", PASSWORD)
    page.click("#create-account")
    page.wait_for_function("document.activeElement?.id === 'create-username'")
    assert page.inner_text("#create-error") == words["error.account.username_taken"]
    assert page.input_value("#create-username") == taken.upper()
    assert page.get_attribute("#create-username", "aria-invalid") == "true"
    assert page.get_attribute("#create-password", "aria-invalid") is None
    order = page.evaluate("""() => [...document.querySelectorAll(
        '#create-form input, #create-form .field-error')].map(e => e.id)""")
    assert (order.index("create-username") < order.index("create-error")
            < order.index("create-password"))
    shot(page, f"fixes-create-username-taken-phone-{lang}", full_page=True)

    # A language switch redraws the form: both fields keep what was typed.
    page.fill("#create-username", typed)
    other = "fr" if lang == "en" else "en"
    choose_language(page, other)
    page.wait_for_function("lang => document.documentElement.lang === lang", arg=other)
    page.wait_for_selector("#create-form")
    assert page.input_value("#create-username") == typed
    assert page.input_value("#create-password") == PASSWORD
    choose_language(page, lang)
    page.wait_for_function("lang => document.documentElement.lang.startsWith(lang)", arg=lang)
    assert page.input_value("#create-username") == typed

    # What was shown is what is made.
    page.click("#create-account")
    page.wait_for_selector(".account-top .signed-in")
    assert me(page, server)["username"] == typed
    no_errors(p, refusals=True)
    no_errors(owner)


def test_a_first_visit_keeps_the_typed_name(players: list[Player], browser: Browser,
                                            server: str) -> None:
    p = person(players, browser, server, "en")
    page = p.page
    page.goto(server + "/account")
    page.wait_for_selector("#create-form")
    assert page.input_value("#create-username") == ""
    page.fill("#create-username", "AMIRA first")
    page.fill("#create-password", "short")
    page.click("#create-account")
    page.wait_for_selector("#create-error:not(:empty)")
    assert page.input_value("#create-username") == "AMIRA first"
    no_errors(p)
