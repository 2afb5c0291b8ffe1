// The middle of the table: the stock and the floor. During a take choice the floor cards of
// each option carry its number and those of the focused option stand out; a hovered or
// focused hand card previews what it would take. A floor card is tapped through
// data-action="floor-card".

import { h } from "../lib/dom.js";
import { t, num } from "../lib/i18n.js";
import { cardBack, cardFace, cardLabel } from "../lib/cards.js";
import { table, view } from "./state.js";

export function renderStock(st) {
  const v = view(st);
  const count = v ? v.stock_count : 0;
  return h("div", { class: "stock" },
    count > 0 ? h("div", { class: "stock-pile", "aria-label": t("table.stock", { count, n: count }), role: "img" },
      h("span", { class: "card small" }, cardBack()), h("span", { class: "stock-count" }, num(count))) : null);
}

export function renderFloor(st) {
  const v = view(st);
  const cards = v ? st.floorOrder.filter((c) => v.floor.includes(c)) : [];
  const variant = v ? table(st).variant : "";
  const choice = st.choice;
  const focused = choice ? choice.options[choice.focus] : null;
  const preview = !choice && st.preview ? st.preview : null;
  const items = cards.map((card) => {
    const optionNumbers = choice ? choice.options.map((o, i) => (o.take.includes(card) ? i + 1 : 0)).filter(Boolean) : [];
    const inFocus = focused && focused.take.includes(card);
    const inPreview = preview && preview.includes(card);
    return h("div", {
      class: ["card", "floor-card", optionNumbers.length && "in-option", inFocus && "opt-focus", inPreview && "preview", choice && !optionNumbers.length && "dim"],
      role: "listitem",
      "aria-label": cardLabel(card, variant),
      dataset: { card, key: card, action: "floor-card" },
    }, cardFace(card, variant),
    optionNumbers.length ? h("span", { class: "opt-badges" }, optionNumbers.map((n) => h("span", { class: ["opt-badge", choice.focus + 1 === n && "on"] }, num(n)))) : null);
  });
  return h("div", {
    class: ["floor", v && cards.length === 0 && v.round > 0 && "empty"],
    role: cards.length ? "list" : "group", "aria-label": t("table.floor"),
    dataset: v ? { count: String(cards.length), size: cards.length > 10 ? "xl" : cards.length > 6 ? "l" : "n" } : undefined,
  }, items);
}
