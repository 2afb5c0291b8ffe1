"""The rules page's "How strong the bots are" (issue 32, point 6), in Debian's chromium
against a real ``basra serve``: the ladder the arena measured (each level's loss to perfect
play, every pair of levels, matches where they were played) shown from the shipped
``data/ladder.json``, number for number, at phone width in English and Arabic; and the
shipped file itself holds every level and every pair."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from itertools import combinations
from typing import Any

import pytest
from playwright.sync_api import Browser

from web.phone import person
from web.test_account import catalogue, no_errors
from web_helpers import ROOT, Player, basra_server, shot

pytestmark = pytest.mark.slow

LADDER = ROOT / "src" / "basra" / "web" / "data" / "ladder.json"
LEVELS = ("random", "easy", "medium", "hard", "expert")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with basra_server(tmp_path_factory.mktemp("rules-ladder")) as base:
        yield base


def ladder() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(LADDER.read_text(encoding="utf-8"))
    return data


def test_the_shipped_ladder_holds_every_level_and_every_pair() -> None:
    data = ladder()
    assert data["format"] == "basra-site-ladder/1"
    assert list(data["oracle"]) == list(LEVELS)
    for mean, low, high in data["oracle"].values():
        assert low <= mean <= high
    in_rounds = [(p["a"], p["b"]) for p in data["pairs"] if p["mode"] == "rounds"]
    assert sorted(in_rounds) == sorted((s, w) for w, s in combinations(LEVELS, 2))
    assert all(p["deals"] >= 40 for p in data["pairs"] if p["mode"] == "rounds")
    assert any(p["mode"] == "matches" for p in data["pairs"])


def signed(n: float) -> str:
    return f"+{n:g}" if n > 0 else f"\u2212{-n:g}" if n < 0 else "0"


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_rules_page_shows_the_measured_ladder(players: list[Player], browser: Browser,
                                                  server: str, lang: str) -> None:
    words = catalogue(lang)
    data = ladder()
    p = person(players, browser, server, lang)
    page = p.page
    page.goto(server + "/rules")
    page.wait_for_selector(".ladder-oracle tbody tr")
    assert page.inner_text("#rules-ladder") == words["rules.ladder.title"]
    # Each level's loss to perfect play, in the file's order and numbers.
    rows = page.eval_on_selector_all(
        ".ladder-oracle tbody tr",
        "rows => rows.map(r => [r.dataset.level, r.querySelector('th').textContent,"
        " r.querySelector('td').textContent])")
    assert [r[0] for r in rows] == list(data["oracle"])
    for (name, label, shown), (mean, low, high) in zip(rows, data["oracle"].values(),
                                                       strict=True):
        assert label == words[f"bot.level.{name}"]
        assert shown == words["rules.ladder.interval"].format(mean=f"{mean:g}", low=f"{low:g}",
                                                              high=f"{high:g}"), shown
    # Every pair in rounds, signed; a share of matches where matches were played.
    pairs = page.eval_on_selector_all(
        ".ladder-pairs tbody tr",
        "rows => rows.map(r => [r.dataset.pair, ...[...r.querySelectorAll('td')]"
        ".map(d => d.textContent)])")
    rounds = {f"{q['a']}-{q['b']}": q for q in data["pairs"] if q["mode"] == "rounds"}
    matches = {f"{q['a']}-{q['b']}": q for q in data["pairs"] if q["mode"] == "matches"}
    assert sorted(r[0] for r in pairs) == sorted(rounds)
    for key, per_round, won in pairs:
        mean, low, high = rounds[key]["difference"]
        assert per_round == words["rules.ladder.interval"].format(
            mean=signed(mean), low=signed(low), high=signed(high))
        if key in matches:
            share, low, high = (math.floor(100 * x + 0.5) for x in matches[key]["wins"])
            assert won == words["rules.ladder.share"].format(
                share=share, n=matches[key]["matches"], low=low, high=high)
        else:
            assert won == ""
    assert page.locator(".ladder-measured").count() == 1
    # The tables fit a phone: nothing wider than the page.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.locator("section.ladder").scroll_into_view_if_needed()
    shot(page, f"rules-ladder-{lang}-phone", full_page=True)
    no_errors(p)
