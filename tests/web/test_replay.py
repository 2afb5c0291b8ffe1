"""The replay in a real browser against a real ``basra serve``: a finished match (a guest's
table against bots, left at once, so the bots play it out) stepped through play by play,
forward and back, by buttons, keys and a swipe, every hand face up and the floor checked at
each step against the server's replay and the match's record; a deep link (``#r2p17``); a
record file with an illegal play (a real record with two plays' cards swapped) refused with
the error naming its round and play; the expert's analysis asked for, followed and shown
(a cost for every play, per-seat totals equal to ``basra analyse`` on the same record, the
graph moving the replay); the links from the match end, the history and the profile.
Screenshots go to test-output/screenshots/replay-*.png."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, CDPSession, FloatRect, Page

from server_harness import at_a_bot_table, run
from web.menu import choose_language
from web_helpers import DESKTOP, PHONE, Player, basra_server, shot

pytestmark = pytest.mark.slow

ITERATIONS = 10
"""The expert's budget a play in the server's analyses (and in ``basra analyse`` here)."""
USERNAME = "replay_amira"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with basra_server(tmp_path_factory.mktemp("replaydata"), "--bot-delay", "0",
                      "--grace", "0.3", "--summary-window", "0", "--seed-window", "0",
                      "--analysis-iterations", str(ITERATIONS)) as base:
        yield base


async def finished_match(base: str, account: bool = True, **options: Any) -> dict[str, str]:
    """A guest's table against random bots, opened and left: the bots play it out. The
    guest then becomes an account (its match stays), for the profile's list."""
    async with httpx.AsyncClient() as http:
        guest = await at_a_bot_table(base, http, "Amira", "random", **options)
        await guest.until(lambda state: True)
        table = str(guest.state["table"]["id"])
        await guest.close()
        for _ in range(300):
            answer = await http.get(f"{base}/api/tables/{table}")
            if answer.json()["table"]["status"] == "finished":
                break
            await asyncio.sleep(0.2)
        else:
            raise AssertionError("the bots did not finish the match in 60 s")
        if account:
            made = await http.post(f"{base}/api/account", headers=guest.headers,
                                   json={"username": USERNAME, "password": "a long password"})
            assert made.status_code in (200, 201), made.text
        return {"table": table, "token": guest.token}


@pytest.fixture(scope="module")
def match(server: str) -> dict[str, Any]:
    # In a thread of its own: Playwright's sync API holds this thread's event loop.
    with ThreadPoolExecutor(1) as pool:
        made: dict[str, Any] = pool.submit(run, finished_match(server)).result()
    with httpx.Client() as http:
        replay = http.get(f"{server}/api/replays/{made['table']}")
        assert replay.status_code == 200, replay.text
        record = http.get(f"{server}/api/tables/{made['table']}/record")
        assert record.status_code == 200
    made["replay"] = replay.json()
    made["record"] = record.json()
    return made


def new_player(players: list[Player], browser: Browser, server: str, **options: Any) -> Player:
    p = Player(browser, server, **options)
    players.append(p)
    return p


def no_errors(p: Player) -> None:
    # A refused record file is a 422 (or 413) the browser itself reports; nothing else may.
    errors = [e for e in p.errors if "status of 422" not in e and "status of 413" not in e]
    assert not errors, errors


def open_replay(p: Player, table: str, fragment: str = "") -> Page:
    p.page.goto(f"{p.base}/replay/{table}{fragment}")
    p.page.wait_for_selector(".replay-felt")
    return p.page


def position(page: Page) -> tuple[int, int]:
    data = page.evaluate("() => Object.assign({}, document.querySelector('.replay-view').dataset)")
    return int(data["round"]), int(data["step"])


