// Which entrant of an event is this browser's player, and which tournament tables they are
// done with. An account's row names its username; a guest's does not, so the entrant id
// a join answered is kept (localStorage, by player and event). The tables whose match
// ended here are kept for the tab (sessionStorage): the event's page never sends its player
// back to one of them.

const ENTRANTS = "basra.entrants";
const LEFT = "basra.tablesLeft";
const KEEP = 60;

function load(storage, key, empty) {
  try { return JSON.parse(storage.getItem(key) || "null") || empty; } catch { return empty; }
}

function save(storage, key, value) {
  try { storage.setItem(key, JSON.stringify(value)); } catch { /* storage may be blocked */ }
}

/** Keep the entrant id a join answered for `player` in `tournament`. */
export function rememberEntrant(player, tournament, entrant) {
  const kept = load(localStorage, ENTRANTS, {});
  delete kept[`${player}:${tournament}`];
  kept[`${player}:${tournament}`] = entrant;
  const keys = Object.keys(kept);
  for (const key of keys.slice(0, Math.max(0, keys.length - KEEP))) delete kept[key];
  save(localStorage, ENTRANTS, kept);
}

/** The player's row among `rows` (the standings), or null: the entrant kept for them, or
 * the one whose account is `username`. */
export function myRow(rows, { player, tournament, username }) {
  const kept = player ? load(localStorage, ENTRANTS, {})[`${player}:${tournament}`] : null;
  const named = username ? String(username).toLocaleLowerCase() : "";
  return rows.find((row) => row.entrant === kept)
    || (named && rows.find((row) => (row.usernames || []).some((u) => u && u.toLocaleLowerCase() === named)))
    || null;
}

/** The match at `table` ended while this tab watched it. */
export function tableLeft(table) {
  const left = load(sessionStorage, LEFT, []).filter((id) => id !== table);
  left.push(table);
  save(sessionStorage, LEFT, left.slice(-KEEP));
}

export function wasLeft(table) {
  return load(sessionStorage, LEFT, []).includes(table);
}
