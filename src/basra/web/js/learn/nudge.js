// The lobby's first-visit banner: "New to Basra? Learn in 3 minutes" (to /learn), shown
// until it is dismissed or a lesson is finished (learn/progress.js).

import { h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { link, loadStyle } from "../lib/ui.js";
import { dismissNudge, nudgeWanted } from "./progress.js";

const STYLE = new URL("../../css/learn.css", import.meta.url);

/** The banner, or null when it is not wanted. */
export function learnNudge() {
  if (!nudgeWanted()) return null;
  loadStyle(STYLE);
  const box = h("aside", { class: "learn-nudge", id: "learn-nudge", "aria-label": t("learn.nudge.label") },
    h("span", { class: "learn-nudge-mark", "aria-hidden": "true" }, "?"),
    link("/learn", { class: "learn-nudge-link", id: "learn-nudge-link" }, t("learn.nudge.text")),
    h("button", { type: "button", class: "btn ghost learn-nudge-close", "aria-label": t("learn.nudge.dismiss"), title: t("learn.nudge.dismiss"),
      on: { click: () => { dismissNudge(); box.remove(); } } }, "×"));
  return box;
}
