"""The expert's analysis in a player's words and "Learn from your mistakes", in a real
browser at 360 px against a real ``basra serve``, in English and Arabic (French and
Serbian too, for their longer words): a finished match
(a guest's table against bots, left at once) analysed with its progress counted in plays;
on its replay, a line per player, the costliest plays first (a click moves the replay to
that play), the expert's figures only behind "Details for experts"; then the player's
mistakes as positions: one solved (the expert's play), one failed (the expert's play and
the cost shown), to the summary and back to the replay; an older analysis (without the
words for each play) still said plainly; someone who did not play chooses whose mistakes.
Right to left in Arabic, card names isolated left to right. Screenshots go to
test-output/screenshots/analysis-words-*.png and mistakes-*.png."""

from __future__ import annotations

import json
import math
import re
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, Route

from basra.server.reads.mistakes import PASSED
from server_harness import run
from web.test_replay import finished_match
from web_helpers import PHONE, Player, basra_server, shot

pytestmark = pytest.mark.slow

ITERATIONS = 10
LOCALES = {"en": "en-US", "ar": "ar-EG", "fr": "fr-FR", "sr": "sr-Latn"}
SUIT = re.compile(r"[♣♦♥♠]$")
SEATS = ("els => els.map(e => [Number(e.dataset.seat), Number(e.dataset.mistakes), "
         "e.textContent])")
ITEMS = ("els => els.map(e => [Number(e.dataset.round), Number(e.dataset.number), "
         "Number(e.dataset.seat), Number(e.dataset.cost)])")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with basra_server(tmp_path_factory.mktemp("wordsdata"), "--bot-delay", "0",
                      "--grace", "0.3", "--summary-window", "0", "--seed-window", "0",
                      "--analysis-iterations", str(ITERATIONS)) as base:
        yield base


@pytest.fixture(scope="module")
def match(server: str) -> dict[str, Any]:
    """A finished match of the guest (seat 0) against a random bot."""
    with ThreadPoolExecutor(1) as pool:
        made: dict[str, Any] = pool.submit(run, finished_match(server, account=False)).result()
    return made


def analysed(server: str, table: str) -> dict[str, Any]:
    """The match's analysis, asked for (once) and waited for."""
    with httpx.Client(timeout=10) as http:
        http.post(f"{server}/api/replays/{table}/analysis")
        deadline = time.monotonic() + 180
        while True:
            status: dict[str, Any] = http.get(f"{server}/api/replays/{table}/analysis").json()
            if status["status"] == "done":
                analysis: dict[str, Any] = status["analysis"]
                return analysis
            assert status["status"] in ("queued", "running"), status
            assert time.monotonic() < deadline
            time.sleep(0.3)


def person(players: list[Player], browser: Browser, server: str, lang: str,
           token: str | None = None) -> Player:
    p = Player(browser, server, viewport=PHONE, locale=LOCALES[lang])
    players.append(p)
    if token:
        p.context.add_init_script(f"localStorage.setItem('basra.token', {json.dumps(token)})")
    return p


def position(page: Page) -> tuple[int, int]:
    data = page.evaluate("() => Object.assign({}, document.querySelector('.replay-view').dataset)")
    return int(data["round"]), int(data["step"])


