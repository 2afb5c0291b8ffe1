// /players/NAME: an account's profile from GET /api/players/NAME — its ratings (one per
// variant, "1500?" while provisional) with their history drawn as an SVG chart, its
// games, wins, draws and losses, basras and points per round, the share of matches it
// finished, its tournament trophies, and its recent matches
// (each with its replay and its record to download, rivals that are accounts linked to
// their profiles).

import { h, replace, s } from "../lib/dom.js";
import { currentLanguage, isRTL, num, t } from "../lib/i18n.js";
import * as apiModule from "../lib/api.js";
import { signedNumber } from "../lib/cards.js";
import { variantNames } from "../lib/variants.js";
import { errorText, fill, link, loadStyle, playerName, ratedMarks, setPageTitle, spinner, toast } from "../lib/ui.js";
import { challengeDialog } from "../lib/challenge.js";
import { confirmDialog } from "../table/dialog.js";
import { reportDialog } from "../lib/report.js";
import { completionLine } from "../lib/standing.js";

const STYLE = new URL("../../css/profile.css", import.meta.url);

/** Intl's locale for the page's language, with Latin digits as everywhere on the site. */
export function locale() {
  const lang = currentLanguage();
  return `${lang === "sr" ? "sr-Latn" : lang}-u-nu-latn`;
}

export function dateOnly(iso) {
  return new Intl.DateTimeFormat(locale(), { dateStyle: "medium" }).format(new Date(iso));
}

function myUsername() {
  const mine = typeof apiModule.cachedMe === "function" ? apiModule.cachedMe() : null;
  return mine && mine.username ? String(mine.username) : "";
}

function same(a, b) {
  return String(a).toLocaleLowerCase() === String(b).toLocaleLowerCase();
}

export function mount(container, params) {
  const name = String(params.name || "");
  let data = null;
  let missing = false;
  let failed = false;
  let alive = true;
  let chart = null;
  container.classList.add("page", "profile-page");

  const render = () => {
    if (!alive) return;
    if (chart) chart.stop();
    chart = null;
    if (failed) {
      replace(container, h("h1", { class: "profile-name" }, name), h("p", { class: "field-error", role: "alert" }, t("error.generic")));
      return;
    }
    if (missing) {
      setPageTitle(t("profile.page_title", { name }));
      replace(container,
        h("h1", { class: "profile-name" }, name),
        h("div", { class: "profile-empty" },
          h("p", { class: "profile-missing" }, t("profile.not_found", { name })),
          h("p", { class: "muted" }, t("profile.not_found_hint")),
          h("p", null, link("/leaderboard", { class: "btn" }, t("profile.to_leaderboard")))));
      return;
    }
    if (!data) {
      replace(container, h("h1", { class: "profile-name" }, name), h("p", { class: "muted" }, spinner(), " ", t("lobby.loading")));
      return;
    }
    setPageTitle(t("profile.page_title", { name: data.nickname }));
    const ratings = ratingsSection(data);
    chart = ratings.chart;
    replace(container, header(data), socialBar(data, reload), ratings.section,
      trophiesSection(data), statsSection(data), recentSection(data));
    if (chart) chart.start();
  };

  const reload = async () => {
    try {
      data = await apiModule.request("GET", `/api/players/${encodeURIComponent(name)}`);
    } catch { /* keep what is shown */ }
    render();
  };

  render();
  const styled = loadStyle(STYLE);
  (async () => {
    try {
      const [answer] = await Promise.all([
        apiModule.request("GET", `/api/players/${encodeURIComponent(name)}`), styled]);
      data = answer;
    } catch (err) {
      if (err && err.status === 404) missing = true;
      else failed = true;
    }
    render();
  })();
  // Who is signed in may be known only later ("This is you").
  const unlisten = typeof apiModule.onSession === "function" ? apiModule.onSession(() => render()) : null;
  return {
    unmount() {
      alive = false;
      if (chart) chart.stop();
      if (unlisten) unlisten();
    },
    relabel: render,
  };
}

