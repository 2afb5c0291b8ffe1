"""The screen-reader table (issue 30, table/reader.js), driven only through the
accessibility tree (roles and accessible names) and the keyboard: a guest with the reader
setting on plays a whole short egyptian match against the random bot by typing commands,
and the log (a live region) must have told every play of the match's record once, naming
its card and each card it took; then one round in Arabic. Screenshots at 360 px go to
test-output/screenshots/reader-*.png."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from web_helpers import PHONE, ROOT, Player, basra_server, post, seated, shot

pytestmark = pytest.mark.slow

WEB = ROOT / "src" / "basra" / "web"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
DECK = [r + s for s in "CDHS" for r in RANKS]
READER_ON = "localStorage.setItem('basra.settings', JSON.stringify({reader: true}));"
FOCUSED = "() => document.activeElement?.id === 'reader-command'"
"""The command line has the focus (where the game starts)."""
LOG_WATCH = """(() => {
  // Every entry the reader's log (role "log", a live region) is given, in order.
  window.__readerLog = [];
  new MutationObserver((records) => {
    for (const r of records) for (const node of r.addedNodes) {
      if (node.nodeType === Node.ELEMENT_NODE && node.parentElement
          && node.parentElement.getAttribute('role') === 'log') {
        window.__readerLog.push({kind: node.className, text: node.textContent});
      }
    }
  }).observe(document, { childList: true, subtree: true });
})();"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with basra_server(tmp_path_factory.mktemp("readerdata")) as base:
        yield base


