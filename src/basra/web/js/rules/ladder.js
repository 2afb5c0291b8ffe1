// "How strong the bots are": the ladder measured by the project's arena (each level's loss
// to perfect play, and level against level), as benchmarks/level_ladder.py --site wrote it
// into data/ladder.json. The page shows only what was measured, with its interval.

import { h, replace } from "../lib/dom.js";
import { t, tNodes, num, dateLong } from "../lib/i18n.js";
import { signedNumber } from "../lib/cards.js";

const SOURCE = new URL("../../data/ladder.json", import.meta.url);
let loaded = null;

function load() {
  loaded ||= fetch(SOURCE).then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))));
  return loaded;
}

const level = (name) => t(`bot.level.${name}`);

/** A number as an isolated left-to-right run (its sign and "%" with it). */
const figure = (text) => h("bdi", { class: "ladder-num", dir: "ltr" }, text);

/** "mean (low to high)" in the page's language and direction, each number isolated. */
function interval([mean, low, high], show = num) {
  if (low === null || high === null) return figure(show(mean));
  return tNodes("rules.ladder.interval", { mean: figure(show(mean)), low: figure(show(low)), high: figure(show(high)) });
}

function oracleTable(ladder) {
  const rows = Object.entries(ladder.oracle).map(([name, loss]) => h("tr", { dataset: { level: name } },
    h("th", { scope: "row" }, level(name)), h("td", null, interval(loss))));
  return h("table", { class: "points-table ladder-table ladder-oracle" },
    h("caption", null, t("rules.ladder.oracle_caption")),
    h("thead", null, h("tr", null, h("th", { scope: "col" }, t("rules.ladder.level")), h("th", { scope: "col" }, t("rules.ladder.loss")))),
    h("tbody", null, rows));
}

function pairsTable(ladder) {
  const byPair = new Map();
  for (const p of ladder.pairs) {
    const key = `${p.a}-${p.b}`;
    const row = byPair.get(key) || { a: p.a, b: p.b };
    if (p.mode === "rounds") row.rounds = p;
    else row.matches = p;
    byPair.set(key, row);
  }
  const pct = (x) => num(Math.round(100 * x));
  const rows = [...byPair.values()].filter((r) => r.rounds).map((r) => h("tr", { dataset: { pair: `${r.a}-${r.b}` } },
    h("th", { scope: "row" }, t("rules.ladder.pair_name", { a: level(r.a), b: level(r.b) })),
    h("td", null, interval(r.rounds.difference, signedNumber)),
    h("td", null, r.matches && r.matches.wins
      ? tNodes("rules.ladder.share", { share: figure(pct(r.matches.wins[0])), n: figure(num(r.matches.matches)), low: figure(pct(r.matches.wins[1])), high: figure(pct(r.matches.wins[2])) })
      : "")));
  return h("table", { class: "points-table ladder-table ladder-pairs" },
    h("caption", null, t("rules.ladder.pairs_caption")),
    h("thead", null, h("tr", null, h("th", { scope: "col" }, t("rules.ladder.pair")), h("th", { scope: "col" }, t("rules.ladder.per_round")), h("th", { scope: "col" }, t("rules.ladder.matches")))),
    h("tbody", null, rows));
}

/** The section, filled in once the figures are in (an empty section until then). */
export function ladderSection() {
  const body = h("div", { class: "ladder-body", "aria-live": "polite" });
  const section = h("section", { class: "rules-section ladder", "aria-labelledby": "rules-ladder" },
    h("h2", { id: "rules-ladder" }, t("rules.ladder.title")),
    h("p", null, t("rules.ladder.intro")), body);
  load().then((ladder) => {
    const deals = Math.max(...ladder.pairs.filter((p) => p.mode === "rounds").map((p) => p.deals));
    const date = dateLong(ladder.measured);
    replace(body, oracleTable(ladder), pairsTable(ladder),
      h("p", { class: "ladder-measured" }, t("rules.ladder.measured", { date, deals: num(deals) })));
  }).catch(() => {
    loaded = null;
    replace(body, h("p", { class: "field-error" }, t("rules.ladder.unavailable")));
  });
  return section;
}
