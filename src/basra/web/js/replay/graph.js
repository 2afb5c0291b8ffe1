// The expected margin of the match over every step of it (two sides only), drawn as an
// inline SVG at the pixel width the page gives it: above the middle line side 0 leads,
// under it side 1; a thin line at each round's deal; a marker at the step shown. A click
// moves the replay there (the page's click handler reads data-action="graph" and the
// plot's geometry from the SVG's data). Time runs left to right in every language.

import { h, s } from "../lib/dom.js";
import { t, num } from "../lib/i18n.js";
import { indexOf, timeline } from "./model.js";
import { sideLabel } from "./adapter.js";
import { signedDecimal } from "./format.js";

const HEIGHT = 160;
const PAD = { left: 40, right: 10, top: 10, bottom: 18 };

/** A round number at or above |value| for the axis: 10, 20, 50, 100... */
function niceLimit(most) {
  const steps = [10, 20, 30, 50, 80, 100, 150, 200, 300, 500];
  return steps.find((n) => n >= most) || Math.ceil(most / 100) * 100;
}

/** The step a click at `clientX` on the graph's SVG points at. */
export function stepAt(svg, clientX) {
  const rect = svg.getBoundingClientRect();
  const count = Number(svg.dataset.count);
  const left = Number(svg.dataset.left);
  const plot = rect.width - left - Number(svg.dataset.right);
  if (!(count > 1) || !(plot > 0)) return 0;
  const i = Math.round(((clientX - rect.left - left) / plot) * (count - 1));
  return Math.max(0, Math.min(count - 1, i));
}

export function renderGraph(replay, pos, margins, width) {
  const line = timeline(replay);
  const count = line.steps.length;
  const w = Math.max(240, Math.round(width || 600));
  const plotW = w - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const known = margins.filter((m) => m !== null);
  const limit = niceLimit(Math.max(1, ...known.map((m) => Math.abs(m))));
  const x = (i) => PAD.left + (count > 1 ? (i / (count - 1)) * plotW : plotW / 2);
  const y = (m) => PAD.top + plotH / 2 - (m / limit) * (plotH / 2);
  let d = "";
  let pen = false;
  margins.forEach((m, i) => {
    if (m === null) { pen = false; return; }
    d += `${pen ? "L" : "M"}${x(i).toFixed(1)} ${y(m).toFixed(1)}`;
    pen = true;
  });
  const here = indexOf(line, pos);
  const hereMargin = margins[here];
  const rounds = line.starts.map((start, r) => s("g", { class: "replay-graph-round" },
    s("line", { class: "grid", x1: x(start), x2: x(start), y1: PAD.top, y2: PAD.top + plotH }),
    s("text", { class: "axis", x: x(start) + 3, y: HEIGHT - 4 }, num(r + 1))));
  const ticks = [limit, limit / 2, 0, -limit / 2, -limit].map((v) => s("g", null,
    s("line", { class: v === 0 ? "zero" : "grid", x1: PAD.left, x2: PAD.left + plotW, y1: y(v), y2: y(v) }),
    s("text", { class: "axis", x: PAD.left - 6, y: y(v) + 4, "text-anchor": "end" }, v === 0 ? "0" : signedDecimal(v).replace(/[.,]0$/, ""))));
  const label = t("replay.graph.label", {
    name: sideLabel(replay, 0), other: sideLabel(replay, 1),
    now: hereMargin === null || hereMargin === undefined ? "–" : signedDecimal(hereMargin),
  });
  return h("figure", { class: "replay-graph", dataset: { key: "graph" } },
    h("figcaption", null, t("replay.graph.title")),
    h("p", { class: "replay-graph-side top" }, "▲ ", t("replay.graph.ahead", { name: sideLabel(replay, 0) })),
    s("svg", {
      class: "replay-graph-svg", width: w, height: HEIGHT, viewBox: `0 0 ${w} ${HEIGHT}`, role: "img", "aria-label": label,
      direction: "ltr", dataset: { action: "graph", count: String(count), left: String(PAD.left), right: String(PAD.right), here: String(here) },
    },
    ticks, rounds,
    s("path", { class: "replay-graph-line", d }),
    s("line", { class: "replay-graph-marker", x1: x(here), x2: x(here), y1: PAD.top, y2: PAD.top + plotH }),
    hereMargin === null || hereMargin === undefined ? null : s("circle", { class: "replay-graph-dot", cx: x(here), cy: y(hereMargin), r: 5 })),
    h("p", { class: "replay-graph-side bottom" }, "▼ ", t("replay.graph.ahead", { name: sideLabel(replay, 1) })),
    h("p", { class: "hint" }, t("replay.graph.hint")));
}