def catalogue(lang: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((WEB / "i18n" / f"{lang}.json").read_text("utf-8"))
    return data


def card_names(lang: str) -> dict[str, str]:
    """Each card's spoken name in ``lang``, as lib/cards.js's cardName says it."""
    cat = catalogue(lang)
    names = {}
    for card in DECK:
        special = cat.get(f"card.special.{card}")
        names[card] = special or cat["card.name"].format(
            rank=cat[f"rank.name.{card[:-1]}"], suit=cat[f"suit.name.{card[-1]}"])
    return names


class ReaderTable:
    """The screen-reader table of one page, reached by roles and names only."""

    def __init__(self, page: Page, lang: str) -> None:
        self.page = page
        self.cat = catalogue(lang)
        self.region = page.get_by_role("region", name=self.cat["reader.title"])
        self.command = page.get_by_role("textbox", name=self.cat["reader.command"])
        self.log = page.get_by_role("log", name=self.cat["reader.log"])
        self.answer = self.region.get_by_role("status")

    def hand(self) -> list[str]:
        items: list[str] = self.region.get_by_role("list", name=self.cat["table.hand"]) \
            .get_by_role("listitem").all_inner_texts()
        return items

    def last_entry(self) -> str:
        items = self.log.get_by_role("listitem")
        return items.last.inner_text() if items.count() else ""

    def say(self, text: str) -> None:
        """Type a command into the command line and send it with Enter."""
        self.command.focus()
        self.page.keyboard.type(text)
        self.page.keyboard.press("Enter")

    def wait_turn(self, timeout: float = 40) -> str:
        """Wait until it is this page's turn ("turn"), a round's summary opens
        ("round-end") or the match is over ("finished")."""
        your_turn = self.cat["reader.your_turn"]
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            dialog = self.page.get_by_role("dialog")
            if dialog.count():
                if dialog.get_by_role("button", name=self.cat["end.rematch"]).count():
                    return "finished"
                if dialog.get_by_role("button", name=self.cat["round_end.continue"]).count():
                    return "round-end"
            if self.last_entry() == your_turn:
                return "turn"
            self.page.wait_for_timeout(60)
        raise AssertionError("no turn, summary or end came")

    def play(self, how: str, turn: int) -> None:
        """Play one card by a command (``how``: "number", "name" or "key"), choosing the
        last take when the card has several; wait until the page told the play."""
        before = self.told_count()
        self.answer.evaluate("e => { e.textContent = ''; }")  # a new answer only
        hand = self.hand()
        assert hand, "the hand is empty on this page's turn"
        if how == "name":
            # "1. seven of diamonds, takes 3C" -> the card's name, as a player would say it.
            first = re.sub(r"^\d+\.\s*", "", hand[0]).split(self.cat["list.sep"])[0]
            self.say(first)
        elif how == "key":
            # A single key with the focus on the table (the Go button), not in the field.
            self.command.focus()
            self.page.keyboard.press("Tab")
            self.page.keyboard.press("1")
        else:
            self.say(f"{self.cat['reader.cmd.play'].split()[0]} 1")
        deadline = time.monotonic() + 15
        took = False
        while self.told_count() == before:
            # A card with several takes: the answer lists them ("1. takes ...; 2. ...").
            text = self.answer.inner_text()
            ways = re.findall(r"(\d+)\. ", text)
            if ways and not took:
                self.say(f"{self.cat['reader.cmd.take'].split()[0]} {max(map(int, ways))}")
                took = True
            assert time.monotonic() < deadline, f"turn {turn}: the play was not told ({text!r})"
            self.page.wait_for_timeout(40)

    def told_count(self) -> int:
        count: int = self.page.evaluate(
            "() => window.__readerLog.filter(e => e.kind.split(' ').includes('play')).length")
        return count

    def told(self) -> list[dict[str, str]]:
        entries: list[dict[str, str]] = self.page.evaluate("() => window.__readerLog")
        return entries


def reader_player(players: list[Player], browser: Browser, server: str, nickname: str,
                  locale: str) -> tuple[Player, dict[str, Any]]:
    who = post(server, "/api/guests", {"nickname": nickname})
    p = seated(players, browser, server, who, viewport=PHONE, locale=locale)
    p.context.add_init_script(READER_ON + LOG_WATCH)
    if locale.startswith("ar"):
        p.context.add_init_script("localStorage.setItem('basra.lang', 'ar');")
    return p, who


def bot_table(server: str, token: str) -> str:
    answer = post(server, "/api/tables/bot", {"variant": "egyptian", "players": 2,
                                              "bot_level": "random", "length": "short"}, token)
    table: str = answer["table"]["id"]
    return table


def round_plays(p: Player) -> dict[int, list[dict[str, Any]]]:
    """Each round's plays as the page's states held them (with their basra points)."""
    rounds: dict[int, list[dict[str, Any]]] = {}
    for state in p.states:
        view = state["view"]
        if view["round"] and len(view["plays"]) >= len(rounds.get(view["round"], [])):
            rounds[view["round"]] = view["plays"]
    return rounds


def check_told(entries: list[dict[str, str]], record: dict[str, Any], held: dict[int, list[Any]],
               lang: str, rounds: int | None = None) -> int:
    """Every play of the record's first ``rounds`` rounds was told once, in order: who, the
    card and each card taken named once (and nothing else named), a basra with its points."""
    cat = catalogue(lang)
    names = card_names(lang)
    you = cat["seat.you"]
    bot = cat["bot.name"].format(level=cat["bot.level.random"])
    said = cat["log.basra"]
    basra_word = (said["few"] if isinstance(said, dict) else said).split("{")[0].strip(" ،,")
    plays = [e["text"] for e in entries if "play" in e["kind"].split()]
    expected = [(number, index, play) for number, rnd in enumerate(record["rounds"][:rounds], 1)
                for index, play in enumerate(rnd["plays"])]
    assert len(plays) == len(expected), (len(plays), len(expected), plays[-3:])
    for text, (number, index, play) in zip(plays, expected, strict=True):
        named = sorted(card for card in DECK for _ in range(text.count(names[card])))
        assert named == sorted([play["card"], *play["take"]]), (text, play)
        seen = held[number][index]
        assert seen["card"] == play["card"] and sorted(seen["take"]) == sorted(play["take"])
        assert text.startswith(you if seen["seat"] == 0 else bot), text
        assert (basra_word in text) == bool(seen["basra"]), (text, seen)
        if seen["basra"]:
            assert str(seen["basra"]) in text
    return len(plays)


def test_a_whole_match_by_screen_reader_commands(players: list[Player], browser: Browser,
                                                 server: str) -> None:
    started = time.monotonic()
    p, who = reader_player(players, browser, server, "Reader", "en-US")
    page = p.page
    table_id = bot_table(server, who["token"])
    page.goto(f"{server}/table/{table_id}")
    rt = ReaderTable(page, "en")
    rt.region.wait_for()
    # The game starts with the focus on the command line (not the page's body).
    page.wait_for_function(FOCUSED, timeout=15000)
    assert rt.command.evaluate("e => e === document.activeElement")
    # The visual table is gone: the hand is a text list, not card buttons.
    assert page.get_by_role("toolbar", name="Your hand").count() == 0

    # Reading commands, typed and by key.
    assert rt.wait_turn() == "turn"
    rt.say("hand")
    rt.answer.filter(has_text=re.compile(r"^Your hand: 1\. ")).wait_for()
    rt.say("f")
    rt.answer.filter(has_text=re.compile(r"^(Floor: |The floor is empty)")).wait_for()
    rt.say("score")
    rt.answer.filter(has_text=re.compile(r"^Scores: You: ")).wait_for()
    rt.say("time")
    rt.answer.filter(has_text=re.compile(r"^(Time left: \d+ seconds?|No clock is running\.)$")) \
        .wait_for()
    rt.command.focus()
    page.keyboard.press("Tab")
    page.keyboard.press("l")
    rt.answer.filter(has_text=re.compile(r"(played|laid)|No play yet")).wait_for()
    rt.say("zebra")
    rt.answer.filter(has_text="No card in your hand is called “zebra”").wait_for()
    rt.say("help")
    rt.answer.filter(has_text="Commands: hand or H").wait_for()
    page.wait_for_timeout(300)
    shot(page, "reader-en-phone", full_page=True)

    turns = 0
    rounds_seen = 0
    ways = ["number", "name", "number", "key"]
    while True:
        event = rt.wait_turn()
        if event == "finished":
            break
        if event == "round-end":
            rounds_seen += 1
            if rounds_seen == 1:
                shot(page, "reader-en-round-end-phone", full_page=True)
            page.get_by_role("dialog").get_by_role("button", name="Continue").press("Enter")
            page.get_by_role("dialog").wait_for(state="detached")
            assert rt.command.evaluate("e => e === document.activeElement")
            continue
        rt.play(ways[turns % len(ways)], turns)
        turns += 1
        assert time.monotonic() - started < 240, "the match is taking too long"

    page.wait_for_timeout(300)
    shot(page, "reader-en-end-phone", full_page=True)
    record = page.request.get(f"{server}/api/tables/{table_id}/record").json()
    assert record["rounds"] and len(record["rounds"]) >= 1
    told = rt.told()
    n = check_told(told, record, round_plays(p), "en")
    assert n == sum(len(r["plays"]) for r in record["rounds"]) >= 48
    kinds = [e["kind"] for e in told]
    assert kinds.count("reader-event round") == len(record["rounds"])
    assert kinds.count("reader-event match") == 1
    assert told[-1]["text"].startswith(("You won the match!", "Bot (Random) won the match"))
    # Each play was told in the log only, never by the page's announcer as well.
    assert not [e for e in p.errors if "i18n" in e or "pageerror" in e], p.errors


def test_one_round_in_arabic(players: list[Player], browser: Browser, server: str) -> None:
    p, who = reader_player(players, browser, server, "قارئ", "ar-EG")
    page = p.page
    table_id = bot_table(server, who["token"])
    page.goto(f"{server}/table/{table_id}")
    rt = ReaderTable(page, "ar")
    rt.region.wait_for()
    page.wait_for_function("document.documentElement.dir === 'rtl'")
    page.wait_for_function(FOCUSED, timeout=15000)
    assert rt.wait_turn() == "turn"
    rt.say("ورقي")
    rt.answer.filter(has_text=re.compile(r"^ورقك: 1\. ")).wait_for()
    rt.say("الأرض")
    rt.answer.filter(has_text=re.compile(r"^(الأرض: |الأرض فارغة)")).wait_for()
    page.wait_for_timeout(300)
    shot(page, "reader-ar-phone", full_page=True)
    turns = 0
    while (event := rt.wait_turn()) == "turn":
        rt.play(["number", "name"][turns % 2], turns)
        turns += 1
    assert event == "round-end"
    shot(page, "reader-ar-round-end-phone", full_page=True)
    record = page.request.get(f"{server}/api/tables/{table_id}/record").json()
    told = rt.told()
    check_told(told, record, round_plays(p), "ar", rounds=1)
    assert [e["kind"] for e in told].count("reader-event round") == 1
    assert turns == 24
    assert not [e for e in p.errors if "i18n" in e or "pageerror" in e], p.errors
