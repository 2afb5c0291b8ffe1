// An account's settings on the server too (GET and PUT /api/me/settings, docs/PROTOCOL.md
// 1.10), so they follow it to another device; a guest's stay in this browser. Changes are
// made here at once (lib/settings.js) and sent up together after a short pause. The
// language is kept with them on the server (in the browser it is i18n.js's).

import { cachedMe, request } from "./api.js";
import { CHOICES, changeSettings, settings } from "./settings.js";
import { LANGUAGES, currentLanguage, setLanguage } from "./i18n.js";

const SEND_AFTER = 600;

let pending = {};
let timer = null;

export const isAccount = () => { const me = cachedMe(); return !!(me && me.account); };

async function flush() {
  clearTimeout(timer);
  timer = null;
  const body = pending;
  pending = {};
  if (!Object.keys(body).length || !isAccount()) return;
  try { await request("PUT", "/api/me/settings", body); } catch { /* kept in this browser; the next look sends them */ }
}

function queue(changes) {
  if (!isAccount()) return;
  Object.assign(pending, changes);
  clearTimeout(timer);
  timer = setTimeout(flush, SEND_AFTER);
}

/** Change settings here, and for an account on the server too. */
export function saveSettings(changes) {
  changeSettings(changes);
  queue(changes);
}

/** The language chosen: kept on the server for an account (i18n.js keeps it here). */
export function saveLanguage(code) {
  queue({ language: code });
}

/** Send what waits now (the page is leaving). */
export function flushSettings() { return flush(); }

/** An account's settings from the server, applied here (and the language); an account with
 * none kept yet gets this browser's. Returns whether the server's were applied. */
export async function loadAccountSettings() {
  if (!isAccount()) return false;
  const answer = await request("GET", "/api/me/settings");
  const kept = (answer && answer.settings) || {};
  if (!Object.keys(kept).length) {
    queue({ ...settings(), language: currentLanguage() });
    await flush();
    return false;
  }
  const changes = {};
  for (const [name, value] of Object.entries(kept)) {
    if (CHOICES[name] && CHOICES[name].includes(value)) changes[name] = value;
  }
  if (Object.keys(changes).length) changeSettings(changes);
  if (LANGUAGES.includes(kept.language) && kept.language !== currentLanguage()) await setLanguage(kept.language);
  return true;
}

window.addEventListener("pagehide", () => { if (timer) flush(); });
