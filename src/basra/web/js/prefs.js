// The lobby's remembered choices (variant, bot level, seating per variant) in localStorage.

const PREFS = "basra.prefs";

export function loadPrefs() {
  try { return JSON.parse(localStorage.getItem(PREFS) || "{}") || {}; } catch { return {}; }
}

export function savePrefs(prefs) {
  try { localStorage.setItem(PREFS, JSON.stringify(prefs)); } catch { /* storage blocked */ }
}
