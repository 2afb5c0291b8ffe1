// The expert's analysis of a finished match (basra-analysis/1): asked for with one button
// (POST), then followed (GET every 1.5 s while queued or running: its place in the queue,
// then "Analysing… 57 of 192 plays"); one already stored shows as the page opens. Once
// done, in a player's words first (words.js): a line per player ("Amal: 3 clear mistakes,
// the biggest in round 2"), the costliest plays of the match, each saying what the better
// play would have done and what the play cost this round (a click moves the replay there),
// and "Learn from your mistakes" (the viewer's seat, or a seat they choose). The expert's
// figures (iterations, the expected points lost per seat, the margin graph, the command
// line) wait behind "Details for experts". At each step: the play's cost and, on demand,
// the expert's play.

import { h } from "../lib/dom.js";
import { t, num } from "../lib/i18n.js";
import { cardTag, cardTags } from "../lib/cards.js";
import { errorText, fill, link, spinner } from "../lib/ui.js";
import { askAnalysis, fetchAnalysis } from "./data.js";
import { analysedPlay, bestPlay } from "./model.js";
import { seatLabel } from "./adapter.js";
import { renderGraph } from "./graph.js";
import { decimal, signedDecimal } from "./format.js";
import { CLEAR, aboutPoints, byCost, costWords, playedWords, seatMistakes, sentences, whyWords } from "./words.js";

/** The costliest plays listed in the plain view. */
export const LISTED = 8;
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
  // Running on another node of a cluster: no count to show, only that it runs.
  if (typeof st.total !== "number" || !(st.total > 0)) {
    return h("div", { class: "replay-analysis-status", role: "status", dataset: { status: "running" } },
      h("p", null, spinner(), " ", t("analysis.running_elsewhere")),
      h("progress", { class: "replay-progress", "aria-label": t("replay.analysis.progress") }));
  }
  const total = st.total;
  const done = Math.min(st.done || 0, total);
  return h("div", { class: "replay-analysis-status", role: "status", dataset: { status: "running", done: String(done), total: String(total) } },
    h("p", null, spinner(), " ", t("replay.analysis.running", { done: num(done), total: num(total), count: total })),
    h("progress", { class: "replay-progress", max: total, value: done, "aria-label": t("replay.analysis.progress") }));
}

/** The expected points each seat lost to the expert's plays: an expert's figure, never a
 * score (a match's points are the score bar's). */
function totals(replay, analysis) {
  const costs = analysis.cost_by_seat || [];
  return h("table", { class: "replay-cost-table breakdown-table" },
    h("caption", null, t("replay.analysis.totals")),
    h("thead", null, h("tr", null, h("th", { scope: "col" }, t("replay.analysis.player")), h("th", { scope: "col" }, t("replay.analysis.given_away")))),
    h("tbody", null, costs.map((cost, seat) => h("tr", { dataset: { seat: String(seat) } },
      h("th", { scope: "row" }, seatLabel(replay, seat)),
      h("td", { class: "replay-seat-cost", dataset: { cost: String(cost) } }, t("replay.analysis.points", { points: decimal(cost), count: cost }))))));
}

const learnPath = (replay, seat) => `/mistakes/${encodeURIComponent(replay.table)}?seat=${seat}`;

/** A line per player: "Amal: 3 clear mistakes, the biggest in round 2." and, for someone
 * who did not play the match, a link to practise that player's mistakes. */
function summary(replay, per, viewer) {
  return h("ul", { class: "analysis-summary" }, per.map(({ seat, count, biggest }) => {
    const name = seatLabel(replay, seat);
    const words = count > 0
      ? t("analysis.summary.some", { name, n: num(count), count, round: num(biggest ? biggest.round : 1) })
      : t("analysis.summary.none", { name });
    const other = viewer === null && count > 0 && replay.table;
    return h("li", { class: ["analysis-seat", count > 0 ? "some" : "none"], dataset: { seat: String(seat), mistakes: String(count) } },
      h("span", { class: "analysis-seat-words" }, words),
      other ? [" ", link(learnPath(replay, seat), { class: "btn small ghost analysis-learn-seat", dataset: { seat: String(seat) } }, t("analysis.learn.seat", { name }))] : null);
  }));
}

/** One of the costliest plays, as a button that moves the replay to it. */
function item(replay, p, viewer) {
  const you = viewer !== null && viewer !== undefined && p.seat === viewer;
  const name = seatLabel(replay, p.seat);
  return h("li", { dataset: { key: `mistake-${p.round}-${p.number}` } },
    h("button", {
      type: "button", class: "analysis-item",
      dataset: { action: "goto-play", r: String(p.round - 1), s: String(p.number), round: String(p.round), number: String(p.number), seat: String(p.seat), cost: String(p.cost), focusKey: `mistake-${p.round}-${p.number}` },
    },
    h("span", { class: "analysis-item-head" }, playedWords(p, name, you)),
    h("span", { class: "analysis-item-why" }, sentences(whyWords(p))),
    h("span", { class: "analysis-item-cost" }, costWords(p.cost))));
}

