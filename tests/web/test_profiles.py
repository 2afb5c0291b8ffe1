"""Profiles (/players/NAME) and leaderboards (/leaderboard/VARIANT) in the browser:
Playwright with Debian's chromium against a real ``basra serve`` whose store was filled
beforehand through the store's API — rated matches finished at crafted times over two
months (the store's clock moved for each), so the rating chart has a history to draw, and
established ratings written for the leaderboard. At phone size (390x844) and on a desktop,
in English and in Arabic (right to left); every screen saved under
test-output/screenshots/ (profile-*.png, leaderboard-*.png)."""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from playwright.sync_api import Browser, Page
from sqlalchemy import insert, update

from basra.server.identity.guests import token_hash
from basra.store import SqlStore, open_store
from basra.store.base import PlayRow, RatedGame, SeatRow, TableRow
from basra.store.schema import ratings as ratings_table
from web_helpers import DESKTOP, ROOT, Player, basra_server, shot

PHONE = {"width": 390, "height": 844}
SIZES = {"phone": PHONE, "desktop": DESKTOP}
LOCALES = {"en": "en-US", "ar": "ar-EG"}
ZEINA = "Zeina_K"
LEADERS = ["Leila", "Karim", "أحمد_77", "Nour al-Huda", "Sami", "Yasmin", "Tarek",
           "Mariam.B", "Omar's brother", "Rania", "Khaled", "Dalia", "Youssef", "Hana"]


def catalogue(lang: str) -> dict[str, Any]:
    path = ROOT / "src" / "basra" / "web" / "i18n" / f"{lang}.json"
    texts: dict[str, Any] = json.loads(path.read_text("utf-8"))
    return texts


# ---------------------------------------------------------------------------------------
# the store, filled before the server starts


