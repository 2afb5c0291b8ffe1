// The table's top: the head (variant, Rated, round, target, sets, carry, the number watching;
// the sound's mute, the
// rules over the table, fairness, the hint, resign, the lobby) and the score bar
// (each side's total, pile and basras).

import { h, s } from "../lib/dom.js";
import { t, num } from "../lib/i18n.js";
import { sideCount, sideOf, variantOf } from "../lib/variants.js";
import { inMatch, mySide, table, view } from "./state.js";
import { muted } from "./sound.js";
import { hintButton } from "./tools.js";
import { eyeIcon, pileIcon, sideName } from "./names.js";

export function renderHead(st) {
  const root = (...children) => h("div", { class: "table-head" }, ...children);
  // The page's one level-one heading: the variant's name (the table's, while none is known).
  if (!st.game) return root(h("h1", { class: "sr-only" }, t("table.title")));
  const tb = table(st);
  const v = view(st);
  const variant = variantOf(tb.variant);
  const sets = variant ? variant.sets_to_win : 1;
  const bits = [h("h1", { class: "variant-name" }, t(`variant.${tb.variant}.name`))];
  if (tb.rated) bits.push(h("span", { class: "chip rated-chip", dataset: { rated: "" } }, t("rated.badge")));
  if (v.round > 0) bits.push(h("span", { class: "chip" }, t("table.round", { n: num(v.round) })));
  bits.push(h("span", { class: "chip" }, sets > 1 ? t("table.target_set", { n: num(v.target) }) : t("table.target", { n: num(v.target) })));
  if (sets > 1) bits.push(h("span", { class: "chip" }, t("table.sets", { sets: v.sets.map(num).join("–"), n: num(sets) })));
  if (v.carry > 0) bits.push(h("span", { class: "chip chip-carry", title: t("table.carry_hint") }, t("table.carry", { n: num(v.carry) })));
  bits.push(watchers(tb));
  const off = muted();
  return root(
    h("div", { class: "head-info" }, bits),
    h("div", { class: "head-actions" },
      h("button", { class: "btn ghost small icon-btn sound-toggle", type: "button", "aria-pressed": off ? "true" : "false", "aria-label": t("sound.mute"), title: off ? t("sound.off") : t("sound.on"), dataset: { action: "mute", focusKey: "mute" } }, soundIcon(off)),
      h("button", { class: "btn ghost small wide-only", type: "button", dataset: { action: "rules", focusKey: "rules" } }, t("nav.rules")),
      h("a", { class: "btn ghost small fair-link", href: "#fairness", dataset: { action: "to-fairness" } }, t("fair.short")),
      hintButton(st),
      inMatch(st) ? h("button", { class: "btn ghost small resign", type: "button", dataset: { action: "resign", focusKey: "resign" } }, t("resign.button")) : null,
      h("a", { class: "btn ghost small wide-only", href: "/", dataset: { action: "nav" } }, t("nav.lobby"))));
}

/** "3 watching" with an eye, while anyone watches (a spectator counts themselves). */
export function watchers(tb) {
  const n = tb.spectators || 0;
  if (n <= 0) return null;
  return h("span", { class: "chip watchers-chip", role: "img", dataset: { spectators: String(n) }, title: t("table.spectators_label", { count: n, n: num(n) }), "aria-label": t("table.spectators_label", { count: n, n: num(n) }) },
    eyeIcon(), h("span", { class: "watchers-long", "aria-hidden": "true" }, t("table.spectators", { count: n, n: num(n) })),
    // A phone has room for the number only (the label says it whole).
    h("span", { class: "watchers-short", "aria-hidden": "true" }, num(n)));
}

/** A speaker, struck through when the sound is off. */
function soundIcon(off) {
  return s("svg", { class: "sound-icon", viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" },
    s("path", { d: "M4 9h4l5-4v14l-5-4H4z", class: "speaker" }),
    off ? s("path", { d: "M16 9l5 6M21 9l-5 6", class: "strike" })
      : s("path", { d: "M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12", class: "waves" }));
}

export function renderScorebar(st) {
  const root = (chips) => h("div", { class: "scorebar", role: "group", "aria-label": t("table.scores") }, chips);
  if (!st.game) return root([]);
  const v = view(st);
  const sides = sideCount(v.seats, v.teams);
  const chips = [];
  for (let side = 0; side < sides; side++) {
    const mine = side === mySide(st);
    const turnSide = v.turn !== null && sideOf(v.turn, v.teams) === side;
    const name = sideName(st, side);
    chips.push(h("div", {
      class: ["side-chip", mine && "mine", turnSide && "turn", v.winner === side && "winner"],
      dataset: { side: String(side), key: `side-${side}` },
      "aria-label": t("score.side_label", { name, points: v.totals[side], cards: v.pile_counts[side] || 0 }),
      role: "group",
    },
    h("span", { class: "side-name" }, name),
    h("span", { class: "side-total", "data-total": String(v.totals[side]) }, num(v.totals[side])),
    h("span", { class: "side-meta" },
      h("span", { class: "meta-pile", title: t("score.pile") }, pileIcon(), num(v.pile_counts[side] || 0)),
      (v.basras[side] || 0) > 0 ? h("span", { class: "meta-basra", title: t("score.basras") }, "★", num(v.basras[side])) : null)));
  }
  return root(chips);
}
