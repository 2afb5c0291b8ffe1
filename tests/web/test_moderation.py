"""Fair play in the browser (issue 31), against a real ``basra serve``: a player at a table
reports the other one from the phrases panel with the keyboard alone (the dialog's radio
group, its note and counter, Send, "Report received", the focus given back); the
moderator's page at 1280 px (an account made a moderator by ``basra admin grant``) shows the
report, opens the player's file (standing, completion, recent matches), bans them from rated
play with a reason and shows the rating points given back to the rated opponent who lost to
them, and the log keeps the entry; the reporter's account page then says what came of the
report, and the bell says so too; the page at 360 px. A moderator's forced rename shows the
banner over every page, and the new username is chosen there. The wait after leaving
matches (an /api/me and a quick match's refusal answered by the test) ticks in the lobby.
Screenshots: test-output/screenshots/moderation-*.png."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, Route

from server_harness import Guest, join, over, play_turns, private_table, run
from web_helpers import DESKTOP, PHONE, ROOT, Player, basra_server, post, shot

pytestmark = pytest.mark.slow

PASSWORD = "fishing-for-basras"
EN: dict[str, Any] = json.loads((ROOT / "src" / "basra" / "web" / "i18n" / "en.json")
                                .read_text("utf-8"))


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("moderation")


@pytest.fixture(scope="module")
def server(data_dir: Path) -> Iterator[str]:
    with basra_server(data_dir, "--seed-window", "0", "--bot-delay", "0") as base:
        yield base


def account(base: str, nickname: str, username: str) -> dict[str, Any]:
    """A guest made an account (the guest's token stays the account's session)."""
    made: dict[str, Any] = post(base, "/api/guests", {"nickname": nickname})
    made["player"] = post(base, "/api/account", {"username": username, "password": PASSWORD},
                          made["token"])
    return made


def grant(data_dir: Path, username: str) -> None:
    """``basra admin grant USERNAME moderator`` against the server's database (again after a
    moment if the database was busy with the server's own writes)."""
    for _ in range(3):
        done = subprocess.run([sys.executable, "-m", "basra", "admin", "--data-dir",
                               str(data_dir), "grant", username, "moderator"],
                              capture_output=True, text=True, timeout=60, check=False)
        if done.returncode == 0:
            return
        time.sleep(1)
    raise AssertionError(done.stderr)


