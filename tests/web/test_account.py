"""Accounts in a real browser against a real ``basra serve``: a guest who played keeps its
games by making an account at /account, and signs in on a fresh browser with its password
(the same player, the same history); a passkey added at /account signs in on another
browser through Chromium's virtual authenticator; the sessions list, signing one device out
and signing out everywhere; the display name, the password, the data export and deleting
the account; the lobby's Rated box; ratings at the table (a seat's rating, the Rated chip,
the changes at the match end); the header fitting 360 px in every language. Screenshots at
390x844 in English and Arabic go to test-output/screenshots/ (account-*.png).

The pages are opened at ``localhost`` (not 127.0.0.1): WebAuthn takes a domain as the
relying party's id, never an IP address."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlparse

import pytest
from playwright.sync_api import Browser, CDPSession, Page, WebSocketRoute, expect

from web.menu import choose_language, open_menu
from web.test_state import RESULT
from web_helpers import ROOT, SHOTS, Player, basra_server, shot

WEB = ROOT / "src" / "basra" / "web"
PHONE = {"width": 390, "height": 844}
SMALL = {"width": 360, "height": 740}
LOCALES = {"en": "en-US", "ar": "ar-EG", "fr": "fr-FR", "sr": "sr-Latn"}
PASSWORD = "fishing-for-basras"
AUTHENTICATOR = {"protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
                 "hasUserVerification": True, "isUserVerified": True,
                 "automaticPresenceSimulation": True}
REFUSED = "Failed to load resource: the server responded with a status of 4"
"""The console's line for an HTTP refusal a test asks for (a wrong password...)."""


