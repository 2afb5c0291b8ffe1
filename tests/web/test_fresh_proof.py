"""A stolen token is not the account, in a real browser against a real ``basra serve``
(``--fresh-proof 2``: a proof lasts two seconds here, five minutes by default). Once the
proof has aged, downloading the data, removing a passkey and deleting ask "Confirm it is
you" first: a wrong password is refused in the dialog, the right one (or a passkey,
through Chromium's virtual authenticator) lets the action go on. "Sign out everywhere"
names the passkeys another device added, ticked, and removes them before signing out.
Screenshots: test-output/screenshots/proof-*.png."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from server.identity.test_accounts import SoftAuthenticator
from web.test_account import (
    EN,
    PASSWORD,
    authenticator,
    call,
    create_account,
    new_player,
    no_errors,
    token,
)
from web_helpers import Player, basra_server, shot

WINDOW = 2.0


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with basra_server(tmp_path_factory.mktemp("proof"), "--fresh-proof", str(WINDOW)) as base:
        yield base.replace("127.0.0.1", "localhost")


def lapse() -> None:
    time.sleep(WINDOW + 0.5)


def test_an_aged_proof_is_asked_for_again(players: list[Player], browser: Browser,
                                          server: str) -> None:
    p = new_player(players, browser, server)
    p.sign_in("Nour")
    create_account(p)
    page = p.page
    lapse()

    # The export: the dialog asks; a wrong password is said in it, the right one downloads.
    page.click("#export-data")
    dialog = page.locator("dialog[data-dialog='proof'][open]")
    dialog.wait_for()
    assert dialog.locator("h2").inner_text() == EN["account.proof.title"]
    assert page.evaluate("document.activeElement.type") == "password"
    shot(page, "proof-dialog-phone-en")
    dialog.locator("input[type=password]").fill("not my password")
    dialog.locator("button[type=submit]").click()
    dialog.locator(".field-error:not(:empty)").wait_for()
    assert dialog.locator(".field-error").inner_text() == EN["account.proof.wrong"]
    dialog.locator("input[type=password]").fill(PASSWORD)
    with page.expect_download() as info:
        dialog.locator("button[type=submit]").click()
    data = json.loads(info.value.path().read_text("utf-8"))
    assert data["player"]["username"] == "Nour"
    assert page.locator("dialog[open]").count() == 0

    # A passkey added while the proof holds; once it has aged, removing it asks again, and
    # the passkey itself proves.
    cdp, device = authenticator(p)
    page.click("#add-passkey")
    page.wait_for_selector(".passkey-list .item")
    lapse()
    page.click(".remove-passkey")
    page.click("dialog[open] [data-answer='yes']")
    dialog.wait_for()
    shot(page, "proof-dialog-passkey-phone-en")
    dialog.locator("button", has_text=EN["account.proof.passkey"]).click()
    page.wait_for_selector(".passkey-list .item", state="detached")
    assert call(page, server, "GET", "/api/passkeys", token(page))[1]["passkeys"] == []

    # Cancelled: nothing happens, the error says why.
    lapse()
    page.fill("#delete-confirm", "Nour")
    page.click("#delete-account")
    dialog.wait_for()
    dialog.locator("[data-answer='cancel']").click()
    page.wait_for_selector("#delete-error:not(:empty)")
    assert page.inner_text("#delete-error") == EN["error.auth.proof_needed"]
    assert call(page, server, "GET", "/api/me", token(page))[0] == 200
    cdp.send("WebAuthn.removeVirtualAuthenticator", {"authenticatorId": device})
    no_errors(p, refusals=True)


def test_sign_out_everywhere_removes_the_passkeys_others_added(
        players: list[Player], browser: Browser, server: str) -> None:
    p = new_player(players, browser, server)
    p.sign_in("Karim")
    create_account(p)
    page = p.page
    # Someone else, with a session of Karim's, adds a passkey of their own.
    status, other = call(page, server, "POST", "/api/sessions", None,
                         {"username": "Karim", "password": PASSWORD})
    assert status == 201
    theirs = SoftAuthenticator(server)
    status, options = call(page, server, "POST", "/api/passkeys/options", other["token"])
    assert status == 200, options
    status, added = call(page, server, "POST", "/api/passkeys", other["token"], {
        "challenge": options["challenge"], "credential": theirs.create(options["options"]),
        "name": "Not mine"})
    assert status == 201, added
    page.goto(server + "/account")
    page.wait_for_selector(".passkey-list .item")
    # and Karim adds his own, here
    authenticator(p)
    page.click("#add-passkey")
    page.wait_for_selector(".passkey-list .item >> nth=1")
    lapse()

    page.click("#sign-out-everywhere")
    named = page.locator("dialog[open] .everywhere-passkeys .item")
    named.first.wait_for()
    assert named.count() == 2  # the other device's, and the one added here since
    theirs_row = named.filter(has_text="Not mine")
    assert theirs_row.locator("input[type=checkbox]").is_checked()  # elsewhere, since
    mine_row = named.filter(has_not_text="Not mine")
    assert not mine_row.locator("input[type=checkbox]").is_checked()  # here: named only
    assert "on this device" in mine_row.inner_text()
    shot(page, "proof-everywhere-phone-en")
    page.click("dialog[open] [data-answer='yes']")
    # Removing it needs a proof: asked, given, and then everyone is signed out.
    dialog = page.locator("dialog[data-dialog='proof'][open]")
    dialog.wait_for()
    dialog.locator("input[type=password]").fill(PASSWORD)
    dialog.locator("button[type=submit]").click()
    page.wait_for_url(server + "/sign-in")
    assert call(page, server, "GET", "/api/me", other["token"])[0] == 401
    status, signed = call(page, server, "POST", "/api/sessions", None,
                          {"username": "Karim", "password": PASSWORD})
    status, left = call(page, server, "GET", "/api/passkeys", signed["token"])
    assert [k["name"] for k in left["passkeys"]] != ["Not mine"]
    assert len(left["passkeys"]) == 1  # his own stays
    no_errors(p, refusals=True)
