// /puzzles (rated puzzles near your puzzle rating, by variant), /puzzles/daily (the day's
// puzzle), /puzzles/streak (rising difficulty until the first wrong play) and /puzzle/ID
// (one puzzle, to share). A puzzle is a last deal of two players where every card is
// known to a player who counts: find the best play, the server answers with the
// opponent's best reply, until the line is solved. A hint shows the card; the solution shows
// the whole line and by how much the best first play beats the next best. The server
// judges every play (the browser never has the solution before it is shown).

import { h, replace } from "../lib/dom.js";
import { t, num } from "../lib/i18n.js";
import { cachedMe, request } from "../lib/api.js";
import { errorText, link, loadStyle, navigate, spinner, announce } from "../lib/ui.js";
import { cardShort, signedTag, withCardNames } from "../lib/cards.js";
import { renderBoard, scoreBar, playWords } from "../puzzle/board.js";

const STYLES = ["../../css/table.css", "../../css/puzzles.css"].map((path) => new URL(path, import.meta.url));
const VARIANTS = ["egyptian", "arabic101", "lebanese", "serbian"];
const VARIANT_KEY = "basra.puzzles.variant";
const STREAK_KEY = "basra.puzzles.streak";
const REPLY_MS = 650;

function storedVariant() {
  try { const v = localStorage.getItem(VARIANT_KEY); return VARIANTS.includes(v) ? v : "egyptian"; } catch { return "egyptian"; }
}

