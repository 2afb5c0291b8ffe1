"""The tournaments in the browser (Debian's chromium through Playwright against a real ``basra
serve``), at 360 px in English and in Arabic: an account makes an event with the page's form
(a refusal first, in one line beside the button) and a one-minute arena through the API; two
players join it on its page (one an account in English, the other a visitor in Arabic who
becomes a guest on the way, by the keyboard); the event pairs them and each page opens the
table by itself; they play, one resigns, and both are taken back to the event, where the
standings moved; a watcher sees the match being played (and keeps up after its socket
drops); a visitor joins an event with a password (a wrong one refused) and pauses; once the
arena is over every page shows the podium and the full results. Each page
passes the same accessibility checks at 360 and 1280 px in both languages. Screenshots:
test-output/screenshots/tournament-*.png."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from web.menu import choose_language
from web_helpers import DESKTOP, PHONE, ROOT, Player, basra_server, post, shot

pytestmark = pytest.mark.slow

WEB = ROOT / "src" / "basra" / "web"
LOCALES = {"en": "en-US", "ar": "ar-EG"}
START_IN = 10.0
"""Seconds from making the arena to its start: time for both players to join."""
LAST_PAIRING = 45
"""The one-minute arena pairs nobody in its last 45 seconds: its players meet once (the
match is resigned only after that, so they are not paired again)."""

AUDIT = """() => {
  // What every page of the client keeps to (the checks an axe run would make first): one
  // h1 and no skipped heading level, landmarks, a name for every control, a label for
  // every field, a caption and header cells for every table, ids unique, nothing wider
  // than the window.
  const problems = [];
  const visible = (el) => !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length);
  const name = (el) => (el.getAttribute('aria-label') || el.textContent || el.title || '')
    .trim();
  const headings = [...document.querySelectorAll('#app h1, #app h2, #app h3, #app h4')]
    .filter(visible);
  if (headings.filter((el) => el.tagName === 'H1').length !== 1) problems.push('h1 count');
  let level = 0;
  for (const el of headings) {
    const n = Number(el.tagName[1]);
    if (n > level + 1) problems.push('skipped heading ' + el.tagName + ' ' + el.textContent);
    level = n;
  }
  if (!document.querySelector('main') || !document.querySelector('header nav')) {
    problems.push('landmarks');
  }
  for (const el of document.querySelectorAll('#app a[href], #app button, #app summary')) {
    if (visible(el) && !name(el)) problems.push('unnamed ' + el.outerHTML.slice(0, 80));
  }
  for (const el of document.querySelectorAll('#app input, #app select, #app textarea')) {
    const labelled = (el.labels && el.labels.length) || el.getAttribute('aria-label');
    if (el.type !== 'hidden' && !labelled) problems.push('unlabelled ' + el.id);
  }
  for (const table of document.querySelectorAll('#app table')) {
    if (!table.querySelector('caption') || !table.querySelector('th[scope]')) {
      problems.push('table without caption');
    }
  }
  for (const el of document.querySelectorAll('#app svg[role=img]')) {
    if (!name(el)) problems.push('unnamed image');
  }
  const ids = [...document.querySelectorAll('[id]')].map((el) => el.id);
  if (new Set(ids).size !== ids.length) problems.push('ids repeat');
  if (document.documentElement.scrollWidth > window.innerWidth + 1) {
    problems.push('wider than the window');
  }
  return problems;
}"""


def catalogue(lang: str) -> dict[str, Any]:
    words: dict[str, Any] = json.loads((WEB / "i18n" / f"{lang}.json").read_text("utf-8"))
    return words


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with basra_server(tmp_path_factory.mktemp("tournaments"), "--tournament-schedule", "none",
                      "--tournament-last-pairing", str(LAST_PAIRING), "--seed-window", "0",
                      "--summary-window", "0") as base:
        yield base


def person(players: list[Player], browser: Browser, base: str, lang: str,
           who: dict[str, Any] | None = None) -> Player:
    """A phone in ``lang``, with ``who``'s session (an answer of POST /api/guests) or none."""
    p = Player(browser, base, viewport=PHONE, locale=LOCALES[lang], watch=True)
    players.append(p)
    if who:
        p.context.add_init_script("".join(
            f"localStorage.setItem({json.dumps(k)}, {json.dumps(v)});" for k, v in [
                ("basra.token", who["token"]), ("basra.player", who["player"]["id"])]))
    return p


