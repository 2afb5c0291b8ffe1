"""An event's standings a page at a time, in the browser (Debian's chromium through Playwright
against a real ``basra serve``), at 360 px in English and in Arabic: 45 entrants make three
pages of twenty; a watcher's page opens on the first and walks the pages with the buttons;
an entrant's page opens on the page of their own row, marked, and "My place" brings them
back to it from another page; the page's socket hears its own page only. Screenshots:
test-output/screenshots/tournament-pages-*.png."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from web_helpers import PHONE, ROOT, Player, basra_server, post, shot

pytestmark = pytest.mark.slow

WEB = ROOT / "src" / "basra" / "web"
LOCALES = {"en": "en-US", "ar": "ar-EG"}


def catalogue(lang: str) -> dict[str, Any]:
    words: dict[str, Any] = json.loads((WEB / "i18n" / f"{lang}.json").read_text("utf-8"))
    return words


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with basra_server(tmp_path_factory.mktemp("tournament-pages"), "--tournament-schedule",
                      "none", "--no-limits") as base:
        yield base


def on_page(page: Page, first: int, last: int) -> None:
    page.wait_for_function("([first, last]) => { const r = [...document.querySelectorAll("
                           "'.tour-table tbody tr')].map((r) => Number(r.dataset.rank));"
                           " return r[0] === first && r[r.length - 1] === last; }",
                           arg=[first, last])


def test_the_standings_come_a_page_at_a_time(players: list[Player], browser: Browser,
                                             server: str) -> None:
    en, ar = catalogue("en"), catalogue("ar")
    owner = post(server, "/api/guests", {"nickname": "Amira"})
    post(server, "/api/account", {"username": "amira", "password": "a long pass phrase"},
         owner["token"])
    starts = datetime.now(UTC) + timedelta(minutes=30)
    event = post(server, "/api/tournaments", {
        "name": "Big Arena", "format": "arena", "minutes": 60, "rated": False,
        "starts_at": starts.isoformat()}, owner["token"])["tournament"]
    path = f"/api/tournaments/{event['id']}"
    entrants = []
    for n in range(45):
        guest = post(server, "/api/guests", {"nickname": f"Player {n:02}"})
        post(server, f"{path}/join", {}, guest["token"])
        entrants.append(guest)

    # A watcher, in English: the first page, then the next and the last with the buttons.
    watcher = Player(browser, server, viewport=PHONE, locale=LOCALES["en"], watch=True)
    players.append(watcher)
    page = watcher.page
    page.goto(server + f"/tournament/{event['id']}")
    on_page(page, 1, 20)
    # (a page opening sees the counts of at most a second before: the last joins' counts
    # come with the next news)
    expect(page.locator(".tour-page-of")).to_have_text(
        en["tournament.page_of"].format(n=1, pages=3))
    assert page.is_disabled(".tour-prev") and page.is_disabled(".tour-first")
    assert page.get_attribute(".tour-pager", "aria-label") == en["tournament.pages"]
    assert page.locator(".tour-my-page").count() == 0  # not an entrant
    shot(page, "tournament-pages-first-en", full_page=True)
    page.click(".tour-next")
    on_page(page, 21, 40)
    page.click(".tour-last")
    on_page(page, 41, 45)
    assert page.is_disabled(".tour-next")
    expect(page.locator(".tour-page-of")).to_have_text(
        en["tournament.page_of"].format(n=3, pages=3))
    asked = [m for m in watcher.received if m.get("type") == "standings"]
    pages = [m["page"] for m in asked]  # (news of a page shown may come too)
    assert 2 in pages and pages[-1] == 3
    # It reconnects on the page it shows.
    page.evaluate("window.basraEvent.drop()")
    page.wait_for_function("() => window.basraEvent.isOpen()")
    page.wait_for_timeout(300)
    on_page(page, 41, 45)
    assert [m.get("page") for m in watcher.received if m.get("type") == "tournament"][-1] == 3

    # The last of them, in Arabic: their own page first, their row marked; "My place" from
    # the first page brings them back.
    rows = json.loads(page.evaluate(
        f"() => fetch('{path}?page=3').then((r) => r.text())"))["standings"]
    last = next(g for g in entrants if g["player"]["id"] == rows[-1]["entrant"])
    layla = Player(browser, server, viewport=PHONE, locale=LOCALES["ar"])
    players.append(layla)
    layla.context.add_init_script("".join(
        f"localStorage.setItem({json.dumps(k)}, {json.dumps(v)});" for k, v in [
            ("basra.token", last["token"]), ("basra.player", last["player"]["id"])]))
    mine = layla.page
    mine.goto(server + f"/tournament/{event['id']}")
    on_page(mine, 41, 45)
    mine.wait_for_selector(".tour-table tr.tour-me[data-rank='45']")
    assert mine.locator(".tour-my-page").count() == 0
    assert mine.locator("[data-action=withdraw]").count() == 1  # it knows they are in
    shot(mine, "tournament-pages-mine-ar", full_page=True)
    mine.click(".tour-first")
    on_page(mine, 1, 20)
    mine.wait_for_selector(".tour-my-page")
    assert mine.inner_text(".tour-my-page") == ar["tournament.my_page"]
    assert mine.locator("[data-action=withdraw]").count() == 1  # still in, off its page
    shot(mine, "tournament-pages-away-ar", full_page=True)
    mine.click(".tour-my-page")
    on_page(mine, 41, 45)
    assert mine.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    for p in (watcher, layla):
        assert not p.errors, p.errors
