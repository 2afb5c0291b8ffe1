// /replay/ID: a finished match step by step (GET /api/replays/ID), and /replay: a record
// file the reader opens (POST /api/replays). Every hand face up, the floor, the piles, the
// score, the play just made, each round's result and fairness proof; the expert's analysis
// on request. The position is in the address (#r2p17: round 2 after play 17), kept in step
// with history.replaceState. One state, one redraw: the view is built afresh and morphed
// into the page (dom.morph), the buttons act through data-action on one click handler, so
// the focus stays where it was. The pieces are in js/replay/. One who has a session may
// report another player of the match (lib/report.js).

import { h, morph, reducedMotion } from "../lib/dom.js";
import { t, num } from "../lib/i18n.js";
import { announce, errorText, link, loadStyle, spinner } from "../lib/ui.js";
import { roundBreakdown } from "../lib/scoring.js";
import { sideOf, variantOf } from "../lib/variants.js";
import { breakdownTable } from "../table/breakdown.js";
import { fetchReplay, fetchSeat } from "../replay/data.js";
import * as model from "../replay/model.js";
import { playersOf, seatLabel, sideLabel, tableState } from "../replay/adapter.js";
import { renderBoard, renderScore, stepWords } from "../replay/board.js";
import { keyAction, keyOwnedByTarget, placeWords, renderControls, swipe } from "../replay/nav.js";
import { renderPlays } from "../replay/plays.js";
import { renderProof, verifyAll } from "../replay/proof.js";
import { AnalysisWatch, doneAnalysis, renderAnalysisPanel, renderStepAnalysis } from "../replay/analysis.js";
import { stepAt } from "../replay/graph.js";
import { fileOpener } from "../replay/opener.js";
import { session } from "../lib/api.js";
import { reportDialog } from "../lib/report.js";

const STYLES = ["../../css/table.css", "../../css/replay.css"].map((path) => new URL(path, import.meta.url));

