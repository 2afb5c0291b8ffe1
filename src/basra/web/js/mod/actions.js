// A moderator's actions on a player's file (/mod, issue 31): dismiss the report being
// looked at, warn, mute or unmute their phrases, require a new username, ban them from rated
// play and tournaments or lift the ban, close the account. Each asks what it will do and a
// reason (required, 500 characters at most), then POST /api/mod/players/ID/actions; the
// server's refusal is said in the dialog, which stays open. After a ban, the rating points
// given back to each rated opponent who lost to them, as a table.

import { h } from "../lib/dom.js";
import { num, t } from "../lib/i18n.js";
import { request } from "../lib/api.js";
import { errorText, loadStyle } from "../lib/ui.js";
import { NOTE_MAX, noteCounter } from "../lib/report.js";
import { openDialog } from "../table/dialog.js";
import { fullName, known } from "./text.js";

const STYLE = new URL("../../css/overlay.css", import.meta.url);
/** The ones that weigh most: a red button, and said so in the dialog. */
const HEAVY = new Set(["ban", "close"]);

/** The actions that apply to a player's file now (`report`: the open report looked at). */
export function actionsFor(file, report) {
  const standing = file.standing || {};
  const closed = !!(file.player && file.player.closed);
  const out = [];
  if (report && report.status === "open") out.push("dismiss");
  if (closed) return out;
  out.push("warn", standing.muted ? "unmute" : "mute");
  if (!standing.rename) out.push("rename");
  out.push(standing.rated_ban ? "unban" : "ban", "close");
  return out;
}

let serial = 0;

/** Ask for `action`'s reason and confirmation, then do it: the server's answer
 * ({entry, refunds, standing}), or null when the moderator cancelled. */
export async function actionDialog(action, file, report) {
  await loadStyle(STYLE);
  serial += 1;
  const id = `mod-reason-${serial}`;
  const name = fullName(file.player);
  const reason = h("textarea", { id, class: "report-note", rows: 3, maxlength: NOTE_MAX, required: true, "aria-required": "true", "aria-describedby": `${id}-count ${id}-error`, dataset: { autofocus: "" } });
  const counter = h("p", { class: "hint report-count", id: `${id}-count` });
  noteCounter(reason, counter);
  const error = h("p", { class: "field-error", id: `${id}-error`, role: "alert" });
  reason.addEventListener("input", () => { error.textContent = ""; });
  let answer = null;
  const fail = (text) => {
    error.textContent = "";
    setTimeout(() => { error.textContent = text; }, 30);
    reason.focus();
    return false;
  };
  const send = async () => {
    const text = reason.value.trim();
    if (!text) return fail(t("mod.action.reason_needed"));
    try {
      answer = await request("POST", `/api/mod/players/${encodeURIComponent(file.player.id)}/actions`, {
        action, reason: text, report: report ? report.id : null,
      });
      return true;
    } catch (err) {
      return fail(errorText(err));
    }
  };
  const done = await openDialog({
    kind: "mod-action",
    title: t(`mod.action.${action}.title`, { name }),
    body: [
      h("p", null, t(`mod.action.${action}.text`, { name })),
      report && action !== "dismiss" ? h("p", { class: "hint" }, t("mod.action.closes_report")) : null,
      h("label", { for: id, class: "report-note-label" }, t("mod.action.reason")),
      reason, counter, error,
    ],
    actions: [
      { label: t("mod.action.cancel"), value: "no" },
      { label: t(`mod.action.${action}.confirm`), value: "yes", primary: !HEAVY.has(action), danger: HEAVY.has(action), check: send },
    ],
  });
  return done === "yes" ? answer || {} : null;
}

/** The action buttons of a file. */
export function actionButtons(file, report, act) {
  const actions = actionsFor(file, report);
  if (!actions.length) return null;
  return h("div", { class: "mod-actions", role: "group", "aria-label": t("mod.actions") }, actions.map((action) => h("button", {
    type: "button", class: ["btn", "small", HEAVY.has(action) ? "danger" : "ghost", `mod-act-${action}`],
    dataset: { act: action, focusKey: `act-${action}` }, on: { click: () => act(action) },
  }, t(`mod.action.${action}.button`))));
}

/** The points given back after a ban: who, the variant, how many points, their rating now. */
export function refundsTable(refunds, name) {
  if (!refunds) return null;
  const caption = h("caption", null, t("mod.refunds.title", { name }));
  if (!refunds.length) return h("div", { class: "mod-refunds", role: "status" }, h("p", null, t("mod.refunds.none", { name })));
  const total = Math.round(refunds.reduce((sum, r) => sum + (Number(r.points) || 0), 0) * 10) / 10;
  return h("div", { class: "mod-refunds", role: "status" },
    h("table", { class: "mod-table" }, caption,
      h("thead", null, h("tr", null,
        h("th", { scope: "col" }, t("mod.refunds.player")), h("th", { scope: "col" }, t("mod.refunds.variant")),
        h("th", { scope: "col", class: "num" }, t("mod.refunds.matches")),
        h("th", { scope: "col", class: "num" }, t("mod.refunds.points")), h("th", { scope: "col", class: "num" }, t("mod.refunds.rating")))),
      h("tbody", null, refunds.map((r) => h("tr", { dataset: { username: r.username || "" } },
        h("td", null, h("bdi", null, fullName(r))),
        h("td", null, r.variant ? known(`variant.${r.variant}.name`, r.variant) : ""),
        h("td", { class: "num" }, r.matches === undefined ? "–" : num(r.matches)),
        h("td", { class: "num" }, h("bdi", { dir: "ltr" }, `+${num(Number(r.points) || 0)}`)),
        h("td", { class: "num" }, r.rating === null || r.rating === undefined ? "–" : h("bdi", { dir: "ltr" }, typeof r.rating === "object" ? String(r.rating.label ?? r.rating.rating ?? "") : num(r.rating))))))),
    h("p", { class: "hint" }, t("mod.refunds.total", { count: refunds.length, n: num(refunds.length), points: num(total) })));
}
