// The report queue of /mod (issue 31): which reports (open, dismissed, acted on: a select
// with the count of open ones), each with who was reported (a button opening their file),
// the reason, the note, when, the match (its replay), who reported them — or, for a flag
// the server raised from its engine-assistance statistic, its reason and score — and, once
// closed, what came of it.

import { h } from "../lib/dom.js";
import { num, t } from "../lib/i18n.js";
import { spinner } from "../lib/ui.js";
import { detailLine, fullName, matchLink, playerButton, reasonText, statusText, when } from "./text.js";

export const STATUSES = ["open", "dismissed", "actioned"];

function reportedBy(r) {
  if (r.reporter) return h("p", { class: "mod-report-by muted" }, t("mod.reported_by", { name: fullName(r.reporter) }));
  const detail = r.detail || {};
  const extra = detailLine(detail);
  return h("p", { class: "mod-report-by mod-flag" },
    h("strong", null, t("mod.flagged")), " ",
    detail.reason ? h("span", null, detail.reason) : null,
    extra ? h("span", { class: "muted" }, " · ", extra) : null);
}

/** One report: the player first (their file), then what was said. */
export function reportItem(r, page, { current = false, showPlayer = true } = {}) {
  return h("li", {
    class: ["mod-report", `status-${r.status}`, !r.reporter && "flag", current && "current"],
    dataset: { report: r.id, status: r.status }, "aria-current": current ? "true" : undefined,
  },
  h("div", { class: "mod-report-head" },
    showPlayer ? playerButton(r.player, (id) => page.openDossier(id, r), `report-${r.id}`) : null,
    h("span", { class: ["chip", "mod-reason", `reason-${r.reason}`] }, reasonText(r.reason)),
    h("span", { class: "mod-when muted" }, when(r.created_at))),
  reportedBy(r),
  r.note ? h("p", { class: "mod-note" }, h("bdi", null, r.note)) : null,
  h("p", { class: "mod-report-foot" },
    matchLink(r.table),
    r.status !== "open" ? [r.table ? " · " : null, h("span", { class: "mod-fate" }, statusText(r))] : null));
}

/** The queue's part: the choice of reports, then the list. */
export function renderQueue(page) {
  const select = h("select", { id: "mod-status", on: { change: (e) => page.setStatus(e.target.value) } },
    STATUSES.map((s) => h("option", { value: s, selected: s === page.status },
      s === "open" && page.openCount !== null ? t("mod.status.open_count", { count: page.openCount, n: `${num(page.openCount)}${page.openMore ? "+" : ""}` }) : t(`mod.status.${s}`))));
  const list = page.reports;
  let body;
  if (page.queueError) body = h("p", { class: "field-error", role: "alert" }, page.queueError);
  else if (list === null) body = h("p", { class: "muted" }, spinner(), " ", t("lobby.loading"));
  else if (!list.length) body = h("p", { class: "muted mod-empty" }, t(page.status === "open" ? "mod.queue.empty_open" : "mod.queue.empty"));
  else {
    body = h("ul", { class: "mod-reports", "aria-labelledby": "mod-queue-title" },
      list.map((r) => reportItem(r, page, { current: page.reportCtx && page.reportCtx.id === r.id })));
  }
  return [
    h("div", { class: "mod-queue-head" },
      h("h2", { id: "mod-queue-title" }, t("mod.queue.title")),
      h("label", { class: "mod-status-field" }, h("span", null, t("mod.status.label")), select)),
    body,
  ];
}
