// Quick phrases and reactions at the table, drawn: the Say button in this seat's bar (a
// spectator gets "Hide phrases" instead), the panel it opens (the seven phrases in the
// reader's own language, the five reactions, how many are left, a mute toggle for each
// other person at the table), the bubble by a seat's name for a few seconds, the words a
// screen reader hears; and the page's side of it: sending, muting (kept for the table in
// sessionStorage), hiding (kept in prefs). The state is table/sayings.js's. Buttons act
// through data-action ("say-toggle", "say-close", "say", "react", "mute-seat",
// "hide-phrases"); bots never talk, so they have no mute.

import { h, s } from "../lib/dom.js";
import { t, num } from "../lib/i18n.js";
import { announce, playerName } from "../lib/ui.js";
import { loadPrefs, savePrefs } from "../lib/prefs.js";
import { table } from "./state.js";
import {
  BUBBLE_MS, PHRASES, REACTIONS, bubbleOf, canSay, gapLeft, sayPanel, saySent, sayingsLeft,
  setMutedSeats, setPhrasesHidden, shown,
} from "./sayings.js";
import { seatName } from "./names.js";

const MUTE_KEY = "basra.mute.";

// ---------------------------------------------------------------- what is kept

export function loadMuted(id) {
  try {
    const seats = JSON.parse(sessionStorage.getItem(MUTE_KEY + id) || "[]");
    return Array.isArray(seats) ? seats.filter(Number.isInteger) : [];
  } catch { return []; }
}

function saveMuted(id, seats) {
  try { sessionStorage.setItem(MUTE_KEY + id, JSON.stringify(seats)); } catch { /* storage blocked */ }
}

export function phrasesHidden() {
  return !!loadPrefs().hidePhrases;
}

/** The words of one said thing, in this page's language. */
export function saidText(item) {
  return item.phrase ? t(`phrase.${item.phrase}`) : t(`reaction.${item.reaction}`);
}

// ---------------------------------------------------------------- drawn

/** The reactions' pictures (👏 😄 😮 😢 ❤️), drawn: no emoji font needed. */
const FACE = () => s("circle", { cx: 12, cy: 12, r: 10, class: "face" });
const DARK = "reaction-ink";
const PICTURES = {
  clap: () => [
    s("path", { d: "M4.5 4.5 6 6M12 1.8V4M19.5 4.5 18 6", class: "reaction-lines" }),
    s("rect", { x: 5.5, y: 6.5, width: 7, height: 14, rx: 3.5, transform: "rotate(-16 9 13.5)", class: "palm" }),
    s("rect", { x: 11.5, y: 6.5, width: 7, height: 14, rx: 3.5, transform: "rotate(16 15 13.5)", class: "palm" })],
  laugh: () => [FACE(),
    s("path", { d: "M7 10.2q1.6-2.2 3.2 0M13.8 10.2q1.6-2.2 3.2 0", class: "reaction-lines" }),
    s("path", { d: "M6.8 13.2h10.4a5.2 5.2 0 0 1-10.4 0z", class: DARK })],
  wow: () => [FACE(),
    s("circle", { cx: 8.8, cy: 9.5, r: 1.4, class: DARK }), s("circle", { cx: 15.2, cy: 9.5, r: 1.4, class: DARK }),
    s("ellipse", { cx: 12, cy: 15.6, rx: 2.3, ry: 2.8, class: DARK })],
  sad: () => [FACE(),
    s("circle", { cx: 8.8, cy: 10, r: 1.3, class: DARK }), s("circle", { cx: 15.2, cy: 10, r: 1.3, class: DARK }),
    s("path", { d: "M8.3 17.2q3.7-3.4 7.4 0", class: "reaction-lines" }),
    s("path", { d: "M16.6 12.2q1.7 2.6 0 3.6q-1.7-1 0-3.6z", class: "tear" })],
  heart: () => [s("path", { d: "M12 20.6l-1.3-1.2C5.6 14.8 2.3 11.8 2.3 8 2.3 5 4.6 2.7 7.6 2.7c1.7 0 3.3.8 4.4 2 1.1-1.2 2.7-2 4.4-2 3 0 5.3 2.3 5.3 5.3 0 3.8-3.3 6.8-8.4 11.4z", class: "heart" })],
};

