// Points with one decimal (the expert's values and costs), in Latin digits as everywhere on
// the site.

import { currentLanguage } from "../lib/i18n.js";

/** "3.2" (French and Serbian "3,2"). */
export function decimal(n) {
  const lang = currentLanguage();
  return new Intl.NumberFormat(`${lang === "sr" ? "sr-Latn" : lang}-u-nu-latn`, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(n);
}

/** The same with its sign ("+3.2", "−1.0"), for margins. */
export function signedDecimal(n) {
  const rounded = Math.round(n * 10) / 10;
  return rounded > 0 ? `+${decimal(rounded)}` : rounded < 0 ? `\u2212${decimal(-rounded)}` : decimal(0);
}