function header(p) {
  const mine = myUsername();
  return h("header", { class: "profile-head" },
    h("h1", { class: "profile-name" }, h("bdi", null, p.nickname)),
    h("p", { class: "profile-meta muted" },
      same(p.username, p.nickname) ? null : [h("bdi", { class: "profile-username" }, p.username), " · "],
      h("time", { datetime: p.joined }, t("profile.joined", { date: dateOnly(p.joined) })),
      mine && same(mine, p.username) ? [" · ", h("span", { class: "profile-you" }, t("profile.you"))] : null));
}

/** Followers, and for another account signed in: follow or unfollow, challenge, block or
 * unblock (a block asks first), report (lib/report.js). */
function socialBar(p, reload) {
  const social = p.social || {};
  const mine = myUsername();
  const counts = h("p", { class: "profile-followers muted" },
    t("profile.followers", { count: social.followers || 0, n: num(social.followers || 0) }),
    social.follows_you ? [" · ", h("span", { class: "follows-you" }, t("profile.follows_you"))] : null);
  if (!mine || same(mine, p.username) || social.you_follow === undefined) return h("div", { class: "profile-social" }, counts);
  const act = async (method, path) => {
    try { await apiModule.request(method, path); } catch (err) { toast(errorText(err), "error"); }
    await reload();
  };
  const who = encodeURIComponent(p.username);
  const blockIt = async () => {
    await loadStyle(new URL("../../css/overlay.css", import.meta.url));
    const sure = await confirmDialog({ title: t("profile.block_title", { name: p.nickname }), text: t("profile.block_text"), yes: t("profile.block"), no: t("challenge.cancel"), danger: true });
    if (sure) await act("POST", `/api/blocks/${who}`);
  };
  return h("div", { class: "profile-social" }, counts,
    h("div", { class: "profile-actions" },
      social.you_block ? null : h("button", { type: "button", class: ["btn", social.you_follow ? "ghost" : "primary"], id: "profile-follow", "aria-pressed": social.you_follow ? "true" : "false", on: { click: () => act(social.you_follow ? "DELETE" : "POST", `/api/follows/${who}`) } }, t(social.you_follow ? "friends.unfollow" : "friends.follow")),
      social.you_block ? null : h("button", { type: "button", class: "btn", id: "profile-challenge", on: { click: () => challengeDialog(p.username, p.nickname) } }, t("friends.challenge")),
      h("button", { type: "button", class: "btn ghost small", id: "profile-block", on: { click: () => (social.you_block ? act("DELETE", `/api/blocks/${who}`) : blockIt()) } }, t(social.you_block ? "friends.unblock" : "profile.block")),
      h("button", { type: "button", class: "btn ghost small", id: "profile-report", on: { click: () => reportDialog([{ name: p.nickname, body: { username: p.username } }]) } }, t("report.button"))));
}

function ratingsSection(p) {
  const order = variantNames();
  const variants = Object.keys(p.ratings || {}).sort((a, b) => order.indexOf(a) - order.indexOf(b));
  const title = h("h2", { id: "profile-ratings" }, t("profile.ratings"));
  if (!variants.length) {
    return { chart: null, section: h("section", { class: "profile-section", "aria-labelledby": "profile-ratings" },
      title, h("p", { class: "muted profile-none" }, t("profile.no_ratings"))) };
  }
  const cards = h("ul", { class: "profile-rating-cards" }, variants.map((variant) => {
    const r = p.ratings[variant];
    return h("li", { class: ["profile-rating-card", r.provisional && "provisional"], dataset: { variant } },
      h("span", { class: "profile-rating-variant" }, t(`variant.${variant}.name`)),
      h("strong", { class: "profile-rating-label", title: r.provisional ? t("profile.provisional") : null }, h("bdi", { dir: "ltr" }, r.label)),
      h("span", { class: "profile-rating-meta muted" },
        h("bdi", { dir: "ltr", title: t("profile.deviation_label", { n: num(r.deviation) }) }, t("profile.deviation", { n: num(r.deviation) })),
        " · ", t("profile.rating_games", { count: r.games, n: num(r.games) })),
      r.provisional ? h("span", { class: "profile-rating-note muted" }, t("profile.provisional")) : null);
  }));
  const chart = ratingChart(variants.map((variant) => ({ variant, points: p.ratings[variant].history || [] })), locale());
  return {
    chart,
    section: h("section", { class: "profile-section", "aria-labelledby": "profile-ratings" }, title, cards, chart.element),
  };
}

