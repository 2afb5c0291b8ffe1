// Which lessons this player finished: kept in the browser (localStorage, a guest's only
// record) and, for an account, on the server too (GET /api/lessons gives its ticks, PUT
// /api/me/lessons/ID adds one). An account's first look here sends up the ticks this
// browser made before it signed in, so they are kept everywhere.

import { cachedMe, request } from "../lib/api.js";

const KEY = "basra.lessons";
const NUDGE_KEY = "basra.learn.nudge";

/** The lessons finished in this browser: {id: ISO time}. */
export function localDone() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) || "{}");
    return kept && typeof kept === "object" && !Array.isArray(kept) ? kept : {};
  } catch { return {}; }
}

function saveLocal(done) {
  try { localStorage.setItem(KEY, JSON.stringify(done)); } catch { /* storage blocked */ }
}

const isAccount = () => { const me = cachedMe(); return !!(me && me.account); };

/** The lessons (the served list) and the ticks: {lessons, done, account}. An account's
 * browser ticks missing on the server are sent up first. Throws when the list cannot be
 * had (offline). */
export async function loadProgress() {
  const answer = await request("GET", "/api/lessons");
  const local = localDone();
  if (answer.done === null || answer.done === undefined) return { lessons: answer.lessons, done: local, account: false };
  let done = answer.done;
  for (const id of Object.keys(local)) {
    if (done[id] || !answer.lessons.some((l) => l.id === id)) continue;
    try { done = (await request("PUT", `/api/me/lessons/${encodeURIComponent(id)}`)).done; } catch { break; }
  }
  const merged = { ...done, ...local, ...done };
  saveLocal(merged);
  return { lessons: answer.lessons, done: merged, account: true };
}

/** The lesson is finished: kept here, and on the server for an account (a failure there
 * leaves it to the next look, which sends the browser's ticks up). */
export async function markDone(id) {
  const done = localDone();
  if (!done[id]) done[id] = new Date().toISOString();
  saveLocal(done);
  if (!isAccount()) return;
  try { await request("PUT", `/api/me/lessons/${encodeURIComponent(id)}`); } catch { /* sent up next time */ }
}

/** Whether the lobby's "New to Basra?" banner shows: until dismissed or a lesson is done. */
export function nudgeWanted() {
  try { if (localStorage.getItem(NUDGE_KEY) === "dismissed") return false; } catch { return false; }
  return Object.keys(localDone()).length === 0;
}

export function dismissNudge() {
  try { localStorage.setItem(NUDGE_KEY, "dismissed"); } catch { /* storage blocked */ }
}
