// "Practice against an easy bot with hints": a casual, short game against the easy bot (a
// guest made first if need be, as the lobby's one tap does), with the table's practice
// hints on (table/hint.js).

import { request, session, signIn } from "../lib/api.js";
import { loadPrefs } from "../lib/prefs.js";
import { defaultVariant, variantNames, variantOf } from "../lib/variants.js";
import { navigate } from "../lib/ui.js";
import { enableHints } from "../table/hint.js";

/** The variant to practise: the one the lobby remembers, else the default. */
export function practiceVariant() {
  const chosen = loadPrefs().variant;
  return variantNames().includes(chosen) ? chosen : defaultVariant();
}

export async function startPractice(variant = practiceVariant()) {
  if (!session.token) await signIn("");
  const v = variantOf(variant);
  const two = v.seatings.find((s) => s.players === 2 && !s.teams) || v.seatings[0];
  const answer = await request("POST", "/api/tables/bot", {
    variant, players: two.players, teams: two.teams, bot_level: "easy", length: "short",
  });
  enableHints(answer.table.id);
  navigate(`/table/${encodeURIComponent(answer.table.id)}`);
}
