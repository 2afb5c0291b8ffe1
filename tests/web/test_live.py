"""Watching in the browser (Debian's chromium through Playwright against a real ``basra
serve``): /live lists the matches being played now and opens one as a spectator, the seats
see how many watch, Basra TV follows the best match to its end and moves on to the next (never
the same one again), then says none is live; and across every frame the spectator's pages
received there is never a card of anyone's hand. Screenshots go to test-output/screenshots/
(live-*.png, tv-*.png)."""

from __future__ import annotations

import json
import threading
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser
from websockets.sync.client import ClientConnection, connect

from web.menu import choose_language
from web_helpers import DESKTOP, PHONE, Player, basra_server, post, seated, shot

pytestmark = pytest.mark.slow

RESULT_S = 6
"""How long TV shows a finished match's result (tv.js RESULT_MS)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    # Nobody plays in these tests (a seat's clock of 30 s holds each table still), so the
    # matches stay live until a player resigns.
    with basra_server(tmp_path_factory.mktemp("weblive"), "--bot-delay", "0", "--grace", "5",
                      "--seed-window", "0", "--summary-window", "0",
                      "--saying-gap", "0.5") as base:
        yield base



def get(base: str, path: str) -> Any:
    with urllib.request.urlopen(base + path, timeout=10) as answer:
        return json.loads(answer.read())


def guest(base: str, nickname: str) -> dict[str, Any]:
    answer: dict[str, Any] = post(base, "/api/guests", {"nickname": nickname})
    return answer



class Seat:
    """A player at a table over a plain websocket (no page): it reads every message (so the
    server never takes it for a slow reader) and plays nothing unless told."""

    def __init__(self, base: str, token: str, table: str) -> None:
        url = base.replace("http://", "ws://") + f"/ws/tables/{table}?auth=1"
        # Entered as a context manager (websockets wants it), left in close().
        self.ws: ClientConnection = connect(url, open_timeout=10).__enter__()
        self.ws.send(json.dumps({"type": "hello", "token": token}))
        self.messages: list[dict[str, Any]] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        try:
            for raw in self.ws:
                self.messages.append(json.loads(raw))
        except Exception:  # closed: the test reads what came
            return

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))

    def close(self) -> None:
        self.ws.__exit__(None, None, None)
        self.reader.join(5)


def saids(p: Player) -> int:
    return sum(1 for m in p.received if m.get("type") == "said")


def no_errors(p: Player) -> None:
    assert not p.errors, p.errors


def never_a_hand(p: Player) -> int:
    """Every game message a spectator's pages got: no seat, no hand, no legal play, no
    other seat's view. Returns how many there were."""
    games = [m for m in p.received if m.get("type") in ("state", "played")]
    for m in games:
        if m["type"] == "state":
            assert m["you"] is None, m
            view = m["view"]
            assert view["seat"] is None and view["hand"] == [] and view["legal"] == [], view
            assert all(pl.get("client_seed") is None for pl in m["table"]["players"]), m
        else:
            assert m["hand"] == [] and m["legal"] == [], m
        assert "hands" not in json.dumps(m), m
    welcomes = [m for m in p.received if m.get("type") == "welcome"]
    assert welcomes and all(m["seat"] is None for m in welcomes), welcomes
    return len(games)


def test_live_list_spectators_and_tv(players: list[Player], browser: Browser,
                                     server: str) -> None:
    amira = guest(server, "Amira")
    basil = guest(server, "Basil")
    a_table = post(server, "/api/tables/bot", {"variant": "egyptian"},
                   amira["token"])["table"]["id"]
    b_table = post(server, "/api/tables/bot", {"variant": "serbian"},
                   basil["token"])["table"]["id"]
    seat_a = seated(players, browser, server, amira)
    seat_a.page.goto(f"{server}/table/{a_table}")
    seat_a.page.wait_for_selector(".table-page[data-status='playing']")
    seat_b = Seat(server, basil["token"], b_table)
    try:
        run_live_and_tv(players, browser, server, seat_a, seat_b, a_table, b_table)
    finally:
        seat_b.close()


