// A tournament's table (`table.kind` "tournament"): the way back to its event. The event is
// learnt once (GET /api/tables/ID names its `tournament_id`); when the match is over the
// match end offers "Back to the tournament" instead of a rematch, and a seated player is
// taken back by itself after BACK_AFTER (the event pairs them again there) when the page saw
// the match in play. A spectator gets the button only; Basra TV neither.

import { h } from "../lib/dom.js";
import { num, t } from "../lib/i18n.js";
import { api } from "../lib/api.js";
import { navigate } from "../lib/ui.js";
import { table } from "./state.js";
import { tableLeft } from "../tournament/mine.js";

export const BACK_AFTER = 5000;

const eventPath = (id) => `/tournament/${encodeURIComponent(id)}`;

/** After each new state of `page` (the table page): learn the event, and once the match is
 * over start the way back. `page.event` is undefined (not asked), null (asking, or not a
 * tournament's) or {id, at} (at: when a seated player is taken back, or null). */
export function followEvent(page) {
  const st = page.st;
  if (page.tv || !st.game) return;
  const tb = table(st);
  if (tb.kind !== "tournament") return;
  const over = ["finished", "abandoned"].includes(tb.status);
  if (!over) page.eventLive = true;
  if (page.event === undefined) {
    page.event = null;
    api.table(tb.id).then((answer) => {
      if (page.destroyed || !answer || !answer.tournament_id) return;
      page.event = { id: answer.tournament_id, at: null };
      followEvent(page);
      page.redraw();
    }).catch(() => { page.event = undefined; });
    return;
  }
  if (!page.event || page.event.at !== null || !over) return;
  tableLeft(tb.id);
  // Only a match this page saw in play takes its player back (not an old one reopened).
  if (st.seat === null || !page.eventLive) return;
  page.event.at = Date.now() + BACK_AFTER;
  const tick = () => {
    if (page.destroyed) return;
    const left = page.event.at - Date.now();
    if (left <= 0) {
      navigate(eventPath(page.event.id));
      return;
    }
    page.redraw();
    page.timers.back = setTimeout(tick, Math.min(1000, left));
  };
  tick();
}

/** The match end's way back: a link to the event, with the seconds left when the page goes
 * by itself (null while the event is not known). */
export function backLink(ctx) {
  const event = ctx.event;
  if (!event) return null;
  const left = event.at === null ? null : Math.max(0, Math.ceil((event.at - ctx.wallNow) / 1000));
  return h("a", { class: "btn primary back-to-event", href: eventPath(event.id), dataset: { autofocus: "", focusKey: "back-to-event", action: "nav" } },
    t("tournament.back"),
    left === null ? null : h("span", { class: "back-left", dataset: { left: String(left) } }, " ", t("tournament.back_in", { count: left, n: num(left) })));
}
