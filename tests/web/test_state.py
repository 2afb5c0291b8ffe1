"""The browser client's pure modules, tested in the real browser: state.js (every server
message type, played messages and the gaps that ask for a full state, the take choice, the
pending play, the parts sent) and scoring.js (the round breakdown from the engine's figures),
imported by the page from the running test server; and the rules the page uses are the
server's (GET /api/variants), not its own."""

from __future__ import annotations

import copy
import json
import re
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, Route
from websockets.sync.client import connect

from basra.server.wire.server_messages import apply_played
from web_helpers import ROOT, Player, basra_server

WEB = ROOT / "src" / "basra" / "web"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with basra_server(tmp_path_factory.mktemp("webstate")) as base:
        yield base


@pytest.fixture
def page(browser: Browser, server: str) -> Iterator[Page]:
    player = Player(browser, server)
    player.page.goto(server + "/rules")
    player.page.wait_for_selector(".rules-index")
    yield player.page
    assert not player.errors, player.errors
    player.close()


# ---------------------------------------------------------------------------------------
# messages as the server sends them (docs/PROTOCOL.md), small enough to read


def play(card: str, take: list[str] | None = None) -> dict[str, Any]:
    return {"card": card, "take": take or []}


def game(version: int, *, seat: int | None = 0, turn: int | None = 0,
         hand: list[str] | None = None, floor: list[str] | None = None,
         legal: list[dict[str, Any]] | None = None, plays: list[dict[str, Any]] | None = None,
         round_number: int = 1, results: list[dict[str, Any]] | None = None,
         status: str = "playing", phase: str = "playing", current: dict[str, Any] | None = None,
         clock: dict[str, Any] | None = None, players: list[dict[str, Any]] | None = None,
         rematch_table: str | None = None) -> dict[str, Any]:
    """A `state` message of a two-seat Egyptian table."""
    hand = ["5H", "9C", "KD"] if hand is None else hand
    floor = ["2C", "3S", "5D"] if floor is None else floor
    message: dict[str, Any] = {
        "type": "state", "version": version,
        "view": {
            "variant": "egyptian", "seat": seat, "seats": 2, "teams": False,
            "round": round_number, "dealer": 1, "deal": 1, "turn": turn, "hand": hand,
            "floor": floor, "opening_floor": floor, "plays": plays or [],
            "legal": legal if legal is not None else [play(c) for c in hand],
            "hand_counts": [len(hand), 4], "stock_count": 30, "pile_counts": [0, 0],
            "basras": [0, 0], "basra_points": [0, 0], "totals": [0, 0], "carry": 0,
            "sets": [0, 0], "target": 121, "results": results or [], "winner": None,
        },
        "table": {
            "id": "t1", "kind": "bot", "variant": "egyptian", "seats": 2, "teams": False,
            "status": status, "phase": phase,
            "players": players or [
                {"seat": 0, "name": "Amira", "kind": "human", "connected": True,
                 "bot_playing": False, "client_seed": None, "rematch": False},
                {"seat": 1, "name": "bot:medium", "kind": "bot", "connected": None,
                 "bot_playing": False, "client_seed": None, "rematch": False}],
            "clock": clock, "fairness": {"current": current, "revealed": []},
            "rematch_table": rematch_table,
        },
    }
    if seat is not None:
        message["you"] = seat
    return message


RESULT = {"cards": [30, 22], "basras": [1, 0], "points": [48, 2], "carry": 0,
          "totals": [48, 2], "carry_in": 0, "scores": [
              {"cards": 30, "majority": 30, "carry": 0, "card_points": 8,
               "card_counts": [2, 2, 1, 1], "basras": 1, "basra_points": 10, "points": 48},
              {"cards": 22, "majority": 0, "carry": 0, "card_points": 2,
               "card_counts": [2, 2, 0, 0], "basras": 0, "basra_points": 0, "points": 2}]}


def run(page: Page, script: str, data: Any = None) -> Any:
    """Run `script` (an async function body with `S` = state.js and `data`) in the page
    (written into the evaluated function: the page's Content-Security-Policy allows no
    `new Function`)."""
    return page.evaluate(
        "async (data) => {"
        " const S = await import('/static/js/table/state.js');"
        f" return (async () => {{ {script} }})(); }}", data)


# ---------------------------------------------------------------------------------------
# state.js


