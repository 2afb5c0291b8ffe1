// Your finished matches, newest first, each with its record to download.

import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { api, me } from "./api.js";
import { historyItem } from "./lobby.js";
import { link, spinner } from "./ui.js";

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
