// Your finished matches, newest first, each with its replay and its record to download; a
// rated one with the "Rated" tag and your rating change.

import { h, replace } from "../lib/dom.js";
import { t, num, dateTime } from "../lib/i18n.js";
import { api, me, recordUrl } from "../lib/api.js";
import { sideOf } from "../lib/variants.js";
import { link, playerName, ratedMarks, spinner } from "../lib/ui.js";

export function mount(container) {
  let matches = null;
  let player = null;
  let failed = false;
  let alive = true;
  container.classList.add("page", "history-page");
  const render = () => {
    if (!alive) return;
    let body;
    if (failed) body = h("p", { class: "field-error" }, t("error.generic"));
    else if (matches === null) body = h("p", { class: "muted" }, spinner(), " ", t("lobby.loading"));
    else if (!player) body = h("p", null, t("history.no_player"), " ", link("/", null, t("nav.lobby")));
    else if (!matches.length) body = h("p", { class: "muted" }, t("lobby.recent.none"));
    else body = h("ul", { class: "history-list" }, matches.map(historyItem));
    replace(container, h("h1", null, t("history.title")), h("p", { class: "lead" }, t("history.intro")), body);
  };
  render();
  (async () => {
    try {
      player = await me();
      matches = player ? (await api.history()).matches || [] : [];
    } catch {
      failed = true;
    }
    render();
  })();
  return { unmount() { alive = false; }, relabel: render };
}

/** One finished match in a history list (shared with the history page). */
export function historyItem(m) {
  const mySide = sideOf(m.seat, m.teams);
  const result = m.took_part === false ? "not_played" : m.winner === null || m.winner === undefined ? "draw" : m.winner === mySide ? "won" : "lost";
  const all = m.players.map((name, seat) => ({ name, seat, kind: String(name).startsWith("bot:") ? "bot" : "human" }));
  const names = all.map((player, seat) => (seat === m.seat ? t("seat.you") : playerName(player, all)));
  const opponents = names.filter((_, seat) => seat !== m.seat);
  const { tag, change } = ratedMarks(m);
  return h("li", { class: ["history-item", result], dataset: { table: m.table, rated: m.rated ? "true" : null } },
    h("span", { class: ["result-badge", result] }, t(`history.${result}`)),
    h("div", { class: "history-main" },
      h("div", { class: "history-title" },
        h("strong", null, t(`variant.${m.variant}.name`)), tag ? [" ", tag] : null, " · ",
        h("span", null, t("history.vs", { names: opponents.join(t("list.sep")) }))),
      h("div", { class: "history-meta muted" },
        h("bdi", { class: "history-score", dir: "ltr" }, m.totals.map((n) => num(n)).join(" – ")),
        change ? [" ", change] : null, " · ",
        h("time", { datetime: m.finished_at }, dateTime(m.finished_at)))),
    // Stacked, so the row keeps its room for the names on a phone (lobby.css has no rule for it).
    h("div", { class: "history-actions" },
      link(`/replay/${encodeURIComponent(m.table)}`, { class: "btn small history-replay", "aria-label": t("history.replay_label", { variant: t(`variant.${m.variant}.name`), date: dateTime(m.finished_at) }) }, t("history.replay")),
      h("a", { class: "btn small", href: m.record || recordUrl(m.table), download: `basra-${m.table}.json`, "aria-label": t("history.download_label", { variant: t(`variant.${m.variant}.name`), date: dateTime(m.finished_at) }) }, t("history.download"))));
}