def test_messages_in_order_and_out_of_order(page: Page) -> None:
    """welcome, state, pong, a stale state, closed: the version is kept, a stale or empty
    message changes nothing (the same object back), and the state given is never changed."""
    out = run(page, """
      const s0 = S.initialState({id: 't1'});
      const s1 = S.receive(s0, {type: 'welcome', seat: 0, table: 't1'});
      const s2 = S.receive(s1, data.v3, 1000);
      const s3 = S.receive(s2, {type: 'pong'});
      const s4 = S.receive(s3, data.v2, 2000);
      const s5 = S.receive(s4, data.v3again, 3000);
      const s6 = S.receive(s5, {type: 'closed', reason: 'finished'});
      const s7 = S.receive(s6, {type: 'requeued', ticket: 'q1', bot_offer: true});
      return {
        s0: {seat: s0.seat, game: s0.game, connection: s0.connection, id: s0.id},
        s1: {seat: s1.seat, connectionId: s1.connectionId},
        s2: {version: s2.game.version, clock: s2.clock, floor: s2.floorOrder,
             log: s2.roundLogs[1], myTurn: S.myTurn(s2)},
        pongSame: s3 === s2, staleSame: s4 === s3, staleVersion: s4.game.version,
        equalTaken: s5 !== s4 ? s5.game.view.hand : null,
        s6: {closed: s6.closed, connection: s6.connection, version: s6.game.version},
        s7: s7.requeued,
        untouched: {seat: s0.seat, welcomes: s0.connectionId, game1: s1.game},
      };
    """, {"v3": game(3, clock={"seat": 0, "seconds": 30, "remaining_ms": 25000}),
          "v2": game(2, hand=["AS"]), "v3again": game(3, hand=["5H", "9C"])})
    assert out["s0"] == {"seat": None, "game": None, "connection": "connecting", "id": "t1"}
    assert out["s1"] == {"seat": 0, "connectionId": 1}
    assert out["s2"]["version"] == 3
    assert out["s2"]["clock"] == {"seat": 0, "remaining": 25000, "total": 30000, "at": 1000}
    assert out["s2"]["floor"] == ["2C", "3S", "5D"]
    assert out["s2"]["log"] == {"plays": [], "opening_floor": ["2C", "3S", "5D"], "dealer": 1}
    assert out["s2"]["myTurn"] is True
    assert out["pongSame"] is True
    assert out["staleSame"] is True and out["staleVersion"] == 3
    # The same version again (a reconnect's snapshot) is taken.
    assert out["equalTaken"] == ["5H", "9C"]
    assert out["s6"] == {"closed": {"reason": "finished"}, "connection": "ended", "version": 3}
    assert out["s7"] == {"ticket": "q1", "variant": "egyptian", "players": 2, "teams": False,
                         "offer": True}
    assert out["untouched"] == {"seat": None, "welcomes": 0, "game1": None}


def test_a_play_is_sent_once_and_freed_by_a_newer_state_or_an_error(page: Page) -> None:
    out = run(page, """
      let s = S.receive(S.receive(S.initialState(), {type: 'welcome', seat: 0}), data.v3);
      s = S.connectionStatus(s, 'open');
      const picked = S.pick(s, '9C');
      const message = S.playMessage(s, picked.play);
      const sent = S.playSent(s, message);
      const again = S.playMessage(sent, picked.play);
      const repick = S.pick(sent, '5H');
      const refused = S.receive(sent, {type: 'error', code: 'play/stale', message: ''});
      const other = S.receive(sent, {type: 'error', code: 'seed/round_started', message: ''});
      const newer = S.receive(sent, data.v4);
      const illegal = S.playMessage(s, {card: '9C', take: ['2C']});
      return {
        picked: picked.play, same: picked.state === s, message,
        sent: [sent.sentVersion, sent.sentCard, S.canPlay(s), S.canPlay(sent)],
        again, repick: repick.play, refused: refused.sentVersion, otherSame: other === sent,
        newer: [newer.sentVersion, newer.sentCard, newer.game.version], illegal,
        notMine: S.pick(S.receive(s, data.theirs), '9C').play,
      };
    """, {"v3": game(3), "v4": game(4, hand=["5H", "KD"]), "theirs": game(5, turn=1)})
    assert out["picked"] == {"card": "9C", "take": []} and out["same"] is True
    assert out["message"] == {"type": "play", "version": 3, "card": "9C", "take": []}
    assert out["sent"] == [3, "9C", True, False]
    assert out["again"] is None and out["repick"] is None
    assert out["refused"] is None
    assert out["otherSame"] is True
    assert out["newer"] == [None, None, 4]
    assert out["illegal"] is None
    assert out["notMine"] is None


CHOICE_LEGAL = [play("5H", ["5D"]), play("5H", ["2C", "3S"]), play("5H", ["AD", "4C"]),
                play("9C"), play("KD")]
FLOOR = ["2C", "3S", "5D", "AD", "4C"]