def fits(page: Page) -> None:
    """Nothing wider than the phone's screen."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width


def isolated_cards(page: Page, selector: str) -> None:
    """Every card name under ``selector`` is its own left-to-right element ("7♦")."""
    names = page.eval_on_selector_all(f"{selector} bdi.card-name",
                                      "els => els.map(e => [e.dir, e.textContent])")
    assert names, selector
    for direction, text in names:
        assert direction == "ltr" and SUIT.search(text), (direction, text)


def no_errors(p: Player) -> None:
    assert not p.errors, p.errors


# ---------------------------------------------------------------------------------------


def test_the_progress_is_counted_in_plays(players: list[Player], browser: Browser,
                                          server: str) -> None:
    with ThreadPoolExecutor(1) as pool:
        made = pool.submit(run, finished_match(server, account=False)).result()
    p = person(players, browser, server, "en")
    page = p.page
    page.goto(f"{server}/replay/{made['table']}")
    page.wait_for_selector(".replay-analysis[data-status='none']")
    page.click(".replay-analyse")
    status = page.locator(".replay-analysis-status[data-status='running'][data-total]")
    status.wait_for()
    total = int(status.get_attribute("data-total") or "0")
    assert total > 0
    assert re.search(rf"Analysing… \d+ of {total} plays", status.inner_text())
    page.wait_for_selector(".replay-analysis[data-status='done']", timeout=180000)
    no_errors(p)


@pytest.mark.parametrize("lang", ["en", "ar", "fr", "sr"])
def test_the_analysis_in_words_and_learning_from_mistakes(
        players: list[Player], browser: Browser, server: str, match: dict[str, Any],
        lang: str) -> None:
    table = match["table"]
    analysis = analysed(server, table)
    mine = sorted((a for a in analysis["plays"] if a["seat"] == 0 and a["cost"] >= 1),
                  key=lambda a: (-a["cost"], a["round"], a["number"]))
    every = sorted((a for a in analysis["plays"] if a["cost"] >= 1),
                   key=lambda a: (-a["cost"], a["round"], a["number"]))
    assert len(mine) >= 2, "the guest's seat made fewer than two clear mistakes"
    p = person(players, browser, server, lang, match["token"])
    page = p.page
    page.goto(f"{server}/replay/{table}#r1p0")
    page.wait_for_selector(".replay-analysis[data-status='done']")
    assert page.evaluate("document.documentElement.dir") == ("rtl" if lang == "ar" else "ltr")

    # A line per player, in words: the count of clear mistakes, the round of the biggest.
    seats = page.eval_on_selector_all(".analysis-seat", SEATS)
    assert [(s, n) for s, n, _ in seats] == [(0, len(mine)), (1, analysis["mistakes_by_seat"][1])]
    assert str(mine[0]["round"]) in seats[0][2]
    if lang == "en":
        assert seats[0][2].startswith("Amira: ")
        biggest = f"{len(mine)} clear mistakes, the biggest in round {mine[0]['round']}"
        assert biggest in seats[0][2]
    # No sum of costs that reads like match points, no expert figures in the plain view.
    panel = page.locator(".replay-analysis")
    plain = page.evaluate("""() => {
      const panel = document.querySelector('.replay-analysis').cloneNode(true);
      panel.querySelector('.analysis-expert-body').remove();
      return panel.textContent;
    }""")
    assert "iteration" not in plain and "basra analyse" not in plain and "margin" not in plain
    for figure in (".replay-command-text", ".replay-cost-table", ".replay-graph"):
        assert not panel.locator(figure).is_visible(), figure

    # The costliest plays first, each in words, the player's own as "you".
    items = page.locator(".analysis-item")
    shown = items.evaluate_all(ITEMS)
    assert shown == [[a["round"], a["number"], a["seat"], a["cost"]] for a in every[:8]]
    first = items.nth(0)
    isolated_cards(page, ".analysis-item")
    if lang == "en":
        words = first.inner_text()
        head = f"Round {every[0]['round']}, play {every[0]['number']}: "
        assert words.startswith(head + ("you played the " if every[0]["seat"] == 0 else "")), words
        assert re.search(r"Cost: about \d+ points? this round\.", words), words
        assert "would have" in words or "Laying" in words or "Playing" in words, words
    # A click moves the replay to that play, and the table comes into view.
    target = shown[1] if len(shown) > 1 else shown[0]
    items.nth(1 if len(shown) > 1 else 0).click()
    page.wait_for_function(f"() => location.hash === '#r{target[0]}p{target[1]}'")
    assert position(page) == (target[0], target[1])
    page.wait_for_function(
        "() => document.querySelector('.replay-main').getBoundingClientRect().top >= -1")
    page.wait_for_selector(f".replay-step-cost[data-round='{target[0]}'][data-number='{target[1]}']")
    fits(page)
    shot(page, f"analysis-words-replay-{lang}")
    # The expert's figures behind the toggle: shown, hidden again.
    page.locator(".analysis-expert-toggle").scroll_into_view_if_needed()
    panel.locator(".replay-cost-table").wait_for(state="hidden")
    page.click(".analysis-expert-toggle")
    panel.locator(".replay-command-text").wait_for(state="visible")
    assert panel.locator(".replay-cost-table").is_visible()
    assert "--iterations" in panel.locator(".replay-command-text").inner_text()
    page.locator(".analysis-summary").scroll_into_view_if_needed()
    shot(page, f"analysis-words-panel-open-{lang}", full_page=True)
    page.click(".analysis-expert-toggle")
    panel.locator(".replay-command-text").wait_for(state="hidden")
    page.locator(".analysis-summary").scroll_into_view_if_needed()
    shot(page, f"analysis-words-panel-{lang}")
    fits(page)

    # Learn from your mistakes: the player's seat.
    learn = page.locator(".analysis-learn")
    assert learn.get_attribute("href") == f"/mistakes/{table}?seat=0"
    assert page.locator(".analysis-learn-seat").count() == 0  # a player: their own seat
    learn.click()
    page.wait_for_selector(".mistakes-position")
    assert page.url.endswith(f"/mistakes/{table}?seat=0")
    with httpx.Client() as http:
        data = http.get(f"{server}/api/replays/{table}/mistakes", params={"seat": 0}).json()
    positions = data["positions"]
    assert [(x["round"], x["number"]) for x in positions] == [
        (a["round"], a["number"]) for a in mine[:10]]
    assert page.locator(".mistakes-hand .hand-card").count() == len(positions[0]["hand"])
    fits(page)
    shot(page, f"mistakes-position-{lang}")

    def choose(play: dict[str, Any], legal: list[dict[str, Any]]) -> None:
        page.click(f".mistakes-hand .hand-card[data-card='{play['card']}']")
        options = [x for x in legal if x["card"] == play["card"]]
        if len(options) > 1:
            page.locator(".mistakes-choice .choice-option").nth(options.index(play)).click()

    # The first: solved.
    one = positions[0]
    choose(one["best"], one["legal"])
    verdict = page.locator(".mistakes-verdict")
    verdict.wait_for()
    assert verdict.get_attribute("data-right") == "1"
    best = page.locator(".mistakes-hand .hand-card.mistakes-best")
    assert best.get_attribute("data-card") == one["best"]["card"]
    if lang == "en":
        assert verdict.inner_text().startswith("✓ That’s the expert’s play")
        assert re.search(r"In the match you played the .+: it cost about \d+ points? this round",
                         verdict.inner_text())
    isolated_cards(page, ".mistakes-verdict")
    fits(page)
    shot(page, f"mistakes-right-{lang}")
    page.click(".mistakes-next")
    page.wait_for_selector(".mistakes-position[data-index='1']")

    # The second: failed, with the play made in the match (or any other than the expert's).
    two = positions[1]
    wrong = two["made"] if two["made"]["play"] != two["best"]["play"] else next(
        x for x in two["legal"] if x["play"] != two["best"]["play"])
    choose(wrong, two["legal"])
    verdict.wait_for()
    assert verdict.get_attribute("data-right") == "0"
    text = verdict.inner_text()
    cost = max(1, math.floor(two["cost"] + 0.5))  # as the page rounds (half up)
    assert str(cost) in text
    if lang == "en":
        assert text.startswith("✗ Not the expert’s play.")
        assert "In the match you played the " in text and "the expert " in text
        assert f"about {cost} point" in text
    isolated_cards(page, ".mistakes-verdict")
    assert best.get_attribute("data-card") == two["best"]["card"]
    for card in two["best"]["take"]:
        taken = page.locator(f".mistakes-floor .floor-card.mistakes-best-take[data-card='{card}']")
        assert taken.count() == 1
    fits(page)
    shot(page, f"mistakes-wrong-{lang}", full_page=True)

    # The rest solved, then the summary and the way back.
    for index in range(2, len(positions)):
        page.click(".mistakes-next")
        page.wait_for_selector(f".mistakes-position[data-index='{index}']")
        choose(positions[index]["best"], positions[index]["legal"])
        page.locator(".mistakes-verdict[data-right='1']").wait_for()
    page.click(".mistakes-next")
    summary = page.locator(".mistakes-summary")
    summary.wait_for()
    assert summary.get_attribute("data-found") == str(len(positions) - 1)
    assert summary.get_attribute("data-count") == str(len(positions))
    if lang == "en":
        found = f"You found {len(positions) - 1} of {len(positions)} expert plays."
        assert found in summary.inner_text()
    fits(page)
    shot(page, f"mistakes-summary-{lang}", full_page=True)
    page.click(".mistakes-back")
    page.wait_for_selector(".replay-felt")
    assert page.url.split("#")[0].endswith(f"/replay/{table}")
    no_errors(p)


def test_a_viewer_who_did_not_play_chooses_the_seat(players: list[Player], browser: Browser,
                                                    server: str, match: dict[str, Any]) -> None:
    table = match["table"]
    analysis = analysed(server, table)
    p = person(players, browser, server, "en")
    page = p.page

    def older(route: Route) -> None:
        """The analysis as one stored before the words were added: plays without them."""
        body = route.fetch().json()
        if body.get("status") == "done":
            body["analysis"].pop("mistakes_by_seat", None)
            for play in body["analysis"]["plays"]:
                for key in PASSED:
                    play.pop(key, None)
        route.fulfill(json=body)

    page.route("**/api/replays/*/analysis", older)
    page.goto(f"{server}/replay/{table}")
    page.wait_for_selector(".replay-analysis[data-status='done']")
    assert page.locator(".analysis-learn").count() == 0
    # Older analyses still speak plainly: the better play and by how much.
    words = page.locator(".analysis-item").nth(0).inner_text()
    assert re.search(r"(taking .+ was|Laying the .+ was) better by about \d+ points?\.", words)
    counts = page.eval_on_selector_all(".analysis-seat",
                                       "els => els.map(e => Number(e.dataset.mistakes))")
    assert counts == analysis["mistakes_by_seat"]
    links = page.locator(".analysis-learn-seat")
    seats = [s for s, n in enumerate(analysis["mistakes_by_seat"]) if n > 0]
    assert links.evaluate_all("els => els.map(e => Number(e.dataset.seat))") == seats
    links.nth(len(seats) - 1).click()
    page.wait_for_selector(".mistakes-position")
    assert page.url.endswith(f"?seat={seats[-1]}")
    # Not the viewer's own: the page names whose mistakes they are.
    assert page.locator(".mistakes-head h1").inner_text().startswith("Learn from ")
    assert "your" not in page.locator(".mistakes-head h1").inner_text()
    # Without a seat, someone who did not play is told to choose one on the replay.
    page.goto(f"{server}/mistakes/{table}")
    page.wait_for_selector(".mistakes-error [data-code='analysis/bad_seat']")
    page.goto(f"{server}/mistakes/no-such-table?seat=0")
    page.wait_for_selector(".mistakes-error [data-code='table/not_found']")
    errors = [e for e in p.errors if "status of 422" not in e and "status of 404" not in e]
    assert not errors, errors