function statsSection(p) {
  const figure = (key, value, cls) => h("div", { class: ["profile-stat", cls] },
    h("dt", null, t(`profile.${key}`)),
    h("dd", null, value === null || value === undefined ? "–" : num(value)));
  const perRound = p.rounds > 0
    ? t("profile.per_round_base", { count: p.rounds, n: num(p.rounds) })
    : p.games > 0 ? t("profile.no_rounds") : "";
  return h("section", { class: "profile-section", "aria-labelledby": "profile-matches" },
    h("h2", { id: "profile-matches" }, t("profile.matches")),
    h("dl", { class: "profile-stats" },
      figure("games", p.games, "games"), figure("wins", p.wins, "wins"),
      figure("draws", p.draws, "draws"), figure("losses", p.losses, "losses"),
      figure("basras_per_round", p.basras_per_round, "basras"),
      figure("points_per_round", p.points_per_round, "points")),
    perRound ? h("p", { class: "hint" }, perRound) : null,
    completionLine(p.completion));
}

/** The tournaments it finished on the podium (none: no section). */
function trophiesSection(p) {
  const won = p.trophies || [];
  if (!won.length) return null;
  const MEDALS = ["🥇", "🥈", "🥉"];
  return h("section", { class: "profile-section", "aria-labelledby": "profile-trophies" },
    h("h2", { id: "profile-trophies" }, t("profile.trophies")),
    h("ul", { class: "history-list profile-trophies" }, won.map((w) => h("li", null,
      h("span", { "aria-hidden": "true" }, MEDALS[w.place - 1] || ""), " ",
      link(`/tournament/${encodeURIComponent(w.tournament)}`, null, h("bdi", null, w.name)), " ",
      h("span", { class: "muted" }, fill("profile.trophy_place", { place: num(w.place), variant: t(`variant.${w.variant}.name`) }))))));
}

function recentSection(p) {
  const items = p.recent || [];
  return h("section", { class: "profile-section", "aria-labelledby": "profile-recent" },
    h("h2", { id: "profile-recent" }, t("profile.recent")),
    items.length ? h("ul", { class: "history-list profile-recent" }, items.map((m) => recentItem(m)))
      : h("p", { class: "muted profile-none" }, t("profile.no_matches")));
}

/** One recent match: the result, the variant, the rivals (linked when they are accounts),
 * the score, the rating change of a rated match and the record. */
export function recentItem(m) {
  const result = m.took_part === false ? "not_played" : m.winner === null || m.winner === undefined ? "draw" : m.won ? "won" : "lost";
  const all = m.players.map((name, seat) => ({ name, seat, kind: String(name).startsWith("bot:") ? "bot" : "human" }));
  const usernames = m.usernames || [];
  const rivals = [];
  all.forEach((player, seat) => {
    if (seat === m.seat) return;
    const shown = playerName(player, all);
    const username = usernames[seat];
    if (rivals.length) rivals.push(t("list.sep"));
    rivals.push(username
      ? link(`/players/${encodeURIComponent(username)}`, { class: "rival" }, h("bdi", null, shown))
      : h("bdi", null, shown));
  });
  const variant = t(`variant.${m.variant}.name`);
  const { tag, change } = ratedMarks(m);
  return h("li", { class: ["history-item", result], dataset: { table: m.table } },
    h("span", { class: ["result-badge", result] }, t(`history.${result}`)),
    h("div", { class: "history-main" },
      h("div", { class: "history-title" },
        h("strong", null, variant),
        tag ? [" ", tag] : null, " · ",
        h("span", null, fill("history.vs", { names: h("span", { class: "rivals" }, rivals) }))),
      h("div", { class: "history-meta muted" },
        h("bdi", { class: "history-score", dir: "ltr" }, m.totals.map((n) => num(n)).join(" – ")),
        change ? [" ", change] : null, " · ",
        h("time", { datetime: m.finished_at }, dateOnly(m.finished_at)))),
    h("div", { class: "history-actions" },
      link(`/replay/${encodeURIComponent(m.table)}`, {
        class: "btn small history-replay", "aria-label": t("history.replay_label", { variant, date: dateOnly(m.finished_at) }),
      }, t("history.replay")),
      h("a", {
        class: "btn small", href: m.record, download: `basra-${m.table}.json`,
        "aria-label": t("history.download_label", { variant, date: dateOnly(m.finished_at) }),
      }, t("history.download"))));
}