def test_the_take_choice_opens_narrows_and_closes(page: Page) -> None:
    out = run(page, """
      let s = S.receive(S.receive(S.initialState(), {type: 'welcome', seat: 0}), data.v1);
      const opened = S.pick(s, '5H');
      const c = opened.state;
      const focused = S.focusOption(c, 2);
      const oneTake = S.floorPick(focused, '3S');
      const none = S.floorPick(c, 'KH');
      // The next state lists fewer takes: the choice keeps the focused take, renumbered.
      const narrowed = S.receive(focused, data.v2);
      const single = S.receive(c, data.v3);
      const gone = S.receive(c, data.theirs);
      const lost = S.connectionStatus(c, 'reconnecting', {at: 5});
      const chosen = S.chooseOption(c, 1);
      return {
        opened: [opened.play, c.choice.card, c.choice.options.map(o => o.take), c.choice.focus],
        focused: focused.choice.focus, outOfRange: S.focusOption(c, 7) === c,
        oneTake: oneTake.play, none: [none.play, none.state === c],
        narrowed: narrowed.choice
          && [narrowed.choice.options.map(o => o.take), narrowed.choice.focus],
        single: single.choice, gone: gone.choice, lost: lost.choice,
        chosen: chosen.play, cancelled: S.cancelChoice(c).choice,
        preview: [S.setPreview(s, '5H').preview, S.setPreview(c, '9C') === c],
      };
    """, {"v1": game(1, hand=["5H", "9C", "KD"], floor=FLOOR, legal=CHOICE_LEGAL),
          "v2": game(2, hand=["5H", "9C"], floor=FLOOR,
                     legal=[CHOICE_LEGAL[0], CHOICE_LEGAL[2], play("9C")]),
          "v3": game(3, hand=["5H", "9C"], floor=FLOOR, legal=[CHOICE_LEGAL[0], play("9C")]),
          "theirs": game(4, turn=1, floor=FLOOR, legal=[])})
    assert out["opened"] == [None, "5H", [["5D"], ["2C", "3S"], ["AD", "4C"]], 0]
    assert out["focused"] == 2 and out["outOfRange"] is True
    assert out["oneTake"] == play("5H", ["2C", "3S"])
    assert out["none"] == [None, True]
    assert out["narrowed"] == [[["5D"], ["AD", "4C"]], 1]
    assert out["single"] is None and out["gone"] is None and out["lost"] is None
    assert out["chosen"] == play("5H", ["2C", "3S"])
    assert out["cancelled"] is None
    assert sorted(out["preview"][0]) == sorted(["5D", "2C", "3S", "AD", "4C"])
    assert out["preview"][1] is True


def test_a_floor_card_in_several_takes_moves_the_focus_among_them(page: Page) -> None:
    legal = [play("10H", ["4C", "6S"]), play("10H", ["4C", "AD", "5D"]),
             play("10H", ["6S", "AD", "3S"])]
    out = run(page, """
      const s = S.receive(S.receive(S.initialState(), {type: 'welcome', seat: 0}), data.v1);
      const c = S.pick(s, '10H').state;
      const a = S.floorPick(c, '4C');
      const b = S.floorPick(a.state, '4C');
      const d = S.floorPick(b.state, '5D');
      return [a.play, a.state.choice.focus, b.state.choice.focus, d.play];
    """, {"v1": game(1, hand=["10H"], floor=["4C", "6S", "AD", "5D", "3S"], legal=legal)})
    assert out == [None, 1, 0, legal[1]]


def test_parts_and_the_seed_window(page: Page) -> None:
    seeding = {"round": 2, "commitment": "ab" * 32, "client_seed": None}
    players = game(1)["table"]["players"]
    held = copy.deepcopy(players)
    held[0]["client_seed"] = "mine-from-another-tab"
    out = run(page, """
      let s = S.receive(S.receive(S.initialState(), {type: 'welcome', seat: 0}), data.seeding, 500);
      const pending = S.pendingRound(s);
      const before = S.partIn(s, []);
      const sent = S.partSent(s, 2);
      const after = S.partIn(sent, []);
      // A new connection: the part sent on the old one no longer counts, one the server
      // holds from this browser does.
      const reconnected = S.receive(sent, {type: 'welcome', seat: 0});
      const held = S.receive(reconnected, data.held, 900);
      const dropped = S.receive(sent, {type: 'error', code: 'protocol/rate_limited', message: ''});
      const ready = S.saidReady(s);
      const dealt = S.receive(s, data.dealt, 1200);
      return {pending, since: s.seedingSince, before, after,
              reconnected: S.partIn(reconnected, []),
              held: [S.partIn(held, []), S.partIn(held, ['mine-from-another-tab']),
                     held.seedingSince],
              dropped: [dropped.partSentOn, S.partIn(dropped, [])],
              ready: [ready.readyRound, S.readied(ready, []), S.readied(s, [])],
              dealt: [S.pendingRound(dealt), S.partIn(dealt, [])]};
    """, {"seeding": game(1, phase="seeding", turn=None, current=seeding),
          "held": game(2, phase="seeding", turn=None, current=seeding, players=held),
          "dealt": game(3, current={**seeding, "client_seed": "a|b"})})
    assert out["pending"] == 2 and out["since"] == 500
    assert out["before"] is False and out["after"] is True
    assert out["reconnected"] is False
    # Still the same pending round: its wait did not start again.
    assert out["held"] == [False, True, 500]
    assert out["dropped"] == [{}, False]
    assert out["ready"] == [2, True, False]
    assert out["dealt"] == [None, False]


