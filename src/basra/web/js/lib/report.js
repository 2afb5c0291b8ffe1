// Reporting a player (issue 31): the small dialog that sends a report (POST /api/reports) —
// from a table (each other person seated, in the phrases panel), a profile (another
// account) and a replay (each other player of the match). A reason (a radio group), a note
// (required for "Other", 500 characters at most, with a counter), Send; then "Report
// received". The server's refusal is said in the dialog, which stays open. Also the words
// of a report's fate, shared by the account page's list and the bell.

import { h } from "./dom.js";
import { num, t } from "./i18n.js";
import { request } from "./api.js";
import { announce, errorText, loadStyle, toast } from "./ui.js";
import { openDialog } from "../table/dialog.js";

const STYLE = new URL("../../css/overlay.css", import.meta.url);
export const REASONS = ["cheating", "leaving", "name", "phrases", "other"];
export const NOTE_MAX = 500;

let serial = 0;

/** A radio group: a fieldset with its legend, one radio per value (the first one taking
 * the dialog's first focus when `autofocus`). */
function radios(name, legend, items, { autofocus = false } = {}) {
  return h("fieldset", { class: "report-group" },
    h("legend", null, legend),
    items.map(({ value, label }, i) => h("label", { class: "inline-field report-choice" },
      h("input", { type: "radio", name, value, dataset: { autofocus: autofocus && i === 0 ? "" : undefined } }),
      h("span", null, label))));
}

/** The note's count of characters: "12 / 500". */
export function noteCounter(textarea, counter) {
  const show = () => { counter.textContent = t("report.note_count", { n: num(textarea.value.length), max: num(NOTE_MAX) }); };
  textarea.addEventListener("input", show);
  show();
}

/** Ask about `targets` ([{name, body}], body {username} or {table, seat}); `table`: the
 * match concerned. True once the server has the report. */
export async function reportDialog(targets, { table = null } = {}) {
  if (!targets.length) return false;
  await loadStyle(STYLE);
  serial += 1;
  const ids = { who: `report-who-${serial}`, reason: `report-reason-${serial}`, note: `report-note-${serial}`, count: `report-count-${serial}`, error: `report-error-${serial}` };
  const many = targets.length > 1;
  const who = many ? radios(ids.who, t("report.who"), targets.map((target, i) => ({ value: String(i), label: target.name })), { autofocus: true }) : null;
  const reasons = radios(ids.reason, t("report.reason"), REASONS.map((r) => ({ value: r, label: t(`report.reason.${r}`) })), { autofocus: !many });
  const note = h("textarea", { id: ids.note, class: "report-note", rows: 3, maxlength: NOTE_MAX, "aria-describedby": `${ids.count} ${ids.error}` });
  const counter = h("p", { class: "hint report-count", id: ids.count });
  noteCounter(note, counter);
  const error = h("p", { class: "field-error report-error", id: ids.error, role: "alert" });
  // What was wrong is taken away once the player changes something.
  for (const el of [who, reasons, note]) if (el) el.addEventListener(el === note ? "input" : "change", () => { error.textContent = ""; });
  const chosen = (name) => {
    const input = document.querySelector(`input[name="${name}"]:checked`);
    return input ? input.value : null;
  };
  const fail = (text, focus) => {
    error.textContent = "";
    // A fresh text after a tick is read out again even when it repeats.
    setTimeout(() => { error.textContent = text; }, 30);
    if (focus) focus.focus();
    return false;
  };
  const send = async () => {
    const target = many ? targets[Number(chosen(ids.who))] : targets[0];
    if (!target) return fail(t("report.choose_who"), who.querySelector("input"));
    const reason = chosen(ids.reason);
    if (!reason) return fail(t("report.choose_reason"), reasons.querySelector("input"));
    const text = note.value.trim();
    if (reason === "other" && !text) return fail(t("report.note_needed"), note);
    try {
      await request("POST", "/api/reports", { ...target.body, reason, note: text, ...(table ? { table } : {}) });
      return true;
    } catch (err) {
      return fail(errorText(err), null);
    }
  };
  const name = many ? "" : targets[0].name;
  const answer = await openDialog({
    kind: "report",
    title: many ? t("report.title_many") : t("report.title", { name }),
    body: [
      h("p", { class: "hint" }, t("report.lead")),
      who, reasons,
      h("label", { for: ids.note, class: "report-note-label" }, t("report.note")),
      note, counter, error,
    ],
    actions: [{ label: t("report.cancel"), value: "no" }, { label: t("report.send"), value: "send", primary: true, check: send }],
  });
  if (answer !== "send") return false;
  const received = t("report.received");
  toast(received, "info", 6000);
  announce(received);
  return true;
}

/** A report's fate in words: "Received", "No action taken", "Action taken: a warning". */
export function reportStatus(report) {
  if (report.status === "dismissed") return t("report.status.dismissed");
  if (report.status === "actioned") {
    return report.outcome ? t("report.status.actioned_as", { outcome: t(`report.outcome.${report.outcome}`) }) : t("report.status.actioned");
  }
  return t("report.status.open");
}

/** The Report button of a profile or a replay (`onClick` opens the dialog). */
export function reportButton(label, onClick, attrs = {}) {
  return h("button", { type: "button", class: "btn ghost small report-button", ...attrs, on: onClick ? { click: onClick } : undefined }, label);
}
