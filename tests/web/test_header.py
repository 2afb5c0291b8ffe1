"""The site's header at every width from 320 to 1600 px, in English, Arabic (right to left),
French (the longest words) and Serbian, signed out, as a guest, as an account (the bell, a
20-letter username) and as a moderator (one link more): nothing in it lies past the
window's sides, overlaps its neighbour or overflows (lib/header.js measures which layout
fits: the row of worded links, or the "Menu" button). At 360 px the menu by the keyboard
alone: opened with Enter, every destination with its icon and its word (Moderation for the
moderator, the language), the current page marked, Tab along the items (each showing its
focus), Tab past the last closes it; a link opened with Enter closes it and gives the focus
back to the button; Escape too; a click outside closes it; the page's keys do not see the
panel's; axe on the open panel; no animation under reduced motion. Screenshots:
test-output/screenshots/header-*.png (360 px closed and open, 900 and 1280 px; en and ar)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]
from playwright.sync_api import Browser, Page

from web_helpers import ROOT, Player, basra_server, post, shot

pytestmark = pytest.mark.slow

WEB = ROOT / "src" / "basra" / "web"
LOCALES = {"en": "en-US", "ar": "ar-EG", "fr": "fr-FR", "sr": "sr-Latn"}
WIDTHS = (320, 360, 414, 768, 900, 1024, 1100, 1280, 1600)
DESTINATIONS = [("play", "nav.play"), ("rules", "nav.rules"), ("learn", "nav.learn"),
                ("live", "nav.live"), ("tournaments", "nav.tournaments"),
                ("history", "nav.history"), ("leaderboard", "nav.leaderboard"),
                ("settings", "settings.nav"), ("mod", "nav.mod")]
USERNAME = "Scheherazade_Alwahid"  # 20 letters: the longest a username may be
FRAME = """() => new Promise((done) => {
  // Four frames: the header is measured again at a resize, and a frame later when a part of
  // it changed size.
  let n = 4;
  const next = () => (--n ? requestAnimationFrame(next) : done());
  requestAnimationFrame(next); })"""
QUIET = """() => new Promise((done) => {
  // How often the header is measured over three frames once settled: never (a layout that
  // measured differently each time would flip every frame).
  let n = 0;
  const seen = new MutationObserver((records) => { n += records.length; });
  seen.observe(document.querySelector('.site-header'),
               { attributes: true, attributeFilter: ['data-measuring'] });
  let frames = 3;
  const next = () => (--frames ? requestAnimationFrame(next) : (seen.disconnect(), done(n)));
  requestAnimationFrame(next); })"""
FITS = """() => {
  // Every part of the header inside the window, none over its neighbour, nothing in one
  // wider than itself, the header one line high.
  const header = document.querySelector('.site-header');
  const width = document.documentElement.clientWidth;
  const bad = [];
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 1 && r.height > 1;
  };
  for (const el of header.querySelectorAll('*')) {
    if (!shown(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.left < -0.5 || r.right > width + 0.5) {
      bad.push(['outside', el.outerHTML.slice(0, 60), r.left, r.right]);
    }
  }
  const parts = [...header.children].filter(shown).map((el) => [el, el.getBoundingClientRect()])
    .sort((a, b) => a[1].left - b[1].left);
  for (let i = 1; i < parts.length; i++) {
    if (parts[i][1].left < parts[i - 1][1].right - 0.5) {
      bad.push(['overlap', parts[i - 1][0].className, parts[i][0].className]);
    }
  }
  for (const [el] of parts) {
    if (el.scrollWidth > el.clientWidth + 1) {
      bad.push(['overflows', el.className, el.scrollWidth, el.clientWidth]);
    }
  }
  if (header.scrollWidth > header.clientWidth) {
    bad.push(['header', header.scrollWidth, header.clientWidth]);
  }
  if (header.offsetHeight > 64) bad.push(['tall', header.offsetHeight]);
  // Whatever shows, shows its words: the row's links, or the Menu button's.
  const fit = header.dataset.fit;
  if (fit === 'row') {
    for (const a of header.querySelectorAll('.nav-list a')) {
      const word = a.querySelector('.nav-label').getBoundingClientRect().width;
      if (shown(a) && word < 10) bad.push(['no word', a.dataset.nav]);
    }
  } else if (document.querySelector('#menu-button .menu-word').getBoundingClientRect().width < 10) {
    bad.push(['no word', 'menu']);
  }
  return { fit, tight: header.hasAttribute('data-tight'), bad };
}"""


def catalogue(lang: str) -> dict[str, Any]:
    words: dict[str, Any] = json.loads((WEB / "i18n" / f"{lang}.json").read_text("utf-8"))
    return words


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("header")


@pytest.fixture(scope="module")
def server(data_dir: Path) -> Iterator[str]:
    with basra_server(data_dir, "--tournament-schedule", "none") as base:
        yield base


@pytest.fixture(scope="module")
def people(server: str, data_dir: Path) -> dict[str, dict[str, Any] | None]:
    """Who looks at the header: nobody signed in, a guest, an account, a moderator (an
    account made one by ``basra admin grant``)."""
    guest = post(server, "/api/guests", {"nickname": "Guest Header"})
    made = {}
    for who, username in (("account", USERNAME), ("moderator", "Mod_Header")):
        made[who] = post(server, "/api/guests", {"nickname": who})
        made[who]["player"] = post(server, "/api/account",
                                   {"username": username, "password": "a long password"},
                                   made[who]["token"])
    for _ in range(3):  # again after a moment if the database was busy with the server
        if subprocess.run([sys.executable, "-m", "basra", "admin", "--data-dir",
                           str(data_dir), "grant", "Mod_Header", "moderator"],
                          capture_output=True, timeout=60, check=False).returncode == 0:
            break
        time.sleep(1)
    return {"signed-out": None, "guest": guest, **made}


def open_lobby(players: list[Player], browser: Browser, server: str, lang: str,
               who: dict[str, Any] | None, kind: str, *, width: int = 1280,
               scheme: str = "light") -> Page:
    """The lobby in ``lang`` as ``who`` (None: nobody signed in), its header complete, the
    device asking for less motion and for ``scheme`` (the theme follows it)."""
    p = Player(browser, server, viewport={"width": width, "height": 800},
               locale=LOCALES[lang], reduced_motion=True)
    p.page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
    players.append(p)
    if who:
        token = json.dumps(who["token"])
        p.context.add_init_script(f"localStorage.setItem('basra.token', {token})")
    page = p.page
    page.goto(server + "/")
    page.wait_for_selector("#play-bot")
    if kind in ("account", "moderator"):
        page.wait_for_selector("#account-link.signed-in")
        page.wait_for_selector("#bell:not([hidden])", state="attached")
    if kind == "moderator":
        page.wait_for_selector(".site-nav a[data-nav='mod']:not([hidden])", state="attached")
    page.evaluate(FRAME)
    return page


def sized(page: Page, width: int) -> dict[str, Any]:
    """The window ``width`` wide: what FITS finds, and whether the header then keeps still."""
    page.set_viewport_size({"width": width, "height": 800})
    page.wait_for_function("w => document.documentElement.clientWidth === w", arg=width)
    page.evaluate(FRAME)
    found: dict[str, Any] = page.evaluate(FITS)
    found["measured"] = page.evaluate(QUIET)
    if found["measured"]:
        found["bad"].append(["measured again and again", found["measured"]])
    return found


def speak(page: Page, lang: str) -> None:
    """The language chosen in the header's switch (as a person does, through its change)."""
    page.evaluate("""lang => { const s = document.getElementById('lang'); s.value = lang;
      s.dispatchEvent(new Event('change', { bubbles: true })); }""", lang)
    page.wait_for_function("lang => document.documentElement.lang.startsWith(lang)", arg=lang)
    page.evaluate(FRAME)


