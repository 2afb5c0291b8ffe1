// The player's settings (issue 30; the /settings page edits them): kept in this browser
// (localStorage "basra.settings"), and for an account on the server too. Every page reads
// them through `setting(name)` and hears changes through `onSettings(fn)` (another tab's
// included). The names and their values:
//
//   theme         "system" | "light" | "dark"       the colours (system: as the device asks)
//   deck          "two" | "four"                    four-colour deck: clubs green, diamonds blue
//   contrast      "normal" | "high"
//   cardSize      "small" | "medium" | "large"
//   motion        "normal" | "slow" | "off"          "off" also when the device asks for less
//   sound         true | false
//   autoContinue  true | false                      the round's summary continues by itself
//   confirmPlay   true | false                      a play is confirmed before it is sent
//   reader        true | false                      the screen-reader table (text and commands)

// Applied to the page as attributes of <html> (applySettings, at start and on every change):
// data-theme "light" | "dark" (the system's, live, when the setting is "system"),
// data-deck, data-contrast, data-card-size, data-motion; css/themes.css draws them.

const KEY = "basra.settings";

/** Each setting's values (a stored value not among them is the default). */
export const CHOICES = Object.freeze({
  theme: ["system", "light", "dark"], deck: ["two", "four"], contrast: ["normal", "high"],
  cardSize: ["small", "medium", "large"], motion: ["normal", "slow", "off"],
  sound: [true, false], autoContinue: [true, false], confirmPlay: [true, false], reader: [true, false],
});

export const DEFAULTS = Object.freeze({
  theme: "system", deck: "two", contrast: "normal", cardSize: "medium", motion: "normal",
  sound: true, autoContinue: false, confirmPlay: false, reader: false,
});

const listeners = new Set();

function read() {
  try {
    const stored = JSON.parse(localStorage.getItem(KEY) || "{}") || {};
    const out = { ...DEFAULTS };
    for (const name of Object.keys(DEFAULTS)) {
      if (name in stored && CHOICES[name].includes(stored[name])) out[name] = stored[name];
    }
    return out;
  } catch { return { ...DEFAULTS }; }
}

let current = read();

/** Every setting, as stored (defaults for the rest). */
export function settings() { return { ...current }; }

/** One setting's value. */
export function setting(name) { return current[name]; }

/** Change some settings here (the /settings page also sends an account's to the server). */
export function changeSettings(changes) {
  current = { ...current, ...changes };
  try { localStorage.setItem(KEY, JSON.stringify(current)); } catch { /* storage blocked */ }
  for (const fn of listeners) fn(settings());
}

/** Hear every change (this tab's and another's); returns the unsubscribe. */
export function onSettings(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

window.addEventListener("storage", (event) => {
  if (event.key !== KEY) return;
  current = read();
  for (const fn of listeners) fn(settings());
});

// ---------------------------------------------------------------- applied to the page

const media = (query) => (window.matchMedia ? window.matchMedia(query) : null);
const lightQuery = media("(prefers-color-scheme: light)");
const lessMotionQuery = media("(prefers-reduced-motion: reduce)");

/** "light" or "dark": the setting, or the system's when it is "system". */
export function resolvedTheme(theme = current.theme) {
  if (theme === "light" || theme === "dark") return theme;
  return lightQuery && lightQuery.matches ? "light" : "dark";
}

/** Whether nothing should move: the setting "off", or the device asking for less motion. */
export function motionOff() {
  return current.motion === "off" || !!(lessMotionQuery && lessMotionQuery.matches);
}

/** How much longer motion takes: 1, or more for "slow". */
export function motionPace() {
  return current.motion === "slow" ? 1.8 : 1;
}

const THEME_COLOR = { dark: "#0b2a22", light: "#f4f7f5" };

/** Write the settings onto <html> (and the browser's colour scheme and bar colour). */
export function applySettings() {
  const root = document.documentElement;
  const theme = resolvedTheme();
  Object.assign(root.dataset, {
    theme, deck: current.deck, contrast: current.contrast, cardSize: current.cardSize, motion: current.motion,
  });
  const scheme = document.querySelector('meta[name="color-scheme"]');
  if (scheme) scheme.setAttribute("content", theme);
  const bar = document.querySelector('meta[name="theme-color"]');
  if (bar) bar.setAttribute("content", THEME_COLOR[theme]);
}

// Applied as soon as this module runs (before the rules load), again on every change, and
// when the system's colour scheme changes.
applySettings();
onSettings(applySettings);
if (lightQuery) lightQuery.addEventListener("change", () => { if (current.theme === "system") applySettings(); });