def test_a_refused_part_stays_out_of_the_parts_this_page_sent(page: Page) -> None:
    """The server refused a part (it came after the round was dealt): it is no part this
    page sent, in this page and in another tab of the browser, though saving merges what
    is stored (this is what called an honest round unfair in a fresh-clone run)."""
    out = page.evaluate("""async () => {
      const { Evidence } = await import('/static/js/table/evidence.js');
      localStorage.removeItem('basra.table.T9');
      const ev = new Evidence('T9');
      ev.addPart(1, 'early'); ev.addPart(1, 'late'); ev.addPart(2, 'next');
      ev.dropPart(1, 'late');
      ev.save();  // saving merges the stored parts back in
      const other = new Evidence('T9');  // another tab
      other.merge();
      return [ev.partsFor(1), ev.partsFor(2), other.partsFor(1)];
    }""")
    assert out == [["early"], ["next"], ["early"]]


def test_the_next_round_waits_for_continue_and_what_the_page_is_told(page: Page) -> None:
    """Only the first round's part goes out by itself; a later round waits behind the
    summary (its countdown from table.next_round), which closes when the round is dealt;
    the bot's plays for this seat are told once each; a hint lasts until the game moves."""
    first = {"round": 1, "commitment": "ab" * 32, "client_seed": None}
    second = {"round": 2, "commitment": "cd" * 32, "client_seed": None}
    ended = game(5, phase="seeding", turn=None, current=second, results=[RESULT])
    ended["table"]["next_round"] = {"round": 2, "remaining_ms": 15000, "seconds": 15,
                                    "waiting_for": [0]}
    plays = [{"round": 1, "card": "7H", "take": ["7C"], "reason": "dropped"},
             {"round": 1, "card": "QS", "take": [], "reason": "clock"}]
    out = run(page, """
      const w = S.receive(S.initialState(), {type: 'welcome', seat: 0});
      const one = S.receive(w, data.first, 0);
      const played = S.receive(w, data.playing, 0);
      const ended = S.receive(played, data.ended, 1000);
      const shown = S.openOverlay(ended);
      const ready = S.saidReady(shown);
      const dealt = S.receive(ready, data.dealt, 5000);
      const opened = S.receive(w, data.ended, 0);
      const away = S.receive(dealt, {type: 'away', plays: data.plays});
      const hinted = S.receive(dealt, {type: 'hint', version: 6, card: '5H', take: ['5D']});
      return {
        due: [S.partDue(one), S.partDue(ended), S.partDue(ready)],
        clock: ended.clock, info: S.nextRoundInfo(shown, 4000),
        overlay: [shown.overlay.kind, ready.overlay && ready.overlay.kind, dealt.overlay,
                  dealt.nextRound, opened.overlayDue && opened.overlayDue.kind],
        away: away.away.map((p) => p.card + ':' + p.reason),
        again: S.awayReported(away, data.plays.slice(0, 1)) === away,
        dismissed: S.awayDismissed(away).away,
        hint: [hinted.hint.card, hinted.hint.take,
               S.receive(dealt, {type: 'hint', version: 5, card: '5H', take: []}) === dealt,
               S.receive(hinted, data.after, 6000).hint,
               S.playSent(hinted, {version: 6, card: '9C'}).hint],
        match: [S.inMatch(dealt), S.inMatch(S.receive(dealt, data.over, 7000))],
      };
    """, {"first": game(1, phase="seeding", turn=None, current=first),
          "playing": game(4, current={**first, "client_seed": "a|b"}),
          "ended": ended, "plays": plays,
          "dealt": game(6, round_number=2, results=[RESULT],
                        current={**second, "client_seed": "c|d"}),
          "after": game(7, round_number=2, results=[RESULT], turn=1, legal=[]),
          "over": game(8, round_number=2, results=[RESULT], status="finished", turn=None)})
    assert out["due"] == [True, False, True]
    assert out["clock"] is None
    assert out["info"] == {"round": 2, "left": 12000, "second": 12, "waiting": [0]}
    assert out["overlay"] == ["round", "round", None, None, "round"]
    assert out["away"] == ["7H:dropped", "QS:clock"]
    assert out["again"] is True and out["dismissed"] == []
    assert out["hint"] == ["5H", ["5D"], True, None, None]
    assert out["match"] == [True, False]


