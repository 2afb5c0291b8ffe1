// /mistakes/ID?seat=N: "Learn from your mistakes". A seat's costliest plays of an analysed
// match (GET /api/replays/ID/mistakes: basra-mistakes/1), one position at a time on the
// table's own look: the floor, the hand, the score, how many cards were still unseen, and
// "Find the better play". A tap on a card plays it (a card with several takes opens the
// take choice, as at the table); the expert's play is the answer: right, "That's the
// expert's play" and what it takes; wrong, what was played in the match, the expert's play,
// what it takes and what the mistake cost this round. Next; at the end, how many were
// found, and the way back to the replay. No seat given: the viewer's own (a player of the
// match). Anyone who may see the replay may open it (guests too).

import { h, morph } from "../lib/dom.js";
import { t, num } from "../lib/i18n.js";
import { cardFace, cardLabel, cardName, cardTag, cardTags } from "../lib/cards.js";
import { announce, errorText, fill, link, loadStyle, spinner } from "../lib/ui.js";
import { fetchMistakes } from "../replay/data.js";
import { seatLabel, sideLabel } from "../replay/adapter.js";
import { aboutPoints, bestOf, costWords, madeOf, pluralFill, sentences, whyWords } from "../replay/words.js";

const STYLES = ["../../css/table.css", "../../css/mistakes.css"].map((path) => new URL(path, import.meta.url));

const sameSet = (a, b) => a.length === b.length && a.every((card) => b.includes(card));
const samePlay = (a, b) => a.card === b.card && sameSet(a.take, b.take);