/** A reaction's picture (its words are the button's label). */
export function reactionPicture(id) {
  const draw = PICTURES[id];
  if (!draw) return h("span", { class: "reaction-word" }, t(`reaction.${id}`));
  return s("svg", { class: ["reaction-svg", `reaction-${id}`], viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" }, draw());
}

function speechIcon() {
  return s("svg", { class: "say-icon", viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" },
    s("path", { d: "M4 5h16v10H9l-5 4z" }));
}

/** The bubble by a seat's name while its last phrase shows (null otherwise). */
export function sayBubble(st, seat, now) {
  const item = bubbleOf(st, seat, now);
  if (!item) return null;
  return h("span", { class: ["say-bubble", item.reaction && "reaction"], dataset: { key: `said-${item.id}`, said: item.phrase || item.reaction }, "aria-hidden": "true" },
    item.reaction ? reactionPicture(item.reaction) : saidText(item));
}

/** This seat's Say button (the panel's toggle), or a spectator's Hide phrases. */
export function sayButton(st) {
  if (!st.game || st.closed) return null;
  if (st.seat === null) {
    const hidden = st.sayings.hidden;
    return h("button", { class: ["btn", "ghost", "small", "hide-phrases"], type: "button", "aria-pressed": hidden ? "true" : "false", dataset: { action: "hide-phrases", focusKey: "hide-phrases" } },
      speechIcon(), t("phrases.hide"));
  }
  const open = st.sayings.panel;
  const left = sayingsLeft(st);
  return h("button", {
    class: ["btn", "ghost", "small", "say-toggle", open && "on"], type: "button",
    "aria-expanded": open ? "true" : "false", "aria-controls": "say-panel",
    title: t("phrases.button_label", { count: left, n: num(left) }),
    dataset: { action: "say-toggle", focusKey: "say-toggle", left: String(left) },
  }, speechIcon(), h("span", { class: "say-toggle-text" }, t("phrases.button")),
  // The name starts with the word shown ("Say"), then how many are left.
  h("span", { class: "sr-only" }, t("list.sep"), t("phrases.left", { count: left, n: num(left) })));
}

/** The other people at the table, each with a mute toggle; and a Report for each (the
 * dialog of lib/report.js, opened by events.js). */
function mutes(st) {
  const tb = table(st);
  const others = tb.players.filter((p) => p.kind === "human" && p.seat !== st.seat);
  if (!others.length) return null;
  return [h("div", { class: "say-mutes", role: "group", "aria-label": t("phrases.mutes") }, others.map((p) => {
    const on = st.sayings.muted.includes(p.seat);
    const name = playerName(p, tb.players);
    return h("button", { class: ["btn", "small", "mute-seat", on && "on"], type: "button", "aria-pressed": on ? "true" : "false", dataset: { action: "mute-seat", seat: String(p.seat), focusKey: `mute-${p.seat}` } },
      t("phrases.mute", { name }));
  })),
  h("div", { class: "say-reports", role: "group", "aria-label": t("report.at_table") }, others.map((p) => h("button", {
    class: "btn ghost small report-seat", type: "button", dataset: { action: "report-seat", seat: String(p.seat), focusKey: `report-${p.seat}` },
  }, t("report.player", { name: playerName(p, tb.players) }))))];
}

/** The panel over this seat's bar (hidden while closed). */
export function renderSay(st, { now = 0 } = {}) {
  if (!st.game || st.seat === null || !st.sayings.panel || st.closed) return h("div", { class: "say-host", hidden: true });
  const left = sayingsLeft(st);
  const live = canSay(st, now);
  const off = live ? "false" : "true";
  const note = left === 0 ? t("phrases.none_left") : gapLeft(st, now) > 0 ? t("phrases.wait") : "";
  return h("div", { class: "say-host" },
    h("div", { class: ["say-panel", !live && "resting"], id: "say-panel", role: "group", "aria-labelledby": "say-title", dataset: { left: String(left) } },
      h("div", { class: "say-head" },
        h("h2", { id: "say-title" }, t("phrases.title")),
        h("span", { class: "say-left", dataset: { left: String(left) } }, t("phrases.left", { count: left, n: num(left) })),
        h("button", { class: "btn ghost small say-close", type: "button", "aria-label": t("phrases.close"), dataset: { action: "say-close", focusKey: "say-close" } }, "×")),
      h("div", { class: "say-phrases", role: "group", "aria-label": t("phrases.phrases") }, PHRASES.map((id) => h("button", {
        class: "btn small say-phrase", type: "button", "aria-disabled": off,
        dataset: { action: "say", phrase: id, focusKey: `say-${id}` },
      }, t(`phrase.${id}`)))),
      h("div", { class: "say-reactions", role: "group", "aria-label": t("phrases.reactions") }, REACTIONS.map((id) => h("button", {
        class: "btn small say-reaction", type: "button", "aria-disabled": off, "aria-label": t(`reaction.${id}`), title: t(`reaction.${id}`),
        dataset: { action: "react", reaction: id, focusKey: `react-${id}` },
      }, reactionPicture(id)))),
      h("p", { class: "say-note", role: "status" }, note),
      mutes(st)));
}

/** The log's list of the last things said (not those of muted seats). */
export function renderSaidLog(st) {
  const items = st.sayings.items.filter((item) => shown(st, item.seat)).slice(-5).reverse();
  if (!items.length) return null;
  return [h("h3", { class: "said-title" }, t("phrases.log")),
    h("ul", { class: "said-log" }, items.map((item) => h("li", { dataset: { key: `log-said-${item.id}` } },
      h("span", { class: "log-who" }, seatName(st, item.seat)), " ",
      item.reaction ? h("span", { class: "said-reaction", role: "img", "aria-label": t(`reaction.${item.reaction}`) }, reactionPicture(item.reaction)) : saidText(item))))];
}

// ---------------------------------------------------------------- the page's side

/** Redraw when a bubble, or the gap, is over. */
function redrawIn(page, ms) {
  const timer = setTimeout(() => {
    page.sayTimers.delete(timer);
    page.redraw();
  }, ms + 30);
  page.sayTimers.add(timer);
}

/** A `said` came in (already in the state): read it out, and take its bubble down later. */
export function heard(page, before, now) {
  const items = page.st.sayings.items;
  const item = items[items.length - 1];
  if (item && item !== before.sayings.items[before.sayings.items.length - 1]) {
    announce(t("phrases.said", { name: seatName(page.st, item.seat), text: saidText(item) }));
    redrawIn(page, BUBBLE_MS);
  }
  if (page.st.sayings.sentAt !== before.sayings.sentAt) redrawIn(page, gapLeft(page.st, now));
  page.redraw();
}

/** Send a phrase (`kind` "phrase") or a reaction, if one may go now. */
export function say(page, kind, id) {
  const now = performance.now();
  if (!canSay(page.st, now)) return;
  const message = kind === "phrase" ? { type: "say", phrase: id } : { type: "react", reaction: id };
  if (!page.send(message)) return;
  page.update(saySent(page.st, now));
  redrawIn(page, gapLeft(page.st, now));
}

export function toggleSay(page, open = !page.st.sayings.panel) {
  page.update(sayPanel(page.st, open));
  const target = open ? page.el.say.querySelector(".say-phrase") : page.container.querySelector(".say-toggle");
  if (target) target.focus({ preventScroll: true });
}

export function muteSeat(page, seat) {
  const muted = page.st.sayings.muted;
  const next = muted.includes(seat) ? muted.filter((n) => n !== seat) : [...muted, seat];
  page.update(setMutedSeats(page.st, next));
  saveMuted(page.st.id, page.st.sayings.muted);
}

export function hidePhrases(page) {
  const hidden = !page.st.sayings.hidden;
  savePrefs({ hidePhrases: hidden });
  page.update(setPhrasesHidden(page.st, hidden));
}

/** What the page holds of this table at its start: muted seats, hidden phrases. */
export function keptSayings(st) {
  return setPhrasesHidden(setMutedSeats(st, loadMuted(st.id)), phrasesHidden());
}

/** Clicks outside the open panel (and its toggle) close it. */
export function outside(page, target) {
  if (!page.st.sayings.panel || !target || !target.closest) return;
  if (target.closest(".say-panel") || target.closest(".say-toggle")) return;
  page.update(sayPanel(page.st, false));
}
