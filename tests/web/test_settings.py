"""The settings (issue 30) in the browser at 360 px: /settings in English and Arabic (radio
groups and checkboxes in fieldsets, every choice a finger's size), each look switched there
and drawn on the whole site (the four-colour deck, high contrast, light and dark, card
size; screenshots of the settings page and of a table in each: settings-*.png), the
system's light preference honoured with no setting touched (and followed live), text at
200% with no page wider than the phone and no header item over another, and the table's
behaviours: the mute is the sound setting, a play confirmed first, a round's summary
continued by itself. Playwright with Debian's chromium against a real ``basra serve``."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from web.test_account import LOCALES, catalogue, new_player, no_errors
from web_helpers import PHONE, Player, basra_server, post, shot

pytestmark = pytest.mark.slow

PHONE_360 = {"width": 360, "height": 740}
SETTINGS_MODULE = """async (changes) => {
  const main = document.querySelector('script[type="module"][src*="main.js"]').src;
  const m = await import(new URL('lib/settings.js', main).href);
  m.changeSettings(changes);
  return m.settings();
}"""
ROOT_DATA = "() => ({...document.documentElement.dataset})"
OVERFLOW = "() => document.documentElement.scrollWidth"
# The page clips what runs past its sides (overflow-x: clip), so scrollWidth alone cannot
# tell: every visible element outside the screen, unless a box of its own scrolls or clips it.
OUTSIDE = """() => {
  const boxed = (el) => {
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      if (getComputedStyle(a).overflowX !== 'visible') return true;
    }
    return false;
  };
  return [...document.querySelectorAll('body *')].filter((el) => {
    if (el.closest('.fx-layer, .sr-only, #basra-sprites, dialog:not([open])')) return false;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(el).visibility === 'hidden') return false;
    return (r.right > innerWidth + 1 || r.left < -1) && !boxed(el);
  }).map((el) => `${el.tagName}.${el.className}`).slice(0, 8);
}"""
HEADER_APART = """() => {
  const header = document.querySelector('.site-header');
  const parts = [...header.children].filter((el) => el.offsetParent !== null && !el.hidden)
    .map((el) => { const r = el.getBoundingClientRect();
      return { name: el.className || el.tagName, left: r.left, right: r.right,
               top: r.top, bottom: r.bottom }; })
    .filter((r) => r.right > r.left);
  const over = [];
  parts.forEach((a, i) => parts.slice(i + 1).forEach((b) => {
    if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom && b.top < a.bottom)
      over.push([a.name, b.name]);
  }));
  const outside = parts.filter((r) => r.left < -0.5 || r.right > innerWidth + 0.5)
    .map((r) => r.name);
  return { over, outside };
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with basra_server(tmp_path_factory.mktemp("settings")) as base:
        yield base


def luminance(rgb: str) -> float:
    """The relative luminance of a computed ``rgb(r, g, b)`` colour."""
    parts = [int(x) / 255 for x in rgb[rgb.index("(") + 1:rgb.index(")")].split(",")[:3]]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in parts]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def colour(page: Page, selector: str, prop: str = "color") -> str:
    """A computed colour, two frames after a change (under reduced motion every property
    still takes a 0.01 ms transition, whose first frame shows the colour before)."""
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    value: str = page.eval_on_selector(selector, f"el => getComputedStyle(el)['{prop}']")
    return value


def bot_table(p: Player, name: str, length: str = "short") -> Page:
    """A match against the random bot, open at its first turn."""
    p.sign_in(name)
    token = p.page.evaluate("localStorage.getItem('basra.token')")
    table = post(p.base, "/api/tables/bot", {"variant": "egyptian", "players": 2,
                                            "bot_level": "random", "length": length}, token)
    p.page.goto(f"{p.base}/table/{table['table']['id']}")
    p.page.wait_for_selector(".table-page[data-status='playing']")
    return p.page


