// Keyboard play: the arrow keys (mirrored right to left), Home and End move along the hand
// and the choice options; a number key plays that card of the hand, or picks that option
// during a choice; Escape closes the phrase panel, cancels a choice or closes a round's
// summary (which says Continue). Enter and Space are the buttons' own; keys go to a dialog while one is open. One listener on the document: `ctrl` is the table page.

import { isRTL } from "../lib/i18n.js";
import { view } from "./state.js";
import { dialogOpen } from "./dialog.js";
import { toggleSay } from "./phrases.js";
import { activate, cancelChoice, chooseOption } from "./playing.js";
import { readerKey } from "./reader.js";

function arrows() {
  return isRTL() ? { forward: "ArrowLeft", back: "ArrowRight" } : { forward: "ArrowRight", back: "ArrowLeft" };
}

function handKeys(ctrl, event) {
  const buttons = Array.from(ctrl.el.hand.querySelectorAll(".hand-card"));
  const index = buttons.indexOf(document.activeElement);
  if (index < 0) return;
  const { forward, back } = arrows();
  let next = null;
  if (event.key === forward) next = (index + 1) % buttons.length;
  else if (event.key === back) next = (index - 1 + buttons.length) % buttons.length;
  else if (event.key === "Home") next = 0;
  else if (event.key === "End") next = buttons.length - 1;
  if (next !== null) {
    event.preventDefault();
    buttons.forEach((b, i) => { b.tabIndex = i === next ? 0 : -1; });
    buttons[next].focus();
  }
}

function choiceKeys(ctrl, event, i) {
  const n = ctrl.st.choice ? ctrl.st.choice.options.length : 0;
  if (!n) return;
  const { forward, back } = arrows();
  let next = null;
  if (event.key === forward || event.key === "ArrowDown") next = (i + 1) % n;
  if (event.key === back || event.key === "ArrowUp") next = (i - 1 + n) % n;
  if (next !== null) {
    event.preventDefault();
    const button = ctrl.el.choice.querySelector(`[data-option="${next}"]`);
    if (button) button.focus();
  }
}

export function onKeydown(ctrl, event) {
  const st = ctrl.st;
  // A dialog over the table has the keys (Escape closes it, the browser's own).
  if (!st.game || dialogOpen()) return;
  const target = event.target;
  if (target && target.closest) {
    if (target.closest(".hand")) handKeys(ctrl, event);
    const option = target.closest(".choice-option");
    if (option) choiceKeys(ctrl, event, Number(option.dataset.option));
  }
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
  if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT" || target.isContentEditable)) return;
  if (event.key === "Escape") {
    if (st.sayings.panel) { event.preventDefault(); toggleSay(ctrl, false); return; }
    if (st.choice) { event.preventDefault(); cancelChoice(ctrl); return; }
    if (st.overlay && st.overlay.kind === "round") { event.preventDefault(); ctrl.closeOverlay(); return; }
  }
  // Keys inside the phrase panel are its own (a number plays no card from there).
  if (target && target.closest && target.closest(".say-panel")) return;
  // The screen-reader table's keys (H F S T L, the numbers: table/reader.js).
  if (readerKey(ctrl, event)) return;
  if (/^[1-9]$/.test(event.key)) {
    const n = Number(event.key);
    if (st.choice) {
      if (n <= st.choice.options.length) { event.preventDefault(); chooseOption(ctrl, n - 1); }
      return;
    }
    const card = view(st).hand[n - 1];
    if (card && !st.overlay) { event.preventDefault(); activate(ctrl, card); }
  }
}