// ---------------------------------------------------------------- the rating chart

const LINE_COLOURS = ["#f4c34f", "#45d49a", "#7cb8ff", "#ff8fb8", "#c7a2ff"];
const MARGIN = { left: 46, right: 14, top: 12, bottom: 28 };
const DAY_MS = 86400000;

function colourOf(variant) {
  const i = Math.max(0, variantNames().indexOf(variant));
  return LINE_COLOURS[i % LINE_COLOURS.length];
}

/** Round values from `lo` to `hi`: the widest round step (1, 2, 2.5 or 5 times a power
 * of ten) that still gives at least `count` of them (an axis's ticks). */
export function niceTicks(lo, hi, count) {
  const span = Math.max(hi - lo, 1);
  const top = 10 ** Math.ceil(Math.log10(span));
  for (let magnitude = top; magnitude >= 1e-3; magnitude /= 10) {
    for (const m of [5, 2.5, 2, 1]) {
      const step = m * magnitude;
      const first = Math.ceil(lo / step) * step;
      const out = [];
      for (let v = first; v <= hi + 1e-9; v += step) out.push(Math.round(v * 1000) / 1000);
      if (out.length >= count && (step >= 1 || out.every(Number.isInteger))) return out;
    }
  }
  return [Math.round(lo), Math.round(hi)];
}

/** How the time axis names its ticks: hours within a day or so, days within months, months
 * and years beyond. */
function timeFormat(span, loc) {
  if (span < 1.5 * DAY_MS) return new Intl.DateTimeFormat(loc, { hour: "2-digit", minute: "2-digit" });
  if (span < 300 * DAY_MS) return new Intl.DateTimeFormat(loc, { month: "short", day: "numeric" });
  return new Intl.DateTimeFormat(loc, { month: "short", year: "numeric" });
}

/** The chart of each variant's rating over time: one line per variant, rating on the left
 * axis, time along the bottom (left to right in every language, like the digits), drawn at
 * the width the page gives it and redrawn when that changes. Returns {element, start(),
 * stop()}: start once it is in the document, stop when the page goes. */
