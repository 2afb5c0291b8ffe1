// The rules over the table: the variant's rules (rules.js) in a dialog sheet, so looking
// them up mid-match leaves the game where it is.

import { h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { variantNames } from "../lib/variants.js";
import { rulesSections } from "../pages/rules.js";
import { openDialog } from "./dialog.js";

export function openRules(variant) {
  const name = variantNames().includes(variant) ? variant : variantNames()[0];
  return openDialog({
    kind: "rules",
    title: t("rules.variant_title", { name: t(`variant.${name}.name`) }),
    body: [h("p", { class: "lead" }, t(`variant.${name}.short`)), rulesSections(name, { prefix: "sheet" })],
  });
}
