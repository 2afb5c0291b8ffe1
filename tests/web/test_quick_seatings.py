"""Quick match for four in a real browser against a real ``basra serve`` (issue 28): four
players who chose Lebanese, "4 players, two teams" are told what quick match will do, wait
in the team pool and all open the same table of four in teams (the newcomer's report:
quick match used to ignore the chosen seating and seat two). At 360 px, in English and
Arabic; screenshots in test-output/screenshots/ (quick-seatings-*.png)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from web.test_account import LOCALES, catalogue, new_player, no_errors
from web_helpers import PHONE, Player, basra_server, shot


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with basra_server(tmp_path_factory.mktemp("quick-seatings")) as base:
        yield base


@pytest.mark.parametrize("lang", ["ar"])
def test_four_who_chose_two_teams_meet_at_one_table_of_four(
        players: list[Player], browser: Browser, server: str, lang: str) -> None:
    words = catalogue(lang)
    four = [new_player(players, browser, server, locale=LOCALES[lang], viewport=PHONE)
            for _ in range(4)]
    for number, p in enumerate(four):
        p.sign_in(f"Team {lang} {number + 1}")
        page = p.page
        page.click("label[for='variant-lebanese']")
        page.select_option("#bot-seating", "4t")
        told = page.locator("#quick-text").inner_text()
        assert told == words["lobby.quick.text_seats"].replace(
            "{variant}", words["variant.lebanese.name"]).replace(
            "{seating}", words["seating.4t"])
        assert page.locator("#quick-match").get_attribute("data-seating") == "4t"
        page.click("#quick-match")
        if number == 0:
            page.wait_for_selector(".quick-option.waiting .waiting-line")
            line = page.locator(".waiting-line").inner_text()
            assert words["seating.4t"] in line
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE["width"], width
            shot(page, f"quick-seatings-waiting-{lang}")
    tables = set()
    for p in four:
        p.page.wait_for_url("**/table/**", timeout=20000)
        tables.add(p.page.url)
    assert len(tables) == 1
    for p in four:
        for _ in range(100):
            if p.states and all(s["name"] for s in p.state()["table"]["players"]):
                break
            p.page.wait_for_timeout(100)
    state = four[0].state()
    assert all(s["name"] for s in state["table"]["players"])
    assert state["table"]["seats"] == 4 and state["table"]["teams"] is True
    assert state["table"]["kind"] == "quick"
    shot(four[0].page, f"quick-seatings-table-{lang}")
    for p in four:
        no_errors(p)


@pytest.mark.parametrize("lang", ["en"])
def test_a_partner_invite_accepted_by_its_link(players: list[Player], browser: Browser,
                                                server: str, lang: str) -> None:
    """The host invites from the lobby, the partner accepts on /partner/CODE, both wait as
    one side, and two who came alone fill the table: the partners sit as one side."""
    words = catalogue(lang)
    host, partner, c, d = [new_player(players, browser, server, locale=LOCALES[lang],
                                      viewport=PHONE) for _ in range(4)]
    host.sign_in(f"Host {lang}")
    page = host.page
    page.click("label[for='variant-serbian']")
    page.select_option("#bot-seating", "4t")
    page.click("#partner-invite")
    page.wait_for_selector("#partner-link")
    link = page.locator("#partner-link").get_attribute("href") or ""
    assert link.startswith("/partner/")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, f"partner-invite-host-{lang}")

    partner.sign_in(f"Mate {lang}")
    partner.page.goto(server + link)
    partner.page.wait_for_selector("#partner-accept")
    text = partner.page.locator(".partner-text").inner_text()
    assert f"Host {lang}" in text and words["variant.serbian.name"] in text
    assert partner.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(partner.page, f"partner-invite-landing-{lang}")
    partner.page.click("#partner-accept")
    partner.page.wait_for_selector(".quick-option.waiting .quick-partner")
    assert f"Host {lang}" in partner.page.locator(".quick-partner").inner_text()
    page.wait_for_selector(".quick-option.waiting .quick-partner")
    assert f"Mate {lang}" in page.locator(".quick-partner").inner_text()
    shot(page, f"partner-waiting-{lang}")

    for number, p in enumerate((c, d)):
        p.sign_in(f"Solo {lang} {number}")
        p.page.click("label[for='variant-serbian']")
        p.page.select_option("#bot-seating", "4t")
        p.page.click("#quick-match")
    for p in (host, partner, c, d):
        p.page.wait_for_url("**/table/**", timeout=20000)
    assert len({p.page.url for p in (host, partner, c, d)}) == 1
    for _ in range(100):
        if host.states and all(s["name"] for s in host.state()["table"]["players"]):
            break
        host.page.wait_for_timeout(100)
    names = [s["name"] for s in host.state()["table"]["players"]]
    assert {names[0], names[2]} == {f"Host {lang}", f"Mate {lang}"} or \
        {names[1], names[3]} == {f"Host {lang}", f"Mate {lang}"}
    for p in (host, partner, c, d):
        no_errors(p)


@pytest.mark.parametrize("lang", ["ar"])
def test_an_open_table_in_the_lobby_taken_in_one_tap(players: list[Player], browser: Browser,
                                                     server: str, lang: str) -> None:
    host, guest = [new_player(players, browser, server, locale=LOCALES[lang], viewport=PHONE)
                   for _ in range(2)]
    host.sign_in(f"Opener {lang}")
    page = host.page
    page.click("label[for='variant-lebanese']")
    page.select_option("#bot-seating", "4t")
    page.check("#listed")
    page.click("#create-private")
    page.wait_for_url("**/table/**")
    table = page.url.rsplit("/", 1)[-1]
    guest.sign_in(f"Stranger {lang}")
    row = guest.page.locator(f".open-table[data-table='{table}']")
    row.wait_for(timeout=15000)
    assert guest.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    row.scroll_into_view_if_needed()
    shot(guest.page, f"open-tables-{lang}")
    row.locator(".open-seat[data-seat='2'] button").click()
    guest.page.wait_for_url(f"**/table/{table}")
    for _ in range(100):
        if guest.states and guest.state()["you"] == 2:
            break
        guest.page.wait_for_timeout(100)
    assert guest.state()["you"] == 2
    for p in (host, guest):
        no_errors(p)
