// Leaving a table mid-match asks first, since a bot then plays the seat: links of the page
// (a dialog in the page), the browser's back button (the table keeps one history entry of
// its own to step back onto, then asks) and closing or reloading the tab (the browser's own
// prompt). A link to the rules opens them over the table instead. `page` is the table page.

import { t } from "../lib/i18n.js";
import { navigate } from "../lib/ui.js";
import { inMatch, table } from "./state.js";
import { confirmDialog } from "./dialog.js";
import { openRules } from "./rulesheet.js";

const GUARD = "basraTableGuard";

function askLeave() {
  return confirmDialog({ title: t("leave.title"), text: t("leave.text"), yes: t("leave.yes"), no: t("leave.no"), danger: true });
}

/** Listen while the table page is mounted; returns unguard(). */
export function guardLeaving(page) {
  const path = location.pathname;
  // Signed out on this device (the socket closed 4401), the seat is out of reach anyway.
  const asking = () => inMatch(page.st) && !page.destroyed && page.st.connection !== "signed-out";
  let guarded = false;

  const onBeforeUnload = (event) => {
    if (!asking()) return;
    event.preventDefault();
    event.returnValue = "";
  };

  const onClick = (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const a = event.target.closest ? event.target.closest("a[href]") : null;
    if (!a || a.target === "_blank" || a.hasAttribute("download")) return;
    const url = new URL(a.href, location.href);
    if (url.origin !== location.origin || url.pathname === path || !asking()) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    if (url.pathname === "/rules" || url.pathname.startsWith("/rules/")) {
      openRules(url.pathname.split("/")[2] || table(page.st).variant);
      return;
    }
    askLeave().then((ok) => { if (ok && !page.destroyed) navigate(url.pathname + url.search); });
  };

  const onPopState = () => {
    if (page.destroyed || location.pathname !== path || (history.state && history.state[GUARD])) return;
    // Stepped back off the table's own entry.
    guarded = false;
    if (!asking()) { history.back(); return; }
    askLeave().then((ok) => {
      if (ok) history.back();
      else guard();
    });
  };

  function guard() {
    if (guarded || !asking() || location.pathname !== path) return;
    // An entry pushed before the player touched the page is one the browser's back button
    // skips: wait for a touch (a redraw follows every play).
    if (navigator.userActivation && !navigator.userActivation.hasBeenActive) return;
    guarded = true;
    if (history.state && history.state[GUARD]) return;
    history.pushState({ [GUARD]: true }, "", location.href);
  }

  window.addEventListener("beforeunload", onBeforeUnload);
  document.addEventListener("click", onClick, true);
  window.addEventListener("popstate", onPopState);
  return {
    /** Called after each redraw: the match under way keeps its history entry. */
    update: guard,
    stop() {
      window.removeEventListener("beforeunload", onBeforeUnload);
      document.removeEventListener("click", onClick, true);
      window.removeEventListener("popstate", onPopState);
    },
  };
}