def call(base: str, method: str, path: str, token: str, body: Any = None) -> Any:
    with httpx.Client(timeout=10) as http:
        answer = http.request(method, base + path, json=body,
                              headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code < 300, answer.text
    return answer.json()


async def rated_loss(base: str, winner: dict[str, Any], loser: dict[str, Any]) -> str:
    """A rated match between two accounts, the loser resigning once the second round is
    dealt (a replay shows the rounds begun): the table's id (the loser lost rating points
    to the winner)."""
    async with httpx.AsyncClient(timeout=10) as http:
        w = Guest(base, "w", winner["token"], winner["player"]["id"])
        lo = Guest(base, "l", loser["token"], loser["player"]["id"])
        table, code = await private_table(base, http, w, variant="egyptian", rated=True)
        await join(base, http, lo, code)
        await w.connect(table)
        await lo.connect(table)
        await play_turns([w, lo], lambda s: s["view"]["round"] >= 2, timeout=180)
        await lo.send({"type": "resign"})
        state = await lo.until(over)
        assert state["table"]["rated"], state["table"]
        await w.close()
        await lo.close()
    return table


@pytest.fixture(scope="module")
def world(server: str, data_dir: Path) -> dict[str, Any]:
    """Karim (who will be banned) beat Leila in a rated match; Nadia is a moderator."""
    karim = account(server, "Karim", "Karim_K")
    leila = account(server, "Leila", "Leila_B")
    nadia = account(server, "Nadia", "Nadia_Mod")
    with ThreadPoolExecutor(1) as pool:
        table = pool.submit(run, rated_loss(server, karim, leila)).result()
    grant(data_dir, "Nadia_Mod")
    return {"karim": karim, "leila": leila, "nadia": nadia, "rated_table": table}


def person(players: list[Player], browser: Browser, server: str, who: dict[str, Any] | None,
           viewport: dict[str, int] = PHONE) -> Player:
    p = Player(browser, server, viewport=viewport, reduced_motion=True)
    players.append(p)
    if who:
        p.context.add_init_script("".join(
            f"localStorage.setItem({json.dumps(k)}, {json.dumps(v)});" for k, v in [
                ("basra.token", who["token"]), ("basra.nickname", who["player"]["nickname"]),
                ("basra.player", who["player"]["id"])]))
    return p


def no_errors(p: Player) -> None:
    assert not [e for e in p.errors if "pageerror" in e or "i18n" in e], p.errors


def fits(page: Page, width: int) -> None:
    """Nothing on the page reaches past the window's sides (the page clips what would)."""
    sides = page.evaluate("""() => {
      const boxes = Array.from(document.querySelectorAll('main *, .standing-banner *'),
                               (e) => e.getBoundingClientRect())
        .filter((r) => r.width > 1 && r.height > 1);
      return [Math.min(...boxes.map((r) => r.left)), Math.max(...boxes.map((r) => r.right))];
    }""")
    assert sides[0] >= -1 and sides[1] <= width + 1, sides


def focused(page: Page) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate("""() => { const e = document.activeElement;
      return { tag: e.tagName, id: e.id, name: e.name || '', value: e.value || '',
               cls: e.className || '', text: (e.textContent || '').trim() }; }""")
    return found


# ---------------------------------------------------------------------------------------
# reporting from a table


def test_a_player_reports_another_from_the_table_by_keyboard(
        players: list[Player], browser: Browser, server: str, world: dict[str, Any]) -> None:
    leila, karim = world["leila"], world["karim"]
    made = post(server, "/api/tables/private", {"variant": "egyptian"}, leila["token"])
    table = made["table"]["id"]
    post(server, "/api/tables/join", {"invite_code": made["table"]["invite_code"]},
         karim["token"])
    her = person(players, browser, server, leila)
    him = person(players, browser, server, karim)
    for p in (her, him):
        p.page.goto(f"{server}/table/{table}")
    page = her.page
    page.wait_for_selector(".table-page[data-status='playing'] .say-toggle", timeout=30000)
    page.click(".say-toggle")
    report = page.locator(".say-reports .report-seat")
    assert report.count() == 1  # one other person: never oneself, never a bot
    assert report.inner_text() == EN["report.player"].format(name="Karim")
    # The keyboard alone: the button, Enter; the reasons' radio group; the note; Send.
    report.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("dialog.dialog-report[open]")
    dialog = page.locator("dialog.dialog-report[open]")
    assert dialog.locator("h2").inner_text() == EN["report.title"].format(name="Karim")
    first = focused(page)
    assert first["tag"] == "INPUT" and first["value"] == "cheating", first
    shot(page, "moderation-report-dialog-phone")
    page.keyboard.press("ArrowDown")  # the arrows choose along the group
    assert focused(page)["value"] == "leaving"
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    assert focused(page)["value"] == "other"
    page.keyboard.press("Tab")
    assert focused(page)["tag"] == "TEXTAREA"
    # "Something else" needs a note: Send without one is refused in words.
    dialog.locator("[data-answer='send']").focus()
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelector('dialog[open] .report-error')?.textContent"
                           f" === {json.dumps(EN['report.note_needed'])}")
    assert focused(page)["tag"] == "TEXTAREA"
    page.keyboard.type("Always plays the best card at once, every turn.")
    count = dialog.locator(".report-count").inner_text()
    assert count == EN["report.note_count"].format(n=47, max=500), count
    shot(page, "moderation-report-note-phone")
    page.keyboard.press("Tab")  # Cancel
    page.keyboard.press("Tab")  # Send
    assert focused(page)["text"] == EN["report.send"]
    page.keyboard.press("Enter")
    page.wait_for_selector("dialog.dialog-report", state="detached")
    page.wait_for_selector(f".toast:has-text({json.dumps(EN['report.received'])})")
    assert "report-seat" in focused(page)["cls"]  # the focus is back on the button
    shot(page, "moderation-report-received-phone")
    mine = call(server, "GET", "/api/reports", leila["token"])["reports"]
    assert mine[0]["reason"] == "other" and mine[0]["table"] == table
    assert mine[0]["player"]["username"] == "Karim_K"
    assert mine[0]["status"] == "open"
    # Escape closes the dialog and gives the focus back.
    report.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("dialog.dialog-report[open]")
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog.dialog-report", state="detached")
    assert "report-seat" in focused(page)["cls"]
    # A replay offers it for each other player of the match.
    page.goto(f"{server}/replay/{world['rated_table']}")
    page.wait_for_selector(".replay-report")
    assert page.inner_text(".replay-report") == EN["report.player"].format(name="Karim")
    # A profile offers it too (beside Block), never one's own.
    page.goto(f"{server}/players/Karim_K")
    page.wait_for_selector("#profile-report")
    page.goto(f"{server}/players/Leila_B")
    page.wait_for_selector(".profile-completion, .profile-stats")
    assert page.locator("#profile-report").count() == 0
    for p in (her, him):
        no_errors(p)


