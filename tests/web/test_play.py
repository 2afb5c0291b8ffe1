"""The browser client (src/basra/web), driven by Playwright with Debian's chromium against a
real ``basra serve``: a whole match against a bot, two browsers through an invite link, the
capture choice, a dropped connection, the fairness check, the Arabic page, and the
in-browser shuffle against FAIRNESS.md's vectors and the Python engine. Screenshots go to
test-output/screenshots/ for people to look at."""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser

from basra.game.cards import NAMES, cards_of
from basra.game.engine import deal_round
from basra.game.rules import find_variant
from basra.game.shuffle import commitment, part_problem, seat_part, shuffled_deck
from basra.match.records import parse_record
from basra.match.replay import verify
from web.menu import choose_language
from web_helpers import (
    DESKTOP,
    PHONE,
    ROOT,
    Player,
    basra_server,
    shot,
)

WEB = ROOT / "src" / "basra" / "web"


SEED_WINDOW = 10.0
"""A long seed window: a round must start as soon as the page's part is in, not when the
window ends."""
REMATCH_WINDOW = 12.0
"""A finished table leaves the server's memory this long after its end (then ``closed``)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with basra_server(tmp_path_factory.mktemp("webdata"), "--seed-window", str(SEED_WINDOW),
                      "--rematch-window", str(REMATCH_WINDOW)) as base:
        yield base


def make(players: list[Player], browser: Browser, server: str, *, nickname: str | None = None,
         **options: Any) -> Player:
    """A new player (closed at the test's end), signed in as ``nickname`` when one is given."""
    player = Player(browser, server, **options)
    players.append(player)
    if nickname is not None:
        player.sign_in(nickname)
    return player


def no_errors(player: Player, *, allow: tuple[str, ...] = ()) -> None:
    errors = [e for e in player.errors if not any(a in e for a in allow)]
    assert not errors, errors


# ---------------------------------------------------------------------------------------
# the shuffle, in the browser, against FAIRNESS.md and the Python engine

VECTORS = [
    ("0000000000000000000000000000000000000000000000000000000000000001", "alice|bob", 1,
     "ec4916dd28fc4c10d78e287ca5d9cc51ee1ae73cbfde08c6b37324cbfaac8bc5",
     "7H QD 10C 2S 7D 4C 3H 4D 7S 4S AH QC 5S 2C KH JH 6S AS 3C 3S AD 8S 10S 2D JC 6D 2H QS "
     "9C 8D 6C 10D 7C 5C 3D KC 8H 6H JD 4H 5D 9D 10H QH 5H 8C KS 9H AC JS 9S KD"),
    ("ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff", "", 1,
     "af9613760f72635fbdb44a5a0a63c39f12af30f950a6ee5c971be188e89c4051",
     "10D 4S 5D QH 7H KC 4H 4C 6D 9D 2C 7S AC JC JS QS 10H QC 6C AD 9S KH 5S QD 9H 5H KD 6H "
     "JH 3C 2D JD 7C 10S 4D 8C KS AS 3D 3H 2S 3S AH 8D 10C 2H 8S 7D 6S 5C 8H 9C"),
]
BURY = {
    "server_seed": "0000000000000000000000000000000000000000000000000000000000000019",
    "client_seed": "demo", "nonce": 1,
    "deck": "10S AH 6H 6C AS 10C 6D 7H 7D 2S 9C KH JS 2C 4H 8C 2D 5S 3D KS JC 8D 4D 5C 9S 4S "
            "QH QS 6S 8H 4C 2H 3H 3C KD 8S AC 7S AD QC 3S JD 5H QD 5D 9D JH 9H 10H KC 7C 10D",
    "hands": ["AH 6C 10C 7H", "10S 6H AS 6D"],
    "floor": "2S 9C KH 2C",
    "stock": "4H 8C 2D 5S 3D KS JC 8D 4D 5C 9S 4S QH QS 6S 8H 7D 4C 2H JS 3H 3C KD 8S AC 7S "
             "AD QC 3S JD 5H QD 5D 9D JH 9H 10H KC 7C 10D",
}

IMPORT_FAIRNESS = "const f = await import('/static/js/lib/fairness.js');"
CARDS_OF = "els => els.map(e => e.dataset.card)"
DEAL_CASES = """async (cases) => {
  const f = await import('/static/js/lib/fairness.js');
  const out = [];
  for (const c of cases) {
    const deck = await f.shuffledDeck(c.server_seed, c.client_seed, c.nonce);
    const d = f.dealRound(deck, c);
    out.push({commitment: await f.commitmentOf(c.server_seed), deck, hands: d.hands[0],
              floor: d.floor, stock: d.stock, deals: d.hands.length});
  }
  return out;
}"""
VERIFY_PLAYED = """async ([round, seen]) => {
  // Play the round's dealt cards in turn order (seat 1 leads when seat 0 deals).
  const f = await import('/static/js/lib/fairness.js');
  const deck = await f.shuffledDeck(round.server_seed, round.client_seed, round.nonce);
  const d = f.dealRound(deck, seen);
  seen.opening_floor = d.floor;
  seen.hands = {0: d.hands[0][0]};
  seen.plays = d.hands.flatMap((hands) => [1, 0, 1, 0, 1, 0, 1, 0].map(
    (seat, i) => ({seat, card: hands[seat][i >> 1]})));
  const result = await f.verifyRound(round, seen);
  return {fair: result.fair, verdict: result.verdict, checks: result.checks};
}"""
VERIFY_CLAIMED = """async ([round, seen]) => {
  const f = await import('/static/js/lib/fairness.js');
  const result = await f.verifyRound(round, seen);
  return {fair: result.fair, verdict: result.verdict, checks: result.checks};
}"""


def test_shuffle_matches_fairness_vectors(players: list[Player], browser: Browser,
                                          server: str) -> None:
    p = make(players, browser, server)
    p.page.goto(server + "/rules")
    for seed, client, nonce, commit, deck in VECTORS:
        got = p.page.evaluate(
            f"async ([s, c, n]) => {{ {IMPORT_FAIRNESS} return [await f.commitmentOf(s),"
            " (await f.shuffledDeck(s, c, n)).join(' ')]; }", [seed, client, nonce])
        assert got == [commit, deck]
    dealt = p.page.evaluate(
        f"async (v) => {{ {IMPORT_FAIRNESS} const deck = await f.shuffledDeck(v.server_seed,"
        " v.client_seed, v.nonce); const d = f.dealRound(deck, {variant: 'egyptian', seats: 2,"
        " dealer: 0}); return {deck: deck.join(' '), hands: d.hands[0].map(h => h.join(' ')),"
        " floor: d.floor.join(' '), stock: d.stock.join(' '), buried: d.buried}; }", BURY)
    assert dealt["deck"] == BURY["deck"]
    assert dealt["hands"] == BURY["hands"]
    assert dealt["floor"] == BURY["floor"]
    assert dealt["stock"] == BURY["stock"]
    assert dealt["buried"] == ["7D", "JS"]
    no_errors(p)


def test_shuffle_and_deal_agree_with_the_engine(players: list[Player], browser: Browser,
                                                server: str) -> None:
    """Random seeds, every variant and seating: the page deals what basra.game.engine deals."""
    p = make(players, browser, server)
    p.page.goto(server + "/rules")
    rng = random.Random(5)
    cases = []
    for i in range(24):
        variant = ["egyptian", "arabic101", "lebanese", "serbian"][i % 4]
        rules = find_variant(variant)
        seats, teams = sorted(rules.seatings)[rng.randrange(len(rules.seatings))]
        server_seed = "".join(rng.choice("0123456789abcdef") for _ in range(64))
        client_seed = rng.choice(["", "amira|bob", "ä-ß|سنك|7f3a", "x" * 60])
        nonce = rng.randint(1, 12)
        cases.append({"variant": variant, "seats": seats, "teams": teams,
                      "dealer": (nonce - 1) % seats, "server_seed": server_seed,
                      "client_seed": client_seed, "nonce": nonce})
    results = p.page.evaluate(DEAL_CASES, cases)
    for case, got in zip(cases, results, strict=True):
        deck = shuffled_deck(case["server_seed"], case["client_seed"], case["nonce"])
        assert got["commitment"] == commitment(case["server_seed"])
        assert got["deck"] == [NAMES[c] for c in deck]
        rules = find_variant(case["variant"])
        rnd = deal_round(rules, case["seats"], case["dealer"], deck, case["teams"])
        for seat in range(case["seats"]):
            assert sorted(got["hands"][seat]) == sorted(NAMES[c] for c in cards_of(rnd.hand(seat)))
        assert sorted(got["floor"]) == sorted(NAMES[c] for c in cards_of(rnd.floor))
        assert got["stock"] == [NAMES[c] for c in rnd.setup.stock]
        assert got["deals"] == 48 // (4 * case["seats"])


def test_verify_round_says_not_fair_when_the_seed_lies(players: list[Player], browser: Browser,
                                                       server: str) -> None:
    p = make(players, browser, server)
    p.page.goto(server + "/rules")
    seed, client, nonce, commit, deck = VECTORS[0]
    cards = deck.split()
    seen = {"variant": "egyptian", "seats": 2, "dealer": 0, "commitment": commit,
            "opening_floor": [], "plays": [], "hands": {}, "seat": 0,
            "kinds": ["human", "human"], "sentParts": ["alice"]}
    real = p.page.evaluate(VERIFY_PLAYED, [{"server_seed": seed, "client_seed": client,
                                            "nonce": nonce, "commitment": commit}, seen])
    assert real["fair"], real
    assert {c["id"] for c in real["checks"]} >= {"commitment", "commitment_published",
                                                 "opening_floor", "own_hands", "plays", "parts"}
    lie = p.page.evaluate(VERIFY_CLAIMED, [{"server_seed": seed, "client_seed": "alice|eve",
                                            "nonce": nonce, "commitment": commit},
                                           {**seen, "hands": {"0": [cards[1]]}}])
    assert not lie["fair"]
    assert any(c["id"] == "own_hands" and c["ok"] is False for c in lie["checks"])
    swapped = p.page.evaluate(VERIFY_CLAIMED, [{"server_seed": seed, "client_seed": client,
                                                "nonce": nonce, "commitment": VECTORS[1][3]},
                                               {**seen, "commitment": None}])
    assert not swapped["fair"]
    assert [c["ok"] for c in swapped["checks"] if c["id"] == "commitment"] == [False]


SEAT_PARTS = [
    ("0000000000000000000000000000000000000000000000000000000000000001", 1, 0, "325044ddfe5478f0"),
    ("0000000000000000000000000000000000000000000000000000000000000001", 1, 1, "8dcc8d99a2ec07c3"),
    ("0000000000000000000000000000000000000000000000000000000000000001", 2, 1, "7d9082400dc4c67d"),
    ("0000000000000000000000000000000000000000000000000000000000000001", 3, 3, "f102c21bed08b872"),
    ("ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff", 1, 1, "5706e4a2b583475d"),
]
SEAT_PART_CASES = """async (cases) => {
  const f = await import('/static/js/lib/fairness.js');
  const out = [];
  for (const [seed, nonce, seat] of cases) out.push(await f.seatPart(seed, nonce, seat));
  return out;
}"""
FRESH_PARTS = """async (texts) => {
  const f = await import('/static/js/lib/fairness.js');
  return texts.map((text) => [f.freshPart(text), f.freshPart(text)]);
}"""


def test_seat_parts_match_fairness_vectors(players: list[Player], browser: Browser,
                                           server: str) -> None:
    """part(seat) of FAIRNESS.md in the page, and fresh parts as the reference clients make
    them (16 random bytes, or the player's text cut to 43 bytes, "." and 8 random bytes)."""
    p = make(players, browser, server)
    p.page.goto(server + "/rules")
    got = p.page.evaluate(SEAT_PART_CASES, [[seed, nonce, seat] for seed, nonce, seat, _
                                            in SEAT_PARTS])
    assert got == [part for *_, part in SEAT_PARTS]
    rng = random.Random(11)
    cases = [["".join(rng.choice("0123456789abcdef") for _ in range(64)), rng.randint(1, 40),
              rng.randrange(4)] for _ in range(12)]
    assert p.page.evaluate(SEAT_PART_CASES, cases) == [seat_part(*c) for c in cases]
    texts = ["", "Amira", "ب" * 30, "x" * 50, "a😀" * 20, "  Zoë's lucky day  "]
    fresh = p.page.evaluate(FRESH_PARTS, texts)
    seen: set[str] = set()
    for text, pair in zip(texts, fresh, strict=True):
        for part in pair:
            assert part_problem(part) is None, part
            assert part not in seen, "a fresh part repeated"
            seen.add(part)
            own = text.strip()
            if not own:
                assert re.fullmatch(r"[0-9a-f]{32}", part), part
                continue
            cut, dot, tail = part.rpartition(".")
            assert dot and re.fullmatch(r"[0-9a-f]{16}", tail), part
            assert cut == own.encode("utf-8")[:43].decode("utf-8", "ignore"), part
    no_errors(p)


# ---------------------------------------------------------------------------------------
# languages


def test_catalogues_have_the_same_keys() -> None:
    english = json.loads((WEB / "i18n" / "en.json").read_text(encoding="utf-8"))
    for lang in ("ar", "fr", "sr"):
        other = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
        assert set(english) - set(other) == set(), lang
        extra = {k for k in set(other) - set(english) if not k.startswith("card.special.")}
        assert extra == set(), lang


def test_no_text_in_code() -> None:
    """UI text lives in the catalogues: no innerHTML anywhere, and the HTML has no words
    outside data-i18n elements and the server's {{placeholders}} (title, description,
    the noscript text)."""
    for path in (WEB / "js").rglob("*.js"):
        source = path.read_text(encoding="utf-8")
        assert not re.search(r"\.(innerHTML|outerHTML)\s*=|insertAdjacentHTML|document\.write",
                             source), path
    html = (WEB / "index.html").read_text(encoding="utf-8")
    html = re.sub(r"<(style|script)\b.*?</\1>", " ", html, flags=re.S)
    words = re.sub(r"<[^>]+>", " ", re.sub(r"\{\{\w+\}\}", " ", html)).split()
    assert words == [], words


def test_arabic_renders_right_to_left(players: list[Player], browser: Browser,
                                      server: str) -> None:
    ar = json.loads((WEB / "i18n" / "ar.json").read_text(encoding="utf-8"))
    p = make(players, browser, server, viewport=PHONE, locale="ar-EG")
    p.page.goto(server + "/")
    p.page.wait_for_selector(".hero h1")
    assert p.page.evaluate("document.documentElement.dir") == "rtl"
    assert p.page.evaluate("document.documentElement.lang") == "ar"
    assert p.page.inner_text(".hero h1") == ar["app.name"]
    assert p.page.inner_text("#play-bot") == ar["lobby.bot.start"]
    # The hand order and the header mirror: the brand sits on the right.
    brand = p.page.locator(".brand").bounding_box()
    assert brand is not None and brand["x"] > PHONE["width"] / 2
    shot(p.page, "lobby-ar-phone", full_page=True)
    # The language switch is remembered.
    choose_language(p.page, "fr")
    p.page.wait_for_function("document.documentElement.dir === 'ltr'")
    p.page.reload()
    p.page.wait_for_selector(".hero h1")
    assert p.page.evaluate("document.documentElement.lang") == "fr"
    fr = json.loads((WEB / "i18n" / "fr.json").read_text(encoding="utf-8"))
    assert p.page.inner_text("#play-bot") == fr["lobby.bot.start"]
    choose_language(p.page, "sr")
    p.page.wait_for_function("document.documentElement.lang === 'sr-Latn'")
    choose_language(p.page, "ar")
    p.page.wait_for_function("document.documentElement.dir === 'rtl'")
    # The rules page, in Arabic, with Arabic card names for screen readers.
    p.page.goto(server + "/rules/egyptian")
    p.page.wait_for_selector(".rules-section")
    assert ar["variant.egyptian.name"] in p.page.inner_text("h1")
    labels = p.page.eval_on_selector_all(".rules-cards .card", "els => els.map(e => e.ariaLabel)")
    assert any("السنك" in label for label in labels), labels
    shot(p.page, "rules-ar-phone", full_page=True)
    no_errors(p)


# ---------------------------------------------------------------------------------------
# playing


def test_a_guest_plays_a_bot_to_the_end(players: list[Player], browser: Browser,
                                        server: str) -> None:
    started = time.monotonic()
    p = make(players, browser, server, watch=True)
    page = p.page
    page.goto(server + "/")
    page.wait_for_selector("#nickname")
    shot(page, "lobby-desktop", full_page=True)
    page.set_viewport_size(PHONE)
    shot(page, "lobby-phone", full_page=True)
    page.set_viewport_size(DESKTOP)
    page.fill("#nickname", "Amira")
    page.check("#variant-egyptian")
    page.click("#play-bot")
    page.wait_for_url("**/table/*")
    table_id = page.url.rsplit("/", 1)[1]
    # The session survives a reload: the token is kept.
    token = page.evaluate("localStorage.getItem('basra.token')")
    assert token

    # Round 1, every card by a click.
    turns = 0
    while True:
        event = p.wait_event()
        if event == "round-end":
            break
        assert event == "turn"
        turns += 1
        if turns == 5:
            assert page.locator(".turn-clock:not([hidden])").count() == 1
            page.wait_for_timeout(1400)
            shot(page, "table-desktop")
            page.set_viewport_size(PHONE)
            page.wait_for_timeout(300)
            shot(page, "table-phone")
            page.set_viewport_size(DESKTOP)
        p.play_first()
    assert turns == 24

    # The breakdown: its totals are the server's.
    state = p.state()
    result = state["view"]["results"][-1]
    totals = page.eval_on_selector_all(".overlay-round tr.total td",
                                       "els => els.map(e => e.textContent)")
    assert totals == [str(t) for t in result["totals"]]
    rows = page.inner_text(".overlay-round .breakdown-table")
    assert "Majority" in rows and "10♦" in rows and "2♣" in rows and "Basras" in rows
    page.wait_for_timeout(400)
    shot(page, "round-end-desktop")
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(300)
    shot(page, "round-end-phone")
    page.set_viewport_size(DESKTOP)

    # The fairness panel checks round 1 itself: fair, or not verifiable when the round was
    # dealt before the page saw its commitment. Continue deals round 2.
    page.click(".overlay-round .continue")
    page.wait_for_selector(".overlay-round", state="detached")
    expected = p.expected_verdicts([1])[1]
    page.wait_for_selector(f".fair-result[data-round='1'][data-verdict='{expected}']",
                           timeout=15000)
    checks = page.eval_on_selector_all(".fair-result[data-round='1'] .checks li",
                                       "els => els.map(e => [e.dataset.check, e.className])")
    assert ("commitment", "ok") in [tuple(c) for c in checks]
    assert ("plays", "ok") in [tuple(c) for c in checks]
    assert ("own_hands", "ok") in [tuple(c) for c in checks]
    assert ("opening_floor", "ok") in [tuple(c) for c in checks]
    assert ("parts", "ok") in [tuple(c) for c in checks]
    page.click(".fair-result[data-round='1'] .fair-details summary")
    to_verdict = "document.querySelector(\".fair-result[data-round='1']\").scrollIntoView()"
    page.evaluate(to_verdict)
    page.wait_for_timeout(200)
    shot(page, "fairness-desktop")
    page.set_viewport_size(PHONE)
    page.evaluate(to_verdict)
    page.wait_for_timeout(200)
    shot(page, "fairness-phone")
    page.set_viewport_size(DESKTOP)

    # The rest of the match by keyboard, until it is over.
    while p.next_turn(timeout=60) != "finished":
        p.play_first(keyboard=True)
        assert time.monotonic() - started < 170, "the match is taking too long"

    final = p.state()
    assert final["table"]["status"] == "finished"
    winner = final["view"]["winner"]
    assert winner is not None
    # Nearly every play came as a played message, and the page told each one as it came:
    # read out (a basra with its points), a basra burst shown, as from a full state.
    kinds = [m.get("type") for m in p.received]
    assert kinds.count("played") > 4 * kinds.count("state"), kinds.count("state")
    told_plays(p)
    page.wait_for_selector(".overlay-match")
    page.wait_for_timeout(400)
    title = page.inner_text(".overlay-match h2")
    assert title == ("You won the match!" if winner == 0 else "Bot (Medium) won the match")
    shot(page, "match-end-desktop")
    href = page.get_attribute(".overlay-match a[download]", "href")
    assert href == f"/api/tables/{table_id}/record"
    record = page.request.get(server + href)
    assert record.ok
    assert verify(parse_record(record.json())).ok
    # Every revealed round was checked by the page: fair, except a round dealt before the
    # page saw its commitment (not verifiable).
    rounds = [r["round"] for r in final["table"]["fairness"]["revealed"]]
    page.wait_for_function(f"document.querySelectorAll('.fair-result:not(.pending)').length"
                           f" === {len(rounds)}")
    verdicts = p.verdicts()
    assert verdicts == p.expected_verdicts(rounds)
    assert "fair" in verdicts.values()

    # Rematch: the only human asks, and the page follows table.rematch_table.
    page.click(".overlay-match [data-focus-key='rematch']")
    page.wait_for_url(lambda url: "/table/" in url and table_id not in url, timeout=15000)

    # The finished table, opened in another tab while the server still holds it: when it
    # leaves the server's memory the page is told (closed), keeps the end and the record link
    # on screen, and does not reconnect.
    tab = make(players, browser, server, viewport=PHONE, storage_state=p.context.storage_state())
    tab.page.goto(f"{server}/table/{table_id}")
    tab.page.wait_for_selector(".overlay-match")
    assert [m["seat"] for m in tab.received if m.get("type") == "welcome"] == [0]
    tab.page.wait_for_selector(".overlay-match .closed-note", timeout=(REMATCH_WINDOW + 10) * 1000)
    tab.page.wait_for_timeout(2500)
    kinds = [m.get("type") for m in tab.received]
    assert kinds.count("closed") == 1 and kinds.count("welcome") == 1, kinds
    assert next(m for m in tab.received if m.get("type") == "closed")["reason"] == "finished"
    assert tab.page.inner_text(".overlay-match h2") == title
    assert tab.page.get_attribute(".overlay-match a[download]", "href") == href
    assert tab.page.locator(".conn-banner[data-state='lost']").count() == 0
    shot(tab.page, "match-closed-phone")
    # Opened again now, from the store: the final state once, closed, and still the end.
    again = tab.new_page()
    again.goto(f"{server}/table/{table_id}")
    welcomes = kinds.count("welcome")
    again.wait_for_selector(".overlay-match .closed-note")
    again.wait_for_timeout(2000)
    kinds = [m.get("type") for m in tab.received]
    assert kinds.count("welcome") == welcomes + 1 and kinds[-1] == "closed", kinds
    assert again.inner_text(".overlay-match h2") == title
    assert again.get_attribute(".overlay-match a[download]", "href") == href
    assert again.locator("[data-focus-key='rematch']").count() == 0
    no_errors(tab)

    page.wait_for_selector(".table-page[data-status='playing']")

    # The history lists the match with its record.
    page.goto(server + "/history")
    item = page.locator(f".history-item[data-table='{table_id}']")
    item.wait_for()
    assert item.locator("a[download]").get_attribute("href") == f"/api/tables/{table_id}/record"
    no_errors(p)


def told_plays(p: Player) -> None:
    """Every play that reached the page after it held its round was read out, and every
    basra among them shown in a burst, in order."""
    fresh: list[dict[str, Any]] = []
    held: dict[int, int] = {}
    for state in p.states:
        view = state["view"]
        number, plays = view["round"], view["plays"]
        if number in held:
            fresh += plays[held[number]:]
        held[number] = len(plays)
    p.page.wait_for_timeout(2200)  # the last basra's burst shows 300 ms after its flight
    announced, bursts = p.told()
    read_out = [a for a in announced if re.match(r"(You|Bot \(Medium\)) (played|laid) ", a)]
    assert len(read_out) == len(fresh) > 40, (len(read_out), len(fresh))
    basras = [play for play in fresh if play["basra"]]
    assert [bool(re.search(r"Basra, \d+ points!", a)) for a in read_out] == [
        bool(play["basra"]) for play in fresh]
    assert bursts == [f"{'You' if play['seat'] == 0 else 'Bot (Medium)'} +{play['basra']}"
                      for play in basras], bursts


HEX32 = re.compile(r"[0-9a-f]{32}")


def flip(part: str) -> str:
    """Another part of the same length (a server that picked the bot's part itself)."""
    return ("0" if part[0] != "0" else "1") + part[1:]


def failing(result: dict[str, Any]) -> list[str]:
    return [c["id"] for c in result["checks"] if c["ok"] is False]


def test_the_page_sends_a_fresh_part_for_every_round(players: list[Player], browser: Browser,
                                                     server: str) -> None:
    """The moment the first round's commitment arrives the page sends a fresh part for that
    round (a later round's when the player says Continue under the summary): its own text,
    if the player typed one, plus randomness; the round starts at once (well inside the
    seed window), and the page's check 3 holds the server to it."""
    p = make(players, browser, server, nickname="Parts", frame_clock=True)
    page = p.page
    page.click("#play-bot")
    page.wait_for_url("**/table/*")
    table_id = page.url.rsplit("/", 1)[1]
    own_text = "Amira’s lucky day ✨ — and a tail far too long for a part"

    # Play until a round whose commitment the page saw first is over (at a bot table the
    # first round may be dealt before the page connects).
    target = None
    typed = False
    while True:
        event = p.wait_event(timeout=60)
        assert event != "finished"
        seeded = p.seeded_rounds()
        if target is None and seeded:
            target = min(seeded)
        if event == "round-end":
            ended = len(p.state()["view"]["results"])
            if target is not None and ended >= target:
                break
            p.close_round_end()
            continue
        if target is not None and not typed and p.state()["view"]["round"] == target:
            # The player types a text of their own: it goes into the next round's part.
            page.fill("#own-text", own_text)
            page.click(".seed-form button[type=submit]")
            typed = True
        p.play_first()
    assert typed
    n = target

    frames = p.frames()
    states = [f for f in frames if f["dir"] == "in" and f["message"].get("type") == "state"]

    def first(test: Any) -> dict[str, Any]:
        return next(f for f in states if test(f["message"]["table"]))

    committed = first(lambda t: t["phase"] == "seeding" and t["fairness"]["current"]["round"] == n
                      and t["fairness"]["current"]["client_seed"] is None)
    dealt = first(lambda t: (t["fairness"]["current"] or {}).get("round") == n
                  and (t["fairness"]["current"] or {}).get("client_seed"))
    seeds = [f for f in frames if f["dir"] == "out" and f["message"].get("type") == "seed"]
    mine = [f for f in seeds if f["message"]["round"] == n]
    assert len(mine) == 1, mine
    sent = mine[0]
    part = sent["message"]["client_seed"]
    assert HEX32.fullmatch(part), part
    # Sent right after the commitment (round 1) or after Continue, and the round was dealt
    # at once: not at the end of the seed window.
    if n == 1:
        assert committed["t"] <= sent["t"] < committed["t"] + 500
        assert dealt["t"] - committed["t"] < 3000, (dealt["t"] - committed["t"], SEED_WINDOW)
    assert dealt["t"] - sent["t"] < 3000, (dealt["t"] - sent["t"], SEED_WINDOW)
    # Parts only ever for a round waiting for them, never one twice.
    assert {f["message"]["round"] for f in seeds} <= p.seeded_rounds()
    assert len({f["message"]["client_seed"] for f in seeds}) == len(seeds)
    # The next round's part waits for Continue, then carries the player's text, cut to 43
    # bytes, and fresh randomness.
    page.wait_for_timeout(1000)
    assert not [f for f in p.frames() if f["dir"] == "out" and f["message"].get("type") == "seed"
                and f["message"]["round"] == n + 1]
    p.close_round_end()
    p.wait(f"() => (window.__frames || []).some(f => f.dir === 'out' && f.message.type === 'seed'"
           f" && f.message.round === {n + 1})")
    following = next(f["message"] for f in p.frames() if f["dir"] == "out"
                     and f["message"].get("type") == "seed" and f["message"]["round"] == n + 1)
    cut, dot, tail = following["client_seed"].rpartition(".")
    assert dot and cut == own_text.encode("utf-8")[:43].decode("utf-8", "ignore")
    assert re.fullmatch(r"[0-9a-f]{16}", tail)
    assert part_problem(following["client_seed"]) is None

    # The round's check, in the page: fair, and check 3 passed.
    result = f".fair-result[data-round='{n}']"
    page.wait_for_selector(f"{result}[data-verdict='fair']", timeout=15000)
    assert page.get_attribute(f"{result} [data-check='parts']", "class") == "ok"
    revealed = next(r for r in p.state()["table"]["fairness"]["revealed"] if r["round"] == n)
    parts = revealed["client_seed"].split("|")
    assert parts[0] == part
    assert parts[1] == seat_part(revealed["server_seed"], n, 1)
    items = page.eval_on_selector_all(
        f"{result} .part-item",
        "els => els.map(e => [e.dataset.seat, e.className,"
        " e.querySelector('.part-value').textContent])")
    assert items == [["0", "part-item ok", parts[0]], ["1", "part-item ok", parts[1]]]
    page.click(f"{result} .fair-details summary")
    to_result = (f"document.querySelector(\"{result} .part-list\")"
                 ".scrollIntoView({block: 'center'})")
    page.evaluate(to_result)
    page.wait_for_timeout(250)
    shot(page, "fairness-parts-desktop")
    page.set_viewport_size(PHONE)
    page.evaluate(to_result)
    page.wait_for_timeout(250)
    shot(page, "fairness-parts-phone")
    page.evaluate("document.querySelector('#fairness').scrollIntoView()")
    page.wait_for_timeout(150)
    shot(page, "fairness-panel-phone")
    # The same in Arabic (the page relabels itself and keeps the check).
    choose_language(page, "ar")
    page.wait_for_function("document.documentElement.dir === 'rtl'")
    page.wait_for_selector(f"{result}[data-verdict='fair'] [data-check='parts'].ok",
                           state="attached")
    page.click(f"{result} .fair-details summary")
    page.evaluate(to_result)
    page.wait_for_timeout(250)
    shot(page, "fairness-parts-ar-phone")
    choose_language(page, "en")
    page.wait_for_function("document.documentElement.dir === 'ltr'")
    page.set_viewport_size(DESKTOP)

    # verifyRound on this real round, with what the page saw, then tampered.
    record = page.request.get(f"{server}/api/tables/{table_id}/record").json()
    plays = [{"seat": x["seat"], "card": x["card"]} for x in record["rounds"][n - 1]["plays"]]
    opening = next(m["view"]["opening_floor"] for m in p.received if m.get("type") == "state"
                   and m["view"]["round"] == n and m["view"]["opening_floor"])
    seen = {"variant": "egyptian", "seats": 2, "dealer": (n - 1) % 2,
            "commitment": revealed["commitment"], "opening_floor": opening, "plays": plays,
            "hands": {}, "seat": 0, "kinds": ["human", "bot"], "sentParts": [part]}
    real = p.page.evaluate(VERIFY_CLAIMED, [revealed, seen])
    assert real["fair"] and real["verdict"] == "fair", real
    # The bot's part changed, nothing else recomputed: not fair, check 3 fails.
    bot_tampered = {**revealed, "client_seed": f"{parts[0]}|{flip(parts[1])}"}
    lie = p.page.evaluate(VERIFY_CLAIMED, [bot_tampered, seen])
    assert not lie["fair"] and lie["verdict"] == "unfair"
    check = next(c for c in lie["checks"] if c["id"] == "parts")
    assert check["ok"] is False and check["badBots"] == [1]
    # Even a server that deals consistently from its own pick of the bot's part is caught.
    consistent = p.page.evaluate(VERIFY_PLAYED, [bot_tampered, {**seen, "dealer": 0}])
    assert not consistent["fair"] and failing(consistent) == ["parts"], consistent
    # The page's own part is not the one it sent (or it sent none and the part is not derived).
    for sent_parts in (["0" * 32], []):
        own = p.page.evaluate(VERIFY_CLAIMED, [revealed, {**seen, "sentParts": sent_parts}])
        assert not own["fair"] and failing(own) == ["parts"], own
        assert next(c for c in own["checks"] if c["id"] == "parts")["ownPart"]["ok"] is False
    # A wrong number of parts.
    extra = p.page.evaluate(VERIFY_CLAIMED, [{**revealed, "client_seed": revealed["client_seed"]
                                              + "|x"}, seen])
    assert not extra["fair"] and "parts" in failing(extra)
    # Cards seen before the commitment: not verifiable, which is not fair.
    early = p.page.evaluate(VERIFY_CLAIMED, [revealed, {**seen, "commitment": None,
                                                        "cardsFirst": True}])
    assert early["verdict"] == "unverifiable" and not early["fair"]
    no_errors(p)


def test_capture_choice_sends_the_chosen_take(players: list[Player], browser: Browser,
                                              server: str) -> None:
    # A choice comes up at random; play on, through new matches if need be, until one does.
    for table_number in range(4):
        p = make(players, browser, server, nickname=f"Chooser {table_number + 1}")
        page = p.page
        # A random bot leaves more on the floor than a greedy one: choices come sooner.
        page.check("input[name=level][value=random]")
        page.click("#play-bot")
        page.wait_for_url("**/table/*")
        for _ in range(400):
            event = p.next_turn()
            if event == "finished":
                break
            assert event == "turn"
            version = p.version()
            view = p.state(version)["view"]
            by_card: dict[str, list[dict[str, Any]]] = {}
            for play in view["legal"]:
                by_card.setdefault(play["card"], []).append(play)
            multi = next((c for c, options in by_card.items() if len(options) > 1), None)
            if multi is None:
                # Lay a card when one takes nothing, so the floor grows and choices appear.
                lay = next((c for c, options in by_card.items() if options[0]["take"] == []),
                           view["hand"][0])
                before = len(p.sent)
                page.click(f".hand-card[data-card='{lay}']")
                p.wait("() => (document.querySelector('.table-page').dataset.version | 0)"
                       f" > {version}")
                assert [m["card"] for m in p.sent[before:] if m["type"] == "play"] == [lay]
                continue
            options = by_card[multi]
            before = len(p.sent)
            page.click(f".hand-card[data-card='{multi}']")
            page.wait_for_selector(".choice-bar:not([hidden])")
            assert page.locator(".choice-option").count() == len(options)
            # Nothing is sent until a take is chosen.
            assert [m for m in p.sent[before:] if m["type"] == "play"] == []
            focused = page.eval_on_selector_all(".floor-card.opt-focus", CARDS_OF)
            assert sorted(focused) == sorted(options[0]["take"])
            page.hover(".choice-option[data-option='1']")
            focused = page.eval_on_selector_all(".floor-card.opt-focus", CARDS_OF)
            assert sorted(focused) == sorted(options[1]["take"])
            page.wait_for_timeout(600)
            shot(page, "choice-desktop")
            page.set_viewport_size(PHONE)
            page.wait_for_timeout(250)
            shot(page, "choice-phone")
            page.set_viewport_size(DESKTOP)
            # A number beyond the options does nothing; the second option plays.
            page.keyboard.press("9")
            page.click(".choice-option[data-option='1']")
            p.wait(f"() => (document.querySelector('.table-page').dataset.version | 0) > {version}")
            sent = [m for m in p.sent[before:] if m["type"] == "play"]
            assert sent == [{"type": "play", "version": version, "card": multi,
                             "take": options[1]["take"]}]
            played = p.state(version + 1)["view"]["plays"][-1]
            assert played["card"] == multi and sorted(played["take"]) == sorted(options[1]["take"])
            no_errors(p)
            return
    pytest.fail("no capture choice came up in four matches")


def test_two_players_through_an_invite_link(players: list[Player], browser: Browser,
                                            server: str) -> None:
    host = make(players, browser, server, nickname="Host")
    host.page.click("#create-private")
    host.page.wait_for_url("**/table/*")
    table_id = host.page.url.rsplit("/", 1)[1]
    host.page.wait_for_selector(".waiting-room .invite-link")
    link = host.page.input_value(".waiting-room .invite-link")
    assert "/join/" in link
    shot(host.page, "waiting-room-desktop")

    # The invite asks nothing: a player with a name takes the seat at once.
    guest = make(players, browser, server, nickname="Zoë O'Neil", viewport=PHONE)
    guest.page.goto(link)
    guest.page.wait_for_url(f"**/table/{table_id}")
    for p in (host, guest):
        p.page.wait_for_selector(".table-page[data-status='playing']")
    assert host.page.inner_text(".seat-plate[data-seat='1'] .plate-name") == "Zoë O'Neil"
    assert guest.page.inner_text(".seat-plate[data-seat='0'] .plate-name") == "Host"

    # Play a few turns each, whoever is to play.
    played = {0: 0, 1: 0}
    deadline = time.monotonic() + 60
    while min(played.values()) < 3:
        assert time.monotonic() < deadline
        for seat, p in ((0, host), (1, guest)):
            if p.dataset().get("turn") == "mine" and p.page.locator(".hand.my-turn").count():
                p.play_first()
                played[seat] += 1
        host.page.wait_for_timeout(50)

    # The guest drops: the host sees it, then a bot plays the seat.
    guest.page.close()
    host.page.wait_for_selector(".seat-plate[data-seat='1'] .badge.botplay", timeout=15000)
    assert host.state()["table"]["players"][1]["bot_playing"] is True
    shot(host.page, "opponent-dropped-desktop")
    before = host.version()
    host.wait(f"() => (document.querySelector('.table-page').dataset.version | 0) > {before + 1}"
              " || document.querySelector('.hand.my-turn')", timeout=30)
    # The guest comes back: the seat is theirs again.
    page = guest.new_page()
    page.goto(f"{server}/table/{table_id}")
    page.wait_for_selector(".table-page[data-status='playing']")
    hand = page.eval_on_selector_all(".hand-card", CARDS_OF)
    assert hand == guest.state(guest.version())["view"]["hand"]
    host.page.wait_for_selector(".seat-plate[data-seat='1'] .badge.botplay", state="detached",
                                timeout=15000)
    no_errors(host)
    no_errors(guest)


def test_a_dropped_connection_resumes(players: list[Player], browser: Browser,
                                      server: str) -> None:
    p = make(players, browser, server, nickname="Drop", viewport=PHONE, reduced_motion=True)
    page = p.page
    page.click("#play-bot")
    page.wait_for_url("**/table/*")
    assert p.wait_event() == "turn"
    p.play_first()
    welcomes = sum(1 for m in p.received if m.get("type") == "welcome")
    # The network goes away and the socket with it.
    p.context.set_offline(True)
    page.evaluate("window.basraTable.drop()")
    page.wait_for_selector(".conn-banner[data-state='lost']")
    assert "Connection lost" in page.inner_text(".conn-banner") or "offline" in page.inner_text(
        ".conn-banner")
    shot(page, "connection-lost-phone")
    page.wait_for_timeout(1500)
    assert page.locator(".conn-banner[data-state='lost']").count() == 1
    # It comes back: the page reconnects by itself and draws the server's snapshot.
    p.context.set_offline(False)
    page.wait_for_selector(".conn-banner[data-state='back']", timeout=20000)
    assert sum(1 for m in p.received if m.get("type") == "welcome") == welcomes + 1
    page.wait_for_function("() => { const t = document.querySelector('.table-page');"
                           " return t && t.dataset.turn === 'mine'; }", timeout=30000)
    state = p.state(p.version())
    hand = page.eval_on_selector_all(".hand-card", CARDS_OF)
    assert hand == state["view"]["hand"]
    # Keyboard only: the arrow keys move through the hand, Enter plays the focused card.
    page.focus(".hand-card[tabindex='0']")
    if len(hand) > 1:
        page.keyboard.press("ArrowRight")
        assert page.evaluate("document.activeElement.dataset.card") == hand[1]
    card = page.evaluate("document.activeElement.dataset.card")
    before = len(p.sent)
    version = p.version()
    page.keyboard.press("Enter")
    if page.locator(".choice-bar:not([hidden])").count():
        page.keyboard.press("Enter")
    p.wait(f"() => (document.querySelector('.table-page').dataset.version | 0) > {version}")
    assert [m["card"] for m in p.sent[before:] if m["type"] == "play"] == [card]
    no_errors(p, allow=("ERR_INTERNET_DISCONNECTED", "WebSocket connection"))


def test_a_page_that_misses_a_played_message_asks_for_the_state(
        players: list[Player], browser: Browser, server: str) -> None:
    """A played message the page never gets (lost between the socket and the page): the
    next one does not follow, so the page asks for the state (sync), once, takes it, and
    plays on from it."""
    p = make(players, browser, server, nickname="Gap", reduced_motion=True)
    page = p.page
    page.click("#play-bot")
    page.wait_for_url("**/table/*")
    while True:  # a turn with plays of the round still to come after this one and the bot's
        assert p.next_turn() == "turn"
        if len(p.state(p.version())["view"]["plays"]) < 40:
            break
        p.play_first()
    page.evaluate("""() => {
      const handlers = window.basraTable.handlers;
      const real = handlers.onMessage;
      window.__lost = null;
      handlers.onMessage = (m) => {
        if (m.type === 'played' && window.__lost === null) { window.__lost = m.version; return; }
        real(m);
      };
    }""")
    before = len(p.sent)
    play = p.play_first()
    p.wait("() => window.__lost !== null")
    lost = page.evaluate("window.__lost")
    assert lost == play["version"] + 1
    assert p.next_turn() == "turn"
    syncs = [m for m in p.sent[before:] if m["type"] == "sync"]
    assert syncs == [{"type": "sync"}], p.sent[before:]
    latest = p.states[-1]
    assert p.version() == latest["version"] > lost
    answer = next(m for m in p.received if m.get("type") == "state" and m["version"] > lost)
    assert play["card"] in [x["card"] for x in answer["view"]["plays"]]  # the lost play
    assert page.eval_on_selector_all(".hand-card", CARDS_OF) == latest["view"]["hand"]
    logged = page.eval_on_selector_all(".play-log .log-card", "els => els.length")
    assert logged == min(12, len(latest["view"]["plays"]))
    p.play_first()  # and the page plays on
    no_errors(p)


def test_quick_match_pairs_two_players_and_offers_a_bot(players: list[Player], browser: Browser,
                                                         server: str) -> None:
    first = make(players, browser, server, nickname="Quick One")
    first.page.click("#quick-match")
    first.page.wait_for_selector(".quick-option .waiting-line")
    # Cancel leaves the queue; looking again waits again.
    first.page.click("#quick-cancel")
    first.page.wait_for_selector("#quick-match")
    first.page.click("#quick-match")
    first.page.wait_for_selector(".quick-option .waiting-line")
    second = make(players, browser, server, nickname="Quick Two", viewport=PHONE)
    second.page.click("#quick-match")
    for p in (first, second):
        p.page.wait_for_url("**/table/*", timeout=15000)
    assert first.page.url == second.page.url
    for p in (first, second):
        p.page.wait_for_selector(".table-page[data-status='playing']")
    # Alone in the queue: after a while a bot is offered, and taking it starts a table.
    alone = make(players, browser, server, nickname="Quick Three")
    alone.page.click("#quick-match")
    alone.page.wait_for_selector("#quick-bot", timeout=15000)
    alone.page.click("#quick-bot")
    alone.page.wait_for_url("**/table/*")
    alone.page.wait_for_selector(".table-page[data-status='playing']")
    assert alone.state()["table"]["players"][1]["kind"] == "bot"
    for p in (first, second, alone):
        no_errors(p)


def test_quick_match_opponent_who_never_comes(players: list[Player], browser: Browser,
                                              server: str) -> None:
    """Matched with a player who never connects: the table says it is waiting for them,
    then the page is sent back to the queue (requeued) with the bot offer at once."""
    p = make(players, browser, server)
    page = p.page
    polls: list[str] = []
    page.on("request", lambda r: polls.append(r.url) if "/api/quick-match/" in r.url else None)
    p.sign_in("Patient")
    # A variant no other test queues for: nobody else can be matched in between.
    page.check("#variant-serbian")
    page.click("#quick-match")
    page.wait_for_selector(".quick-option .waiting-line")
    # Someone else asks for a match over HTTP and never opens the table.
    guest = page.request.post(f"{server}/api/guests", data={"nickname": "Absent"})
    assert guest.ok, guest.text()
    token = guest.json()["token"]
    matched = page.request.post(f"{server}/api/quick-match", data={"variant": "serbian"},
                                headers={"Authorization": f"Bearer {token}"})
    assert matched.ok, matched.text()
    page.wait_for_url("**/table/*", timeout=15000)
    table_id = page.url.rsplit("/", 1)[1]
    page.wait_for_selector(".table-page[data-phase='arriving'] .arriving-card")
    assert "Waiting for your opponent to connect" in page.inner_text(".me-status")
    shot(page, "arriving-desktop")
    # The arrival window ends: back in the lobby, waiting on a new ticket, the bot offered.
    page.wait_for_selector(".quick-notice[data-notice='requeued']", timeout=30000)
    requeued = [m for m in p.received if m.get("type") == "requeued"]
    assert len(requeued) == 1 and requeued[0]["variant"] == "serbian"
    assert "/table/" not in page.url
    assert page.locator("#quick-bot").is_visible()
    assert "never connected" in page.inner_text(".quick-notice")
    shot(page, "requeued-desktop")
    page.wait_for_timeout(500)
    ticket = requeued[0]["ticket"]
    assert any(f"/api/quick-match/{ticket}?wait=25" in url for url in polls), polls
    page.click("#quick-bot")
    page.wait_for_url(lambda url: "/table/" in url and table_id not in url)
    page.wait_for_selector(".table-page[data-status='playing']")
    assert p.state()["table"]["players"][1]["kind"] == "bot"
    no_errors(p)