async def fill(data_dir: Path) -> None:
    """Zeina's two months: 24 rated Egyptian matches and 8 rated Lebanese ones against four
    accounts, a bot match and a match against a guest; an account with nothing played; and
    established Egyptian ratings for the leaderboard."""
    store = open_store(None, data_dir)
    await store.open()
    assert isinstance(store, SqlStore)
    rng = random.Random(12)
    now = datetime.now(UTC)
    try:
        async def account(player_id: str, username: str, nickname: str) -> str:
            await store.create_player(player_id, nickname, token_hash(f"token {player_id}"))
            await store.claim_account(player_id, username, None)
            return player_id

        zeina = await account("zeina", ZEINA, "Zeïna")
        rivals = [await account("omar", "Omar", "Omar"),
                  await account("layla", "Layla", "Layla"),
                  await account("karim", "Karim_88", "Karim"),
                  await account("ahmed", "أحمد", "أحمد")]
        await account("empty", "Newcomer", "Newcomer")
        await store.create_player("guest", "Bilal", "token guest")

        count = 0

        async def match(variant: str, seats: list[SeatRow], at: datetime,
                        rated: RatedGame | None) -> None:
            nonlocal count
            count += 1
            table_id = f"t{count:03d}"
            await store.create_table(TableRow(
                id=table_id, kind="quick" if rated else "bot", variant=variant, seats=2,
                teams=False, clock_seconds=30, bot_level="medium", status="playing",
                created_at=at - timedelta(minutes=20), rated=rated is not None), seats)
            winner = 0 if rng.random() < 0.58 else 1
            rounds = rng.randint(3, 7)
            points = [rng.randint(15, 40) * rounds // 2 for _ in range(2)]
            points[winner] += 40
            result = {"winner": winner, "totals": [points[0], points[1]], "sets": [],
                      "rounds": rounds, "basras": [rng.randint(0, rounds), rng.randint(0, 3)],
                      "points": points}
            if rated is not None:
                rated = RatedGame.two(rated.variant, (rated.players[0], rated.players[1]),
                                      1.0 if winner == 0 else 0.0)
            else:  # a hand of plays of her own: the match is hers to count (issue 28)
                await store.add_round(table_id, 1, "server-seed", "commitment")
                await store.start_round(table_id, 1, "client-seed")
                for index in range(1, 9):
                    await store.add_play(table_id, PlayRow(
                        1, index, (index - 1) % 2, "5H", (), False, at - timedelta(minutes=5)))
            with mock.patch("basra.store.sql.tables.now", lambda: at):
                await store.finish_table(table_id, result, rated)

        def seats(rival: str | None) -> list[SeatRow]:
            return [SeatRow(0, zeina, None, "part"),
                    SeatRow(1, rival, None if rival else "medium", "part")]

        for i in range(24):
            at = now - timedelta(days=60 - i * 2.4, hours=rng.random() * 5)
            rival = rivals[i % len(rivals)]
            await match("egyptian", seats(rival), at, RatedGame.two("egyptian", (zeina, rival), 1))
        for i in range(8):
            at = now - timedelta(days=22 - i * 2.5)
            rival = rivals[(i + 1) % len(rivals)]
            await match("lebanese", seats(rival), at, RatedGame.two("lebanese", (zeina, rival), 1))
        await match("egyptian", seats(None), now - timedelta(hours=5), None)
        await match("egyptian", seats("guest"), now - timedelta(hours=3), None)

        # Zeina's Egyptian rating, settled; the leaders around her.
        for i, name in enumerate(LEADERS):
            await account(f"leader{i}", name, name)
        rows = [{"player_id": f"leader{i}", "variant": "egyptian", "rating": 1850 - i * 23.7,
                 "deviation": 50 + i, "volatility": 0.06, "games": 140 - i * 7,
                 "rated_at": now - timedelta(days=i)} for i in range(len(LEADERS))]
        async with store.engine.begin() as connection:
            await connection.execute(update(ratings_table).where(
                ratings_table.c.player_id == zeina, ratings_table.c.variant == "egyptian")
                .values(deviation=62.0))
            await connection.execute(insert(ratings_table), rows)
    finally:
        await store.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data_dir = tmp_path_factory.mktemp("profiles")
    # In a thread of its own: Playwright's loop runs in this one.
    with ThreadPoolExecutor(1) as pool:
        pool.submit(lambda: asyncio.run(fill(data_dir))).result()
    with basra_server(data_dir) as base:
        yield base


# ---------------------------------------------------------------------------------------
# helpers


def opened(players: list[Player], browser: Browser, server: str, size: str,
           lang: str) -> Player:
    p = Player(browser, server, viewport=SIZES[size], locale=LOCALES[lang])
    players.append(p)
    return p


def no_errors(p: Player) -> None:
    assert not p.errors, p.errors


def fits(page: Page) -> None:
    """Nothing wider than the window (no sideways scrolling)."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"] if page.viewport_size else True, width


# ---------------------------------------------------------------------------------------
# the profile


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("lang", ["ar"])
def test_a_profile_shows_ratings_chart_figures_and_matches(
        players: list[Player], browser: Browser, server: str, lang: str, size: str) -> None:
    texts = catalogue(lang)
    p = opened(players, browser, server, size, lang)
    page = p.page
    page.goto(f"{server}/players/{ZEINA.lower()}")
    page.wait_for_selector(".profile-chart svg polyline")
    assert page.evaluate("document.documentElement.dir") == ("rtl" if lang == "ar" else "ltr")
    assert page.inner_text(".profile-name") == "Zeïna"
    assert ZEINA in page.inner_text(".profile-meta")
    assert page.title() == texts["profile.page_title"].replace("{name}", "Zeïna")

    # Ratings: the settled Egyptian one, the provisional Lebanese one with its "?".
    cards = page.eval_on_selector_all(".profile-rating-card", """els => els.map((e) => ({
      variant: e.dataset.variant, label: e.querySelector('.profile-rating-label').textContent,
      provisional: e.classList.contains('provisional') }))""")
    assert [c["variant"] for c in cards] == ["egyptian", "lebanese"]
    assert not cards[0]["provisional"] and not cards[0]["label"].endswith("?")
    assert cards[1]["provisional"] and cards[1]["label"].endswith("?")

    # The chart: one line per variant, every point drawn, the words big enough to read, the
    # time axis left to right in Arabic too, nothing past the window.
    chart = page.evaluate("""() => {
      const svg = document.querySelector('.profile-chart svg');
      const box = svg.getBoundingClientRect();
      const labels = Array.from(svg.querySelectorAll('.x-label'), (t) => ({
        x: t.getBoundingClientRect().left, text: t.textContent }));
      const sizes = Array.from(svg.querySelectorAll('text.axis'),
        (t) => parseFloat(getComputedStyle(t).fontSize));
      return { width: box.width, left: box.left, right: box.right,
        lines: Array.from(svg.querySelectorAll('polyline'), (l) => l.dataset.variant),
        dots: svg.querySelectorAll('circle').length, labels, minSize: Math.min(...sizes),
        ylabels: svg.querySelectorAll('.y-label').length,
        dir: getComputedStyle(document.querySelector('.profile-chart-area')).direction,
        legend: Array.from(document.querySelectorAll('.profile-chart-legend li'),
                           (li) => li.textContent) };
    }""")
    assert chart["lines"] == ["egyptian", "lebanese"]
    assert chart["dots"] == 24 + 8
    assert chart["minSize"] >= 11
    assert chart["ylabels"] >= 3 and len(chart["labels"]) >= 2
    xs = [label["x"] for label in chart["labels"]]
    assert xs == sorted(xs), "time runs left to right"
    assert chart["dir"] == "ltr"
    assert chart["right"] <= SIZES[size]["width"] and chart["left"] >= 0
    assert chart["legend"] == [texts["variant.egyptian.name"], texts["variant.lebanese.name"]]
    label = page.get_attribute(".profile-chart-area", "aria-label") or ""
    assert texts["variant.egyptian.name"] in label

    # Figures: 34 games, all counted.
    figures = dict(page.eval_on_selector_all(".profile-stat", """els => els.map((e) =>
      [e.className.replace('profile-stat ', ''), e.querySelector('dd').textContent])"""))
    assert figures["games"] == "34"
    assert int(figures["wins"]) + int(figures["draws"]) + int(figures["losses"]) == 34
    assert figures["basras"] != "–" and figures["points"] != "–"

    # Recent matches: ten, newest first (the guest's and the bot's), rivals that are
    # accounts linked to their profiles, rated ones with their change, each record there.
    items = page.eval_on_selector_all(".profile-recent .history-item", """els => els.map((e) => ({
      table: e.dataset.table,
      links: Array.from(e.querySelectorAll('a.rival'), (a) => a.getAttribute('href')),
      rated: !!e.querySelector('.history-rated'),
      change: e.querySelector('.history-change .signed')?.textContent || '',
      record: e.querySelector('a[download]').getAttribute('href') }))""")
    assert len(items) == 10
    assert [i["table"] for i in items[:2]] == ["t034", "t033"]
    assert items[0]["links"] == [] and items[1]["links"] == [] and not items[0]["rated"]
    assert all(i["rated"] and len(i["links"]) == 1 for i in items[2:])
    assert all(i["change"][0] in "+−0" for i in items[2:]), items
    assert all(i["record"] == f"/api/tables/{i['table']}/record" for i in items)
    fits(page)
    shot(page, f"profile-{size}-{lang}")
    shot(page, f"profile-{size}-{lang}-full", full_page=True)
    no_errors(p)

    # A rival's name opens their profile (in the page: no reload).
    page.evaluate("window.__same = true")
    page.click(".profile-recent .history-item:nth-child(3) a.rival")
    page.wait_for_function("() => location.pathname.startsWith('/players/')"
                           " && !location.pathname.includes('Zeina')"
                           " && !location.pathname.includes('zeina')")
    page.wait_for_selector(".profile-rating-card")
    assert page.evaluate("window.__same") is True
    no_errors(p)


@pytest.mark.parametrize("lang", ["en"])
def test_empty_and_missing_profiles(players: list[Player], browser: Browser, server: str,
                                    lang: str) -> None:
    texts = catalogue(lang)
    p = opened(players, browser, server, "phone", lang)
    page = p.page
    page.goto(f"{server}/players/Newcomer")
    page.wait_for_selector(".profile-stats")
    assert page.inner_text(".profile-section .profile-none") == texts["profile.no_ratings"]
    assert texts["profile.no_matches"] in page.inner_text(".profile-page")
    assert page.locator(".profile-chart").count() == 0
    assert page.inner_text(".profile-stat.games dd") == "0"
    assert page.inner_text(".profile-stat.basras dd") == "–"
    fits(page)
    shot(page, f"profile-empty-phone-{lang}")

    # A guest has no profile: said so, with the way to the leaderboards.
    page.goto(f"{server}/players/Bilal")
    page.wait_for_selector(".profile-missing")
    assert page.inner_text(".profile-missing") == texts["profile.not_found"].replace(
        "{name}", "Bilal")
    shot(page, f"profile-missing-phone-{lang}")
    page.click(".profile-empty a.btn")
    page.wait_for_selector(".leaderboard-table")
    assert page.evaluate("location.pathname") == "/leaderboard"
    # The 404 of the profile's own request is the only console error.
    assert all("404" in e for e in p.errors), p.errors


# ---------------------------------------------------------------------------------------
# the leaderboard


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("lang", ["ar"])
def test_the_leaderboard_ranks_and_links(players: list[Player], browser: Browser, server: str,
                                         lang: str, size: str) -> None:
    texts = catalogue(lang)
    p = opened(players, browser, server, size, lang)
    page = p.page
    page.goto(f"{server}/leaderboard")
    page.wait_for_selector(".leaderboard-table tbody tr")
    settled = ".leaderboard-wrap:not(.leaderboard-provisional) .leaderboard-table tbody tr"
    rows = page.eval_on_selector_all(settled, """els => els.map((tr) => ({
      rank: tr.querySelector('.leaderboard-rank').textContent,
      name: tr.querySelector('.leaderboard-name').textContent,
      href: tr.querySelector('.leaderboard-name').getAttribute('href'),
      rating: tr.querySelector('.leaderboard-rating').textContent }))""")
    assert len(rows) == len(LEADERS) + 1
    assert [r["rank"] for r in rows] == [str(i) for i in range(1, len(rows) + 1)]
    ratings = [int(r["rating"]) for r in rows]
    assert ratings == sorted(ratings, reverse=True)
    assert rows[0]["name"] == "Leila" and rows[0]["href"] == "/players/Leila"
    zeina = next(r for r in rows if r["name"] == "Zeïna")
    assert zeina["href"] == f"/players/{ZEINA}"
    arabic = next(r for r in rows if r["name"] == "أحمد_77")
    assert arabic["href"] == "/players/%D8%A3%D8%AD%D9%85%D8%AF_77"
    # beneath, the provisional ones: unranked, each rating with its question mark
    unsure = page.eval_on_selector_all(
        ".leaderboard-provisional tbody tr", """els => els.map((tr) => [
        tr.querySelector('.leaderboard-rank').textContent,
        tr.querySelector('.leaderboard-rating').textContent])""")
    assert unsure and all(rank == "–" and rating.endswith("?") for rank, rating in unsure)
    assert page.inner_text(".leaderboard-provisional-title") == \
        texts["leaderboard.provisional_title"]
    tab = page.locator(".variant-tabs .tab.on")
    assert tab.inner_text() == texts["variant.egyptian.name"]
    assert tab.get_attribute("aria-current") == "page"
    fits(page)
    # Every row's cells in view, at the phone's width too.
    cells = page.evaluate("""() => Array.from(
      document.querySelectorAll('.leaderboard-table tr'), (tr) => {
      const cells = Array.from(tr.children, (c) => c.getBoundingClientRect());
      return [Math.min(...cells.map((c) => c.left)), Math.max(...cells.map((c) => c.right))]; })""")
    assert all(left >= 0 and right <= SIZES[size]["width"] for left, right in cells)
    shot(page, f"leaderboard-{size}-{lang}")
    shot(page, f"leaderboard-{size}-{lang}-full", full_page=True)

    # Another variant's tab: its own (here empty) board.
    page.click(".variant-tabs a[href='/leaderboard/lebanese']")
    page.wait_for_selector(".leaderboard-empty")
    assert page.evaluate("location.pathname") == "/leaderboard/lebanese"
    assert page.inner_text(".leaderboard-empty") == texts["leaderboard.empty"]
    shot(page, f"leaderboard-empty-{size}-{lang}")

    # A name opens the profile.
    page.go_back()
    page.wait_for_selector(".leaderboard-table tbody tr")
    page.click(".leaderboard-name >> text=Leila")
    page.wait_for_selector(".profile-name")
    assert page.inner_text(".profile-name") == "Leila"
    assert page.inner_text(".profile-rating-card .profile-rating-label") == "1850"
    no_errors(p)


def test_your_own_profile_and_row_are_marked(players: list[Player], browser: Browser,
                                             server: str) -> None:
    p = opened(players, browser, server, "phone", "en")
    p.context.add_init_script('localStorage.setItem("basra.token", "token zeina");')
    page = p.page
    page.goto(f"{server}/players/{ZEINA}")
    page.wait_for_selector(".profile-you")
    assert page.inner_text(".profile-you") == catalogue("en")["profile.you"]
    page.goto(f"{server}/leaderboard/egyptian")
    page.wait_for_selector(".leaderboard-table tr.leaderboard-me")
    assert page.get_attribute(".leaderboard-table tr.leaderboard-me", "data-username") == ZEINA
    shot(page, "leaderboard-me-phone-en")
    no_errors(p)


def test_an_unknown_variant_is_said_so(players: list[Player], browser: Browser,
                                       server: str) -> None:
    texts = catalogue("en")
    p = opened(players, browser, server, "phone", "en")
    page = p.page
    page.goto(f"{server}/leaderboard/chess")
    page.wait_for_selector(".leaderboard-page .field-error")
    assert page.inner_text(".field-error") == texts["leaderboard.unknown"].replace(
        "{name}", "chess")
    assert page.locator(".variant-tabs .tab").count() == 4
    no_errors(p)


def test_an_unknown_leaderboard_is_titled_the_leaderboard(players: list[Player],
                                                          browser: Browser, server: str) -> None:
    words = catalogue("en")
    p = opened(players, browser, server, "phone", "en")
    page = p.page
    page.goto(server + "/leaderboard/poker")
    page.wait_for_selector(".leaderboard-page .field-error")
    assert page.title() == words["page.title.leaderboard"]
    page.goto(server + "/leaderboard/egyptian")
    page.wait_for_function("title => document.title === title",
                           arg=words["leaderboard.page_title"].format(
                               variant=words["variant.egyptian.name"]))
    no_errors(p)


# ---------------------------------------------------------------------------------------
# the pages' styles stay their own


def test_every_rule_of_profile_css_is_scoped() -> None:
    """profile.css stays loaded once a profile or a leaderboard opened: each of its selectors
    names a class of its own pages (profile-..., leaderboard-...), so none reaches another."""
    css = (ROOT / "src" / "basra" / "web" / "css" / "profile.css").read_text("utf-8")
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    preludes = [p.strip() for p in re.findall(r"([^{}]+)\{", css)]
    selectors = [s.strip() for p in preludes if not p.startswith("@") for s in p.split(",")]
    assert len(selectors) > 40
    loose = [s for s in selectors if not re.search(r"\.(profile|leaderboard)-[\w-]", s)]
    assert loose == []


LOOKS = """() => Array.from(document.querySelectorAll('#app *'), (e) => {
  const style = getComputedStyle(e);
  const box = e.getBoundingClientRect();
  return [e.tagName, e.className.baseVal ?? e.className,
          ...['display', 'position', 'color', 'background-color', 'font-size', 'font-weight',
              'margin', 'padding', 'border', 'text-align', 'direction', 'fill', 'stroke']
            .map((p) => style.getPropertyValue(p)),
          Math.round(box.width), Math.round(box.height)].join('|');
})"""
"""How every element of the page looks (its style and its size)."""

LOAD = """async (sheets) => {
  const base = document.querySelector('link[href$="/css/base.css"]').href;
  await Promise.all(sheets.map((name) => new Promise((done) => {
    const link = Object.assign(document.createElement('link'),
                               { rel: 'stylesheet', href: base.replace('base.css', name) });
    link.addEventListener('load', done);
    link.addEventListener('error', done);
    document.head.append(link);
  })));
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
}"""
"""Add the named stylesheets to the page, as their pages would."""


def unchanged_by(page: Page, sheets: list[str]) -> None:
    before: list[str] = page.evaluate(LOOKS)
    page.evaluate(LOAD, sheets)
    after: list[str] = page.evaluate(LOOKS)
    changed = [(a, b) for a, b in zip(before, after, strict=True) if a != b]
    assert changed == [], changed[:5]


@pytest.mark.parametrize("lang", ["en"])
def test_the_pages_styles_never_meet(players: list[Player], browser: Browser, server: str,
                                     lang: str) -> None:
    """The profile and the leaderboard look the same once the table's and the account's
    stylesheets are in (a table opened before); the lobby and the history page the same once
    profile.css is in (a profile opened before)."""
    p = opened(players, browser, server, "phone", lang)
    p.context.add_init_script('localStorage.setItem("basra.token", "token zeina");')
    page = p.page
    others = ["table.css", "overlay.css", "account.css"]
    page.goto(f"{server}/players/{ZEINA}")
    page.wait_for_selector(".profile-chart svg polyline")
    page.wait_for_selector(".profile-you")
    unchanged_by(page, others)
    page.goto(f"{server}/leaderboard")
    page.wait_for_selector(".leaderboard-table tr.leaderboard-me")
    unchanged_by(page, others)
    page.goto(f"{server}/")
    page.wait_for_selector(".recent .history-item .history-rated")
    unchanged_by(page, ["profile.css"])
    page.goto(f"{server}/history")
    page.wait_for_selector(".history-page .history-item .history-change")
    unchanged_by(page, ["profile.css"])
    no_errors(p)