def test_overlays_rematch_and_a_remembered_seat(page: Page) -> None:
    out = run(page, """
      let s = S.receive(S.receive(S.initialState(), {type: 'welcome', seat: 0}), data.playing);
      const ended = S.receive(s, data.roundOver);
      const shown = S.openOverlay(ended);
      const finished = S.receive(shown, data.finished);
      const matchShown = S.openOverlay(finished);
      const late = S.openOverlay(matchShown, {kind: 'round', round: 1, index: 0});
      const rematch = S.receive(finished, data.rematch);
      const closed = S.closeOverlay(matchShown);
      // A table replayed after it left the server's memory: no seat in the welcome.
      let r = S.initialState({id: 't1', knownSeat: 1});
      r = S.receive(S.receive(r, {type: 'welcome', seat: null}), data.replayed);
      const watching = S.receive(S.initialState(), {type: 'welcome', seat: null});
      const spectator = S.receive(watching, data.replayed);
      return {
        due: ended.overlayDue, shown: [shown.overlay, shown.overlayDue],
        finished: finished.overlayDue, match: matchShown.overlay.kind,
        late: late.overlay.kind, follow: [finished.follow, rematch.follow],
        closed: closed.overlay, seat: r.seat, spectator: spectator.seat,
      };
    """, {"playing": game(5), "roundOver": game(6, round_number=1, results=[RESULT]),
          "finished": game(7, status="finished", phase="finished", turn=None, results=[RESULT]),
          "rematch": game(8, status="finished", phase="finished", turn=None, results=[RESULT],
                          rematch_table="t2"),
          "replayed": game(9, seat=None, status="finished", phase="finished", turn=None,
                           results=[RESULT])})
    assert out["due"] == {"kind": "round", "round": 1, "index": 0}
    assert out["shown"] == [{"kind": "round", "round": 1, "index": 0}, None]
    assert out["finished"] == {"kind": "match", "round": 1, "index": 0}
    assert out["match"] == "match" and out["late"] == "match"
    assert out["follow"] == [None, "t2"]
    assert out["closed"] is None
    assert out["seat"] == 1 and out["spectator"] is None


def test_the_floor_keeps_the_order_cards_were_laid(page: Page) -> None:
    out = run(page, """
      let s = S.receive(S.initialState(), {type: 'welcome', seat: 0});
      s = S.receive(s, data.a);
      const first = s.floorOrder;
      s = S.receive(s, data.b);
      const second = s.floorOrder;
      s = S.receive(s, data.c);
      return [first, second, s.floorOrder];
    """, {"a": game(1, floor=["9D", "2C", "KS"]),
          # 9C takes 9D; 3H is laid: the server sends canonical order, the page keeps its own.
          "b": game(2, floor=["2C", "3H", "KS"], plays=[play("9C", ["9D"]) | {"seat": 0},
                                                         play("3H") | {"seat": 1}]),
          "c": game(3, round_number=2, floor=["AC", "7S", "QD", "4H"])})
    assert out[0] == ["9D", "2C", "KS"]
    assert out[1] == ["2C", "KS", "3H"]
    assert out[2] == ["AC", "7S", "QD", "4H"]


def played(version: int, card: str, take: list[str] | None = None, *, seat: int = 0,
           hand: list[str] | None = None, floor: list[str] | None = None, turn: int = 1,
           legal: list[dict[str, Any]] | None = None, basra: int = 0,
           round_number: int = 1) -> dict[str, Any]:
    """A `played` message of a two-seat Egyptian table (docs/PROTOCOL.md 2.1)."""
    return {"type": "played", "version": version, "round": round_number, "seat": seat,
            "card": card, "take": take or [], "basra": basra, "by_bot": seat != 0,
            "turn": turn, "deal": 1, "hand": hand or [], "hand_counts": [2, 4],
            "floor": floor or [], "stock_count": 30, "pile_counts": [len(take or []) + 1, 0],
            "basras": [1 if basra else 0, 0], "basra_points": [basra, 0],
            "last_taker": 0 if take else None, "legal": legal or [],
            "clock": None if turn != 0 else {"seat": 0, "seconds": 30, "remaining_ms": 30000}}