export function mount(container, params) {
  const id = String(params.id || "");
  container.classList.add("page", "replay-page");
  const styled = Promise.all(STYLES.map(loadStyle));
  const st = {
    alive: true,
    replay: null,
    fileName: "",
    pos: model.first(),
    failed: null,
    verifications: {},
    watch: null,
    showBest: false,
    expert: false,
    viewer: undefined,
    opening: !id,
    graphWidth: 0,
  };
  // What the analysis gives the page, worked out once per analysis.
  let derived = { analysis: null, byKey: new Map(), margins: null };
  const analysisNow = () => {
    const analysis = doneAnalysis(st.watch);
    if (analysis !== derived.analysis) {
      const byKey = model.playsByKey(analysis);
      derived = { analysis, byKey, margins: analysis && st.replay ? model.margins(st.replay, byKey, sideOf) : null };
    }
    return derived;
  };

  const view = h("div", { class: "replay-view" });
  // A record file's page keeps its title and the opener over whatever replay it shows.
  const top = id ? null : h("h1", { class: "replay-top-title", tabindex: "-1" }, t("replay.title"));
  const opener = id ? null : fileOpener(container, (replay, name) => {
    st.fileName = name;
    st.opening = false;
    show(replay);
    top.focus();
  });
  if (top) container.append(top, opener.el);
  container.append(view);

  // ------------------------------------------------------------------ drawing

  function head(replay) {
    const sides = Array.from({ length: replay.sides }, (_, side) => sideLabel(replay, side));
    const rules = variantOf(replay.variant);
    const sets = rules && rules.sets_to_win > 1 && Array.isArray(replay.sets) && replay.sets.length;
    const final = (sets ? replay.sets : replay.totals).map((n) => num(n)).join(" – ");
    const winner = replay.winner === null || replay.winner === undefined ? t("end.over") : t("end.winner", { name: sideLabel(replay, replay.winner) });
    const actions = [];
    if (replay.record) actions.push(h("a", { class: "btn small", href: replay.record, download: `basra-${replay.table}.json` }, t("end.record")));
    if (!id) actions.push(h("button", { type: "button", class: "btn small ghost", dataset: { action: "another-file", focusKey: "another-file" } }, t("replay.file.another")));
    const targets = reportTargets();
    if (targets.length) actions.push(h("button", { type: "button", class: "btn small ghost replay-report", dataset: { action: "report", focusKey: "report" } }, targets.length > 1 ? t("report.button_player") : t("report.player", { name: targets[0].name })));
    return h("header", { class: "replay-head", dataset: { key: "head" } },
      h("div", { class: "replay-title-row" },
        id ? h("h1", { tabindex: "-1" }, t("replay.title")) : null,
        actions.length ? h("div", { class: "replay-actions" }, actions) : null),
      h("p", { class: "replay-match" },
        h("strong", null, t(`variant.${replay.variant}.name`)), " · ",
        h("span", { class: "replay-names" }, sides.join(t("replay.vs"))), " · ",
        sets ? [t("replay.sets"), " "] : null, h("bdi", { class: "replay-final", dir: "ltr" }, final), " · ",
        h("span", { class: "replay-winner" }, winner),
        replay.resigned !== null && replay.resigned !== undefined ? [" · ", h("span", null, t("end.resigned", { name: seatLabel(replay, replay.resigned) }))] : null),
      st.fileName ? h("p", { class: "hint replay-file-name" }, t("replay.file.shown", { name: st.fileName })) : null);
  }

  /** The players this page's player may report: the other seats of a stored match that
   * are people (known once the viewer's own seat is). */
  function reportTargets() {
    const replay = st.replay;
    if (!id || !replay || st.viewer === undefined || !session.token) return [];
    return playersOf(replay).filter((p) => p.kind === "human" && p.seat !== st.viewer)
      .map((p) => ({ name: seatLabel(replay, p.seat), body: { table: id, seat: p.seat } }));
  }

  function result(replay, pos) {
    const round = replay.rounds[pos.r];
    const atEnd = pos.s === round.steps.length - 1;
    const lastRound = pos.r === replay.rounds.length - 1;
    const body = [h("h2", { id: "replay-result-title" }, t("replay.result_title", { n: num(round.number) }))];
    if (!atEnd) {
      body.push(h("p", { class: "hint" }, t("replay.result_later")));
    } else if (!round.result) {
      body.push(h("p", null, replay.resigned !== null && replay.resigned !== undefined
        ? t("replay.cut_short_by", { name: seatLabel(replay, replay.resigned) }) : t("replay.cut_short")));
    } else {
      const ts = tableState(replay, pos.r, st.verifications);
      const b = roundBreakdown(ts.game.view, { index: pos.r, round: round.number });
      if (b) body.push(breakdownTable(ts, b));
    }
    if (atEnd && lastRound) {
      body.push(h("p", { class: "replay-match-end", dataset: { winner: replay.winner === null ? "" : String(replay.winner) } },
        h("strong", null, replay.winner === null || replay.winner === undefined ? t("end.over") : t("end.winner", { name: sideLabel(replay, replay.winner) })),
        " ", h("bdi", { dir: "ltr" }, replay.totals.map((n) => num(n)).join(" – "))));
    }
    return h("section", { class: ["panel", "replay-result", atEnd && "shown"], "aria-labelledby": "replay-result-title", dataset: { key: "result" } }, body);
  }

  function failure(err) {
    const code = err.code || "";
    let words;
    let extra = null;
    if (code === "replay/not_finished") {
      words = t("replay.error.not_finished");
      extra = link(`/table/${encodeURIComponent(id)}`, { class: "btn" }, t("replay.error.watch"));
    } else if (code === "table/not_found") words = t("replay.error.no_match");
    else if (code === "replay/not_found") words = t("replay.error.nothing");
    else {
      words = errorText(err);
      extra = h("button", { type: "button", class: "btn", dataset: { action: "retry" } }, t("conn.retry"));
    }
    return [h("p", { class: "replay-error field-error", role: "alert", dataset: { code } }, words),
      h("p", { class: "replay-error-actions" }, extra, " ", link("/history", { class: "btn ghost" }, t("history.title")))];
  }

  function build() {
    const replay = st.replay;
    if (!replay) {
      if (!id) return h("div", { class: "replay-view" });
      return h("div", { class: "replay-view" },
        h("header", { class: "replay-head", dataset: { key: "head" } }, h("h1", { tabindex: "-1" }, t("replay.title"))),
        st.failed ? failure(st.failed) : h("p", { class: "muted" }, spinner(), " ", t("lobby.loading")));
    }
    if (!replay.rounds.length) {  // resigned (or given up) before a card was played
      return h("div", { class: "replay-view", dataset: { round: "0" } }, head(replay),
        h("p", { class: "panel replay-empty" }, t("replay.no_rounds")));
    }
    const pos = st.pos;
    const { analysis, byKey, margins } = analysisNow();
    return h("div", { class: "replay-view", dataset: { round: String(pos.r + 1), step: String(pos.s), analysis: analysis ? "done" : "" } },
      head(replay),
      h("div", { class: "replay-layout" },
        h("div", { class: "replay-main" },
          renderScore(replay, pos),
          renderBoard(replay, pos),
          renderControls(replay, pos),
          renderStepAnalysis(replay, pos, st.watch, byKey, st.showBest, st.expert)),
        h("div", { class: "replay-side" },
          renderPlays(replay, pos, analysis ? byKey : null),
          result(replay, pos),
          renderAnalysisPanel(replay, pos, st.watch, margins, st.graphWidth, st.viewer),
          renderProof(replay, pos.r, st.verifications))));
  }

  let lastShown = "";
  function render() {
    if (!st.alive) return;
    if (opener) opener.el.hidden = !!st.replay && !st.opening && !opener.hasNews();
    morph(view, build());
    const scrubber = view.querySelector(".replay-scrubber");
    if (scrubber && scrubber.value !== String(st.pos.s)) scrubber.value = String(st.pos.s);
    // The play shown stays in the list's view when it moves, and when the costs come in.
    const analysed = doneAnalysis(st.watch) ? 1 : 0;
    const shown = `${st.pos.r}:${st.pos.s}:${analysed}`;
    if (shown !== lastShown) {
      if (analysed && !lastShown.endsWith(":1")) requestAnimationFrame(measure);
      lastShown = shown;
      keepInView(view.querySelector(".replay-play-list"), view.querySelector(".replay-play.current"));
    }
  }

  /** The graph is drawn at the analysis panel's width (in pixels, so its words keep their
   * size on a phone): measured when the page's width changes (a ResizeObserver, which also
   * tells once as it starts) and when the analysis comes in, never on every step. */
  function measure() {
    const panel = view.querySelector(".replay-analysis");
    if (!panel) return;
    const style = getComputedStyle(panel);
    const width = Math.floor(panel.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight));
    if (width > 0 && Math.abs(width - st.graphWidth) > 1) {
      st.graphWidth = width;
      if (doneAnalysis(st.watch)) render();
    }
  }

  // ------------------------------------------------------------------ moving

  function go(pos, { tell = true } = {}) {
    if (!st.replay || !pos) return;
    if (!st.replay.rounds.length) { st.pos = { r: 0, s: 0 }; render(); return; }
    st.pos = model.clamp(st.replay, pos);
    history.replaceState(history.state, "", `${location.pathname}${location.search}${model.hashOf(st.pos)}`);
    render();
    if (tell) announce(`${placeWords(st.replay, st.pos)}. ${stepWords(st.replay, st.pos)}`);
  }

  function move(action) {
    const replay = st.replay;
    if (!replay) return;
    const pos = st.pos;
    const to = {
      start: () => model.roundStart(pos),
      end: () => model.roundEnd(replay, pos),
      back: () => model.back(replay, pos),
      forward: () => model.forward(replay, pos),
      "prev-round": () => model.roundAway(replay, pos, -1),
      "next-round": () => model.roundAway(replay, pos, 1),
    }[action];
    if (!to) return;
    const next = to();
    if (next && (next.r !== pos.r || next.s !== pos.s)) go(next);
  }

  function show(replay) {
    st.replay = replay;
    st.verifications = {};
    derived = { analysis: null, byKey: new Map(), margins: null };
    const wanted = model.validHash(replay, location.hash) ? model.parseHash(location.hash) : model.first();
    lastShown = "";
    go(wanted, { tell: false });
    verifyAll(replay, (n, result) => {
      st.verifications = { ...st.verifications, [n]: result };
      render();
    }, () => st.alive && st.replay === replay);
  }

  // ------------------------------------------------------------------ events

  const onClick = (event) => {
    const target = event.target.closest("[data-action]");
    if (!target || !container.contains(target)) return;
    if (target.getAttribute("aria-disabled") === "true") { event.preventDefault(); return; }
    const action = target.dataset.action;
    if (action === "goto") go({ r: Number(target.dataset.r), s: Number(target.dataset.s) });
    else if (action === "goto-play") {
      // One of the analysis's costliest plays: the replay there, the table in view.
      go({ r: Number(target.dataset.r), s: Number(target.dataset.s) });
      const main = view.querySelector(".replay-main");
      if (main && main.getBoundingClientRect().top < 0) main.scrollIntoView({ block: "start", behavior: reducedMotion() ? "auto" : "smooth" });
    }
    else if (action === "graph") {
      const line = model.timeline(st.replay);
      go(line.steps[stepAt(target, event.clientX)]);
    } else if (action === "analyse") { if (st.watch) st.watch.ask(); }
    else if (action === "toggle-best") { st.showBest = !st.showBest; render(); }
    else if (action === "another-file") {
      st.opening = true;
      render();
      const label = opener && opener.el.querySelector(".replay-file-input");
      if (label) label.focus();
    } else if (action === "retry") load();
    else if (action === "report") reportDialog(reportTargets(), { table: id });
    else move(action);
  };
  const onInput = (event) => {
    if (event.target.classList && event.target.classList.contains("replay-scrubber")) {
      go({ r: st.pos.r, s: Number(event.target.value) });
    }
  };
  const onKey = (event) => {
    if (!st.replay || event.defaultPrevented || keyOwnedByTarget(event.target)) return;
    const action = keyAction(event);
    if (!action) return;
    event.preventDefault();
    move(action);
  };
  const onHash = () => {
    if (st.replay && model.validHash(st.replay, location.hash)) {
      const pos = model.parseHash(location.hash);
      if (pos.r !== st.pos.r || pos.s !== st.pos.s) go(pos);
    }
  };
  // "Details for experts" opened or closed (a toggle does not bubble: caught on its way).
  const onToggle = (event) => {
    if (!event.target.classList || !event.target.classList.contains("analysis-expert")) return;
    if (st.expert !== event.target.open) {
      st.expert = event.target.open;
      render();
      if (st.expert) requestAnimationFrame(measure);
    }
  };
  container.addEventListener("click", onClick);
  container.addEventListener("toggle", onToggle, true);
  container.addEventListener("input", onInput);
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", onHash);
  const unswipe = swipe(container, ".replay-felt", move);
  const resized = typeof ResizeObserver === "function" ? new ResizeObserver(() => requestAnimationFrame(measure)) : null;
  if (resized) resized.observe(view);

  async function load() {
    st.failed = null;
    render();
    try {
      const [replay] = await Promise.all([fetchReplay(id), styled]);
      if (!st.alive) return;
      show(replay);
      st.watch = new AnalysisWatch(id, render);
      st.watch.start();
      fetchSeat(id).then((seat) => {
        if (!st.alive) return;
        st.viewer = seat;
        render();
      });
    } catch (err) {
      if (!st.alive) return;
      st.failed = err;
      render();
    }
  }

  if (id) load();
  else styled.then(render);
  render();

  return {
    unmount() {
      st.alive = false;
      if (st.watch) st.watch.stop();
      container.removeEventListener("click", onClick);
      container.removeEventListener("toggle", onToggle, true);
      container.removeEventListener("input", onInput);
      document.removeEventListener("keydown", onKey);
      window.removeEventListener("hashchange", onHash);
      unswipe();
      if (resized) resized.disconnect();
      if (opener) opener.detach();
      container.classList.remove("replay-page", "replay-dragging");
    },
    relabel() {
      if (top) top.textContent = t("replay.title");
      if (opener) opener.relabel();
      render();
    },
  };
}

/** Scroll `list` (not the page) so that `item` is in it. */
function keepInView(list, item) {
  if (!list || !item || list.scrollHeight <= list.clientHeight) return;
  const top = item.offsetTop;
  if (top < list.scrollTop) list.scrollTop = Math.max(0, top - 8);
  else if (top + item.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = top + item.offsetHeight - list.clientHeight + 8;
}
