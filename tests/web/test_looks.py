"""The table's looks at 360 px, in English and Arabic (right to left): the waiting room of a
private table, the watcher's view, the connection strip, card faces whose indices never
touch a pip, isolated card names and signed numbers, the "2 ways" pill, and tables of three
and four players. Playwright with Debian's chromium against a real ``basra serve``; every
screen is saved under test-output/screenshots/ (looks-*.png)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from web_helpers import Player, basra_server, post, shot

PHONE = {"width": 360, "height": 640}
LOCALES = {"en": "en-US", "ar": "ar-EG"}
NO_SHARE = "delete Navigator.prototype.share; delete Navigator.prototype.canShare;"
FAKE_SHARE = """Navigator.prototype.share = function (data) {
  window.__shared = data; return Promise.resolve();
};"""
# What every page script below starts with: the page's own modules (the static prefix may be
# versioned), rectangles as plain objects and whether two of them meet.
HELPERS = """
const main = document.querySelector('script[type="module"][src*="main.js"]').src;
const module = (path) => import(new URL(path, main).href);
const box = (el) => { const r = el.getBoundingClientRect();
  return { left: r.left, top: r.top, right: r.right, bottom: r.bottom }; };
const meet = (a, b) => a.left < b.right && b.left < a.right
  && a.top < b.bottom && b.top < a.bottom;
"""


def script(body: str) -> str:
    """A page function (taking one argument) that runs `body` after the helpers."""
    return "async (arg) => {" + HELPERS + body + "}"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with basra_server(tmp_path_factory.mktemp("looks")) as base:
        yield base



def guest(base: str, nickname: str) -> dict[str, Any]:
    made: dict[str, Any] = post(base, "/api/guests", {"nickname": nickname})
    return made


def seated(players: list[Player], browser: Browser, base: str, who: dict[str, Any] | None,
           lang: str = "en", init: str = "", *, reduced_motion: bool = False) -> Player:
    """A phone-sized page with `who`'s session in its storage (none: a stranger)."""
    p = Player(browser, base, viewport=PHONE, locale=LOCALES[lang], reduced_motion=reduced_motion)
    players.append(p)
    script = init
    if who:
        script += "".join(f"localStorage.setItem({json.dumps(k)}, {json.dumps(v)});" for k, v in [
            ("basra.token", who["token"]), ("basra.nickname", who["player"]["nickname"]),
            ("basra.player", who["player"]["id"])])
    if script:
        p.context.add_init_script(script)
    return p


def no_errors(p: Player, *, only_scripts: bool = False) -> None:
    """No script error (and, unless `only_scripts`, no console error or missing key)."""
    errors = [e for e in p.errors if "ERR_INTERNET_DISCONNECTED" not in e
              and (not only_scripts or e.startswith("pageerror"))]
    assert not errors, errors


def open_table(p: Player, table_id: str, selector: str) -> Page:
    p.page.goto(f"{p.base}/table/{table_id}")
    p.page.wait_for_selector(selector, timeout=20000)
    return p.page