/** The plain view: who made clear mistakes, the costliest plays, the way to practise them. */
function plain(replay, analysis, viewer) {
  const per = seatMistakes(analysis, replay.seats);
  const all = per.flatMap((s) => s.plays).sort(byCost);
  const listed = all.slice(0, LISTED);
  const mine = viewer !== null && viewer !== undefined ? per[viewer] : null;
  return [
    h("p", { class: "hint analysis-intro" }, t("analysis.plain.intro")),
    summary(replay, per, viewer),
    mine && mine.count > 0 && replay.table ? h("p", { class: "analysis-learn-row" },
      link(learnPath(replay, viewer), { class: "btn primary analysis-learn", dataset: { seat: String(viewer) } }, t("analysis.learn.mine"))) : null,
    h("h3", { class: "analysis-list-title" }, t("analysis.list.title")),
    listed.length
      ? [h("p", { class: "hint analysis-list-hint" }, t("analysis.list.hint")),
        h("ol", { class: "analysis-list" }, listed.map((p) => item(replay, p, viewer)))]
      : h("p", { class: "analysis-none" }, t("analysis.list.none")),
    all.length > listed.length ? h("p", { class: "hint analysis-more" }, t("analysis.list.more", { n: num(all.length - listed.length), count: all.length - listed.length })) : null,
  ];
}

/** The analysis panel: the button, the wait, or the match in plain words with the expert's
 * figures behind "Details for experts". `viewer`: the seat of the one looking (null: not a
 * player of the match; undefined: not known yet). */
export function renderAnalysisPanel(replay, pos, watch, margins, width, viewer) {
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
        plain(replay, analysis, viewer),
        h("details", { class: "analysis-expert", dataset: { key: "expert" } },
          h("summary", { class: "analysis-expert-toggle" }, t("analysis.expert.toggle")),
          h("div", { class: "analysis-expert-body" },
            h("p", { class: "hint" }, t("replay.analysis.done_intro", { n: num(analysis.iterations) })),
            totals(replay, analysis),
            margins ? renderGraph(replay, pos, margins, width) : h("p", { class: "hint replay-no-graph" }, t("replay.analysis.no_graph")),
            h("p", { class: "replay-command" }, h("span", { class: "muted" }, t("replay.analysis.command")), " ",
              h("code", { dir: "ltr", class: "replay-command-text" }, analysis.command || `basra analyse --iterations ${analysis.iterations} --seed ${analysis.seed} RECORD`)))));
    }
  }
}

/** The step's own figures, under the controls: the play's cost in this round's points, and
 * on demand the expert's play in words (its expected margins too once the expert's details
 * are open). */
export function renderStepAnalysis(replay, pos, watch, byKey, showBest, expert = false) {
  const root = (...children) => h("div", { class: "replay-step-analysis", dataset: { key: "step-analysis" } }, ...children);
  const analysis = doneAnalysis(watch);
  if (!analysis) return root();
  const p = analysedPlay(byKey, pos);
  if (!p) return root(h("p", { class: "hint" }, pos.s === 0 ? t("replay.analysis.at_deal") : t("replay.analysis.missing")));
  const best = bestPlay(p);
  const name = seatLabel(replay, p.seat);
  const summaryText = p.choices <= 1 ? t("replay.analysis.only", { name })
    : p.cost >= CLEAR ? t("analysis.step.cost", { name, n: num(aboutPoints(p.cost)), count: aboutPoints(p.cost) })
      : p.cost > 0 ? t("analysis.step.close", { name })
        : t("replay.analysis.best", { name });
  const bestWords = p.cost >= CLEAR ? sentences(whyWords(p)) : best.take.length
    ? fill("replay.analysis.expert_take", { card: cardTag(best.card), cards: h("span", null, cardTags(best.take, t("list.and"))) })
    : fill("replay.analysis.expert_lay", { card: cardTag(best.card) });
  return root(
    h("p", { class: ["replay-step-cost", p.cost >= CLEAR ? "lost" : "best"], dataset: { cost: String(p.cost), round: String(p.round), number: String(p.number) } }, summaryText),
    p.choices > 1 ? h("button", {
      type: "button", class: "btn small ghost replay-best-toggle", "aria-pressed": showBest ? "true" : "false", "aria-controls": "replay-best",
      dataset: { action: "toggle-best", focusKey: "toggle-best" },
    }, t("replay.analysis.show_best")) : null,
    p.choices > 1 && showBest ? h("p", { class: "replay-best", id: "replay-best", dataset: { card: best.card, take: best.take.join(" ") } },
      bestWords,
      expert ? [" ", h("span", { class: "muted replay-best-values" }, fill("replay.analysis.values", { made: ltr(signedDecimal(p.value)), best: ltr(signedDecimal(p.best_value)) }))] : null) : null);
}
