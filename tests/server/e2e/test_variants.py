"""``GET /api/variants`` against the ``Rules`` objects themselves: every variant with its
aliases, seatings, targets, card points per card, power cards, opening, plays per round;
the bot levels; the limits a client keeps to (FAIRNESS.md, nicknames)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from basra.bots import LEVELS
from basra.game.cards import NAMES, parse_card
from basra.game.rules import DEFAULT_VARIANT, VARIANTS, find_variant
from basra.game.shuffle import MAX_CLIENT_SEED_BYTES, MAX_PART_BYTES, OWN_TEXT_BYTES
from basra.server.identity.accounts import PASSWORD_MAX, PASSWORD_MIN
from basra.server.identity.guests import NICKNAME_MAX, NICKNAME_MIN
from basra.server.wire import sayings
from server_harness import database, running_server


@pytest.fixture(scope="module", name="book")
def book_fixture(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    tmp: Path = tmp_path_factory.mktemp("variants")
    with database("sqlite", tmp) as store, running_server(store.settings()) as base:
        answer = httpx.get(f"{base}/api/variants")
        assert answer.status_code == 200, answer.text
        yield answer.json()


def cards(names: list[str]) -> int:
    mask = 0
    for name in names:
        mask |= 1 << parse_card(name)
    return mask


def test_every_variant_is_served_once_in_order(book: dict[str, Any]) -> None:
    assert book["format"] == "basra-variants/1"
    assert book["default"] == DEFAULT_VARIANT
    assert [v["name"] for v in book["variants"]] == list(VARIANTS)


@pytest.mark.parametrize("name", list(VARIANTS))
def test_a_variant_is_its_rules(book: dict[str, Any], name: str) -> None:
    served = next(v for v in book["variants"] if v["name"] == name)
    rules = VARIANTS[name]
    assert served["aliases"] == list(rules.aliases)
    for alias in served["aliases"]:
        assert find_variant(alias) is rules
    assert {(s["players"], s["teams"]) for s in served["seatings"]} == set(rules.seatings)
    assert len(served["seatings"]) == len(rules.seatings)
    assert served["target"] == rules.target
    assert served["sets_to_win"] == rules.sets_to_win
    assert served["deciding_set_target"] == rules.deciding_set_target
    assert served["deal_size"] == rules.deal_size and served["floor_size"] == rules.floor_size
    assert served["plays_per_round"] == rules.plays_per_round
    assert cards(served["opening_forbidden"]) == rules.opening_forbidden
    assert served["sum_sets"] == rules.sum_sets
    assert served["basra_points"] == rules.basra_points
    assert served["basra_floor_limit"] == rules.basra_floor_limit
    assert served["last_play_basra"] == rules.last_play_basra
    # card points, card by card, as the engine scores them
    points = [0] * 52
    for line in served["card_points"]:
        for card in line["cards"]:
            points[parse_card(card)] += line["points"]
    assert tuple(points) == rules.card_points, [
        (NAMES[c], points[c], rules.card_points[c]) for c in range(52)
        if points[c] != rules.card_points[c]]
    # power cards, each under the condition the rules give it
    power = 0
    for group in served["power"]:
        for card in group["cards"]:
            c = parse_card(card)
            assert not power >> c & 1, f"{card} listed twice"
            power |= 1 << c
            rule = dict(rules.power_basra)[c]
            assert (group["kind"], group["points"], group["limit"]) == (
                rule.kind, rule.points, rule.limit)
    assert power == rules.power_cards


def test_bot_levels_and_limits(book: dict[str, Any]) -> None:
    assert book["bot_levels"] == list(LEVELS)
    assert book["limits"] == {"max_part_bytes": MAX_PART_BYTES,
                              "own_text_bytes": OWN_TEXT_BYTES,
                              "max_client_seed_bytes": MAX_CLIENT_SEED_BYTES,
                              "nickname_min": NICKNAME_MIN, "nickname_max": NICKNAME_MAX,
                              "password_min": PASSWORD_MIN, "password_max": PASSWORD_MAX,
                              "sayings_per_match": sayings.PER_MATCH,
                              "saying_gap_ms": 2000, "phrases": list(sayings.PHRASES),
                              "reactions": list(sayings.REACTIONS)}