def audit(page: Page, what: str, desktop_shot: str = "") -> None:
    """The accessibility checks at the phone's width and at a desktop's (shot there when
    named)."""
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        problems = page.evaluate(AUDIT)
        assert not problems, (what, size, problems)
    if desktop_shot:
        shot(page, desktop_shot, full_page=True)
    page.set_viewport_size(PHONE)


REFUSED = ("status of 400", "status of 403")


def no_errors(*people: Player, refused: int = 0) -> None:
    """No script error and no console error but the refusals the test asked for (the
    browser logs each 4xx answer)."""
    for p in people:
        errors = [e for e in p.errors if not any(r in e for r in REFUSED)]
        assert not errors, errors
    assert sum(any(r in e for r in REFUSED) for p in people for e in p.errors) == refused


def row_of(page: Page, name: str) -> dict[str, str]:
    """The standings row of ``name``: its data (rank, score) and its cells' text."""
    row: dict[str, str] = page.evaluate("""(name) => {
      const tr = [...document.querySelectorAll('.tour-table tbody tr')]
        .find((r) => r.querySelector('.tour-name').textContent === name);
      return tr ? { ...tr.dataset, text: tr.innerText } : null;
    }""", name)
    return row


def play_a_little(a: Player, b: Player, plays: int) -> None:
    """Whoever's turn it is plays their first card, ``plays`` times in all."""
    for _ in range(plays):
        a.wait("() => document.querySelector('.table-page')?.dataset.turn === 'mine'"
               " || document.querySelector('.table-page')?.dataset.turn === 'other'"
               " && !!document.querySelector('.hand-card')")
        mover = None
        for _ in range(100):
            for p in (a, b):
                if p.dataset().get("turn") == "mine" and p.page.locator(".hand.my-turn").count():
                    mover = p
            if mover:
                break
            a.page.wait_for_timeout(100)
        assert mover is not None, "nobody's turn"
        mover.play_first()