def test_played_messages_change_the_game_and_a_gap_asks_for_the_state(page: Page) -> None:
    """A played message that follows is applied (the play appended, the view's fields and
    the clock replaced, a new object); a stale one changes nothing; one that does not follow
    (a version gap, another round, a field missing, no game yet) sets `syncing`, and no
    played message is taken until a full state comes."""
    out = run(page, """
      let s = S.receive(S.receive(S.initialState(), {type: 'welcome', seat: 0}), data.v3, 100);
      s = S.connectionStatus(s, 'open');
      const sent = S.playSent(s, S.playMessage(s, {card: '5H', take: ['5D']}));
      const mine = S.receive(sent, data.mine, 200);
      const theirs = S.receive(mine, data.theirs, 300);
      const stale = S.receive(theirs, data.mine, 400);
      const gap = S.receive(theirs, data.gap, 500);
      const more = S.receive(gap, data.after, 600);
      const synced = S.receive(more, data.full, 700);
      const then = S.receive(synced, data.next, 800);
      const wrong = [data.otherRound, data.bare].map((m) => S.receive(theirs, m, 900).syncing);
      const early = S.receive(S.initialState(), data.mine, 1000);
      return {
        mine: {version: mine.game.version, plays: mine.game.view.plays, hand: mine.game.view.hand,
               floor: mine.game.view.floor, order: mine.floorOrder, sent: mine.sentVersion,
               turn: mine.game.view.turn, myTurn: S.myTurn(mine), clock: mine.clock,
               log: mine.roundLogs[1].plays, table: mine.game.table.id, you: mine.game.you,
               untouched: [sent.game.version, sent.game.view.plays.length]},
        theirs: {version: theirs.game.version, order: theirs.floorOrder, myTurn: S.myTurn(theirs),
                 clock: theirs.clock, legal: theirs.game.view.legal},
        stale: stale === theirs,
        gap: [gap.syncing, gap.game === theirs.game], more: more === gap,
        synced: [synced.syncing, synced.game.version], then: [then.game.version, then.syncing],
        wrong, early: [early.syncing, early.game],
      };
    """, {"v3": game(3, hand=["5H", "9C", "KD"], floor=["2C", "3S", "5D"],
                     legal=[play("5H", ["5D"]), play("9C"), play("KD")]),
          "mine": played(4, "5H", ["5D"], hand=["9C", "KD"], floor=["2C", "3S"], turn=1),
          "theirs": played(5, "QS", seat=1, hand=["9C", "KD"], floor=["2C", "3S", "QS"],
                           turn=0, legal=[play("9C"), play("KD")]),
          "gap": played(7, "AH", seat=0, turn=1), "after": played(8, "AD", seat=1, turn=0),
          "full": game(8, hand=["KD"], floor=["2C"]),
          "next": played(9, "KD", hand=[], floor=["2C", "KD"], turn=1),
          "otherRound": played(6, "AH", round_number=2),
          "bare": {k: v for k, v in played(6, "AH").items() if k != "floor"}})
    mine = out["mine"]
    assert mine["version"] == 4 and mine["plays"] == [
        {"seat": 0, "card": "5H", "take": ["5D"], "basra": 0}]
    assert mine["hand"] == ["9C", "KD"] and mine["floor"] == ["2C", "3S"]
    assert mine["order"] == ["2C", "3S"] and mine["sent"] is None
    assert mine["turn"] == 1 and mine["myTurn"] is False and mine["clock"] is None
    assert mine["log"] == [{"seat": 0, "card": "5H"}]
    assert mine["table"] == "t1" and mine["you"] == 0
    assert mine["untouched"] == [3, 0]
    theirs = out["theirs"]
    assert theirs["version"] == 5 and theirs["order"] == ["2C", "3S", "QS"]
    assert theirs["myTurn"] is True and theirs["legal"] == [play("9C"), play("KD")]
    assert theirs["clock"] == {"seat": 0, "remaining": 30000, "total": 30000, "at": 300}
    assert out["stale"] is True
    assert out["gap"] == [True, True] and out["more"] is True
    assert out["synced"] == [False, 8] and out["then"] == [9, False]
    assert out["wrong"] == [True, True]
    assert out["early"] == [True, None]


def recorded_match(server: str) -> list[dict[str, Any]]:
    """Every message a guest's connection to a bot table got, from the welcome through its
    first round and into the second (sending its parts, playing its first legal play)."""
    with httpx.Client(base_url=server, timeout=30) as http:
        token = http.post("/api/guests", json={"nickname": "Recorder"}).json()["token"]
        table_id = http.post("/api/tables/bot", headers={"Authorization": f"Bearer {token}"},
                             json={"bot_level": "random"}).json()["table"]["id"]
    messages: list[dict[str, Any]] = []
    held: dict[str, Any] = {}
    sent = -1
    deadline = time.monotonic() + 120
    url = server.replace("http://", "ws://") + f"/ws/tables/{table_id}?auth=1"
    with connect(url) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        while time.monotonic() < deadline:
            message = json.loads(ws.recv(30))
            messages.append(message)
            if message["type"] == "state":
                held = message
            elif message["type"] == "played":
                held = apply_played(held, message)
            else:
                continue
            view, current = held["view"], held["table"]["fairness"]["current"]
            if view["round"] == 2 and len(view["plays"]) >= 6:
                return messages
            if held["table"]["phase"] == "seeding" and current and current["round"] > view["round"]:
                ws.send(json.dumps({"type": "seed", "round": current["round"],
                                    "client_seed": f"recorder-{current['round']}"}))
            elif view["turn"] == 0 and view["legal"] and held["version"] > sent:
                sent = held["version"]
                ws.send(json.dumps({"type": "play", "version": sent, **view["legal"][0]}))
    raise AssertionError("the recorded match did not reach its second round")


