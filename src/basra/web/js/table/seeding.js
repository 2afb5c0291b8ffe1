// This seat's part of each round's client seed (FAIRNESS.md, "Seat parts"): the moment the
// first round waits for parts (a later one: when the player says Continue) a fresh one goes
// out for that round, never one used before; after
// a reconnect (or from a new tab) only when the server holds none of this browser's parts
// for the round. The player's own text goes into every part after it is set. `ctrl` is the
// table page: its state (ctrl.st), evidence (ctrl.ev) and socket.

import { t, num } from "../lib/i18n.js";
import { toast } from "../lib/ui.js";
import { cleanText, freshPart, ownTextBytes } from "../lib/fairness.js";
import { partDue, partIn, partSent, pendingRound, saidReady, table } from "./state.js";

/** Send a fresh part for `round`; false when the socket is not open. */
export function sendPart(ctrl, round) {
  const part = freshPart(ctrl.ev.ownText);
  if (!ctrl.socket || !ctrl.socket.send({ type: "seed", round, client_seed: part })) return false;
  ctrl.st = partSent(ctrl.st, round);
  ctrl.ev.addPart(round, part);
  ctrl.lastParts = [...ctrl.lastParts.slice(-7), { round, part }];
  return true;
}

/** The server refused a part because it came too late for its round
 * (`seed/round_started`, `seed/wrong_round`: the round was dealt without it, so it is no
 * part this page sent). Refusals come in the order the parts went, and a part after a late
 * one is late too: the refused one is the latest not yet refused. */
export function partRefused(ctrl) {
  const sent = ctrl.lastParts.pop();
  if (sent) ctrl.ev.dropPart(sent.round, sent.part);
}

/** Send this seat's part if the pending round still needs one (`force`: a new one anyway).
 * Only the first round's goes out by itself: a later one waits for the player to have seen
 * the summary (Continue, `ready`), or for the window to end. */
export function seedRound(ctrl, { force = false } = {}) {
  const st = ctrl.st;
  const round = pendingRound(st);
  if (round === null || st.seat === null || !partDue(st)) return;
  if (!force) {
    ctrl.ev.merge();
    if (partIn(st, ctrl.ev.partsFor(round))) return;
  }
  sendPart(ctrl, round);
}

/** The player asks for the deal: a part says ready too; without one (it could not be sent),
 * send it now. */
export function ready(ctrl) {
  const tb = table(ctrl.st);
  if (!tb || tb.phase !== "seeding") return;
  const round = pendingRound(ctrl.st);
  const before = ctrl.st;
  ctrl.st = saidReady(ctrl.st);
  if (round !== null && !partIn(before, ctrl.ev.partsFor(round))) sendPart(ctrl, round);
  else ctrl.send({ type: "ready" });
}

/** The player's own text for their part: kept, and (during a seed window) a new fresh part
 * with it is sent for the pending round at once. */
export function useText(ctrl, value) {
  const raw = String(value).trim();
  if (raw.includes("|") || /[\u0000-\u001f\u007f-\u009f]/.test(raw)) {
    toast(t("fair.text_bad"), "error");
    return;
  }
  // Kept whole; each part takes its first own_text_bytes (freshPart cuts it).
  const text = cleanText(raw, 4 * ownTextBytes());
  ctrl.ev.setOwnText(text);
  ctrl.seedDirty = false;
  if (ctrl.el.seedInput) ctrl.el.seedInput.value = text;
  const round = pendingRound(ctrl.st);
  if (round !== null && ctrl.st.seat !== null && partDue(ctrl.st)) {
    if (sendPart(ctrl, round)) toast(t("fair.text_sent", { n: num(round) }), "info", 2500);
  } else {
    toast(t("fair.text_next"), "info", 2500);
  }
}
