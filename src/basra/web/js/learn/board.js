// One lesson step on the real table's look (table.css: the felt, the floor in the middle,
// your hand at the bottom, the take chooser's bar and option badges; cards.js's faces):
// a position to play, or a question about a round's scoring. Pure drawing: `act` is the
// lesson page's (tap a card, choose a take, answer an option, cancel a choice).

import { h } from "../lib/dom.js";
import { t, num } from "../lib/i18n.js";
import { cardFace, cardLabel, cardName, cardShort, cardTags, signedTag, withCardNames } from "../lib/cards.js";
import { lineList } from "./words.js";

/** The legal plays of one card in the step. */
export function playsOf(step, card) {
  return step.plays.filter((p) => p.card === card);
}

function floorCard(card, variant, { taken = false, laid = false, badges = [], focus = false, act = null } = {}) {
  return h("div", {
    class: ["card", "floor-card", badges.length && "in-option", focus && "opt-focus", taken && "learn-taken", laid && "learn-laid"],
    role: "listitem", "aria-label": cardLabel(card, variant), dataset: { card },
    on: act && badges.length ? { click: () => act("floor", card) } : undefined,
  }, cardFace(card, variant),
  badges.length ? h("span", { class: "opt-badges" }, badges.map((n) => h("span", { class: ["opt-badge", focus && "on"] }, num(n)))) : null);
}

/** The floor: the position's cards; during a choice each option's number on its cards; after
 * a play the taken cards marked, a laid card added. */
function floorRow(step, { choice, result }, act) {
  const variant = step.variant;
  const cards = step.floor.slice();
  if (result && !result.take.length) cards.push(result.card);
  const items = cards.map((card) => {
    const badges = choice ? choice.options.map((o, i) => (o.take.includes(card) ? i + 1 : 0)).filter(Boolean) : [];
    return floorCard(card, variant, {
      taken: !!result && result.take.includes(card), laid: !!result && !result.take.length && card === result.card,
      badges, act,
    });
  });
  return h("div", { class: ["floor", "learn-floor", !cards.length && "empty"], role: "list", "aria-label": t("table.floor"),
    dataset: { count: String(cards.length), size: cards.length > 6 ? "l" : "n" } },
  items.length ? items : h("p", { class: "floor-empty-text" }, t("learn.empty_floor")));
}

function handRow(step, { choice, result }, act) {
  const variant = step.variant;
  const live = !result;
  return h("div", { class: ["hand", "learn-hand", live && "my-turn"], role: "toolbar", "aria-label": t("table.hand") },
    step.hand.map((card) => {
      const options = playsOf(step, card);
      const takes = options.length === 1 && options[0].take.length;
      const label = [cardLabel(card, variant)];
      if (options.length > 1) label.push(t("hand.choices", { count: options.length, n: options.length }));
      else if (takes) label.push(t("hand.takes", { cards: options[0].take.map(cardName).join(t("list.and")) }));
      const played = result && result.card === card;
      if (played && !result.take.length) return null;  // laid on the floor
      return h("button", {
        type: "button",
        class: ["card", "hand-card", live && "playable", (played || (choice && choice.card === card)) && "selected", options.length > 1 && "multi"],
        "aria-label": label.join(t("list.sep")), "aria-disabled": live ? "false" : "true",
        dataset: { card },
        on: { click: () => { if (live) act("card", card); } },
      }, cardFace(card, variant),
      options.length > 1 && live ? h("span", { class: "multi-badge", "aria-hidden": "true" }, h("span", { class: "ways-text" }, t("hand.ways", { count: options.length, n: num(options.length) }))) : null);
    }));
}

/** The take chooser, as the table's: the card's takes as numbered buttons. */
function choiceBar(choice, act) {
  if (!choice) return h("div", { class: "choice-bar", hidden: true });
  return h("div", { class: "choice-bar learn-choice" },
    h("div", { class: "choice-title", id: "learn-choice-title" }, withCardNames(t("choice.title", { card: cardShort(choice.card) }))),
    h("div", { class: "choice-options", role: "group", "aria-labelledby": "learn-choice-title" },
      choice.options.map((option, i) => h("button", {
        type: "button", class: "btn choice-option", dataset: { option: String(i) },
        "aria-label": t("choice.option_label", { n: i + 1, cards: option.take.map(cardName).join(t("list.and")) }),
        on: { click: () => act("option", i) },
      }, h("span", { class: "opt-num" }, num(i + 1)), h("span", { class: "opt-cards" }, cardTags(option.take, " + "))))),
    h("button", { type: "button", class: "btn ghost small", on: { click: () => act("cancel") } }, t("choice.cancel")));
}

/** A position to play: the goal, then the felt. */
export function playStep(step, state, act) {
  return [
    h("div", { class: "learn-goal" },
      h("p", { class: "learn-goal-text" }, t(step.goal)),
      lineList(step.context, "learn-context")),
    h("div", { class: "felt learn-felt", dataset: { variant: step.variant } },
      h("p", { class: "learn-label" }, t("table.floor")),
      h("div", { class: "middle learn-middle" }, floorRow(step, state, act)),
      choiceBar(state.choice, act),
      h("div", { class: "me" },
        h("p", { class: "learn-label" }, t("learn.your_hand")),
        handRow(step, state, act))),
  ];
}

function optionLabel(step, value) {
  if (typeof value === "string") return t(`learn.side.${value}`);
  return value < 0 ? signedTag(value) : h("bdi", { dir: "ltr" }, num(value));
}

/** A question about a finished round: the pile's cards worth points, the counts, the
 * options. */
export function questionStep(step, state, act) {
  const variant = step.variant;
  const chosen = state.result ? state.result.index : null;
  return [
    h("div", { class: "learn-goal" }, h("p", { class: "learn-goal-text" }, t(step.prompt))),
    h("div", { class: "felt learn-felt learn-question", dataset: { variant } },
      step.shown.length ? [
        h("p", { class: "learn-label" }, t("learn.q.shown")),
        h("div", { class: "floor learn-floor", role: "list", "aria-label": t("learn.q.shown") },
          step.shown.map((card) => floorCard(card, variant)))] : null,
      h("div", { class: "learn-facts" }, lineList(step.facts, "learn-fact"))),
    h("div", { class: "learn-options", role: "group", "aria-label": t(step.prompt) },
      step.options.map((option, i) => h("button", {
        type: "button", class: ["btn", "learn-option", chosen === i && (option.right ? "right" : "wrong")],
        disabled: chosen !== null, dataset: { option: String(i), value: String(option.value) },
        on: { click: () => act("answer", i) },
      }, optionLabel(step, option.value)))),
  ];
}

/** What the answer did, in words: Right or Not this one, the lines, then Next or Try again. */
export function feedback(step, state, act, { last }) {
  const result = state.result;
  if (!result) return h("div", { class: "learn-feedback", "aria-live": "polite" });
  const right = result.right;
  const lines = result.lines;
  return h("div", { class: ["learn-feedback", right ? "right" : "wrong"], "aria-live": "polite", dataset: { right: right ? "true" : "false" } },
    h("p", { class: "learn-verdict" },
      h("span", { class: "learn-verdict-mark", "aria-hidden": "true" }, right ? "✓" : "✗"),
      t(right ? "learn.right" : "learn.wrong")),
    lineList(lines),
    right ? h("button", { type: "button", class: "btn primary big learn-next", id: "learn-next", on: { click: () => act("next") } }, t(last ? "learn.finish" : "learn.next"))
      : h("button", { type: "button", class: "btn big learn-again", id: "learn-again", on: { click: () => act("again") } }, t("learn.try_again")));
}
