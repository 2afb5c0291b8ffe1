// The header's bell, for an account: the count of unread notifications (from the page's
// socket, lib/notify.js), and a panel listing them, newest first (a challenge, with Accept
// and Decline while it is open; a challenge's answer; a tournament starting; what came of a
// report, a moderator's warning, rating points given back), with the way to the friends
// page. Opening the panel marks them read. Escape or a click outside closes
// it and gives the focus back to the bell.

import { h, replace } from "./dom.js";
import { num, t } from "./i18n.js";
import { cachedMe, onSession, request } from "./api.js";
import { link, spinner } from "./ui.js";
import { onNotify, setUnread, unreadCount } from "./notify.js";
import { answerChallenge, termsText } from "./challenge.js";

let panel = null;

function bellButton() { return document.getElementById("bell"); }

function showCount() {
  const bell = bellButton();
  if (!bell) return;
  const count = unreadCount();
  const badge = bell.querySelector(".bell-count");
  badge.textContent = count > 99 ? "99+" : String(count);
  badge.hidden = count === 0;
  const label = count ? t("bell.label_unread", { count, n: count }) : t("bell.label");
  bell.setAttribute("aria-label", label);
  bell.title = label;
}

function showBell(player) {
  const bell = bellButton();
  if (!bell) return;
  bell.hidden = !(player && player.account);
  if (bell.hidden) close();
  showCount();
}

function item(n) {
  const body = n.body || {};
  const c = body.challenge;
  let text;
  let actions = null;
  if (n.kind === "challenge" && c) {
    text = [t("bell.challenge", { name: c.from.name }), " ", h("span", { class: "muted" }, termsText(c))];
    if (c.status === "open" && new Date(c.expires_at) > new Date()) {
      actions = h("div", { class: "bell-actions" },
        h("button", { type: "button", class: "btn primary small", on: { click: async () => { if (await answerChallenge(c, "accept")) close(); } } }, t("challenge.accept")),
        h("button", { type: "button", class: "btn ghost small", on: { click: async () => { if (await answerChallenge(c, "decline")) { c.status = "declined"; render(panel.items); } } } }, t("challenge.decline")));
    }
  } else if (n.kind === "challenge_answered" && c) {
    text = t(c.status === "accepted" ? "challenge.accepted" : "challenge.declined", { name: c.to.name });
    if (c.status === "accepted" && c.table) actions = link(`/table/${encodeURIComponent(c.table)}`, { class: "btn small", on: { click: () => close() } }, t("bell.open_table"));
  } else if (n.kind === "partner" && body.invite) {
    text = [t("bell.partner", { name: body.from ? body.from.name : "" }), " ", h("span", { class: "muted" }, t(`variant.${body.variant}.name`))];
    actions = link(`/partner/${encodeURIComponent(body.invite)}`, { class: "btn small primary", on: { click: () => close() } }, t("bell.open_invite"));
  } else if (n.kind === "tournament") {
    text = t("bell.tournament", { name: body.name || "" });
    if (body.tournament) actions = link(`/tournament/${encodeURIComponent(body.tournament)}`, { class: "btn small" }, t("bell.open_tournament"));
  } else if (n.kind === "report_answered") {
    text = t(body.outcome ? "bell.report_actioned" : "bell.report_dismissed", { name: body.player || "" });
    actions = link("/account", { class: "btn small ghost", on: { click: () => close() } }, t("bell.open_reports"));
  } else if (n.kind === "warning") {
    text = [h("strong", null, t("bell.warning")), body.reason ? [" ", h("bdi", null, body.reason)] : null];
  } else if (n.kind === "refund") {
    const points = Number(body.points) || 0;
    text = t("bell.refund", { count: points, n: num(points), name: body.player || "", variant: body.variant ? t(`variant.${body.variant}.name`) : "" });
  } else {
    text = n.kind;
  }
  return h("li", { class: ["bell-item", !n.read && "unread"], dataset: { kind: n.kind } },
    h("p", null, text), actions);
}

function render(items) {
  if (!panel) return;
  panel.items = items;
  replace(panel.list, items === null ? h("li", { class: "muted" }, spinner())
    : items.length ? items.map(item) : h("li", { class: "muted bell-empty" }, t("bell.empty")));
}

function close() {
  if (!panel) return;
  panel.el.remove();
  document.removeEventListener("keydown", panel.onKey);
  document.removeEventListener("click", panel.onClick, true);
  panel = null;
  const bell = bellButton();
  if (bell) { bell.setAttribute("aria-expanded", "false"); bell.focus(); }
}

async function open() {
  const bell = bellButton();
  const list = h("ul", { class: "bell-list" });
  const el = h("div", { class: "bell-panel", id: "bell-panel", role: "region", "aria-label": t("bell.title") },
    h("div", { class: "bell-head" }, h("h2", null, t("bell.title")),
      link("/friends", { class: "bell-friends", on: { click: () => close() } }, t("friends.title"))),
    list);
  const onKey = (e) => { if (e.key === "Escape") close(); };
  const onClick = (e) => { if (panel && !panel.el.contains(e.target) && !bell.contains(e.target)) close(); };
  panel = { el, list, items: null, onKey, onClick };
  document.body.append(el);
  bell.setAttribute("aria-expanded", "true");
  document.addEventListener("keydown", onKey);
  document.addEventListener("click", onClick, true);
  render(null);
  try {
    const answer = await request("GET", "/api/notifications");
    render(answer.notifications || []);
    if (answer.unread) {
      await request("POST", "/api/notifications/read", {});
      setUnread(0);
    }
  } catch { render([]); }
  el.querySelector("a, button")?.focus();
}

/** Show the bell for accounts, keep its count, open its panel on a click. */
export function startBell() {
  const bell = bellButton();
  if (!bell) return;
  bell.addEventListener("click", () => (panel ? close() : open()));
  onNotify((message) => { if (message.type === "unread" || message.type === "notification") showCount(); });
  showBell(cachedMe());
  onSession(showBell);
}

/** The bell's words in the page's language (a language change). */
export function relabelBell() { showCount(); }
