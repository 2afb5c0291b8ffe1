"""The page as an installable web app, in Debian's chromium against a real ``basra
serve``: the manifest is linked and valid, the service worker registers and keeps the
shell, and with the network gone the site still opens and says plainly that it is
offline; the bad-invite page comes before any script."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from web_helpers import PHONE, basra_server, shot

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with basra_server(tmp_path_factory.mktemp("pwa")) as base:
        yield base


def test_the_service_worker_registers_and_the_site_opens_offline(browser: Browser,
                                                                  server: str) -> None:
    context = browser.new_context(viewport=PHONE)  # type: ignore[arg-type]
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server + "/")
    page.wait_for_selector("body.ready")  # no eval: this page keeps its CSP
    manifest = page.evaluate("""async () => {
      const link = document.querySelector('link[rel=manifest]');
      return (await fetch(link.href)).json();
    }""")
    assert manifest["name"] == "Basra" and manifest["display"] == "standalone"
    scope = page.evaluate("() => navigator.serviceWorker.ready.then((r) => r.scope)")
    assert scope == server + "/"
    kept = page.evaluate("""async () => {
      const keys = await caches.keys();
      const cache = await caches.open(keys.find((k) => k.startsWith('basra-')));
      return (await cache.keys()).map((r) => new URL(r.url).pathname);
    }""")
    assert "/" in kept and "/offline" in kept
    assert any(p.endswith("/js/main.js") for p in kept), kept
    # The network goes: the page still opens from what the worker kept, and says why it
    # cannot play instead of a browser error page.
    context.set_offline(True)
    page.reload()
    page.wait_for_selector("#app [role=alert]", timeout=10_000)
    said = page.inner_text("#app")
    assert said.strip(), said
    assert page.title()
    shot(page, "pwa-offline-phone")
    # A page the worker never kept: its offline page.
    other = context.new_page()
    other.goto(server + "/history")
    other.wait_for_selector("#app [role=alert]", timeout=10_000)
    context.set_offline(False)
    assert not errors, errors
    context.close()


def test_a_bad_invite_is_said_before_any_question(browser: Browser, server: str) -> None:
    context = browser.new_context(viewport=PHONE, locale="ar")  # type: ignore[arg-type]
    page = context.new_page()
    answer = page.goto(server + "/join/NOPE1234")
    assert answer is not None and answer.status == 404
    assert page.locator("h1").inner_text() == "هذه الدعوة غير صالحة"
    assert page.locator("input").count() == 0  # nothing asked
    assert page.evaluate("() => document.dir") == "rtl"
    shot(page, "invite-invalid-phone-ar")
    context.close()


def test_without_javascript_the_page_tells_the_rules(browser: Browser, server: str,
                                                     tmp_path: Path) -> None:
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)  # type: ignore[arg-type]
    page = context.new_page()
    page.goto(server + "/")
    text = page.locator("main").inner_text()
    assert "Basra needs JavaScript to play" in text and "121" in text
    assert page.title() == "Basra · the fishing card game"
    shot(page, "noscript-phone")
    context.close()
