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


def choose_language(page: Page, code: str) -> None:
    """``code`` chosen in the header's language switch (in the Menu's panel, opened for it
    and closed again, when the header shows the Menu)."""
    menu = folded(page)
    open_menu(page)
    page.select_option("#lang", code)
    if menu and page.get_attribute("#menu-button", "aria-expanded") == "true":
        page.click("#menu-button")
