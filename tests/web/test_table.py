"""The table's behaviour in the browser (Debian's chromium through Playwright against a real
``basra serve``): the next round waits for the player behind the summary (Continue, a
countdown, no clock running), a bot's plays for an absent player told on return, resign,
the hint, leaving asks first, the rules over the table, the basra told without motion, and
the sound's mute remembered. Screenshots go to test-output/screenshots/."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from web.menu import choose_language
from web_helpers import DESKTOP, PHONE, Player, basra_server, shot

SUMMARY_WINDOW = 30
"""Long enough that a round dealt behind the summary could only be the page's doing."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with basra_server(tmp_path_factory.mktemp("webtable"),
                      "--summary-window", str(SUMMARY_WINDOW)) as base:
        yield base


def bot_table(players: list[Player], browser: Browser, server: str, name: str,
              **options: Any) -> Player:
    """A player at a new table against the medium bot, the table open and playing."""
    p = Player(browser, server, **options)
    players.append(p)
    p.sign_in(name)
    p.page.click("#play-bot")
    p.page.wait_for_url("**/table/*")
    p.page.wait_for_selector(".table-page[data-status='playing']")
    return p


def no_errors(player: Player, *, allow: tuple[str, ...] = ()) -> None:
    errors = [e for e in player.errors if not any(a in e for a in allow)]
    assert not errors, errors


def sent(p: Player, kind: str) -> list[dict[str, Any]]:
    return [m for m in p.sent if m.get("type") == kind]


def both_sizes(p: Player, name: str) -> None:
    p.page.set_viewport_size(DESKTOP)
    p.page.wait_for_timeout(300)
    shot(p.page, f"{name}-desktop")
    p.page.set_viewport_size(PHONE)
    p.page.wait_for_timeout(300)
    shot(p.page, f"{name}-phone")


def arabic(p: Player, name: str, selector: str) -> None:
    """A phone screenshot of the same screen in Arabic (right to left), then back."""
    page = p.page
    page.set_viewport_size(PHONE)
    choose_language(page, "ar")
    page.wait_for_function("document.documentElement.dir === 'rtl'")
    page.wait_for_selector(selector)
    page.wait_for_timeout(300)
    shot(page, name)
    choose_language(page, "en")
    page.wait_for_function("document.documentElement.dir === 'ltr'")
    page.wait_for_selector(selector)


