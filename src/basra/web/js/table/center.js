// The message over the floor: connecting, table not found, the waiting room of a private
// table (invite link, seats, bots to add), the wait for seated players to arrive, an
// abandoned table, the deal card of a round waiting for parts, or an empty floor.

import { h, s } from "../lib/dom.js";
import { t, num } from "../lib/i18n.js";
import { copyText, playerName, toast } from "../lib/ui.js";
import { botLevels } from "../lib/variants.js";
import { partIn, readied, table, view } from "./state.js";
import { arrivingText } from "./seats.js";

/** While this page's part is in and others are still choosing, the deal card waits this long
 * before it shows (against bots the round starts at once: no flash). */
export const DEAL_CARD_DELAY = 700;
/** The bot level a new bot seat is offered at first. */
const FIRST_LEVEL = "medium";

const card = (cls, notice, ...children) => h("div", { class: ["center-card", cls], dataset: notice ? { notice } : undefined }, ...children);
const lobbyButton = () => h("a", { class: "btn primary", href: "/", dataset: { action: "nav" } }, t("nav.lobby"));

const inviteUrl = (tb) => `${location.origin}/join/${tb.invite_code}`;
const canShare = () => typeof navigator.share === "function";

/** Share the invite through the system's share sheet ("Amira invites you to a game of
 * Basra" and the link); where there is none, or it fails, copy the link and say so.
 * (data-action "share-invite"; without navigator.share the button is a "copy-invite".) */
export async function shareInvite(st) {
  const tb = table(st);
  const url = inviteUrl(tb);
  if (canShare()) {
    const name = st.seat !== null ? playerName(tb.players[st.seat], tb.players) : "";
    try {
      await navigator.share({ title: t("app.name"), text: t("wait.share_text", { name }), url });
      return;
    } catch (err) {
      if (err && err.name === "AbortError") return;
    }
  }
  const ok = await copyText(url);
  toast(ok ? t("wait.copied") : t("wait.copy_failed"), ok ? "info" : "error");
}

