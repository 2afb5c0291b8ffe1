// The head's tools that ask the server: Resign (confirmed first), and the hint of a bot game:
// a Hint button in the head, live on the player's turn, asks the
// server (`hint`) for the medium bot's suggestion; its card in the hand and its take on the
// floor are marked (data-hint) until the player plays, and the announcer says it. The
// buttons act through data-action ("resign", "hint"); `page` is the table page. At a practice
// table (hints on, table/hint.js) the hint is chosen in the page and says why.

import { h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { cardName } from "../lib/cards.js";
import { canPlay, hintAsked, inMatch, table } from "./state.js";
import { confirmDialog } from "./dialog.js";
import { hintsOn, practiceHint } from "./hint.js";

export async function resign(page) {
  // At a rated table, what resigning costs is said too.
  const rated = page.st.game && table(page.st).rated ? h("p", { class: "resign-rated" }, t("resign.rated")) : null;
  const ok = await confirmDialog({ title: t("resign.title"), text: [t("resign.text"), rated], yes: t("resign.yes"), no: t("resign.no"), danger: true });
  if (ok && inMatch(page.st)) page.send({ type: "resign" });
}

/** The waiting room: the creator gives the table up (asked first). */
export async function cancelTable(page) {
  const ok = await confirmDialog({ title: t("wait.cancel_title"), text: t("wait.cancel_text"), yes: t("wait.cancel"), no: t("resign.no"), danger: true });
  if (ok) page.send({ type: "cancel" });
}

/** Ask for a hint, once a turn. */
export function askHint(page) {
  const st = page.st;
  if (!canPlay(st) || st.hintAsked !== null || st.hint) return;
  // A practice table (the learn page's): the hint is chosen here and says why (hint.js).
  if (hintsOn(st.id)) { practiceHint(page); return; }
  if (page.send({ type: "hint" })) page.update(hintAsked(st));
}

/** The head's Hint button (bot games only; there on every turn, so nothing moves). */
export function hintButton(st) {
  const tb = table(st);
  if (!tb || tb.kind !== "bot" || st.seat === null || tb.status !== "playing") return null;
  const live = canPlay(st) && st.hintAsked === null && !st.hint;
  return h("button", { class: ["btn", "ghost", "small", "hint-button", st.hint && "on"], type: "button", disabled: !live, "aria-pressed": st.hint ? "true" : undefined, title: st.hint ? hintText(st.hint) : undefined, dataset: { action: "hint", focusKey: "hint" } },
    h("span", { class: "hint-bulb", "aria-hidden": "true" }), t("hint.button"));
}

export function hintText(hint) {
  return hint.take.length ? t("hint.take", { card: cardName(hint.card), cards: hint.take.map(cardName).join(t("list.and")) })
    : t("hint.lay", { card: cardName(hint.card) });
}

/** Mark the hinted card and take (after each redraw, which rebuilds the regions). */
export function markHint(page) {
  const hint = page.st.hint;
  if (!hint) return;
  const card = page.el.hand.querySelector(`[data-card="${CSS.escape(hint.card)}"]`);
  if (card) {
    card.dataset.hint = "card";
    card.setAttribute("aria-description", hintText(hint));
  }
  for (const c of hint.take) {
    const el = page.el.floor.querySelector(`[data-card="${CSS.escape(c)}"]`);
    if (el) el.dataset.hint = "take";
  }
}
