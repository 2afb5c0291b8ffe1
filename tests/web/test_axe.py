"""axe-core (axe-playwright-python, which bundles it) on every page of the client and the
table's main states, against a real ``basra serve``, at 360 and 1280 px, in English and in
Arabic (right to left), with the WCAG 2.0, 2.1 and 2.2 A and AA rules: no violation of any
impact. The "needs review" results are collected in
test-output/axe-needs-review.json (docs/BROWSER.md, "axe: needs review", says what was
decided of each rule). The pages: the lobby, the rules, the history, a profile, the
leaderboard, the account page and the sign-in form, live, TV, a replay with its analysis,
the tournaments and one event, a partner invite, friends, learn and a lesson, the puzzles
(rated, daily, streak, one), a seat's mistakes, the settings (when the page exists), an
invite's landing (valid and not), the not-found page, the report dialog on a profile, the
moderators' page (the account made one: the reports, a player's file, an action's dialog,
the log, the names' words); the table: a guest against a bot
mid-round, a take choice open, the fairness panel, the resign dialog, the round's summary,
the match end."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]
from playwright.sync_api import Browser, Page

from server_harness import run
from web.test_replay import USERNAME, finished_match
from web_helpers import DESKTOP, PHONE, ROOT, Player, basra_server, post, shot

pytestmark = pytest.mark.slow

WEB = ROOT / "src" / "basra" / "web"
OUT = ROOT / "test-output"
LOCALES = {"en": "en-US", "ar": "ar-EG"}
SCHEMES = {"en": "dark", "ar": "light"}
"""The device's colour scheme, which the pages' theme follows by default: the English run
sees the dark theme, the Arabic one the light theme."""
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
OPTIONS = {"runOnly": {"type": "tag", "values": TAGS},
           "resultTypes": ["violations", "incomplete"]}
AXE = Axe()


class Audit:
    """The violations and the "needs review" items of every axe run of a test."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.violations: list[str] = []
        self.review: dict[str, dict[str, Any]] = {}
        self.runs = 0

    def check(self, page: Page, where: str, sizes: tuple[dict[str, int], ...] = (PHONE, DESKTOP),
              context: Any = None) -> None:
        """axe on the page as it is, at each size (the phone's last: the page stays so)."""
        for size in (*[s for s in sizes if s is not PHONE], *[s for s in sizes if s is PHONE]):
            page.set_viewport_size(size)
            page.wait_for_timeout(120)
            results: dict[str, Any] = AXE.run(page, context=context, options=OPTIONS).response
            self.runs += 1
            label = f"{where} [{self.lang} {size['width']}px]"
            for v in results["violations"]:
                for node in v["nodes"]:
                    self.violations.append(
                        f"{label}: {v['id']} ({v['impact']}) {node['target']}: {v['help']}"
                        f" -- {node.get('failureSummary', '')!s:.300}")
            for item in results["incomplete"]:
                entry = self.review.setdefault(item["id"], {
                    "help": item["help"], "impact": item["impact"], "where": {}})
                for node in item["nodes"]:
                    messages = [c["message"] for c in node.get("any", []) + node.get("all", [])
                                + node.get("none", [])]
                    entry["where"].setdefault(where, []).append(
                        {"target": node["target"], "messages": messages[:2]})

    def finish(self, name: str) -> None:
        """Write the needs-review items; fail naming every violation."""
        OUT.mkdir(exist_ok=True)
        path = OUT / f"axe-needs-review-{name}-{self.lang}.json"
        path.write_text(json.dumps(self.review, indent=1, ensure_ascii=False), "utf-8")
        assert self.runs
        assert not self.violations, "axe violations:\n" + "\n".join(self.violations)