def test_the_next_round_waits_behind_the_summary_then_resign(
        players: list[Player], browser: Browser, server: str) -> None:
    p = bot_table(players, browser, server, "Amira")
    page = p.page

    # A hint on the first turn: the medium bot's play, marked in the hand (and on the floor).
    assert p.wait_event() == "turn"
    page.click(".hint-button")
    page.wait_for_selector(".hand-card[data-hint='card']")
    hint = next(m for m in p.received if m.get("type") == "hint")
    assert hint["version"] == p.version()
    assert page.get_attribute(".hand-card[data-hint='card']", "data-card") == hint["card"]
    assert page.locator(".toast").filter(has_text="Hint:").count() == 1  # in words, too
    marked = page.eval_on_selector_all(".floor-card[data-hint='take']",
                                       "els => els.map(e => e.dataset.card)")
    assert sorted(marked) == sorted(hint["take"])
    assert page.is_disabled(".hint-button")
    page.click(f".hand-card[data-card='{hint['card']}']")
    if page.locator(".choice-bar:not([hidden])").count():
        take = sorted(hint["take"])
        options = p.state(p.version())["view"]["legal"]
        index = [sorted(o["take"]) for o in options if o["card"] == hint["card"]].index(take)
        page.click(f".choice-option[data-option='{index}']")
    p.wait("() => !document.querySelector('[data-hint]')")

    # The rest of round 1, by keys.
    while (event := p.wait_event(timeout=60)) == "turn":
        p.play_first(keyboard=True)
    assert event == "round-end"

    # The summary is up, the next round waits for this player: no clock, no deal, no part.
    page.wait_for_selector(".overlay-round .continue:not([disabled])")
    ended = p.version()
    state = p.state(ended)
    assert state["table"]["phase"] == "seeding" and state["table"]["clock"] is None
    waiting = state["table"]["next_round"]
    assert waiting["round"] == 2 and waiting["waiting_for"] == [0]
    assert 0 < waiting["remaining_ms"] <= SUMMARY_WINDOW * 1000
    first = int(page.get_attribute(".next-round-line .countdown", "data-second") or 0)
    assert 0 < first <= SUMMARY_WINDOW
    assert re.fullmatch(r"The next round starts in \d+ seconds?\.",
                        page.inner_text(".next-round-line .countdown"))
    both_sizes(p, "summary-continue")
    arabic(p, "summary-continue-ar-phone", ".overlay-round .continue")
    page.set_viewport_size(DESKTOP)
    page.wait_for_timeout(2500)
    assert p.version() == ended
    assert [m for m in sent(p, "seed") if m["round"] == 2] == []
    assert sent(p, "ready") == []
    later = int(page.get_attribute(".next-round-line .countdown", "data-second") or 0)
    assert later < first
    clocked = [(s["version"], s["view"]["round"], s["table"]["clock"]) for s in p.states
               if s["table"]["phase"] == "seeding" and s["table"]["clock"] is not None]
    assert clocked == []

    # Continue: this seat's part goes out, the round is dealt, the summary closes itself and
    # the clock runs from the deal.
    page.click(".overlay-round .continue")
    page.wait_for_selector(".overlay-round", state="detached")
    assert len([m for m in sent(p, "seed") if m["round"] == 2]) == 1
    p.wait("() => document.querySelector('.table-page').dataset.phase === 'playing'")
    dealt = next(s for s in p.states if s["view"]["round"] == 2)
    assert dealt["table"]["next_round"] is None
    assert p.next_turn() == "turn"
    assert p.state(p.version())["table"]["clock"]["seat"] == 0
    assert page.locator(".turn-clock:not([hidden])").count() == 1
    # Your turn shows in the tab's title and icon.
    assert page.title().startswith("● Your turn")
    assert page.get_attribute("link[rel~='icon']", "href").startswith("data:image/svg+xml")

    # Resign asks first: "Keep playing" sends nothing.
    page.click(".table-head .resign")
    page.wait_for_selector("dialog.basra-dialog[open]")
    assert page.inner_text("dialog[open] h2") == "Resign the match?"
    both_sizes(p, "resign-dialog")
    page.set_viewport_size(DESKTOP)
    page.click("dialog[open] [data-answer='no']")
    page.wait_for_selector("dialog.basra-dialog", state="detached")
    assert sent(p, "resign") == []
    assert page.evaluate("document.activeElement.classList.contains('resign')")
    page.click(".table-head .resign")
    page.click("dialog[open] [data-answer='yes']")
    page.wait_for_selector(".overlay-match .resigned-line")
    assert sent(p, "resign") == [{"type": "resign"}]
    final = p.state()
    assert final["table"]["status"] == "finished" and final["table"]["resigned"] == 0
    assert final["view"]["winner"] == 1
    assert page.inner_text(".overlay-match .resigned-line") == "You resigned."
    assert page.inner_text(".overlay-match h2") == "Bot (Medium) won the match"
    assert page.locator(".table-head .resign").count() == 0
    assert not page.title().startswith("●")
    # The match end leaves the site's header live: its Menu is what a tap there reaches.
    # (The header fits itself to the new width on the next frames: asked until then.)
    page.set_viewport_size(PHONE)
    on_top = """() => {
      const link = document.querySelector('#menu-button');
      const r = link.getBoundingClientRect();
      const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return link.contains(top) || (top ? `${top.tagName}.${top.className}` : "nothing");
    }"""
    try:
        page.wait_for_function(f"() => ({on_top})() === true", timeout=3000)
    except PlaywrightTimeout:
        raise AssertionError(f"the Menu button is under {page.evaluate(on_top)}") from None
    shot(page, "resigned-phone")
    no_errors(p)


