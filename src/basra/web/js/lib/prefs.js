// The remembered choices in localStorage: the lobby's (variant, bot level, seating per
// variant), a spectator's "Hide phrases" (hidePhrases, table/phrases.js) and the live
// games' order (liveOrder, live.js).

const PREFS = "basra.prefs";

export function loadPrefs() {
  try { return JSON.parse(localStorage.getItem(PREFS) || "{}") || {}; } catch { return {}; }
}

/** Keep `prefs` over what is stored (each page saves only its own choices: the others stay). */
export function savePrefs(prefs) {
  try { localStorage.setItem(PREFS, JSON.stringify({ ...loadPrefs(), ...prefs })); } catch { /* storage blocked */ }
}
