// This seat's plays: a hand card tapped, clicked or keyed is played at once when it has one
// legal play, or opens the choice bar when it has several takes (a nudge and a word when it
// is not this seat's turn); a take is chosen from the bar, by its number or on the floor;
// Escape cancels the choice. Only entries of view.legal are ever sent, on the version they
// came with (state.playMessage). Reached through events.js and keyboard.js; `page` is the
// table page (table.js).

import { h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { cardName, cardShort, withCardNames } from "../lib/cards.js";
import { setting } from "../lib/settings.js";
import { confirmDialog } from "./dialog.js";
import * as S from "./state.js";
import * as motion from "./motion.js";
import { announce, toast } from "../lib/ui.js";

export function activate(page, card) {
  const st = page.st;
  if (!st.game) return;
  if (!S.myTurn(st)) {
    motion.nudge(page, card);
    if (S.table(st).status === "playing") toast(t("hand.not_your_turn"), "info", 1800);
    return;
  }
  const { state, play: chosen } = S.pick(st, card);
  if (chosen) { play(page, chosen); return; }
  if (state === st) return;
  page.update(state);
  const n = state.choice.options.length;
  announce(t("choice.announce", { count: n, n, card: cardName(card) }));
  const first = page.el.choice.querySelector(".choice-option");
  if (first) first.focus();
}

/** The "confirm before playing" setting: "Play 7♦ taking 3♣ 4♥?", Cancel focused (Escape
 * cancels too); true to send. */
async function confirmed(page, option) {
  if (!setting("confirmPlay")) return true;
  if (page.confirming) return false;
  page.confirming = true;
  try {
    const card = cardShort(option.card);
    const text = option.take.length
      ? t("settings.confirm.take", { card, cards: option.take.map(cardShort).join(" ") })
      : t("settings.confirm.lay", { card });
    return await confirmDialog({ title: t("settings.confirm.title"), text: h("p", null, withCardNames(text)), yes: t("settings.confirm.yes"), no: t("settings.confirm.no") });
  } finally { page.confirming = false; }
}

/** Send a play: only ever one of view.legal, on the version it came with (asked first when
 * the player wants to confirm each play; the state then may have moved on). */
async function play(page, option) {
  if (!(await confirmed(page, option)) || page.destroyed) return;
  const message = S.playMessage(page.st, option);
  if (!message || !page.send(message)) return;
  page.update(S.playSent(page.st, message));
}

export function chooseOption(page, i) {
  const { play: chosen } = S.chooseOption(page.st, i);
  if (chosen) play(page, chosen);
}

export function cancelChoice(page) {
  const choice = page.st.choice;
  if (!choice) return;
  page.update(S.cancelChoice(page.st));
  const el = page.el.hand.querySelector(`[data-card="${choice.card}"]`);
  if (el) el.focus();
}

export function floorClick(page, card) {
  const { state, play: chosen } = S.floorPick(page.st, card);
  if (chosen) { play(page, chosen); return; }
  if (state === page.st) return;
  page.update(state);
  const b = page.el.choice.querySelector(`[data-option="${state.choice.focus}"]`);
  if (b) b.focus();
}