def test_the_settings_page_in_english_and_arabic(
        players: list[Player], browser: Browser, server: str) -> None:
    for lang in ("en", "ar"):
        cat = catalogue(lang)
        p = new_player(players, browser, server, viewport=PHONE_360, locale=LOCALES[lang])
        page = p.page
        page.goto(server + "/settings")
        page.wait_for_selector(".settings-form")
        assert page.inner_text("h1") == cat["settings.title"]
        assert page.title() == cat["page.title.settings"]
        assert page.evaluate("document.documentElement.dir") == ("rtl" if lang == "ar" else "ltr")
        assert page.get_attribute(".site-nav a[data-nav='settings']", "aria-current") == "page"
        legends = page.eval_on_selector_all(".settings-form legend",
                                            "els => els.map(e => e.textContent)")
        assert legends == [cat[f"settings.{k}"] for k in (
            "theme", "deck", "contrast", "card_size", "motion", "behaviour")]
        # every choice a finger's size, labelled, inside the phone
        sizes = page.eval_on_selector_all(".settings-choice", """els => els.map((e) => {
          const r = e.getBoundingClientRect(); const input = e.querySelector('input');
          return { h: r.height, w: r.width, right: r.right, left: r.left,
                   named: !!input.labels.length };
        })""")
        assert len(sizes) == 3 + 2 + 2 + 3 + 3 + 4
        assert all(s["h"] >= 44 and s["w"] >= 44 and s["named"] for s in sizes), sizes
        assert all(s["left"] >= 0 and s["right"] <= 360 for s in sizes), sizes
        assert page.evaluate(OVERFLOW) <= 360
        assert page.evaluate(HEADER_APART) == {"over": [], "outside": []}
        # the defaults, checked
        for checked in ("theme-system", "deck-two", "contrast-normal", "cardSize-medium",
                        "motion-normal"):
            assert page.is_checked(f"#settings-{checked}")
        assert page.is_checked("#settings-sound") and not page.is_checked("#settings-confirmPlay")
        shot(page, f"settings-page-{lang}", full_page=True)
        # Keyboard: the theme's group by arrows (a radio group), a checkbox by Space.
        page.focus("#settings-theme-system")
        page.keyboard.press("ArrowDown")
        page.wait_for_function("document.documentElement.dataset.theme === 'light'")
        assert page.evaluate("document.activeElement.id") == "settings-theme-light"
        page.focus("#settings-confirmPlay")
        page.keyboard.press("Space")
        assert page.is_checked("#settings-confirmPlay")
        kept = page.evaluate("JSON.parse(localStorage.getItem('basra.settings'))")
        assert kept["theme"] == "light" and kept["confirmPlay"] is True
        # The language from the page: the header follows.
        other = "fr" if lang == "ar" else "ar"
        page.select_option("#settings-language", other)
        page.wait_for_function(f"document.documentElement.lang === '{other}'")
        assert page.input_value("#lang") == other
        assert page.inner_text("h1") == catalogue(other)["settings.title"]
        no_errors(p)