def catalogue(lang: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((WEB / "i18n" / f"{lang}.json").read_text("utf-8"))
    return data


EN = catalogue("en")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with basra_server(tmp_path_factory.mktemp("accounts")) as base:
        yield base.replace("127.0.0.1", "localhost")


def new_player(players: list[Player], browser: Browser, server: str,
               **options: Any) -> Player:
    options.setdefault("viewport", PHONE)
    p = Player(browser, server, **options)
    players.append(p)
    return p


def no_errors(p: Player, *, refusals: bool = False) -> None:
    errors = [e for e in p.errors if not (refusals and REFUSED in e)]
    assert not errors, errors


def token(page: Page) -> str:
    value: str | None = page.evaluate("localStorage.getItem('basra.token')")
    assert value
    return value


def call(page: Page, server: str, method: str, path: str, bearer: str | None = None,
         body: Any = None) -> tuple[int, Any]:
    """An HTTP call outside the page (its answer's status and JSON)."""
    headers = {"Content-Type": "application/json"}
    if bearer:
        headers["Authorization"] = f"Bearer {bearer}"
    answer = page.request.fetch(server + path, method=method, headers=headers,
                                data=json.dumps(body) if body is not None else None)
    try:
        data = answer.json()
    except ValueError:
        data = None
    return answer.status, data


def me(page: Page, server: str) -> dict[str, Any]:
    status, player = call(page, server, "GET", "/api/me", token(page))
    assert status == 200, player
    result: dict[str, Any] = player
    return result


def rated_table(host: Player) -> str:
    """The host (an account) makes a rated two-player private table: its invite link."""
    page = host.page
    page.goto(host.base + "/")
    page.wait_for_selector("#rated:not([disabled])")
    page.check("#rated")
    page.click("#create-private")
    page.wait_for_url("**/table/*")
    page.wait_for_selector(".waiting-room .invite-link")
    link: str = page.input_value(".waiting-room .invite-link")
    return link


def header_name(page: Page) -> str:
    text: str = page.inner_text("#account-link .account-name")
    return text


def play_and_resign(p: Player) -> str:
    """A bot match, lost at once by resigning: a finished match in the history."""
    page = p.page
    page.goto(p.base + "/")
    page.click("#play-bot")
    page.wait_for_url("**/table/*")
    page.wait_for_selector(".table-page[data-status='playing']")
    table = page.url.rsplit("/", 1)[1]
    page.click(".table-head .resign")
    page.click("dialog[open] [data-answer='yes']")
    page.wait_for_selector(".overlay-match .resigned-line")
    return table


def create_account(p: Player, username: str | None = None,
                   password: str = PASSWORD) -> dict[str, Any]:
    """At /account: the form prefilled with the guest's nickname (or `username`), made."""
    page = p.page
    page.goto(p.base + "/account")
    page.wait_for_selector("#create-form")
    if username is not None:
        page.fill("#create-username", username)
    page.fill("#create-password", password)
    page.click("#create-account")
    page.wait_for_selector(".account-top .signed-in")
    return me(page, p.base)


def sign_in(p: Player, username: str, password: str = PASSWORD) -> None:
    page = p.page
    page.goto(p.base + "/sign-in")
    page.wait_for_selector("#signin-form")
    page.fill("#signin-username", username)
    page.fill("#signin-password", password)
    page.click("#signin-form button[type=submit]")
    # A slow sign-in (a password hash on a loaded machine) gets time; one the server
    # refused says why in the failure.
    page.wait_for_function(
        "location.pathname === '/' || !!document.querySelector('#signin-error')?.textContent",
        timeout=60_000)
    refused = page.locator("#signin-error").all_inner_texts()
    assert urlparse(page.url).path == "/", f"sign-in refused: {refused}"
    page.wait_for_selector(".identity .nickname")


def authenticator(p: Player) -> tuple[CDPSession, str]:
    """A virtual passkey authenticator for the player's page (Chromium's, through CDP)."""
    cdp = p.context.new_cdp_session(p.page)
    cdp.send("WebAuthn.enable", {"enableUI": False})
    made = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
    return cdp, str(made["authenticatorId"])


def no_overflow(page: Page) -> None:
    """Nothing on the page is wider than the screen."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width  # type: ignore[index]


# ---------------------------------------------------------------------------------------


def test_a_guest_keeps_its_games_and_signs_in_on_another_browser(
        players: list[Player], browser: Browser, server: str) -> None:
    home = new_player(players, browser, server)
    home.sign_in("Nour")
    table = play_and_resign(home)
    guest = me(home.page, server)
    assert guest["account"] is False and guest["username"] is None

    # The header offers signing in (which would replace this guest: said so); /account
    # offers to keep the games.
    page = home.page
    page.click("#account-link")
    page.wait_for_selector(".signin-box .guest-note")
    assert "Nour" in page.inner_text(".guest-note")
    page.click("#to-create")
    page.wait_for_selector("#create-form")
    assert header_name(page) == EN["signin.link"]
    assert page.inner_text("#create-title") == EN["account.create.title"]
    assert page.input_value("#create-username") == "Nour"
    assert page.title() == EN["page.title.account"]
    shot(page, "account-guest-phone-en", full_page=True)

    # A password too short is said at once, in words; the account is then made.
    page.fill("#create-password", "short")
    page.click("#create-account")
    page.wait_for_selector("#create-error:not(:empty)")
    assert page.inner_text("#create-error") == EN["error.account.weak_password"]
    player = create_account(home)
    assert player["id"] == guest["id"]
    assert player["account"] is True and player["username"] == "Nour"
    assert player["has_password"] is True
    # ...and a passkey is offered next.
    assert page.locator("#offer-passkey").is_visible()
    assert header_name(page) == "Nour"
    assert page.get_attribute("#account-link", "href") == "/account"
    assert page.get_attribute("#account-link", "aria-current") == "page"
    page.click(".passkey-offer .btn.ghost")
    assert page.locator(".passkey-offer").count() == 0

    # Another browser: a wrong password is refused in words, the right one signs in as the
    # same player, with the same history.
    away = new_player(players, browser, server)
    page = away.page
    page.goto(server + "/sign-in")
    page.wait_for_selector("#signin-form")
    assert page.title() == EN["page.title.signin"]
    page.fill("#signin-username", "nour")
    page.fill("#signin-password", "not the password")
    page.click("#signin-form button[type=submit]")
    page.wait_for_selector("#signin-error:not(:empty)")
    assert page.inner_text("#signin-error") == EN["error.auth.bad_credentials"]
    page.fill("#signin-password", PASSWORD)
    page.click("#signin-form button[type=submit]")
    page.wait_for_url(server + "/")
    assert page.inner_text(".identity .nickname") == "Nour"
    assert me(page, server)["id"] == guest["id"]
    assert token(page) != token(home.page)
    assert header_name(page) == "Nour"
    page.wait_for_selector(f".recent .history-item[data-table='{table}']")
    open_menu(page)
    page.click("header a[data-nav='history']")
    page.wait_for_selector(f".history-page .history-item[data-table='{table}']")

    # Signed in, /sign-in says so; the account's page signs out here (the next play makes a
    # new guest); the home browser stays signed in.
    page.goto(server + "/sign-in")
    page.wait_for_selector(".signin-box .signed-in")
    page.goto(server + "/account")
    page.click("#sign-out")
    page.wait_for_url(server + "/")
    assert page.evaluate("localStorage.getItem('basra.token')") is None
    assert header_name(page) == EN["signin.link"]
    page.click("#play-bot")
    page.wait_for_url("**/table/*")
    assert me(page, server)["id"] != guest["id"]
    assert me(home.page, server)["id"] == guest["id"]
    no_errors(home)
    no_errors(away, refusals=True)


def test_a_passkey_signs_in_on_a_fresh_browser(players: list[Player], browser: Browser,
                                               server: str) -> None:
    home = new_player(players, browser, server)
    cdp, device = authenticator(home)
    home.sign_in("Karim")
    player = create_account(home)
    page = home.page
    page.click("#offer-passkey")
    page.wait_for_selector(".passkey-list .item")
    assert page.locator(".passkey-offer").count() == 0
    status, listed = call(page, server, "GET", "/api/passkeys", token(page))
    assert status == 200 and len(listed["passkeys"]) == 1
    assert page.inner_text(".passkey-list .item-name") == listed["passkeys"][0]["name"]
    assert me(page, server)["passkeys"] == 1
    credentials = cdp.send("WebAuthn.getCredentials", {"authenticatorId": device})["credentials"]
    assert len(credentials) == 1 and credentials[0]["isResidentCredential"]
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator(".account-passkeys").screenshot(path=str(SHOTS / "account-passkey-phone-en.png"))

    # A fresh browser with the same passkey on its authenticator: one tap signs in.
    away = new_player(players, browser, server)
    other, there = authenticator(away)
    other.send("WebAuthn.addCredential", {"authenticatorId": there, "credential": credentials[0]})
    page = away.page
    page.goto(server + "/sign-in")
    page.click("#signin-passkey")
    page.wait_for_url(server + "/")
    page.wait_for_selector(".identity .nickname")
    assert me(page, server)["id"] == player["id"]
    assert header_name(page) == "Karim"
    status, listed = call(page, server, "GET", "/api/passkeys", token(page))
    assert listed["passkeys"][0]["last_used_at"]

    # Removed (asked first), it no longer signs in: the page says so.
    page.goto(server + "/account")
    page.wait_for_selector(".passkey-list .item")
    page.click(".remove-passkey")
    page.click("dialog[open] [data-answer='yes']")
    page.wait_for_selector(".passkey-list", state="detached")
    assert page.inner_text(".account-passkeys .muted >> nth=1") == EN["account.passkey.none"]
    page.click("#sign-out")
    page.wait_for_url(server + "/")
    page.goto(server + "/sign-in")
    page.click("#signin-passkey")
    page.wait_for_selector("#passkey-error:not(:empty)")
    assert page.inner_text("#passkey-error") == EN["error.passkey.unknown"]
    assert page.inner_text("#signin-error") == ""
    no_errors(home)
    no_errors(away, refusals=True)


def test_sessions_one_signed_out_then_every_one(players: list[Player], browser: Browser,
                                                server: str) -> None:
    home = new_player(players, browser, server)
    home.sign_in("Salma")
    create_account(home)
    away = new_player(players, browser, server)
    sign_in(away, "Salma")
    # A third session, made outside the browsers.
    status, third = call(home.page, server, "POST", "/api/sessions", None,
                         {"username": "Salma", "password": PASSWORD})
    assert status == 201

    page = home.page
    page.goto(server + "/account")
    page.wait_for_selector(".session-list .item >> nth=2")
    rows = page.locator(".session-list .item")
    assert rows.count() == 3
    current = page.locator(".session-list .item[data-current='true']")
    assert current.count() == 1
    assert current.locator(".current-badge").inner_text() == EN["account.sessions.this_device"]
    assert current.locator(".revoke-session").count() == 0
    shot(page, "account-sessions-phone-en", full_page=True)

    # The newest (the third) signed out alone.
    page.locator(".session-list .item .revoke-session").first.click()
    page.wait_for_function("document.querySelectorAll('.session-list .item').length === 2")
    assert call(page, server, "GET", "/api/me", third["token"])[0] == 401
    assert me(away.page, server)["username"] == "Salma"

    # Every one: asked first; this browser and the other are signed out.
    page.click("#sign-out-everywhere")
    page.click("dialog[open] [data-answer='no']")
    assert me(page, server)["username"] == "Salma"
    page.click("#sign-out-everywhere")
    page.click("dialog[open] [data-answer='yes']")
    page.wait_for_url(server + "/sign-in")
    assert page.evaluate("localStorage.getItem('basra.token')") is None
    assert header_name(page) == EN["signin.link"]
    other = token(away.page)
    assert call(page, server, "GET", "/api/me", other)[0] == 401
    away.page.reload()
    away.page.wait_for_selector("#play-bot")
    away.page.wait_for_function("!localStorage.getItem('basra.token')")
    assert header_name(away.page) == EN["signin.link"]
    no_errors(home)
    no_errors(away, refusals=True)


def test_name_password_export_and_deleting_the_account(
        players: list[Player], browser: Browser, server: str) -> None:
    p = new_player(players, browser, server)
    p.sign_in("Youssef")
    table = play_and_resign(p)
    create_account(p)
    page = p.page
    away = new_player(players, browser, server)
    sign_in(away, "Youssef")

    # The display name: shown at the table, the username stays.
    page.fill("#display-name", "Youssef the Bold")
    page.click("#save-name")
    page.wait_for_function("() => JSON.parse(localStorage.getItem('basra.me')).nickname"
                           " === 'Youssef the Bold'")
    player = me(page, server)
    assert player["nickname"] == "Youssef the Bold" and player["username"] == "Youssef"
    assert header_name(page) == "Youssef"

    # The password: the current one is asked; a wrong one is refused; the other browser is
    # signed out once it changes, and the new one signs in.
    page.fill("#current-password", "wrong password!")
    page.fill("#new-password", "a new secret 42")
    page.click("#change-password")
    page.wait_for_selector("#password-error:not(:empty)")
    assert page.inner_text("#password-error") == EN["error.auth.bad_credentials"]
    page.fill("#current-password", PASSWORD)
    page.click("#change-password")
    page.wait_for_selector("#password-error:empty", state="attached")
    page.wait_for_function("document.querySelectorAll('.session-list .item').length === 1")
    assert call(page, server, "GET", "/api/me", token(away.page))[0] == 401
    assert call(page, server, "POST", "/api/sessions", None,
                {"username": "Youssef", "password": PASSWORD})[0] == 401
    assert call(page, server, "POST", "/api/sessions", None,
                {"username": "Youssef", "password": "a new secret 42"})[0] == 201

    # Everything stored, downloaded: the match and its record, never a hash.
    with page.expect_download() as info:
        page.click("#export-data")
    download = info.value
    assert download.suggested_filename == "basra-Youssef.json"
    path = download.path()
    data = json.loads(path.read_text("utf-8"))
    assert data["player"]["username"] == "Youssef"
    assert [m["table"] for m in data["matches"]] == [table]
    assert "hash" not in path.read_text("utf-8")

    # Deleting: only once the username is typed; then a guest again, and the name is gone.
    button = page.locator("#delete-account")
    assert button.is_disabled()
    page.fill("#delete-confirm", "youssef")
    assert button.is_disabled()
    page.fill("#delete-confirm", "Youssef")
    assert button.is_enabled()
    button.click()
    page.wait_for_url(server + "/")
    assert page.evaluate("localStorage.getItem('basra.token')") is None
    assert header_name(page) == EN["signin.link"]
    assert call(page, server, "POST", "/api/sessions", None,
                {"username": "Youssef", "password": "a new secret 42"})[0] == 401
    no_errors(p, refusals=True)


def test_the_lobby_rated_box(players: list[Player], browser: Browser, server: str) -> None:
    p = new_player(players, browser, server, viewport={"width": 1280, "height": 800})
    page = p.page
    page.goto(server + "/")
    page.wait_for_selector("#rated")
    # A guest: the box is off, and says why, with the way to an account.
    assert page.locator("#rated").is_disabled()
    assert page.get_attribute("#rated-hint", "data-why") == "account"
    assert page.locator("#rated-hint a[href='/account']").count() == 1
    p.sign_in("Hoda")
    create_account(p)
    page.goto(server + "/")
    page.wait_for_selector("#rated:not([disabled])")
    assert page.get_attribute("#rated-hint", "data-why") == ""
    # Four players are never rated; back to two, the box is on again.
    page.click("label[for='variant-lebanese']")
    page.select_option("#bot-seating", "4")
    assert page.locator("#rated").is_disabled()
    assert page.inner_text("#rated-hint") == EN["rated.two_players"]
    page.select_option("#bot-seating", "2")
    page.check("#rated")
    shot(page, "account-lobby-rated-desktop-en")
    with page.expect_request("**/api/tables/private") as asked:
        page.click("#create-private")
    body = asked.value.post_data_json
    assert body is not None and body["rated"] is True and body["players"] == 2
    page.wait_for_url("**/table/*")
    no_errors(p)


def test_the_lobby_shows_the_rating_of_the_chosen_variant(
        players: list[Player], browser: Browser, server: str) -> None:
    p = new_player(players, browser, server)
    p.sign_in("Rania")
    create_account(p)
    page = p.page
    ratings = {"egyptian": {"rating": 1532, "deviation": 80, "label": "1532",
                            "provisional": False, "games": 14},
               "lebanese": {"rating": 1500, "deviation": 350, "label": "1500?",
                            "provisional": True, "games": 1}}

    def rated_me(route: Any) -> None:
        answer = route.fetch()
        route.fulfill(response=answer, json={**answer.json(), "ratings": ratings})

    page.route("**/api/me", rated_me)
    page.goto(server + "/")
    page.click("label[for='variant-egyptian']")
    page.wait_for_selector(".identity .my-rating")
    assert page.inner_text(".identity .my-rating") == "1532"
    assert page.get_attribute(".identity .my-rating", "dir") == "ltr"
    page.click("label[for='variant-lebanese']")
    page.wait_for_function(
        "document.querySelector('.identity .my-rating')?.textContent === '1500?'")
    page.click("label[for='variant-arabic101']")
    page.wait_for_selector(".identity .my-rating", state="detached")
    page.click("label[for='variant-egyptian']")
    shot(page, "account-lobby-rating-phone-en")
    # The account page lists them, provisional ones marked.
    page.goto(server + "/account")
    page.wait_for_selector(".acct-rating[data-variant='lebanese'] .provisional")
    assert page.inner_text(".acct-rating[data-variant='egyptian'] .acct-rating-value") == "1532"
    assert page.locator(".acct-rating").count() == 2
    shot(page, "account-ratings-phone-en", full_page=True)
    no_errors(p)


def test_a_rated_private_table_between_two_accounts(
        players: list[Player], browser: Browser, server: str) -> None:
    """The server's own rated table: the chip and both ratings at the table, a resign
    after both have played, each rating's change at the match end, the new rating in the
    lobby."""
    host = new_player(players, browser, server, reduced_motion=True)
    host.sign_in("Farida")
    create_account(host)
    rival = new_player(players, browser, server, reduced_motion=True)
    rival.sign_in("Omar")
    create_account(rival)
    page = host.page
    rival.page.goto(rated_table(host))
    for p in (host, rival):
        p.page.wait_for_selector(".table-page[data-status='playing']")
    assert host.state()["table"]["rated"] is True
    assert page.inner_text(".rated-chip") == EN["rated.badge"]
    assert page.inner_text(".seat-plate[data-seat='1'] .seat-rating") == "1500?"
    assert page.inner_text(".me-name .seat-rating") == "1500?"
    # Both play, then the host resigns: rated, each rating moved.
    played = {0: 0, 1: 0}
    while min(played.values()) < 1:
        for seat, p in ((0, host), (1, rival)):
            if p.dataset().get("turn") == "mine" and p.page.locator(".hand.my-turn").count():
                p.play_first()
                played[seat] += 1
        page.wait_for_timeout(50)
    page.click(".table-head .resign")
    page.click("dialog[open] [data-answer='yes']")
    for p in (host, rival):
        p.page.wait_for_selector(".overlay-match .end-rating >> nth=1")
    changes = host.state()["table"]["result"]["ratings"]
    mine = page.locator(".end-rating[data-seat='0']")
    assert mine.locator(".who").inner_text() == EN["seat.you"]
    assert int(mine.get_attribute("data-change") or "0") < 0
    after = next(c for c in changes if c["seat"] == 0)
    assert mine.locator(".after").inner_text() == after["label"]
    theirs = rival.page.locator(".end-rating[data-seat='1']")
    assert int(theirs.get_attribute("data-change") or "0") > 0
    assert theirs.locator(".signed").inner_text().startswith("+")
    shot(rival.page, "account-rated-match-won-phone-en")
    # The lobby shows the new rating; the account page lists it.
    rival.page.goto(server + "/")
    rival.page.wait_for_selector(".identity .my-rating")
    label = me(rival.page, server)["ratings"]["egyptian"]["label"]
    assert rival.page.inner_text(".identity .my-rating") == label
    no_errors(host)
    no_errors(rival)


def table_messages(rated: bool) -> list[dict[str, Any]]:
    """A finished two-player match, as a table's socket would send it (the seat 0's)."""
    result = {**RESULT, "totals": [121, 40]}
    players = [
        {"seat": 0, "name": "Amira", "kind": "human", "connected": True, "bot_playing": False,
         "client_seed": None, "rematch": False, "account": True,
         "rating": {"rating": 1562, "label": "1562?"} if rated else None},
        {"seat": 1, "name": "Tarek", "kind": "human", "connected": True, "bot_playing": False,
         "client_seed": None, "rematch": False, "account": True,
         "rating": {"rating": 1438, "label": "1438?"} if rated else None}]
    table = {"id": "t1", "kind": "private", "variant": "egyptian", "seats": 2, "teams": False,
             "status": "finished", "phase": "finished", "players": players, "clock": None,
             "fairness": {"current": None, "revealed": []}, "rematch_table": None,
             "resigned": None, "next_round": None, "rated": rated,
             "result": {"winner": 0, "totals": [121, 40], "sets": [0, 0], "ratings": [
                 {"seat": 0, "before": 1500, "after": 1562, "change": 62, "label": "1562?"},
                 {"seat": 1, "before": 1500, "after": 1438, "change": -62, "label": "1438?"},
             ] if rated else []}}
    view = {"variant": "egyptian", "seat": 0, "seats": 2, "teams": False, "round": 1,
            "dealer": 1, "deal": 6, "turn": None, "hand": [], "floor": [],
            "opening_floor": ["2C", "3S", "5D", "9H"], "plays": [], "legal": [],
            "hand_counts": [0, 0], "stock_count": 0, "pile_counts": [30, 22],
            "basras": [1, 0], "basra_points": [10, 0], "totals": [121, 40], "carry": 0,
            "sets": [0, 0], "target": 121, "results": [result], "winner": 0}
    return [{"type": "welcome", "protocol": "basra-ws/2", "table": "t1", "seat": 0},
            {"type": "state", "version": 60, "you": 0, "table": table, "view": view}]


def open_fake_table(p: Player, rated: bool) -> None:
    """The real table page on a socket that plays back `table_messages` (no server table)."""
    def answer(ws: WebSocketRoute) -> None:
        for message in table_messages(rated):
            ws.send(json.dumps(message))

    p.page.route_web_socket("**/ws/tables/t1*", answer)
    p.page.goto(p.base + "/table/t1")
    p.page.wait_for_selector(".overlay-match")
    # The page shows once its state is in (the bar over the hand fades in).
    p.page.wait_for_selector(".me-name", state="visible")
    p.page.wait_for_selector(".opponents .plate-name", state="visible")


@pytest.mark.parametrize("lang", ["ar"])
def test_ratings_at_the_table_and_the_match_end(players: list[Player], browser: Browser,
                                                server: str, lang: str) -> None:
    words = catalogue(lang)
    p = new_player(players, browser, server, locale=LOCALES[lang], reduced_motion=True)
    open_fake_table(p, rated=True)
    page = p.page
    assert page.inner_text(".rated-chip") == words["rated.badge"]
    assert page.inner_text(".seat-plate[data-seat='1'] .seat-rating") == "1438?"
    assert page.inner_text(".me-name .seat-rating") == "1562?"
    assert page.get_attribute(".seat-rating >> nth=0", "dir") == "ltr"
    rows = page.locator(".overlay-match .end-rating")
    assert rows.count() == 2
    mine = page.locator(".end-rating[data-seat='0']")
    assert mine.locator(".who").inner_text() == words["seat.you"]
    assert mine.locator(".after").inner_text() == "1562?"
    expect(mine.locator(".signed")).to_have_text("+62")
    assert "up" in (mine.locator(".signed").get_attribute("class") or "")
    theirs = page.locator(".end-rating[data-seat='1']")
    assert theirs.locator(".who").inner_text() == "Tarek"
    expect(theirs.locator(".signed")).to_have_text("\u221262")
    assert "down" in (theirs.locator(".signed").get_attribute("class") or "")
    # Each change reads as one line; the numbers never turn around in Arabic.
    assert theirs.locator(".sr-only").inner_text() == words["rated.end_line"].format(
        name="Tarek", after="1438?", change="\u221262")
    boxes = page.evaluate("""() => [...document.querySelectorAll(
        '.end-rating[data-seat="1"] .signed')].map(e => getComputedStyle(e).direction)""")
    assert boxes == ["ltr"]
    no_overflow(page)
    shot(page, f"account-rated-match-end-phone-{lang}")
    no_errors(p)


def test_an_unrated_table_shows_no_ratings(players: list[Player], browser: Browser,
                                           server: str) -> None:
    p = new_player(players, browser, server)
    open_fake_table(p, rated=False)
    page = p.page
    assert page.locator(".rated-chip").count() == 0
    assert page.locator(".seat-rating").count() == 0
    assert page.locator(".end-ratings").count() == 0
    no_errors(p)


@pytest.mark.parametrize("lang", ["en"])
def test_the_account_pages_at_phone_size(players: list[Player], browser: Browser, server: str,
                                         lang: str) -> None:
    words = catalogue(lang)
    p = new_player(players, browser, server, locale=LOCALES[lang])
    page = p.page
    page.goto(server + "/sign-in")
    page.wait_for_selector("#signin-form")
    assert page.inner_text("#signin-title") == words["signin.title"]
    assert page.evaluate("document.documentElement.dir") == ("rtl" if lang == "ar" else "ltr")
    no_overflow(page)
    shot(page, f"account-sign-in-phone-{lang}", full_page=True)

    page.goto(server + "/account")
    page.wait_for_selector("#create-form")
    assert page.inner_text("#create-title") == words["account.create.title"]
    no_overflow(page)
    shot(page, f"account-create-phone-{lang}", full_page=True)

    p.sign_in(f"Lina {lang}")
    create_account(p, username=f"Lina_{lang}")
    page.click(".passkey-offer .btn.ghost")
    page.wait_for_selector(".session-list .item")
    assert page.inner_text("#account-top-title") == words["account.title"]
    # Another language redraws the page and keeps what is typed.
    page.fill("#new-password", "half typed")
    other = "fr" if lang == "ar" else "ar"
    choose_language(page, other)
    page.wait_for_function("t => document.querySelector('#account-top-title').textContent === t",
                           arg=catalogue(other)["account.title"])
    assert page.input_value("#new-password") == "half typed"
    assert page.title() == catalogue(other)["page.title.account"]
    choose_language(page, lang)
    page.wait_for_function("t => document.querySelector('#account-top-title').textContent === t",
                           arg=words["account.title"])
    page.fill("#new-password", "")
    assert header_name(page) == f"Lina_{lang}"
    assert page.inner_text("#account-link .account-initial") == "L"
    no_overflow(page)
    shot(page, f"account-signed-in-phone-{lang}", full_page=True)
    shot(page, f"account-signed-in-top-phone-{lang}")
    no_errors(p)


def test_the_header_fits_a_small_phone_in_every_language(
        players: list[Player], browser: Browser, server: str) -> None:
    for lang, locale in LOCALES.items():
        p = new_player(players, browser, server, viewport=SMALL, locale=locale)
        page = p.page
        page.goto(server + "/")
        page.wait_for_selector("#play-bot")
        fits = page.evaluate("""() => {
          const header = document.querySelector('.site-header');
          const parts = [...header.children].map((el) => el.getBoundingClientRect());
          const nav = document.querySelector('.site-nav');
          const apart = parts.every((a, i) => i === 0
            || Math.max(a.left, parts[i - 1].left) >= Math.min(a.right, parts[i - 1].right) - 0.5);
          return { apart, header: header.scrollWidth <= header.clientWidth,
                   nav: nav.scrollWidth <= nav.clientWidth + 1,
                   lines: [...nav.children].every((a) => a.offsetHeight < 40) };
        }""")
        assert fits == {"apart": True, "header": True, "nav": True, "lines": True}, (lang, fits)
        # The link's words stay for screen readers.
        assert page.get_attribute("#account-link", "aria-label") == catalogue(lang)["signin.link"]
        shot(page, f"account-header-small-{lang}")
        no_errors(p)
