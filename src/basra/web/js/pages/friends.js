// /friends, for an account: the players it follows, each online, playing (with a link to
// watch) or offline, kept live by the page's socket (presence); a challenge or an unfollow
// from each; finding players by name to follow; how many follow you; whom you block (with
// unblock); who may challenge you; and notifications when the page is closed (Web Push,
// opt-in, where the browser allows). A guest is shown the way to an account.

import { h, replace } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { cachedMe, onSession, request } from "../lib/api.js";
import { errorText, link, loadStyle, spinner, toast } from "../lib/ui.js";
import { onNotify } from "../lib/notify.js";
import { challengeDialog } from "../lib/challenge.js";
import { pushState, turnPush } from "../lib/push.js";

const STYLE = new URL("../../css/friends.css", import.meta.url);

export function mount(container) {
  let alive = true;
  let data = null;
  let failed = null;
  let found = null;
  let query = "";
  let push = "unknown";
  container.classList.add("page", "friends-page");

  const load = async () => {
    const me = cachedMe();
    if (!me || !me.account) { render(); return; } // a guest: the way to an account, no request
    try {
      data = await request("GET", "/api/friends");
      failed = null;
    } catch (err) { failed = err; }
    render();
  };

  const act = async (fn, done) => {
    try {
      await fn();
      if (done) toast(done, "info");
    } catch (err) { toast(errorText(err), "error"); }
    await load();
  };

  const follow = (username) => act(() => request("POST", `/api/follows/${encodeURIComponent(username)}`));
  const unfollow = (username) => act(() => request("DELETE", `/api/follows/${encodeURIComponent(username)}`));
  const unblock = (username) => act(() => request("DELETE", `/api/blocks/${encodeURIComponent(username)}`));

  const search = async (text) => {
    query = text.trim();
    if (query.length < 2) { found = null; render(); return; }
    try {
      found = (await request("GET", `/api/players?search=${encodeURIComponent(query)}`)).players || [];
    } catch (err) { found = []; toast(errorText(err), "error"); }
    render();
    container.querySelector("#friend-search")?.focus();
  };

  const friendItem = (f) => h("li", { class: ["friend", `friend-${f.status}`], dataset: { username: f.username, status: f.status } },
    h("span", { class: "presence-dot", "aria-hidden": "true" }),
    h("span", { class: "friend-who" },
      link(`/players/${encodeURIComponent(f.username)}`, { class: "friend-name" }, h("bdi", null, f.name)),
      h("span", { class: "friend-status muted" }, t(`friends.status.${f.status}`))),
    h("span", { class: "friend-actions" },
      f.table ? link(`/table/${encodeURIComponent(f.table)}`, { class: "btn small", "aria-label": t("friends.watch_label", { name: f.name }) }, t("friends.watch")) : null,
      h("button", { type: "button", class: "btn small primary", "aria-label": t("friends.challenge_label", { name: f.name }), on: { click: () => challengeDialog(f.username, f.name) } }, t("friends.challenge")),
      h("button", { type: "button", class: "btn small ghost", "aria-label": t("friends.unfollow_label", { name: f.name }), on: { click: () => unfollow(f.username) } }, t("friends.unfollow"))));

  const searchBox = () => {
    const following = new Set((data ? data.friends : []).map((f) => f.username.toLowerCase()));
    const mine = (cachedMe() || {}).username || "";
    const input = h("input", { id: "friend-search", type: "search", autocomplete: "off", value: query, minlength: 2, maxlength: 32, placeholder: t("friends.search_placeholder") });
    return h("section", { class: "card-box friends-search", "aria-labelledby": "friends-find" },
      h("h2", { id: "friends-find" }, t("friends.find")),
      h("form", { class: "row", role: "search", on: { submit: (e) => { e.preventDefault(); search(input.value); } } },
        h("label", { class: "sr-only", for: "friend-search" }, t("friends.search_label")), input,
        h("button", { type: "submit", class: "btn" }, t("friends.search"))),
      found === null ? null : found.length === 0 ? h("p", { class: "muted", role: "status" }, t("friends.none_found", { text: query }))
        : h("ul", { class: "friend-results", "aria-live": "polite" }, found.map((p) => h("li", { class: "friend" },
          link(`/players/${encodeURIComponent(p.username)}`, { class: "friend-name" }, h("bdi", null, p.name)),
          p.username.toLowerCase() === mine.toLowerCase() ? h("span", { class: "muted" }, t("profile.you"))
            : following.has(p.username.toLowerCase()) ? h("span", { class: "muted" }, t("friends.following"))
              : h("button", { type: "button", class: "btn small", "aria-label": t("friends.follow_label", { name: p.name }), on: { click: () => follow(p.username) } }, t("friends.follow"))))));
  };

  const settingsBox = () => h("section", { class: "card-box friends-settings", "aria-labelledby": "friends-settings" },
    h("h2", { id: "friends-settings" }, t("friends.settings")),
    h("label", { class: "field" }, h("span", null, t("friends.who_challenges")),
      h("select", { id: "challenge-policy", on: { change: (e) => act(() => request("PUT", "/api/me/social", { challenges: e.target.value }), t("friends.saved")) } },
        ["anyone", "friends", "nobody"].map((p) => h("option", { value: p, selected: data.challenges === p }, t(`friends.policy.${p}`))))),
    h("div", { class: "push-option" },
      h("p", { class: "hint" }, t(`push.${push}`)),
      push === "off" || push === "on" ? h("button", { type: "button", class: "btn small", id: "push-toggle", on: { click: async () => { push = await turnPush(push !== "on"); render(); } } }, t(push === "on" ? "push.turn_off" : "push.turn_on")) : null),
    data.blocked.length ? [h("h3", null, t("friends.blocked")),
      h("ul", { class: "friend-list" }, data.blocked.map((p) => h("li", { class: "friend" },
        h("bdi", null, p.name),
        h("button", { type: "button", class: "btn small ghost", on: { click: () => unblock(p.username) } }, t("friends.unblock")))))] : null);

  const render = () => {
    if (!alive) return;
    const me = cachedMe();
    const title = h("h1", null, t("friends.title"));
    if (!me || !me.account) {
      replace(container, title, h("p", null, t("friends.account_needed")),
        h("p", null, link("/account", { class: "btn primary" }, t("rated.create_account"))));
      return;
    }
    if (failed) { replace(container, title, h("p", { class: "field-error", role: "alert" }, errorText(failed))); return; }
    if (!data) { replace(container, title, h("p", { class: "muted" }, spinner(), " ", t("lobby.loading"))); return; }
    const counts = h("p", { class: "muted friends-counts" }, t("friends.counts", { following: data.friends.length, followers: data.followers, count: data.followers }));
    replace(container, title, counts,
      h("section", { class: "card-box friends-list", "aria-labelledby": "friends-following" },
        h("h2", { id: "friends-following" }, t("friends.following_title")),
        data.friends.length ? h("ul", { class: "friend-list", "aria-live": "polite" }, data.friends.map(friendItem))
          : h("p", { class: "muted" }, t("friends.empty"))),
      searchBox(), settingsBox());
  };

  const unlisten = onNotify((message) => {
    if (message.type !== "presence" || !data) return;
    const who = message.player && message.player.username;
    const friend = data.friends.find((f) => f.username === who);
    if (!friend) return;
    friend.status = message.online ? "online" : "offline";
    render();
    toast(t(message.online ? "friends.came_online" : "friends.went_offline", { name: friend.name }), "info", 2500);
  });
  const unsession = onSession(() => { data = null; load(); });
  render();
  loadStyle(STYLE);
  pushState().then((state) => { push = state; if (data) render(); });
  load();
  return { unmount() { alive = false; unlisten(); unsession(); }, relabel: render };
}