def test_the_header_fits_every_width(players: list[Player], browser: Browser, server: str,
                                     people: dict[str, Any]) -> None:
    """One page for each person, in each language in turn, at every width."""
    layouts: dict[tuple[str, str, int], str] = {}
    for kind in ("signed-out", "guest", "account", "moderator"):
        page = open_lobby(players, browser, server, "en", people[kind], kind)
        for lang in ("en", "ar", "fr", "sr"):
            speak(page, lang)
            full = kind != "moderator" and lang != "sr"
            for width in WIDTHS if full else (360, 1024):
                found = sized(page, width)
                assert not found["bad"], (kind, lang, width, found)
                layouts[kind, lang, width] = found["fit"] + (" tight" if found["tight"] else "")
                if kind == "moderator" and found["fit"] == "row":
                    assert page.locator(".site-nav a[data-nav='mod'] .nav-label").is_visible()
                if kind == "account" and lang in ("en", "ar") and width in (900, 1280):
                    shot(page, f"header-{width}-{lang}")
        page.context.close()
    # Wide screens keep the row of worded links; phones get the menu.
    assert all(layouts[k, lang, 1600] == "row" for k in ("signed-out", "guest", "account")
               for lang in ("en", "ar", "fr")), layouts
    assert all(v.startswith("menu") for (_, _, w), v in layouts.items() if w <= 414), layouts


def focus_of(page: Page) -> dict[str, Any]:
    info: dict[str, Any] = page.evaluate("""() => { const el = document.activeElement;
      const s = getComputedStyle(el);
      return { id: el.id, nav: el.dataset.nav || '', tag: el.tagName,
               shown: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0,
               inMenu: !!el.closest('#site-menu') }; }""")
    return info