SHOWN = """() => {
  const view = document.querySelector('.replay-view');
  const last = document.querySelector('.replay-last');
  return {
    round: Number(view.dataset.round),
    step: Number(view.dataset.step),
    hash: location.hash,
    floor: document.querySelector('.replay-floor').dataset.floor,
    hands: Array.from(document.querySelectorAll('.replay-hand'), (el) => [
      Number(el.dataset.hand), el.dataset.cards,
      Array.from(el.querySelectorAll('.replay-card'), (c) => c.dataset.card).join(' ')]),
    turn: Array.from(document.querySelectorAll('.replay-seat.turn'), (e) => Number(e.dataset.seat)),
    played: last.dataset.card === undefined ? null
      : [Number(last.dataset.seat), last.dataset.card, last.dataset.take],
    current: document.querySelector('.replay-play.current').dataset.s,
  };
}"""
COSTS = "els => els.map(e => [Number(e.dataset.s), e.querySelector('.replay-cost')?.dataset.cost])"
DROP = """(text) => {
  const data = new DataTransfer();
  data.items.add(new File([text], "dropped.json", { type: "application/json" }));
  const page = document.querySelector('.replay-page');
  const options = { dataTransfer: data, bubbles: true, cancelable: true };
  page.dispatchEvent(new DragEvent('dragover', options));
  page.dispatchEvent(new DragEvent('drop', options));
}"""


def check_step(page: Page, match: dict[str, Any], r: int, s: int) -> None:
    """What the page shows is step s of round r (1-based round): every hand face up, the
    floor, whose turn and the play just made, as the server's replay and the record say."""
    shown = page.evaluate(SHOWN)
    step = match["replay"]["rounds"][r - 1]["steps"][s]
    assert (shown["round"], shown["step"]) == (r, s)
    assert shown["hash"] == f"#r{r}p{s}"
    assert shown["current"] == str(s)
    assert shown["floor"] == " ".join(step["floor"])
    assert sorted(h[0] for h in shown["hands"]) == list(range(match["replay"]["seats"]))
    for seat, cards, faces in shown["hands"]:
        assert cards == " ".join(step["hands"][seat]) == faces, (r, s, seat)
    assert shown["turn"] == ([] if step["turn"] is None else [step["turn"]])
    if s == 0:
        assert shown["played"] is None
    else:
        play = match["record"]["rounds"][r - 1]["plays"][s - 1]
        assert shown["played"][1:] == [play["card"], " ".join(play["take"])], (r, s)
        assert shown["played"][0] == step["play"]["seat"]


# ---------------------------------------------------------------------------------------


def test_every_play_of_every_round_forward_and_back(players: list[Player], browser: Browser,
                                                     server: str, match: dict[str, Any]) -> None:
    p = new_player(players, browser, server)
    page = open_replay(p, match["table"])
    rounds = match["replay"]["rounds"]
    assert len(rounds) >= 2
    history_length = page.evaluate("history.length")
    check_step(page, match, 1, 0)
    # Round 1 by the Forward button, the rest by the arrow key: each step, then into the
    # next round's deal.
    # (Every step of the first two rounds looked at, one in four after them.)
    for r, round_ in enumerate(rounds, 1):
        for s in range(1, len(round_["steps"])):
            if r == 1:
                page.click(".replay-forward")
            else:
                page.keyboard.press("ArrowRight")
            if r <= 2 or s % 4 == 0 or s == len(round_["steps"]) - 1:
                check_step(page, match, r, s)
            if r == 2 and s == 17:
                shot(page, "replay-desktop-mid-round")
        if r < len(rounds):
            page.keyboard.press("ArrowRight")
            check_step(page, match, r + 1, 0)
    # At the very end nothing moves on; the last round shows its result and the winner.
    page.keyboard.press("ArrowRight")
    assert position(page) == (len(rounds), len(rounds[-1]["steps"]) - 1)
    assert page.locator(".replay-forward[aria-disabled='true']").count() == 1
    if rounds[-1]["result"]:
        assert page.locator(".replay-result .breakdown-table").count() == 1
    assert page.locator(".replay-match-end").count() == 1
    # And back again, every step, by the Back button in the last round, the key elsewhere
    # (each step of the last round looked at, one in five elsewhere).
    for r in range(len(rounds), 0, -1):
        for s in range(len(rounds[r - 1]["steps"]) - 2, -1, -1):
            if r == len(rounds):
                page.click(".replay-back")
            else:
                page.keyboard.press("ArrowLeft")
            if r == len(rounds) or s % 5 == 0:
                check_step(page, match, r, s)
        if r > 1:
            page.keyboard.press("ArrowLeft")
            check_step(page, match, r - 1, len(rounds[r - 2]["steps"]) - 1)
    # Steps replace the address; they never pile up in the history.
    assert page.evaluate("history.length") == history_length
    # Home and End: the round's deal and end; Up/Down and PageUp/PageDown: a round.
    page.keyboard.press("End")
    check_step(page, match, 1, len(rounds[0]["steps"]) - 1)
    page.keyboard.press("PageDown")
    check_step(page, match, 2, 0)
    page.keyboard.press("ArrowDown")
    if len(rounds) > 2:
        check_step(page, match, 3, 0)
        page.keyboard.press("ArrowUp")
    check_step(page, match, 2, 0)
    page.keyboard.press("PageUp")
    check_step(page, match, 1, 0)
    page.keyboard.press("End")
    page.keyboard.press("Home")
    check_step(page, match, 1, 0)
    # A play in the list, and the scrubber, go straight to a step.
    page.click(".replay-play[data-s='9']")
    check_step(page, match, 1, 9)
    page.focus(".replay-scrubber")
    for _ in range(5):
        page.keyboard.press("ArrowLeft")
    check_step(page, match, 1, 4)
    # The focus stays on a button that is pressed (its way ends: it says so, it stays).
    page.click(".replay-back")
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    check_step(page, match, 1, 0)
    assert page.evaluate("document.activeElement.dataset.action") == "back"
    # Each round's fairness proof: the server's verdict and the page's own check.
    page.wait_for_selector(".replay-proof .fair-result[data-verdict='fair']")
    assert page.locator(".replay-server-verdict[data-fair='true']").count() == 1
    no_errors(p)