export function mount(container, params) {
  const id = String(params.id || "");
  const asked = new URLSearchParams(location.search).get("seat");
  const seatAsked = asked !== null && /^\d+$/.test(asked) ? Number(asked) : null;
  container.classList.add("page", "mistakes-page");
  const styled = Promise.all(STYLES.map(loadStyle));
  const st = {
    alive: true,
    data: null,
    failed: null,
    index: 0,
    choice: null,
    picked: null,
    results: [],
  };
  const view = h("div", { class: "mistakes-view" });
  container.append(view);

  const replayPath = (hash = "") => `/replay/${encodeURIComponent(id)}${hash}`;
  const you = () => st.data && st.data.viewer !== null && st.data.viewer === st.data.seat;
  const name = () => (st.data ? seatLabel(st.data, st.data.seat) : "");

  // ------------------------------------------------------------------ drawing

  function head() {
    const title = !st.data || you() ? t("mistakes.title") : t("mistakes.title_of", { name: name() });
    return h("header", { class: "mistakes-head", dataset: { key: "head" } },
      h("h1", { tabindex: "-1" }, title),
      st.data && st.data.positions.length ? h("p", { class: "muted mistakes-intro" },
        you() ? t("mistakes.intro") : t("mistakes.intro_of", { name: name() })) : null,
      link(replayPath(), { class: "btn small ghost mistakes-back-top", dataset: { key: "back-top" } }, t("mistakes.back")));
  }

  function failure(err) {
    const code = (err && err.code) || "";
    const words = code === "analysis/not_ready" ? t("mistakes.not_ready")
      : code === "analysis/bad_seat" ? t("mistakes.bad_seat")
        : code === "table/not_found" ? t("replay.error.no_match")
          : code === "replay/not_finished" ? t("replay.error.not_finished")
            : errorText(err);
    return h("div", { class: "mistakes-error", dataset: { key: "error" } },
      h("p", { class: "field-error", role: "alert", dataset: { code } }, words),
      h("p", { class: "mistakes-actions" },
        link(replayPath(), { class: "btn primary" }, t("mistakes.back")),
        code === "analysis/not_ready" || code === "analysis/bad_seat" || code === "table/not_found" ? null
          : h("button", { type: "button", class: "btn ghost", dataset: { action: "retry" } }, t("conn.retry"))));
  }

  /** The score as the round began: each side's name and total. */
  function score(data, p) {
    const sides = p.totals.map((total, side) => h("span", { class: "mistakes-score-side", dataset: { side: String(side) } },
      h("span", { class: "mistakes-score-name" }, sideLabel(data, side)), " ",
      h("bdi", { class: "mistakes-score-total", dir: "ltr" }, num(total))));
    return h("p", { class: "mistakes-score", role: "img", "aria-label": t("mistakes.score_label", { score: p.totals.map((n, side) => `${sideLabel(data, side)} ${num(n)}`).join(t("list.and")) }) },
      sides.flatMap((el, i) => (i ? [h("span", { class: "mistakes-score-sep", "aria-hidden": "true" }, " – "), el] : [el])));
  }

  function floor(data, p, best) {
    const answered = !!st.picked;
    const option = st.choice ? st.choice.options[st.choice.focus] : null;
    return h("div", {
      class: ["floor", "mistakes-floor", !p.floor.length && "empty"], role: p.floor.length ? "list" : "group", "aria-label": t("table.floor"),
      dataset: { floor: p.floor.join(" "), size: p.floor.length > 10 ? "xl" : p.floor.length > 6 ? "l" : "n", key: `floor-${st.index}` },
    }, p.floor.length ? p.floor.map((card) => h("div", {
      class: ["card", "floor-card",
        answered && best.take.includes(card) && "mistakes-best-take",
        answered && !samePlay(st.picked, best) && st.picked.take.includes(card) && "mistakes-picked-take",
        option && option.take.includes(card) && "opt-focus",
        st.choice && !st.choice.options.some((o) => o.take.includes(card)) && "dim"],
      role: "listitem", "aria-label": cardLabel(card, data.variant), dataset: { card, key: card },
    }, cardFace(card, data.variant))) : h("span", { class: "floor-empty-text" }, t("table.floor_empty")));
  }

  function hand(data, p, best) {
    const answered = !!st.picked;
    const made = madeOf(p);
    return h("div", {
      class: ["hand", "mistakes-hand", !answered && "my-turn"], role: "group",
      "aria-label": you() ? t("table.hand") : t("replay.hand_of", { name: name() }),
      dataset: { key: `hand-${st.index}`, cards: p.hand.join(" ") },
    }, p.hand.map((card) => {
      const options = p.legal.filter((play) => play.card === card);
      const label = [cardLabel(card, data.variant)];
      if (options.length > 1) label.push(t("hand.choices", { count: options.length, n: options.length }));
      else if (options.length === 1 && options[0].take.length) label.push(t("hand.takes", { cards: options[0].take.map(cardName).join(t("list.and")) }));
      if (answered && card === best.card) label.push(t("mistakes.mark.best"));
      if (answered && card === made.card) label.push(t("mistakes.mark.made"));
      return h("button", {
        type: "button",
        class: ["card", "hand-card", "playable", options.length > 1 && "multi",
          st.choice && st.choice.card === card && "selected",
          answered && card === best.card && "mistakes-best",
          answered && card === made.card && card !== best.card && "mistakes-made",
          answered && st.picked.card === card && "mistakes-picked"],
        "aria-label": label.join(t("list.sep")),
        "aria-disabled": answered ? "true" : "false",
        dataset: { action: "pick", card, key: card, focusKey: `card-${card}` },
      }, cardFace(card, data.variant),
      answered && card === best.card ? h("span", { class: "mistakes-tag best", "aria-hidden": "true" }, t("mistakes.mark.best")) : null,
      answered && card === made.card && card !== best.card ? h("span", { class: "mistakes-tag made", "aria-hidden": "true" }, t("mistakes.mark.made")) : null);
    }));
  }

  function choiceBar() {
    const choice = st.choice;
    if (!choice) return null;
    return h("div", { class: "choice-bar mistakes-choice", dataset: { key: "choice" } },
      h("div", { class: "choice-title", id: "mistakes-choice-title" }, fill("choice.title", { card: cardTag(choice.card) })),
      h("div", { class: "choice-options", role: "group", "aria-labelledby": "mistakes-choice-title" },
        choice.options.map((option, i) => h("button", {
          type: "button", class: ["btn", "choice-option", i === choice.focus && "focus"],
          dataset: { action: "option", option: String(i), focusKey: `option-${i}`, key: `${choice.card}-${i}` },
          "aria-label": t("choice.option_label", { n: i + 1, cards: option.take.map(cardName).join(t("list.and")) }),
        }, h("span", { class: "opt-num" }, num(i + 1)), h("span", { class: "opt-cards" }, cardTags(option.take, " + "))))),
      h("button", { type: "button", class: "btn ghost small", dataset: { action: "cancel-choice", focusKey: "choice-cancel" } }, t("choice.cancel")));
  }

  /** After an answer: right or wrong, in words. */
  function verdict(data, p, best) {
    const made = madeOf(p);
    const right = samePlay(st.picked, best);
    const n = aboutPoints(p.cost);
    const who = you() ? "you" : "they";
    // The play made, with what it took ("the 8♦ (taking 4♥ 4♣)"): the same card with
    // another take is a mistake too.
    const madeTag = made.take.length ? fill("mistakes.play_take", { card: cardTag(made.card), cards: cardTags(made.take, " ") }) : cardTag(made.card);
    const lines = [];
    if (right) {
      lines.push(h("p", { class: "mistakes-verdict-head" }, h("span", { class: "mistakes-mark", "aria-hidden": "true" }, "✓ "),
        best.take.length ? fill("mistakes.right_take", { card: cardTag(best.card), cards: cardTags(best.take, " ") })
          : fill("mistakes.right_lay", { card: cardTag(best.card) })));
      lines.push(h("p", null, pluralFill(`mistakes.match.${who}`, { name: name(), card: madeTag, n: num(n), count: n })));
    } else {
      lines.push(h("p", { class: "mistakes-verdict-head" }, h("span", { class: "mistakes-mark", "aria-hidden": "true" }, "✗ "), t("mistakes.not_it")));
      lines.push(h("p", null, pluralFill(`mistakes.wrong.${who}_${best.take.length ? "take" : "lay"}`, {
        name: name(), made: madeTag, card: cardTag(best.card), cards: cardTags(best.take, " "), n: num(n), count: n,
      })));
    }
    const why = whyWords(p).slice(1);
    if (why.length) lines.push(h("p", { class: "mistakes-why" }, sentences(why)));
    return h("div", { class: ["mistakes-verdict", right ? "right" : "wrong"], dataset: { right: right ? "1" : "0", key: `verdict-${st.index}` } }, lines);
  }

  function position(data) {
    const p = data.positions[st.index];
    const best = bestOf(p);
    const count = data.positions.length;
    const last = st.index === count - 1;
    return h("div", { class: "mistakes-position", dataset: { key: `position-${st.index}`, index: String(st.index), round: String(p.round), number: String(p.number), best: best.card, bestTake: best.take.join(" ") } },
      h("div", { class: "mistakes-top" },
        h("p", { class: "mistakes-progress" }, t("mistakes.progress", { k: num(st.index + 1), n: num(count) })),
        h("ol", { class: "mistakes-dots", "aria-hidden": "true" }, data.positions.map((_, i) => h("li", {
          class: [i === st.index && "current", st.results[i] === true && "right", st.results[i] === false && "wrong"],
        })))),
      h("div", { class: "felt mistakes-felt", dataset: { key: "felt" } },
        h("div", { class: "mistakes-context" },
          h("p", { class: "mistakes-where" }, t("analysis.item.place", { round: num(p.round), number: num(p.number) }), " · ",
            link(replayPath(`#r${p.round}p${Math.max(0, p.number - 1)}`), { class: "mistakes-see" }, t("mistakes.see"))),
          score(data, p),
          h("p", { class: "mistakes-unseen" }, t("mistakes.unseen", { n: num(p.unseen), count: p.unseen }))),
        floor(data, p, best),
        choiceBar(),
        h("p", { class: "mistakes-whose" }, you() ? t("table.hand") : t("replay.hand_of", { name: name() })),
        hand(data, p, best)),
      h("div", { class: "mistakes-prompt", role: "status", "aria-live": "polite", dataset: { key: "prompt" } },
        st.picked ? verdict(data, p, best) : h("p", { class: "mistakes-find" }, t("mistakes.find"))),
      st.picked ? h("p", { class: "mistakes-actions" },
        h("button", { type: "button", class: "btn primary mistakes-next", dataset: { action: "next", focusKey: "next" } },
          last ? t("mistakes.finish") : t("mistakes.next"))) : null);
  }

  function summary(data) {
    const found = st.results.filter(Boolean).length;
    const count = data.positions.length;
    return h("div", { class: "mistakes-summary panel", dataset: { key: "summary", found: String(found), count: String(count) } },
      h("h2", { tabindex: "-1", class: "mistakes-summary-title" }, t("mistakes.summary", { k: num(found), n: num(count), count })),
      h("ol", { class: "mistakes-summary-list" }, data.positions.map((p, i) => {
        const best = bestOf(p);
        return h("li", { class: st.results[i] ? "right" : "wrong" },
          h("span", { class: "mistakes-mark", "aria-hidden": "true" }, st.results[i] ? "✓ " : "✗ "),
          h("span", { class: "sr-only" }, st.results[i] ? t("mistakes.found") : t("mistakes.missed"), " "),
          link(replayPath(`#r${p.round}p${Math.max(0, p.number - 1)}`), null, t("analysis.item.place", { round: num(p.round), number: num(p.number) })),
          ": ", fill("mistakes.summary_item", { card: cardTag(best.card) }), " ", costWords(p.cost));
      })),
      data.mistakes > count ? h("p", { class: "hint" }, t("mistakes.more", { n: num(data.mistakes - count), count: data.mistakes - count })) : null,
      h("p", { class: "mistakes-actions" },
        h("button", { type: "button", class: "btn ghost mistakes-again", dataset: { action: "again" } }, t("mistakes.again")),
        link(replayPath(), { class: "btn primary mistakes-back" }, t("mistakes.back"))));
  }

  function build() {
    if (st.failed) return h("div", { class: "mistakes-view" }, head(), failure(st.failed));
    if (!st.data) return h("div", { class: "mistakes-view" }, head(), h("p", { class: "muted" }, spinner(), " ", t("lobby.loading")));
    const data = st.data;
    if (!data.positions.length) {
      return h("div", { class: "mistakes-view" }, head(),
        h("p", { class: "mistakes-none", dataset: { key: "none" } }, you() ? t("mistakes.none") : t("mistakes.none_of", { name: name() })),
        h("p", { class: "mistakes-actions" }, link(replayPath(), { class: "btn primary" }, t("mistakes.back"))));
    }
    return h("div", { class: "mistakes-view", dataset: { index: String(st.index), count: String(data.positions.length) } }, head(),
      st.index < data.positions.length ? position(data) : summary(data));
  }

  function render() {
    if (!st.alive) return;
    morph(view, build());
  }

  function focus(selector) {
    requestAnimationFrame(() => {
      const el = view.querySelector(selector);
      if (el) el.focus({ preventScroll: false });
    });
  }

  // ------------------------------------------------------------------ answering

  function answer(play) {
    const p = st.data.positions[st.index];
    st.choice = null;
    st.picked = { card: play.card, take: play.take };
    st.results[st.index] = samePlay(st.picked, bestOf(p));
    render();
    const verdictEl = view.querySelector(".mistakes-verdict");
    if (verdictEl) announce(verdictEl.textContent);
    focus(".mistakes-next");
  }

  function pick(card) {
    if (st.picked) return;
    const p = st.data.positions[st.index];
    const options = p.legal.filter((play) => play.card === card);
    if (!options.length) return;
    if (options.length === 1) { answer(options[0]); return; }
    st.choice = { card, options, focus: 0 };
    render();
    focus(".mistakes-choice .choice-option");
  }

  const onClick = (event) => {
    const target = event.target.closest("[data-action]");
    if (!target || !container.contains(target)) return;
    const action = target.dataset.action;
    if (action === "pick") pick(target.dataset.card);
    else if (action === "option" && st.choice) answer(st.choice.options[Number(target.dataset.option)]);
    else if (action === "cancel-choice" && st.choice) {
      const card = st.choice.card;
      st.choice = null;
      render();
      focus(`[data-focus-key="card-${CSS.escape(card)}"]`);
    }
    else if (action === "next") {
      st.index += 1;
      st.picked = null;
      st.choice = null;
      render();
      if (st.index < st.data.positions.length) focus(".mistakes-hand .hand-card");
      else focus(".mistakes-summary-title");
    } else if (action === "again") {
      st.index = 0;
      st.picked = null;
      st.results = [];
      render();
      focus(".mistakes-hand .hand-card");
    } else if (action === "retry") load();
  };
  const onKey = (event) => {
    if (event.key === "Escape" && st.choice) {
      st.choice = null;
      render();
    } else if (st.choice && /^[1-9]$/.test(event.key) && !event.altKey && !event.ctrlKey && !event.metaKey) {
      const option = st.choice.options[Number(event.key) - 1];
      if (option) { event.preventDefault(); answer(option); }
    }
  };
  container.addEventListener("click", onClick);
  document.addEventListener("keydown", onKey);

  async function load() {
    st.failed = null;
    render();
    try {
      const [data] = await Promise.all([fetchMistakes(id, seatAsked), styled]);
      if (!st.alive) return;
      st.data = data;
      st.index = 0;
      st.results = [];
    } catch (err) {
      if (!st.alive) return;
      st.failed = err;
    }
    render();
  }

  load();

  return {
    unmount() {
      st.alive = false;
      container.removeEventListener("click", onClick);
      document.removeEventListener("keydown", onKey);
      container.classList.remove("mistakes-page");
    },
    relabel: render,
  };
}