def play_some(p: Player, plays: int) -> None:
    """Play the first card `plays` times (the first take when there are several)."""
    for _ in range(plays):
        p.page.wait_for_selector(".hand.my-turn .hand-card", timeout=20000)
        p.play_first()
    p.page.wait_for_selector(".hand.my-turn .hand-card", timeout=20000)
    p.page.wait_for_timeout(900)  # the last flights land before the picture


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_waiting_room_fits_a_phone(players: list[Player], browser: Browser, server: str,
                                   lang: str) -> None:
    amira = guest(server, "Amira")
    made = post(server, "/api/tables/private", {"variant": "lebanese", "players": 4,
                                                 "teams": True, "bot_level": "hard"},
                amira["token"])
    p = seated(players, browser, server, amira, lang)
    page = open_table(p, made["table"]["id"], ".waiting-room .wait-seat")
    # A bot for an empty seat is offered at the level the table was made with.
    levels = page.eval_on_selector_all(".level-select", "els => els.map((e) => e.value)")
    assert levels == ["hard"] * 3, levels
    assert page.evaluate("document.documentElement.dir") == ("rtl" if lang == "ar" else "ltr")
    seats = page.evaluate("""() => Array.from(document.querySelectorAll('.wait-seat'), (li) => {
      const name = li.querySelector('.wait-seat-name');
      const range = document.createRange(); range.selectNodeContents(name);
      const lines = new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top))).size;
      const r = li.getBoundingClientRect();
      return { text: name.textContent, lines, left: r.left, right: r.right,
               nameWidth: name.getBoundingClientRect().width };
    })""")
    assert len(seats) == 4
    for seat in seats:
        assert seat["lines"] == 1, seat  # "Empty seat" whole, never a letter a line
        assert seat["nameWidth"] > 40, seat
        assert seat["left"] >= 0 and seat["right"] <= PHONE["width"], seat
    # The link stays visible, with the Share button under it.
    link = page.input_value(".invite-link")
    assert link.endswith("/join/" + made["table"]["invite_code"])
    assert page.locator(".share-invite").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, f"looks-waiting-room-{lang}", full_page=True)
    no_errors(p)


def test_share_copies_the_link_without_web_share(players: list[Player], browser: Browser,
                                                  server: str) -> None:
    amira = guest(server, "Amira")
    made = post(server, "/api/tables/private", {"variant": "egyptian"}, amira["token"])
    url = f"{server}/join/{made['table']['invite_code']}"
    p = seated(players, browser, server, amira, init=NO_SHARE)
    p.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    page = open_table(p, made["table"]["id"], ".waiting-room .share-invite")
    page.click(".share-invite")
    page.wait_for_selector(".toast")
    assert page.inner_text(".toast") == "Invite link copied."
    assert page.evaluate("navigator.clipboard.readText()") == url
    no_errors(p)

    # Where the browser can share, the sheet gets the invite in the reader's words.
    q = seated(players, browser, server, amira, "ar", init=FAKE_SHARE)
    page = open_table(q, made["table"]["id"], ".waiting-room .share-invite")
    assert page.get_attribute(".share-invite", "data-action") == "share-invite"
    assert page.locator(".copy-invite").is_visible()
    shared = page.evaluate(script("""
      const { shareInvite } = await module('table/center.js');
      const players = [{ seat: 0, kind: 'human', name: 'Amira' }, { seat: 1, kind: 'empty' }];
      await shareInvite({ seat: 0, game: { table: { invite_code: arg, players } } });
      return window.__shared;
    """), made["table"]["invite_code"])
    assert shared["url"] == url
    assert shared["text"] == "Amira يدعوك إلى لعبة بصرة"
    no_errors(q)


def test_a_watcher_sees_whole_names_and_no_hand(players: list[Player], browser: Browser,
                                                server: str) -> None:
    amira = guest(server, "Amira")
    made = post(server, "/api/tables/bot", {"variant": "egyptian"}, amira["token"])
    host = seated(players, browser, server, amira)
    open_table(host, made["table"]["id"], ".hand .hand-card")
    play_some(host, 2)
    for lang in ("en", "ar"):
        watcher = seated(players, browser, server, guest(server, "Watcher"), lang)
        page = open_table(watcher, made["table"]["id"], ".seat-plate .plate-name")
        page.wait_for_selector(".play-log li")
        names = page.eval_on_selector_all(".plate-name", """els => els.map((e) => ({
          text: e.textContent, fits: e.scrollWidth <= e.clientWidth,
          lines: Math.round(e.getBoundingClientRect().height
                            / parseFloat(getComputedStyle(e).lineHeight)) }))""")
        assert names[0]["text"] == "Amira"
        for n in names:
            assert n["fits"], n
            assert not n["text"].endswith("…")
        assert names[0]["lines"] == 1  # a short name on one line
        assert page.locator(".watching-mark").is_visible()
        assert not page.locator(".hand").is_visible()
        assert page.locator(".floor").is_visible()  # (a Jack may have swept it empty)
        assert page.locator(".seat-plate").count() == 2
        shot(page, f"looks-watcher-{lang}")
        no_errors(watcher)


