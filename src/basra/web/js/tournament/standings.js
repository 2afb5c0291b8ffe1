// An event page's tables and lists, each built afresh from the page's state and morphed in
// (dom.morph) by pages/tournament.js: the standings, one page of twenty at a time (a real
// table: rank, the entrant with their sheet of points, a flame while on a streak and a dot
// with a Watch link while at a table; games and performance in an arena, Buchholz and
// Sonneborn-Berger in a Swiss; the score) with the pages' buttons and "My place", the
// matches being played now (those of the best placed), the podium and the full results by
// round. Links carry data-nav: the page follows them in place; the pages' buttons carry
// data-action="page" (data-page) or "my-page".

import { h, s } from "../lib/dom.js";
import { num, t } from "../lib/i18n.js";
import { nameIn, playing, rows, usernameOf } from "./model.js";

/** A link the page follows in place (one delegated listener: the regions are morphed). */
export const pageLink = (href, attrs, ...children) => h("a", { href, ...attrs, dataset: { ...(attrs && attrs.dataset), nav: "" } }, ...children);

/** Points as people write them: 2, 1½, ½ (a fraction isolated left to right, so a right to
 * left page does not read "½1"). */
export function points(x) {
  const n = Number(x) || 0;
  if (Number.isInteger(n)) return num(n);
  const whole = Math.floor(n);
  const text = Math.abs(n - whole - 0.5) < 1e-9 ? `${whole ? num(whole) : ""}½` : num(Math.round(n * 100) / 100);
  return `\u2066${text}\u2069`;
}

const watchLabel = (names) => t("tournament.watch_label", { names });

function who(row) {
  const username = usernameOf(row);
  const name = h("bdi", null, row.name);
  return username ? pageLink(`/players/${encodeURIComponent(username)}`, { class: "tour-name" }, name) : h("span", { class: "tour-name" }, name);
}

/** An arena's sheet (the points of each match, a doubled one marked) or a Swiss's (each
 * round's points, the opponent named in its tooltip; a bye marked). */
function sheet(state, row, arena) {
  const items = (row.sheet || []).map((item, i) => {
    if (arena) return h("span", { class: ["tour-pts", item > 2 && "doubled", item === 0 && "zero"], dataset: { key: `s${i}` } }, num(item));
    const [opponent, pts, name] = item;
    return h("span", {
      class: ["tour-pts", opponent === null && "bye", !pts && "zero"], dataset: { key: `s${i}` },
      title: opponent === null ? t("tournament.bye") : name || t("tournament.someone"),
    }, opponent === null ? t("tournament.bye_mark") : points(pts));
  });
  if (!items.length) return null;
  return h("span", { class: "tour-sheet" }, h("span", { class: "sr-only" }, t("tournament.sheet"), " "), items);
}

/** The streak's flame (drawn: not every device has the emoji). */
function flame() {
  return s("svg", { class: "tour-fire", viewBox: "0 0 24 24", role: "img", "aria-label": t("tournament.fire") },
    s("title", null, t("tournament.fire")),
    s("path", { class: "outer", d: "M12 1.5c.6 3.6 4.2 5.6 5.6 9.2 1.7 4.3-.8 10.3-5.6 10.3S4.6 17.6 5.8 13.4c.6-2 2-3.2 2.6-5 1.4 1.4 1.8 3 1.6 4.4 1.8-1.9 2.7-6 2-11.3z" }),
    s("path", { class: "inner", d: "M12.4 11.2c2 1.9 3 3.9 2.4 6-.5 1.6-1.5 2.4-2.8 2.4-1.6 0-2.8-1.3-2.5-3.2.2-1.2 1-2 1.6-3 .5.6.8 1.3.8 2 .7-1 .9-2.4.5-4.2z" }));
}

function statusBadge(row) {
  if (row.status === "active") return null;
  return h("span", { class: ["badge", "tour-status", row.status] }, t(`tournament.entrant.${row.status}`));
}

// A row names the table its entrant plays at now (`table`), as of its page's last news.
function playingMark(state, row) {
  const table = row.table;
  if (!table) return null;
  const dot = h("span", { class: "tour-dot", "aria-hidden": "true" });
  return pageLink(`/table/${encodeURIComponent(table)}`, {
    class: "tour-playing tour-watch-one", title: t("tournament.playing"), "aria-label": watchLabel(row.name),
  }, dot, h("span", { class: "tour-watch-word" }, t("live.watch")));
}

/** The pages' buttons (first, previous, "page 2 of 9", next, last) and "My place" when this
 * player's row is on another page. */
