// Small shared pieces of UI: toasts, the screen-reader announcer, names of players and
// sides, a rated match's marks in a history list, sentences with links inside, and
// navigation inside the single page.

import { h } from "./dom.js";
import { has, t } from "./i18n.js";
import { signedNumber, signedTag } from "./cards.js";
import { limits } from "./variants.js";

/** The numbers some error texts name, from the server's limits. */
const ERROR_PARAMS = {
  "guest/bad_nickname": (l) => ({ min: l.nickname_min, max: l.nickname_max }),
  "seed/bad": (l) => ({ max: l.max_part_bytes }),
};

/** The text of `key` with its {placeholders} filled by nodes or strings (for links inside
 * a sentence: the words stay the catalogue's, in the catalogue's order). */
export function fill(key, params) {
  const text = t(key, Object.fromEntries(Object.keys(params).map((name) => [name, `\u0000${name}\u0000`])));
  return text.split("\u0000").map((part, i) => (i % 2 ? params[part] : part)).filter((part) => part !== "");
}

export function announce(text) {
  const el = document.getElementById("announcer");
  if (!el) return;
  el.textContent = "";
  // A fresh text node after a tick is read even when the text repeats.
  setTimeout(() => { el.textContent = text; }, 30);
}

export function toast(text, kind = "info", ms = 4000) {
  const box = document.getElementById("toasts");
  if (!box) return;
  const item = h("div", { class: `toast toast-${kind}`, role: kind === "error" ? "alert" : "status" }, text);
  box.append(item);
  setTimeout(() => item.classList.add("leaving"), ms);
  setTimeout(() => item.remove(), ms + 400);
}

/** A message for an API or protocol error code, with the server's line as a fallback. */
export function errorText(err) {
  const code = (err && err.code) || "";
  if (code === "rate/limited" && err.retryAfter > 0) {
    return t("error.rate.limited_wait", { count: err.retryAfter, n: err.retryAfter });
  }
  const key = `error.${code.replace("/", ".")}`;
  const params = ERROR_PARAMS[code] ? ERROR_PARAMS[code](limits()) : {};
  return has(key) ? t(key, params) : t("error.generic");
}

function isBot(player) {
  return player.kind === "bot" || String(player.name || "").startsWith("bot:");
}

/** A player's display name: nicknames as typed, bots by level in the current language
 * (numbered by seat when a table has several). `players` is the whole table, if known. */
export function playerName(player, players = null) {
  if (!player) return "";
  if (player.kind === "empty") return t("seat.empty");
  const name = String(player.name || "");
  if (isBot(player)) {
    if (players && players.filter(isBot).length > 1 && player.seat !== undefined) {
      return t("bot.numbered", { n: player.seat + 1 });
    }
    const level = name.startsWith("bot:") ? name.slice(4) : "medium";
    return t("bot.name", { level: t(`bot.level.${level}`) });
  }
  return name;
}

/** What a history list (the history page, the lobby's recent matches, a profile's) shows of
 * a rated match: the "Rated" tag and the player's rating change (`+12` green, `−12` red,
 * read left to right in every language); `null` for each when the match was not rated or
 * has no change (an aborted one). Styled by base.css. */
export function ratedMarks(m) {
  if (!m || !m.rated) return { tag: null, change: null };
  const tag = h("span", { class: "history-rated" }, t("profile.rated"));
  const n = m.change;
  const change = n === null || n === undefined ? null
    : h("span", { class: ["history-change", n > 0 ? "up" : n < 0 ? "down" : null], dataset: { change: String(n) } },
      h("span", { class: "sr-only" }, t("profile.change_label", { change: signedNumber(n) })),
      h("span", { "aria-hidden": "true" }, signedTag(n)));
  return { tag, change };
}

let baseTitle = "";

/** The page's own title (in the reader's language). The table may mark it for a while ("your
 * turn"); `pageTitle()` gives the base title back, without any mark. */