def swipe(cdp: CDPSession, box: FloatRect, dx: float) -> None:
    """A finger drawn ``dx`` pixels across the middle of ``box`` (a touch screen's)."""
    x = box["x"] + box["width"] / 2 - dx / 2
    y = box["y"] + min(box["height"] / 2, 200)

    def touch(kind: str, at: float | None) -> None:
        points = [] if at is None else [{"x": at, "y": y}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", x)
    for k in range(1, 6):
        touch("touchMove", x + dx * k / 5)
    touch("touchEnd", None)


def test_a_swipe_and_the_keys_right_to_left(browser: Browser, server: str,
                                             match: dict[str, Any]) -> None:
    errors: list[str] = []
    for locale in ("en-US", "ar-EG"):
        rtl = locale.startswith("ar")
        # bypass_csp: wait_for_function polls by eval, which the page's CSP refuses
        context = browser.new_context(viewport=PHONE, locale=locale,  # type: ignore[arg-type]
                                      has_touch=True, is_mobile=True, bypass_csp=True)
        try:
            page = context.new_page()
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(f"{server}/replay/{match['table']}#r1p3")
            page.wait_for_selector(".replay-felt")
            assert position(page) == (1, 3)
            cdp = context.new_cdp_session(page)
            box = page.locator(".replay-felt").bounding_box()
            assert box is not None
            # A finger moving towards the line's start goes forward: leftwards, or
            # rightwards right to left.
            ahead = 150 if rtl else -150
            swipe(cdp, box, ahead)
            page.wait_for_function("() => location.hash === '#r1p4'")
            swipe(cdp, box, -ahead)
            page.wait_for_function("() => location.hash === '#r1p3'")
            swipe(cdp, box, -ahead)
            page.wait_for_function("() => location.hash === '#r1p2'")
            # A short stroke is no swipe.
            swipe(cdp, box, 20)
            page.wait_for_timeout(150)
            assert position(page) == (1, 2)
            # The arrows follow the page's direction: forward is Left right to left.
            page.keyboard.press("ArrowLeft" if rtl else "ArrowRight")
            assert position(page) == (1, 3)
            page.keyboard.press("ArrowRight" if rtl else "ArrowLeft")
            assert position(page) == (1, 2)
            if rtl:
                assert page.evaluate("document.documentElement.dir") == "rtl"
                page.keyboard.press("ArrowLeft")
                shot(page, "replay-phone-ar")
            assert not errors, errors
        finally:
            context.close()


def test_a_deep_link_opens_that_play(players: list[Player], browser: Browser, server: str,
                                     match: dict[str, Any]) -> None:
    p = new_player(players, browser, server, viewport=PHONE)
    page = open_replay(p, match["table"], "#r2p17")
    check_step(page, match, 2, 17)
    shot(page, "replay-phone-mid-round")
    page.goto(f"{server}/replay/{match['table']}#r2")
    page.wait_for_selector(".replay-felt")
    check_step(page, match, 2, 0)
    # A new language redraws the replay where it stands.
    choose_language(page, "fr")
    page.wait_for_function("() => document.documentElement.lang === 'fr'")
    assert page.inner_text(".replay-head h1") == "Revoir la partie"
    check_step(page, match, 2, 0)
    choose_language(page, "en")
    # A hand-typed hash moves the page there.
    page.evaluate("location.hash = '#r1p5'")
    page.wait_for_function("() => document.querySelector('.replay-view').dataset.step === '5'")
    check_step(page, match, 1, 5)
    # A bad hash (no such round, no such play, no hash of ours) shows the start, quietly.
    last = len(match["replay"]["rounds"][0]["steps"])
    for bad in ("#r99p3", f"#r1p{last}", "#hello", "#r0p0"):
        page.goto("about:blank")
        page.goto(f"{server}/replay/{match['table']}{bad}")
        page.wait_for_selector(".replay-felt")
        check_step(page, match, 1, 0)
        assert page.locator("[role=alert]").count() == 0
    no_errors(p)


def test_a_record_file_with_an_illegal_play(players: list[Player], browser: Browser, server: str,
                                            match: dict[str, Any], tmp_path: Path) -> None:
    # A real record, its round 2's plays 17 and 18 given each other's cards.
    record = json.loads(json.dumps(match["record"]))
    plays = record["rounds"][1]["plays"]
    plays[16]["card"], plays[17]["card"] = plays[17]["card"], plays[16]["card"]
    bad = tmp_path / "swapped.json"
    bad.write_text(json.dumps(record), "utf-8")
    replayed = subprocess.run([sys.executable, "-m", "basra", "replay", str(bad)],
                              capture_output=True, text=True, check=False)
    assert replayed.returncode != 0
    line = (replayed.stderr or replayed.stdout).strip().splitlines()[-1]
    assert line.startswith("round 2, play 17:"), line
    good = tmp_path / "good.json"
    good.write_text(json.dumps(match["record"]), "utf-8")
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        p = new_player(players, browser, server, viewport=viewport)
        page = p.page
        page.goto(f"{server}/replay")
        page.wait_for_selector(".replay-opener")
        assert page.locator(".replay-felt").count() == 0
        page.set_input_files("#replay-file", str(bad))
        alert = page.locator(".replay-file-error[role=alert]")
        alert.wait_for()
        assert alert.get_attribute("data-code") == "replay/bad_record"
        assert (alert.get_attribute("data-round"), alert.get_attribute("data-play")) == ("2", "17")
        assert "round 2, play 17" in page.inner_text(".replay-file-where")
        assert line.endswith(page.inner_text(".replay-file-line").strip()), line
        shot(page, f"replay-{size}-file-error")
        # The real record opens, shown as the match's replay is (no analysis: no id).
        page.set_input_files("#replay-file", str(good))
        page.wait_for_selector(".replay-felt")
        assert alert.count() == 0
        check_step(page, match, 1, 0)
        page.keyboard.press("PageDown")
        check_step(page, match, 2, 0)
        assert page.locator(".replay-analyse").count() == 0
        no_errors(p)
    # Not a record at all, and a file far too large: each said so.
    junk = tmp_path / "notes.json"
    junk.write_text("my shopping list", "utf-8")
    p = players[-1]
    p.page.click("[data-action='another-file']")
    p.page.set_input_files("#replay-file", str(junk))
    p.page.locator(".replay-file-error[data-code='replay/bad_record']:not([data-round])").wait_for()
    assert p.page.inner_text(".replay-file-line").startswith("record:")
    huge = tmp_path / "huge.json"
    huge.write_text(" " * (1100 * 1024), "utf-8")
    p.page.set_input_files("#replay-file", str(huge))
    p.page.locator(".replay-file-error[data-code='too_big']").wait_for()
    # Dropped on the page, a file opens the same way.
    p.page.goto(f"{server}/replay")
    p.page.wait_for_selector(".replay-opener")
    p.page.evaluate(DROP, json.dumps(record))
    p.page.locator(".replay-file-error[data-play='17']").wait_for()


def test_the_experts_analysis(players: list[Player], browser: Browser, server: str,
                              match: dict[str, Any], tmp_path: Path) -> None:
    record = tmp_path / "record.json"
    record.write_text(json.dumps(match["record"]), "utf-8")
    done = subprocess.run([sys.executable, "-m", "basra", "analyse", "--iterations",
                           str(ITERATIONS), "--seed", "0", "--json", str(record)],
                          capture_output=True, text=True, check=True)
    expected = json.loads(done.stdout)
    p = new_player(players, browser, server)
    page = open_replay(p, match["table"], "#r1p6")
    page.wait_for_selector(".replay-analysis[data-status='none']")
    assert page.locator(".replay-cost").count() == 0
    page.click(".replay-analyse")
    page.wait_for_selector(".replay-analysis[data-status='done']", timeout=120000)
    # The expert's figures wait behind "Details for experts".
    assert not page.locator(".replay-command-text").is_visible()
    page.click(".analysis-expert-toggle")
    page.locator(".replay-command-text").wait_for(state="visible")
    # Every seat's total is basra analyse's on the same record.
    totals = page.eval_on_selector_all(".replay-seat-cost",
                                       "els => els.map(e => Number(e.dataset.cost))")
    assert totals == pytest.approx(expected["cost_by_seat"], abs=1e-9)
    assert "--iterations" in page.inner_text(".replay-command-text")
    # Every play of every round has its cost, the one basra analyse gives it.
    costs = {(a["round"], a["number"]): a["cost"] for a in expected["plays"]}
    page.keyboard.press("Home")
    for r, round_ in enumerate(match["replay"]["rounds"], 1):
        if r > 1:
            page.keyboard.press("PageDown")
        assert position(page) == (r, 0)
        shown = page.eval_on_selector_all(".replay-play", COSTS)
        assert shown[0] == [0, None]
        plays = range(1, len(round_["steps"]))
        assert [(s, float(c)) for s, c in shown[1:]] == [(s, costs[(r, s)]) for s in plays]
    # A play that cost points: its line, and the expert's play on demand.
    lost = next(a for a in expected["plays"] if a["cost"] > 0)
    page.goto(f"{server}/replay/{match['table']}#r{lost['round']}p{lost['number']}")
    page.wait_for_selector(".replay-analysis[data-status='done']")  # stored: shown at once
    assert page.locator(".replay-analyse").count() == 0
    cost = page.locator(".replay-step-cost")
    assert float(cost.get_attribute("data-cost") or "nan") == lost["cost"]
    assert page.locator(".replay-best").count() == 0
    page.click(".replay-best-toggle")
    best = page.locator(".replay-best")
    assert best.get_attribute("data-card") == lost["best_card"]
    assert best.get_attribute("data-take") == " ".join(lost["best_take"])
    assert page.get_attribute(".replay-best-toggle", "aria-pressed") == "true"
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "replay-desktop-analysis", full_page=True)
    # The margin graph: a marker at the step shown; a click moves the replay there.
    if not page.locator(".analysis-expert").evaluate("e => e.open"):
        page.click(".analysis-expert-toggle")
    svg = page.locator(".replay-graph-svg")
    svg.wait_for(state="visible")
    before = int(svg.get_attribute("data-here") or "-1")
    box = svg.bounding_box()
    assert box is not None
    svg.click(position={"x": box["width"] - 12, "y": box["height"] / 2})
    page.wait_for_function(
        f"() => document.querySelector('.replay-graph-svg').dataset.here !== '{before}'")
    r, s = position(page)
    assert r == len(match["replay"]["rounds"])
    assert s >= len(match["replay"]["rounds"][-1]["steps"]) - 4
    phone = new_player(players, browser, server, viewport=PHONE)
    open_replay(phone, match["table"], "#r2p10")
    phone.page.wait_for_selector(".replay-analysis[data-status='done']")
    shot(phone.page, "replay-phone-analysis", full_page=True)
    no_errors(p)
    no_errors(phone)


