// A player's file on /mod (issue 31), from GET /api/mod/players/ID: who they are, their
// standing (warnings, muted, banned from rated play, a new username required, closed), the
// share of matches they finished and the ones they left, the engine-assistance statistic,
// the actions (mod/actions.js) and, after a ban, the points given back; their recent
// matches (each a replay link), the reports about them and what moderators did to them.

import { h } from "../lib/dom.js";
import { dateTime, num, t } from "../lib/i18n.js";
import { spinner } from "../lib/ui.js";
import { sideOf } from "../lib/variants.js";
import { completionLine } from "../lib/standing.js";
import { actionButtons, refundsTable } from "./actions.js";
import { reportItem } from "./queue.js";
import { logItem } from "./lists.js";
import { detailLine, fullName, known, matchLink, reasonText, when } from "./text.js";

function section(key, title, ...body) {
  return h("section", { class: "mod-file-part", "aria-labelledby": `mod-file-${key}` },
    h("h3", { id: `mod-file-${key}` }, title), ...body);
}

function standingChips(file) {
  const s = file.standing || {};
  const chips = [];
  if (file.player.closed) chips.push(["closed", t("mod.standing.closed")]);
  if (s.role === "moderator") chips.push(["moderator", t("mod.standing.moderator")]);
  if (s.rated_ban) chips.push(["banned", t("mod.standing.banned")]);
  if (s.muted) chips.push(["muted", t("mod.standing.muted")]);
  if (s.rename) chips.push(["rename", t("mod.standing.rename")]);
  const warnings = Number(s.warnings) || 0;
  if (warnings) chips.push(["warnings", t("mod.standing.warnings", { count: warnings, n: num(warnings) })]);
  if (!chips.length) chips.push(["good", t("mod.standing.good")]);
  return h("ul", { class: "mod-chips" }, chips.map(([kind, text]) => h("li", { class: ["chip", `mod-chip-${kind}`], dataset: { standing: kind } }, text)));
}

function leavesPart(file) {
  const leaves = file.leaves || [];
  return section("leaves", t("mod.file.completion"),
    completionLine(file.completion) || h("p", { class: "muted" }, t("mod.file.no_matches")),
    leaves.length
      ? [h("p", null, t("mod.file.leaves", { count: leaves.length, n: num(leaves.length) })),
        h("ul", { class: "mod-leaves" }, leaves.slice(0, 20).map((at) => h("li", null, when(at))))]
      : h("p", { class: "muted" }, t("mod.file.no_leaves")));
}

function assistPart(file) {
  const a = file.assist;
  if (!a) return section("assist", t("mod.file.assist"), h("p", { class: "muted" }, t("mod.file.assist_none")));
  const games = Number(a.games) || 0;
  // The server's reason says the agreement in words already: the score beside it.
  const extra = detailLine({ score: a.score, threshold: a.threshold });
  return section("assist", t("mod.file.assist"),
    h("p", { class: a.flagged ? "mod-flag" : null, dataset: { flagged: a.flagged ? "true" : "false" } },
      h("strong", null, t(a.flagged ? "mod.file.assist_flagged" : "mod.file.assist_clear")), " ",
      t("mod.file.assist_games", { count: games, n: num(games) }),
      a.reason ? [" · ", h("span", null, a.reason)] : null,
      extra ? [" · ", h("span", { class: "muted" }, extra)] : null));
}

/** The match's end for this player: left, won, lost or over (a draw), and the score. */
function resultText(m) {
  const totals = Array.isArray(m.totals) ? m.totals : [];
  const teams = totals.length > 0 && totals.length < (m.players || []).length;
  const side = Number.isInteger(m.seat) ? sideOf(m.seat, teams) : null;
  const key = m.left ? "mod.file.left" : m.winner === null || m.winner === undefined ? "history.draw"
    : side === null ? "" : side === m.winner ? "history.won" : "history.lost";
  return [key ? t(key) : "", totals.length ? [" ", h("bdi", { dir: "ltr" }, totals.map((n) => num(n)).join(" – "))] : null];
}

