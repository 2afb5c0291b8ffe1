// The page's entry: the rules (variants.js fetches GET /api/variants once, before anything
// else runs), language, header (its account link: "Sign in", or the account's username),
// and the router that shows one page at a time (/, /join/CODE, /table/ID, /rules,
// /rules/VARIANT, /history, /live, /tv, /replay, /replay/ID, /leaderboard,
// /leaderboard/VARIANT, /players/NAME, /account, /sign-in, /tournaments, /tournament/ID,
// /friends, /partner/CODE, /mod), and, for an account, the page's socket and the bell
// (lib/notify.js, lib/bell.js, lib/challenge.js); its standing (lib/standing.js: the
// banner asking for a new username, the link to /mod for a moderator). The header's links
// fit in a row or fold into its Menu (lib/header.js).
// Each page module exports mount(container, params) returning {unmount(), relabel()}.
// Only the lobby comes with the first load: the other pages (and the table's stylesheets)
// load when their route opens.

import { h, replace } from "./lib/dom.js";
// The player's settings on <html> (theme, deck, contrast, card size, motion) before anything
// is drawn, and on every change (lib/settings.js applies itself as it loads).
import "./lib/settings.js";
import { saveLanguage } from "./lib/accountsettings.js";
import { LANGUAGES, currentLanguage, initialLanguage, onLanguageChange, setLanguage, t } from "./lib/i18n.js";
import { ensureSprites } from "./lib/cards.js";
import { loadStyle, navigate, setPageTitle } from "./lib/ui.js";
import { loaded } from "./lib/variants.js";
import { cachedMe, me, onSession } from "./lib/api.js";
import { startNotify } from "./lib/notify.js";
import { relabelBell, startBell } from "./lib/bell.js";
import { startChallenges } from "./lib/challenge.js";
import { relabelStanding, startStanding } from "./lib/standing.js";
import { startHeader } from "./lib/header.js";
import * as lobby from "./pages/lobby.js";

const lobbyPage = () => Promise.resolve(lobby);
/** The table's looks, loaded with it (resolved here, so a versioned static prefix carries). */
const TABLE_STYLES = ["../css/table.css", "../css/overlay.css", "../css/phrases.css"].map((path) => new URL(path, import.meta.url));

async function tablePage() {
  const [page] = await Promise.all([import("./pages/table.js"), ...TABLE_STYLES.map(loadStyle)]);
  return page;
}

let current = null;
let currentKey = "";
let currentTitle = "";
let currentWords = {};
let opening = 0;