def test_arabic_card_names_and_signs_read_the_right_way(players: list[Player], browser: Browser,
                                                        server: str) -> None:
    amira = guest(server, "أميرة")
    made = post(server, "/api/tables/bot", {"variant": "egyptian"}, amira["token"])
    p = seated(players, browser, server, amira, "ar")
    page = open_table(p, made["table"]["id"], ".hand .hand-card")
    play_some(p, 3)
    log = page.evaluate("""() => Array.from(document.querySelectorAll('.play-log li'), (li) => {
      const card = li.querySelector('.log-card');
      const who = li.querySelector('.log-who');
      const range = document.createRange();
      const chars = Array.from(card.textContent);
      const node = card.firstChild;
      range.setStart(node, 0); range.setEnd(node, chars[0].length);
      const rank = range.getBoundingClientRect();
      range.setStart(node, node.length - 1); range.setEnd(node, node.length);
      const suit = range.getBoundingClientRect();
      const names = Array.from(li.querySelectorAll('.card-name'));
      return {
        text: card.textContent, tag: card.tagName, dir: card.dir,
        isolated: names.every((e) => getComputedStyle(e).unicodeBidi === 'isolate'
                                     && e.dir === 'ltr'),
        rankLeftOfSuit: rank.left < suit.left,
        whoRightOfCard: who.getBoundingClientRect().left > card.getBoundingClientRect().left,
      };
    })""")
    assert len(log) >= 5, log
    for line in log:
        assert line["tag"] == "BDI" and line["dir"] == "ltr" and line["isolated"], line
        assert line["rankLeftOfSuit"], line  # "7♥", not "♥7"
        assert line["whoRightOfCard"], line  # the line reads right to left: who, then card
    # Point badges on the faces and signed numbers in text read "+3" in an Arabic page.
    signs = page.evaluate(script("""
      const cards = await module('lib/cards.js');
      const face = cards.cardFace('10D', 'egyptian');
      const tag = cards.signedTag(3);
      const line = document.createElement('p');
      line.append('نقاط ', tag);
      const holder = document.createElement('div');
      holder.className = 'card'; holder.append(face);
      document.querySelector('.play-log').append(holder, line);
      const text = face.querySelector('.mark text');
      const x0 = text.getStartPositionOfChar(0).x, x1 = text.getStartPositionOfChar(1).x;
      const range = document.createRange();
      range.setStart(tag.firstChild, 0); range.setEnd(tag.firstChild, 1);
      const plus = range.getBoundingClientRect().left;
      range.setStart(tag.firstChild, 1); range.setEnd(tag.firstChild, 2);
      const digit = range.getBoundingClientRect().left;
      const out = { badge: text.textContent, badgeDir: getComputedStyle(text).direction,
                    plusFirst: x0 < x1, tag: tag.textContent,
                    tagDir: getComputedStyle(tag).direction, tagPlusFirst: plus < digit,
                    pageDir: document.documentElement.dir };
      holder.remove(); line.remove();
      return out;
    """))
    assert signs == {"badge": "+3", "badgeDir": "ltr", "plusFirst": True, "tag": "+3",
                     "tagDir": "ltr", "tagPlusFirst": True, "pageDir": "rtl"}, signs
    shot(page, "looks-arabic-table")
    page.locator(".log-panel").scroll_into_view_if_needed()
    shot(page, "looks-arabic-log")
    no_errors(p)


