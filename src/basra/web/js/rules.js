// The rules, written for players, one page per variant, in the page's language. The words
// are in the catalogues (rules.*); the numbers (targets, card points) come from the
// variant data so the page and the game cannot disagree.

import { h, replace } from "./dom.js";
import { t, num } from "./i18n.js";
import { cardFace, cardLabel } from "./cards.js";
import { VARIANT_NAMES, variantOf } from "./variants.js";
import { link, navigate } from "./ui.js";

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
    VARIANT_NAMES.map((name) => link(`/rules/${name}`, { class: ["tab", name === current && "on"], "aria-current": name === current ? "page" : undefined }, t(`variant.${name}.name`))));
}

function draw(container, variantName) {
  if (!variantName || !VARIANT_NAMES.includes(variantName)) {
    replace(container,
      h("h1", null, t("rules.title")),
      h("p", { class: "lead" }, t("rules.intro")),
      h("ul", { class: "rules-index" }, VARIANT_NAMES.map((name) => h("li", null,
        link(`/rules/${name}`, { class: "rules-index-link" },
          h("strong", null, t(`variant.${name}.name`)),
          h("span", null, t(`variant.${name}.short`)))))));
    return;
  }
  const v = variantOf(variantName);
  const k = (key) => `rules.${variantName}.${key}`;
  const section = (id, ...body) => h("section", { class: "rules-section", "aria-labelledby": `rules-${id}` },
    h("h2", { id: `rules-${id}` }, t(`rules.h.${id}`)), ...body);
  const p = (key, params) => h("p", null, t(key, params));
  const pointsRows = [
    h("tr", null, h("th", { scope: "row" }, t(v.majority.kind === "27-of-52" ? "breakdown.majority27" : "breakdown.majority_most", { n: v.majority.points })), h("td", null, `+${num(v.majority.points)}`)),
    ...v.cardPoints.map(([spec, each]) => h("tr", null,
      h("th", { scope: "row" }, t(`breakdown.line.${spec}`, { each })),
      h("td", { class: each < 0 ? "neg" : "" }, each > 0 ? `+${num(each)}` : `−${num(-each)}`))),
    h("tr", null, h("th", { scope: "row" }, t("rules.basra_row")), h("td", null, `+${num(v.basra)}`)),
  ];
  if (v.jackBasra) pointsRows.push(h("tr", null, h("th", { scope: "row" }, t("rules.jack_basra_row")), h("td", null, `+${num(v.jackBasra)}`)));
  const power = v.power.map((spec) => (spec === "J" ? "JS" : spec));
  replace(container,
    h("p", { class: "crumbs" }, link("/rules", null, t("rules.title"))),
    h("h1", null, t("rules.variant_title", { name: t(`variant.${variantName}.name`) })),
    h("p", { class: "lead" }, t(`variant.${variantName}.short`)),
    tabs(variantName),
    section("aim", p(k("aim"), { target: num(v.target) }), p(k("players"))),
    section("deal", p("rules.deal.common"), p(k("deal"))),
    section("capture",
      p("rules.capture.match"),
      p(v.sumSets === "one-set" ? "rules.capture.sum_one" : "rules.capture.sum_max"),
      cardRow(v.sumSets === "one-set" ? ["5H", "4C", "AD", "3S", "2H"] : ["9H", "5C", "4D", "6S", "3H"], variantName, true),
      p(v.sumSets === "one-set" ? "rules.capture.sum_one_example" : "rules.capture.sum_max_example"),
      p("rules.capture.faces"),
      p("rules.capture.must")),
    section("power", cardRow(power, variantName), p(k("power"))),
    section("basra", p(k("basra"))),
    section("scoring",
      h("table", { class: "points-table" }, h("caption", null, t("rules.points_caption")), h("tbody", null, pointsRows)),
      p(k("majority")),
      cardRow(v.cardPoints.filter(([spec]) => spec.length > 1).map(([spec]) => spec), variantName)),
    section("winning", p(k("winning"))),
    section("app", p("rules.app.play"), p("rules.app.keys"), p("rules.app.clock"), p("rules.app.fair")),
    h("p", { class: "rules-cta" }, h("button", { type: "button", class: "btn primary big", on: { click: () => {
      try {
        const prefs = JSON.parse(localStorage.getItem("basra.prefs") || "{}");
        prefs.variant = variantName;
        localStorage.setItem("basra.prefs", JSON.stringify(prefs));
      } catch { /* ignore */ }
      navigate("/");
    } } }, t("rules.play_this", { name: t(`variant.${variantName}.name`) }))));
}
