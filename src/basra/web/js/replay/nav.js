// Moving through a replay: the buttons (the round's deal, back, forward, the round's end;
// the previous and next round), the scrubber over the round's steps, the keys (Left/Right a
// play, mirrored right to left; Home/End the round's deal and end; Up/Down or
// PageUp/PageDown a round) and a swipe on touch (towards the start of the line: forward).
// Buttons act through data-action (the page's one click handler); a button at the end of its
// way is aria-disabled, so the focus never falls off it.

import { h, s } from "../lib/dom.js";
import { t, num, isRTL } from "../lib/i18n.js";
import { stepCount } from "./model.js";

const ICONS = {
  start: "M6 5v14M19 5l-9 7 9 7z",
  back: "M16 5l-9 7 9 7z",
  forward: "M8 5l9 7-9 7z",
  end: "M18 5v14M5 5l9 7-9 7z",
  before: "M15 5l-7 7 7 7",
  after: "M9 5l7 7-7 7",
};

function icon(name) {
  const line = name === "before" || name === "after";
  return s("svg", { class: ["replay-icon", line && "line"], viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" }, s("path", { d: ICONS[name] }));
}

function button(action, label, { disabled = false, text = null, iconName = null, cls = null } = {}) {
  return h("button", {
    type: "button", class: ["btn", "replay-btn", cls], "aria-label": label, title: label,
    "aria-disabled": disabled ? "true" : "false", dataset: { action, focusKey: action, key: action },
  }, iconName === "after" ? null : iconName ? icon(iconName) : null,
  text ? h("span", { class: "replay-btn-text" }, text) : null,
  iconName === "after" ? icon(iconName) : null);
}

/** Where the position stands, in words: "Play 17 of 48", or "The deal". */
export function placeWords(replay, pos) {
  const plays = stepCount(replay, pos.r) - 1;
  return pos.s === 0 ? t("replay.place.deal", { count: plays, n: num(plays) })
    : t("replay.place.play", { k: num(pos.s), n: num(plays), count: plays });
}

export function renderControls(replay, pos) {
  const last = stepCount(replay, pos.r) - 1;
  const atStart = pos.r === 0 && pos.s === 0;
  const atEnd = pos.r === replay.rounds.length - 1 && pos.s === last;
  const rounds = replay.rounds.length;
  return h("div", { class: "replay-controls", role: "group", "aria-label": t("replay.controls"), dataset: { key: "controls" } },
    h("div", { class: "replay-steps-row" },
      button("start", t("replay.nav.start"), { disabled: pos.s === 0, iconName: "start" }),
      button("back", t("replay.nav.back"), { disabled: atStart, iconName: "back", cls: "replay-back" }),
      h("div", { class: "replay-place", "aria-hidden": "true" },
        h("span", { class: "replay-place-round" }, t("replay.round_of", { r: num(pos.r + 1), n: num(rounds) })),
        h("span", { class: "replay-place-step" }, placeWords(replay, pos))),
      button("forward", t("replay.nav.forward"), { disabled: atEnd, iconName: "forward", cls: "replay-forward" }),
      button("end", t("replay.nav.end"), { disabled: pos.s === last, iconName: "end" })),
    h("div", { class: "replay-rounds-row" },
      button("prev-round", t("replay.nav.prev_round"), { disabled: pos.r === 0, iconName: "before", text: pos.r > 0 ? t("table.round", { n: num(pos.r) }) : null, cls: "small" }),
      h("input", {
        type: "range", class: "replay-scrubber", min: 0, max: last, step: 1, value: pos.s,
        "aria-label": t("replay.scrubber", { n: num(pos.r + 1) }), "aria-valuetext": placeWords(replay, pos),
        dataset: { focusKey: "scrubber", key: "scrubber", action: "scrub" },
      }),
      button("next-round", t("replay.nav.next_round"), { disabled: pos.r === rounds - 1, iconName: "after", text: pos.r < rounds - 1 ? t("table.round", { n: num(pos.r + 2) }) : null, cls: "small" })));
}

/** The move a key asks for ("forward", "back", "start", "end", "prev-round", "next-round"),
 * or null. Right to left, the arrows follow the page: Left goes forward. */
export function keyAction(event) {
  if (event.altKey || event.ctrlKey || event.metaKey) return null;
  const rtl = isRTL();
  switch (event.key) {
    case "ArrowRight": return rtl ? "back" : "forward";
    case "ArrowLeft": return rtl ? "forward" : "back";
    case "Home": return "start";
    case "End": return "end";
    case "ArrowUp": case "PageUp": return "prev-round";
    case "ArrowDown": case "PageDown": return "next-round";
    default: return null;
  }
}

/** Where the page's keys must not move the replay: typing, a control of its own. */
export function keyOwnedByTarget(target) {
  if (!target || !target.closest) return false;
  return !!target.closest("input, textarea, select, [contenteditable], dialog");
}

/** A horizontal swipe that starts inside `within` (a selector) under `el` calls
 * `move("forward" | "back")`: a finger moving towards the line's start (leftwards, or
 * rightwards right to left) goes forward. Returns the detach. */
export function swipe(el, within, move) {
  let start = null;
  const down = (event) => {
    const touch = event.changedTouches[0];
    const inside = event.target && event.target.closest && event.target.closest(within);
    start = touch && inside && event.touches.length === 1 ? { x: touch.clientX, y: touch.clientY } : null;
  };
  const up = (event) => {
    const touch = event.changedTouches[0];
    if (!start || !touch) return;
    const dx = touch.clientX - start.x;
    const dy = touch.clientY - start.y;
    start = null;
    if (Math.abs(dx) < 40 || Math.abs(dx) < Math.abs(dy) * 1.5) return;
    const towardsStart = isRTL() ? dx > 0 : dx < 0;
    move(towardsStart ? "forward" : "back");
  };
  const cancel = () => { start = null; };
  el.addEventListener("touchstart", down, { passive: true });
  el.addEventListener("touchend", up, { passive: true });
  el.addEventListener("touchcancel", cancel, { passive: true });
  return () => {
    el.removeEventListener("touchstart", down);
    el.removeEventListener("touchend", up);
    el.removeEventListener("touchcancel", cancel);
  };
}
