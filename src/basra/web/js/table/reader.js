// The screen-reader table (issue 30): with setting("reader") on, the felt gives way to text
// and commands. Headings and plain lists say the hand ("1. seven of diamonds"), the floor,
// the scores and the time left in the reader's language; a labelled command line takes
// short commands (hand, floor, score, time, last, play 3, a card's name, take 2, cancel,
// help: the reader's words and the English ones, catalogue keys reader.cmd.*), and single
// keys do the same while the focus is on the table but not in a field (H F S T L, the
// numbers). Answers go to a polite status region; every play by anyone, the turn, a
// round's end and the match's result are told once in a log (role "log"). With the mode off
// a play is read by the page's announcer, as before: never both. Also: the focus that goes
// to the hand (or the command line) when a game starts. `page` is the table page (table.js).

import { h, morph } from "../lib/dom.js";
import { t, num } from "../lib/i18n.js";
import { announce } from "../lib/ui.js";
import { changeSettings, onSettings, setting } from "../lib/settings.js";
import { cardLabel, cardName } from "../lib/cards.js";
import { sideCount } from "../lib/variants.js";
import * as S from "./state.js";
import { seatName, sideName } from "./names.js";
import { playText } from "./log.js";
import { readerOffer } from "./offer.js";
import { clockInfo } from "./clock.js";
import { activate, chooseOption } from "./playing.js";
import { findCard, normalize } from "./typed.js";

/** How many told events the log keeps on screen (older ones leave silently). */
const LOG_KEEP = 12;
/** How many plays "last" reads. */
const LAST_PLAYS = 4;

export const readerOn = () => setting("reader") === true;

// ---------------------------------------------------------------- building

/** The reader's section (built once per layout, never morphed but for its view), put
 * after the head; the offer to turn it on as the table's first element. */
export function buildReader(page) {
  const el = page.el;
  el.readerInput = h("input", {
    type: "text", id: "reader-command", class: "reader-input", autocomplete: "off", spellcheck: "false",
    autocapitalize: "off", enterkeyhint: "send", "aria-describedby": "reader-help",
  });
  el.readerForm = h("form", { class: "reader-form", on: { submit: (event) => {
    event.preventDefault();
    const text = el.readerInput.value;
    el.readerInput.value = "";
    runCommand(page, text);
  } } },
  h("label", { for: "reader-command" }, t("reader.command")),
  h("div", { class: "reader-row" }, el.readerInput, h("button", { class: "btn primary", type: "submit" }, t("reader.do"))),
  h("p", { class: "hint", id: "reader-help" }, t("reader.help_short")));
  el.readerAnswer = h("div", { class: "reader-answer", role: "status", "aria-live": "polite", "aria-atomic": "true" });
  el.readerView = h("div", { class: "reader-view" });
  el.readerLog = h("ol", { class: "reader-log", role: "log", "aria-live": "polite", "aria-relevant": "additions", "aria-labelledby": "reader-log-title" });
  el.reader = h("section", { class: "reader", "aria-labelledby": "reader-title", hidden: true },
    h("h2", { id: "reader-title" }, t("reader.title")),
    el.readerForm, el.readerAnswer, el.readerView,
    h("h3", { id: "reader-log-title" }, t("reader.log")), el.readerLog,
    h("button", { type: "button", class: "btn ghost small reader-off", on: { click: () => changeSettings({ reader: false }) } }, t("reader.turn_off")));
  el.head.after(el.reader);
  el.readerOffer = readerOffer(null, { always: true });
  el.root.prepend(el.readerOffer);
  if (!page.offReader) {
    let was = readerOn();
    page.offReader = onSettings(() => {
      if (page.destroyed) { page.offReader(); return; }
      const now = readerOn();
      page.redraw();
      if (now && !was) {
        focusReader(page);
        answer(page, t("reader.on"));
      }
      was = now;
    });
  }
}

// ---------------------------------------------------------------- drawing

/** Every redraw: the mode shown or not, the view's text morphed in. */
export function drawReader(page, ctx) {
  const el = page.el;
  if (!el.reader) return;
  const on = readerOn();
  el.reader.hidden = !on;
  el.readerOffer.hidden = on;
  el.root.dataset.reader = on ? "on" : "off";
  if (on) morph(el.readerView, renderView(page.st, ctx.now));
}

