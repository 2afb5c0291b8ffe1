"""Quick phrases and reactions in the browser (Debian's chromium through Playwright against a
real ``basra serve``): two players at a private table, one page in English and one in Arabic,
send phrases and reactions; each sees the other's in their own language, by the sender's
name and read out; one mutes the other (kept for the table over a reload) and no longer sees
their phrases while the other still sends; the panel keeps the gap between two and the limit
of a match (the 13th is refused, and the panel says none are left). Screenshots go to
test-output/screenshots/ (phrases-*.png)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from web_helpers import DESKTOP, PHONE, Player, basra_server, post, seated, shot

pytestmark = pytest.mark.slow

GAP_S = 1.0
"""The server's least time between two phrases of one seat (--saying-gap)."""
PER_MATCH = 12


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    # Nobody plays: phrases need no play, and a 30 s clock holds the table still.
    with basra_server(tmp_path_factory.mktemp("webphrases"), "--bot-delay", "0",
                      "--grace", "5", "--seed-window", "0", "--summary-window", "0",
                      "--saying-gap", str(GAP_S)) as base:
        yield base




def saids(p: Player, seat: int) -> list[dict[str, Any]]:
    return [m for m in p.received if m.get("type") == "said" and m["seat"] == seat]


def errors(p: Player, code: str) -> list[dict[str, Any]]:
    return [m for m in p.received if m.get("type") == "error" and m.get("code") == code]


def wait_for(p: Player, test: Any, what: str, timeout: float = 10) -> None:
    """Wait (bounded) until `test()` holds for what the page received."""
    for _ in range(int(timeout * 20)):
        if test():
            return
        p.page.wait_for_timeout(50)
    raise AssertionError(f"never: {what}")


def open_table(p: Player, table: str) -> Page:
    p.page.goto(f"{p.base}/table/{table}")
    p.page.wait_for_selector(".table-page[data-status='playing'] .say-toggle")
    return p.page


def no_errors(p: Player) -> None:
    assert not p.errors, p.errors


