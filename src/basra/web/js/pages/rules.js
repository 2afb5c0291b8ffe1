// The rules, written for players, one page per variant, in the page's language. The words
// are in the catalogues (rules.*); the numbers (targets, card points, power cards) come
// from the server's rule book (GET /api/variants) so the page and the game cannot disagree.
// The sections are also the sheet the table opens over the game (table/rulesheet.js).

import { h, replace } from "../lib/dom.js";
import { t, num } from "../lib/i18n.js";
import { cardFace, cardLabel } from "../lib/cards.js";
import { lineSpec, powerCardsShown, variantNames, variantOf } from "../lib/variants.js";
import { savePrefs, loadPrefs } from "../lib/prefs.js";
import { link, navigate } from "../lib/ui.js";
import { ladderSection } from "../rules/ladder.js";

export function mount(container, params) {
  const render = () => draw(container, params.variant);
  container.classList.add("page", "rules-page");
  render();
  return { unmount() {}, relabel: render };
}

/** A row of cards; with `lead`, the first is the card played and the rest the floor. */
function cardRow(cards, variant, lead = false) {
  const items = cards.map((card) => h("div", { class: "card small-card", role: "listitem", "aria-label": cardLabel(card, variant) }, cardFace(card, variant)));
  if (lead) items.splice(1, 0, h("span", { class: "rules-arrow", "aria-hidden": "true" }));
  return h("div", { class: ["rules-cards", lead && "lead"], role: "list" }, items);
}

function tabs(current) {
  return h("nav", { class: "variant-tabs", "aria-label": t("rules.variants") },
    variantNames().map((name) => link(`/rules/${name}`, { class: ["tab", name === current && "on"], "aria-current": name === current ? "page" : undefined }, t(`variant.${name}.name`))));
}

function draw(container, variantName) {
  if (!variantName || !variantNames().includes(variantName)) {
    replace(container,
      h("h1", null, t("rules.title")),
      h("p", { class: "lead" }, t("rules.intro")),
      h("ul", { class: "rules-index" }, variantNames().map((name) => h("li", null,
        link(`/rules/${name}`, { class: "rules-index-link" },
          h("strong", null, t(`variant.${name}.name`)),
          h("span", null, t(`variant.${name}.short`)))))),
      ladderSection());
    return;
  }
  replace(container,
    h("p", { class: "crumbs" }, link("/rules", null, t("rules.title"))),
    h("h1", null, t("rules.variant_title", { name: t(`variant.${variantName}.name`) })),
    h("p", { class: "lead" }, t(`variant.${variantName}.short`)),
    tabs(variantName),
    rulesSections(variantName),
    h("p", { class: "rules-cta" }, h("button", { type: "button", class: "btn primary big", on: { click: () => {
      savePrefs({ ...loadPrefs(), variant: variantName });
      navigate("/");
    } } }, t("rules.play_this", { name: t(`variant.${variantName}.name`) }))));
}

/** The rules of one variant, section by section (the page's, and the sheet the table opens
 * over the game); `prefix` keeps the headings' ids apart from the page's. */
export function rulesSections(variantName, { prefix = "rules" } = {}) {
  const v = variantOf(variantName);
  const k = (key) => `rules.${variantName}.${key}`;
  const section = (id, ...body) => h("section", { class: "rules-section", "aria-labelledby": `${prefix}-${id}` },
    h("h2", { id: `${prefix}-${id}` }, t(`rules.h.${id}`)), ...body);
  const p = (key, params) => h("p", null, t(key, params));
  const pointsRows = [
    h("tr", null, h("th", { scope: "row" }, t(v.majority.kind === "27-of-52" ? "breakdown.majority27" : "breakdown.majority_most", { n: v.majority.points })), h("td", null, `+${num(v.majority.points)}`)),
    ...v.card_points.map((line) => h("tr", null,
      h("th", { scope: "row" }, t(`breakdown.line.${lineSpec(line)}`, { each: line.points })),
      h("td", { class: line.points < 0 ? "neg" : "" }, line.points > 0 ? `+${num(line.points)}` : `−${num(-line.points)}`))),
    h("tr", null, h("th", { scope: "row" }, t("rules.basra_row")), h("td", null, `+${num(v.basra_points)}`)),
  ];
  // A power card whose sweep of a lone card of its rank is a basra of its own worth.
  for (const group of v.power.filter((g) => g.kind === "only-single-same-rank")) {
    pointsRows.push(h("tr", null, h("th", { scope: "row" }, t("rules.jack_basra_row")), h("td", null, `+${num(group.points)}`)));
  }
  const power = powerCardsShown(variantName);
  const oneSet = v.sum_sets === "one-set";
  return [
    section("aim", p(k("aim"), { target: num(v.target) }), p(k("players"))),
    section("deal", p("rules.deal.common"), p(k("deal"))),
    section("capture",
      p("rules.capture.match"),
      p(oneSet ? "rules.capture.sum_one" : "rules.capture.sum_max"),
      cardRow(oneSet ? ["5H", "4C", "AD", "3S", "2H"] : ["9H", "5C", "4D", "6S", "3H"], variantName, true),
      p(oneSet ? "rules.capture.sum_one_example" : "rules.capture.sum_max_example"),
      p("rules.capture.faces"),
      p("rules.capture.must")),
    section("power", cardRow(power, variantName), p(k("power"))),
    section("basra", p(k("basra"))),
    section("scoring",
      h("table", { class: "points-table" }, h("caption", null, t("rules.points_caption")), h("tbody", null, pointsRows)),
      p(k("majority")),
      cardRow(v.card_points.filter((line) => line.cards.length === 1).map((line) => line.cards[0]), variantName)),
    section("winning", p(k("winning"))),
    section("app", p("rules.app.play"), p("rules.app.keys"), p("rules.app.clock"), p("rules.app.fair")),
  ];
}
