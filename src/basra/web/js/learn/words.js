// A lesson's feedback line (basra-lessons/1: an i18n key and what fills it, made by the
// server from the engine) as nodes in the reader's language: card names as isolated
// left-to-right tags, sums and tallies as left-to-right runs, signed numbers with their sign.

import { h } from "../lib/dom.js";
import { t, num, tNodes as fillWith } from "../lib/i18n.js";
import { cardTag, cardTags, signedNumber, signedTag } from "../lib/cards.js";

/** `parts` joined by `sep` (nodes and strings). */
function joined(parts, sep) {
  return parts.flatMap((part, i) => (i ? [sep, part] : [part]));
}

/** One line as nodes. */
export function lineNodes(line) {
  const params = {};
  for (const [name, cards] of Object.entries(line.cards || {})) {
    params[name] = cards.length === 1 ? cardTag(cards[0]) : h("span", { class: "learn-cards" }, cardTags(cards, t("list.and")));
  }
  const numbers = { ...(line.numbers || {}) };
  const count = numbers.count;
  delete numbers.count;
  for (const [name, n] of Object.entries(numbers)) params[name] = h("bdi", { class: "learn-num", dir: "ltr" }, num(n));
  for (const [name, n] of Object.entries(line.signed || {})) params[name] = signedTag(n);
  for (const [name, key] of Object.entries(line.words || {})) params[name] = t(key);
  if (line.sums) params.sum = h("span", { class: "learn-sums" }, joined(line.sums.map((s) => h("bdi", { class: "learn-sum", dir: "ltr" }, s)), t("list.and")));
  if (line.tally) {
    // The whole sum, its total (or "?") too, is one left-to-right run in every language.
    const total = numbers.total !== undefined ? num(numbers.total)
      : line.signed && line.signed.total !== undefined ? signedNumber(line.signed.total) : "?";
    params.tally = h("bdi", { class: "learn-sum learn-tally", dir: "ltr" },
      joined(line.tally.map(([card, points]) => h("span", null, cardTag(card), " ", signedNumber(points).replace(/^\+/, ""))), " + "),
      ` = ${total}`);
  }
  return fillWith(line.key, params, count);
}

/** Lines as paragraphs. */
export function lineList(lines, cls = "learn-line") {
  return lines.map((line) => h("p", { class: cls, dataset: { key: line.key } }, lineNodes(line)));
}