function pager(state, mine) {
  const { page, pages } = state;
  const mineAway = mine && mine.rank && !state.standings.some((row) => row.entrant === mine.entrant);
  if (pages <= 1 && !mineAway) return null;
  const go = (to, label, text, cls) => h("button", {
    type: "button", class: ["btn", "small", "ghost", cls], disabled: to < 1 || to > pages || to === page,
    "aria-label": label, title: label, dataset: { action: "page", page: String(to) },
  }, h("span", { class: "tour-arrow", "aria-hidden": "true" }, text));
  return h("nav", { class: "tour-pager", "aria-label": t("tournament.pages") },
    pages > 1 ? h("div", { class: "tour-pages" },
      go(1, t("tournament.first_page"), "«", "tour-first"),
      go(page - 1, t("tournament.prev_page"), "‹", "tour-prev"),
      h("span", { class: "tour-page-of", "aria-live": "polite" }, t("tournament.page_of", { n: num(page), pages: num(pages) })),
      go(page + 1, t("tournament.next_page"), "›", "tour-next"),
      go(pages, t("tournament.last_page"), "»", "tour-last")) : null,
    mineAway ? h("button", { type: "button", class: "btn small tour-my-page", dataset: { action: "my-page" } }, t("tournament.my_page")) : null);
}

export function renderStandings(state, { mine = null } = {}) {
  const list = rows(state);
  const event = state.event;
  if (!event) return h("div", { class: "tour-standings" });
  const arena = event.format !== "swiss";
  const heads = arena
    ? [["games", t("tournament.col.games"), t("tournament.col.games_long")], ["perf", t("tournament.col.perf"), t("tournament.col.perf_long")]]
    : [["buchholz", t("tournament.col.buchholz"), t("tournament.col.buchholz_long")], ["sb", t("tournament.col.sb"), t("tournament.col.sb_long")]];
  const body = list.length ? h("table", { class: "tour-table" },
    h("caption", { class: "sr-only" }, t("tournament.standings_caption", { name: event.name })),
    h("thead", null, h("tr", null,
      h("th", { scope: "col", class: "tour-rank" }, h("abbr", { title: t("leaderboard.rank_label") }, t("leaderboard.rank"))),
      h("th", { scope: "col", class: "tour-who" }, t("leaderboard.player")),
      heads.map(([key, short, long]) => h("th", { scope: "col", class: `tour-num tour-${key}` }, h("abbr", { title: long }, short))),
      h("th", { scope: "col", class: "tour-num tour-score" }, t("tournament.col.score")))),
    h("tbody", null, list.map((row) => h("tr", {
      class: [mine && row.entrant === mine.entrant && "tour-me", row.status !== "active" && "tour-away"],
      dataset: { key: row.entrant, entrant: row.entrant, score: String(row.score), rank: String(row.rank) },
    },
      h("td", { class: "tour-rank" }, num(row.rank)),
      h("th", { scope: "row", class: "tour-who" },
        h("span", { class: "tour-line" }, who(row),
          arena && row.fire ? flame() : null,
          statusBadge(row), playingMark(state, row)),
        sheet(state, row, arena)),
      arena ? [h("td", { class: "tour-num tour-games" }, num(row.games || 0)), h("td", { class: "tour-num tour-perf" }, row.games ? h("bdi", { dir: "ltr" }, String(Math.round(row.performance || 0))) : "–")]
        : [h("td", { class: "tour-num tour-buchholz" }, points(row.buchholz || 0)), h("td", { class: "tour-num tour-sb" }, points(row.sonneborn_berger || 0))],
      h("td", { class: "tour-num tour-score" }, points(row.score || 0))))))
    : h("p", { class: "muted tour-none" }, t("tournament.no_entrants"));
  const count = state.count > 1 ? h("p", { class: "muted tour-count" }, t("tournament.entrants_count", { count: state.count, n: num(state.count) })) : null;
  return h("div", { class: "tour-standings" }, count, body, pager(state, mine));
}

/** One pairing's players ("Amira – Omar"), each name isolated. */
function pairingNames(p) {
  const parts = p.entrants.map((e, i) => [i ? h("span", { class: "tour-vs" }, " – ") : null, h("bdi", null, nameIn(p, i, t("tournament.someone")))]);
  return h("span", { class: "tour-pair-names" }, parts);
}

export function renderPlaying(state) {
  const live = playing(state);
  const names = (p) => p.entrants.map((e, i) => nameIn(p, i, t("tournament.someone"))).join(t("list.sep"));
  const more = state.live > live.length ? h("p", { class: "muted tour-live-more" }, t("tournament.live_more", { count: state.live, n: num(state.live) })) : null;
  return h("div", { class: "tour-now-list" }, live.length
    ? [more, h("ul", { class: "tour-now", dataset: { count: String(live.length) } }, live.map((p) => h("li", { class: "tour-match", dataset: { key: p.id, table: p.table } },
      pairingNames(p),
      pageLink(`/table/${encodeURIComponent(p.table)}`, { class: "btn small tour-watch", "aria-label": watchLabel(names(p)) }, t("live.watch")))))]
    : h("p", { class: "muted tour-none" }, t("tournament.none_playing")));
}

