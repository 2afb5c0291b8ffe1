"""The lobby in a real browser against a real ``basra serve``: one tap from a first visit to
a played card on a 360x640 phone, the generated name and renaming it, options that never
erase what is typed, quick match in one tap, invite links (a made-up code says so before
anything), and a first load without the table's modules. Screenshots go to
test-output/screenshots/."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from web.menu import open_menu
from web_helpers import DESKTOP, ROOT, Player, basra_server, shot

WEB = ROOT / "src" / "basra" / "web"
PHONE_SMALL = {"width": 360, "height": 640}
LAZY = ("/js/pages/table.js", "/js/table/state.js", "/js/pages/rules.js",
        "/js/pages/history.js", "/js/pages/invite.js",
        "/css/table.css", "/css/overlay.css")
"""What the landing page must not load: each comes when its page opens."""


def catalogue(lang: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((WEB / "i18n" / f"{lang}.json").read_text("utf-8"))
    return data


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with basra_server(tmp_path_factory.mktemp("lobbydata")) as base:
        yield base


def new_player(players: list[Player], browser: Browser, server: str, **options: Any) -> Player:
    p = Player(browser, server, **options)
    players.append(p)
    return p


def requested(page: Page) -> list[str]:
    urls: list[str] = []
    page.on("request", lambda r: urls.append(r.url))
    return urls


def in_view(page: Page, selector: str) -> None:
    """The element is wholly inside the viewport as the page opens (no scrolling)."""
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    assert page.evaluate("window.scrollY") == 0
    assert box["x"] >= 0 and box["y"] >= 0, (selector, box)
    assert box["x"] + box["width"] <= size["width"], (selector, box)
    assert box["y"] + box["height"] <= size["height"], (selector, box)


def me(page: Page, server: str) -> dict[str, Any]:
    token = page.evaluate("localStorage.getItem('basra.token')")
    assert token
    answer = page.request.get(f"{server}/api/me", headers={"Authorization": f"Bearer {token}"})
    assert answer.ok
    player: dict[str, Any] = answer.json()
    return player


def shown_name(page: Page) -> str:
    page.wait_for_selector(".identity .nickname")
    return page.inner_text(".identity .nickname")


def no_errors(p: Player) -> None:
    assert not p.errors, p.errors


# ---------------------------------------------------------------------------------------


def test_a_first_visit_plays_a_bot_in_one_tap(players: list[Player], browser: Browser,
                                              server: str) -> None:
    en = catalogue("en")
    p = new_player(players, browser, server, viewport=PHONE_SMALL)
    page = p.page
    urls = requested(page)
    page.goto(server + "/")
    page.wait_for_selector("#play-bot")
    assert page.inner_text("#play-bot") == en["lobby.bot.start"]
    in_view(page, "#play-bot")
    in_view(page, "#quick-match")
    assert page.title() == en["app.title"]
    # The landing page loads none of the other pages' modules, nor the table's looks.
    page.wait_for_load_state("networkidle")
    assert not [u for u in urls if u.endswith(LAZY)], urls
    assert all(u.startswith(server) for u in urls), urls
    shot(page, "lobby-first-visit-phone-en")

    # One tap: a guest with a made-up name, the table, a card played.
    assert page.evaluate("localStorage.getItem('basra.token')") is None
    page.click("#play-bot")
    page.wait_for_url("**/table/*")
    page.wait_for_selector(".table-page[data-status='playing']")
    assert any(u.endswith("/js/pages/table.js") for u in urls)
    assert page.evaluate("""() => [...document.styleSheets].some(s => (s.href || '')
                            .endsWith('/css/table.css'))""")
    name = me(page, server)["nickname"]
    assert re.fullmatch(r"\S+( \S+)* \d+", name), name
    assert page.evaluate("localStorage.getItem('basra.nickname')") == name
    assert en["page.title.table"] in page.title()
    assert p.next_turn() == "turn"
    play = p.play_first()
    assert play["type"] == "play"

    # Back in the lobby: "Playing as <the made-up name> · Change".
    p.leave = True
    page.goto(server + "/")
    assert shown_name(page) == name
    assert page.locator("#rename").is_visible()
    assert page.locator("#nickname").count() == 0
    in_view(page, "#play-bot")
    shot(page, "lobby-playing-as-phone-en")
    no_errors(p)


def test_a_tap_before_the_session_is_checked_keeps_the_player(
        players: list[Player], browser: Browser, server: str) -> None:
    """Play a bot tapped the moment the lobby opens, while its /api/me is still on the way:
    the stored guest plays, no second guest is made (a CI flake once showed the race)."""
    p = new_player(players, browser, server)
    p.sign_in("Youssef")
    page = p.page
    before = me(page, server)

    def slow_me(route: Any) -> None:
        page.wait_for_timeout(800)  # the check answers late
        route.continue_()

    page.route("**/api/me", slow_me)
    page.goto(server + "/")
    page.click("#play-bot")  # at once: the name line still says "loading"
    page.wait_for_url("**/table/*")
    page.unroute("**/api/me")
    assert me(page, server)["id"] == before["id"]
    page.wait_for_selector(".table-page[data-status='playing']")
    assert "Youssef" in page.inner_text(".table-page")
    no_errors(p)


def test_the_landing_fits_a_phone_in_arabic_and_a_desktop(players: list[Player],
                                                          browser: Browser, server: str) -> None:
    ar = catalogue("ar")
    p = new_player(players, browser, server, viewport=PHONE_SMALL, locale="ar-EG")
    page = p.page
    page.goto(server + "/")
    page.wait_for_selector("#play-bot")
    assert page.evaluate("document.documentElement.dir") == "rtl"
    assert page.inner_text("#play-bot") == ar["lobby.bot.start"]
    assert page.inner_text("#quick-match") == ar["lobby.quick.start"]
    assert page.title() == ar["app.title"]
    in_view(page, "#play-bot")
    in_view(page, "#quick-match")
    shot(page, "lobby-first-visit-phone-ar")
    shot(page, "lobby-first-visit-phone-ar-full", full_page=True)
    # The rules page has its own title, in the reader's language. On a phone the header's
    # links are in its Menu; Learn's page leads to the rules too.
    open_menu(page)
    page.click(".site-nav a[data-nav='learn']")
    page.click("a.learn-rules")
    page.wait_for_selector(".rules-page")
    assert page.title() == ar["page.title.rules"]

    d = new_player(players, browser, server, viewport=DESKTOP)
    d.page.goto(server + "/")
    d.page.wait_for_selector("#play-bot")
    in_view(d.page, "#play-bot")
    in_view(d.page, "#quick-match")
    shot(d.page, "lobby-first-visit-desktop")
    no_errors(p)
    no_errors(d)


def test_options_keep_a_typed_name_and_a_rename_sticks(players: list[Player], browser: Browser,
                                                       server: str) -> None:
    p = new_player(players, browser, server)
    page = p.page
    page.goto(server + "/")
    page.fill("#nickname", "Half typ")
    # Every option changes, the name being typed stays.
    page.check("#variant-lebanese")
    page.check("input[name=level][value=hard]", force=True)
    page.select_option("#bot-seating", "4t")
    page.check("#variant-serbian")
    page.check("#variant-lebanese")
    assert page.input_value("#nickname") == "Half typ"
    assert page.input_value("#bot-seating") == "4t"
    # The options are remembered; the summary says what one tap starts.
    page.reload()
    page.wait_for_selector("#play-bot")
    assert page.is_checked("#variant-lebanese")
    assert page.is_checked("input[name=level][value=hard]")
    assert page.input_value("#bot-seating") == "4t"
    en = catalogue("en")
    assert en["variant.lebanese.name"] in page.inner_text(".start-summary")
    assert en["seating.4t"] in page.inner_text(".start-summary")

    # A typed name makes the guest; a rename later keeps the same guest.
    page.fill("#nickname", "Amira")
    page.click(".name-form button[type=submit]")
    assert shown_name(page) == "Amira"
    first = me(page, server)
    assert first["nickname"] == "Amira"
    page.click("#rename")
    assert page.input_value("#nickname") == "Amira"
    page.fill("#nickname", "Amira B")
    page.check("input[name=level][value=easy]", force=True)
    page.check("#variant-egyptian")
    assert page.input_value("#nickname") == "Amira B"
    # A name the server refuses says why, and the guest keeps its name.
    page.fill("#nickname", "A")
    page.click(".name-form button[type=submit]")
    page.wait_for_selector("#nickname-error:not(:empty)")
    assert me(page, server)["nickname"] == "Amira"
    page.fill("#nickname", "Amira B")
    page.click(".name-form button[type=submit]")
    page.wait_for_function(
        "document.querySelector('.identity .nickname')?.textContent === 'Amira B'")
    page.reload()
    assert shown_name(page) == "Amira B"
    again = me(page, server)
    assert (again["id"], again["nickname"]) == (first["id"], "Amira B")
    # Player.sign_in renames an existing guest too.
    p.sign_in("Amira C")
    renamed = me(page, server)
    assert (renamed["id"], renamed["nickname"]) == (first["id"], "Amira C")
    no_errors(p)


def test_quick_match_waits_in_one_tap(players: list[Player], browser: Browser,
                                      server: str) -> None:
    p = new_player(players, browser, server, viewport=PHONE_SMALL)
    page = p.page
    page.goto(server + "/")
    page.click("#quick-match")
    page.wait_for_selector(".quick-option.waiting #quick-cancel")
    in_view(page, ".quick-option .waiting-line")
    # A guest was made on the way, with a made-up name.
    assert shown_name(page) == me(page, server)["nickname"]
    shot(page, "lobby-quick-waiting-phone")
    page.click("#quick-cancel")
    page.wait_for_selector("#quick-match")
    no_errors(p)


def test_invite_links_seat_a_newcomer_or_say_they_are_not_valid(
        players: list[Player], browser: Browser, server: str) -> None:
    en = catalogue("en")
    bad = new_player(players, browser, server, viewport=PHONE_SMALL)
    bad.page.goto(server + "/join/NOSUCHCODE")
    # Whether the server's page or the client says it, nothing is asked first.
    bad.page.wait_for_selector(f"text={en['page.invite_invalid.heading']}")
    assert bad.page.locator("#nickname").count() == 0
    shot(bad.page, "invite-not-valid-phone")
    # The client's own landing says it too (an invite opened inside the page), in Arabic.
    ar = catalogue("ar")
    inside = new_player(players, browser, server, viewport=PHONE_SMALL, locale="ar-EG")
    inside.page.goto(server + "/")
    inside.page.wait_for_selector("#play-bot")
    inside.page.evaluate("""() => { history.pushState({}, '', '/join/NOSUCHCODE');
                                    dispatchEvent(new Event('basra:navigate')); }""")
    inside.page.wait_for_selector(".invite-error")
    assert inside.page.inner_text("#invite-title") == ar["page.invite_invalid.heading"]
    assert "NOSUCHCODE" in inside.page.inner_text(".invite-error")
    assert inside.page.locator("#nickname").count() == 0
    shot(inside.page, "invite-not-valid-client-phone-ar")
    assert all("404" in e for e in inside.errors), inside.errors

    host = bad.page.request.post(f"{server}/api/guests", data={"nickname": "Host"}).json()
    made = bad.page.request.post(f"{server}/api/tables/private", data={"variant": "egyptian"},
                                 headers={"Authorization": f"Bearer {host['token']}"}).json()
    guest = new_player(players, browser, server, viewport=PHONE_SMALL)
    guest.page.goto(server + made["invite_link"])
    guest.page.wait_for_url(f"**/table/{made['table']['id']}")
    guest.page.wait_for_selector(".table-page[data-status]")
    name = me(guest.page, server)["nickname"]
    seated = [pl["name"] for pl in guest.state()["table"]["players"]]
    assert seated[0] == "Host" and name in seated
    # (The server's page for a bad code, and the join's answer, are 404s: the console notes
    # them.)
    assert all("404" in e for e in bad.errors), bad.errors
    no_errors(guest)


@pytest.mark.parametrize("lang", ["en", "ar", "fr", "sr"])
def test_the_expert_is_a_level_of_the_lobby_at_phone_width(players: list[Player],
                                                           browser: Browser, server: str,
                                                           lang: str) -> None:
    words = catalogue(lang)
    p = new_player(players, browser, server, viewport=PHONE_SMALL, locale=lang)
    page = p.page
    page.goto(server + "/")
    page.wait_for_selector("#play-bot")
    labels = page.locator("label.seg[data-level]")
    assert labels.count() == 5
    expert = page.locator("label.seg[data-level=expert]")
    assert expert.inner_text().strip() == words["bot.level.expert"]
    frame = page.locator(".segmented:has(label.seg[data-level])").bounding_box()
    assert frame is not None
    for i in range(5):
        box = labels.nth(i).bounding_box()
        assert box is not None
        assert frame["x"] - 0.5 <= box["x"] and box["x"] + box["width"] <= frame["x"] + \
            frame["width"] + 0.5, f"level {i} sticks out of its control in {lang}"
        text_fits = labels.nth(i).evaluate("e => e.scrollWidth <= e.clientWidth + 1")
        assert text_fits, f"level {i} is cut in {lang}"
    page.check("input[name=level][value=expert]", force=True)
    page.reload()
    page.wait_for_selector("#play-bot")
    assert page.is_checked("input[name=level][value=expert]")
    page.locator("label.seg[data-level=expert]").scroll_into_view_if_needed()
    shot(page, f"lobby-levels-phone-{lang}")
    no_errors(p)
