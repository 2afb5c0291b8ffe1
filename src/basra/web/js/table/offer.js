// The offer of the screen-reader table (issue 30) to someone using a screen reader: the
// first element of the lobby and of the table, hidden until it has the focus (the skip
// link's look), "Using a screen reader? Turn on the screen-reader table". Not shown once the
// mode is on (table/reader.js; the /settings page turns it off and on too).

import { h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { announce } from "../lib/ui.js";
import { changeSettings, setting } from "../lib/settings.js";

/** The offer's button (`then` runs once the mode is on); null while the mode is on. */
export function readerOffer(then = null, { always = false } = {}) {
  if (!always && setting("reader") === true) return null;
  return h("button", { type: "button", class: "skip-link reader-offer", on: { click: (event) => {
    changeSettings({ reader: true });
    // The table says it itself (table/reader.js), with the focus on its command line.
    if (!always) {
      announce(t("reader.on"));
      event.currentTarget.remove();
    }
    if (then) then();
  } } }, t("reader.offer"));
}
