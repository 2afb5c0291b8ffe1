// Telling the player what a bot played for them: the "While you were away" panel (the
// server's `away` report after a reconnect, and the plays made while the page was hidden),
// and, while they look, a word when their clock ran out and the bot played for them.
// The panel is a region (redrawn from st.away); its OK button acts through data-action
// ("dismiss-away").

import { h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { cardName, cardShort } from "../lib/cards.js";
import { announce, toast } from "../lib/ui.js";
import { awayReported } from "./state.js";

/** A card's short name, kept whole (rank then suit) in a right-to-left line too. */
const card = (c) => h("bdi", { class: "away-card", dir: "ltr" }, cardShort(c));

export function renderAway(st) {
  const plays = st.away || [];
  if (!plays.length || !st.game) return h("div", { class: "away-host", hidden: true });
  const timeout = plays.every((p) => p.reason === "clock");
  return h("div", { class: "away-host" },
    h("section", { class: "away-panel", role: "region", "aria-labelledby": "away-title", dataset: { key: "away", count: String(plays.length) } },
      h("h2", { id: "away-title" }, t("away.title")),
      h("p", { class: "away-lead" }, t(timeout ? "away.lead_clock" : "away.lead", { count: plays.length, n: plays.length })),
      h("ul", { class: "away-plays" }, plays.map((p) => h("li", { dataset: { card: p.card, round: String(p.round), reason: p.reason } },
        card(p.card),
        p.take.length ? [" ", h("span", { class: "away-arrow", "aria-hidden": "true" }, "→"), " ", p.take.map((c, i) => [i ? " " : null, card(c)])] : null,
        h("span", { class: "sr-only" }, p.take.length ? t("away.took", { cards: p.take.map(cardName).join(t("list.and")) }) : t("away.laid"))))),
      h("button", { class: "btn primary small", type: "button", dataset: { action: "dismiss-away", focusKey: "dismiss-away" } }, t("away.ok"))));
}

/** The words the announcer reads for the panel. */
export function awayText(plays) {
  return `${t("away.title")}: ${t("away.bot_played", { cards: plays.map((p) => cardName(p.card)).join(t("list.and")) })}`;
}

/** The bot played for this seat (its clock ran out; `m` the played message): told now,
 * or kept in page.hiddenPlays while the page is hidden. */
export function botPlayed(page, m) {
  if (document.visibilityState === "hidden") {
    page.hiddenPlays.push({ round: m.round, card: m.card, take: m.take || [], reason: "clock" });
    return;
  }
  const text = t("away.timeout", { card: cardName(m.card) });
  toast(text, "info", 6000);
  announce(text);
}

/** A whole `state` came while the page was hidden (a round's last play comes so): every
 * new play of this seat in it was the bot's (nobody plays from a hidden page), kept too. */
export function hiddenState(page, before, after) {
  if (document.visibilityState !== "hidden" || after.seat === null || !before.game || !after.game) return;
  const was = before.game.view, now = after.game.view;
  if (was.round !== now.round || !Array.isArray(now.plays)) return;
  for (const p of now.plays.slice((was.plays || []).length)) {
    if (p.seat === after.seat) page.hiddenPlays.push({ round: now.round, card: p.card, take: p.take || [], reason: "clock" });
  }
}

/** The page shows again: the plays kept meanwhile go to the "While you were away" panel. */
export function tellHidden(page) {
  if (document.visibilityState !== "visible" || !page.hiddenPlays.length) return;
  const plays = page.hiddenPlays;
  page.hiddenPlays = [];
  page.update(awayReported(page.st, plays));
  announce(awayText(page.st.away));
}