def expanded(page: Page) -> bool:
    return page.get_attribute("#menu-button", "aria-expanded") == "true"


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_menu_by_the_keyboard(players: list[Player], browser: Browser, server: str,
                                  people: dict[str, Any], lang: str) -> None:
    words = catalogue(lang)
    page = open_lobby(players, browser, server, lang, people["moderator"], "moderator",
                      width=360, scheme="dark" if lang == "en" else "light")
    assert page.get_attribute(".site-header", "data-fit") == "menu"
    button = page.locator("#menu-button")
    assert button.inner_text().strip() == words["nav.menu"]
    assert page.get_attribute("#menu-button", "aria-controls") == "site-menu"
    assert not expanded(page) and not page.locator("#site-menu").is_visible()
    # The bell and the account link stay in the header.
    assert page.locator("#bell").is_visible() and page.locator("#account-link").is_visible()
    shot(page, f"header-360-{lang}-closed")

    # Tab to the button (the skip link and the brand first), Enter opens the panel.
    page.evaluate("() => document.activeElement?.blur()")
    for _ in range(4):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "menu-button":
            break
    assert focus_of(page)["id"] == "menu-button" and focus_of(page)["shown"]
    page.keyboard.press("Enter")
    assert expanded(page)
    page.locator("#site-menu").wait_for(state="visible")
    items = page.evaluate("""() => [...document.querySelectorAll('#site-menu a')].map((a) => {
      const r = a.getBoundingClientRect();
      const icon = a.querySelector('.nav-icon').getBoundingClientRect();
      return { nav: a.dataset.nav, word: a.innerText.trim(), icon: icon.width >= 16,
               current: a.getAttribute('aria-current'),
               inside: r.left >= 0 && r.right <= innerWidth && r.bottom <= innerHeight }; })""")
    assert ([(i["nav"], i["word"]) for i in items]
            == [(nav, words[key]) for nav, key in DESTINATIONS])
    assert all(i["icon"] and i["inside"] for i in items), items
    assert [i["nav"] for i in items if i["current"] == "page"] == ["play"]
    assert page.inner_text("#site-menu .lang-switch .lang-word") == words["nav.language"]
    assert page.locator("#lang").is_visible()
    shot(page, f"header-360-{lang}-open")
    results = Axe().run(page, context=".site-header", options={
        "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa",
                                              "wcag22aa"]}}).response
    assert not results["violations"], [(v["id"], [n["target"] for n in v["nodes"]])
                                       for v in results["violations"]]

    # Tab walks the links, then the language; each shows its focus; the page's keys do not
    # hear the panel's.
    page.evaluate("""() => { window.__heard = 0;
      document.addEventListener('keydown', () => { window.__heard += 1; }); }""")
    for nav, _ in DESTINATIONS:
        page.keyboard.press("Tab")
        info = focus_of(page)
        assert info["nav"] == nav and info["inMenu"] and info["shown"], (nav, info)
    page.keyboard.press("h")
    page.keyboard.press("ArrowUp")
    assert focus_of(page)["nav"] == "settings"
    assert page.evaluate("window.__heard") == 0
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert focus_of(page)["id"] == "lang"
    # Past the last item: the bell, and the panel closes.
    page.keyboard.press("Tab")
    assert focus_of(page)["id"] == "bell" and not expanded(page)
    assert not page.locator("#site-menu").is_visible()

    # A link opened with Enter: the page opens, the panel closes, the focus is on the button.
    page.keyboard.press("Shift+Tab")
    assert focus_of(page)["id"] == "menu-button"
    page.keyboard.press("Enter")
    for _ in range(6):
        page.keyboard.press("Tab")
    assert focus_of(page)["nav"] == "history"
    page.keyboard.press("Enter")
    page.wait_for_url("**/history")
    # The address changes before the page's module has loaded: the lobby's heading is still
    # there until then, so wait for the history's own.
    page.wait_for_selector(f"main h1:has-text('{words['history.title']}')")
    assert not expanded(page) and not page.locator("#site-menu").is_visible()
    assert focus_of(page)["id"] == "menu-button"
    assert page.get_attribute(".site-nav a[data-nav='history']", "aria-current") == "page"

    # Escape closes it and gives the focus back to the button.
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert focus_of(page)["inMenu"]
    page.keyboard.press("Escape")
    assert not expanded(page) and focus_of(page)["id"] == "menu-button"
    # A click outside closes it.
    page.click("#menu-button")
    assert expanded(page)
    gap = page.evaluate("""() => {
      // The header itself, between the brand and the Menu button (either way round).
      const b = document.querySelector('.brand').getBoundingClientRect();
      const m = document.getElementById('menu-button').getBoundingClientRect();
      const [from, to] = b.right < m.left ? [b.right, m.left] : [m.right, b.left];
      return [(from + to) / 2, m.top + m.height / 2]; }""")
    page.mouse.click(*gap)
    assert not expanded(page) and not page.locator("#site-menu").is_visible()
    # No animation under reduced motion (this page asks for it).
    page.click("#menu-button")
    motion = page.eval_on_selector("#site-menu", "el => getComputedStyle(el).animationName")
    assert motion == "none"
    page.keyboard.press("Escape")
    # A window wide enough: the row, the panel gone.
    page.click("#menu-button")
    page.set_viewport_size({"width": 1600, "height": 800})
    page.evaluate(FRAME)
    assert page.get_attribute(".site-header", "data-fit") == "row" and not expanded(page)
    errors = [e for p in players for e in p.errors if "pageerror" in e or "i18n" in e]
    assert not errors, errors
