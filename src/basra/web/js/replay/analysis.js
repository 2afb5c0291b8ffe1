// The expert's analysis of a finished match (basra-analysis/1): asked for with one button
// (POST), then followed (GET every 1.5 s while queued or running: its place in the queue,
// then the plays done of all); one already stored shows as the page opens. Once done: what
// each seat gave away in all (cost_by_seat), the command that gives the same analysis, the
// graph of the expected margin (graph.js), and at each step the play's cost and, on demand,
// the expert's play.

import { h } from "../lib/dom.js";
import { t, num } from "../lib/i18n.js";
import { cardTag, cardTags } from "../lib/cards.js";
import { errorText, fill, spinner } from "../lib/ui.js";
import { askAnalysis, fetchAnalysis } from "./data.js";
import { analysedPlay, bestPlay } from "./model.js";
import { seatLabel } from "./adapter.js";
import { renderGraph } from "./graph.js";
import { decimal, signedDecimal } from "./format.js";

const POLL_MS = 1500;
const ltr = (text) => h("bdi", { dir: "ltr" }, text);

/**
 * Follows one match's analysis: `status` is the server's last answer ({status: "none" |
 * "queued" | "running" | "done" | "failed", ...}), or {status: "loading"} / {status: "error",
 * error}; `changed()` after each new one.
 */
export class AnalysisWatch {
  constructor(id, changed) {
    this.id = id;
    this.changed = changed;
    this.status = { status: "loading" };
    this.timer = null;
    this.stopped = false;
    this.asking = false;
  }

