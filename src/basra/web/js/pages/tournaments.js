// /tournaments: the events running now, coming up and finished (GET /api/tournaments),
// each a card (name, variant, format, rated or casual, short or full matches, the
// countdown to its start or its end or the round it is at) opening /tournament/ID; and
// "New tournament" (tournament/form.js) for an account, a line saying how to get one for
// anyone else. The list is asked for again every few seconds while the page is visible;
// the countdowns tick each second; both are morphed in place, so focus stays.

import { h, morph, replace } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { cachedMe, onSession, request } from "../lib/api.js";
import { followNav, loadStyle, navigate, spinner, visiblePoll } from "../lib/ui.js";
import { eventChips, standingTag, dateAndTime, timeOfDay } from "../tournament/words.js";
import { FRESH, newEventForm } from "../tournament/form.js";
import { pageLink } from "../tournament/standings.js";

const STYLE = new URL("../../css/tournament.css", import.meta.url);
/** How often the list is asked for while the page is visible. */
export const POLL_MS = 10000;
const GROUPS = ["running", "upcoming", "finished"];

function when(event) {
  if (event.status === "upcoming") return t("tournament.starts_at", { time: dateAndTime(event.starts_at) });
  if (event.status === "running" && event.ends_at) return t("tournament.ends_at", { time: timeOfDay(event.ends_at) });
  if (event.finished_at) return t("tournament.ended_at", { time: dateAndTime(event.finished_at) });
  return "";
}

function card(event, now) {
  return h("li", { class: "tour-card", dataset: { key: event.id, id: event.id, status: event.status } },
    h("h3", { class: "tour-card-name" },
      pageLink(`/tournament/${encodeURIComponent(event.id)}`, { class: "tour-card-link" }, h("bdi", null, event.name))),
    h("p", { class: "tour-chips" }, eventChips(event)),
    h("div", { class: "tour-card-end" },
      standingTag(event, now),
      h("span", { class: "tour-card-time muted" }, when(event))));
}

export function mount(container) {
  let listing = null;
  let failed = false;
  let alive = true;
  const values = { ...FRESH };
  container.classList.add("page", "tour-list-page");
  const lists = h("div", { class: "tour-lists" });
  const maker = h("div", { class: "tour-maker" });

  const drawLists = () => {
    if (!alive) return;
    const now = Date.now();
    let body;
    if (failed && listing === null) body = h("p", { class: "field-error", role: "alert" }, t("error.generic"));
    else if (listing === null) body = h("p", { class: "muted" }, spinner(), " ", t("lobby.loading"));
    else {
      body = GROUPS.map((group) => {
        const events = listing[group] || [];
        return h("section", { class: "tour-group", dataset: { key: group, group }, "aria-labelledby": `tour-${group}` },
          h("h2", { id: `tour-${group}` }, t(`tournament.group.${group}`)),
          events.length ? h("ul", { class: "tour-cards", dataset: { count: String(events.length) } }, events.map((e) => card(e, now)))
            : h("p", { class: "muted tour-none" }, t(`tournament.none.${group}`)));
      });
    }
    morph(lists, h("div", { class: "tour-lists", "aria-busy": listing === null ? "true" : "false" }, body));
  };

  /** The form for an account; how to get one for anyone else (both in a <details>). */
  const drawMaker = () => {
    const me = cachedMe();
    const open = maker.querySelector("details")?.open || false;
    const inside = me && me.account
      ? newEventForm(values, (event) => navigate(`/tournament/${encodeURIComponent(event.id)}`))
      : h("p", { class: "tour-note" }, t("tournament.form.needs_account"), " ",
        pageLink(`/account?next=${encodeURIComponent("/tournaments")}`, null, t("rated.create_account")));
    replace(maker, h("details", { class: "tour-new", open },
      h("summary", { class: "btn" }, t("tournament.new")), h("div", { class: "tour-new-body" }, inside)));
  };

  const render = () => {
    if (!alive) return;
    replace(container,
      h("div", { class: "tour-list-head" }, h("h1", null, t("tournament.list_title")), h("p", { class: "lead" }, t("tournament.intro"))),
      maker, lists);
    drawMaker();
    drawLists();
  };

  const poller = visiblePoll(() => request("GET", "/api/tournaments"),
    (answer) => { listing = answer || {}; failed = false; drawLists(); },
    () => { failed = true; drawLists(); }, POLL_MS);

  const onClick = (event) => {
    followNav(container, event);
  };

  render();
  container.addEventListener("click", onClick);
  const ticker = setInterval(drawLists, 1000);
  const unlisten = onSession(() => {
    // Only a change of account redraws the form (what is typed is kept in `values`).
    const account = !!(cachedMe() && cachedMe().account);
    if (account !== !!maker.querySelector("form")) drawMaker();
  });
  loadStyle(STYLE);
  poller.poll();
  return {
    unmount() {
      alive = false;
      poller.stop();
      clearInterval(ticker);
      unlisten();
      container.removeEventListener("click", onClick);
    },
    relabel: render,
  };
}
