"""The lessons in a real browser against a real ``basra serve`` (issue 29), at 360 px in
English and Arabic: a newcomer opens /learn from the lobby's nudge, finishes the
sum-capture lesson (a wrong tap first: it is told why, then the right one), the lesson is
ticked and the nudge is gone; a take chosen like the table's; a counting question; then
"Practice against an easy bot with hints" opens a table against the easy bot where Hint marks
a legal play and says why. Card names and sums read left to right inside the Arabic
sentences; nothing is wider than the screen; every control is 44 px or more. Screenshots in
test-output/screenshots/ (learn-*.png)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from web.test_account import LOCALES, catalogue, new_player, no_errors
from web_helpers import PHONE, Player, basra_server, shot

pytestmark = pytest.mark.slow

CARDS = "els => els.map(e => e.dataset.card)"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with basra_server(tmp_path_factory.mktemp("learn")) as base:
        yield base


def fits(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width


def plain(text: str) -> str:
    """A catalogue text's words before its first placeholder (what a test can look for)."""
    return re.split(r"\{\w+\}", text)[0].strip()


def targets_are_big(page: Page) -> None:
    """Every button and link of the page's content is at least 44 px high (and wide)."""
    small = page.evaluate("""() => Array.from(document.querySelectorAll(
        '#app button, #app a'), (e) => {
          const r = e.getBoundingClientRect();
          return { text: e.textContent.trim().slice(0, 30), w: r.width, h: r.height,
                   shown: r.width > 0 && getComputedStyle(e).visibility !== 'hidden' };
        }).filter((e) => e.shown && (e.h < 44 || e.w < 44))""")
    assert not small, small


def isolated_card_names(page: Page, where: str) -> list[dict[str, Any]]:
    """Each card name in ``where``: a left-to-right isolate, its rank drawn left of its
    suit (so "7♥" never reads "♥7" in an Arabic sentence)."""
    names: list[dict[str, Any]] = page.evaluate("""(where) => Array.from(
        document.querySelectorAll(where + ' .card-name'), (e) => {
          const node = e.firstChild, range = document.createRange();
          range.setStart(node, 0); range.setEnd(node, 1);
          const rank = range.getBoundingClientRect();
          range.setStart(node, node.length - 1); range.setEnd(node, node.length);
          const suit = range.getBoundingClientRect();
          return { text: e.textContent, tag: e.tagName, dir: e.dir,
                   bidi: getComputedStyle(e).unicodeBidi, rankFirst: rank.left < suit.left };
        })""", where)
    assert names
    for n in names:
        assert n["tag"] == "BDI" and n["dir"] == "ltr" and n["bidi"] == "isolate", n
        assert n["rankFirst"], n
    return names


def tap(page: Page, card: str) -> None:
    page.click(f".learn-hand .hand-card[data-card='{card}']")