def test_the_summary_waits_for_every_player(players: list[Player], browser: Browser,
                                            server: str) -> None:
    """Two players: the one who continued first is told whom the round still waits for,
    and it is dealt when the other continues too."""
    host = Player(browser, server, viewport=PHONE)
    players.append(host)
    host.sign_in("Host")
    host.page.click("#create-private")
    host.page.wait_for_url("**/table/*")
    host.page.wait_for_selector(".waiting-room .invite-link")
    link = host.page.input_value(".waiting-room .invite-link")
    guest = Player(browser, server)
    players.append(guest)
    guest.sign_in("Amira")
    guest.page.goto(link)
    both = (host, guest)
    for p in both:
        p.page.wait_for_selector(".table-page[data-status='playing']")
    ended = ".overlay-round .continue"
    while not all(p.page.locator(ended).count() for p in both):
        for p in both:
            if (p.dataset().get("turn") == "mine" and p.page.locator(".hand.my-turn").count()
                    and not p.page.locator(".overlay-round").count()):
                p.play_first(keyboard=True)
        host.page.wait_for_timeout(30)
    host.page.click(ended)
    host.page.wait_for_selector(".next-round-line .waiting-for")
    assert host.page.inner_text(".next-round-line .waiting-for") == "Waiting for Amira…"
    # the frames the test records reach Python a moment after the page drew them
    for _ in range(100):
        if host.state()["table"]["next_round"]["waiting_for"] == [1]:
            break
        host.page.wait_for_timeout(50)
    assert host.state()["table"]["next_round"]["waiting_for"] == [1]
    host.page.wait_for_timeout(300)
    shot(host.page, "summary-waiting-phone")
    version = host.version()
    host.page.wait_for_timeout(1000)
    assert host.version() == version and guest.page.locator(ended).count() == 1
    guest.page.click(ended)
    for p in both:
        p.page.wait_for_selector(".overlay-round", state="detached")
        p.wait("() => document.querySelector('.table-page').dataset.phase === 'playing'")
        assert len([m for m in sent(p, "seed") if m["round"] == 2]) == 1
        no_errors(p)


def test_plays_made_while_away_are_told_on_return(players: list[Player], browser: Browser,
                                                   server: str) -> None:
    p = bot_table(players, browser, server, "Away", viewport=PHONE)
    page = p.page
    assert p.wait_event() == "turn"
    p.play_first()
    assert p.wait_event() == "turn"
    # The network goes; past the grace a bot plays this seat (and the bot's own turns go on).
    p.context.set_offline(True)
    page.evaluate("window.basraTable.drop()")
    page.wait_for_selector(".conn-banner[data-state='lost']")
    page.wait_for_timeout(4500)
    p.context.set_offline(False)
    page.wait_for_selector(".away-panel", timeout=20000)
    away = [m for m in p.received if m.get("type") == "away"]
    assert len(away) == 1 and away[0]["plays"], away
    plays = away[0]["plays"]
    assert {x["reason"] for x in plays} == {"dropped"}
    # The state the server sent just before it holds those plays, made from this seat.
    at = max(i for i, m in enumerate(p.received) if m.get("type") == "away")
    state = next(m for m in reversed(p.received[:at]) if m.get("type") == "state")
    made = [(x["card"], sorted(x["take"])) for x in state["view"]["plays"] if x["seat"] == 0]
    assert [(x["card"], sorted(x["take"])) for x in plays] == made[-len(plays):]
    listed = page.eval_on_selector_all(".away-plays li", "els => els.map(e => e.dataset.card)")
    assert listed == [x["card"] for x in plays]
    assert page.inner_text(".away-panel h2") == "While you were away"
    lead = page.inner_text(".away-lead")
    assert re.fullmatch(r"The bot played \d+ cards? for you:", lead), lead
    page.wait_for_timeout(300)
    shot(page, "away-panel-phone")
    arabic(p, "away-panel-ar-phone", ".away-panel")
    page.set_viewport_size(DESKTOP)
    page.wait_for_timeout(300)
    shot(page, "away-panel-desktop")
    page.click(".away-panel [data-action='dismiss-away']")
    page.wait_for_selector(".away-panel", state="detached")
    no_errors(p, allow=("ERR_INTERNET_DISCONNECTED", "WebSocket connection"))


