// The table page's skeleton: one element per region (each redrawn by its renderer), the
// side panels, the overlay host, the away panel, the phrase panel over this seat's bar, the
// motion layer, and the fairness
// panel's own-text form (built once: what the player types is not redrawn under them).

import { clear, h } from "../lib/dom.js";
import { t, num } from "../lib/i18n.js";
import { ownTextBytes } from "../lib/fairness.js";

function fairnessPanel(el, ownText) {
  el.fairCurrent = h("div", { class: "fair-current" });
  el.seedInput = h("input", {
    type: "text", id: "own-text", class: "seed-input", maxlength: 4 * ownTextBytes(), spellcheck: "false", autocomplete: "off",
    value: ownText || "", "aria-describedby": "own-text-hint", dataset: { action: "own-text" },
  });
  el.seedForm = h("form", { class: "seed-form", dataset: { action: "seed-form" } },
    h("label", { for: "own-text" }, t("fair.own_text")),
    h("div", { class: "seed-row" }, el.seedInput,
      h("button", { class: "btn small", type: "submit" }, t("fair.use_text")),
      h("button", { class: "btn ghost small", type: "button", dataset: { action: "clear-text" } }, t("fair.clear_text"))),
    h("p", { class: "hint", id: "own-text-hint" }, t("fair.text_hint", { n: num(ownTextBytes()) })));
  el.fairResults = h("div", { class: "fair-results" });
  return h("section", { class: "panel fairness-panel", id: "fairness", "aria-labelledby": "fair-title" },
    h("h2", { id: "fair-title" }, t("fair.title")),
    h("p", { class: "muted small" }, t("fair.intro")),
    h("p", { class: "muted small parts-intro" }, t("fair.parts_intro")),
    el.fairCurrent, el.seedForm, el.fairResults);
}

/** Build the skeleton into `container`; returns the regions by name. */
export function buildLayout(container, { ownText = "" } = {}) {
  clear(container);
  const el = {};
  const div = (cls) => h("div", { class: cls });
  el.banner = div("conn-banner");
  el.head = div("table-head");
  el.scorebar = div("scorebar");
  el.opponents = div("opponents");
  el.stock = div("stock");
  el.floor = div("floor");
  el.center = div("center-msg");
  el.choice = div("choice-bar");
  el.meBar = div("me-bar");
  el.say = div("say-host");
  el.hand = div("hand");
  el.scores = h("section", { class: "panel scores-panel" });
  el.log = h("section", { class: "panel log-panel" });
  el.overlay = div("overlay-host");
  el.away = div("away-host");
  el.fx = h("div", { class: "fx-layer", "aria-hidden": "true" });
  el.fair = fairnessPanel(el, ownText);
  el.felt = h("div", { class: "felt" },
    el.opponents,
    h("div", { class: "middle" }, el.stock, h("div", { class: "floor-wrap" }, el.floor), el.center),
    el.choice,
    h("div", { class: "me" }, el.say, el.meBar, el.hand));
  el.root = h("section", { class: "table-page", "aria-label": t("table.title") },
    el.banner,
    h("div", { class: "table-main" }, el.head, el.scorebar, el.felt),
    h("aside", { class: "side", "aria-label": t("table.side") }, el.fair, el.scores, el.log),
    el.overlay, el.away);
  container.append(el.root, el.fx);
  return el;
}
