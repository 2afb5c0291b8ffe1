// Names at the table, in the page's language: a seat ("You", a nickname, a bot), a side
// ("You", a player, or both partners), and the small icons the regions share.

import { s } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { playerName } from "../lib/ui.js";
import { sideOf } from "../lib/variants.js";
import { table } from "./state.js";

export function seatName(st, seat) {
  if (seat === st.seat) return t("seat.you");
  const players = table(st).players;
  return playerName(players[seat], players);
}

/** A side's name: "You", a player's name, or both partners' names. */
export function sideName(st, side) {
  const tb = table(st);
  const seats = [];
  for (let seat = 0; seat < tb.seats; seat++) if (sideOf(seat, tb.teams) === side) seats.push(seat);
  if (tb.teams) {
    if (seats.includes(st.seat)) return t("side.us");
    return seats.map((seat) => seatName(st, seat)).join(t("side.join"));
  }
  return seatName(st, seats[0]);
}

export function pileIcon() {
  return s("svg", { class: "pile-icon", viewBox: "0 0 20 20", "aria-hidden": "true", focusable: "false" },
    s("rect", { x: 5, y: 2, width: 11, height: 15, rx: 2, transform: "rotate(10 10 10)" }),
    s("rect", { x: 4, y: 3, width: 11, height: 15, rx: 2 }));
}

export function botIcon() {
  return s("svg", { class: "bot-icon", viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" },
    s("rect", { x: 4, y: 8, width: 16, height: 12, rx: 3 }),
    s("circle", { cx: 9, cy: 14, r: 1.6, class: "eye" }),
    s("circle", { cx: 15, cy: 14, r: 1.6, class: "eye" }),
    s("path", { d: "M12 8V4M10 4h4", class: "antenna" }));
}

/** An eye: the watcher's marker. */
export function eyeIcon() {
  return s("svg", { class: "eye-icon", viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" },
    s("path", { d: "M2 12s3.6-6 10-6 10 6 10 6-3.6 6-10 6S2 12 2 12z" }),
    s("circle", { cx: 12, cy: 12, r: 3.2, class: "pupil" }));
}

/** A fork: one card, several takes (the hand's "2 ways" pill). */
export function waysIcon() {
  return s("svg", { class: "ways-icon", viewBox: "0 0 16 16", "aria-hidden": "true", focusable: "false" },
    s("path", { d: "M8 15V9M8 9 3.5 4.5M8 9l4.5-4.5M2 2h4M2 2v4M14 2h-4M14 2v4" }));
}

export function trophy() {
  return s("svg", { class: "trophy", viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" },
    s("path", { d: "M7 3h10v3a5 5 0 0 1-10 0zM5 4H3v2a4 4 0 0 0 4 4M19 4h2v2a4 4 0 0 1-4 4M12 11v5M8 21h8M9 16h6v5H9z" }));
}
