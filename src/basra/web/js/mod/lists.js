// The moderators' log (newest first, "Older" pages back: GET /api/mod/log?before=ID) and the
// words moderators added to the names' list (GET, POST and DELETE /api/mod/words), for
// /mod (issue 31). Each log entry: when, who acted, on whom (their file), the action, the
// reason, the report it closed.

import { h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { spinner } from "../lib/ui.js";
import { actionText, detailLine, nameOf, playerButton, when } from "./text.js";

/** One entry of the log. */
export function logItem(e, page, { showPlayer = true } = {}) {
  const extra = detailLine(e.detail);
  return h("li", { class: ["mod-log-entry", `action-${e.action}`], dataset: { entry: String(e.id ?? ""), action: e.action } },
    h("p", { class: "mod-log-head" },
      h("strong", { class: "mod-log-action" }, actionText(e.action)),
      showPlayer && e.player && e.player.id ? [" · ", playerButton(e.player, (id) => page.openDossier(id, null), `log-${e.id}`)] : null,
      " · ", h("span", { class: "muted" }, when(e.at))),
    h("p", { class: "mod-log-by muted" }, t("mod.log.by", { name: nameOf(e.moderator) || t("mod.log.server") }),
      e.report ? [" · ", t("mod.log.report")] : null),
    e.reason ? h("p", { class: "mod-log-reason" }, h("bdi", null, e.reason)) : null,
    extra ? h("p", { class: "muted" }, extra) : null);
}

export function renderLog(page) {
  const log = page.log;
  let body;
  if (page.logError) body = h("p", { class: "field-error", role: "alert" }, page.logError);
  else if (log === null) body = h("p", { class: "muted" }, spinner(), " ", t("lobby.loading"));
  else if (!log.length) body = h("p", { class: "muted" }, t("mod.log.empty"));
  else body = h("ol", { class: "mod-log", "aria-labelledby": "mod-log-title" }, log.map((e) => logItem(e, page)));
  return [
    h("h2", { id: "mod-log-title" }, t("mod.log.title")),
    body,
    log && log.length && page.logMore ? h("button", { type: "button", class: "btn", id: "mod-log-older", disabled: page.busy === "log", on: { click: () => page.loadLog(true) } },
      page.busy === "log" ? spinner() : null, t("mod.log.older")) : null,
  ];
}

export function renderWords(page) {
  const words = page.words;
  const input = h("input", { id: "mod-word", type: "text", autocomplete: "off", maxlength: 64, required: true, dir: "auto", "aria-describedby": "mod-word-hint mod-word-error", props: { value: page.wordDraft }, on: { input: (e) => { page.wordDraft = e.target.value; } } });
  return [
    h("h2", { id: "mod-words-title" }, t("mod.words.title")),
    h("p", { class: "hint", id: "mod-word-hint" }, t("mod.words.hint")),
    h("form", { class: "row mod-word-form", on: { submit: (e) => { e.preventDefault(); page.addWord(page.wordDraft); } } },
      h("label", { class: "sr-only", for: "mod-word" }, t("mod.words.label")), input,
      h("button", { type: "submit", class: "btn", disabled: page.busy === "word" }, t("mod.words.add"))),
    h("p", { class: "field-error", id: "mod-word-error", role: "alert" }, page.wordError || ""),
    words === null ? h("p", { class: "muted" }, spinner())
      : !words.length ? h("p", { class: "muted" }, t("mod.words.empty"))
        : h("ul", { class: "mod-words", "aria-labelledby": "mod-words-title" }, words.map((w) => h("li", { class: "mod-word", dataset: { word: w } },
          h("bdi", null, w),
          h("button", { type: "button", class: "btn ghost small", "aria-label": t("mod.words.remove_label", { word: w }), dataset: { focusKey: `word-${w}` }, on: { click: () => page.removeWord(w) } }, t("mod.words.remove"))))),
  ];
}
