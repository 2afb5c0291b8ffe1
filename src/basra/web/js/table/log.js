// The side panels' score sheet (each round's points and running totals, the record link)
// and the log of the round's last plays (and the last phrases said); and the words a screen
// reader hears for a play.

import { h } from "../lib/dom.js";
import { t, num } from "../lib/i18n.js";
import { recordUrl } from "../lib/api.js";
import { cardName, cardTag, cardTags, signedTag } from "../lib/cards.js";
import { sideCount } from "../lib/variants.js";
import { mySide, table, view } from "./state.js";
import { seatName, sideName } from "./names.js";
import { renderSaidLog } from "./phrases.js";

const panel = (cls, title, children) => h("section", { class: ["panel", cls], "aria-labelledby": title }, children);

export function renderScores(st) {
  if (!st.game) return panel("scores-panel", "scores-title", []);
  const v = view(st);
  const id = table(st).id;
  const sides = sideCount(v.seats, v.teams);
  const me = mySide(st);
  const rows = v.results.map((r, i) => h("tr", null,
    h("th", { scope: "row" }, num(i + 1)),
    r.points.map((p, side) => h("td", { class: side === me ? "mine" : "" }, h("bdi", { dir: "ltr" }, num(p)), " ", h("small", null, "(", h("bdi", { dir: "ltr" }, num(r.totals[side])), ")")))));
  return panel("scores-panel", "scores-title", [
    h("h2", { id: "scores-title" }, t("scores.title")),
    v.results.length ? h("table", { class: "score-sheet" },
      h("thead", null, h("tr", null, h("th", { scope: "col" }, t("scores.round")),
        Array.from({ length: sides }, (_, side) => h("th", { scope: "col", class: side === me ? "mine" : "" }, sideName(st, side))))),
      h("tbody", null, rows)) : h("p", { class: "muted" }, t("scores.none")),
    h("p", { class: "muted small" }, t("scores.hint", { n: num(v.target) })),
    h("a", { class: "btn small", href: recordUrl(id), download: `basra-${id}.json` }, t("end.record")),
  ]);
}

export function renderLog(st) {
  if (!st.game) return panel("log-panel", "log-title", []);
  const items = view(st).plays.slice(-12).reverse().map((p) => h("li", { class: p.basra ? "basra" : "" },
    h("span", { class: "log-who" }, seatName(st, p.seat)),
    " ",
    cardTag(p.card, "log-card"),
    // The arrow points the way the line reads (mirrored right to left by the stylesheet).
    p.take.length ? [" ", h("span", { class: "log-arrow", "aria-hidden": "true" }, "→"), " ", h("span", { class: "log-take" }, cardTags(p.take))] : null,
    p.basra ? h("span", { class: "log-basra" }, ` ${t("basra.word")} `, signedTag(p.basra)) : null));
  return panel("log-panel", "log-title", [
    h("h2", { id: "log-title" }, t("log.title")),
    items.length ? h("ol", { class: "play-log", reversed: true }, items) : h("p", { class: "muted" }, t("log.none")),
    renderSaidLog(st),
  ]);
}

/** What the announcer says of a play. */
export function playText(st, play) {
  const who = seatName(st, play.seat);
  let text = play.take.length
    ? t("log.take", { name: who, card: cardName(play.card), cards: play.take.map(cardName).join(t("list.and")) })
    : t("log.lay", { name: who, card: cardName(play.card) });
  if (play.basra) text += ` ${t("log.basra", { points: play.basra, count: play.basra })}`;
  return text;
}
