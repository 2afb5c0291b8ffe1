// The rules over the table: the variant's rules (rules.js) in a dialog sheet, so looking
// them up mid-match leaves the game where it is.

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { variantNames } from "../variants.js";
import { rulesSections } from "../rules.js";
import { openDialog } from "./dialog.js";

export function openRules(variant) {
  const name = variantNames().includes(variant) ? variant : variantNames()[0];
  return openDialog({
    kind: "rules",
    title: t("rules.variant_title", { name: t(`variant.${name}.name`) }),
    body: [h("p", { class: "lead" }, t(`variant.${name}.short`)), rulesSections(name, { prefix: "sheet" })],
  });
}