# ---------------------------------------------------------------------------------------
# the moderators' page


def test_a_moderator_bans_and_the_points_come_back(
        players: list[Player], browser: Browser, server: str, world: dict[str, Any]) -> None:
    leila, karim, nadia = world["leila"], world["karim"], world["nadia"]
    note = "He never loses a basra: please look at his rated matches."
    call(server, "POST", "/api/reports", leila["token"],
         {"username": "Karim_K", "reason": "cheating", "note": note,
          "table": world["rated_table"]})
    before = call(server, "GET", "/api/players/Leila_B", leila["token"])["ratings"]["egyptian"]

    # Anyone else is told the page is the moderators'.
    stranger = person(players, browser, server, karim, DESKTOP)
    stranger.page.goto(f"{server}/mod")
    stranger.page.wait_for_selector(".mod-denied")
    assert stranger.page.locator(".site-nav a[data-nav='mod']").is_hidden()

    mod = person(players, browser, server, nadia, DESKTOP)
    page = mod.page
    page.goto(f"{server}/")
    link = page.locator(".site-nav a[data-nav='mod']")
    link.wait_for(state="visible")
    link.click()
    page.wait_for_selector(".mod-report[data-status='open']")
    assert page.title() == EN["page.title.mod"]
    item = page.locator(".mod-report", has_text=note)
    assert item.count() == 1
    assert EN["report.short.cheating"] in item.inner_text()
    assert item.locator(f"a.mod-match[href='/replay/{world['rated_table']}']").count() == 1
    shot(page, "moderation-queue-desktop", full_page=True)

    # The player's file.
    item.locator(".mod-open").click()
    page.wait_for_selector(".mod-file .mod-actions")
    assert page.evaluate("document.activeElement.id") == "mod-file-title"
    file = page.locator(".mod-file")
    assert "Karim" in file.locator("h2").inner_text()
    assert file.locator(f".mod-matches tr[data-table='{world['rated_table']}']").count() == 1
    assert file.locator(".mod-chips [data-standing='good']").count() == 1
    fits(page, DESKTOP["width"])
    shot(page, "moderation-file-desktop", full_page=True)

    # Ban: a reason is required, then confirmed.
    file.locator(".mod-act-ban").click()
    page.wait_for_selector("dialog.dialog-mod-action[open]")
    assert page.evaluate("document.activeElement.tagName") == "TEXTAREA"
    page.click("dialog[open] [data-answer='yes']")
    page.wait_for_function("document.querySelector('dialog[open] .field-error')?.textContent"
                           f" === {json.dumps(EN['mod.action.reason_needed'])}")
    page.fill("dialog[open] textarea", "Engine help in rated matches, seen in the replays.")
    shot(page, "moderation-ban-dialog-desktop")
    page.click("dialog[open] [data-answer='yes']")
    page.wait_for_selector(".mod-refunds table")
    row = page.locator(".mod-refunds tr[data-username='Leila_B']")
    assert row.count() == 1
    points = float(row.locator("td").nth(3).inner_text().lstrip("+"))
    assert points > 0
    assert page.locator(".mod-chips [data-standing='banned']").count() == 1
    assert page.locator(".mod-file .mod-act-unban").count() == 1
    shot(page, "moderation-refunds-desktop", full_page=True)
    after = call(server, "GET", "/api/players/Leila_B", leila["token"])["ratings"]["egyptian"]
    assert after["rating"] > before["rating"], (before, after)

    # The queue: the report acted on is no longer open (the other one about him stays, for
    # the moderator to answer); the log keeps the ban, newest first.
    page.locator(".mod-queue .mod-report", has_text=note).wait_for(state="detached")
    page.select_option("#mod-status", "actioned")
    page.wait_for_selector(".mod-queue .mod-report[data-status='actioned']")
    page.click("#mod-tab-log")
    page.wait_for_selector(".mod-log-part .mod-log-entry")
    first = page.locator(".mod-log-part .mod-log-entry").first
    assert first.get_attribute("data-action") == "ban"
    assert "Engine help in rated matches" in first.inner_text()
    shot(page, "moderation-log-desktop", full_page=True)
    # The tabs by keyboard: the arrows move along them.
    page.focus("#mod-tab-log")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.id") == "mod-tab-words"
    page.wait_for_selector(".mod-words-part h2")
    page.fill("#mod-word", "cheatbot")
    page.keyboard.press("Enter")
    page.wait_for_selector(".mod-word[data-word='cheatbot']")
    shot(page, "moderation-words-desktop")
    page.click(".mod-word[data-word='cheatbot'] button")
    page.wait_for_selector(".mod-word[data-word='cheatbot']", state="detached")

    # At 360 px, one part under the other, nothing wider than the phone.
    page.set_viewport_size(PHONE)  # type: ignore[arg-type]
    page.click("#mod-tab-reports")
    page.locator(".mod-report .mod-open").first.click()
    page.wait_for_selector(".mod-file .mod-file-part")
    fits(page, PHONE["width"])
    shot(page, "moderation-file-phone", full_page=True)

    # The reporter: the account page says what came of it, and the bell.
    reporter = person(players, browser, server, leila)
    reporter.page.goto(f"{server}/account")
    mine = reporter.page.locator(".my-report").first
    mine.wait_for()
    assert mine.get_attribute("data-status") == "actioned"
    assert EN["report.outcome.ban"] in mine.inner_text()
    shot(reporter.page, "moderation-your-reports-phone", full_page=True)
    reporter.page.click("#bell")
    reporter.page.wait_for_selector(".bell-item[data-kind='refund']")
    assert reporter.page.locator(".bell-item[data-kind='report_answered']").count() >= 1
    shot(reporter.page, "moderation-bell-phone")
    for p in (stranger, mod, reporter):
        no_errors(p)