def test_an_arena_from_the_list_to_the_podium(players: list[Player], browser: Browser,
                                              server: str) -> None:
    en, ar = catalogue("en"), catalogue("ar")
    owner = post(server, "/api/guests", {"nickname": "Amira"})
    post(server, "/api/account", {"username": "amira", "password": "a long pass phrase"},
         owner["token"])
    amira = person(players, browser, server, "en", owner)

    # The form: a refusal in one line, then a Swiss an hour away, its page opened.
    page = amira.page
    page.goto(server + "/tournaments")
    page.wait_for_selector(".tour-lists[aria-busy='false']")
    assert page.title() == en["page.title.tournaments"]
    assert page.get_attribute(".site-nav a[data-nav='tournaments']", "aria-current") == "page"
    page.click(".tour-new summary")
    page.fill("#tn-name", "ab")
    page.click(".tour-form button[type=submit]")
    page.wait_for_selector(".tour-form-error:not(:empty)")
    assert "name" in page.inner_text(".tour-form-error")
    assert "\n" not in page.inner_text(".tour-form-error").strip()
    page.fill("#tn-name", "Friday Swiss")
    page.check("#tn-format-swiss")
    assert page.is_visible("#tn-rounds") and not page.is_visible("#tn-minutes")
    page.select_option("#tn-rounds", "5")
    page.select_option("#tn-start", "60")
    page.click(".tour-form button[type=submit]")
    page.wait_for_url("**/tournament/*")
    page.wait_for_selector(".tour-title")
    assert page.inner_text(".tour-title") == "Friday Swiss"
    assert page.title() == "Friday Swiss · Basra"
    # The server's own page for the path, before any script: its title.
    answer = page.request.get(page.url, headers={"Accept": "text/html"})
    assert f"<title>{en['page.title.tournament']}</title>" in answer.text()
    assert page.locator(".tour-format[data-format='swiss']").count() == 1
    assert page.locator(".tour-when[data-when='starts']").count() == 1

    # A one-minute arena, made through the API, starting in a few seconds.
    starts = datetime.now(UTC) + timedelta(seconds=START_IN)
    arena = post(server, "/api/tournaments", {
        "name": "Sunset Arena", "format": "arena", "minutes": 1, "rated": False,
        "starts_at": starts.isoformat()}, owner["token"])["tournament"]
    event_path = f"/tournament/{arena['id']}"

    # The list, in both languages.
    page.goto(server + "/tournaments")
    page.wait_for_selector(f".tour-card[data-id='{arena['id']}']")
    assert page.locator(".tour-card").count() == 2
    audit(page, "list en", "tournament-list-desktop-en")
    shot(page, "tournament-list-en", full_page=True)
    layla = person(players, browser, server, "ar")
    layla.page.goto(server + "/tournaments")
    layla.page.wait_for_selector(f".tour-card[data-id='{arena['id']}'] .tour-clock")
    assert layla.page.evaluate("document.documentElement.dir") == "rtl"
    audit(layla.page, "list ar")
    shot(layla.page, "tournament-list-ar", full_page=True)

    # Both join on the event's page: Amira by a click, Layla (no session yet: she becomes a
    # guest on the way) by the keyboard; a watcher opens it too.
    page.click(f".tour-card[data-id='{arena['id']}'] .tour-card-link")
    page.wait_for_url(f"**{event_path}")
    page.click(".tour-join")
    page.wait_for_selector("[data-action=withdraw]")
    layla.page.click(f".tour-card[data-id='{arena['id']}'] .tour-card-link")
    layla.page.wait_for_selector(".tour-join")
    layla.page.focus(".tour-join")
    layla.page.keyboard.press("Enter")
    layla.page.wait_for_selector("[data-action=withdraw]")
    assert layla.page.inner_text(".tour-in") in (ar["tournament.in_upcoming"],
                                                 ar["tournament.in_running"])
    watcher = person(players, browser, server, "en")
    watcher.page.goto(server + event_path)
    watcher.page.wait_for_function("document.querySelectorAll('.tour-table tbody tr').length === 2")
    assert watcher.page.locator(".tour-join").count() == 1

    # The event starts and pairs them: each page opens the table by itself.
    for p in (amira, layla):
        p.page.wait_for_url("**/table/*", timeout=(START_IN + 15) * 1000)
    table = amira.page.url.rsplit("/", 1)[1]
    assert layla.page.url.endswith(f"/table/{table}")
    # "You are paired" was read out (the screen reader's announcer).
    for p, words in ((amira, en), (layla, ar)):
        p.page.wait_for_function("t => window.__announced.includes(t)",
                                 arg=words["tournament.paired"], timeout=5000)

    # The watcher sees the match being played, one click from watching it.
    watch = f".tour-match[data-table='{table}'] a[href='/table/{table}']"
    watcher.page.wait_for_selector(watch)
    watcher.page.wait_for_selector(f".tour-playing[href='/table/{table}']")
    shot(watcher.page, "tournament-playing-en", full_page=True)
    audit(watcher.page, "event en")
    # Its socket drops: a fresh state comes first, the page keeps up.
    states = sum(1 for m in watcher.received if m.get("type") == "tournament")
    watcher.page.evaluate("window.basraEvent.drop()")
    for _ in range(100):
        if sum(1 for m in watcher.received if m.get("type") == "tournament") > states:
            break
        watcher.page.wait_for_timeout(100)
    assert sum(1 for m in watcher.received if m.get("type") == "tournament") > states
    watcher.page.wait_for_selector(watch)
    choose_language(watcher.page, "ar")
    watcher.page.wait_for_function("t => document.querySelector('#tour-standings-title')"
                                   "?.textContent === t", arg=ar["tournament.standings"])
    shot(watcher.page, "tournament-playing-ar", full_page=True)
    audit(watcher.page, "event ar")

    # They play a little; once the arena pairs nobody any more Layla resigns; both see the
    # way back and are taken there.
    for p in (amira, layla):
        p.page.wait_for_selector(".table-page[data-status='playing']")
    play_a_little(amira, layla, 4)
    closes = starts + timedelta(seconds=60 - LAST_PAIRING + 1)
    layla.page.wait_for_timeout(max(0, (closes - datetime.now(UTC)).total_seconds() * 1000))
    layla.page.click(".table-head .resign")
    layla.page.wait_for_selector("dialog[open]")
    layla.page.click("dialog[open] [data-answer='yes']")
    for p, words in ((amira, en), (layla, ar)):
        p.page.wait_for_selector(f".overlay-match .back-to-event[href='{event_path}']")
        assert words["tournament.back"] in p.page.inner_text(".overlay-match .back-to-event")
        assert p.page.locator(".overlay-match [data-action=rematch]").count() == 0
    shot(layla.page, "tournament-back-ar")
    for p in (amira, layla):
        p.page.wait_for_url(f"**{event_path}", timeout=10000)

    # Back on the event: the standings moved (the winner has 2 points), for everyone.
    for p in (amira, layla, watcher):
        p.page.wait_for_function("""() => [...document.querySelectorAll('.tour-table tbody tr')]
          .some((r) => r.querySelector('.tour-name').textContent === 'Amira'
                && r.dataset.score === '2' && r.dataset.rank === '1')""", timeout=10000)
    assert row_of(amira.page, "Amira")["score"] == "2"
    shot(layla.page, "tournament-standings-ar", full_page=True)

    # Meanwhile, an event with a password: asked for before joining, refused when wrong.
    locked = post(server, "/api/tournaments", {
        "name": "Family Cup", "format": "arena", "minutes": 30, "rated": False,
        "password": "olive tree"}, owner["token"])["tournament"]
    assert locked["password"] is True
    cousin = person(players, browser, server, "en")
    cousin.page.goto(server + f"/tournament/{locked['id']}")
    cousin.page.click(".tour-join")
    cousin.page.wait_for_selector("#tour-password:focus")
    cousin.page.fill("#tour-password", "olive three")
    cousin.page.press("#tour-password", "Enter")
    cousin.page.wait_for_selector(".tour-error")
    assert cousin.page.inner_text(".tour-error") == en["error.tournament.password"]
    cousin.page.fill("#tour-password", "olive tree")
    cousin.page.click(".tour-password button[type=submit]")
    cousin.page.wait_for_selector("[data-action=pause]")
    cousin.page.click("[data-action=pause]")
    cousin.page.wait_for_selector(".tour-join")
    assert cousin.page.inner_text(".tour-in") == en["tournament.you_paused"]

    # The arena ends: the podium and the full results, in both languages.
    for p in (amira, layla, watcher):
        p.page.wait_for_selector(".tour-podium .place-1", timeout=75000)
        p.page.wait_for_selector(".tour-results .tour-pairing")
    assert "Amira" in amira.page.inner_text(".tour-podium .place-1")
    first = amira.page.inner_text(".tour-results .tour-pair-names bdi")
    won = "1–0" if first == "Amira" else "0–1"
    assert amira.page.inner_text(".tour-results .tour-result") == won
    assert amira.page.locator(".tour-provisional").count() == 1
    assert amira.page.locator(f".tour-results a[href='/replay/{table}']").count() == 1
    shot(amira.page, "tournament-podium-en", full_page=True)
    shot(layla.page, "tournament-podium-ar", full_page=True)
    audit(amira.page, "podium en", "tournament-podium-desktop-en")
    audit(layla.page, "podium ar")
    no_errors(amira, layla, watcher, cousin, refused=2)  # the form's, the password's
