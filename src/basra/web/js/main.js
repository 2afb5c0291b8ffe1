// The page's entry: the rules (variants.js fetches GET /api/variants once, before anything
// else runs), language, header, and the router that shows one page at a time (/, /join/CODE,
// /table/ID, /rules, /rules/VARIANT, /history). Each page module exports
// mount(container, params) returning {unmount(), relabel()}.

import { h, replace } from "./dom.js";
import { LANGUAGES, currentLanguage, initialLanguage, onLanguageChange, setLanguage, t } from "./i18n.js";
import { ensureSprites } from "./cards.js";
import { navigate } from "./ui.js";
import { loaded } from "./variants.js";
import * as lobby from "./lobby.js";
import * as table from "./table.js";
import * as rules from "./rules.js";
import * as historyPage from "./history.js";

let current = null;
let currentKey = "";

function route(pathname) {
  const parts = pathname.split("/").filter(Boolean).map(decodeURIComponent);
  if (parts.length === 0) return { page: lobby, params: {}, nav: "play" };
  if (parts[0] === "join" && parts[1]) return { page: lobby, params: { join: parts[1] }, nav: "play" };
  if (parts[0] === "table" && parts[1]) return { page: table, params: { id: parts[1] }, nav: "play" };
  if (parts[0] === "rules") return { page: rules, params: { variant: parts[1] || "" }, nav: "rules" };
  if (parts[0] === "history") return { page: historyPage, params: {}, nav: "history" };
  return { page: lobby, params: { notFound: true }, nav: "play" };
}

/** Without the rules the page cannot play: say so, and offer to try again. */
function unavailable(app) {
  replace(app, h("div", { class: "page" },
    h("p", { class: "field-error", role: "alert" }, t("error.network.offline")),
    h("button", { type: "button", class: "btn primary", on: { click: () => location.reload() } }, t("conn.retry"))));
}

function render() {
  const app = document.getElementById("app");
  if (!loaded()) {
    unavailable(app);
    return;
  }
  const { page, params, nav } = route(location.pathname);
  const key = location.pathname;
  if (current && key === currentKey) return;
  if (current) current.unmount();
  replace(app);
  app.className = "";
  currentKey = key;
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
    document.title = t("app.title");
    if (current && current.relabel) current.relabel();
  });
  document.title = t("app.title");
  for (const a of document.querySelectorAll("a[data-link]")) {
    a.addEventListener("click", (event) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
      event.preventDefault();
      navigate(a.getAttribute("href"));
    });
  }
  window.addEventListener("popstate", render);
  window.addEventListener("basra:navigate", () => { currentKey = ""; render(); });
  render();
  document.body.classList.add("ready");
}

start();
