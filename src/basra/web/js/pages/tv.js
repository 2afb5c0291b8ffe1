// /tv, Basra TV: the best-rated match being played now (the first of GET
// /api/live?order=rating), watched as a spectator through the table page itself (table.js
// with `tv: true`: the same cards, motion and overlays as at /table/ID, never a hand). When
// that match is over (finished, abandoned, or gone from the server) its result stays up a
// few seconds, then the next best live match comes on, never one shown before; with none
// live, the page says so and looks again every few seconds. The bar over the table says
// what is on and what comes next (read out politely).

import { h, morph, replace } from "../lib/dom.js";
import { num, t } from "../lib/i18n.js";
import * as apiModule from "../lib/api.js";
import { announce, loadStyle, navigate, playerName } from "../lib/ui.js";
import * as tablePage from "./table.js";
import { tvIcon } from "./live.js";

/** The table's looks (main.js loads the same for /table/ID) and the TV bar's. */
const STYLES = ["../../css/table.css", "../../css/overlay.css", "../../css/phrases.css", "../../css/live.css"]
  .map((path) => new URL(path, import.meta.url));
/** How long a finished match's result stays up before the next one comes on. */
export const RESULT_MS = 6000;
/** How often the page looks again while nothing is live. */
export const NONE_MS = 4000;

function names(m) {
  return m.players.map((p) => playerName(p, m.players)).join(t("list.sep"));
}

export function mount(container) {
  let alive = true;
  /** looking | on | ended | none */
  let phase = "looking";
  let match = null;
  let page = null;
  let endsAt = 0;
  let timer = 0;
  let ticker = 0;
  const seen = new Set();
  container.classList.add("tv-page");
  const bar = h("div", { class: "tv-bar" });
  const screen = h("div", { class: "tv-screen" });
  const styled = Promise.all(STYLES.map(loadStyle));

  const statusText = () => {
    if (phase === "looking") return t("tv.looking");
    if (phase === "none") return t("tv.none");
    if (phase === "ended") {
      const n = Math.max(0, Math.ceil((endsAt - Date.now()) / 1000));
      return t("tv.next", { count: n, n: num(n) });
    }
    return match ? t("tv.now", { names: names(match), variant: t(`variant.${match.variant}.name`) }) : "";
  };

  const drawBar = () => {
    container.dataset.tv = phase;
    if (match) container.dataset.table = match.table;
    else delete container.dataset.table;
    morph(bar, h("div", { class: "tv-bar" },
      h("h1", { class: "tv-brand" }, tvIcon(), t("tv.title"), h("span", { class: "tv-live" }, t("tv.live"))),
      h("p", { class: "tv-status", role: "status", dataset: { phase } }, statusText(),
        match && match.rating !== null && match.rating !== undefined && phase !== "none"
          ? [" ", h("bdi", { class: "tv-rating", dir: "ltr" }, t("tv.rating", { n: String(match.rating) }))] : null),
      h("a", { class: "btn small ghost tv-all", href: "/live", dataset: { nav: "" } }, t("tv.all"))));
  };

  const drawNone = () => {
    replace(screen, h("div", { class: "tv-none center-card" },
      h("p", null, t("tv.none")),
      h("p", { class: "muted" }, t("tv.none_hint")),
      h("a", { class: "btn primary", href: "/", dataset: { nav: "" } }, t("live.play_now"))));
  };

  const stopTable = () => {
    if (page) page.unmount();
    page = null;
  };

  const ended = () => {
    if (!alive || phase !== "on") return;
    phase = "ended";
    endsAt = Date.now() + RESULT_MS;
    drawBar();
    announce(statusText());
    clearInterval(ticker);
    ticker = setInterval(drawBar, 1000);
    clearTimeout(timer);
    timer = setTimeout(next, RESULT_MS);
  };

  const show = (m) => {
    stopTable();
    seen.add(m.table);
    match = m;
    phase = "on";
    const host = h("div", { class: "tv-table" });
    replace(screen, host);
    page = tablePage.mount(host, { id: m.table, tv: true, onEnd: () => ended() });
    drawBar();
    announce(statusText());
  };

  async function next() {
    clearTimeout(timer);
    clearInterval(ticker);
    if (!alive) return;
    let best = null;
    try {
      const answer = await apiModule.request("GET", "/api/live?order=rating");
      const matches = Array.isArray(answer && answer.matches) ? answer.matches : [];
      best = matches.find((m) => !seen.has(m.table)) || null;
    } catch { best = null; }
    await styled;
    if (!alive) return;
    if (best) { show(best); return; }
    stopTable();
    const was = phase;
    phase = "none";
    match = null;
    drawBar();
    drawNone();
    if (was !== "none") announce(statusText());
    timer = setTimeout(next, NONE_MS);
  }

  const onClick = (event) => {
    const a = event.target.closest ? event.target.closest("a[data-nav]") : null;
    if (!a || !container.contains(a) || (page && screen.contains(a) && !a.closest(".tv-none"))) return;
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(a.getAttribute("href"));
  };

  replace(container, bar, screen);
  drawBar();
  container.addEventListener("click", onClick);
  next();
  return {
    unmount() {
      alive = false;
      clearTimeout(timer);
      clearInterval(ticker);
      container.removeEventListener("click", onClick);
      stopTable();
    },
    relabel() {
      drawBar();
      if (page) page.relabel();
      else if (phase === "none") drawNone();
    },
  };
}