def test_leaving_asks_first_and_the_rules_open_over_the_table(
        players: list[Player], browser: Browser, server: str) -> None:
    p = bot_table(players, browser, server, "Leaver")
    page = p.page
    url = page.url
    assert p.wait_event() == "turn"
    p.play_first()

    # A header link: asked in the page; staying keeps the table.
    page.click(".site-nav a[data-nav='history']")
    page.wait_for_selector("dialog.basra-dialog[data-dialog='confirm'][open]")
    assert page.inner_text("dialog[open] h2") == "Leave the table?"
    page.click("dialog[open] [data-answer='no']")
    assert page.url == url and page.locator(".table-page").count() == 1
    # The browser's back button: asked too.
    page.go_back()
    page.wait_for_selector("dialog.basra-dialog[data-dialog='confirm'][open]")
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog.basra-dialog", state="detached")
    assert page.url == url and page.locator(".table-page").count() == 1

    # The rules open over the table (the header's link and the head's button), and close.
    version = p.version()
    page.click(".site-nav a[data-nav='rules']")
    page.wait_for_selector("dialog.basra-dialog[data-dialog='rules'][open] .rules-section")
    assert page.url == url
    assert "Egyptian" in page.inner_text("dialog[open] h2")
    assert page.locator("dialog[open] .points-table").count() == 1
    both_sizes(p, "rules-sheet")
    page.set_viewport_size(DESKTOP)
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog.basra-dialog", state="detached")
    page.click(".table-head [data-action='rules']")
    page.wait_for_selector("dialog.basra-dialog[data-dialog='rules'][open]")
    page.click("dialog[open] .dialog-close")
    page.wait_for_selector("dialog.basra-dialog", state="detached")
    assert page.url == url and p.version() >= version

    # Closing the tab: the browser's own prompt; answered "stay", the page stays.
    p.leave = False
    page.close(run_before_unload=True)
    page.wait_for_timeout(500)
    assert p.dialogs == ["beforeunload"]
    assert not page.is_closed()
    p.leave = True

    # Confirmed: off to the lobby.
    page.click(".site-nav a[data-nav='play']")
    page.click("dialog[open] [data-answer='yes']")
    page.wait_for_selector("#play-bot")
    assert "/table/" not in page.url
    no_errors(p)


def fake_played(game: dict[str, Any], *, seat: int, card: str, take: list[str], basra: int = 0,
                by_bot: bool = True, version: int | None = None) -> dict[str, Any]:
    """A ``played`` message following ``game`` as the server would send it (the page is then
    out of step with its table: a test ends soon after)."""
    view = game["view"]
    floor = [c for c in view["floor"] if c not in take] + ([] if take else [card])
    return {
        "type": "played", "version": version or game["version"] + 1, "round": view["round"],
        "seat": seat, "card": card, "take": take, "basra": basra, "by_bot": by_bot,
        "turn": 1 - seat, "deal": view["deal"], "hand": view["hand"],
        "hand_counts": view["hand_counts"], "floor": floor, "stock_count": view["stock_count"],
        "pile_counts": view["pile_counts"], "basras": view["basras"],
        "basra_points": view["basra_points"], "last_taker": view["last_taker"],
        "legal": [], "clock": None,
    }


def seen(p: Player, state: str) -> None:
    """The page as if its tab were put behind another one ("hidden") or brought back."""
    p.page.evaluate("""(state) => {
      Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => state});
      document.dispatchEvent(new Event('visibilitychange'));
    }""", state)


def feed(p: Player, message: dict[str, Any]) -> None:
    p.page.evaluate("(m) => window.basraTable.handlers.onMessage(m)", message)


def test_a_bot_play_for_you_is_told_now_or_when_the_page_shows(
        players: list[Player], browser: Browser, server: str) -> None:
    """Your clock ran out (a played message by the bot from your seat): told at once when
    the page is in view; kept while it is hidden, then shown as "While you were away"."""
    p = bot_table(players, browser, server, "Slow")
    page = p.page
    assert p.wait_event() == "turn"
    game = p.state(p.version())
    first, second = game["view"]["hand"][:2]
    feed(p, fake_played(game, seat=0, card=first, take=[]))
    toast = page.locator(".toast", has_text="Your time ran out")
    toast.wait_for()
    assert "the bot played" in toast.inner_text()
    seen(p, "hidden")
    feed(p, fake_played(game, seat=0, card=second, take=[], version=game["version"] + 2))
    page.wait_for_timeout(300)
    assert page.locator(".away-panel").count() == 0
    seen(p, "visible")
    page.wait_for_selector(".away-panel")
    assert page.eval_on_selector_all(".away-plays li", "els => els.map(e => e.dataset.card)") \
        == [second]
    assert page.inner_text(".away-lead") == "Your time ran out: the bot played 1 card for you:"
    page.click("[data-action='dismiss-away']")
    # A whole state (a round's last play comes so) while hidden: this seat's new play in
    # it was the bot's, told the same way; the other seat's is not.
    third = game["view"]["hand"][2]
    later = json.loads(json.dumps(game))
    later["version"] = game["version"] + 5
    fed = [{"seat": 0, "card": c, "take": [], "basra": 0} for c in (first, second)]
    later["view"]["plays"] = [*game["view"]["plays"], *fed,
                              {"seat": 0, "card": third, "take": [], "basra": 0},
                              {"seat": 1, "card": "KS", "take": [], "basra": 0}]
    seen(p, "hidden")
    feed(p, later)
    seen(p, "visible")
    page.wait_for_selector(".away-panel")
    assert page.eval_on_selector_all(".away-plays li", "els => els.map(e => e.dataset.card)") \
        == [third]
    no_errors(p)


