// The plays of the round shown, as a list to jump through (the deal first): who played
// which card and what it took, the current one marked. Once the expert's analysis is in,
// each play has a small bar for its cost (the points it gave away against the best play),
// a "best" mark when it gave none, nothing when it was the only play.

import { h } from "../lib/dom.js";
import { t, num } from "../lib/i18n.js";
import { cardTag, cardTags } from "../lib/cards.js";
import { seatLabel } from "./adapter.js";
import { decimal } from "./format.js";

/** The full width of a cost bar, in points (a basra's worth): bars compare across matches. */
export const COST_SCALE = 10;

function costMark(p) {
  if (!p) return null;
  if (p.choices <= 1) {
    return h("span", { class: "replay-cost only", dataset: { cost: String(p.cost) } },
      h("span", { class: "sr-only" }, t("replay.cost.only")));
  }
  if (!(p.cost > 0)) {
    return h("span", { class: "replay-cost best", dataset: { cost: String(p.cost) } },
      h("span", { class: "replay-cost-best", "aria-hidden": "true" }, "✓ ", t("replay.cost.best_short")),
      h("span", { class: "sr-only" }, t("replay.cost.best")));
  }
  const share = Math.min(1, p.cost / COST_SCALE);
  return h("span", { class: "replay-cost lost", dataset: { cost: String(p.cost) } },
    h("span", { class: "replay-cost-track", "aria-hidden": "true" },
      h("span", { class: "replay-cost-bar", style: { "inline-size": `${Math.max(4, share * 100).toFixed(1)}%` } })),
    h("span", { class: "replay-cost-num", "aria-hidden": "true" }, h("bdi", { dir: "ltr" }, `\u2212${decimal(p.cost)}`)),
    h("span", { class: "sr-only" }, t("replay.cost.points", { points: decimal(p.cost), count: p.cost })));
}

/** The round's plays; `byKey` the analysis's plays ("round:number"), or null. */
export function renderPlays(replay, pos, byKey) {
  const round = replay.rounds[pos.r];
  const items = round.steps.map((step, s) => {
    const current = s === pos.s;
    const attrs = {
      type: "button", class: ["replay-play", current && "current", step.play && step.play.basra && "basra"],
      "aria-current": current ? "step" : null,
      dataset: { action: "goto", r: String(pos.r), s: String(s), focusKey: `play-${s}`, key: `play-${s}` },
    };
    if (!step.play) {
      return h("li", { dataset: { key: `li-${s}` } }, h("button", attrs,
        h("span", { class: "replay-play-no" }, "0"),
        h("span", { class: "replay-play-what" }, t("replay.place.deal_short", { n: num(round.number) }))));
    }
    const p = step.play;
    const analysed = byKey ? byKey.get(`${round.number}:${s}`) : null;
    return h("li", { dataset: { key: `li-${s}` } }, h("button", attrs,
      h("span", { class: "replay-play-no" }, num(s)),
      h("span", { class: "replay-play-what" },
        h("span", { class: "replay-play-who" }, seatLabel(replay, p.seat)), " ",
        cardTag(p.card, "log-card"),
        p.take.length ? [" ", h("span", { class: "replay-play-take" }, "+ ", cardTags(p.take, " "))] : null,
        p.basra ? [" ", h("span", { class: "replay-play-basra", title: t("replay.basra") }, "★")] : null),
      costMark(analysed)));
  });
  return h("section", { class: "panel replay-plays", "aria-labelledby": "replay-plays-title", dataset: { key: "plays" } },
    h("h2", { id: "replay-plays-title" }, t("replay.plays_title", { n: num(round.number) })),
    h("ol", { class: "replay-play-list", dataset: { round: String(round.number) } }, items));
}