def run_live_and_tv(players: list[Player], browser: Browser, server: str, seat_a: Player,
                    seat_b: Seat, a_table: str, b_table: str) -> None:
    # Someone who never played opens /live: both matches, their players, scores and rounds.
    watcher = Player(browser, server, viewport=PHONE, watch=True)
    players.append(watcher)
    page = watcher.page
    page.goto(server + "/live")
    page.wait_for_selector(f".live-match[data-table='{a_table}']")
    page.wait_for_selector(f".live-match[data-table='{b_table}']")
    card = page.locator(f".live-match[data-table='{a_table}']")
    assert card.locator(".live-variant").inner_text() == "Egyptian"
    assert card.locator(".live-player").all_inner_texts() == ["Amira", "Bot (Medium)"]
    assert card.locator(".live-total").all_inner_texts() == ["0", "0"]
    assert "Round 1" in card.locator(".live-meta").inner_text()
    serbian = page.locator(f".live-match[data-table='{b_table}']")
    assert serbian.locator(".live-sets").count() == 2  # a variant of sets shows them
    # Newest first: Basil's table was made last.
    order = page.eval_on_selector_all(".live-match", "els => els.map((e) => e.dataset.table)")
    assert order[:2] == [b_table, a_table], order
    page.wait_for_timeout(300)
    shot(page, "live-list-phone", full_page=True)
    page.set_viewport_size(DESKTOP)
    shot(page, "live-list-desktop")

    # The order switch asks the server for the other order (and says which is on).
    with page.expect_request("**/api/live?order=rating"):
        page.click(".live-order [data-order='rating']")
    assert page.get_attribute(".live-order [data-order='rating']", "aria-pressed") == "true"
    # Updated live: the list is asked for again by itself.
    with page.expect_request("**/api/live?order=rating", timeout=8000):
        pass

    # In Arabic, right to left.
    page.set_viewport_size(PHONE)
    choose_language(page, "ar")
    page.wait_for_function("document.documentElement.dir === 'rtl'")
    page.wait_for_selector(f".live-match[data-table='{a_table}'] .live-watch")
    page.wait_for_timeout(300)
    shot(page, "live-list-ar-phone", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    choose_language(page, "en")
    page.wait_for_function("document.documentElement.dir === 'ltr'")

    # A card opens its table, as a spectator: the seats see one watching, so does the page.
    page.click(f".live-match[data-table='{a_table}'] .live-watch")
    page.wait_for_url(f"**/table/{a_table}")
    page.wait_for_selector(".table-page[data-status='playing'] .watching-mark")
    seat_a.page.wait_for_selector(".watchers-chip[data-spectators='1']")
    assert seat_a.page.get_attribute(".watchers-chip", "aria-label") == \
        "1 person is watching this table"
    page.wait_for_selector(".watchers-chip[data-spectators='1']")
    # A spectator is offered no play, seed, resign, hint or Say; every seat face down with
    # its count.
    for tool in (".hand-card", ".seed-form:not([hidden])", ".resign", ".hint-button",
                 ".say-toggle", ".deal-card .btn"):
        assert page.locator(tool).count() == 0, tool
    assert page.locator(".seat-plate").count() == 2
    held = watcher.state(int(watcher.dataset()["version"]))["view"]
    counts = page.eval_on_selector_all(".seat-plate .mini-count",
                                       "els => els.map((e) => e.textContent)")
    assert counts == [str(n) for n in held["hand_counts"]], counts
    assert sum(held["hand_counts"]) > 0
    shot(seat_a.page, "live-seat-watched-desktop")

    # A phrase from the seat shows by its name; "Hide phrases" turns them off (kept).
    seat_a.page.click(".say-toggle")
    seat_a.page.click(".say-phrase[data-phrase='hello']")
    page.wait_for_selector(".seat-plate[data-seat='0'] .say-bubble[data-said='hello']")
    page.click(".hide-phrases")
    assert page.get_attribute(".hide-phrases", "aria-pressed") == "true"
    assert page.locator(".say-bubble").count() == 0
    seat_a.page.wait_for_selector(".say-panel:not(.resting)")
    said = saids(watcher)
    seat_a.page.click(".say-phrase[data-phrase='have_fun']")
    for _ in range(50):
        if saids(watcher) > said:
            break
        page.wait_for_timeout(100)
    assert saids(watcher) == said + 1  # it came, and is not shown
    page.wait_for_timeout(200)
    assert page.locator(".say-bubble").count() == 0
    assert page.evaluate("JSON.parse(localStorage.getItem('basra.prefs')).hidePhrases") is True
    page.click(".hide-phrases")
    assert page.get_attribute(".hide-phrases", "aria-pressed") == "false"
    seat_a.page.keyboard.press("Escape")

    # Basra TV: the best match, followed to its end, then the next, never the same again.
    page.goto(server + "/tv")
    page.wait_for_selector(".tv-page[data-tv='on'] .table-page[data-status='playing']")
    first = page.get_attribute(".tv-page", "data-table")
    assert first in (a_table, b_table)
    page.wait_for_selector(".watchers-chip[data-spectators='1']")
    page.wait_for_timeout(600)
    shot(page, "tv-match-phone")
    page.set_viewport_size(DESKTOP)
    page.wait_for_timeout(300)
    shot(page, "tv-match-desktop")
    page.set_viewport_size(PHONE)

    def resign(table: str) -> None:
        if table == a_table:
            seat_a.page.click(".table-head .resign")
            seat_a.page.click("dialog[open] [data-answer='yes']")
        else:
            seat_b.send({"type": "resign"})

    resign(first)
    page.wait_for_selector(".tv-page[data-tv='ended']")
    assert page.get_attribute(".tv-page", "data-table") == first
    page.wait_for_selector(".overlay-match")
    status = page.inner_text(".tv-status")
    assert status.startswith("This match is over. The next one comes on in"), status
    shot(page, "tv-result-phone")
    second = b_table if first == a_table else a_table
    page.wait_for_selector(f".tv-page[data-tv='on'][data-table='{second}']"
                           " .table-page[data-status='playing']", timeout=(RESULT_S + 10) * 1000)
    resign(second)
    page.wait_for_selector(".tv-page[data-tv='ended']")
    # Nothing else is live: TV says so (and looks again by itself).
    page.wait_for_selector(".tv-page[data-tv='none'] .tv-none", timeout=(RESULT_S + 10) * 1000)
    assert page.inner_text(".tv-none p") == "No match is being played right now."
    assert page.locator(".table-page").count() == 0
    with page.expect_request("**/api/live?order=rating", timeout=10000):
        pass
    shot(page, "tv-none-phone")

    # /live says so too, with a way to play.
    page.goto(server + "/live")
    page.wait_for_selector(".live-empty")
    assert page.get_attribute(".live-empty a", "href") == "/"
    assert get(server, "/api/live")["matches"] == []

    # Across all of it, the spectator never received a card of any hand.
    assert never_a_hand(watcher) > 0
    no_errors(watcher)
    no_errors(seat_a)