DATA: dict[str, Path] = {}
"""The server's data directory (``basra admin`` makes the account a moderator there)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    DATA["dir"] = tmp_path_factory.mktemp("axe")
    with basra_server(DATA["dir"], "--bot-delay", "0", "--grace", "0.3",
                      "--summary-window", "60", "--seed-window", "0",
                      "--analysis-iterations", "4", "--tournament-schedule", "none") as base:
        yield base


@pytest.fixture(scope="module")
def world(server: str) -> dict[str, Any]:
    """What the pages show: a finished match (its guest now an account, USERNAME) with its
    analysis, a tournament and a partner invite."""
    with ThreadPoolExecutor(1) as pool:
        made: dict[str, Any] = pool.submit(run, finished_match(server)).result()
    token = made["token"]
    with httpx.Client(timeout=10) as http:
        headers = {"Authorization": f"Bearer {token}"}
        http.post(f"{server}/api/replays/{made['table']}/analysis", headers=headers)
        deadline = time.monotonic() + 120
        while http.get(f"{server}/api/replays/{made['table']}/analysis").json()[
                "status"] != "done":
            assert time.monotonic() < deadline, "the analysis did not finish"
            time.sleep(0.3)
    made["tournament"] = post(server, "/api/tournaments", {
        "name": "Axe Arena", "format": "arena", "minutes": 30, "rated": True}, token)[
        "tournament"]["id"]
    # Another account, reported by this one; this one a moderator (issue 31).
    rival = post(server, "/api/guests", {"nickname": "Rival"})
    post(server, "/api/account", {"username": "Axe_Rival", "password": "a long password"},
         rival["token"])
    post(server, "/api/reports", {"username": "Axe_Rival", "reason": "name",
                                  "note": "A name that mocks other players."}, token)
    for _ in range(3):  # again after a moment if the database was busy with the server
        if subprocess.run([sys.executable, "-m", "basra", "admin", "--data-dir",
                           str(DATA["dir"]), "grant", USERNAME, "moderator"],
                          capture_output=True, timeout=60, check=False).returncode == 0:
            break
        time.sleep(1)
    host = post(server, "/api/guests", {"nickname": "Host"})
    made["partner"] = post(server, "/api/partners", {"variant": "lebanese"},
                           host["token"])["invite"]
    return made


def person(players: list[Player], browser: Browser, server: str, lang: str,
           token: str | None = None) -> Player:
    p = Player(browser, server, viewport=PHONE, locale=LOCALES[lang], reduced_motion=True)
    p.page.emulate_media(color_scheme=SCHEMES[lang])  # type: ignore[arg-type]
    players.append(p)
    if token:
        p.context.add_init_script(f"localStorage.setItem('basra.token', {json.dumps(token)})")
    return p


def visit(page: Page, url: str, ready: str) -> None:
    page.goto(url)
    page.wait_for_selector(ready, timeout=20000)
    page.wait_for_function("(document.querySelector('main')?.children.length ?? 0) > 0")
    page.wait_for_timeout(250)


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_every_page_passes_axe(players: list[Player], browser: Browser, server: str,
                               world: dict[str, Any], lang: str) -> None:
    audit = Audit(lang)
    table = world["table"]
    # A visitor with no session: the sign-in form, the lists, the pages anyone may read.
    visitor = person(players, browser, server, lang)
    page = visitor.page
    stranger = [
        ("/", "#play-bot", "lobby (new visitor)"),
        ("/sign-in", "form", "sign-in"),
        ("/rules", ".ladder-pairs tbody tr", "rules, with the bots' ladder"),
        ("/rules/lebanese", "main h1", "rules of a variant"),
        ("/leaderboard", "main h1", "leaderboard"),
        ("/live", "main h1", "live"),
        ("/tv", "main h1, .table-page", "TV"),
        (f"/players/{USERNAME}", ".profile-page, main h1", "profile"),
        (f"/replay/{table}", ".replay-felt", "replay"),
        (f"/mistakes/{table}?seat=0", "main h1", "mistakes"),
        ("/tournaments", ".tour-card", "tournaments"),
        (f"/tournament/{world['tournament']}", "main h1", "a tournament"),
        ("/learn", "main h1", "learn"),
        ("/puzzles", ".puzzle-hand .hand-card", "puzzles (rated)"),
        ("/puzzles/daily", ".puzzle-hand .hand-card", "daily puzzle"),
        ("/puzzles/streak", "main h1", "puzzle streak"),
        ("/join/NOSUCHCODE", "main h1", "invite not valid"),
        ("/no/such/page", "main h1", "not found"),
    ]
    for path, ready, where in stranger:
        visit(page, server + path, ready)
        audit.check(page, where)
        if path == "/learn":
            lesson = page.locator("main a[href^='/learn/']").first.get_attribute("href")
        if path == "/puzzles/daily":
            puzzle = page.locator("main a[href^='/puzzle/']").last.get_attribute("href")
    visit(page, server + str(lesson), "main h1")
    audit.check(page, "a lesson")
    # The lesson on choosing a take: the table's choice bar on the lesson's board.
    visit(page, server + "/learn/choose-take", ".hand-card[data-card='9D']")
    page.click(".hand-card[data-card='9D']")
    page.wait_for_selector(".learn-choice .choice-option")
    audit.check(page, "a lesson's take choice")
    visit(page, server + str(puzzle), ".puzzle-hand .hand-card")
    audit.check(page, "one puzzle")
    # The replay's analysis, its details for experts open.
    visit(page, f"{server}/replay/{table}", ".replay-analysis[data-status='done']")
    for summary in page.locator(".replay-analysis summary").all():
        summary.click()
    audit.check(page, "replay with the analysis")

    # The account (the match's guest, now an account): its page, history, profile, friends.
    holder = person(players, browser, server, lang, world["token"])
    page = holder.page
    signed = [
        ("/", "#play-bot", "lobby (an account, a match in its history)"),
        ("/account", ".account-top .signed-in", "account"),
        ("/history", "main h1", "history"),
        (f"/players/{USERNAME}", "#profile-follow, main h1", "own profile"),
        ("/friends", "main h1", "friends"),
        ("/tournaments", ".tour-card", "tournaments (with the new-event form)"),
        (f"/partner/{world['partner']}", "main h1", "partner invite"),
    ]
    if (WEB / "js" / "pages" / "settings.js").exists():
        signed.append(("/settings", "main h1", "settings"))
    for path, ready, where in signed:
        visit(page, server + path, ready)
        audit.check(page, where)
    # Reporting a player (issue 31): the dialog, from a profile.
    visit(page, f"{server}/players/Axe_Rival", "#profile-report")
    page.click("#profile-report")
    page.wait_for_selector("dialog.dialog-report[open]")
    audit.check(page, "the report dialog")
    page.keyboard.press("Escape")
    # The moderators' page: the reports, a player's file, an action's dialog, the log and
    # the names' words.
    visit(page, server + "/mod", ".mod-report")
    audit.check(page, "moderation: the reports")
    page.click(".mod-report .mod-open")
    page.wait_for_selector(".mod-file .mod-actions")
    audit.check(page, "moderation: a player's file")
    page.click(".mod-file .mod-act-warn")
    page.wait_for_selector("dialog.dialog-mod-action[open]")
    audit.check(page, "moderation: an action's dialog")
    page.keyboard.press("Escape")
    page.click("#mod-tab-log")
    page.wait_for_selector(".mod-log-part .mod-log-entry")
    audit.check(page, "moderation: the log")
    page.click("#mod-tab-words")
    page.wait_for_selector("#mod-word")
    audit.check(page, "moderation: the names' words")
    shot(page, f"a11y-mod-words-{lang}")
    # An invite's landing takes the seat and opens the table's waiting room.
    owner = post(server, "/api/guests", {"nickname": "Owner"})
    invite = post(server, "/api/tables/private", {"variant": "egyptian"},
                  owner["token"])["table"]["invite_code"]
    visit(page, f"{server}/join/{invite}", ".table-page")
    page.wait_for_selector(".waiting-room, .table-page[data-status='playing']", timeout=20000)
    audit.check(page, "invite landing (the waiting room)")
    shot(page, f"a11y-waiting-room-{lang}")
    for p in (visitor, holder):
        assert not [e for e in p.errors if "pageerror" in e], p.errors
    audit.finish("pages")


def my_turn(p: Player) -> None:
    p.page.wait_for_selector(".hand.my-turn .hand-card", timeout=30000)


def options_of(p: Player) -> dict[str, int]:
    """This turn's cards and how many takes each has."""
    counts: dict[str, int] = {}
    for play in p.state(p.version())["view"]["legal"]:
        counts[play["card"]] = counts.get(play["card"], 0) + 1
    return counts


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_table_passes_axe(players: list[Player], browser: Browser, server: str,
                              lang: str) -> None:
    audit = Audit(lang)
    p = Player(browser, server, viewport=PHONE, locale=LOCALES[lang], reduced_motion=True)
    p.page.emulate_media(color_scheme=SCHEMES[lang])  # type: ignore[arg-type]
    players.append(p)
    p.sign_in(f"Axe {lang}")
    page = p.page
    page.check("input[name=level][value=random]")  # leaves more on the floor: choices come
    page.click("#play-bot")
    page.wait_for_url("**/table/*")
    page.wait_for_selector(".table-page[data-status='playing']")
    my_turn(p)
    page.wait_for_timeout(300)
    audit.check(page, "table mid-round")

    # Someone watching: /live lists the match, TV shows it.
    watcher = person(players, browser, server, lang)
    visit(watcher.page, server + "/live", "main h1")
    audit.check(watcher.page, "live (a match on)")
    visit(watcher.page, server + "/tv", ".table-page")
    watcher.page.wait_for_timeout(500)
    audit.check(watcher.page, "TV (a match on)")
    watcher.close()
    players.remove(watcher)

    # The fairness panel's details, then the resign dialog (kept playing).
    page.click(".table-head .fair-link")
    details = page.locator(".fairness-panel details summary")
    if details.count():
        details.first.click()
    audit.check(page, "table: the fairness panel")
    page.click(".table-head .resign")
    page.wait_for_selector("dialog.basra-dialog[open]")
    audit.check(page, "table: the resign dialog")
    page.click("dialog[open] [data-answer='no']")
    page.wait_for_selector("dialog.basra-dialog", state="detached")

    # Round 1 played out, laying cards while it can so the floor grows: a card with several
    # takes opens the choice bar when one comes (a choice comes at random: the lesson's
    # choice bar is audited with the pages); then the round's summary.
    chosen = False
    while (event := p.wait_event(timeout=60)) == "turn":
        legal = p.state(p.version())["view"]["legal"]
        several = [c for c in {x["card"] for x in legal}
                   if sum(x["card"] == c for x in legal) > 1]
        version = p.version()
        if several and not chosen:
            page.click(f".hand-card[data-card='{several[0]}']")
            page.wait_for_selector(".choice-bar:not([hidden]) .choice-option")
            audit.check(page, "table: a take choice")
            page.set_viewport_size(PHONE)
            page.click(".choice-option[data-option='0']")
            chosen = True
        else:
            single = [x for x in legal if x["card"] not in several]
            card = ([x["card"] for x in single if not x["take"]] or
                    [x["card"] for x in single] or [legal[0]["card"]])[0]
            page.click(f".hand-card[data-card='{card}']")
            if card in several:
                page.click(".choice-option[data-option='0']")
        page.wait_for_function(
            "v => (document.querySelector('.table-page')?.dataset.version | 0) > v", arg=version)
    assert event == "round-end"
    page.wait_for_selector(".overlay-round .continue")
    page.wait_for_timeout(300)
    audit.check(page, "table: the round's summary")
    p.close_round_end()
    page.click(".table-head .resign")
    page.click("dialog[open] [data-answer='yes']")
    page.wait_for_selector(".overlay-match")
    page.wait_for_timeout(300)
    audit.check(page, "table: the match end")
    assert not [e for e in p.errors if "pageerror" in e], p.errors
    audit.finish("table")