export function ratingChart(lines, loc) {
  const shown = lines.filter((line) => line.points.length);
  const pointLabel = (line, point) => t("profile.chart_point", {
    variant: t(`variant.${line.variant}.name`), rating: String(point.rating),
    change: signedNumber(point.change), date: dateOnly(point.at),
  });
  const summary = shown.map((line) => t("profile.chart_line", {
    variant: t(`variant.${line.variant}.name`),
    first: String(line.points[0].rating), last: String(line.points[line.points.length - 1].rating),
  })).join(t("list.sep"));
  const area = h("div", { class: "profile-chart-area", dir: "ltr", role: "img", "aria-label": t("profile.chart_label", { lines: summary }) });
  const legend = h("ul", { class: "profile-chart-legend" }, shown.map((line) => h("li", { dataset: { variant: line.variant } },
    h("span", { class: "profile-swatch", style: { "--swatch": colourOf(line.variant) }, "aria-hidden": "true" }),
    t(`variant.${line.variant}.name`))));
  const element = h("figure", { class: "profile-chart" },
    h("figcaption", null, t("profile.chart")), area, legend);

  const draw = (width) => {
    const rtl = isRTL();
    const height = Math.round(Math.min(280, Math.max(190, width * 0.45)));
    const innerW = Math.max(40, width - MARGIN.left - MARGIN.right);
    const innerH = height - MARGIN.top - MARGIN.bottom;
    const all = shown.flatMap((line) => line.points);
    const times = all.map((p) => Date.parse(p.at));
    const ratings = all.map((p) => p.rating);
    const t0 = Math.min(...times);
    const t1 = Math.max(...times);
    const pad = Math.max(15, (Math.max(...ratings) - Math.min(...ratings)) * 0.08);
    const lo = Math.min(...ratings) - pad;
    const hi = Math.max(...ratings) + pad;
    const x = (time) => MARGIN.left + (t1 === t0 ? innerW / 2 : ((time - t0) / (t1 - t0)) * innerW);
    const y = (rating) => MARGIN.top + (1 - (rating - lo) / (hi - lo)) * innerH;
    const parts = [];
    for (const value of niceTicks(lo, hi, innerH < 160 ? 3 : 4)) {
      parts.push(s("line", { class: "grid", x1: MARGIN.left, x2: MARGIN.left + innerW, y1: y(value), y2: y(value) }));
      parts.push(s("text", { class: "axis y-label", x: MARGIN.left - 6, y: y(value), "text-anchor": "end", "dominant-baseline": "middle" }, String(value)));
    }
    const format = timeFormat(t1 - t0, loc);
    const slots = t1 === t0 ? 1 : Math.max(2, Math.min(5, Math.floor(innerW / 96) + 1));
    let previous = "";
    for (let i = 0; i < slots; i++) {
      const time = slots === 1 ? t0 : t0 + ((t1 - t0) * i) / (slots - 1);
      const label = format.format(new Date(time));
      if (label === previous) continue;
      previous = label;
      // A date reads in its language's direction ("2 أكتوبر"), where the axis is left to
      // right: the text's anchor is on its side of the tick (start and end follow the text).
      const side = slots === 1 ? "middle" : i === 0 ? "left" : i === slots - 1 ? "right" : "middle";
      const anchor = side === "middle" ? "middle" : (side === "left") === !rtl ? "start" : "end";
      parts.push(s("line", { class: "tick", x1: x(time), x2: x(time), y1: MARGIN.top + innerH, y2: MARGIN.top + innerH + 4 }));
      parts.push(s("text", { class: "axis x-label", x: x(time), y: height - 8, "text-anchor": anchor, direction: rtl ? "rtl" : "ltr" }, label));
    }
    parts.push(s("line", { class: "axis-line", x1: MARGIN.left, x2: MARGIN.left + innerW, y1: MARGIN.top + innerH, y2: MARGIN.top + innerH }));
    for (const line of shown) {
      const colour = colourOf(line.variant);
      const coords = line.points.map((p) => [x(Date.parse(p.at)), y(p.rating)]);
      if (coords.length > 1) {
        parts.push(s("polyline", { class: "line", dataset: { variant: line.variant }, stroke: colour,
          points: coords.map(([px, py]) => `${px.toFixed(1)},${py.toFixed(1)}`).join(" ") }));
      }
      const dots = coords.length <= 60 ? line.points.map((p, i) => [p, i]) : [[line.points[line.points.length - 1], line.points.length - 1]];
      for (const [point, i] of dots) {
        const last = i === line.points.length - 1;
        parts.push(s("circle", { class: ["dot", last && "last"], cx: coords[i][0].toFixed(1), cy: coords[i][1].toFixed(1), r: last ? 4.5 : 3, fill: colour },
          s("title", null, pointLabel(line, point))));
      }
    }
    replace(area, s("svg", { class: "profile-chart-svg", width, height, viewBox: `0 0 ${width} ${height}`, "aria-hidden": "true", focusable: "false" }, parts));
  };

  let observer = null;
  let drawn = 0;
  const redraw = () => {
    const width = Math.round(area.clientWidth);
    if (width > 0 && width !== drawn) {
      drawn = width;
      draw(width);
    }
  };
  return {
    element: shown.length ? element : null,
    start() {
      if (!shown.length) return;
      redraw();
      if (typeof ResizeObserver === "function") {
        observer = new ResizeObserver(() => redraw());
        observer.observe(area);
      }
    },
    stop() {
      if (observer) observer.disconnect();
      observer = null;
    },
  };
}