def test_three_sides_have_costs_but_no_graph(players: list[Player], browser: Browser,
                                              server: str) -> None:
    with ThreadPoolExecutor(1) as pool:
        made = pool.submit(run, finished_match(server, account=False, variant="lebanese",
                                               players=3)).result()
    p = new_player(players, browser, server, viewport=PHONE)
    page = open_replay(p, made["table"], "#r1p5")
    assert page.locator(".replay-seat").count() == 3
    assert page.locator(".replay-side-chip").count() == 3
    page.click(".replay-analyse")
    page.wait_for_selector(".replay-analysis[data-status='done']", timeout=120000)
    assert page.locator(".replay-graph").count() == 0
    assert page.locator(".replay-no-graph").count() == 1
    assert page.locator(".replay-seat-cost").count() == 3
    shown = page.eval_on_selector_all(".replay-play", COSTS)
    assert len(shown) > 1 and all(cost is not None for _, cost in shown[1:])
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "replay-phone-three-players")
    no_errors(p)


def test_the_links_to_a_replay(players: list[Player], browser: Browser, server: str,
                               match: dict[str, Any]) -> None:
    p = new_player(players, browser, server, viewport=PHONE)
    p.context.add_init_script(f"localStorage.setItem('basra.token', {json.dumps(match['token'])})")
    page = p.page
    # The match end.
    page.goto(f"{server}/table/{match['table']}")
    link = page.locator(".overlay-match a.watch-replay")
    link.wait_for()
    assert link.get_attribute("href") == f"/replay/{match['table']}"
    # The history: the page opens in place (no reload).
    page.goto(f"{server}/history")
    page.locator(f".history-item[data-table='{match['table']}'] .history-replay").click()
    page.wait_for_selector(".replay-felt")
    assert page.url.endswith(f"/replay/{match['table']}#r1p0")
    # The profile's recent matches.
    page.goto(f"{server}/players/{USERNAME}")
    replay = page.locator(f".profile-recent [data-table='{match['table']}'] .history-replay")
    assert replay.get_attribute("href") == f"/replay/{match['table']}"
    replay.click()
    page.wait_for_selector(".replay-felt")
    no_errors(p)


