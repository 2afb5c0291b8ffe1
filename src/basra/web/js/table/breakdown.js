// The table of a round's scoring, from the engine's breakdown (scoring.js): cards taken,
// majority (and the carry that came with it), each line of the variant's card-points
// table, basras, round points and match totals, one column per side.

import { h } from "../lib/dom.js";
import { t, num } from "../lib/i18n.js";
import { signedTag, withCardNames } from "../lib/cards.js";
import { mySide } from "./state.js";
import { sideName } from "./names.js";

// Signed numbers, counts ("×2") and card names are isolated left-to-right elements, so a
// right-to-left cell reads "+3", never "3+".
const signed = (n) => (n ? signedTag(n) : "—");
const times = (n) => h("bdi", { class: "times", dir: "ltr" }, `×${num(n)}`);

export function breakdownTable(st, b) {
  const me = mySide(st);
  const sides = Array.from({ length: b.sides }, (_, i) => i);
  const head = h("tr", null, h("th", { scope: "col" }, h("span", { class: "sr-only" }, t("breakdown.item"))),
    sides.map((side) => h("th", { scope: "col", class: side === me ? "mine" : "" }, sideName(st, side))));
  const rows = [];
  const row = (label, cells, cls) => rows.push(h("tr", { class: cls }, h("th", { scope: "row" }, withCardNames(label)),
    cells.map((c, i) => h("td", { class: i === me ? "mine" : "" }, c))));
  row(t("breakdown.cards"), b.cards.map((n) => num(n)), "muted");
  if (b.exact) {
    const rule = b.majorityRule;
    const majLabel = rule.kind === "27-of-52" ? t("breakdown.majority27", { n: rule.points }) : t("breakdown.majority_most", { n: rule.points });
    row(majLabel, b.majority.map((m, i) => (b.carry[i] > 0 ? [signed(m), " ", t("breakdown.with_carry", { n: num(b.carry[i]) })] : signed(m))));
    for (const line of b.lines) {
      row(t(`breakdown.line.${line.spec}`, { each: line.each }),
        line.counts.map((count, i) => (count ? [line.cards > 1 ? [times(count), " "] : null, signed(line.points[i])] : "—")));
    }
    row(t("breakdown.basras"), b.basras.map((n, i) => (n ? [times(n), " ", signed(b.basraPoints[i])] : "—")));
  }
  row(t("breakdown.round_points"), b.points.map((n) => signed(n)), "sum");
  row(t("breakdown.totals"), b.totals.map((n) => num(n)), "total");
  const notes = [];
  if (b.tie) notes.push(h("p", { class: "note" }, t("breakdown.tie", { n: num(b.carryOut) })));
  if (b.setWinner !== undefined && b.setWinner !== null) notes.push(h("p", { class: "note" }, t("breakdown.set_won", { name: sideName(st, b.setWinner) })));
  return h("div", { class: "breakdown" },
    h("table", { class: "breakdown-table" }, h("caption", { class: "sr-only" }, t("breakdown.caption", { n: b.round })), h("thead", null, head), h("tbody", null, rows)),
    notes);
}
