"""``benchmarks/rival_bot.py``, the outside engine: it plays whole rounds through the arena
(two players and four in teams), speaks the protocol, and its own rules engine agrees with
ours on captures, basras and card points."""

from __future__ import annotations

import json
import random
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import rival_bot

from basra.arena import command as arena
from basra.game.captures import takes
from basra.game.engine import basra_points
from basra.game.rules import find_variant

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "benchmarks" / "rival_bot.py"
RIVAL = "cmd:" + shlex.join([sys.executable, str(BOT), "--time-ms", "15"])

EXAMPLE_VIEW = {
    "variant": "egyptian", "seat": 0, "seats": 2, "teams": False, "round": 1, "dealer": 0,
    "deal": 1, "turn": 0, "hand": ["4D", "QD", "2S"], "hand_counts": [3, 2],
    "floor": ["4C", "7H"], "opening_floor": ["QC", "AH", "4S", "7S"], "stock_count": 40,
    "plays": [{"seat": 1, "card": "7D", "take": ["QC", "AH", "4S", "7S"], "basra": 0},
              {"seat": 0, "card": "4C", "take": [], "basra": 0},
              {"seat": 1, "card": "7H", "take": [], "basra": 0}],
    "pile_counts": [0, 5], "basras": [0, 0], "basra_points": [0, 0], "last_taker": 1,
    "leftover": [], "totals": [0, 0], "carry": 0, "sets": [0, 0], "target": 121,
    "results": [], "winner": None,
    "legal": [{"card": "4D", "take": ["4C"]}, {"card": "QD", "take": []},
              {"card": "2S", "take": []}],
}


@pytest.mark.parametrize("extra", [
    ["--variant", "egyptian"],
    ["--variant", "lebanese", "--players", "4", "--teams"],
], ids=["egyptian-2", "lebanese-4-teams"])
def test_rival_plays_arena_rounds(extra: list[str], capsys: pytest.CaptureFixture[str]
                                  ) -> None:
    status = arena.main(["--a", "medium", "--b", RIVAL, "--rounds", "2", "--seed", "1",
                         "--json", *extra])
    out, err = capsys.readouterr()
    assert status == 0, err
    rep = json.loads(out)
    assert rep["games"] == 4
    assert rep["think_ms_per_play"]["b"]["plays"] > 0


@pytest.mark.parametrize("name", ["egyptian", "arabic101", "lebanese", "serbian"])
def test_rules_agree_with_ours(name: str) -> None:
    rules = find_variant(name)
    ours = rival_bot.variant_of(name)
    rng = random.Random(name)
    for _ in range(3000):
        cards = rng.sample(range(52), rng.randint(1, 9))
        card, floor = cards[0], sum(1 << c for c in cards[1:])
        found = sorted(ours.takes(card, floor))
        assert found == sorted(takes(rules, card, floor))
        for take in found:
            for last in (False, True):
                assert (ours.basra(card, take, floor, last)
                        == basra_points(rules, card, take, floor, last))
    assert list(ours.points) == [rules.card_points[c] for c in range(52)]


def _answer(view: dict, seed: int = 1) -> dict:
    out: list[str] = []

    class Out:
        def write(self, text: str) -> None:
            out.append(text)

        def flush(self) -> None:
            pass

    server = rival_bot.Server(rival_bot.Engine(10, seed), Out())
    server.handle_line(json.dumps({"type": "hello", "protocol": rival_bot.PROTOCOL}))
    server.handle_line(json.dumps({"type": "play", "id": 7, "view": view}))
    return json.loads(out[-1])


def _legal(view: dict) -> set[tuple[str, frozenset[str]]]:
    return {(p["card"], frozenset(p["take"])) for p in view["legal"]}


def test_answers_one_of_legal_in_every_phase() -> None:
    reply = _answer(EXAMPLE_VIEW)
    assert reply["type"] == "play" and reply["id"] == 7
    assert (reply["card"], frozenset(reply["take"])) in _legal(EXAMPLE_VIEW)
    # the last deal of a two-player round, solved exactly: seat 0 holds 10D and 3H, the
    # opponent the only unseen cards, 5S and KC; the floor is the 10C. The 10D's basra wins.
    seen = {"10D", "3H", "5S", "KC"}
    played = [c for c in rival_bot.NAMES if c not in seen]
    last = dict(EXAMPLE_VIEW, hand=["10D", "3H"], hand_counts=[2, 2], floor=["10C"],
                opening_floor=[], stock_count=0, pile_counts=[24, 23], last_taker=1,
                plays=[{"seat": i % 2, "card": c, "take": [], "basra": 0}
                       for i, c in enumerate(played)],
                legal=[{"card": "3H", "take": []}, {"card": "10D", "take": ["10C"]}])
    assert rival_bot.State(last).consistent()
    reply = _answer(last)
    assert (reply["card"], frozenset(reply["take"])) == ("10D", frozenset({"10C"}))


def test_protocol_lines() -> None:
    lines = [
        {"type": "ping"},
        {"type": "hello", "protocol": "basra-engine/9"},
        {"type": "hello", "protocol": "basra-engine/1"},
        "not json",
        [1, 2],
        {"type": "ping", "id": "p1"},
        {"type": "option", "name": "time_ms", "value": 0},
        {"type": "option", "name": "speed", "value": 1},
        {"type": "option", "name": "seed", "value": 5},
        {"type": "option", "name": "time_ms", "value": 20},
        {"type": "play", "id": 1, "view": dict(EXAMPLE_VIEW, legal=[])},
        {"type": "play", "id": 2, "view": dict(EXAMPLE_VIEW, variant="klondike")},
        {"type": "play", "id": 3, "view": dict(EXAMPLE_VIEW, hand=["ZZ"])},
        {"type": "play", "id": 4},
        {"type": "dance"},
        {"type": "play", "id": 5, "view": EXAMPLE_VIEW},
        {"type": "quit"},
        {"type": "ping"},
    ]
    text = "".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines)
    done = subprocess.run([sys.executable, str(BOT)], input=text, capture_output=True,
                          text=True, timeout=30, check=False)
    assert done.returncode == 0, done.stderr
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    kinds = [r.get("code", r["type"]) for r in replies]
    assert kinds == [
        "protocol/no_hello", "protocol/unsupported_version", "hello", "protocol/bad_json",
        "protocol/not_object", "pong", "option/bad_value", "option/unknown", "ok", "ok",
        "view/not_your_turn", "view/invalid", "view/invalid", "protocol/bad_message",
        "protocol/unknown_type", "play",
    ]
    assert replies[5]["id"] == "p1"
    assert {o["name"] for o in replies[2]["options"]} == {"time_ms", "seed"}
    assert (replies[-1]["card"], frozenset(replies[-1]["take"])) in _legal(EXAMPLE_VIEW)


def test_independent_of_the_package() -> None:
    source = BOT.read_text(encoding="utf-8")
    assert "import basra" not in source and "from basra" not in source