/** Every frame: the time left, written when its second changes (not a live region). */
export function drawReaderClock(page, now) {
  const line = readerOn() && page.el.readerView ? page.el.readerView.querySelector(".reader-time") : null;
  if (!line) return;
  const text = timeText(page.st, now);
  if (line.textContent !== text) line.textContent = text;
}

const numbered = (n, text) => t("reader.numbered", { n: num(n), text });

function renderView(st, now) {
  const v = S.view(st);
  if (!v) return h("div", { class: "reader-view" });
  // Each list is named by its heading ("Your hand", "Floor", ...).
  const part = (id, title, items, empty = null) => [
    h("h3", { id: `reader-${id}-title` }, title),
    items.length || !empty
      ? h("ul", { class: "reader-list", "aria-labelledby": `reader-${id}-title` }, items.map((text) => h("li", null, text)))
      : h("p", null, empty)];
  const variant = S.table(st).variant;
  return h("div", { class: "reader-view" },
    h("p", { class: "reader-status" }, statusText(st)),
    st.seat !== null ? part("hand", t("table.hand"), v.hand.length ? handItems(st) : [], t("reader.hand_empty")) : null,
    st.choice ? part("choice", t("reader.choice_title", { card: cardName(st.choice.card) }), optionItems(st.choice)) : null,
    part("floor", t("table.floor"), floorCards(st).map((card) => cardLabel(card, variant)), t("table.floor_empty")),
    part("scores", t("reader.scores_title"), scoreItems(st)),
    h("h3", null, t("reader.time_title")),
    h("p", { class: "reader-time" }, timeText(st, now)));
}

const floorCards = (st) => st.floorOrder.filter((c) => S.view(st).floor.includes(c));

function handItems(st) {
  const v = S.view(st);
  const variant = S.table(st).variant;
  const mine = S.myTurn(st);
  return v.hand.map((card, i) => {
    const parts = [cardLabel(card, variant)];
    const options = mine ? S.optionsFor(st, card) : [];
    if (options.length > 1) parts.push(t("hand.choices", { count: options.length, n: num(options.length) }));
    else if (options.length === 1) parts.push(options[0].take.length ? t("hand.takes", { cards: names(options[0].take) }) : t("reader.lays"));
    return numbered(i + 1, parts.join(t("list.sep")));
  });
}

const names = (cards) => cards.map(cardName).join(t("list.and"));

function optionItems(choice) {
  return choice.options.map((o, i) => numbered(i + 1, t("hand.takes", { cards: names(o.take) })));
}

function scoreItems(st) {
  const v = S.view(st);
  const sides = sideCount(v.seats, v.teams);
  const items = Array.from({ length: sides }, (_, side) => t("reader.side_score", {
    name: sideName(st, side), count: v.totals[side], points: num(v.totals[side]),
    cards: t("reader.cards", { count: v.pile_counts[side] || 0, n: num(v.pile_counts[side] || 0) }),
    basras: t("reader.basras", { count: v.basras[side] || 0, n: num(v.basras[side] || 0) }),
  }));
  items.push(t("reader.target", { n: num(v.target), round: num(v.round) }));
  return items;
}

function statusText(st) {
  const tb = S.table(st);
  const v = S.view(st);
  if (tb.status === "finished") return t("status.over");
  if (tb.status === "abandoned") return t("status.abandoned");
  if (tb.phase === "seeding") return t("status.seeding");
  if (S.myTurn(st)) return st.choice ? t("status.choose") : t("reader.your_turn");
  if (v.turn !== null && v.turn !== undefined) return t("status.waiting_for", { name: seatName(st, v.turn) });
  return "";
}

function timeText(st, now) {
  const clock = S.view(st) ? clockInfo(st, now) : null;
  if (!clock) return t("reader.time_none");
  if (clock.seat === st.seat) return t("reader.time_mine", { count: clock.second, n: num(clock.second) });
  return t("reader.time_other", { name: seatName(st, clock.seat), count: clock.second, n: num(clock.second) });
}

