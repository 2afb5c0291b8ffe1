// The page's entry: the rules (variants.js fetches GET /api/variants once, before anything
// else runs), language, header, and the router that shows one page at a time (/, /join/CODE,
// /table/ID, /rules, /rules/VARIANT, /history). Each page module exports
// mount(container, params) returning {unmount(), relabel()}. Only the lobby comes with the
// first load: the other pages (and the table's stylesheets) load when their route opens.

import { h, replace } from "./dom.js";
import { LANGUAGES, currentLanguage, initialLanguage, onLanguageChange, setLanguage, t } from "./i18n.js";
import { ensureSprites } from "./cards.js";
import { loadStyle, navigate, setPageTitle } from "./ui.js";
import { loaded } from "./variants.js";
import * as lobby from "./lobby.js";

const lobbyPage = () => Promise.resolve(lobby);
/** The table's looks, loaded with it (resolved here, so a versioned static prefix carries). */
const TABLE_STYLES = ["../css/table.css", "../css/overlay.css"].map((path) => new URL(path, import.meta.url));

async function tablePage() {
  const [page] = await Promise.all([import("./table.js"), ...TABLE_STYLES.map(loadStyle)]);
  return page;
}

let current = null;
let currentKey = "";
let currentTitle = "";
let opening = 0;

function route(pathname) {
  const parts = pathname.split("/").filter(Boolean).map(decodeURIComponent);
  if (parts.length === 0) return { load: lobbyPage, params: {}, nav: "play", title: "app.title" };
  if (parts[0] === "join" && parts[1]) return { load: () => import("./invite.js"), params: { join: parts[1] }, nav: "play", title: "app.title" };
  if (parts[0] === "table" && parts[1]) return { load: tablePage, params: { id: parts[1] }, nav: "play", title: "page.title.table" };
  if (parts[0] === "rules") return { load: () => import("./rules.js"), params: { variant: parts[1] || "" }, nav: "rules", title: "page.title.rules" };
  if (parts[0] === "history") return { load: () => import("./history.js"), params: {}, nav: "history", title: "page.title.history" };
  return { load: lobbyPage, params: { notFound: true }, nav: "play", title: "app.title" };
}

/** Without the rules the page cannot play: say so, and offer to try again. */
function unavailable(app) {
  replace(app, h("div", { class: "page" },
    h("p", { class: "field-error", role: "alert" }, t("error.network.offline")),
    h("button", { type: "button", class: "btn primary", on: { click: () => location.reload() } }, t("conn.retry"))));
}

async function render() {
  const app = document.getElementById("app");
  if (!loaded()) {
    unavailable(app);
    return;
  }
  const { load, params, nav, title } = route(location.pathname);
  const key = location.pathname;
  if (current && key === currentKey) return;
  const ticket = ++opening;
  let page;
  try {
    page = await load();
  } catch {
    if (ticket === opening) unavailable(app);
    return;
  }
  // Another route opened meanwhile: that one is shown.
  if (ticket !== opening) return;
  if (current) current.unmount();
  replace(app);
  app.className = "";
  currentKey = key;
  currentTitle = title;
  setPageTitle(t(title));
  for (const a of document.querySelectorAll(".site-nav a")) {
    if (a.dataset.nav === nav) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
  current = page.mount(app, params);
  window.scrollTo(0, 0);
}

function languageSwitch() {
  const select = document.getElementById("lang");
  replace(select, LANGUAGES.map((code) => h("option", { value: code, lang: code }, t(`lang.${code}`))));
  select.value = currentLanguage();
}

async function start() {
  ensureSprites();
  await setLanguage(initialLanguage(), { remember: false });
  languageSwitch();
  document.getElementById("lang").addEventListener("change", (event) => {
    setLanguage(event.target.value);
  });
  onLanguageChange(() => {
    languageSwitch();
    if (currentTitle) setPageTitle(t(currentTitle));
    if (current && current.relabel) current.relabel();
  });
  for (const a of document.querySelectorAll("a[data-link]")) {
    a.addEventListener("click", (event) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
      event.preventDefault();
      navigate(a.getAttribute("href"));
    });
  }
  window.addEventListener("popstate", render);
  window.addEventListener("basra:navigate", () => { currentKey = ""; render(); });
  await render();
  document.body.classList.add("ready");
}

start();
