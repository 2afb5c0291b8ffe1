// What the moderators' page (/mod, issue 31) says of the server's fields: a report's reason
// and fate, an action, a player's name, a time; and the buttons that open a player's file.
// Shared by the queue, the file and the log.

import { h } from "../lib/dom.js";
import { dateTime, has, num, t } from "../lib/i18n.js";
import { reportStatus } from "../lib/report.js";

/** A catalogue key's words, or `fallback` (the server's own word) when there is none. */
export function known(key, fallback) {
  return has(key) ? t(key) : String(fallback ?? "");
}

/** A report's reason in a word or two ("Cheating"; the dialog's own words are longer). */
export const reasonText = (reason) => known(`report.short.${reason}`, reason);
export const actionText = (action) => known(`mod.log.${action}`, action);
export const statusText = (report) => reportStatus(report);

/** A name from any of the shapes the server gives: a string, {nickname, username}, {name}. */
export function nameOf(who) {
  if (!who) return "";
  if (typeof who === "string") return who;
  return String(who.nickname || who.name || who.username || "");
}

/** "Zeina (Zeina_K)": the nickname, and the username when it differs. */
export function fullName(who) {
  const nick = nameOf(who);
  const user = who && typeof who === "object" ? who.username : "";
  return user && user.toLocaleLowerCase() !== nick.toLocaleLowerCase() ? `${nick} (${user})` : nick;
}

export function when(iso) {
  if (!iso) return null;
  return h("time", { datetime: iso }, dateTime(iso));
}

/** The button that opens a player's file (`open(id)`), named for screen readers; `key`
 * tells it from the other buttons of the same player (the focus kept across a redraw). */
export function playerButton(who, open, key = "") {
  const id = who && typeof who === "object" ? who.id : null;
  const name = fullName(who);
  if (!id) return h("bdi", { class: "mod-name" }, name);
  return h("button", {
    type: "button", class: "link-button mod-open", dataset: { player: id, focusKey: `open-${id}-${key}` },
    "aria-label": t("mod.open_file", { name }), on: { click: () => open(id) },
  }, h("bdi", null, name));
}

/** A replay link for a match (every hand of a finished match shown). */
export function matchLink(table, label = t("mod.the_match")) {
  if (!table) return null;
  return h("a", { href: `/replay/${encodeURIComponent(table)}`, class: "mod-match", target: "_blank", rel: "noopener" }, label);
}

/** A flag's or an action's detail beyond its reason, in words: the statistic's score and
 * agreement with the expert, the matches it rests on; a rename's names, a listed word, the
 * refunds of a ban ("score 3.1 (flagged from 2.5) · 24 matches"). */
export function detailLine(detail) {
  if (!detail || typeof detail !== "object") return "";
  const parts = [];
  if (typeof detail.score === "number") {
    parts.push(typeof detail.threshold === "number"
      ? t("mod.flag.score_threshold", { score: detail.score.toFixed(2), threshold: detail.threshold })
      : t("mod.flag.score", { score: detail.score.toFixed(2) }));
  }
  if (Number.isInteger(detail.clear) && Number.isInteger(detail.agreed) && detail.clear > 0) {
    const expected = typeof detail.expected_agreement === "number" ? Math.round(detail.expected_agreement * 100) : null;
    parts.push(t(expected === null ? "mod.flag.agreed" : "mod.flag.agreed_expected", { agreed: num(detail.agreed), clear: num(detail.clear), expected: num(expected ?? 0) }));
  }
  const games = Number(detail.games);
  if (Number.isInteger(games) && games > 0) parts.push(t("mod.flag.games", { count: games, n: num(games) }));
  if (detail.old_name || detail.new_name) parts.push(t("mod.detail.renamed", { old: detail.old_name || "", new: detail.new_name || "" }));
  if (detail.word) parts.push(t("mod.detail.word", { word: detail.word }));
  if (Array.isArray(detail.refunds)) parts.push(t("mod.detail.refunds", { count: detail.refunds.length, n: num(detail.refunds.length) }));
  return parts.join(" · ");
}