function shareIcon() {
  return s("svg", { class: "share-icon", viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" },
    s("circle", { cx: 18, cy: 5, r: 3 }), s("circle", { cx: 6, cy: 12, r: 3 }), s("circle", { cx: 18, cy: 19, r: 3 }),
    s("path", { d: "M8.6 10.7 15.4 6.3M8.6 13.3l6.8 4.4" }));
}

function waitingRoom(st) {
  const tb = table(st);
  const code = tb.invite_code;
  const linkUrl = code ? inviteUrl(tb) : "";
  const owner = st.seat === 0 && tb.kind === "private";
  const levels = botLevels();
  // The level the table was made with (the lobby's choice) comes first.
  const first = levels.includes(tb.bot_level) ? tb.bot_level
    : levels.includes(FIRST_LEVEL) ? FIRST_LEVEL : levels[0];
  const seats = tb.players.map((p) => {
    const filled = p.kind !== "empty";
    const name = filled ? (p.seat === st.seat ? t("seat.you_named", { name: playerName(p, tb.players) }) : playerName(p, tb.players)) : t("seat.empty");
    // In teams, who partners whom (seats 0 and 2 against 1 and 3); a free seat can be taken.
    const side = tb.teams ? h("span", { class: "wait-seat-side muted" }, t(p.seat % 2 === 0 ? "lobby.open.side_a" : "lobby.open.side_b")) : null;
    return h("li", { class: ["wait-seat", filled ? "filled" : "open"], dataset: { key: `wait-${p.seat}` } },
      h("div", { class: "wait-seat-who" },
        h("span", { class: "wait-seat-no" }, t("seat.number", { n: num(p.seat + 1) })),
        side,
        h("span", { class: "wait-seat-name" }, name)),
      !filled && st.seat !== null ? h("button", { class: "btn small ghost wait-seat-move", type: "button", dataset: { action: "move-seat", seat: String(p.seat) }, "aria-label": t("wait.move_label", { n: num(p.seat + 1) }) }, t("wait.move")) : null,
      !filled && owner ? h("div", { class: "wait-seat-add" },
        h("select", { class: "level-select", "aria-label": t("lobby.bot.level") },
          levels.map((l) => h("option", { value: l, selected: l === first }, t(`bot.level.${l}`)))),
        h("button", { class: "btn small", type: "button", dataset: { action: "add-bot", seat: String(p.seat) } }, t("wait.add_bot"))) : null);
  });
  const parts = [h("h2", null, t("wait.title")), h("p", null, t("wait.text"))];
  if (code) {
    const share = canShare();
    parts.push(h("div", { class: "invite" },
      h("input", { class: "invite-link", type: "text", dir: "ltr", readonly: true, value: linkUrl, "aria-label": t("wait.link"), dataset: { action: "invite-link" } }),
      h("div", { class: "invite-actions" },
        h("button", { class: "btn primary share-invite", type: "button", dataset: { focusKey: "share", action: share ? "share-invite" : "copy-invite" } },
          shareIcon(), t("wait.share")),
        share ? h("button", { class: "btn copy-invite", type: "button", dataset: { focusKey: "copy", action: "copy-invite" } }, t("wait.copy")) : null)),
    h("p", { class: "hint" }, t("wait.code", { code })));
  }
  parts.push(h("ul", { class: "wait-seats" }, seats));
  if (owner) parts.push(h("button", { class: "btn ghost danger-text", type: "button", dataset: { action: "cancel-table" } }, t("wait.cancel")));
  return card("waiting-room", null, parts);
}

function dealCard(st, ctx) {
  const tb = table(st);
  const current = tb.fairness.current;
  const round = current ? current.round : view(st).round + 1;
  const parts = current ? ctx.ev.partsFor(current.round) : [];
  const mineIn = partIn(st, parts);
  // This page's part went out with the commitment: against bots the round is dealt a
  // moment later, so the card only shows when others are still choosing.
  if (mineIn && ctx.now - st.seedingSince < DEAL_CARD_DELAY) return null;
  const sent = readied(st, parts);
  return card("deal-card", null,
    h("h2", null, t("deal.title", { n: num(round) })),
    current ? h("p", { class: "commit-line" }, t("deal.commitment"), " ", h("code", { class: "hash" }, current.commitment.slice(0, 16) + "…")) : null,
    st.seat !== null && mineIn ? h("p", { class: "part-line" }, t("deal.part_sent")) : null,
    st.seat !== null ? h("button", { class: "btn primary", type: "button", disabled: sent, dataset: { focusKey: "deal", action: "ready" } }, sent ? t("deal.waiting") : t("deal.button")) : null,
    h("p", { class: "hint" }, t("deal.hint")));
}

function content(st, ctx) {
  if (!st.game) {
    if (st.connection === "gone") return card(null, null, h("p", null, t("table.not_found")), lobbyButton());
    if (st.connection === "signed-out") return card("signed-out-card", "signed-out", h("p", null, t("account.signed_out_here")), lobbyButton());
    return card(null, null, h("span", { class: "spinner" }), h("p", null, t("table.connecting")));
  }
  const tb = table(st);
  const v = view(st);
  if (tb.status === "waiting") return waitingRoom(st);
  if (tb.phase === "arriving") {
    return card("arriving-card", "arriving",
      h("p", null, h("span", { class: "spinner small", "aria-hidden": "true" }), " ", arrivingText(st)),
      h("p", { class: "hint" }, tb.kind === "quick" ? t("arriving.hint") : t("arriving.hint_table")));
  }
  if (tb.status === "abandoned") return card("abandoned-card", "abandoned", h("p", null, t("table.abandoned")), lobbyButton());
  if (tb.phase === "seeding" && !st.overlay) return dealCard(st, ctx);
  if (v.round > 0 && v.floor.length === 0 && v.turn !== null) return h("p", { class: "floor-empty-text" }, t("table.floor_empty"));
  return null;
}

export function renderCenter(st, ctx) {
  const inside = content(st, ctx);
  return h("div", { class: "center-msg", hidden: !inside }, inside);
}