def test_a_basra_is_told_without_motion(players: list[Player], browser: Browser,
                                        server: str) -> None:
    """With reduced motion the basra banner still shows (standing still) and is read out."""
    p = bot_table(players, browser, server, "Still", viewport=PHONE, reduced_motion=True,
                  watch=True)
    page = p.page
    assert p.wait_event() == "turn"
    game = p.state(p.version())
    # The bot sweeps the floor (a card nobody holds: the page only shows what it is told).
    card = next(c for c in ("7H", "7S", "7D", "7C") if c not in game["view"]["hand"]
                and c not in game["view"]["floor"])
    # A real basra of the bot's just before (its banner stands 2.6 s) is not this one.
    page.wait_for_selector(".basra-burst", state="detached", timeout=5000)
    _, earlier = p.told()
    feed(p, fake_played(game, seat=1, card=card, take=game["view"]["floor"], basra=10))
    burst = page.locator(".basra-burst.still")
    burst.wait_for(state="visible")
    page.wait_for_timeout(600)
    assert burst.is_visible()
    assert page.evaluate("getComputedStyle(document.querySelector('.basra-burst')).opacity") == "1"
    assert burst.inner_text().startswith("Basra!")
    shot(page, "basra-still-phone")
    announced, bursts = p.told()
    assert any("Basra, 10 points!" in a for a in announced), announced
    assert bursts[len(earlier):] == ["Bot (Medium) +10"]
    page.wait_for_selector(".basra-burst", state="detached", timeout=5000)
    no_errors(p)


def test_the_mute_is_remembered(players: list[Player], browser: Browser, server: str) -> None:
    p = bot_table(players, browser, server, "Quiet", viewport=PHONE)
    page = p.page
    toggle = ".table-head .sound-toggle"
    assert page.get_attribute(toggle, "aria-pressed") == "false"
    page.click(toggle)
    assert page.get_attribute(toggle, "aria-pressed") == "true"
    # the mute is the "sound" setting (issue 30: /settings shows the same)
    assert page.evaluate("JSON.parse(localStorage.getItem('basra.settings')).sound") is False
    page.reload()
    page.wait_for_selector(".table-page[data-status='playing']")
    assert page.get_attribute(toggle, "aria-pressed") == "true"
    page.click(toggle)
    page.reload()
    page.wait_for_selector(".table-page[data-status='playing']")
    assert page.get_attribute(toggle, "aria-pressed") == "false"
    # Reloading mid-match asked first (the browser's prompt, answered "leave").
    assert set(p.dialogs) <= {"beforeunload"}
    # Sounds are asked for as the game goes: a card laid or a capture, then your turn.
    assert p.wait_event() == "turn"
    p.play_first()
    assert p.wait_event() == "turn"
    heard: list[str] = []
    for _ in range(20):  # the turn's sound comes a moment after the play's
        heard = page.evaluate("""async () => {
          const main = document.querySelector("script[type=module][src*='/js/main.js']").src;
          return (await import(main.replace('/js/main.js', '/js/table/sound.js'))).heard;
        }""")
        if heard and heard[-1] == "turn":
            break
        page.wait_for_timeout(100)
    assert heard[-1] == "turn" and {"play", "capture", "basra"} & set(heard), heard
    no_errors(p)