/** A medal with its place on it (drawn: not every device has the emoji). */
function medal(place) {
  return s("svg", { class: `tour-medal medal-${place}`, viewBox: "0 0 40 48", "aria-hidden": "true", focusable: "false" },
    s("path", { class: "ribbon", d: "M10 0h8l6 14h-8zM30 0h-8l-6 14h8z" }),
    s("circle", { class: "disc", cx: 20, cy: 30, r: 15 }),
    s("text", { x: 20, y: 36, "text-anchor": "middle" }, String(place)));
}

/** The first three, big (first in the middle on a wide screen; in order on a phone). */
export function renderPodium(state, podium) {
  // Until the results come, the first three of the page shown if it is the first.
  const top = (podium && podium.length ? podium : rows(state).filter((row) => row.rank <= 3)).slice(0, 3);
  if (!top.length) return h("div", { class: "tour-podium-host" });
  return h("div", { class: "tour-podium-host" },
    h("ol", { class: "tour-podium" }, top.map((row, i) => h("li", { class: `tour-place place-${i + 1}`, dataset: { key: row.entrant, place: String(i + 1) } },
      medal(i + 1),
      h("span", { class: "sr-only" }, t("tournament.place", { n: num(i + 1) }), " "),
      h("span", { class: "tour-place-name" }, who(row)),
      h("span", { class: "tour-place-score" }, t("tournament.points", { count: row.score, n: points(row.score) }))))));
}

/** A pairing's result, each side's points beside its name in either direction (each an
 * isolate, so right to left reads "Omar 0–1 Amira" with Amira's 1 by her name). */
function result(p) {
  if (p.points === null || p.points === undefined) return h("span", { class: "tour-result muted" }, t("tournament.in_play"));
  return h("span", { class: "tour-result" }, h("bdi", null, points(p.points[0])), "–", h("bdi", null, points(p.points[1])));
}

/** One decided (or still played) pairing: "Amira 1–0 Omar", a bye, and its replay (or its
 * table while it is played). */
function pairingLine(state, p) {
  const name = (e) => h("bdi", null, nameIn(p, p.entrants.indexOf(e), t("tournament.someone")));
  const absent = (e) => ((p.absent || []).includes(e) ? [" ", h("span", { class: "muted tour-absent" }, t("tournament.absent"))] : null);
  if (p.entrants.length === 1) {
    return h("li", { class: "tour-pairing bye", dataset: { key: p.id } }, name(p.entrants[0]), " ", h("span", { class: "muted" }, t("tournament.bye")));
  }
  const [a, b] = p.entrants;
  const link = p.points
    ? pageLink(`/replay/${encodeURIComponent(p.table)}`, { class: "tour-replay" }, t("replay.watch"))
    : pageLink(`/table/${encodeURIComponent(p.table)}`, { class: "tour-replay" }, t("live.watch"));
  return h("li", { class: "tour-pairing", dataset: { key: p.id } },
    h("span", { class: "tour-pair-names" }, name(a), absent(a), " ", result(p), " ", name(b), absent(b)),
    link);
}

/** Every pairing with its result: a Swiss's by round, an arena's in the order they began. */
export function renderResults(state, results) {
  if (!results) return h("div", { class: "tour-results" }, h("p", { class: "muted" }, t("lobby.loading")));
  const arena = state.event && state.event.format !== "swiss";
  if (!results.rounds.length) return h("div", { class: "tour-results" }, h("p", { class: "muted tour-none" }, t("tournament.no_games")));
  // An arena's waves mean nothing to its players: its matches in the order they began.
  if (arena) {
    const all = results.rounds.flatMap((r) => r.pairings).sort((a, b) => String(a.created_at).localeCompare(String(b.created_at)));
    return h("div", { class: "tour-results" }, h("ul", { class: "tour-pairings", dataset: { key: "all" } }, all.map((p) => pairingLine(state, p))));
  }
  return h("div", { class: "tour-results" }, results.rounds.map((r) => h("section", { class: "tour-round", dataset: { key: `r${r.round}`, round: String(r.round) } },
    h("h3", null, t("tournament.round", { n: num(r.round) })),
    h("ul", { class: "tour-pairings" }, r.pairings.map((p) => pairingLine(state, p))))));
}