def test_a_match_without_a_replay(players: list[Player], browser: Browser, server: str) -> None:
    p = new_player(players, browser, server)
    p.page.goto(f"{server}/replay/no-such-match")
    alert = p.page.locator(".replay-error[role=alert]")
    alert.wait_for()
    assert alert.get_attribute("data-code") == "table/not_found"


async def resigned_at_once(base: str) -> str:
    """A guest's table against bots, resigned at once, as the first state comes."""
    async with httpx.AsyncClient() as http:
        guest = await at_a_bot_table(base, http, "Sami", "random")
        await guest.until(lambda state: True)
        await guest.send({"type": "resign"})
        await guest.until(lambda state: state["table"]["status"] == "finished", 20)
        table = str(guest.state["table"]["id"])
        await guest.close()
        return table


def test_a_match_resigned_before_its_first_card(browser: Browser, server: str) -> None:
    """Nothing to replay: the page says so in words (it used to fail on the missing
    round)."""
    with ThreadPoolExecutor(1) as pool:
        table = pool.submit(run, resigned_at_once(server)).result()
    with httpx.Client() as http:
        assert http.get(f"{server}/api/replays/{table}").json()["rounds"] == []
    p = Player(browser, server)
    try:
        p.page.goto(f"{server}/replay/{table}")
        p.page.wait_for_selector(".replay-empty")
        assert "nothing to replay" in p.page.inner_text(".replay-empty")
        no_errors(p)
    finally:
        p.close()