def test_a_forced_rename_asks_for_a_new_username(
        players: list[Player], browser: Browser, server: str, world: dict[str, Any]) -> None:
    rude = account(server, "Rude", "Rude_Name")
    nadia = world["nadia"]
    call(server, "POST", f"/api/mod/players/{rude['player']['id']}/actions", nadia["token"],
         {"action": "rename", "reason": "A name that insults other players."})
    p = person(players, browser, server, rude)
    page = p.page
    page.goto(f"{server}/")
    page.wait_for_selector(".standing-banner #new-username")
    assert page.locator(".standing-banner h2").inner_text() == EN["standing.rename_title"]
    fits(page, PHONE["width"])
    shot(page, "moderation-rename-banner-phone", full_page=True)
    page.fill("#new-username", "Kind_Name")
    page.keyboard.press("Enter")
    page.wait_for_selector(".standing-banner", state="detached")
    assert call(server, "GET", "/api/me", rude["token"])["username"] == "Kind_Name"
    no_errors(p)


def test_the_wait_after_leaving_matches_ticks_in_the_lobby(
        players: list[Player], browser: Browser, server: str, world: dict[str, Any]) -> None:
    leila = world["leila"]
    until = (datetime.now(UTC) + timedelta(minutes=4, seconds=30)).isoformat()

    def with_wait(route: Route) -> None:
        answer = route.fetch()
        body = answer.json()
        body["leaver"] = {"left": 3, "wait_until": until, "message": "server words"}
        route.fulfill(response=answer, json=body)

    def refused(route: Route) -> None:
        if route.request.method != "POST":
            route.fallback()
            return
        route.fulfill(status=403, json={"error": {"code": "fairplay/leaver_wait",
                                                  "message": "You left 3 matches"}})

    p = person(players, browser, server, leila)
    page = p.page
    page.goto(f"{server}/")
    page.wait_for_selector("#quick-match")
    page.wait_for_selector(".identity .nickname")  # the lobby's own /api/me answered
    assert page.locator(".leaver-wait").count() == 0
    page.route("**/api/me", with_wait)
    page.route("**/api/quick-match", refused)
    page.click("#quick-match")
    timer = page.locator(".quick-option .leaver-wait [role='timer']")
    timer.wait_for()
    first = timer.inner_text()
    assert first.startswith("You left 3 matches before the end in the last 7 days"), first
    assert " 4:" in first, first
    page.wait_for_function("t => document.querySelector('.leaver-wait [role=timer]')"
                           ".textContent !== t", arg=first, timeout=5000)
    shot(page, "moderation-leaver-wait-phone")
    no_errors(p)