function route(pathname) {
  const parts = pathname.split("/").filter(Boolean).map(decodeURIComponent);
  if (parts.length === 0) return { load: lobbyPage, params: {}, nav: "play", title: "app.title" };
  if (parts[0] === "join" && parts[1]) return { load: () => import("./pages/invite.js"), params: { join: parts[1] }, nav: "play", title: "app.title" };
  if (parts[0] === "partner" && parts[1] && parts.length === 2) return { load: () => import("./pages/partner.js"), params: { code: parts[1] }, nav: "play", title: "page.title.partner" };
  if (parts[0] === "table" && parts[1]) return { load: tablePage, params: { id: parts[1] }, nav: "play", title: "page.title.table" };
  if (parts[0] === "rules") return { load: () => import("./pages/rules.js"), params: { variant: parts[1] || "" }, nav: "rules", title: "page.title.rules" };
  if (parts[0] === "history") return { load: () => import("./pages/history.js"), params: {}, nav: "history", title: "page.title.history" };
  if (parts[0] === "leaderboard") return { load: () => import("./pages/leaderboard.js"), params: { variant: parts[1] || "" }, nav: "leaderboard", title: "page.title.leaderboard" };
  if (parts[0] === "players" && parts[1]) return { load: () => import("./pages/profile.js"), params: { name: parts[1] }, nav: "leaderboard", title: "page.title.profile", words: { name: parts[1] } };
  if (parts[0] === "live" && parts.length === 1) return { load: () => import("./pages/live.js"), params: {}, nav: "live", title: "page.title.live" };
  if (parts[0] === "tournaments" && parts.length === 1) return { load: () => import("./pages/tournaments.js"), params: {}, nav: "tournaments", title: "page.title.tournaments" };
  if (parts[0] === "tournament" && parts[1] && parts.length === 2) return { load: () => import("./pages/tournament.js"), params: { id: parts[1] }, nav: "tournaments", title: "page.title.tournament" };
  if (parts[0] === "friends" && parts.length === 1) return { load: () => import("./pages/friends.js"), params: {}, nav: "account", title: "page.title.friends" };
  if (parts[0] === "learn" && parts.length <= 2) return { load: () => import("./pages/learn.js"), params: { lesson: parts[1] || "" }, nav: "learn", title: "page.title.learn" };
  if (parts[0] === "puzzles" && parts.length <= 2) return { load: () => import("./pages/puzzles.js"), params: { mode: parts[1] || "" }, nav: "learn", title: "page.title.puzzles" };
  if (parts[0] === "puzzle" && parts[1] && parts.length === 2) return { load: () => import("./pages/puzzles.js"), params: { mode: "one", id: parts[1] }, nav: "learn", title: "page.title.puzzles" };
  if (parts[0] === "mistakes" && parts[1] && parts.length === 2) return { load: () => import("./pages/mistakes.js"), params: { id: parts[1] }, nav: "history", title: "page.title.mistakes" };
  if (parts[0] === "settings" && parts.length === 1) return { load: () => import("./pages/settings.js"), params: {}, nav: "settings", title: "page.title.settings" };
  if (parts[0] === "tv" && parts.length === 1) return { load: () => import("./pages/tv.js"), params: {}, nav: "live", title: "page.title.tv" };
  if (parts[0] === "replay" && parts.length <= 2) return { load: () => import("./pages/replay.js"), params: { id: parts[1] || "" }, nav: "history", title: "page.title.replay" };
  if (parts[0] === "account" && parts.length === 1) return { load: () => import("./pages/account.js"), params: {}, nav: "account", title: "page.title.account" };
  if (parts[0] === "mod" && parts.length === 1) return { load: () => import("./pages/mod.js"), params: {}, nav: "mod", title: "page.title.mod" };
  if (parts[0] === "sign-in" && parts.length === 1) return { load: () => import("./pages/signin.js"), params: {}, nav: "account", title: "page.title.signin" };
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
  const { load, params, nav, title, words = {} } = route(location.pathname);
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
  currentWords = words;
  setPageTitle(t(title, words));
  for (const a of document.querySelectorAll(".site-header a[data-nav]")) {
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
  document.getElementById("lang-code").textContent = currentLanguage().toUpperCase();
}

/** The header's last link: "Sign in" for a guest (or nobody yet), an account's username
 * (to /account) once signed in. */
function accountLink(player = cachedMe()) {
  const a = document.getElementById("account-link");
  const account = !!(player && player.account && player.username);
  a.setAttribute("href", account ? "/account" : "/sign-in");
  a.classList.toggle("signed-in", account);
  const name = account ? player.username : t("signin.link");
  a.querySelector(".account-name").textContent = name;
  a.querySelector(".account-initial").textContent = account ? (Array.from(player.username)[0] || "?").toUpperCase() : "";
  a.setAttribute("aria-label", account ? t("account.link_label", { name }) : name);
  a.title = account ? t("account.link_label", { name }) : name;
}

async function start() {
  ensureSprites();
  await setLanguage(initialLanguage(), { remember: false });
  languageSwitch();
  document.getElementById("lang").addEventListener("change", (event) => {
    setLanguage(event.target.value);
    saveLanguage(event.target.value);
  });
  accountLink();
  // The header's layout (its links in a row, or the Menu), measured now its words are in.
  startHeader();
  onSession((player) => accountLink(player));
  onLanguageChange(() => {
    languageSwitch();
    accountLink();
    relabelBell();
    relabelStanding();
    if (currentTitle) setPageTitle(t(currentTitle, currentWords));
    if (current && current.relabel) current.relabel();
  });
  for (const a of document.querySelectorAll("a[data-link]")) {
    a.addEventListener("click", (event) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
      event.preventDefault();
      navigate(a.getAttribute("href"));
    });
  }
  startNotify();
  startBell();
  startChallenges();
  startStanding();
  // The skip link puts the focus on the page's content without a "#app" in the address: a
  // fragment is a history entry (a popstate), which the table's leave guard and the
  // replay's position (#r2p17) would read as the player's own step.
  const skip = document.querySelector("a.skip-link[href='#app']");
  if (skip) skip.addEventListener("click", (event) => {
    event.preventDefault();
    const app = document.getElementById("app");
    app.focus({ preventScroll: true });
    app.scrollIntoView();
  });
  window.addEventListener("popstate", render);
  window.addEventListener("basra:navigate", () => { currentKey = ""; render(); });
  await render();
  document.body.classList.add("ready");
  // The account link as the server knows it (the lobby asks as it opens: the same answer).
  me().catch(() => null);
}

start();