// ---------------------------------------------------------------- telling

/** Tell one event: in the reader's log with the mode on, else (a play only) by the
 * page's announcer. */
function tell(page, text, kind) {
  const log = page.el && page.el.readerLog;
  if (!readerOn() || !log) {
    if (kind.split(" ").includes("play")) announce(text);
    return;
  }
  log.append(h("li", { class: ["reader-event", kind] }, text));
  while (log.children.length > LOG_KEEP) log.firstElementChild.remove();
}

/** The answer to a command, read out (the same words twice are read twice). */
function answer(page, text) {
  const box = page.el.readerAnswer;
  box.textContent = "";
  setTimeout(() => { box.textContent = text; }, 30);
}

/** What a new state brings to tell (`before`: the state it replaced): each new play of the
 * round held; with the mode on also the plays of a round first seen since this seat's own
 * last one, your turn, a round's end and the match's result. */
export function tellNews(page, before) {
  const st = page.st;
  const prev = before.game;
  const v = S.view(st);
  const on = readerOn();
  let fresh = [];
  if (prev && prev.view.round === v.round) fresh = v.plays.slice(prev.view.plays.length);
  else if (on) fresh = sinceMine(st);
  for (const play of fresh) tell(page, playText(st, play), play.basra ? "play basra" : "play");
  if (!on) return;
  if (prev && v.results.length > prev.view.results.length) tell(page, roundText(st), "round");
  const status = S.table(st).status;
  if (status === "finished" && (!prev || prev.table.status !== "finished")) tell(page, matchText(st), "match");
  if (status === "playing" && S.myTurn(st) && !S.myTurn(before)) tell(page, t("reader.your_turn"), "turn");
}

function sinceMine(st) {
  const plays = S.view(st).plays;
  let last = -1;
  plays.forEach((p, i) => { if (p.seat === st.seat) last = i; });
  return plays.slice(last + 1);
}

function sideList(st, values) {
  return values.map((value, side) => t("reader.side_points", { name: sideName(st, side), count: value, points: num(value) })).join(t("list.sep"));
}

function roundText(st) {
  const v = S.view(st);
  const r = v.results[v.results.length - 1];
  return t("reader.round_over", { round: num(v.results.length), points: sideList(st, r.points), totals: sideList(st, r.totals) });
}

function matchText(st) {
  const v = S.view(st);
  const won = v.winner !== null && v.winner === S.mySide(st);
  const title = v.winner === null ? t("end.over")
    : st.seat === null ? t("end.winner", { name: sideName(st, v.winner) })
      : won ? t("end.you_won") : t("end.you_lost", { name: sideName(st, v.winner) });
  return t("reader.match_over", { title, totals: sideList(st, v.totals) });
}

// ---------------------------------------------------------------- focus

/** The reader's command line, or the hand's card in the tab order. */
export function focusReader(page) {
  if (readerOn() && page.el.readerInput) { page.el.readerInput.focus({ preventScroll: true }); return true; }
  return false;
}

/** A game starts (this seat's first cards, or the page opens on a table where it holds
 * some): the focus goes to the hand, or the command line, unless the player put it
 * somewhere on the page already. */
export function focusOnStart(page, before) {
  const st = page.st;
  const v = S.view(st);
  if (st.seat === null || !v || !v.hand.length || S.table(st).status !== "playing") return;
  const prev = before.game;
  if (prev && prev.view.hand.length) return;
  const active = document.activeElement;
  const idle = !active || active === document.body || active === document.documentElement || active.id === "app"
    || (active.closest && active.closest(".deal-card, .center-msg"));
  if (!idle) return;
  if (!focusReader(page)) page.focusHand();
}

// ---------------------------------------------------------------- commands

const words = (key) => normalize(t(`reader.cmd.${key}`)).split(" ");

const COMMANDS = ["hand", "floor", "score", "time", "last", "help", "cancel", "play", "take"];

