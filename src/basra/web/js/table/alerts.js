// Telling the player without words on the felt: a sound for each new play (a card laid, a
// capture, a basra), for a deal and for their turn; on their turn the tab's title and icon
// say so (another tab in front sees it) and a phone vibrates where the browser allows.
// `page` is the table page (table.js).

import { t } from "../lib/i18n.js";
import { myTurn, table, view } from "./state.js";
import { play } from "./sound.js";

/** The tab's icon on your turn: the brand's card with a dot. */
const TURN_ICON = "data:image/svg+xml," + encodeURIComponent(
  "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'>"
  + "<rect x='5' y='3' width='18' height='26' rx='3' fill='#f4f1e6' stroke='#0b2a22' stroke-width='2'/>"
  + "<path d='M14 10l4 6-4 6-4-6z' fill='#c62828'/>"
  + "<circle cx='25' cy='8' r='6' fill='#f4c34f' stroke='#0b2a22' stroke-width='2'/></svg>");

let mark = null;

/** Show (or take back) "your turn" in the tab's title and icon. */
export function markTurn(on) {
  const icon = document.querySelector("link[rel~='icon']");
  if (!on) {
    if (!mark) return;
    if (document.title === mark.shown) document.title = mark.title;
    if (icon && mark.icon !== null) icon.setAttribute("href", mark.icon);
    mark = null;
    return;
  }
  if (mark && document.title === mark.shown) return;
  // First time, or the title was set again meanwhile (a new language): mark that one.
  if (!mark) mark = { icon: icon ? icon.getAttribute("href") : null };
  mark.title = document.title;
  document.title = t("turn.title", { title: mark.title });
  mark.shown = document.title;
  if (icon) icon.setAttribute("href", TURN_ICON);
}

function vibrate(pattern) {
  const active = navigator.userActivation ? navigator.userActivation.hasBeenActive : false;
  if (active && typeof navigator.vibrate === "function") {
    try { navigator.vibrate(pattern); } catch { /* not allowed */ }
  }
}

/** The sounds and signals of a new state (`before`: the state it replaced). */
export function cue(page, before) {
  const st = page.st;
  const prev = before.game;
  if (!prev || !st.game) return;
  const v = view(st);
  const fresh = prev.view.round === v.round ? v.plays.slice(prev.view.plays.length) : [];
  const last = fresh[fresh.length - 1];
  if (fresh.some((p) => p.basra)) play("basra");
  else if (last) play(last.take.length ? "capture" : "play");
  const dealt = st.seat !== null && v.hand.length > prev.view.hand.length;
  if (dealt) setTimeout(() => play("deal"), last ? 250 : 0);
  if (myTurn(st) && !myTurn(before) && table(st).status === "playing") {
    setTimeout(() => play("turn"), dealt ? 600 : 300);
    vibrate([70, 50, 70]);
  }
}