def test_state_js_holds_what_the_reference_holds_through_a_real_match(page: Page,
                                                                      server: str) -> None:
    """The server's own messages of a real match, fed to state.receive one by one: after
    each, the page's game is the state the protocol's reference (``apply_played``, the one
    the server tests hold to the server's full states) holds."""
    messages = recorded_match(server)
    assert sum(m["type"] == "played" for m in messages) > 40
    games = run(page, """
      let s = S.initialState({id: 'x'});
      const games = [];
      for (const m of data) { s = S.receive(s, m, 0); games.push([s.game, s.syncing]); }
      return games;
    """, messages)
    held: dict[str, Any] = {}
    for message, (got, syncing) in zip(messages, games, strict=True):
        if message["type"] == "state":
            held = message
        elif message["type"] == "played":
            held = apply_played(held, message)
        assert syncing is False
        assert got == (held or None), message["type"]


# ---------------------------------------------------------------------------------------
# scoring.js: the breakdown is the engine's


def test_the_round_breakdown_reads_the_engines_figures(page: Page) -> None:
    carried = {**RESULT, "carry_in": 30, "scores": [
        {**RESULT["scores"][0], "carry": 30, "points": 78}, RESULT["scores"][1]],
        "points": [78, 2], "totals": [130, 2]}
    tie = {**RESULT, "carry": 30, "carry_in": 0}
    got = page.evaluate("""async ([results]) => {
      const {roundBreakdown} = await import('/static/js/lib/scoring.js');
      const view = {variant: 'egyptian', round: 3, results};
      return [roundBreakdown(view, {index: 0, round: 1}), roundBreakdown(view),
              roundBreakdown({variant: 'egyptian', round: 4,
                              results: [{...results[0], scores: []}]}),
              roundBreakdown({variant: 'egyptian', round: 0, results: []})];
    }""", [[RESULT, carried, tie]])
    first, last, bare, none = got
    assert first["round"] == 1 and first["exact"] is True
    assert first["majority"] == [30, 0] and first["carry"] == [0, 0]
    lines = [(x["spec"], x["each"], x["counts"], x["points"]) for x in first["lines"]]
    assert lines == [
        ("J", 1, [2, 2], [2, 2]), ("A", 1, [2, 2], [2, 2]),
        ("2C", 2, [1, 0], [2, 0]), ("10D", 3, [1, 0], [3, 0])]
    assert first["basras"] == [1, 0] and first["basraPoints"] == [10, 0]
    assert first["points"] == [48, 2] and first["totals"] == [48, 2]
    assert first["tie"] is False
    assert last["round"] == 3 and last["tie"] is True and last["carryOut"] == 30
    second = page.evaluate("""async ([results]) => {
      const {roundBreakdown} = await import('/static/js/lib/scoring.js');
      return roundBreakdown({variant: 'egyptian', round: 2, results}, {index: 1, round: 2});
    }""", [[RESULT, carried, tie]])
    assert second["majority"] == [60, 0] and second["carry"] == [30, 0]
    assert second["carryIn"] == 30 and second["tie"] is False
    assert bare["exact"] is False and bare["lines"] == [] and bare["points"] == [48, 2]
    assert none is None
    source = (WEB / "js" / "lib" / "scoring.js").read_text(encoding="utf-8")
    assert "capturedBySide" not in source and "plays" not in source


# ---------------------------------------------------------------------------------------
# the rules are the server's


def served(page: Page, server: str) -> dict[str, Any]:
    answer = page.request.get(server + "/api/variants")
    assert answer.ok
    book: dict[str, Any] = answer.json()
    return book