/** Run one typed command; its answer goes to the status region. */
export function runCommand(page, typed) {
  const text = normalize(typed);
  if (!text || !page.st.game) return;
  const [first, ...rest] = text.split(" ");
  const arg = rest.join(" ");
  const name = COMMANDS.find((key) => words(key).includes(first));
  if (name === "play") { playCard(page, arg); return; }
  if (name === "take") { take(page, arg); return; }
  if (name && !arg) { answer(page, reading(page, name)); return; }
  if (page.st.choice && /^\d+$/.test(text)) { take(page, text); return; }
  playCard(page, text);
}

/** What a reading command (or its key) says. */
function reading(page, name) {
  const st = page.st;
  const v = S.view(st);
  switch (name) {
    case "hand":
      if (st.seat === null) return t("table.spectating");
      return v.hand.length ? t("reader.hand_is", { cards: handItems(st).join("; ") }) : t("reader.hand_empty");
    case "floor": {
      const variant = S.table(st).variant;
      return v.floor.length ? t("reader.floor_is", { cards: floorCards(st).map((c) => cardLabel(c, variant)).join(t("list.and")) }) : t("table.floor_empty");
    }
    case "score": return t("reader.scores_are", { list: scoreItems(st).join(". ") });
    case "time": return timeText(st, performance.now());
    case "last": {
      const plays = v.plays.slice(-LAST_PLAYS);
      return plays.length ? plays.map((p) => playText(st, p)).join(" ") : t("log.none");
    }
    case "cancel":
      if (!st.choice) return t("reader.no_choice");
      page.update(S.cancelChoice(st));
      return t("reader.cancelled");
    default: return t("reader.help");
  }
}

function take(page, arg) {
  const st = page.st;
  if (!st.choice) { answer(page, t("reader.no_choice")); return; }
  const n = Number.parseInt(arg, 10);
  if (!(n >= 1 && n <= st.choice.options.length)) {
    answer(page, t("reader.no_option", { count: st.choice.options.length, n: num(st.choice.options.length) }));
    return;
  }
  answer(page, "");
  chooseOption(page, n - 1);
}

function playCard(page, arg) {
  const st = page.st;
  const v = S.view(st);
  if (st.seat === null) { answer(page, t("table.spectating")); return; }
  if (!arg) { answer(page, t("reader.play_what")); return; }
  let card = null;
  if (/^\d+$/.test(arg)) {
    card = v.hand[Number(arg) - 1] || null;
    if (!card) { answer(page, t("reader.no_card", { count: v.hand.length, n: num(v.hand.length) })); return; }
  } else {
    const found = findCard(v.hand, arg);
    if (found.length !== 1) {
      answer(page, found.length ? t("reader.which", { cards: names(found) }) : t("reader.unknown", { text: arg }));
      return;
    }
    card = found[0];
  }
  if (!S.myTurn(st)) { answer(page, t("hand.not_your_turn")); return; }
  if (st.sentVersion !== null) { answer(page, t("reader.sending")); return; }
  const { state, play } = S.pick(st, card);
  // One play: sent as a tap on the card sends it (a confirmation first, if the player
  // asked for one in the settings).
  if (play) { answer(page, ""); activate(page, card); return; }
  if (state === st) return;
  page.update(state);
  const n = state.choice.options.length;
  answer(page, t("reader.choose", { card: cardName(card), count: n, n: num(n), options: optionItems(state.choice).join("; ") }));
}

// ---------------------------------------------------------------- keys

/** Single keys with the mode on and the focus not in a field: H F S T L read, a number
 * plays that card of the hand or chooses that take, C cancels a choice. True when the key
 * was the reader's. The letter is the key's own, or (another alphabet) the key's place. */
export function readerKey(page, event) {
  if (!readerOn()) return false;
  const key = /^[a-z]$/i.test(event.key) ? event.key.toLowerCase()
    : (event.code || "").startsWith("Key") ? event.code.slice(3).toLowerCase() : event.key;
  const reads = { h: "hand", f: "floor", s: "score", t: "time", l: "last" };
  if (reads[key]) { event.preventDefault(); answer(page, reading(page, reads[key])); return true; }
  if (key === "?") { event.preventDefault(); answer(page, t("reader.help")); return true; }
  if (/^[1-9]$/.test(key) && !page.st.overlay) {
    event.preventDefault();
    if (page.st.choice) take(page, key);
    else playCard(page, key);
    return true;
  }
  return false;
}