def test_each_look_on_the_settings_page_and_at_a_table(
        players: list[Player], browser: Browser, server: str) -> None:
    p = new_player(players, browser, server, viewport=PHONE_360, reduced_motion=True)
    page = p.page
    page.goto(server + "/settings")
    page.wait_for_selector(".settings-form")
    club, diamond, heart = (".settings-card:nth-child(2) .card-svg",
                            ".settings-card:nth-child(1) .card-svg",
                            ".settings-card:nth-child(3) .card-svg")
    assert colour(page, club) == colour(page, ".settings-card:nth-child(4) .card-svg")  # black
    assert colour(page, diamond) == colour(page, heart)  # red
    # Playwright's browser asks for light: the dark theme chosen.
    assert page.evaluate(ROOT_DATA)["theme"] == "light"
    page.click("label[for='settings-theme-dark']")
    assert page.evaluate(ROOT_DATA)["theme"] == "dark"
    body = colour(page, "body", "backgroundColor")
    assert luminance(body) < 0.05 and contrast(body, colour(page, "body")) >= 7
    shot(page, "settings-dark")

    page.click("label[for='settings-deck-four']")
    assert page.evaluate(ROOT_DATA)["deck"] == "four"
    assert colour(page, club) == "rgb(21, 128, 61)" and colour(page, diamond) == "rgb(29, 78, 216)"
    assert colour(page, heart) == "rgb(198, 40, 40)"
    shot(page, "settings-four-colour")

    page.click("label[for='settings-contrast-high']")
    assert page.evaluate(ROOT_DATA)["contrast"] == "high"
    paper = ".settings-card .card-paper"
    assert colour(page, paper, "fill") == "rgb(255, 255, 255)"
    assert colour(page, paper, "stroke") == "rgb(0, 0, 0)"
    shot(page, "settings-high-contrast")

    page.click("label[for='settings-theme-light']")
    assert page.evaluate(ROOT_DATA)["theme"] == "light"
    shot(page, "settings-light-high-four")
    page.click("label[for='settings-contrast-normal']")
    page.click("label[for='settings-deck-two']")
    body, text = colour(page, "body", "backgroundColor"), colour(page, "body")
    assert luminance(body) > 0.8 and contrast(body, text) >= 7
    muted = colour(page, ".settings-flag .hint")
    panel = colour(page, ".settings-section", "backgroundColor")
    assert contrast(muted, panel) >= 4.5
    link_on = colour(page, ".site-nav a[data-nav='settings']")
    assert contrast(link_on, body) >= 4.5
    shot(page, "settings-light")

    before = page.eval_on_selector(".settings-card", "el => el.getBoundingClientRect().width")
    page.click("label[for='settings-cardSize-large']")
    larger = page.eval_on_selector(".settings-card", "el => el.getBoundingClientRect().width")
    page.click("label[for='settings-cardSize-small']")
    smaller = page.eval_on_selector(".settings-card", "el => el.getBoundingClientRect().width")
    assert smaller < before < larger, (smaller, before, larger)
    shot(page, "settings-small-cards")
    page.click("label[for='settings-cardSize-medium']")

    # The same looks at a table (switched live, from the page's own settings module).
    bot_table(p, "Looker")
    hand = page.eval_on_selector(".hand-card", "el => el.getBoundingClientRect().width")
    for name, changes in [
            ("table-light", {}),
            ("table-dark", {"theme": "dark"}),
            ("table-four-colour", {"deck": "four"}),
            ("table-high-contrast", {"contrast": "high"}),
            ("table-light-four-high", {"theme": "light"}),
            ("table-large-cards", {"theme": "dark", "contrast": "normal", "deck": "two",
                                   "cardSize": "large"})]:
        page.evaluate(SETTINGS_MODULE, changes)
        page.wait_for_timeout(100)
        assert page.evaluate(OVERFLOW) <= 360, name
        shot(page, f"settings-{name}")
    assert page.eval_on_selector(".hand-card", "el => el.getBoundingClientRect().width") > hand
    data = page.evaluate(ROOT_DATA)
    assert (data["theme"], data["deck"], data["contrast"], data["cardSize"]) == (
        "dark", "two", "normal", "large")
    no_errors(p)


def test_the_systems_light_preference_is_followed(browser: Browser, server: str) -> None:
    context = browser.new_context(viewport=PHONE_360, color_scheme="light",  # type: ignore[arg-type]
                                  bypass_csp=True)
    try:
        page = context.new_page()
        page.goto(server + "/")
        page.wait_for_selector("#play-bot")
        assert page.evaluate("localStorage.getItem('basra.settings')") is None
        assert page.evaluate(ROOT_DATA)["theme"] == "light"
        assert page.get_attribute('meta[name="color-scheme"]', "content") == "light"
        assert luminance(colour(page, "body", "backgroundColor")) > 0.8
        shot(page, "settings-system-light-lobby")
        # The system turns dark: the page follows, still without a setting.
        page.emulate_media(color_scheme="dark")
        page.wait_for_function("document.documentElement.dataset.theme === 'dark'")
        assert luminance(colour(page, "body", "backgroundColor")) < 0.05
        # A chosen theme wins over the system's.
        page.evaluate(SETTINGS_MODULE, {"theme": "light"})
        assert page.evaluate(ROOT_DATA)["theme"] == "light"
    finally:
        context.close()


