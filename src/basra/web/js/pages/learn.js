// /learn and /learn/LESSON (issue 29): the lessons, one rule each, on the real table's look.
// /learn lists them with their ticks (learn/progress.js: the browser's, and an account's from
// the server), a big Start or Continue, the puzzles, and "Practice against an easy bot with
// hints" (learn/practice.js). /learn/LESSON shows one step at a time (learn/board.js): tap a
// card (choose the take when it has several), and the feedback says what it did and, when
// wrong, why; Next, until "Lesson done" and the next lesson. Every answer's effect and words
// come from the server (GET /api/lessons/ID, made by the engine): the page knows no rule.

import { h, replace } from "../lib/dom.js";
import { t, num } from "../lib/i18n.js";
import { request } from "../lib/api.js";
import { errorText, link, loadStyle, navigate, setPageTitle, spinner, toast } from "../lib/ui.js";
import { feedback, playStep, playsOf, questionStep } from "../learn/board.js";
import { loadProgress, localDone, markDone } from "../learn/progress.js";
import { practiceVariant, startPractice } from "../learn/practice.js";

const STYLES = ["../../css/table.css", "../../css/learn.css"].map((path) => new URL(path, import.meta.url));

export function mount(container, params) {
  const page = new LearnPage(container, params.lesson || "");
  page.start();
  return { unmount: () => page.destroy(), relabel: () => page.draw() };
}

class LearnPage {
  constructor(container, lessonId) {
    Object.assign(this, { container, lessonId, destroyed: false, progress: null, lesson: null, error: null });
    this.state = { index: 0, choice: null, result: null, finished: false };
    this.busy = false;
  }

  async start() {
    this.container.classList.add("page", "learn-page");
    replace(this.container, h("p", { class: "muted" }, spinner(), " ", t("lobby.loading")));
    await Promise.all(STYLES.map(loadStyle));
    try {
      if (this.lessonId) this.lesson = await request("GET", `/api/lessons/${encodeURIComponent(this.lessonId)}`);
      this.progress = await loadProgress().catch(() => null);
    } catch (err) {
      this.error = err;
    }
    if (!this.destroyed) this.draw();
  }

  destroy() { this.destroyed = true; }

  done() {
    return this.progress ? this.progress.done : localDone();
  }

  draw() {
    if (this.destroyed) return;
    if (this.error) { this.drawError(); return; }
    if (!this.lessonId) { this.drawList(); return; }
    setPageTitle(`${t(this.lesson.title)} · ${t("page.title.learn")}`);
    if (this.state.finished) this.drawDone();
    else this.drawStep();
  }

  drawError() {
    const unknown = this.error && this.error.code === "lesson/unknown";
    replace(this.container,
      h("p", { class: "crumbs" }, link("/learn", null, t("learn.back"))),
      h("h1", null, t("learn.title")),
      h("p", { class: "field-error", role: "alert" }, unknown ? t("learn.unknown") : errorText(this.error)),
      unknown ? null : h("button", { type: "button", class: "btn primary", on: { click: () => location.reload() } }, t("conn.retry")));
  }

  // ---------------------------------------------------------------- /learn

  drawList() {
    if (!this.progress) { this.error = { code: "network/offline" }; this.drawError(); return; }
    const { lessons } = this.progress;
    const done = this.done();
    const finished = lessons.filter((l) => done[l.id]).length;
    const next = lessons.find((l) => !done[l.id]);
    const start = next || lessons[0];
    const label = finished === 0 ? "learn.start" : next ? "learn.continue" : "learn.review";
    replace(this.container,
      h("header", { class: "learn-head" },
        h("h1", null, t("learn.title")),
        h("p", { class: "lead" }, t("learn.intro"))),
      h("section", { class: "card-box learn-start", "aria-labelledby": "learn-progress" },
        h("p", { id: "learn-progress", class: "learn-progress" },
          t("learn.progress", { count: finished, n: num(finished), total: num(lessons.length) })),
        h("div", { class: "learn-bar", "aria-hidden": "true" },
          h("span", { style: { width: `${Math.round((finished / lessons.length) * 100)}%` } })),
        link(`/learn/${start.id}`, { class: "btn primary big learn-go", id: "learn-go" },
          t(label), next ? h("span", { class: "learn-go-title" }, t(start.title)) : null)),
      h("ol", { class: "learn-list", "aria-label": t("learn.lessons") }, lessons.map((lesson, i) => {
        const tick = !!done[lesson.id];
        return h("li", { class: ["learn-item", tick && "done"], dataset: { lesson: lesson.id, done: tick ? "true" : "false" } },
          link(`/learn/${lesson.id}`, { class: "learn-item-link" },
            h("span", { class: "learn-tick", "aria-hidden": "true" }, tick ? "✓" : num(i + 1)),
            h("span", { class: "learn-item-text" },
              h("span", { class: "learn-item-title" }, t(lesson.title)),
              h("span", { class: "learn-item-meta" },
                lesson.id === lesson.variant ? h("span", { class: "chip" }, t(`variant.${lesson.variant}.name`)) : null,
                t("learn.steps", { count: lesson.steps, n: num(lesson.steps) }))),
            h("span", { class: "sr-only" }, tick ? t("learn.done_mark") : "")));
      })),
      this.more(!next));
  }