@pytest.mark.parametrize("lang", ["ar"])
def test_a_newcomer_learns_the_sum_and_practises_with_hints(
        players: list[Player], browser: Browser, server: str, lang: str) -> None:
    words = catalogue(lang)
    p = new_player(players, browser, server, viewport=PHONE, locale=LOCALES[lang])
    page = p.page

    # The lobby's nudge, on a first visit.
    page.goto(server + "/")
    page.wait_for_selector("#learn-nudge")
    assert page.inner_text("#learn-nudge-link") == words["learn.nudge.text"]
    assert page.evaluate("document.documentElement.dir") == ("rtl" if lang == "ar" else "ltr")
    fits(page)
    shot(page, f"learn-nudge-{lang}")
    page.click("#learn-nudge-link")
    page.wait_for_selector(".learn-list")
    assert page.url == server + "/learn"
    assert page.locator(".learn-item").count() == 11
    assert page.locator(".learn-item[data-done='true']").count() == 0
    assert words["learn.start"] in page.inner_text("#learn-go")
    fits(page)
    targets_are_big(page)
    shot(page, f"learn-list-{lang}", full_page=True)

    # The sum lesson: a wrong tap is told why, then the right one.
    page.click(".learn-item[data-lesson='sum'] a")
    page.wait_for_selector(".learn-board[data-step='0']")
    assert page.url == server + "/learn/sum"
    assert page.inner_text(".learn-title") == words["learn.lesson.sum.title"]
    assert page.inner_text(".learn-goal-text") == words["learn.goal.take"]
    fits(page)
    targets_are_big(page)
    shot(page, f"learn-sum-1-{lang}")
    tap(page, "5D")
    page.wait_for_selector(".learn-feedback.wrong")
    said = page.inner_text(".learn-feedback")
    assert words["learn.wrong"] in said
    assert words["learn.why.take"] in said
    assert page.locator(".learn-feedback [data-key='learn.fb.lay']").count() == 1
    isolated_card_names(page, ".learn-feedback")
    # The laid card shows on the floor, the hand can no longer be played.
    assert page.locator(".learn-floor .floor-card[data-card='5D']").count() == 1
    fits(page)
    shot(page, f"learn-sum-wrong-{lang}")
    page.click("#learn-again")
    page.wait_for_selector(".learn-hand.my-turn")
    tap(page, "10S")
    page.wait_for_selector(".learn-feedback.right")
    said = page.inner_text(".learn-feedback")
    assert words["learn.right"] in said and "7 + 3 = 10" in said
    names = isolated_card_names(page, ".learn-feedback")
    assert [n["text"] for n in names][:1] == ["10♠"]
    sums = page.evaluate("""() => Array.from(
        document.querySelectorAll('.learn-feedback .learn-sum'),
        (e) => ({ dir: e.dir, bidi: getComputedStyle(e).unicodeBidi, text: e.textContent }))""")
    assert sums == [{"dir": "ltr", "bidi": "isolate", "text": "7 + 3 = 10"}]
    taken = page.eval_on_selector_all(".learn-floor .learn-taken", CARDS)
    assert sorted(taken) == ["3C", "7H"]
    fits(page)
    shot(page, f"learn-sum-right-{lang}")
    page.click("#learn-next")
    page.wait_for_selector(".learn-board[data-step='1']")
    tap(page, "7C")
    page.wait_for_selector(".learn-feedback.right")
    assert page.locator(".learn-feedback [data-key='learn.fb.points']").count() == 1
    page.click("#learn-next")
    page.wait_for_selector(".learn-board[data-step='2']")
    tap(page, "6C")  # takes two cards: another takes three
    page.wait_for_selector(".learn-feedback.wrong")
    assert words["learn.why.most-cards"] in page.inner_text(".learn-feedback")
    page.click("#learn-again")
    tap(page, "9H")
    page.wait_for_selector(".learn-feedback.right")
    assert page.inner_text("#learn-next") == words["learn.finish"]
    page.click("#learn-next")
    page.wait_for_selector(".learn-done")
    assert page.inner_text(".learn-done h1") == words["learn.lesson_done"]
    assert words["learn.lesson.match-and-sum.title"] in page.inner_text("#learn-next-lesson")
    fits(page)
    targets_are_big(page)
    shot(page, f"learn-sum-done-{lang}")
    kept = page.evaluate("Object.keys(JSON.parse(localStorage.getItem('basra.lessons') || '{}'))")
    assert kept == ["sum"]

    # Ticked on the list; the lobby's nudge is gone.
    page.click(".learn-done a[href='/learn']")
    page.wait_for_selector(".learn-item[data-lesson='sum'][data-done='true']")
    assert page.locator(".learn-item[data-done='true']").count() == 1
    assert words["learn.continue"] in page.inner_text("#learn-go")
    page.goto(server + "/")
    page.wait_for_selector("#play-bot")
    assert page.locator("#learn-nudge").count() == 0

    # A take chosen as at the table, and a question of the counting lesson.
    page.goto(server + "/learn/choose-take")
    tap(page, "9D")
    page.wait_for_selector(".learn-choice .choice-option")
    assert page.locator(".learn-choice .choice-option").count() == 2
    isolated_card_names(page, ".learn-choice")
    fits(page)
    shot(page, f"learn-choose-{lang}")
    choice = page.eval_on_selector_all(".learn-choice .choice-option",
                                       "els => els.map(e => e.textContent)")
    right = next(i for i, text in enumerate(choice) if "A" in text)
    page.click(f".learn-choice .choice-option[data-option='{right}']")
    page.wait_for_selector(".learn-feedback.right")
    page.goto(server + "/learn/counting")
    page.click(".learn-option[data-value='4']")
    page.wait_for_selector(".learn-feedback.wrong")
    assert "= ?" in page.inner_text(".learn-feedback")  # the parts, not the total
    page.click("#learn-again")
    page.click(".learn-option[data-value='7']")
    page.wait_for_selector(".learn-feedback.right")
    isolated_card_names(page, ".learn-feedback")
    # The tally reads left to right, its total last, in Arabic too.
    tally = page.evaluate("""() => {
        const e = document.querySelector('.learn-feedback .learn-tally');
        const last = e.lastChild, range = document.createRange();
        range.setStart(last, last.length - 1); range.setEnd(last, last.length);
        return { text: e.textContent, dir: getComputedStyle(e).direction,
                 first: e.querySelector('.card-name').getBoundingClientRect().left,
                 total: range.getBoundingClientRect().left };
    }""")
    assert tally["text"] == "J♠ 1 + A♥ 1 + 2♣ 2 + 10♦ 3 = 7" and tally["dir"] == "ltr", tally
    assert tally["first"] < tally["total"], tally
    fits(page)
    shot(page, f"learn-counting-{lang}", full_page=True)

    # Practice against the easy bot, with hints.
    page.goto(server + "/learn")
    page.click("#learn-practice")
    page.wait_for_url("**/table/**", timeout=15000)
    table = page.url.rsplit("/", 1)[1]
    assert page.evaluate(f"sessionStorage.getItem('basra.hints.{table}')") == "1"
    assert p.next_turn() == "turn"
    state = p.state(p.version())
    assert state["table"]["variant"] == "egyptian"
    bots = [s for s in state["table"]["players"] if s.get("kind") == "bot"]
    assert bots and all("easy" in str(s.get("name", "")) for s in bots), bots
    page.click(".hint-button")
    page.wait_for_selector(".hand-card[data-hint='card']")
    page.wait_for_selector(".toast .practice-hint")
    card = page.get_attribute(".hand-card[data-hint='card']", "data-card")
    take = page.eval_on_selector_all(".floor-card[data-hint='take']", CARDS)
    legal = [(x["card"], sorted(x["take"])) for x in state["view"]["legal"]]
    assert (card, sorted(take)) in legal
    said = page.inner_text(".toast .practice-hint")
    assert said.startswith(words["hint.button"])
    # The hint was the page's own: nothing asked of the server.
    assert not [m for m in p.sent if m.get("type") == "hint"]
    isolated_card_names(page, ".toast")
    fits(page)
    page.wait_for_timeout(1200)  # the last flights land before the picture
    shot(page, f"learn-practice-hint-{lang}")
    no_errors(p)