BOXES = """(selectors) => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom }; };
  const out = {};
  for (const s of selectors) out[s] = [...document.querySelectorAll(s)].map(box);
  return out;
}"""


def meet(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["left"] < b["right"] - 1 and b["left"] < a["right"] - 1
            and a["top"] < b["bottom"] - 1 and b["top"] < a["bottom"] - 1)


def overlaps(page: Page, over: str, under: str) -> list[Any]:
    """The rectangles of ``over`` that meet one of ``under``."""
    boxes = page.evaluate(BOXES, [over, under])
    return [(a, b) for a in boxes[over] for b in boxes[under] if meet(a, b)]


@pytest.fixture(scope="module")
def paced(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose bot takes its time: a short absence leaves a few plays to tell."""
    with basra_server(tmp_path_factory.mktemp("axe-paced"), "--bot-delay", "0.3",
                      "--grace", "0.5", "--summary-window", "5", "--seed-window", "0") as base:
        yield base


def test_a_newcomer_sees_the_hand_and_the_floor_on_a_phone(
        players: list[Player], browser: Browser, paced: str) -> None:
    """At 360 px, with motion: the hint's words leave the hand clear, a card moving to the
    floor passes under the status line and the Say button, and "While you were away" sits
    clear of the floor and is gone once the next round is dealt."""
    p = Player(browser, paced, viewport=PHONE)
    players.append(p)
    p.sign_in("Newcomer")
    page = p.page
    page.click("#play-bot")
    page.wait_for_selector(".table-page[data-status='playing']")
    my_turn(p)
    page.click(".hint-button")
    page.locator(".toast").filter(has_text="Hint").wait_for()
    page.wait_for_timeout(400)
    assert not overlaps(page, ".toast", ".hand-card"), "the hint covers the hand"
    assert not overlaps(page, ".toast", ".floor-card"), "the hint covers the floor"
    shot(page, "a11y-hint-phone")

    # A card from the hand to the floor: the moving layer lies under the bar over the hand.
    order = page.evaluate("""() => {
      const z = (s) => Number(getComputedStyle(document.querySelector(s)).zIndex) || 0;
      return [z('.fx-layer'), z('.me-bar'), getComputedStyle(document.querySelector('.me-bar'))
        .position];
    }""")
    assert order[0] < order[1] and order[2] != "static", order
    card = p.state(p.version())["view"]["hand"][0]
    version = p.version()
    page.click(f".hand-card[data-card='{card}']")
    if page.locator(".choice-bar:not([hidden]) .choice-option").count():
        page.click(".choice-option[data-option='0']")
    page.wait_for_function(
        "document.getAnimations().some((a) => a.playState === 'running')", timeout=5000)
    shot(page, "a11y-flight-phone")
    page.wait_for_function(
        "v => (document.querySelector('.table-page')?.dataset.version | 0) > v", arg=version)

    # Away (the connection lost): the bot plays this seat; the panel on return.
    my_turn(p)
    p.context.set_offline(True)
    page.evaluate("window.basraTable.drop()")
    page.wait_for_selector(".conn-banner[data-state='lost']")
    page.wait_for_timeout(1500)  # past the grace (0.5 s): the bot plays this seat
    p.context.set_offline(False)
    page.wait_for_selector(".away-panel", timeout=20000)
    page.wait_for_timeout(400)
    shot(page, "a11y-away-phone")
    assert not overlaps(page, ".away-panel", ".hand-card"), "the away panel covers the hand"
    assert not overlaps(page, ".away-panel", ".floor"), "the away panel covers the floor"
    # Played on (not dismissed) into the next round: the panel goes when it is dealt.
    told = max(int(r) for r in page.eval_on_selector_all(
        ".away-plays li", "els => els.map((e) => e.dataset.round)"))
    while p.state()["view"]["round"] <= told:
        event = p.wait_event(timeout=60)
        if event == "turn":
            p.play_first()
        elif event == "round-end":
            p.close_round_end()
        else:
            pytest.fail("the match ended before the next round")
    page.wait_for_selector(".away-panel", state="detached", timeout=5000)
    shot(page, "a11y-next-round-phone")
    assert not [e for e in p.errors if "pageerror" in e], p.errors
