"""The site under its Content-Security-Policy, in Debian's chromium against a real ``basra
serve``: the lobby, a table against a bot (its websocket, its clock ring restyled on every
tick) and the server's own pages work, and the browser reports no violation of the policy
(every ``securitypolicyviolation`` event is kept, and the console's errors too); without
JavaScript the page still shows its text (its stylesheet for that is a file, not inline)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from web_helpers import PHONE, Player, basra_server

pytestmark = pytest.mark.slow

VIOLATIONS = """(() => {
  window.__violations = [];
  document.addEventListener("securitypolicyviolation", (event) => {
    const { effectiveDirective, blockedURI, sourceFile, lineNumber } = event;
    window.__violations.push(`${effectiveDirective} ${blockedURI} ${sourceFile}:${lineNumber}`);
  });
})();"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with basra_server(tmp_path_factory.mktemp("headers")) as base:
        # the site's own origin (basra serve on loopback: http://localhost:PORT)
        yield base.replace("127.0.0.1", "localhost")


def violations(page: Page) -> list[str]:
    found: list[str] = page.evaluate("() => window.__violations || []")
    return found


def watched(players: list[Player], browser: Browser, server: str, **options: Any) -> Player:
    """A player whose page keeps to the site's policy (no eval: only selectors are waited
    on here), every violation it reports kept."""
    p = Player(browser, server, bypass_csp=False, **options)
    players.append(p)
    p.context.add_init_script(VIOLATIONS)
    return p


def test_the_lobby_and_a_table_keep_to_the_policy(players: list[Player], browser: Browser,
                                                   server: str) -> None:
    p = watched(players, browser, server)
    page = p.page
    answer = page.goto(server + "/")
    assert answer is not None
    policy = answer.headers["content-security-policy"]
    assert "script-src 'self';" in policy and "frame-ancestors 'none'" in policy
    page.wait_for_selector("body.ready")
    page.click("a[data-nav='rules']")  # another page of the client, in the same document
    page.wait_for_selector(".rules-index")
    assert violations(page) == []
    page.goto(server + "/")
    page.wait_for_selector("#nickname")
    page.fill("#nickname", "Amira")
    page.click(".name-form button[type=submit]")
    page.wait_for_selector(".identity .nickname")
    assert page.inner_text(".identity .nickname") == "Amira"
    page.check("#variant-egyptian")
    page.click("#play-bot")
    page.wait_for_url("**/table/*")
    for _ in range(3):  # three plays of the first card (a take chosen if asked)
        page.wait_for_selector(".table-page[data-turn='mine'] .hand.my-turn .hand-card")
        version = page.get_attribute(".table-page", "data-version")
        page.click(".hand.my-turn .hand-card >> nth=0")
        if page.locator(".choice-bar:not([hidden]) .choice-option").count():
            page.click(".choice-option[data-option='0']")
        page.wait_for_selector(f".table-page:not([data-version='{version}'])")
    # The clock ring is restyled as the clock runs (a style set through the CSSOM).
    page.wait_for_selector(".turn-clock:not([hidden])")
    assert p.received and any(m.get("type") == "state" for m in p.received)
    assert violations(page) == []
    assert not p.errors, p.errors


def test_the_servers_own_pages_keep_to_the_policy(players: list[Player], browser: Browser,
                                                   server: str) -> None:
    p = watched(players, browser, server, viewport=PHONE)
    page = p.page
    for path, status in (("/nowhere", 404), ("/join/NOSUCH42", 404), ("/offline", 200)):
        answer = page.goto(server + path)
        assert answer is not None and answer.status == status
        # Its looks come from its stylesheet (no inline style): the site's dark green.
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") == \
            "rgb(11, 42, 34)"
        assert violations(page) == [], path
    errors = [e for e in p.errors if "status of 404" not in e]
    assert not errors, errors


def test_without_javascript_the_text_shows(browser: Browser, server: str) -> None:
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)  # type: ignore[arg-type]
    page = context.new_page()
    page.goto(server + "/")
    assert page.locator("main .noscript h1").is_visible()
    assert not page.locator(".site-nav").is_visible()
    context.close()
