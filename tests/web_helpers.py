"""Helpers for the browser tests (tests/web/test_play.py): a real ``basra serve`` in a subprocess,
Debian's chromium through Playwright, and a player wrapper that reads the table's
websocket frames so a test knows the state the page was given (each ``state`` message, and
each ``played`` message applied to the state before it, as the page applies it) and the
plays it sent."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Dialog,
    Page,
    Playwright,
    WebSocket,
    sync_playwright,
)

from basra.server.wire.server_messages import apply_played
from server_harness import PORT_TAKEN, free_port, listens

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "test-output" / "screenshots"
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
FRAME_CLOCK = """(() => {
  // Every websocket frame the page gets or sends, with the page's own clock (ms), so a
  // test can tell how soon one message followed another.
  const Native = window.WebSocket;
  window.__frames = [];
  const note = (dir, data) => {
    let message;
    try { message = JSON.parse(data); } catch { return; }
    window.__frames.push({ t: performance.now(), dir, message });
  };
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => note("in", event.data));
    }
    send(data) {
      note("out", data);
      return super.send(data);
    }
  };
})();"""
WATCH = """(() => {
  // What the table page tells its player as it goes: every text the announcer reads out
  // (a screen reader's words) and every basra burst shown, in order.
  window.__announced = [];
  window.__bursts = [];
  new MutationObserver((records) => {
    for (const r of records) for (const node of r.addedNodes) {
      if (r.target.id === "announcer" && node.nodeType === Node.TEXT_NODE && node.data) {
        window.__announced.push(node.data);
      }
      if (node.nodeType === Node.ELEMENT_NODE && node.classList.contains("basra-burst")) {
        window.__bursts.push(node.querySelector(".basra-who").textContent);
      }
    }
  }).observe(document, { childList: true, subtree: true });
})();"""


def post(base: str, path: str, body: dict[str, Any], token: str | None = None) -> Any:
    """POST ``body`` as JSON to the server (with a guest's token): the answer's JSON."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(),
                                     headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.loads(answer.read())
    except urllib.error.HTTPError as error:  # say what the server said
        raise AssertionError(f"POST {path}: {error.code} {error.read()[:300]!r}") from None


@contextlib.contextmanager
def basra_server(data_dir: Path, *extra: str) -> Iterator[str]:
    """``basra serve`` on a free loopback port with fast settings; yields its base URL."""
    log_path = data_dir / "serve.log"
    for _ in range(3):
        port = free_port()
        command = [sys.executable, "-m", "basra", "serve", "--port", str(port),
                   "--data-dir", str(data_dir), "--seed-window", "1", "--bot-delay", "0.2",
                   "--grace", "1", "--bot-offer", "2", "--views-fresh", "0",
                   "--log-level", "warning", "--open-rated", "--no-assist-analysis", *extra]
        logged = log_path.stat().st_size if log_path.exists() else 0
        with log_path.open("ab") as log:
            process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                                       stdin=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"
        try:
            if _up(process, base, port, log_path, logged):
                break
        except BaseException:
            process.kill()
            process.wait(5)
            raise
    else:
        raise RuntimeError("basra serve found its port taken three times")
    try:
        yield base
    finally:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


def _up(process: subprocess.Popen[bytes], base: str, port: int, log_path: Path,
        logged: int) -> bool:
    """Wait for the server to answer, itself (not another test's server that took the port
    meanwhile); False when it could not listen because the port was taken."""
    deadline = time.monotonic() + 60
    while True:
        if process.poll() is not None:
            said = log_path.read_bytes()[logged:]
            if PORT_TAKEN in said:
                return False
            raise RuntimeError(f"basra serve exited: {said.decode(errors='replace')}")
        try:
            with urllib.request.urlopen(f"{base}/health", timeout=1) as answer:
                if answer.status == 200 and listens(process.pid, port):
                    return True
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError("basra serve did not start in 60 s")
        time.sleep(0.1)


# ---------------------------------------------------------------- fixtures
# Every browser test module (tests/conftest.py loads this file as a plugin) gets one chromium
# for the module and a `players` list closed after each test; each module makes its own
# `server` (its own `basra serve` options).


def pytest_report_header() -> str:
    """The browser the browser tests drive, in the run's header (docs/BROWSER.md keeps the
    version they last passed with)."""
    try:
        found = subprocess.run([str(CHROMIUM), "--version"], capture_output=True, text=True,
                               timeout=30, check=False).stdout.strip()
    except OSError:
        found = "missing"
    return f"browser: {found or 'no version'} at {CHROMIUM}"


@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (scripts/install "
                    "--browser) to run the browser tests")
    chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
    yield chromium
    chromium.close()


@pytest.fixture
def players(browser: Browser, server: str) -> Iterator[list[Player]]:
    """The players a test makes (append each one), closed at its end."""
    made: list[Player] = []
    yield made
    for p in made:
        p.close()


def shot(page: Page, name: str, *, full_page: bool = False) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path


class Player:
    """A browser context and page, with every websocket frame the page got and sent."""

    def __init__(self, browser: Browser, base: str, *, viewport: dict[str, int] | None = None,
                 locale: str = "en-US", reduced_motion: bool = False,
                 storage_state: Any = None, frame_clock: bool = False,
                 watch: bool = False, bypass_csp: bool = True) -> None:
        self.base = base
        # The helpers below wait on JavaScript predicates, which Playwright compiles in the
        # page (an eval the site's Content-Security-Policy refuses): the behaviour tests
        # let it through; tests/web/test_csp.py keeps the policy and waits on
        # selectors only.
        self.context: BrowserContext = browser.new_context(
            viewport=viewport or DESKTOP, locale=locale,  # type: ignore[arg-type]
            reduced_motion="reduce" if reduced_motion else "no-preference",
            storage_state=storage_state, bypass_csp=bypass_csp)
        if frame_clock:
            self.context.add_init_script(FRAME_CLOCK)
        if watch:
            self.context.add_init_script(WATCH)
        self.received: list[dict[str, Any]] = []
        """Every message the player's pages got, as it came."""
        self.states: list[dict[str, Any]] = []
        """Every whole state a page held: each ``state``, and each ``played`` applied."""
        self.sent: list[dict[str, Any]] = []
        self.errors: list[str] = []
        self.breakdowns = 0
        self.dialogs: list[str] = []
        """The browser's own dialogs the pages opened (``beforeunload``: leaving mid-match)."""
        self.leave = True
        """How the browser's leave prompt is answered (True: leave)."""
        self.page = self.new_page()

    def new_page(self) -> Page:
        page = self.context.new_page()
        page.on("websocket", self._socket)
        page.on("dialog", self._dialog)
        page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))
        page.on("console", lambda msg: self.errors.append(f"console: {msg.text}")
                if msg.type == "error" or "i18n" in msg.text else None)
        self.page = page
        return page

    def _dialog(self, dialog: Dialog) -> None:
        self.dialogs.append(dialog.type)
        if dialog.type == "beforeunload" and self.leave:
            dialog.accept()
        else:
            dialog.dismiss()

    def _socket(self, ws: WebSocket) -> None:
        held: dict[str, Any] = {}

        def got(payload: str | bytes) -> None:
            nonlocal held
            try:
                message = json.loads(payload)
            except ValueError:
                return
            self.received.append(message)
            if message.get("type") == "state":
                held = message
            elif message.get("type") == "played":
                held = apply_played(held, message)
            else:
                return
            self.states.append(held)

        def sent(payload: str | bytes) -> None:
            with contextlib.suppress(ValueError):
                self.sent.append(json.loads(payload))

        ws.on("framereceived", got)
        ws.on("framesent", sent)

    def close(self) -> None:
        self.context.close()

    # ---------------------------------------------------------------- lobby

    def sign_in(self, nickname: str) -> None:
        """Open the lobby and play as ``nickname``: a new guest called so (the lobby's
        optional name field), or, when this context has a guest already, a rename."""
        self.page.goto(self.base + "/")
        self.page.wait_for_selector("#nickname, #rename")
        if self.page.locator("#rename").count():
            self.page.click("#rename")
        self.page.fill("#nickname", nickname)
        self.page.click(".name-form button[type=submit]")
        self.page.wait_for_function(
            "name => document.querySelector('.identity .nickname')?.textContent === name",
            arg=nickname)

    # ---------------------------------------------------------------- table

    def state(self, version: int | None = None) -> dict[str, Any]:
        """The latest state received (or the one with ``version``)."""
        for _ in range(40):
            for state in reversed(self.states):
                if version is None or state["version"] == version:
                    return state
            self.page.wait_for_timeout(50)
        raise AssertionError(f"no state{'' if version is None else f' {version}'} received")

    def frames(self) -> list[dict[str, Any]]:
        """With ``frame_clock``: every frame of this page as {t (ms), dir, message}."""
        frames: list[dict[str, Any]] = self.page.evaluate("() => window.__frames || []")
        return frames

    def told(self) -> tuple[list[str], list[str]]:
        """With ``watch``: what the announcer read out, and each basra burst's words."""
        announced, bursts = self.page.evaluate(
            "() => [window.__announced || [], window.__bursts || []]")
        return list(announced), list(bursts)

    def seeded_rounds(self) -> set[int]:
        """Rounds whose commitment this player's pages saw while the round still waited for
        parts (before any of its cards)."""
        rounds = set()
        for m in self.received:
            if m.get("type") != "state":
                continue
            current = m["table"]["fairness"]["current"]
            if m["table"]["phase"] == "seeding" and current and current["client_seed"] is None:
                rounds.add(current["round"])
        return rounds

    def expected_verdicts(self, rounds: list[int]) -> dict[int, str]:
        """What the fairness panel must say of each round: fair when the page saw the
        commitment before the cards, else not verifiable."""
        seeded = self.seeded_rounds()
        return {r: "fair" if r in seeded else "unverifiable" for r in rounds}

    def verdicts(self) -> dict[int, str]:
        pairs = self.page.eval_on_selector_all(
            ".fair-result", "els => els.map(e => [Number(e.dataset.round), e.dataset.verdict])")
        return {int(r): v for r, v in pairs}

    def dataset(self) -> dict[str, str]:
        data: dict[str, str] = self.page.evaluate(
            "() => Object.assign({}, document.querySelector('.table-page')?.dataset || {})")
        return data

    def version(self) -> int:
        return int(self.dataset().get("version", "0") or 0)

    def wait(self, js: str, timeout: float = 30) -> None:
        self.page.wait_for_function(js, timeout=timeout * 1000)

    def wait_event(self, timeout: float = 30) -> str:
        """Wait until it is this page's turn, a breakdown shows or the match is over."""
        self.wait("""() => {
            const t = document.querySelector('.table-page');
            return t && (t.dataset.status === 'finished' || document.querySelector('.overlay-round')
                         || (t.dataset.turn === 'mine' && document.querySelector('.hand.my-turn')));
        }""", timeout)
        data = self.dataset()
        if data.get("status") == "finished":
            return "finished"
        # A breakdown shows a moment after its round ends (once the last play has moved),
        # so a new round may already be this page's turn: the breakdown comes first.
        results = len(self.state(int(data.get("version", "0")))["view"]["results"])
        if self.page.locator(".overlay-round").count() or results > self.breakdowns:
            self.page.wait_for_selector(".overlay-round", timeout=10000)
            self.breakdowns = results
            return "round-end"
        return "turn"

    def close_round_end(self) -> None:
        """Leave the round's breakdown: Continue while the next round waits for this player
        (it is then dealt), else its key (Escape); wait until it is gone."""
        button = self.page.locator(".overlay-round .continue:not([disabled])")
        if button.count():
            button.click()
        else:
            self.page.keyboard.press("Escape")
        self.page.wait_for_selector(".overlay-round", state="detached")

    def next_turn(self, timeout: float = 30) -> str:
        """Wait until it is this page's turn (``"turn"``) or the match is over
        (``"finished"``), closing every round's breakdown on the way (each wait for an
        event within ``timeout``)."""
        while (event := self.wait_event(timeout)) == "round-end":
            self.close_round_end()
        return event

    def play_first(self, *, keyboard: bool = False,
                   choose: Callable[[list[dict[str, Any]]], int] = lambda options: 0
                   ) -> dict[str, Any]:
        """Play the first card of the hand (by click, or by its number key); if it has
        several takes, pick one. Returns the play message the page sent."""
        version = self.version()
        view = self.state(version)["view"]
        card = view["hand"][0]
        before = len(self.sent)
        if keyboard:
            self.page.keyboard.press("1")
        else:
            self.page.click(f".hand-card[data-card='{card}']")
        options = [p for p in view["legal"] if p["card"] == card]
        if len(options) > 1:
            self.page.wait_for_selector(".choice-bar:not([hidden]) .choice-option")
            index = choose(options)
            if keyboard:
                self.page.keyboard.press(str(index + 1))
            else:
                self.page.click(f".choice-option[data-option='{index}']")
        self.wait(f"() => (document.querySelector('.table-page')?.dataset.version | 0) > {version}"
                  " || document.querySelector('.table-page')?.dataset.status === 'finished'")
        plays = [m for m in self.sent[before:] if m.get("type") == "play"]
        assert len(plays) == 1, plays
        play = plays[0]
        assert play["version"] == version
        assert {"card": play["card"], "take": play["take"]} in view["legal"]
        return play


def seated(players: list[Player], browser: Browser, base: str, who: dict[str, Any],
           **options: Any) -> Player:
    """A page with ``who``'s session (an answer of ``POST /api/guests``) in its storage."""
    p = Player(browser, base, **options)
    players.append(p)
    p.context.add_init_script("".join(
        f"localStorage.setItem({json.dumps(k)}, {json.dumps(v)});" for k, v in [
            ("basra.token", who["token"]), ("basra.nickname", who["player"]["nickname"]),
            ("basra.player", who["player"]["id"])]))
    return p
