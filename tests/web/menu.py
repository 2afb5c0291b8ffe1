"""The site's header as a person uses it at any width: where its links do not fit the window
they are in the Menu's panel (lib/header.js), and so is the language switch."""

from __future__ import annotations

from playwright.sync_api import Page


def folded(page: Page) -> bool:
    """Whether the header shows its Menu button instead of the row of links."""
    return page.get_attribute(".site-header", "data-fit") == "menu"


def open_menu(page: Page) -> None:
    """The header's links within reach: the Menu opened when the header shows it."""
    if folded(page) and page.get_attribute("#menu-button", "aria-expanded") != "true":
        page.click("#menu-button")


REACHABLE = """() => {
  const visible = (el) => !!el && el.getClientRects().length > 0
    && getComputedStyle(el).visibility !== 'hidden';
  return visible(document.querySelector('#lang'))
    || visible(document.querySelector('#menu-button'));
}"""
"""Whether the language switch is in reach: shown, or behind a Menu button that is."""


def choose_language(page: Page, code: str) -> None:
    """``code`` chosen in the header's language switch (in the Menu's panel, opened for it
    and closed again, when the header shows the Menu). After a change of the window's
    width the header fits itself over the next frames: asked once it has."""
    page.wait_for_function(REACHABLE)
    menu = not page.locator("#lang").is_visible()
    if menu:
        page.click("#menu-button")
    page.select_option("#lang", code)
    if menu and page.get_attribute("#menu-button", "aria-expanded") == "true":
        page.click("#menu-button")
