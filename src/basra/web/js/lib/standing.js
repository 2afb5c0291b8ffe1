// A player's standing with the site (issue 31), as GET /api/me tells it: the banner asking
// for a new username when a moderator required one (PUT /api/me/username, over every page),
// the header's link to /mod for a moderator, the wait after leaving matches ("quick match
// and tournaments open again in 4:32", ticking each second wherever it is shown), a
// refusal of fair play's in words, and a profile's completion rate.

import { h, replace } from "./dom.js";
import { num, t } from "./i18n.js";
import { cachedMe, changeUsername, onSession } from "./api.js";
import { announce, errorText, toast } from "./ui.js";

/** Whether `player` (a /api/me body) is a moderator. */
export function isModerator(player = cachedMe()) {
  return !!(player && player.standing && player.standing.role === "moderator");
}

// ---------------------------------------------------------------- the leaver's wait

/** "4:32" (or "1:04:32") until `until` (an ISO time), "0:00" once it is past. */
export function clockUntil(until, now = Date.now()) {
  const seconds = Math.max(0, Math.ceil((Date.parse(until) - now) / 1000));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = String(seconds % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

function waitText(until, left) {
  if (Date.parse(until) <= Date.now()) return t("fairplay.wait_over");
  return t("fairplay.leaver_wait", { count: left, n: num(left), time: clockUntil(until) });
}

let ticker = 0;

function tick() {
  const items = document.querySelectorAll("[data-wait-until]");
  if (!items.length) { clearInterval(ticker); ticker = 0; return; }
  for (const el of items) {
    const text = waitText(el.dataset.waitUntil, Number(el.dataset.left) || 0);
    if (el.textContent !== text) el.textContent = text;
  }
}

/** The wait a player who left matches has before quick match and tournaments take them
 * again, in words with a live countdown; null when there is none (or it is over). */
export function leaverNotice(player = cachedMe()) {
  const leaver = player && player.leaver;
  if (!leaver || !leaver.wait_until || Date.parse(leaver.wait_until) <= Date.now()) return null;
  if (!ticker) ticker = setInterval(tick, 1000);
  const left = Number(leaver.left) || 0;
  // A timer (its own live region is off): the words are read when reached, not every second.
  return h("p", { class: "leaver-wait", dataset: { key: "leaver-wait" } },
    h("span", { role: "timer", dataset: { waitUntil: leaver.wait_until, left: String(left) } }, waitText(leaver.wait_until, left)));
}

/** Whether `err` is fair play's refusal of a join (a leaver's wait, a ban). */
export function fairplayRefusal(err) {
  return !!(err && (err.code === "fairplay/leaver_wait" || err.code === "fairplay/banned"));
}

/** A refusal in words: a leaver's wait with its time (the /api/me just asked for, else the
 * server's own line), a ban, or any other API error. */
export function refusalWords(err, player = cachedMe()) {
  if (err && err.code === "fairplay/leaver_wait") {
    const leaver = player && player.leaver;
    if (leaver && leaver.wait_until && Date.parse(leaver.wait_until) > Date.now()) return waitText(leaver.wait_until, Number(leaver.left) || 0);
    return err.message || errorText(err);
  }
  return errorText(err);
}

// ---------------------------------------------------------------- a profile's completion

/** "Finished 96% of matches (48 finished, 2 left before the end)", or null with no match. */
export function completionLine(completion) {
  if (!completion || completion.rate === null || completion.rate === undefined) return null;
  const percent = Math.round(Number(completion.rate) * 100);
  const finished = Number(completion.finished) || 0;
  const left = Number(completion.left) || 0;
  return h("p", { class: ["profile-completion", percent < 80 && "low"], dataset: { rate: String(percent) } },
    h("strong", null, t("profile.completion", { percent: num(percent) })), " ",
    h("span", { class: "muted" }, t("profile.completion_detail", { finished: num(finished), count: left, n: num(left) })));
}

// ---------------------------------------------------------------- the banner and the link

let banner = null;
let draft = "";
let error = "";
let busy = false;

function renameForm(player) {
  const input = h("input", {
    id: "new-username", type: "text", autocomplete: "username", autocapitalize: "none", spellcheck: "false",
    dir: "auto", required: true, maxlength: 32, "aria-describedby": "new-username-hint new-username-error",
    "aria-invalid": error ? "true" : undefined, props: { value: draft },
    on: { input: (e) => { draft = e.target.value; } },
  });
  const submit = async (event) => {
    event.preventDefault();
    const username = draft.trim();
    if (!username || busy) return;
    busy = true;
    error = "";
    try {
      const answer = await changeUsername(username);
      draft = "";
      const done = t("standing.rename_done", { name: answer.username || answer.nickname || username });
      toast(done, "info", 6000);
      announce(done);
    } catch (err) {
      error = errorText(err);
    }
    busy = false;
    show(cachedMe());
    if (error) document.getElementById("new-username")?.focus();
  };
  return h("form", { class: "standing-form", on: { submit } },
    h("label", { for: "new-username" }, t(player.account ? "standing.rename_label" : "standing.rename_label_guest")),
    h("div", { class: "row" }, input, h("button", { type: "submit", class: "btn primary" }, t("standing.rename_save"))),
    h("p", { class: "hint", id: "new-username-hint" }, player.account
      ? t("standing.rename_hint", { name: player.username || "" }) : t("standing.rename_now", { name: player.nickname || "" })),
    h("p", { class: "field-error", id: "new-username-error", role: "alert" }, error));
}

function show(player) {
  const link = document.querySelector(".site-nav a[data-nav='mod']");
  if (link) link.hidden = !isModerator(player);
  const wanted = !!(player && player.standing && player.standing.rename);
  if (!wanted) {
    if (banner) banner.remove();
    banner = null;
    return;
  }
  const focused = banner && banner.contains(document.activeElement) ? document.activeElement.id : "";
  if (!banner) {
    banner = h("aside", { class: "standing-banner", "aria-labelledby": "standing-title" });
    const main = document.getElementById("app");
    if (main) main.before(banner);
  }
  replace(banner, h("div", { class: "standing-inner" },
    h("h2", { id: "standing-title" }, t(player.account ? "standing.rename_title" : "standing.rename_title_guest")),
    h("p", null, t("standing.rename_text")),
    renameForm(player)));
  if (focused) document.getElementById(focused)?.focus();
}

/** Follow the session: the banner and the moderators' link as its standing says. */
export function startStanding() {
  show(cachedMe());
  onSession(show);
}

/** The banner's words in the page's language. */
export function relabelStanding() { show(cachedMe()); }
