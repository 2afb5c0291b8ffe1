// The players around the table: the other seats' plates (name and rating, badges, cards in
// hand, pile, the clock ring, a phrase's bubble) and this seat's bar over the hand (status
// line, pile, the turn clock, the Say button and its bubble; a spectator's marker and Hide
// phrases).

import { h, s } from "../lib/dom.js";
import { t, num } from "../lib/i18n.js";
import { playerName } from "../lib/ui.js";
import { sideOf } from "../lib/variants.js";
import { mySide, myTurn, table, view } from "./state.js";
import { botIcon, eyeIcon, pileIcon, seatName } from "./names.js";
import { clockInfo } from "./clock.js";
import { sayBubble, sayButton } from "./phrases.js";

/** A player's rating beside the name ("1532", "1500?"), when the table has one for them. */
export function ratingTag(player) {
  const label = player && player.rating ? player.rating.label : null;
  // A space, not a margin: the tag's own direction is left to right in every language.
  return label ? [" ", h("bdi", { class: "seat-rating", dir: "ltr", title: t("rated.rating_label", { label }) }, label)] : null;
}

export function avatar(st, seat, player, now) {
  const name = playerName(player, table(st).players);
  const initial = player.kind === "human" ? Array.from(name.trim())[0] || "?" : "";
  const clock = clockInfo(st, now);
  const on = clock && clock.seat === seat;
  return h("div", { class: ["avatar", player.kind === "bot" && "bot", player.kind === "empty" && "empty"], "aria-hidden": "true" },
    s("svg", { class: ["clock-ring", on && "on", on && clock.low && "low"], viewBox: "0 0 40 40", dataset: { clockSeat: String(seat) } },
      s("circle", { class: "ring-bg", cx: 20, cy: 20, r: 18 }),
      s("circle", { class: "ring-fg", cx: 20, cy: 20, r: 18, pathLength: 100, style: on ? { "stroke-dashoffset": String(100 - clock.fraction * 100) } : undefined })),
    player.kind === "bot" ? botIcon() : h("span", { class: "avatar-letter" }, initial.toUpperCase()));
}

function plate(st, seat, player, now) {
  const v = view(st);
  const tb = table(st);
  const partner = tb.teams && st.seat !== null && seat !== st.seat && sideOf(seat, tb.teams) === sideOf(st.seat, tb.teams);
  const turn = v.turn === seat;
  const count = v.hand_counts[seat] || 0;
  const name = playerName(player, tb.players);
  const badges = [];
  if (partner) badges.push(h("span", { class: "badge partner" }, t("seat.partner")));
  if (v.dealer === seat) badges.push(h("span", { class: "badge dealer", title: t("seat.dealer") }, t("seat.dealer_short")));
  if (player.kind === "human" && player.bot_playing) badges.push(h("span", { class: "badge botplay" }, t("seat.bot_playing")));
  else if (player.kind === "human" && player.connected === false) badges.push(h("span", { class: "badge offline" }, t("seat.offline")));
  if (turn && !st.clock && player.kind !== "empty") badges.push(h("span", { class: "badge thinking" }, t("seat.thinking")));
  const backs = h("div", { class: "mini-hand", dataset: { seatHand: String(seat) } },
    Array.from({ length: Math.min(count, 4) }, () => h("span", { class: "mini-card" })),
    h("span", { class: "mini-count" }, num(count)));
  const pileCount = v.pile_counts[sideOf(seat, tb.teams)] || 0;
  return h("div", {
    class: ["seat-plate", turn && "turn", partner && "partner", player.bot_playing && "bot-playing"],
    dataset: { seat: String(seat), key: `seat-${seat}` }, role: "group",
    "aria-label": t("seat.label", { name, cards: count, count, pile: pileCount }),
  },
  avatar(st, seat, player, now),
  sayBubble(st, seat, now),
  h("div", { class: "plate-info" },
    h("div", { class: "plate-name" }, name, ratingTag(player)),
    h("div", { class: "plate-badges" }, badges)),
  h("div", { class: "plate-cards" },
    backs,
    h("div", { class: "mini-pile", dataset: { pileSeat: String(seat) }, title: t("score.pile") }, pileIcon(), num(pileCount))));
}

export function renderOpponents(st, { now = 0 } = {}) {
  const order = [];
  if (st.game) {
    const n = table(st).seats;
    if (st.seat === null) for (let i = 0; i < n; i++) order.push(i);
    else for (let i = 1; i < n; i++) order.push((st.seat + i) % n);
  }
  const players = st.game ? table(st).players : [];
  return h("div", { class: "opponents", dataset: { count: st.game ? String(order.length) : undefined } },
    order.map((seat) => plate(st, seat, players[seat], now)));
}

/** "Waiting for your opponent…", or for the other players when there are several. */
export function arrivingText(st) {
  const others = table(st).players.filter((p) => p.kind === "human" && p.seat !== st.seat);
  return others.length > 1 ? t("status.arriving_many") : t("status.arriving");
}

function statusLine(st) {
  const tb = table(st);
  const v = view(st);
  if (tb.status === "waiting") return t("status.waiting_players");
  if (tb.status === "finished") return t("status.over");
  if (tb.status === "abandoned") return t("status.abandoned");
  if (tb.phase === "arriving") return arrivingText(st);
  if (tb.phase === "seeding") return t("status.seeding");
  if (myTurn(st)) return st.choice ? t("status.choose") : t("status.your_turn");
  if (v.turn !== null) return t("status.waiting_for", { name: seatName(st, v.turn) });
  return "";
}

export function renderMe(st, { now = 0 } = {}) {
  const root = (...children) => h("div", { class: "me-bar" }, ...children);
  if (!st.game) return root();
  if (st.seat === null) {
    return root(h("span", { class: "watching-mark" }, eyeIcon(), t("table.watching")),
      h("span", { class: "me-status" }, t("table.spectating")),
      sayButton(st));
  }
  const v = view(st);
  const tb = table(st);
  const player = tb.players[st.seat];
  const pile = v.pile_counts[mySide(st)] || 0;
  return root(
    h("div", { class: ["me-who", myTurn(st) && "turn"] },
      avatar(st, st.seat, player, now),
      sayBubble(st, st.seat, now),
      h("span", { class: "me-name" }, playerName(player, tb.players), ratingTag(player)),
      v.dealer === st.seat ? h("span", { class: "badge dealer", title: t("seat.dealer") }, t("seat.dealer_short")) : null),
    h("div", { class: "me-status", role: "status" }, statusLine(st)),
    h("div", { class: "me-pile", dataset: { pileSeat: String(st.seat) }, title: t("score.pile"), role: "img", "aria-label": t("score.pile_count", { count: pile, n: pile }) }, pileIcon(), num(pile)),
    sayButton(st),
    turnClock(st, now));
}

/** The bar over this seat's hand while its clock runs (clock.js moves it every frame). */
function turnClock(st, now) {
  const clock = clockInfo(st, now);
  const mine = clock && clock.seat === st.seat;
  return h("div", {
    class: ["turn-clock", mine && clock.low && "low"], role: "timer", hidden: !mine,
    style: mine ? { "--left": String(clock.fraction) } : undefined,
    "aria-label": mine ? t("clock.left", { count: clock.second, n: clock.second }) : undefined,
  },
  h("div", { class: "turn-clock-bar" }),
  h("span", { class: "turn-clock-text" }, mine ? t("clock.seconds", { n: num(clock.second) }) : ""));
}