def test_card_faces_keep_indices_clear_of_pips(players: list[Player], browser: Browser,
                                               server: str) -> None:
    """All 52 faces at the smallest floor size of a phone: no index touches a pip, a face
    panel or the points badge, and the index stays readable."""
    p = seated(players, browser, server, None)
    page = p.page
    page.goto(server + "/rules")
    page.wait_for_function("document.body.classList.contains('ready')")
    for sheet in ("table.css", "overlay.css"):  # the table's own, loaded when a table opens
        page.add_style_tag(url=f"{server}/static/css/{sheet}")
    report = page.evaluate(script("""
      const { cardFace, ensureSprites } = await module('lib/cards.js');
      ensureSprites();
      const app = document.getElementById('app');
      app.replaceChildren();
      const floor = document.createElement('div');
      floor.className = 'floor'; floor.dataset.size = 'xl';
      floor.style.cssText = 'background:#1f7a58;max-width:none';
      const ranks = ['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'];
      for (const suit of 'CDHS') for (const rank of ranks) {
        const holder = document.createElement('div');
        holder.className = 'card floor-card'; holder.dataset.card = rank + suit;
        holder.append(cardFace(rank + suit, 'egyptian'));
        floor.append(holder);
      }
      app.append(floor);
      return Array.from(floor.children, (holder) => {
        const index = Array.from(holder.querySelectorAll('.card-index > *'), box);
        const pips = Array.from(holder.querySelectorAll('.pip'), box);
        const mark = Array.from(holder.querySelectorAll('.mark'), box);
        const clash = index.filter((i) => pips.concat(mark).some((o) => meet(i, o))).length;
        const rank = holder.querySelector('.card-index .idx-rank').getBoundingClientRect();
        return { card: holder.dataset.card, index: index.length, pips: pips.length, clash,
                 width: holder.getBoundingClientRect().width, rankHeight: rank.height };
      });
    """))
    assert len(report) == 52
    for card in report:
        assert card["index"] == 4 and card["clash"] == 0, card
        rank = card["card"][:-1]
        expected = {"A": 1, "J": 1, "Q": 1, "K": 1}.get(rank) or int(rank)
        assert card["pips"] == expected, card
        assert card["width"] <= 40, card  # the smallest floor card of a 360 px phone
        assert card["rankHeight"] >= 10, card  # its index, still readable
    shot(page, "looks-cards-52-phone", full_page=True)
    page.set_viewport_size({"width": 1000, "height": 800})
    page.eval_on_selector(".floor", "f => f.querySelectorAll('.card').forEach("
                          "(c) => c.style.setProperty('--cw', '110px'))")
    shot(page, "looks-cards-52-large", full_page=True)
    no_errors(p, only_scripts=True)  # the page under the cards is not what is tested


def test_ways_pill_stays_off_the_index(players: list[Player], browser: Browser,
                                       server: str) -> None:
    """A card with two takes carries a "2 ways" pill clear of its indices and unlike the
    floor's round option numbers."""
    p = seated(players, browser, server, None)
    page = p.page
    page.goto(server + "/rules")
    page.wait_for_function("document.body.classList.contains('ready')")
    for sheet in ("table.css", "overlay.css"):  # the table's own, loaded when a table opens
        page.add_style_tag(url=f"{server}/static/css/{sheet}")
    found = page.evaluate(script("""
      const { renderHand } = await module('table/hand.js');
      const { renderFloor } = await module('table/floor.js');
      const legal = [{ card: '7H', take: ['7D'] }, { card: '7H', take: ['4S', '3C'] },
                     { card: '5C', take: [] }];
      const game = { table: { variant: 'egyptian', players: [] },
                     view: { hand: ['7H', '5C'], legal, turn: 0, floor: ['7D', '4S', '3C'] } };
      const st = { seat: 0, game, connection: 'open', sentVersion: null, sentCard: null,
                   preview: null, floorOrder: ['7D', '4S', '3C'],
                   choice: { card: '7H', options: legal.slice(0, 2), focus: 0 } };
      const page = document.createElement('div');
      page.className = 'table-page';
      page.append(renderFloor(st), renderHand({ ...st, choice: null }));
      document.getElementById('app').replaceChildren(page);
      const card = page.querySelector('.hand-card[data-card="7H"]');
      const pill = card.querySelector('.multi-badge');
      const option = page.querySelector('.opt-badge');
      const index = Array.from(card.querySelectorAll('.card-index > *'), box);
      const look = (el) => { const s = getComputedStyle(el);
                             return [s.backgroundColor, s.borderRadius]; };
      return { text: pill.textContent, clash: index.some((i) => meet(i, box(pill))),
               pillLook: look(pill), optionLook: look(option),
               others: page.querySelectorAll('.multi-badge').length };
    """))
    assert found["text"] == "2 ways"
    assert not found["clash"], found
    assert found["others"] == 1
    assert found["pillLook"][0] != found["optionLook"][0], found
    assert found["pillLook"][1] != found["optionLook"][1], found
    shot(page, "looks-ways-pill")
    no_errors(p, only_scripts=True)