  start() {
    this.poll();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  set(status) {
    if (this.stopped) return;
    this.status = status;
    this.changed();
    clearTimeout(this.timer);
    if (status.status === "queued" || status.status === "running") {
      this.timer = setTimeout(() => this.poll(), POLL_MS);
    }
  }

  async poll() {
    try {
      this.set(await fetchAnalysis(this.id));
    } catch (err) {
      this.set({ status: "error", error: err });
    }
  }

  /** Ask for the analysis (asking again changes nothing on the server), then follow it. */
  async ask() {
    if (this.asking) return;
    this.asking = true;
    this.changed();
    try {
      const answer = await askAnalysis(this.id);
      this.asking = false;
      if (answer && answer.status === "done" && !answer.analysis) await this.poll();
      else this.set(answer && answer.status ? answer : { status: "queued" });
    } catch (err) {
      this.asking = false;
      this.set({ status: "error", error: err });
    }
  }
}

export const doneAnalysis = (watch) => (watch && watch.status.status === "done" ? watch.status.analysis : null);

function progressLine(st) {
  if (st.status === "queued") {
    const position = st.position || 1;
    return h("p", { class: "replay-analysis-status", role: "status", dataset: { status: "queued" } }, spinner(), " ",
      t("replay.analysis.queued", { n: num(position), count: position }));
  }
  const total = st.total || 0;
  const done = Math.min(st.done || 0, total);
  return h("div", { class: "replay-analysis-status", role: "status", dataset: { status: "running" } },
    h("p", null, spinner(), " ", t("replay.analysis.running", { done: num(done), total: num(total), count: total })),
    h("progress", { class: "replay-progress", max: total || 1, value: done, "aria-label": t("replay.analysis.progress") }));
}

function totals(replay, analysis) {
  const costs = analysis.cost_by_seat || [];
  return h("table", { class: "replay-cost-table breakdown-table" },
    h("caption", null, t("replay.analysis.totals")),
    h("thead", null, h("tr", null, h("th", { scope: "col" }, t("replay.analysis.player")), h("th", { scope: "col" }, t("replay.analysis.given_away")))),
    h("tbody", null, costs.map((cost, seat) => h("tr", { dataset: { seat: String(seat) } },
      h("th", { scope: "row" }, seatLabel(replay, seat)),
      h("td", { class: "replay-seat-cost", dataset: { cost: String(cost) } }, t("replay.analysis.points", { points: decimal(cost), count: cost }))))));
}

/** The analysis panel: the button, the wait, or the whole match's figures and graph. */
export function renderAnalysisPanel(replay, pos, watch, margins, width) {
  const title = h("h2", { id: "replay-analysis-title" }, t("replay.analysis.title"));
  const root = (...children) => h("section", { class: "panel replay-analysis", "aria-labelledby": "replay-analysis-title", dataset: { key: "analysis", status: watch ? watch.status.status : "file" } }, title, ...children);
  if (!watch) return root(h("p", { class: "hint" }, t("replay.analysis.file_only")));
  const st = watch.status;
  const askButton = (label) => h("button", {
    type: "button", class: "btn primary replay-analyse", "aria-disabled": watch.asking ? "true" : "false",
    dataset: { action: "analyse", focusKey: "analyse" },
  }, watch.asking ? [spinner(), " "] : null, label);
  switch (st.status) {
    case "loading":
      return root(h("p", { class: "muted" }, spinner(), " ", t("lobby.loading")));
    case "none":
      return root(h("p", { class: "hint" }, t("replay.analysis.intro")), askButton(t("replay.analysis.ask")));
    case "queued":
    case "running":
      return root(progressLine(st));
    case "failed":
      return root(h("p", { class: "field-error", role: "alert" }, t("replay.analysis.failed"), " ", h("code", { dir: "ltr" }, st.message || "")),
        askButton(t("replay.analysis.again")));
    case "error":
      return root(h("p", { class: "field-error", role: "alert" }, errorText(st.error)), askButton(t("replay.analysis.again")));
    default: {
      const analysis = st.analysis;
      return root(
        h("p", { class: "hint" }, t("replay.analysis.done_intro", { n: num(analysis.iterations) })),
        totals(replay, analysis),
        margins ? renderGraph(replay, pos, margins, width) : h("p", { class: "hint replay-no-graph" }, t("replay.analysis.no_graph")),
        h("p", { class: "replay-command" }, h("span", { class: "muted" }, t("replay.analysis.command")), " ",
          h("code", { dir: "ltr", class: "replay-command-text" }, analysis.command || `basra analyse --iterations ${analysis.iterations} --seed ${analysis.seed} RECORD`)));
    }
  }
}

/** The step's own figures, under the controls: the play's cost, and on demand the best play. */
export function renderStepAnalysis(replay, pos, watch, byKey, showBest) {
  const root = (...children) => h("div", { class: "replay-step-analysis", dataset: { key: "step-analysis" } }, ...children);
  const analysis = doneAnalysis(watch);
  if (!analysis) return root();
  const p = analysedPlay(byKey, pos);
  if (!p) return root(h("p", { class: "hint" }, pos.s === 0 ? t("replay.analysis.at_deal") : t("replay.analysis.missing")));
  const best = bestPlay(p);
  const name = seatLabel(replay, p.seat);
  const summary = p.choices <= 1 ? t("replay.analysis.only", { name })
    : p.cost > 0 ? t("replay.analysis.cost", { name, points: decimal(p.cost), count: p.cost })
      : t("replay.analysis.best", { name });
  const bestWords = best.take.length
    ? fill("replay.analysis.expert_take", { card: cardTag(best.card), cards: h("span", null, cardTags(best.take, t("list.and"))) })
    : fill("replay.analysis.expert_lay", { card: cardTag(best.card) });
  return root(
    h("p", { class: ["replay-step-cost", p.cost > 0 ? "lost" : "best"], dataset: { cost: String(p.cost), round: String(p.round), number: String(p.number) } }, summary),
    p.choices > 1 ? h("button", {
      type: "button", class: "btn small ghost replay-best-toggle", "aria-pressed": showBest ? "true" : "false", "aria-controls": "replay-best",
      dataset: { action: "toggle-best", focusKey: "toggle-best" },
    }, t("replay.analysis.show_best")) : null,
    p.choices > 1 && showBest ? h("p", { class: "replay-best", id: "replay-best", dataset: { card: best.card, take: best.take.join(" ") } },
      bestWords, " ", h("span", { class: "muted" }, fill("replay.analysis.values", { made: ltr(signedDecimal(p.value)), best: ltr(signedDecimal(p.best_value)) }))) : null);
}