def test_text_at_200_percent_fits_a_360_px_phone(
        players: list[Player], browser: Browser, server: str) -> None:
    for lang in ("en", "ar"):
        # (no motion: a card flying in to the floor is outside the screen on its way)
        p = new_player(players, browser, server, viewport=PHONE_360, locale=LOCALES[lang],
                       reduced_motion=True)
        p.context.add_init_script(
            "document.addEventListener('DOMContentLoaded', () => {"
            " document.documentElement.style.fontSize = '200%'; });")
        page = p.page
        page.goto(server + "/")
        page.wait_for_selector("#play-bot")
        assert page.evaluate("getComputedStyle(document.body).fontSize") == "32px"
        for where in ("lobby", "settings", "table"):
            if where == "settings":
                page.goto(server + "/settings")
                page.wait_for_selector(".settings-form")
            elif where == "table":
                bot_table(p, "Zoomer")
            page.wait_for_timeout(200)
            assert page.evaluate(OVERFLOW) <= 360, (lang, where, page.evaluate(OVERFLOW))
            assert page.evaluate(OUTSIDE) == [], (lang, where)
            assert page.evaluate(HEADER_APART) == {"over": [], "outside": []}, (lang, where)
            shot(page, f"settings-text-200-{where}-{lang}")
        no_errors(p)


def test_the_mute_a_confirmed_play_and_continuing_by_itself(
        players: list[Player], browser: Browser, server: str) -> None:
    p = new_player(players, browser, server, viewport=PHONE, reduced_motion=True)
    p.context.add_init_script("localStorage.setItem('basra.settings', "
                              + json.dumps(json.dumps({"confirmPlay": True, "autoContinue": True}))
                              + ")")
    page = bot_table(p, "Careful", "full")
    # The head's mute is the sound setting.
    page.click(".table-head .sound-toggle")
    assert page.get_attribute(".table-head .sound-toggle", "aria-pressed") == "true"
    assert page.evaluate("JSON.parse(localStorage.getItem('basra.settings')).sound") is False
    assert p.wait_event() == "turn"
    # A play asks first: Cancel sends nothing; Play sends it.
    view = p.state(p.version())["view"]
    card = next(c for c in view["hand"] if sum(1 for o in view["legal"] if o["card"] == c) == 1)
    before, version = len(p.sent), p.version()
    page.click(f".hand-card[data-card='{card}']")
    page.wait_for_selector("dialog.basra-dialog[open]")
    text = page.inner_text("dialog[open] .dialog-body")
    assert text.startswith("Play ") and "?" in text, text
    shot(page, "settings-confirm-play")
    page.click("dialog[open] [data-answer='no']")
    page.wait_for_selector("dialog.basra-dialog", state="detached")
    assert [m for m in p.sent[before:] if m.get("type") == "play"] == []
    page.click(f".hand-card[data-card='{card}']")
    page.wait_for_selector("dialog.basra-dialog[open]")
    page.click("dialog[open] [data-answer='yes']")
    p.wait(f"() => (document.querySelector('.table-page')?.dataset.version | 0) > {version}")
    plays = [m for m in p.sent[before:] if m.get("type") == "play"]
    assert [m["card"] for m in plays] == [card]

    # The rest of the round with confirmation off; its summary continues by itself: the
    # next round's part goes out and the round is dealt with no Continue pressed.
    page.evaluate(SETTINGS_MODULE, {"confirmPlay": False})

    def dealt_again() -> bool:
        return any(s["view"]["round"] >= 2 for s in p.states)

    while not dealt_again():
        p.wait("() => { const t = document.querySelector('.table-page');"
               " return (t.dataset.turn === 'mine' && !!document.querySelector('.hand.my-turn'))"
               " || t.dataset.phase !== 'playing'; }", 60)
        data = p.dataset()
        if dealt_again() or data.get("status") == "finished":
            break
        if data.get("phase") == "playing" and data.get("turn") == "mine":
            p.play_first(keyboard=True)
        else:
            p.wait("() => document.querySelector('.table-page').dataset.phase === 'playing'", 60)
    assert dealt_again()
    assert [m["round"] for m in p.sent if m.get("type") == "seed"][-1] == 2
    no_errors(p)