def test_two_languages_mute_and_the_limit(players: list[Player], browser: Browser,
                                          server: str) -> None:
    amira = post(server, "/api/guests", {"nickname": "Amira"})
    zeina = post(server, "/api/guests", {"nickname": "Zeïna"})
    made = post(server, "/api/tables/private", {"variant": "egyptian"}, amira["token"])
    table = made["table"]["id"]
    post(server, "/api/tables/join", {"invite_code": made["table"]["invite_code"]},
         zeina["token"])
    a = seated(players, browser, server, amira, watch=True, viewport=DESKTOP)
    z = seated(players, browser, server, zeina, watch=True, viewport=PHONE, locale="ar-EG")
    pa = open_table(a, table)
    pz = open_table(z, table)
    assert pz.evaluate("document.documentElement.dir") == "rtl"

    # Amira's panel: the seven phrases in English, the five reactions, how many are left,
    # and a mute for the other person at the table.
    pa.click(".say-toggle")
    pa.wait_for_selector(".say-panel")
    assert pa.get_attribute(".say-toggle", "aria-expanded") == "true"
    assert pa.locator(".say-phrase").all_inner_texts() == [
        "Hello!", "Good luck!", "Have fun!", "Well played!", "Thanks!", "Good game!", "Bye!"]
    labels = pa.eval_on_selector_all(".say-reaction", "els => els.map((e) => e.ariaLabel)")
    assert labels == ["Applause", "Laughing", "Wow", "Sad", "Love"]
    assert pa.inner_text(".say-left") == "12 left this match"
    assert pa.inner_text(".mute-seat") == "Mute Zeïna"
    assert pa.get_attribute(".mute-seat", "aria-pressed") == "false"
    assert pa.evaluate("document.activeElement.dataset.phrase") == "hello"  # focus moved in
    shot(pa, "phrases-panel-desktop")

    # "Good luck!": the panel rests for the gap at once; one sent anyway within it (past the
    # panel) is refused by the server and said briefly, not a crash.
    pa.click(".say-phrase[data-phrase='good_luck']")
    assert pa.locator(".say-panel.resting .say-phrase[aria-disabled='true']").count() == 7
    assert pa.inner_text(".say-note") == "A moment before the next one…"
    pa.evaluate("window.basraTable.send({ type: 'say', phrase: 'hello' })")
    wait_for(a, lambda: errors(a, "say/too_fast"), "the gap refused")
    pa.wait_for_selector(".toast:has-text('Not so fast')")
    sent = [m for m in a.sent if m.get("type") == "say"]
    assert sent == [{"type": "say", "phrase": "good_luck"}, {"type": "say", "phrase": "hello"}]

    # Each page in its own language, by the sender's name, and read out.
    pz.wait_for_selector(".seat-plate[data-seat='0'] .say-bubble[data-said='good_luck']")
    assert pz.inner_text(".seat-plate[data-seat='0'] .say-bubble") == "بالتوفيق!"
    pa.wait_for_selector(".me-who .say-bubble[data-said='good_luck']")
    assert pa.inner_text(".me-who .say-bubble") == "Good luck!"
    # read out a moment after the bubble shows (the announcer's text is set on a timer)
    wait_for(z, lambda: "Amira: بالتوفيق!" in z.told()[0], "the phrase read out")
    assert saids(z, 0) == [{"type": "said", "seat": 0, "phrase": "good_luck", "count": 1}]
    pa.wait_for_selector(".say-left[data-left='11']")
    pz.wait_for_timeout(300)
    shot(pz, "phrases-bubble-ar-phone")
    shot(pa, "phrases-bubble-desktop")

    # Zeïna answers with a reaction from her panel, in Arabic.
    pz.click(".say-toggle")
    pz.wait_for_selector(".say-panel")
    assert pz.inner_text(".say-phrase[data-phrase='thanks']") == "شكرًا!"
    assert pz.inner_text(".mute-seat") == "اكتم Amira"
    shot(pz, "phrases-panel-ar-phone")
    pz.click(".say-reaction[data-reaction='clap']")
    pa.wait_for_selector(".seat-plate[data-seat='1'] .say-bubble[data-said='clap'] .reaction-clap")
    wait_for(a, lambda: "Zeïna: Applause" in a.told()[0], "the reaction read out")
    shot(pa, "phrases-reaction-desktop")
    pa.set_viewport_size(PHONE)
    pa.wait_for_timeout(200)
    shot(pa, "phrases-panel-phone")
    pa.set_viewport_size(DESKTOP)

    # Amira mutes Zeïna: her bubble goes, and what she says next is not shown (nor logged),
    # though it still comes, and Zeïna still sends and sees it.
    pa.click(".mute-seat[data-seat='1']")
    assert pa.get_attribute(".mute-seat[data-seat='1']", "aria-pressed") == "true"
    assert pa.locator(".seat-plate[data-seat='1'] .say-bubble").count() == 0
    assert pa.evaluate(f"sessionStorage.getItem('basra.mute.{table}')") == "[1]"
    pz.wait_for_selector(".say-panel:not(.resting)", timeout=5000)
    pz.click(".say-phrase[data-phrase='thanks']")
    wait_for(a, lambda: any(m.get("phrase") == "thanks" for m in saids(a, 1)), "thanks came")
    pz.wait_for_selector(".me-who .say-bubble[data-said='thanks']")
    pa.wait_for_timeout(300)
    assert pa.locator(".say-bubble[data-said='thanks']").count() == 0
    log = pa.inner_text(".log-panel")
    assert "شكرًا" not in log and "Thanks!" not in log
    assert not any("Thanks" in line for line in a.told()[0])

    # The mute is kept for the table: after a reload Zeïna's phrases stay hidden.
    pa.reload()
    pa.wait_for_selector(".table-page[data-status='playing'] .say-toggle")
    pa.click(".say-toggle")
    assert pa.get_attribute(".mute-seat[data-seat='1']", "aria-pressed") == "true"
    assert pa.inner_text(".say-left") == "11 left this match"  # the server's count
    pz.wait_for_selector(".say-panel:not(.resting)", timeout=5000)
    pz.click(".say-phrase[data-phrase='good_game']")
    wait_for(a, lambda: any(m.get("phrase") == "good_game" for m in saids(a, 1)), "it came")
    pa.wait_for_timeout(300)
    assert pa.locator(".say-bubble").count() == 0

    # The limit: eleven more, each once the gap is over; then none left, said in the panel.
    ids = ["hello", "have_fun", "well_played", "thanks", "good_game", "bye"]
    for n in range(2, PER_MATCH + 1):
        pa.wait_for_selector(".say-panel:not(.resting)", timeout=5000)
        pa.click(f".say-phrase[data-phrase='{ids[n % len(ids)]}']")
        wait_for(a, lambda n=n: any(m["count"] == n for m in saids(a, 0)), f"said #{n}")
    pa.wait_for_selector(".say-left[data-left='0']")
    assert pa.inner_text(".say-left") == "0 left this match"
    assert pa.inner_text(".say-note") == "You have said all you can this match."
    assert pa.locator(".say-phrase[aria-disabled='true']").count() == 7
    assert pa.locator(".say-reaction[aria-disabled='true']").count() == 5
    assert pa.get_attribute(".say-toggle", "title") == "Phrases and reactions (0 left)"
    assert pa.text_content(".say-toggle .sr-only") == ", 0 left this match"
    shot(pa, "phrases-none-left-desktop")
    before = len(a.sent)
    pa.wait_for_timeout(int(GAP_S * 1000) + 100)
    pa.click(".say-phrase[data-phrase='bye']", force=True)  # the panel sends nothing
    pa.wait_for_timeout(200)
    assert [m for m in a.sent[before:] if m.get("type") in ("say", "react")] == []
    # The 13th, past the panel: the server refuses it.
    pa.evaluate("window.basraTable.send({ type: 'react', reaction: 'heart' })")
    wait_for(a, lambda: errors(a, "say/limit"), "the limit refused")
    pa.wait_for_selector(".toast:has-text('You have said all you can this match.')")
    assert [m["count"] for m in saids(z, 0)] == list(range(1, PER_MATCH + 1))
    assert pa.locator(".table-page[data-status='playing']").count() == 1
    no_errors(a)
    no_errors(z)
