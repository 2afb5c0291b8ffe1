// The connection banner: lost (with the seconds to the next attempt and a retry button,
// data-action="reconnect"), signed out on this device (the session ended: a link to sign
// in again, back to this table), back for a moment after a reconnect, or hidden. It is a one-line
// strip laid over the top of the page (the stylesheet fixes it there): it never takes room
// from the table, so the hand stays where it was. The strip's short words are shown; the
// whole sentence is its accessible name.

import { h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";

/** `wallNow`: Date.now() (the socket's next attempt is in wall-clock time). */
export function renderBanner(st, { wallNow = 0, online = true } = {}) {
  const attrs = { class: "conn-banner", role: "status" };
  if (st.connection === "reconnecting") {
    const left = Math.max(0, Math.ceil((st.reconnectAt - wallNow) / 1000));
    const [text, short] = !online ? [t("conn.offline"), t("conn.strip_offline")]
      : left > 0 ? [t("conn.lost_retry", { count: left, seconds: left }), t("conn.strip_lost", { count: left, seconds: left })]
        : [t("conn.lost"), t("conn.lost")];
    return h("div", { ...attrs, dataset: { state: "lost" } },
      h("span", { class: "spinner small", "aria-hidden": "true" }),
      h("span", { class: "conn-text", title: text }, h("span", { class: "sr-only" }, text), h("span", { "aria-hidden": "true" }, short)),
      h("button", { class: "btn small", type: "button", dataset: { action: "reconnect" } }, t("conn.retry")));
  }
  if (st.connection === "signed-out") {
    // The session ended (signed out on another device...): no reconnecting, a way back in.
    const next = `/table/${encodeURIComponent(st.id)}`;
    return h("div", { ...attrs, dataset: { state: "signed-out" } },
      h("span", { class: "conn-text", title: t("account.signed_out_here") }, t("account.signed_out_here")),
      h("a", { class: "btn small", href: `/sign-in?next=${encodeURIComponent(next)}`, dataset: { action: "nav" } }, t("signin.link")));
  }
  if (st.flash) return h("div", { ...attrs, dataset: { state: "back" } }, h("span", { class: "conn-text" }, t("conn.back")));
  return h("div", { ...attrs, hidden: true, dataset: { state: "" } });
}

/** The seconds the banner shows (it is redrawn when they change). */
export function bannerSecond(st, wallNow) {
  return st.connection === "reconnecting" ? Math.ceil((st.reconnectAt - wallNow) / 1000) : null;
}