def test_the_connection_strip_leaves_the_hand_in_view(players: list[Player], browser: Browser,
                                                      server: str) -> None:
    amira = guest(server, "Amira")
    made = post(server, "/api/tables/bot", {"variant": "egyptian"}, amira["token"])
    p = seated(players, browser, server, amira)
    page = open_table(p, made["table"]["id"], ".hand .hand-card")
    page.wait_for_selector(".hand.my-turn .hand-card", timeout=20000)
    page.wait_for_timeout(900)
    hand = page.locator(".hand").bounding_box()
    p.context.set_offline(True)
    page.evaluate("window.basraTable && window.basraTable.drop()")
    page.wait_for_selector(".conn-banner[data-state='lost']")
    page.wait_for_timeout(300)
    strip = page.locator(".conn-banner").bounding_box()
    after = page.locator(".hand").bounding_box()
    assert strip is not None and hand is not None and after is not None
    assert strip["height"] <= 40 and strip["y"] <= 0.5, strip
    assert after == hand  # nothing under the strip moved
    assert after["y"] >= 0 and after["y"] + after["height"] <= PHONE["height"], after
    assert page.locator(".conn-banner .btn").is_visible()
    shot(page, "looks-connection-strip")
    p.context.set_offline(False)
    page.wait_for_selector(".conn-banner[data-state='back']", timeout=20000)
    no_errors(p)


@pytest.mark.parametrize(("seats", "lang"), [(3, "en"), (4, "ar")])
def test_tables_of_three_and_four_fit_a_phone(players: list[Player], browser: Browser,
                                              server: str, seats: int, lang: str) -> None:
    amira = guest(server, "Amira")
    made = post(server, "/api/tables/bot", {"variant": "lebanese", "players": seats,
                                             "teams": seats == 4}, amira["token"])
    # Without motion: a card still flying in from the deal is not where it will sit.
    p = seated(players, browser, server, amira, lang, reduced_motion=True)
    page = open_table(p, made["table"]["id"], ".hand .hand-card")
    page.wait_for_selector(".hand.my-turn .hand-card", timeout=20000)
    page.wait_for_timeout(900)
    layout = page.evaluate(script("""
      const plates = Array.from(document.querySelectorAll('.seat-plate'), box);
      const names = Array.from(document.querySelectorAll('.plate-name'),
                               (e) => e.scrollWidth <= e.clientWidth);
      const cards = Array.from(document.querySelectorAll('.hand-card'), box);
      const head = document.querySelector('.table-head');
      const chips = Array.from(document.querySelectorAll('.side-chip'), box);
      const overlaps = [];
      plates.forEach((a, i) => plates.forEach((b, j) => {
        if (i < j && meet(a, b)) overlaps.push([i, j]);
      }));
      const top = Math.min(...plates.map((r) => r.top));
      return { plates: plates.length, names, cards, overlaps, top,
               headBottom: box(head).bottom, chipsBottom: Math.max(...chips.map((r) => r.bottom)),
               width: document.documentElement.scrollWidth };
    """))
    shot(page, f"looks-{seats}-players-{lang}")
    assert layout["plates"] == seats - 1
    assert all(layout["names"]), layout
    assert layout["overlaps"] == [], layout
    assert layout["top"] >= layout["headBottom"] and layout["top"] >= layout["chipsBottom"], layout
    for card in layout["cards"]:
        assert card["left"] >= 0 and card["right"] <= PHONE["width"], card
        assert card["top"] >= 0 and card["bottom"] <= PHONE["height"], card
    assert layout["width"] <= PHONE["width"]
    no_errors(p)