function matchesPart(file) {
  const matches = file.matches || [];
  if (!matches.length) return section("matches", t("mod.file.matches"), h("p", { class: "muted" }, t("mod.file.no_matches")));
  return section("matches", t("mod.file.matches"),
    h("div", { class: "mod-table-wrap" }, h("table", { class: "mod-table mod-matches" },
      h("caption", { class: "sr-only" }, t("mod.file.matches")),
      h("thead", null, h("tr", null, ["when", "variant", "players", "result", "replay"].map((c) => h("th", { scope: "col" }, t(`mod.file.col.${c}`))))),
      h("tbody", null, matches.map((m) => h("tr", { dataset: { table: m.table } },
        h("td", null, when(m.finished_at)),
        h("td", null, known(`variant.${m.variant}.name`, m.variant), m.rated ? [" ", h("span", { class: "history-rated" }, t("profile.rated"))] : null),
        h("td", null, (m.players || []).map((p, i) => [i ? t("list.sep") : null, h("bdi", null, typeof p === "string" && p.startsWith("bot:") ? t("bot.name", { level: known(`bot.level.${p.slice(4)}`, p.slice(4)) }) : fullName(p))])),
        h("td", { class: m.left ? "mod-left" : null }, resultText(m)),
        h("td", null, matchLink(m.table, t("mod.file.replay")))))))));
}

function reportsPart(file, page) {
  const reports = file.reports || [];
  return section("reports", t("mod.file.reports", { count: reports.length, n: num(reports.length) }),
    reports.length ? h("ul", { class: "mod-reports compact" }, reports.map((r) => reportItem(r, page, { showPlayer: false, current: page.reportCtx && page.reportCtx.id === r.id })))
      : h("p", { class: "muted" }, t("mod.file.no_reports")));
}

function logPart(file, page) {
  const log = file.log || [];
  return section("log", t("mod.file.log"),
    log.length ? h("ul", { class: "mod-log" }, log.map((e) => logItem(e, page, { showPlayer: false })))
      : h("p", { class: "muted" }, t("mod.file.no_log")));
}

/** The report the file was opened from (what Dismiss and the actions close). */
function reportNote(report) {
  if (!report) return null;
  return h("p", { class: "mod-context" }, t("mod.file.from_report", { reason: reasonText(report.reason), when: dateTime(report.created_at) }));
}

/** The file's panel: a placeholder until a player is chosen. */
export function renderDossier(page) {
  if (page.fileError) {
    return [h("h2", { id: "mod-file-title", tabindex: "-1" }, t("mod.file.title")), h("p", { class: "field-error", role: "alert" }, page.fileError)];
  }
  if (!page.fileId) {
    return [h("h2", { id: "mod-file-title", tabindex: "-1" }, t("mod.file.title")), h("p", { class: "muted" }, t("mod.file.choose"))];
  }
  const file = page.file;
  if (!file) return [h("h2", { id: "mod-file-title", tabindex: "-1" }, t("mod.file.title")), h("p", { class: "muted" }, spinner(), " ", t("lobby.loading"))];
  const p = file.player;
  const name = fullName(p);
  return [
    h("div", { class: "mod-file-head" },
      h("h2", { id: "mod-file-title", tabindex: "-1" }, h("bdi", null, name)),
      h("p", { class: "muted mod-file-meta" },
        p.username ? h("a", { href: `/players/${encodeURIComponent(p.username)}`, target: "_blank", rel: "noopener" }, t("mod.file.profile")) : null,
        p.created_at ? [p.username ? " · " : null, t("mod.file.joined", { when: dateTime(p.created_at) })] : null),
      standingChips(file)),
    reportNote(page.reportCtx),
    actionButtons(file, page.reportCtx, (action) => page.act(action)),
    refundsTable(page.refunds, name),
    leavesPart(file),
    assistPart(file),
    matchesPart(file),
    reportsPart(file, page),
    logPart(file, page),
  ];
}
