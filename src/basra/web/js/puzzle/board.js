// A puzzle's position on the table's look: the other hand (known by counting, face up),
// the floor, the round so far for each side, and your hand as card buttons; a card with
// several takes opens the table's choice bar. Tapping acts through `onPlay(play)` with the
// play's text ("7D:3C+4H"); `hint` marks a card; `laid` marks the cards of the play just
// made.

import { h } from "../lib/dom.js";
import { t, num } from "../lib/i18n.js";
import { cardFace, cardLabel, cardName, cardShort, cardTags, withCardNames } from "../lib/cards.js";

function sideChip(position, seat) {
  const side = position.sides[seat];
  const mine = seat === position.you;
  return h("div", { class: ["side-chip", mine && "mine", position.turn === seat && "turn"] },
    h("span", { class: "side-name" }, mine ? t("puzzle.you") : t("puzzle.them")),
    h("span", { class: "side-total" }, num(side.points)),
    h("span", { class: "side-meta" },
      h("span", { class: "meta-pile" }, t("puzzle.cards_taken", { count: side.cards, n: num(side.cards) })),
      side.basras ? h("span", { class: "meta-basra" }, t("puzzle.basras", { count: side.basras, n: num(side.basras) })) : null));
}

/** The round so far: each side's points (cards and basras) and cards taken. */
export function scoreBar(position) {
  const seats = [position.you, 1 - position.you];
  return h("div", { class: "scorebar puzzle-score", role: "group", "aria-label": t("puzzle.score_label") },
    seats.map((seat) => sideChip(position, seat)));
}

function optionsOf(position, card) {
  return position.legal.filter((p) => p.card === card);
}

/** The position. `state`: { choosing: card or null, hint: card or null, laid: [cards],
 * busy: bool }; `on`: { play(text), choose(card), cancel() }. */
export function renderBoard(position, state, on) {
  const variant = position.variant;
  const theirs = position.opponent_hand;
  const myTurn = position.turn === position.you && !state.busy;
  const laid = new Set(state.laid || []);
  const other = h("div", { class: "puzzle-other", role: "group", "aria-label": t("puzzle.their_hand", { count: theirs.length, n: num(theirs.length) }) },
    h("span", { class: "puzzle-other-label" }, t("puzzle.their_hand_short")),
    h("div", { class: "puzzle-other-cards" }, theirs.length
      ? theirs.map((card) => h("div", { class: "card puzzle-small", role: "img", "aria-label": cardLabel(card, variant) }, cardFace(card, variant)))
      : h("span", { class: "muted" }, t("puzzle.no_cards"))));
  const floor = h("div", { class: ["floor", "puzzle-floor", position.floor.length === 0 && "empty"], role: position.floor.length ? "list" : "group", "aria-label": t("table.floor") },
    position.floor.map((card) => h("div", {
      class: ["card", "floor-card", laid.has(card) && "puzzle-laid"], role: "listitem", "aria-label": cardLabel(card, variant),
    }, cardFace(card, variant))));
  const hand = h("div", { class: ["hand", "puzzle-hand", myTurn && "my-turn"], role: "toolbar", "aria-label": t("table.hand") },
    position.hand.map((card, i) => {
      const options = myTurn ? optionsOf(position, card) : [];
      const label = [cardLabel(card, variant)];
      if (options.length > 1) label.push(t("hand.choices", { count: options.length, n: options.length }));
      else if (options.length === 1 && options[0].take.length) label.push(t("hand.takes", { cards: options[0].take.map(cardName).join(t("list.and")) }));
      return h("button", {
        type: "button",
        class: ["card", "hand-card", myTurn && "playable", state.choosing === card && "selected"],
        "aria-label": label.join(t("list.sep")),
        "aria-disabled": myTurn ? "false" : "true",
        "aria-keyshortcuts": String(i + 1),
        dataset: state.hint === card ? { card, hint: "card" } : { card },
        on: { click: () => {
          if (!myTurn) return;
          if (options.length > 1) on.choose(card);
          else if (options.length === 1) on.play(options[0].play);
        } },
      }, cardFace(card, variant), h("span", { class: "key-hint", "aria-hidden": "true" }, num(i + 1)));
    }));
  let choice = null;
  if (state.choosing && myTurn) {
    const options = optionsOf(position, state.choosing);
    choice = h("div", { class: "choice-bar" },
      h("div", { class: "choice-title", id: "puzzle-choice-title" }, withCardNames(t("choice.title", { card: cardShort(state.choosing) }))),
      h("div", { class: "choice-options", role: "group", "aria-labelledby": "puzzle-choice-title" },
        options.map((option, i) => h("button", {
          type: "button", class: "btn choice-option", dataset: { play: option.play },
          "aria-label": t("choice.option_label", { n: i + 1, cards: option.take.map(cardName).join(t("list.and")) }),
          on: { click: () => on.play(option.play) },
        }, h("span", { class: "opt-num" }, num(i + 1)), h("span", { class: "opt-cards" }, cardTags(option.take, " + "))))),
      h("button", { type: "button", class: "btn ghost small", on: { click: () => on.cancel() } }, t("choice.cancel")));
  }
  return h("div", { class: "felt puzzle-felt" }, other, h("div", { class: "floor-wrap puzzle-floor-wrap" }, floor), choice, hand);
}

/** A play's words: "You played 7♦ and took 3♣, 4♥" / "They laid 9♣". */
export function playWords(text, seat, you) {
  const [card, take = ""] = text.split(":");
  const cards = take ? take.split("+") : [];
  const who = seat === you ? "you" : "them";
  return cards.length
    ? t(`puzzle.${who}_took`, { card: cardShort(card), cards: cards.map(cardShort).join(t("list.and")) })
    : t(`puzzle.${who}_laid`, { card: cardShort(card) });
}
