"""The client with the keyboard alone (Tab, Shift+Tab, Enter, Space, Escape, the arrows), in
a real browser against a real ``basra serve``: the skip link first on every page, landing
on the main content; every control Tab reaches shows its focus (an outline or a ring) and
Tab always moves on (no trap); from the lobby to a bot game, a card played and a take
chosen (a choice cancelled with Escape first), the round's summary continued, the fairness
panel's details opened and closed, the resign dialog closed with Escape (the focus back on
its button); the sign-in form and the account page; the replay's controls. At 360 px, the
newcomer's findings: the hint does not cover the hand, the "While you were away" panel
does not cover the floor once a new round is dealt, and a moving card stays under the
status line and the Say button. Screenshots: test-output/screenshots/a11y-*.png."""

from __future__ import annotations

import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from server_harness import run
from web.test_replay import USERNAME, finished_match
from web_helpers import DESKTOP, PHONE, ROOT, Player, basra_server, shot

pytestmark = pytest.mark.slow

WEB = ROOT / "src" / "basra" / "web"
PASSWORD = "a long password"  # finished_match's account
TOP = """() => {
  // Tab from the page's top: a focused mark first in the body, removed (the browser's
  // sequential focus starting point stays where it was).
  window.scrollTo(0, 0);
  const mark = document.createElement('span');
  mark.tabIndex = -1;
  document.body.prepend(mark);
  mark.focus();
  mark.remove();
}"""
FOCUS = """() => {
  // The focused element, and whether its focus shows: an outline (its own, its ::before or
  // ::after's, or a wrapper's ring drawn with :has(:focus-visible)) or a box-shadow ring.
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const outline = (e, pseudo) => {
    const s = getComputedStyle(e, pseudo || null);
    return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0;
  };
  const shadow = (e) => { const s = getComputedStyle(e).boxShadow; return !!s && s !== 'none'; };
  let shown = outline(el) || outline(el, '::after') || outline(el, '::before')
    || (el.matches(':focus-visible') && shadow(el));
  for (let p = el.parentElement, i = 0; !shown && p && i < 3; p = p.parentElement, i++) {
    shown = outline(p);
  }
  const r = el.getBoundingClientRect();
  const ids = window.__focusIds = window.__focusIds || new WeakMap();
  if (!ids.has(el)) ids.set(el, ids.n = (ids.n || 0) + 1);
  return { tag: el.tagName, id: el.id, cls: String(el.className && el.className.baseVal
             !== undefined ? el.className.baseVal : el.className),
           text: (el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 40),
           shown, visible: r.width > 0 && r.height > 0,
           inDialog: !!el.closest('dialog[open]'),
           key: ids.get(el) + ' ' + el.outerHTML.slice(0, 100) };
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with basra_server(tmp_path_factory.mktemp("keyboard"), "--bot-delay", "0",
                      "--grace", "0.3", "--summary-window", "60", "--seed-window", "0",
                      "--tournament-schedule", "none") as base:
        yield base


@pytest.fixture(scope="module")
def match(server: str) -> dict[str, Any]:
    """A finished match; its guest became the account USERNAME."""
    with ThreadPoolExecutor(1) as pool:
        made: dict[str, Any] = pool.submit(run, finished_match(server)).result()
    return made


def person(players: list[Player], browser: Browser, server: str,
           viewport: dict[str, int] = PHONE, token: str | None = None) -> Player:
    p = Player(browser, server, viewport=viewport, reduced_motion=True)
    players.append(p)
    if token:
        p.context.add_init_script(f"localStorage.setItem('basra.token', {json.dumps(token)})")
    return p


def focused(page: Page) -> dict[str, Any] | None:
    info: dict[str, Any] | None = page.evaluate(FOCUS)
    return info


def press(page: Page, key: str) -> dict[str, Any] | None:
    page.keyboard.press(key)
    page.wait_for_timeout(30)
    return focused(page)


def tab_to(page: Page, selector: str, *, back: bool = False, limit: int = 80) -> None:
    """Tab (or Shift+Tab) until ``selector`` has the focus; every stop on the way shows its
    focus."""
    for _ in range(limit):
        if page.evaluate("s => !!document.activeElement?.matches(s)", selector):
            return
        info = press(page, "Shift+Tab" if back else "Tab")
        if info and info["visible"]:
            assert info["shown"], ("no visible focus", info)
    raise AssertionError(f"Tab never reached {selector}")


def walk(page: Page, where: str, stops: int = 60) -> int:
    """From the page's top, Tab through up to ``stops`` controls: the skip link comes first,
    every control shows its focus, focus never stays put; Shift+Tab goes back. The number
    of distinct controls reached."""
    page.evaluate(TOP)
    first = press(page, "Tab")
    if first and "reader-offer" in first["cls"]:
        first = press(page, "Tab")
    assert first and "skip-link" in first["cls"], (where, first)
    assert first["shown"] and first["visible"], (where, first)
    seen: list[str] = []
    last = first["key"]
    out = False
    for _ in range(stops):
        info = press(page, "Tab")
        if info is None:  # past the last control: the browser's own UI, then the top again
            out = True
            break
        if info["visible"]:
            assert info["shown"], (where, "no visible focus", info)
        assert info["key"] != last or info["key"] in seen[:-1], (where, "focus stuck", info)
        last = info["key"]
        if info["key"] in seen and info["key"] == seen[0]:
            break
        seen.append(info["key"])
    assert len(seen) >= 3, (where, seen)
    # Shift+Tab goes back: to the control before the last one reached, or (from past the
    # page's end) to the last one.
    back = press(page, "Shift+Tab")
    assert back is not None, (where, "Shift+Tab left the page")
    assert (back["key"] == last) if out else (back["key"] != last), (where, "Shift+Tab", back)
    return len(set(seen))


def skip_link(page: Page, where: str) -> None:
    """The first Tab shows the skip link; Enter puts the focus on the main content."""
    page.evaluate(TOP)
    info = press(page, "Tab")
    # The table offers its screen-reader view first, a skip link of its own.
    if info and "reader-offer" in info["cls"]:
        assert info["shown"], (where, info)
        info = press(page, "Tab")
    assert info and "skip-link" in info["cls"] and info["tag"] == "A", (where, info)
    box = page.locator("a.skip-link").bounding_box()
    assert box and box["y"] >= 0 and box["width"] > 20, (where, box)
    page.keyboard.press("Enter")
    page.wait_for_timeout(50)
    assert page.evaluate("document.activeElement?.id") == "app", where
    info = press(page, "Tab")
    assert info and page.evaluate("!!document.activeElement.closest('#app')"), (where, info)


def test_every_page_by_the_keyboard(players: list[Player], browser: Browser, server: str,
                                    match: dict[str, Any]) -> None:
    """The skip link and a walk with Tab on each page, a visitor's and an account's."""
    visitor = person(players, browser, server, DESKTOP)
    pages = [("/", "#play-bot"), ("/rules", "main h1"), ("/leaderboard", "main h1"),
             ("/live", "main h1"), ("/tournaments", "main h1"), ("/learn", "main h1"),
             ("/puzzles/daily", ".puzzle-hand .hand-card"), ("/sign-in", "form"),
             (f"/players/{USERNAME}", "main h1"),
             (f"/replay/{match['table']}", ".replay-felt")]
    for path, ready in pages:
        page = visitor.page
        page.goto(server + path)
        page.wait_for_selector(ready)
        page.wait_for_timeout(200)
        skip_link(page, path)
        walk(page, path)
    holder = person(players, browser, server, DESKTOP, match["token"])
    account = [("/account", ".account-top .signed-in"), ("/history", "main h1"),
               ("/friends", "main h1")]
    if (WEB / "js" / "pages" / "settings.js").exists():
        account.append(("/settings", "main h1"))
    for path, ready in account:
        page = holder.page
        page.goto(server + path)
        page.wait_for_selector(ready)
        page.wait_for_timeout(200)
        skip_link(page, path)
        walk(page, path, stops=120)
    for p in (visitor, holder):
        assert not [e for e in p.errors if "pageerror" in e], p.errors


def test_sign_in_and_the_replay_by_the_keyboard(players: list[Player], browser: Browser,
                                                server: str, match: dict[str, Any]) -> None:
    p = person(players, browser, server, DESKTOP)
    page = p.page
    page.goto(server + "/sign-in")
    page.wait_for_selector("form input")
    skip_link(page, "sign-in")
    tab_to(page, "input[autocomplete='username']")
    page.keyboard.type(USERNAME)
    tab_to(page, "input[type='password']")
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_function("!!localStorage.getItem('basra.token')", timeout=15000)
    page.goto(server + "/account")
    page.wait_for_selector(".account-top .signed-in")
    # The name form: typed, saved with Enter, said.
    tab_to(page, "#display-name")
    page.keyboard.press("Control+A")
    page.keyboard.type("Keyboard Amira")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "document.querySelector('#display-name').value === 'Keyboard Amira'"
        " && !document.querySelector('#save-name').disabled")

    # The replay: its buttons by Tab and Enter, then the arrow keys.
    page.goto(f"{server}/replay/{match['table']}")
    page.wait_for_selector(".replay-felt")
    step = "() => Number(document.querySelector('.replay-view').dataset.step)"
    tab_to(page, ".replay-btn")
    buttons = page.eval_on_selector_all(".replay-btn", "els => els.length")
    assert buttons >= 3
    start = page.evaluate(step)
    # The forward button (whichever of the row steps forward): Tab along until the step moves.
    for _ in range(buttons):
        page.keyboard.press("Enter")
        page.wait_for_timeout(100)
        if page.evaluate(step) != start:
            break
        press(page, "Tab")
    moved = page.evaluate(step)
    assert moved != start
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"() => Number(document.querySelector('.replay-view')"
                           f".dataset.step) !== {moved}")
    info = focused(page)
    assert info and info["shown"], info
    assert not [e for e in p.errors if "pageerror" in e], p.errors


def test_a_bot_game_by_the_keyboard(players: list[Player], browser: Browser,
                                    server: str) -> None:
    p = person(players, browser, server, PHONE)
    page = p.page
    page.goto(server + "/")
    page.wait_for_selector("#play-bot")
    skip_link(page, "lobby")
    tab_to(page, "#play-bot")
    page.keyboard.press("Enter")
    page.wait_for_url("**/table/*", timeout=20000)
    page.wait_for_selector(".table-page[data-status='playing']")
    skip_link(page, "table")

    # The resign dialog: focus inside, Tab stays in it, Escape closes it, focus back.
    tab_to(page, ".table-head .resign")
    page.keyboard.press("Enter")
    page.wait_for_selector("dialog.basra-dialog[open]")
    for _ in range(4):
        info = press(page, "Tab")
        assert info is None or info["inDialog"], info
        if info:
            assert info["shown"], info
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog.basra-dialog", state="detached")
    assert page.evaluate("document.activeElement.classList.contains('resign')")
    assert not [m for m in p.sent if m.get("type") == "resign"]

    # The fairness panel: its link, then a round's details opened and closed with Enter.
    tab_to(page, ".table-head .fair-link")
    page.keyboard.press("Enter")

    # Cards played from the hand with the arrows and Enter; a take chosen once.
    chosen = cancelled = False
    while True:
        event = p.wait_event(timeout=60)
        if event != "turn":
            break
        legal = p.state(p.version())["view"]["legal"]
        several = sorted({x["card"] for x in legal
                          if sum(y["card"] == x["card"] for y in legal) > 1})
        hand = p.state(p.version())["view"]["hand"]
        target = several[0] if several and not chosen else next(
            (x["card"] for x in legal if not x["take"] and x["card"] not in several),
            next(c for c in hand if c not in several) if set(hand) - set(several) else hand[0])
        version = p.version()
        if not page.evaluate("!!document.activeElement.closest('.hand')"):
            tab_to(page, ".hand .hand-card")
        for _ in range(len(hand)):
            if page.evaluate("document.activeElement.dataset.card") == target:
                break
            press(page, "ArrowRight")
        assert page.evaluate("document.activeElement.dataset.card") == target
        info = focused(page)
        assert info and info["shown"], info
        page.keyboard.press("Enter")
        if target in several:
            page.wait_for_selector(".choice-bar:not([hidden]) .choice-option")
            if not cancelled:
                page.keyboard.press("Escape")
                page.wait_for_selector(".choice-bar:not([hidden]) .choice-option",
                                       state="detached")
                cancelled = True
                assert page.evaluate("document.activeElement.dataset.card") == target
                page.keyboard.press("Enter")
                page.wait_for_selector(".choice-bar:not([hidden]) .choice-option")
            page.wait_for_function("!!document.activeElement.closest('.choice-bar')")
            press(page, "ArrowRight")
            info = focused(page)
            assert info and info["shown"], info
            page.keyboard.press("Enter")
            chosen = True
        page.wait_for_function(
            "v => (document.querySelector('.table-page')?.dataset.version | 0) > v", arg=version)
    assert event == "round-end"
    # The summary: its Continue has the focus; Space presses it.
    page.wait_for_selector(".overlay-round .continue")
    page.wait_for_function("document.activeElement?.classList.contains('continue')")
    info = focused(page)
    assert info and info["shown"], info
    page.keyboard.press("Space")
    page.wait_for_selector(".overlay-round", state="detached")
    # The fairness panel: the first round's details open and close with Enter.
    # (Once the round is checked: its verdict makes the details anew.)
    # Any verdict first (a busy machine checks slowly), then which one, with what was checked.
    page.wait_for_selector(".fair-result[data-round='1']:not([data-verdict='pending'])",
                           state="attached", timeout=90_000)
    verdict = page.evaluate("""() => {
        const r = document.querySelector(".fair-result[data-round='1']");
        return [r.dataset.verdict, r.innerText]; }""")
    assert verdict[0] in ("fair", "unverifiable"), verdict
    tab_to(page, ".fair-result[data-round='1'] .fair-details summary", limit=150)
    details = "document.querySelector(\".fair-result[data-round='1'] .fair-details\").open"
    page.keyboard.press("Enter")
    page.wait_for_function(details)
    page.keyboard.press("Enter")
    page.wait_for_function("!" + details)
    shot(page, "a11y-keyboard-fairness-phone")
    assert chosen or not cancelled
    assert not [e for e in p.errors if "pageerror" in e], p.errors