export function mount(container, params) {
  let alive = true;
  const mode = params.mode === "one" ? "one" : params.mode === "daily" ? "daily" : params.mode === "streak" ? "streak" : "rated";
  let variant = storedVariant();
  let puzzle = null;
  let position = null;
  let plays = [];
  let shown = [];
  let choosing = null;
  let hint = null;
  let busy = false;
  let verdict = null;
  let message = null;
  let solution = null;
  let rated = null;
  let failed = null;
  let laid = [];
  let failedOnce = false;
  // The streak: its seed (kept for the tab), how many solved, the plays of each.
  let streak = null;
  container.classList.add("page", "puzzle-page");
  const styled = Promise.all(STYLES.map(loadStyle));

  const reset = (data) => {
    puzzle = data;
    position = data.position;
    plays = [];
    shown = [];
    choosing = null;
    hint = null;
    verdict = null;
    solution = null;
    rated = null;
    laid = [];
    failedOnce = false;
    message = { kind: "info", text: t("puzzle.find", { count: data.line_plays, n: num(data.line_plays) }) };
  };

  const load = async () => {
    failed = null;
    puzzle = null;
    render();
    try {
      let data;
      if (mode === "daily") data = await request("GET", "/api/puzzles/daily");
      else if (mode === "one") data = await request("GET", `/api/puzzles/${encodeURIComponent(params.id)}`);
      else if (mode === "streak") {
        if (!streak) streak = startStreak();
        data = await request("GET", `/api/puzzles/streak/${streak.lines.length}?seed=${streak.seed}`);
      } else data = await request("GET", `/api/puzzles/next?variant=${encodeURIComponent(variant)}`);
      await styled;
      if (!alive) return;
      reset(data);
    } catch (err) { failed = err; }
    render();
  };

  const startStreak = () => {
    const seed = Math.floor(Math.random() * (1 << 30));
    return { seed, lines: [], over: false, best: null };
  };

  const send = async (text) => {
    if (busy) return;
    busy = true;
    choosing = null;
    hint = null;
    const tried = [...plays, text];
    render();
    let step;
    try {
      step = await request("POST", `/api/puzzles/${encodeURIComponent(puzzle.id)}/play`, { plays: tried });
    } catch (err) {
      busy = false;
      message = { kind: "bad", text: errorText(err) };
      render();
      return;
    }
    if (!alive) return;
    if (step.rated) rated = step.rated;
    if (step.verdict === "wrong") {
      failedOnce = true;
      busy = false;
      verdict = "wrong";
      message = { kind: "bad", text: t("puzzle.wrong", { count: step.cost, n: num(step.cost) }) };
      announce(message.text);
      if (mode === "streak") await endStreak();
      render();
      return;
    }
    plays = tried;
    shown.push({ seat: position.you, play: text });
    laid = [];
    // Your play first, then the reply a moment later.
    const mine = h("span", {}, withCardNames(playWords(text, position.you, position.you)));
    message = { kind: "good", text: step.verdict === "solved" ? t("puzzle.solved") : t("puzzle.right"), extra: mine };
    render();
    await new Promise((resolve) => { setTimeout(resolve, step.reply ? REPLY_MS : 0); });
    if (!alive) return;
    if (step.reply) {
      shown.push({ seat: 1 - position.you, play: step.reply });
      const [, take = ""] = step.reply.split(":");
      laid = take ? [] : [step.reply.split(":")[0]];
    }
    position = step.position;
    busy = false;
    verdict = step.verdict;
    if (step.verdict === "solved") {
      message = { kind: "good", text: failedOnce ? t("puzzle.solved_after_miss") : t("puzzle.solved") };
      if (mode === "streak") {
        streak.lines.push(plays);
        message.text = t("puzzle.streak_on", { count: streak.lines.length, n: num(streak.lines.length) });
      }
    } else {
      message = { kind: "good", text: t("puzzle.right_more"), extra: step.reply ? h("span", {}, withCardNames(playWords(step.reply, 1 - position.you, position.you))) : null };
    }
    announce([message.text, step.reply ? playWords(step.reply, 1 - position.you, position.you) : ""].join(" "));
    render();
  };

  const endStreak = async () => {
    streak.over = true;
    if (!cachedMe()) return;
    try {
      const done = await request("POST", "/api/puzzles/streak", { seed: streak.seed, lines: streak.lines });
      streak.best = done.best;
    } catch { /* the streak still shows */ }
  };

  const askHint = async () => {
    try {
      const answer = await request("POST", `/api/puzzles/${encodeURIComponent(puzzle.id)}/hint`, { plays });
      hint = answer.card;
      if (answer.rated) rated = answer.rated;
      failedOnce = true;
      message = { kind: "info", text: t("puzzle.hint_text", { card: cardShort(answer.card) }) };
    } catch (err) { message = { kind: "bad", text: errorText(err) }; }
    render();
  };

  const showSolution = async () => {
    try {
      solution = await request("POST", `/api/puzzles/${encodeURIComponent(puzzle.id)}/solution`);
      if (solution.rated) rated = solution.rated;
      if (mode === "streak" && !streak.over) await endStreak();
    } catch (err) { message = { kind: "bad", text: errorText(err) }; }
    render();
  };

  const nextPuzzle = () => {
    if (mode === "one" || mode === "daily") { navigate("/puzzles"); return; }
    if (mode === "streak" && streak && streak.over) streak = null;
    load();
  };

  const on = {
    play: (text) => send(text),
    choose: (card) => { choosing = card; render(); },
    cancel: () => { choosing = null; render(); },
  };

  const tabs = () => h("nav", { class: "puzzle-tabs", "aria-label": t("puzzle.modes") },
    [["rated", "/puzzles", "puzzle.tab.rated"], ["daily", "/puzzles/daily", "puzzle.tab.daily"], ["streak", "/puzzles/streak", "puzzle.tab.streak"]]
      .map(([key, path, label]) => link(path, { class: ["puzzle-tab", mode === key && "on"], "aria-current": mode === key ? "page" : null }, t(label))));

  const variantPicker = () => {
    if (mode !== "rated") return null;
    const select = h("select", { id: "puzzle-variant", on: { change: (e) => {
      variant = e.target.value;
      try { localStorage.setItem(VARIANT_KEY, variant); } catch { /* private mode */ }
      load();
    } } }, VARIANTS.map((v) => h("option", { value: v, selected: v === variant }, t(`variant.${v}.name`))));
    return h("label", { class: "puzzle-variant" }, h("span", {}, t("puzzle.variant")), select);
  };

  const header = () => h("div", { class: "puzzle-head" },
    h("h1", {}, t(mode === "daily" ? "puzzle.daily_title" : mode === "streak" ? "puzzle.streak_title" : "puzzle.title")),
    tabs(),
    h("div", { class: "puzzle-meta" }, variantPicker(),
      puzzle ? h("span", { class: "puzzle-rating" }, t("puzzle.rating_of_puzzle", { rating: String(puzzle.rating) })) : null,
      puzzle && puzzle.you_rating ? h("span", { class: "puzzle-rating mine" }, t("puzzle.your_rating", { rating: puzzle.you_rating })) : null,
      puzzle ? h("span", { class: ["badge", "puzzle-kind", puzzle.rated && "rated"] }, t(puzzle.rated ? "puzzle.kind_rated" : "puzzle.kind_practice")) : null,
      mode === "streak" && streak ? h("span", { class: "puzzle-streak" }, t("puzzle.streak_count", { count: streak.lines.length, n: num(streak.lines.length) })) : null));

  const solutionView = () => {
    if (!solution) return null;
    const you = puzzle.you;
    const steps = solution.line.map((step) => h("li", { class: step.seat === you ? "mine" : "theirs" },
      withCardNames(playWords(step.play, step.seat, you)),
      step.accepted && step.accepted.length > 1 ? h("span", { class: "muted" }, " ", t("puzzle.also_right", { count: step.accepted.length - 1, n: num(step.accepted.length - 1) })) : null));
    const second = solution.second;
    return h("section", { class: "puzzle-solution", "aria-labelledby": "puzzle-solution-title" },
      h("h2", { id: "puzzle-solution-title" }, t("puzzle.solution")),
      h("ol", { class: "puzzle-line" }, steps),
      h("p", {}, withCardNames(t("puzzle.margin", { best: cardShort(solution.best.split(":")[0]), second: cardShort(second.play.split(":")[0]), count: solution.margin, n: num(solution.margin) }))),
      h("p", { class: "muted" }, t("puzzle.value", { value: solution.value }), " ", signedTag(solution.value)));
  };

  const themes = () => (puzzle && (verdict === "solved" || solution) && puzzle.themes.length
    ? h("p", { class: "puzzle-themes" }, t("puzzle.themes"), " ", puzzle.themes.map((theme) => h("span", { class: "badge" }, t(`puzzle.theme.${theme}`))))
    : null);

  const ratedView = () => (rated ? h("p", { class: ["puzzle-rated", rated.change >= 0 ? "up" : "down"] },
    t("puzzle.rating_now", { rating: String(rated.after) }), " ", signedTag(rated.change)) : null);

  const actions = () => {
    const done = verdict === "solved" || solution || (mode === "streak" && streak && streak.over);
    return h("div", { class: "puzzle-actions" },
      !done ? h("button", { type: "button", class: "btn ghost", on: { click: askHint }, disabled: busy || hint !== null }, t("puzzle.hint")) : null,
      !done ? h("button", { type: "button", class: "btn ghost", on: { click: showSolution }, disabled: busy }, t("puzzle.show_solution")) : null,
      verdict === "solved" && !solution ? h("button", { type: "button", class: "btn ghost", on: { click: showSolution } }, t("puzzle.see_line")) : null,
      done || mode === "rated" ? h("button", { type: "button", class: ["btn", done && "primary"], on: { click: nextPuzzle } },
        mode === "streak" && streak && streak.over ? t("puzzle.streak_again") : t("puzzle.next")) : null);
  };

  const render = () => {
    if (!alive) return;
    if (failed) { replace(container, header(), h("p", { class: "field-error", role: "alert" }, errorText(failed))); return; }
    if (!puzzle) { replace(container, header(), h("p", { class: "muted" }, spinner(), " ", t("lobby.loading"))); return; }
    const note = message ? h("p", { class: ["puzzle-message", message.kind], role: "status" }, withCardNames(message.text), message.extra ? [" ", message.extra] : null) : null;
    const over = mode === "streak" && streak && streak.over
      ? h("p", { class: "puzzle-message bad" }, t("puzzle.streak_over", { count: streak.lines.length, n: num(streak.lines.length) }),
        streak.best !== null ? [" ", t("puzzle.streak_best", { count: streak.best, n: num(streak.best) })] : null)
      : null;
    replace(container, header(),
      h("p", { class: "puzzle-intro muted" }, t("puzzle.intro")),
      scoreBar(position),
      renderBoard(position, { choosing, hint, laid, busy }, on),
      note, over, ratedView(), themes(), actions(), solutionView(),
      h("p", { class: "puzzle-foot" }, link("/learn", {}, t("puzzle.to_lessons")), " · ", link(`/puzzle/${puzzle.id}`, {}, t("puzzle.link"))));
  };

  load();
  return { unmount() { alive = false; }, relabel: render };
}
