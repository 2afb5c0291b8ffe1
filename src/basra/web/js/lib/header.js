// The site's header: its links in a row when they fit the window, else one worded "Menu"
// button (a disclosure: aria-expanded, aria-controls) whose panel lists every destination
// with its icon and its word, the current page marked, and the language switch; the bell
// and the account link stay in the header.
//
// Which layout fits is measured, not guessed: four layouts are tried widest first (the row
// with the brand's word, the language's name and the account's name; the row tight; the
// menu; the menu tight) and the first whose parts fit side by side is kept, written on the
// header as data-fit="row|menu" and data-tight (base.css draws each). It is measured again
// when the window is resized (at once), when anything in the header changes (its words in
// a new language, the account's name, the bell, the moderators' link: a MutationObserver,
// at once), and when the header or one of its parts changes size (a scroll bar, a setting's
// borders, a font, a style that follows the window: a ResizeObserver, in the next frame).
//
// The panel: Escape closes it and gives the focus back to the button; Tab walks its links
// and the language; the focus or a click leaving the header's navigation closes it, and so
// does opening a page. While it is open, its keys are its own (the page's shortcuts, the
// screen-reader table's letters and numbers, the replay's arrows, do not see them).

const LAYOUTS = [["row", false], ["row", true], ["menu", false], ["menu", true]];

let header = null;
let nav = null;
let button = null;
let panel = null;
let soon = 0;

function isOpen() {
  return !!nav && nav.hasAttribute("data-open");
}

function setLayout([fit, tight]) {
  header.dataset.fit = fit;
  header.toggleAttribute("data-tight", tight);
}

/** The width the header's parts take side by side, as laid out now (each part at its own
 * width: none shrinks), with the gaps between them and the header's padding. */
function neededWidth() {
  const style = getComputedStyle(header);
  const gap = parseFloat(style.columnGap) || 0;
  let sum = (parseFloat(style.paddingLeft) || 0) + (parseFloat(style.paddingRight) || 0);
  let parts = 0;
  for (const part of header.children) {
    const look = getComputedStyle(part);
    if (look.display === "none" || look.position === "absolute" || look.position === "fixed") continue;
    sum += part.getBoundingClientRect().width;
    parts += 1;
  }
  return sum + gap * Math.max(0, parts - 1);
}

/** Choose the widest layout that fits the header (see the top of this file). */
export function fitHeader() {
  if (!header) return;
  const room = header.getBoundingClientRect().width;
  const focusOnButton = document.activeElement === button;
  let chosen = LAYOUTS[LAYOUTS.length - 1];
  header.setAttribute("data-measuring", "");
  for (const layout of LAYOUTS) {
    setLayout(layout);
    // A pixel spare, against rounding.
    if (neededWidth() + 1 <= room) {
      chosen = layout;
      break;
    }
  }
  setLayout(chosen);
  header.removeAttribute("data-measuring");
  if (chosen[0] === "row") {
    if (isOpen()) close(false);
    // The button has gone: the focus goes to the link of the page shown, or the first.
    if (focusOnButton) (nav.querySelector("a[aria-current='page']") || nav.querySelector("a"))?.focus();
  }
}

/** Measure again in the next frame (once, however often asked). */
function fitSoon() {
  if (!soon) soon = requestAnimationFrame(() => { soon = 0; fitHeader(); });
}

function items() {
  return [...panel.querySelectorAll("a, select")].filter((el) => el.getClientRects().length > 0);
}

function open() {
  nav.setAttribute("data-open", "");
  button.setAttribute("aria-expanded", "true");
  document.addEventListener("click", onOutside, true);
  document.addEventListener("keydown", onEscapeOutside);
}

function close(focusButton) {
  if (!nav) return;
  const was = isOpen();
  nav.removeAttribute("data-open");
  button.setAttribute("aria-expanded", "false");
  document.removeEventListener("click", onOutside, true);
  document.removeEventListener("keydown", onEscapeOutside);
  if (was && focusButton) button.focus();
}

/** A click outside the navigation closes the panel (not one in a dialog opened from it: a
 * table's "Leave the table?" asked for one of its links). */
function onOutside(event) {
  const target = event.target;
  if (!isOpen() || nav.contains(target)) return;
  if (target && target.closest && target.closest("dialog")) return;
  close(false);
}

/** Escape with the focus elsewhere (the bell's panel took it) closes the panel too. */
function onEscapeOutside(event) {
  if (event.key === "Escape" && !nav.contains(event.target)) close(false);
}

function onKeydown(event) {
  if (!isOpen()) {
    // Down arrow on the button opens the panel at its first item.
    if (event.target === button && event.key === "ArrowDown" && header.dataset.fit === "menu") {
      event.preventDefault();
      open();
      items()[0]?.focus();
    }
    return;
  }
  // The panel's keys are its own.
  event.stopPropagation();
  if (event.key === "Escape") {
    event.preventDefault();
    close(true);
    return;
  }
  // Up and down arrows, Home and End move along the links (a select keeps its own).
  if (event.target.tagName === "SELECT" || event.altKey || event.ctrlKey || event.metaKey) return;
  const list = items().filter((el) => el.tagName === "A");
  const at = list.indexOf(event.target);
  let next = null;
  if (event.key === "ArrowDown") next = at < 0 ? 0 : (at + 1) % list.length;
  else if (event.key === "ArrowUp") next = at < 0 ? list.length - 1 : (at - 1 + list.length) % list.length;
  else if (event.key === "Home") next = 0;
  else if (event.key === "End") next = list.length - 1;
  if (next !== null && list[next]) {
    event.preventDefault();
    list[next].focus();
  }
}

/** The focus leaving the navigation (Tab past its last item, Shift+Tab before the
 * button) closes the panel. */
function onFocusOut(event) {
  if (isOpen() && event.relatedTarget && !nav.contains(event.relatedTarget)) close(false);
}

/** A page opened (a link of the panel, the brand, back): the panel closes; the focus, if it
 * was in the panel, goes back to the button. */
function onNavigate() {
  if (isOpen()) close(panel.contains(document.activeElement));
}

/** Set the header up: its layout now, and each time it may change; the menu's button. */
export function startHeader() {
  header = document.querySelector(".site-header");
  nav = document.getElementById("site-nav");
  button = document.getElementById("menu-button");
  panel = document.getElementById("site-menu");
  if (!header || !nav || !button || !panel) return;
  button.addEventListener("click", () => (isOpen() ? close(false) : open()));
  nav.addEventListener("keydown", onKeydown);
  nav.addEventListener("focusout", onFocusOut);
  window.addEventListener("basra:navigate", onNavigate);
  window.addEventListener("popstate", onNavigate);
  fitHeader();
  // The window's width: measured at once, before the next frame is drawn.
  window.addEventListener("resize", fitHeader);
  // Anything else that sizes the header or its parts (a scroll bar coming or going, the
  // settings' borders, a font, styles that follow the window applied late): measured in
  // the next frame (never inside the observer's own round, which its changes would loop).
  if (window.ResizeObserver) {
    const watch = new ResizeObserver(fitSoon);
    watch.observe(header);
    for (const part of header.children) watch.observe(part);
  }
  // Its words in a new language, the account's name, the bell, the moderators' link.
  new MutationObserver(() => fitHeader()).observe(header, {
    subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ["hidden", "class"],
  });
  if (document.fonts) document.fonts.addEventListener("loadingdone", fitSoon);
}