CHOOSE = """async (views) => {
  const main = document.querySelector('script[type="module"][src*="main.js"]').src;
  const { chooseHint } = await import(new URL('table/hint.js', main).href);
  return views.map(([variant, view]) => {
    const hint = chooseHint(view, variant);
    return hint && [hint.card, hint.take.slice().sort(), hint.why.key];
  });
}"""


def view(hand: str, floor: str, legal: list[tuple[str, str]], *, hands: int = 3,
         stock: int = 20) -> dict[str, Any]:
    """A seat's view with what the hint reads: hand, floor, legal plays, counts."""
    return {"hand": hand.split(), "floor": floor.split(), "stock_count": stock,
            "hand_counts": [hands, hands], "legal": [
                {"card": card, "take": take.split()} for card, take in legal]}


def test_the_practice_hint_chooses_and_says_why(players: list[Player], browser: Browser,
                                                server: str) -> None:
    """The practice table's hint (table/hint.js) on views made for it: a basra first (the
    biggest), then the take worth the most points, a sweeper kept when its sweep scores
    nothing and something else takes, and else the card to lay that leaves no basra."""
    p = new_player(players, browser, server, viewport=PHONE)
    p.page.goto(server + "/learn")
    p.page.wait_for_selector(".learn-list")
    cases: list[tuple[str, dict[str, Any]]] = [
        # 9♠ clears 4♥ 5♣: a basra, before the 5♦ that takes the 5♣ alone.
        ("egyptian", view("9S 5D", "4H 5C", [("9S", "4H 5C"), ("5D", "5C")])),
        # The 8♥ takes 6♦ 2♣ (the 2♣ is worth 2) rather than 5♣ 3♠.
        ("egyptian", view("8H QD", "5C 3S 6D 2C", [("8H", "5C 3S"), ("8H", "6D 2C"),
                                                    ("QD", "")])),
        # A Jack sweeping 9♥ 5♦ (no points) is kept: the 9♣ takes the 9♥.
        ("egyptian", view("JC 9C", "9H 5D", [("JC", "9H 5D"), ("9C", "9H")])),
        # In the 101 game the same Jack's sweep is a basra: it is the hint.
        ("arabic101", view("JC 9C", "9H 5D", [("JC", "9H 5D"), ("9C", "9H")])),
        # Nothing takes: the K leaves K 3 (no basra to make), the 7 would leave 3 + 7 = 10.
        ("egyptian", view("7S KH", "3C", [("7S", ""), ("KH", "")])),
    ]
    chosen = p.page.evaluate(CHOOSE, cases)
    assert chosen == [
        ["9S", ["4H", "5C"], "hint.why.basra"],
        ["8H", ["2C", "6D"], "hint.why.take_points"],
        ["9C", ["9H"], "hint.why.take"],
        ["JC", ["5D", "9H"], "hint.why.basra"],
        ["KH", [], "hint.why.lay"],
    ], chosen
    no_errors(p)
