// This seat's hand (a toolbar of card buttons: tap, click, Enter or the card's number) and
// the choice bar when the card has several takes. Cards and options act through
// data-action ("play-card", "option", "cancel-choice"); keyboard.js moves the focus.

import { h } from "../lib/dom.js";
import { t, num } from "../lib/i18n.js";
import { cardFace, cardLabel, cardName, cardShort, cardTags, withCardNames } from "../lib/cards.js";
import { waysIcon } from "./names.js";
import { canPlay, optionsFor, table, view } from "./state.js";

/** `focusCard`: the card whose button is in the tab order (the focused one, if any). */
export function renderHand(st, { focusCard = null } = {}) {
  const attrs = { class: ["hand"], role: "toolbar", "aria-label": t("table.hand"), "aria-orientation": "horizontal" };
  // A spectator has no hand: the region takes no room (the floor and seats get it).
  if (st.game && st.seat === null) return h("div", { class: ["hand", "spectator"], hidden: true });
  if (!st.game) return h("div", attrs);
  const v = view(st);
  const variant = table(st).variant;
  const mine = canPlay(st);
  attrs.class.push(mine && "my-turn");
  const legalCards = new Set(v.legal.map((p) => p.card));
  const tabCard = st.choice ? st.choice.card : (v.hand.includes(focusCard) ? focusCard : v.hand[0]);
  return h("div", attrs, v.hand.map((card, i) => {
    const options = mine ? optionsFor(st, card) : [];
    const takes = options.length === 1 && options[0].take.length;
    const label = [cardLabel(card, variant)];
    if (options.length > 1) label.push(t("hand.choices", { count: options.length, n: options.length }));
    else if (takes) label.push(t("hand.takes", { cards: options[0].take.map(cardName).join(t("list.and")) }));
    return h("button", {
      type: "button",
      class: ["card", "hand-card", st.choice && st.choice.card === card && "selected", mine && legalCards.has(card) && "playable",
        options.length > 1 && "multi", st.sentCard === card && st.sentVersion !== null && "sending"],
      "aria-label": label.join(t("list.sep")),
      "aria-keyshortcuts": String(i + 1),
      "aria-disabled": mine ? "false" : "true",
      tabindex: card === tabCard ? "0" : "-1",
      dataset: { card, key: card, focusKey: `hand-${card}`, index: String(i + 1), action: "play-card" },
    }, cardFace(card, variant),
    h("span", { class: "key-hint", "aria-hidden": "true" }, num(i + 1)),
    options.length > 1 ? waysBadge(options.length) : null);
  }));
}

/** The count of a card's takes: a pill with a fork and "2 ways", under the card's free
 * bottom-left corner (the index is top left and bottom right), unlike the floor's round
 * option numbers. */
function waysBadge(n) {
  return h("span", { class: "multi-badge", "aria-hidden": "true" }, waysIcon(), h("span", { class: "ways-text" }, t("hand.ways", { count: n, n: num(n) })));
}

export function renderChoice(st) {
  const choice = st.choice;
  if (!choice) return h("div", { class: "choice-bar", hidden: true });
  return h("div", { class: "choice-bar" },
    h("div", { class: "choice-title", id: "choice-title" }, withCardNames(t("choice.title", { card: cardShort(choice.card) }))),
    h("div", { class: "choice-options", role: "group", "aria-labelledby": "choice-title" },
      choice.options.map((option, i) => h("button", {
        type: "button",
        class: ["btn", "choice-option", i === choice.focus && "focus"],
        dataset: { option: String(i), focusKey: `option-${i}`, action: "option", key: `${choice.card}-${i}` },
        "aria-label": t("choice.option_label", { n: i + 1, cards: option.take.map(cardName).join(t("list.and")) }),
        "aria-keyshortcuts": String(i + 1),
      }, h("span", { class: "opt-num" }, num(i + 1)), h("span", { class: "opt-cards" }, cardTags(option.take, " + "))))),
    h("button", { type: "button", class: "btn ghost small", dataset: { focusKey: "choice-cancel", action: "cancel-choice" } }, t("choice.cancel")));
}
