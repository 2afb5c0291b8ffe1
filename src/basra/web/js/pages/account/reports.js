// The account page's "Your reports" (issue 31): the reports this player sent (GET
// /api/reports, newest first), each with whom it was about, the reason, when, and what came
// of it in words: received, no action taken, or the action taken (a warning, muted,
// renamed, banned from rated play, the account closed).

import { h } from "../../lib/dom.js";
import { dateTime, t } from "../../lib/i18n.js";
import { request } from "../../lib/api.js";
import { link, spinner } from "../../lib/ui.js";
import { reportStatus } from "../../lib/report.js";

/** The player's reports: a list, or [] when the server could not say. */
export async function loadReports() {
  try {
    return (await request("GET", "/api/reports")).reports || [];
  } catch {
    return [];
  }
}

function item(r) {
  const who = r.player || {};
  const name = who.nickname || who.username || "";
  return h("li", { class: ["item", "my-report", `report-${r.status}`], dataset: { report: r.id, status: r.status } },
    h("div", { class: "item-main" },
      h("span", { class: "item-name" }, who.username
        ? link(`/players/${encodeURIComponent(who.username)}`, null, h("bdi", null, name))
        : h("bdi", null, name),
      " · ", t(`report.short.${r.reason}`)),
      h("span", { class: "item-meta muted" },
        h("time", { datetime: r.created_at }, dateTime(r.created_at)),
        r.table ? [" · ", link(`/replay/${encodeURIComponent(r.table)}`, null, t("report.the_match"))] : null),
      r.note ? h("span", { class: "item-meta report-note-text" }, h("bdi", null, r.note)) : null),
    h("span", { class: ["report-status", `status-${r.status}`] }, reportStatus(r)));
}

/** The section's content (`title` makes its heading). */
export function reportsPart(reports, title) {
  return [title("report.mine.title"),
    reports === null ? h("p", { class: "muted" }, spinner())
      : !reports.length ? h("p", { class: "muted" }, t("report.mine.none"))
        : h("ul", { class: "item-list report-list" }, reports.map(item)),
    h("p", { class: "hint" }, t("report.mine.hint"))];
}