export function setPageTitle(text) {
  baseTitle = String(text || "");
  document.title = baseTitle;
}

export function pageTitle() {
  return baseTitle;
}

const styles = new Map();

/** Add a stylesheet once (a URL resolved against the calling module) and wait until it is
 * applied; a missing sheet does not hold the page up. */
export function loadStyle(url) {
  const href = String(url);
  if (!styles.has(href)) {
    styles.set(href, new Promise((resolve) => {
      const present = Array.from(document.querySelectorAll("link[rel=stylesheet]")).find((l) => l.href === href);
      if (present) { resolve(); return; }
      const el = h("link", { rel: "stylesheet", href });
      el.addEventListener("load", () => resolve(), { once: true });
      el.addEventListener("error", () => resolve(), { once: true });
      document.head.append(el);
    }));
  }
  return styles.get(href);
}

export function navigate(path, { replace = false } = {}) {
  if (replace) history.replaceState({}, "", path);
  else history.pushState({}, "", path);
  window.dispatchEvent(new Event("basra:navigate"));
}

export function link(path, attrs, ...children) {
  return h("a", {
    href: path, ...attrs,
    on: {
      click: (event) => {
        if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        navigate(path);
      },
    },
  }, ...children);
}

export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = h("textarea", { class: "sr-only", readonly: true });
    area.value = text;
    document.body.append(area);
    area.select();
    let ok = false;
    try { ok = document.execCommand("copy"); } catch { ok = false; }
    area.remove();
    return ok;
  }
}

export function spinner() {
  return h("span", { class: "spinner", "aria-hidden": "true" });
}

/** A small inline SVG icon by name (decorative). */
export function icon(name) {
  const span = h("span", { class: `icon icon-${name}`, "aria-hidden": "true" });
  return span;
}

/** The same-site path a page was asked to go back to (`?next=/join/CODE`), or null: only a
 * path of this site is ever followed (not `//host`, a backslash, or another origin). */
export function nextPath() {
  const next = new URLSearchParams(location.search).get("next") || "";
  if (!next.startsWith("/") || next.startsWith("//") || next.includes("\\")) return null;
  try {
    const url = new URL(next, location.origin);
    return url.origin === location.origin ? url.pathname + url.search + url.hash : null;
  } catch {
    return null;
  }
}

/** ``path`` carrying this page's `next` on, if it has one. */
export function withNext(path) {
  const next = nextPath();
  return next ? `${path}?next=${encodeURIComponent(next)}` : path;
}

/** Ask `ask()` now (`poll()`) and then every `every` ms while the page is shown: `got` gets
 * each answer, `failed` is told of each failure; an answer asked for before a newer one is
 * dropped. Nothing is asked while the tab is hidden; showing it asks at once. `stop()` ends
 * it (the page unmounts). */
export function visiblePoll(ask, got, failed, every) {
  let timer = 0;
  let asking = 0;
  let alive = true;
  const schedule = () => {
    clearTimeout(timer);
    if (alive && !document.hidden) timer = setTimeout(poll, every);
  };
  async function poll() {
    clearTimeout(timer);
    if (!alive || document.hidden) return;
    const ticket = ++asking;
    try {
      const answer = await ask();
      if (!alive || ticket !== asking) return;
      got(answer);
    } catch {
      if (!alive || ticket !== asking) return;
      failed();
    }
    schedule();
  }
  const onVisibility = () => (document.hidden ? clearTimeout(timer) : poll());
  document.addEventListener("visibilitychange", onVisibility);
  return {
    poll,
    stop() {
      alive = false;
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisibility);
    },
  };
}

/** A plain click on one of `container`'s in-page links (`a[data-nav]`) opens its page
 * without a reload; whether it did. */
export function followNav(container, event) {
  const a = event.target.closest ? event.target.closest("a[data-nav]") : null;
  if (!a || !container.contains(a)) return false;
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return false;
  event.preventDefault();
  navigate(a.getAttribute("href"));
  return true;
}