def test_the_page_uses_the_served_rules(browser: Browser, server: str) -> None:
    p = Player(browser, server)
    try:
        book = served(p.page, server)
        assert book["format"] == "basra-variants/1"
        p.page.goto(server + "/")
        p.page.wait_for_selector("#nickname")
        levels = p.page.eval_on_selector_all("input[name=level]", "els => els.map(e => e.value)")
        assert levels == book["bot_levels"]
        variants = p.page.eval_on_selector_all("input[name=variant]",
                                               "els => els.map(e => e.value)")
        assert variants == [v["name"] for v in book["variants"]]
        nickname = p.page.locator("#nickname")
        assert nickname.get_attribute("minlength") == str(book["limits"]["nickname_min"])
        assert nickname.get_attribute("maxlength") == str(book["limits"]["nickname_max"])
        got = p.page.evaluate("""async () => {
          const v = await import('/static/js/lib/variants.js');
          const f = await import('/static/js/lib/fairness.js');
          return {book: v.rulebook(), part: f.maxPartBytes(), own: f.ownTextBytes(),
                  plays: v.variantNames().map(n => v.variantOf(n).plays_per_round),
                  forbidden: v.isForbidden('egyptian', '7D'), power: v.isPower('lebanese', '7D'),
                  points: v.cardPoints('serbian', '10D')};
        }""")
        assert got["book"] == book
        assert got["part"] == book["limits"]["max_part_bytes"]
        assert got["own"] == book["limits"]["own_text_bytes"]
        assert got["plays"] == [v["plays_per_round"] for v in book["variants"]]
        assert got["forbidden"] is True and got["power"] is False and got["points"] == -3
        # Lebanese has four seatings: the lobby offers exactly the served ones.
        p.page.check("#variant-lebanese")
        seatings = p.page.eval_on_selector_all("#bot-seating option",
                                               "els => els.map(e => e.value)")
        lebanese = next(v for v in book["variants"] if v["name"] == "lebanese")
        assert seatings == [f"{s['players']}{'t' if s['teams'] else ''}"
                            for s in lebanese["seatings"]]
        assert not p.errors, p.errors
    finally:
        p.close()


def test_other_served_rules_change_the_page(browser: Browser, server: str) -> None:
    """The page has no rules of its own: a rule book with other bot levels, another target,
    other card points and other limits is what it shows."""
    p = Player(browser, server)
    try:
        book = served(p.page, server)
        other = copy.deepcopy(book)
        other["bot_levels"] = ["hard", "easy"]
        egyptian = next(v for v in other["variants"] if v["name"] == "egyptian")
        egyptian["target"] = 77
        egyptian["card_points"][3]["points"] = 5
        egyptian["plays_per_round"] = 44
        other["limits"]["nickname_max"] = 12

        def fulfil(route: Route) -> None:
            route.fulfill(status=200, content_type="application/json", body=json.dumps(other))

        p.page.route("**/api/variants", fulfil)
        p.page.goto(server + "/")
        p.page.wait_for_selector("#nickname")
        levels = p.page.eval_on_selector_all("input[name=level]", "els => els.map(e => e.value)")
        assert levels == ["hard", "easy"]
        assert p.page.get_attribute("#nickname", "maxlength") == "12"
        p.page.goto(server + "/rules/egyptian")
        p.page.wait_for_selector(".points-table")
        table = p.page.inner_text(".points-table")
        assert re.search(r"10♦\s*\+5", table), table
        assert "77" in p.page.inner_text(".rules-section")
        plays = p.page.evaluate("async () => (await import('/static/js/lib/variants.js'))"
                                ".variantOf('egyptian').plays_per_round")
        assert plays == 44
        assert not p.errors, p.errors
    finally:
        p.close()


def test_without_the_rules_the_page_says_so(browser: Browser, server: str) -> None:
    p = Player(browser, server)
    try:
        p.page.route("**/api/variants", lambda route: route.fulfill(status=503, body="{}"))
        p.page.goto(server + "/")
        p.page.wait_for_selector("#app [role=alert]", timeout=15000)
        assert p.page.locator("#nickname").count() == 0
    finally:
        p.close()


# ---------------------------------------------------------------------------------------
# the shape of the code


def test_browser_modules_stay_small_and_write_no_markup() -> None:
    files = sorted((WEB / "js").rglob("*.js"))
    assert len(files) > 20
    for path in files:
        source = path.read_text(encoding="utf-8")
        assert source.count("\n") <= 400, (path, source.count("\n"))
        assert not re.search(r"\.(innerHTML|outerHTML)\s*=|insertAdjacentHTML|document\.write",
                             source), path
    state = (WEB / "js" / "table" / "state.js").read_text(encoding="utf-8")
    assert not re.search(r"\b(document|window|localStorage|sessionStorage|performance|Date)\.",
                         state)
    # No rule of a variant is written in the browser's code.
    for path in files:
        source = path.read_text(encoding="utf-8")
        assert "PLAYS_PER_ROUND" not in source, path
        assert not re.search(r"target:\s*1[02]1", source), path
