"""Puzzles in a real browser against a real ``basra serve`` (issue 29), at 360 px in English
and Arabic: a newcomer opens the daily puzzle and solves it along the proved line (the
opponent's replies come from the server), sees the rating move and the whole solution;
then fails a rated puzzle, sees what the wrong play gave away, asks for the solution, and
goes on to the next. The streak counts a solved puzzle. Screenshots in
test-output/screenshots/ (puzzle-*.png)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from basra.puzzles.model import Puzzle
from basra.puzzles.shipped import by_id
from web.test_account import LOCALES, catalogue, new_player, no_errors
from web.test_learn import isolated_card_names, targets_are_big
from web_helpers import PHONE, Player, basra_server, shot


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with basra_server(tmp_path_factory.mktemp("puzzles")) as base:
        yield base


def fits(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width


def shown_puzzle(page: Page) -> Puzzle:
    page.wait_for_selector(".puzzle-hand .hand-card")
    href = page.get_attribute(".puzzle-foot a:last-child", "href")
    assert href
    puzzle = by_id(href.rsplit("/", 1)[1])
    assert puzzle is not None
    return puzzle


def play(page: Page, text: str) -> None:
    """Tap the card of ``text`` and, when it has several takes, the take."""
    card = text.partition(":")[0]
    page.click(f".puzzle-hand .hand-card[data-card='{card}']")
    chooser = page.locator(f".choice-option[data-play='{text}']")
    if chooser.count():
        chooser.click()


def mine(puzzle: Puzzle) -> list[str]:
    return [p for seat, p, _ in puzzle.main_line() if seat == puzzle.you]


@pytest.mark.parametrize("lang", ["en"])
def test_a_newcomer_solves_the_daily_puzzle_and_fails_one(
        players: list[Player], browser: Browser, server: str, lang: str) -> None:
    words = catalogue(lang)
    p = new_player(players, browser, server, locale=LOCALES[lang], viewport=PHONE)
    p.sign_in(f"Solver{lang}")
    page = p.page
    page.goto(server + "/puzzles/daily")
    puzzle = shown_puzzle(page)
    assert page.locator("h1").inner_text() == words["puzzle.daily_title"]
    fits(page)
    shot(page, f"puzzle-daily-{lang}")
    for text in mine(puzzle):
        page.wait_for_selector(".puzzle-hand.my-turn")
        play(page, text)
        page.wait_for_function("document.querySelector('.puzzle-message.good') !== null")
    page.wait_for_selector(".puzzle-rated")
    assert words["puzzle.solved"] in page.locator(".puzzle-message").first.inner_text()
    page.click(".puzzle-actions .btn.ghost")  # the whole line
    page.wait_for_selector(".puzzle-solution li")
    assert page.locator(".puzzle-line li").count() == len(puzzle.main_line())
    # Card names read left to right in every language, and every control is a finger's.
    isolated_card_names(page, ".puzzle-solution")
    targets_are_big(page)
    fits(page)
    shot(page, f"puzzle-daily-solved-{lang}", full_page=True)

    # A rated puzzle, failed: the wrong play is refused with what it gave away.
    page.goto(server + "/puzzles")
    rated = shown_puzzle(page)
    accepted = set(rated.tree.accepted)
    wrong = next(text for text, _ in rated.tree.values if text not in accepted)
    play(page, wrong)
    page.wait_for_selector(".puzzle-message.bad")
    page.wait_for_selector(".puzzle-rated.down")
    shot(page, f"puzzle-wrong-{lang}")
    page.click(".puzzle-actions .btn.ghost >> nth=1")  # show the solution
    page.wait_for_selector(".puzzle-solution")
    fits(page)
    shot(page, f"puzzle-solution-{lang}", full_page=True)
    page.click(".puzzle-actions .btn.primary")
    page.wait_for_function(
        f"document.querySelector('.puzzle-foot a:last-child')?.getAttribute('href') "
        f"!== '/puzzle/{rated.id}'")
    no_errors(p)


def test_a_streak_counts_a_solved_puzzle(players: list[Player], browser: Browser,
                                         server: str) -> None:
    p = new_player(players, browser, server, locale=LOCALES["en"], viewport=PHONE)
    p.sign_in("Streaker")
    page = p.page
    page.goto(server + "/puzzles/streak")
    first = shown_puzzle(page)
    for text in mine(first):
        page.wait_for_selector(".puzzle-hand.my-turn")
        play(page, text)
        page.wait_for_function("document.querySelector('.puzzle-message.good') !== null")
    page.wait_for_selector(".puzzle-actions .btn.primary")
    assert "1" in page.locator(".puzzle-streak").inner_text()
    page.click(".puzzle-actions .btn.primary")
    second = shown_puzzle(page)
    assert second.id != first.id
    shot(page, "puzzle-streak-en")
    no_errors(p)