  /** Puzzles, the daily puzzle and the practice game. */
  more(allDone) {
    return h("section", { class: ["card-box", "learn-more", allDone && "all-done"], "aria-labelledby": "learn-more-title" },
      h("h2", { id: "learn-more-title" }, t("learn.more_title")),
      this.practiceButton(),
      h("p", { class: "hint" }, t("learn.practice_text")),
      h("div", { class: "learn-links" },
        link("/puzzles", { class: "btn learn-puzzles" }, t("learn.puzzles")),
        link("/puzzles/daily", { class: "btn learn-daily" }, t("learn.daily")),
        link("/rules", { class: "btn learn-rules" }, t("learn.rules"))));
  }

  practiceButton() {
    return h("button", { type: "button", class: "btn primary big learn-practice", id: "learn-practice", disabled: this.busy,
      on: { click: () => this.practice() } }, this.busy ? spinner() : null, t("learn.practice"));
  }

  async practice() {
    if (this.busy) return;
    this.busy = true;
    this.draw();
    try {
      await startPractice(this.lesson && this.lesson.id === this.lesson.variant ? this.lesson.variant : practiceVariant());
    } catch (err) {
      this.busy = false;
      toast(errorText(err), "error");
      this.draw();
    }
  }

  // ---------------------------------------------------------------- /learn/LESSON

  step() {
    return this.lesson.steps[this.state.index];
  }

  drawStep() {
    const lesson = this.lesson;
    const step = this.step();
    const total = lesson.steps.length;
    const last = this.state.index === total - 1;
    const act = (what, arg) => this.act(what, arg);
    replace(this.container,
      h("nav", { class: "learn-crumbs", "aria-label": t("learn.lessons") },
        link("/learn", { class: "learn-back" }, t("learn.back")),
        h("ol", { class: "learn-dots", "aria-label": t("learn.step_of", { n: num(this.state.index + 1), total: num(total) }) },
          lesson.steps.map((_, i) => h("li", { class: ["learn-dot", i < this.state.index && "past", i === this.state.index && "now"] })))),
      h("h1", { class: "learn-title" }, t(lesson.title)),
      this.state.index === 0 ? h("p", { class: "learn-intro" }, t(lesson.intro)) : null,
      h("p", { class: "learn-step muted" }, t("learn.step_of", { n: num(this.state.index + 1), total: num(total) })),
      h("section", { class: "learn-board", dataset: { step: String(this.state.index), kind: step.kind } },
        step.kind === "play" ? playStep(step, this.state, act) : questionStep(step, this.state, act)),
      feedback(step, this.state, act, { last }));
  }

  act(what, arg) {
    const step = this.step();
    const st = this.state;
    if (what === "card") {
      const plays = playsOf(step, arg);
      if (plays.length === 1) this.answer(plays[0]);
      else { this.state = { ...st, choice: { card: arg, options: plays } }; this.draw(); }
    } else if (what === "option" && st.choice) {
      this.answer(st.choice.options[arg]);
    } else if (what === "floor" && st.choice) {
      const found = st.choice.options.filter((o) => o.take.includes(arg));
      if (found.length === 1) this.answer(found[0]);
    } else if (what === "cancel") {
      this.state = { ...st, choice: null };
      this.draw();
    } else if (what === "answer") {
      const option = step.options[arg];
      this.show({ right: option.right, lines: option.lines, index: arg });
    } else if (what === "again") {
      this.state = { ...st, choice: null, result: null };
      this.draw();
      this.container.querySelector(".learn-board .hand-card, .learn-option")?.focus();
    } else if (what === "next") {
      this.next();
    }
  }

  answer(play) {
    this.show({ right: play.right, lines: play.lines, card: play.card, take: play.take });
  }

  show(result) {
    this.state = { ...this.state, choice: null, result };
    this.draw();
    const box = this.container.querySelector(".learn-feedback");
    if (box) {
      box.scrollIntoView({ block: "nearest" });
      box.querySelector("button")?.focus({ preventScroll: true });
    }
  }

  async next() {
    const total = this.lesson.steps.length;
    if (this.state.index + 1 < total) {
      this.state = { index: this.state.index + 1, choice: null, result: null, finished: false };
      this.draw();
      window.scrollTo(0, 0);
      return;
    }
    this.state = { ...this.state, finished: true };
    await markDone(this.lesson.id);
    if (this.progress) this.progress.done = { ...this.progress.done, ...localDone() };
    this.draw();
    window.scrollTo(0, 0);
    this.container.querySelector(".learn-done .btn")?.focus({ preventScroll: true });
  }

  drawDone() {
    const lesson = this.lesson;
    const nextId = lesson.next;
    const nextLesson = nextId && this.progress ? this.progress.lessons.find((l) => l.id === nextId) : null;
    replace(this.container,
      h("nav", { class: "learn-crumbs", "aria-label": t("learn.lessons") }, link("/learn", { class: "learn-back" }, t("learn.back"))),
      h("section", { class: "card-box learn-done", role: "status" },
        h("p", { class: "learn-done-mark", "aria-hidden": "true" }, "✓"),
        h("h1", null, t("learn.lesson_done")),
        h("p", { class: "lead" }, t("learn.lesson_done_text", { title: t(lesson.title) })),
        nextId ? h("button", { type: "button", class: "btn primary big learn-next-lesson", id: "learn-next-lesson",
          on: { click: () => navigate(`/learn/${nextId}`) } },
        nextLesson ? t("learn.next_lesson", { title: t(nextLesson.title) }) : t("learn.next")) : h("p", null, t("learn.all_done")),
        link("/learn", { class: "btn ghost big" }, t("learn.back"))),
      nextId ? null : this.more(true));
  }
}
