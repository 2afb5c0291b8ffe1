// /live: the matches being played now (GET /api/live?order=newest|rating), each a card with
// its variant, its players (rating labels, accounts linked to their profiles), the score
// (and sets where a variant plays sets), the round and the number watching; opening one
// watches it at /table/ID. A switch orders them newest or highest rated first (remembered);
// the list is asked for again every few seconds while the page is visible, and redrawn in
// place (dom.morph), so focus and scrolling stay. Links to Basra TV, and to the lobby when
// nothing is being played.

import { h, morph, replace, s } from "../lib/dom.js";
import { num, t } from "../lib/i18n.js";
import * as apiModule from "../lib/api.js";
import { loadPrefs, savePrefs } from "../lib/prefs.js";
import { sideCount, sideOf, variantOf } from "../lib/variants.js";
import { followNav, loadStyle, playerName, spinner, visiblePoll } from "../lib/ui.js";

const STYLE = new URL("../../css/live.css", import.meta.url);
/** How often the list is asked for while the page is visible (the server's answer is at most
 * about a second old). */
export const POLL_MS = 3000;
const ORDERS = ["newest", "rating"];

/** The TV's mark: a screen with a dot (shared with tv.js). */
export function tvIcon() {
  return s("svg", { class: "tv-icon", viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" },
    s("rect", { x: 2.5, y: 5, width: 19, height: 13, rx: 2.5 }),
    s("path", { d: "M8 21h8M9 2l3 3 3-3" }),
    s("circle", { cx: 12, cy: 11.5, r: 2.2, class: "tv-dot" }));
}

function eye() {
  return s("svg", { class: "eye-icon", viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" },
    s("path", { d: "M2 12s3.6-6 10-6 10 6 10 6-3.6 6-10 6S2 12 2 12z" }),
    s("circle", { cx: 12, cy: 12, r: 3.2, class: "pupil" }));
}

/** A plain link the page follows in place (one delegated listener: the list is morphed). */
const pageLink = (href, attrs, ...children) => h("a", { href, ...attrs, dataset: { ...(attrs && attrs.dataset), nav: "" } }, ...children);

/** A player's name as a table shows it (bots by level), and their rating when they have one. */
function player(p, players) {
  const name = playerName(p, players);
  const rating = p.rating && p.rating.label
    ? h("bdi", { class: "live-rating", dir: "ltr", title: t("rated.rating_label", { label: p.rating.label }) }, p.rating.label) : null;
  const who = p.username
    ? pageLink(`/players/${encodeURIComponent(p.username)}`, { class: "live-player-link" }, h("bdi", null, name))
    : h("bdi", null, name);
  return h("span", { class: ["live-player", p.kind === "bot" && "bot"], dataset: { seat: String(p.seat) } }, who, rating ? [" ", rating] : null);
}

/** Everyone's names in one line (the card's label for screen readers). */
function names(m) {
  return m.players.map((p) => playerName(p, m.players)).join(t("list.sep"));
}

function matchCard(m) {
  const variant = variantOf(m.variant);
  const sets = variant && variant.sets_to_win > 1 ? variant.sets_to_win : 0;
  const sides = sideCount(m.seats, m.teams);
  const bySide = Array.from({ length: sides }, (_, side) => m.players.filter((p) => sideOf(p.seat, m.teams) === side));
  const variantName = t(`variant.${m.variant}.name`);
  const label = t("live.watch_label", { names: names(m), variant: variantName });
  const meta = [t("table.round", { n: num(m.round) }), t("table.target", { n: num(m.target) })];
  if (sets) meta.push(t("table.sets", { sets: (m.sets || []).map(num).join("–") || "0–0", n: num(sets) }));
  return h("li", { class: "live-match", dataset: { key: m.table, table: m.table, variant: m.variant } },
    h("div", { class: "live-top" },
      h("span", { class: "live-variant" }, variantName),
      m.rated ? h("span", { class: "chip rated-chip" }, t("rated.badge")) : null,
      h("span", { class: "live-kind muted" }, t(`live.kind.${m.kind === "bot" ? "bot" : "quick"}`)),
      h("span", { class: "live-watchers", dataset: { spectators: String(m.spectators || 0) }, title: t("table.spectators_label", { count: m.spectators || 0, n: num(m.spectators || 0) }) },
        eye(), h("span", { class: "sr-only" }, t("table.spectators_label", { count: m.spectators || 0, n: num(m.spectators || 0) })),
        h("span", { "aria-hidden": "true" }, num(m.spectators || 0)))),
    h("ul", { class: "live-sides", "aria-label": t("table.scores") }, bySide.map((list, side) => h("li", { class: "live-side", dataset: { side: String(side), key: `side-${side}` } },
      h("span", { class: "live-side-players" }, list.map((p, i) => [i ? h("span", { class: "live-and" }, t("side.join")) : null, player(p, m.players)])),
      h("span", { class: "live-total", dataset: { total: String(m.totals[side]) } },
        sets ? h("span", { class: "live-sets", title: t("live.sets_won") },
          h("span", { class: "sr-only" }, t("live.sets_won"), " "), num((m.sets || [])[side] || 0)) : null,
        num(m.totals[side]))))),
    h("div", { class: "live-bottom" },
      h("span", { class: "live-meta muted" }, meta.join(" · ")),
      // The whole card opens the table (this link's area covers it; the players' links
      // stand above it).
      pageLink(`/table/${encodeURIComponent(m.table)}`, { class: "btn small live-watch", "aria-label": label }, eye(), t("live.watch"))));
}

export function mount(container) {
  const prefs = loadPrefs();
  let order = ORDERS.includes(prefs.liveOrder) ? prefs.liveOrder : "newest";
  let matches = null;
  let failed = false;
  let alive = true;
  container.classList.add("page", "live-page");
  const list = h("div", { class: "live-list" });
  const sorter = h("div", { class: "live-order" });

  const drawSorter = () => morph(sorter, h("div", { class: "live-order", role: "group", "aria-label": t("live.order") },
    ORDERS.map((o) => h("button", {
      class: ["btn", "small", "seg", o === order && "on"], type: "button", "aria-pressed": o === order ? "true" : "false",
      dataset: { order: o, key: o },
    }, t(`live.order.${o}`)))));

  const drawList = () => {
    let body;
    if (failed && matches === null) body = h("p", { class: "field-error", role: "alert" }, t("error.generic"));
    else if (matches === null) body = h("p", { class: "muted" }, spinner(), " ", t("lobby.loading"));
    else if (!matches.length) {
      body = h("div", { class: "live-empty", dataset: { key: "empty" } },
        h("p", null, t("live.empty")),
        pageLink("/", { class: "btn primary" }, t("live.play_now")));
    } else body = h("ul", { class: "live-matches", dataset: { key: "list", count: String(matches.length) } }, matches.map(matchCard));
    morph(list, h("div", { class: "live-list", "aria-busy": matches === null ? "true" : "false" }, body));
  };

  const render = () => {
    if (!alive) return;
    replace(container,
      h("div", { class: "live-head" },
        h("div", null, h("h1", null, t("live.title")), h("p", { class: "lead" }, t("live.intro"))),
        pageLink("/tv", { class: "btn primary live-tv" }, tvIcon(), t("live.tv"))),
      h("div", { class: "live-bar" }, sorter, h("span", { class: "live-updated muted small" }, h("span", { class: "live-dot", "aria-hidden": "true" }), t("live.updated"))),
      list);
    drawSorter();
    drawList();
  };

  const poller = visiblePoll(() => apiModule.request("GET", `/api/live?order=${order}`),
    (answer) => { matches = Array.isArray(answer && answer.matches) ? answer.matches : []; failed = false; drawList(); },
    () => { failed = true; drawList(); }, POLL_MS);

  const onClick = (event) => {
    const button = event.target.closest ? event.target.closest("[data-order]") : null;
    if (button && sorter.contains(button)) {
      if (button.dataset.order === order) return;
      order = button.dataset.order;
      savePrefs({ liveOrder: order });
      drawSorter();
      poller.poll();
      return;
    }
    followNav(container, event);
  };

  render();
  container.addEventListener("click", onClick);
  loadStyle(STYLE);
  poller.poll();
  return {
    unmount() {
      alive = false;
      poller.stop();
      container.removeEventListener("click", onClick);
    },
    relabel: render,
  };
}
