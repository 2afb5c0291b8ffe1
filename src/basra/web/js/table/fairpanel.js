// The fairness panel: the pending round's commitment and this seat's part, the player's own
// text (the form is built once by layout.js), and for each revealed round the page's verdict,
// its checks and every seat's part with whose it is.

import { h } from "../lib/dom.js";
import { t, num } from "../lib/i18n.js";
import { playerName } from "../lib/ui.js";
import { cardShort } from "../lib/cards.js";
import { table } from "./state.js";

export function verdictTitle(result, round) {
  const n = num(round);
  if (!result) return t("fair.checking_round", { n });
  if (result.verdict === "unverifiable") return t("fair.verdict_unverifiable_round", { n });
  return result.fair ? t("fair.verdict_fair_round", { n }) : t("fair.verdict_unfair_round", { n });
}

export function verdictDetail(result) {
  if (!result) return null;
  if (result.verdict === "unverifiable") return t("fair.verdict_unverifiable_detail");
  return result.fair ? t("fair.verdict_fair_detail") : t("fair.verdict_unfair_detail");
}

export function renderFairCurrent(st, ctx) {
  const current = st.game ? table(st).fairness.current : null;
  const parts = [];
  if (current) {
    const tb = table(st);
    const mine = st.seat !== null ? ctx.ev.partsFor(current.round) : [];
    const held = st.seat !== null && tb.players[st.seat] ? tb.players[st.seat].client_seed : null;
    const started = !!current.client_seed;
    // The part that counts: the one the server holds (when it is this browser's), else
    // the latest this page sent, else, once dealt, the one in the client seed.
    let myPart = held && mine.includes(held) ? held : mine[mine.length - 1] || null;
    if (started) myPart = String(current.client_seed).split("|")[st.seat] || myPart;
    const facts = [
      h("dt", null, t("fair.commitment")), h("dd", null, h("code", { class: "hash", dataset: { commitment: current.commitment } }, current.commitment)),
    ];
    if (st.seat !== null) {
      facts.push(h("dt", null, t("fair.your_part")), h("dd", null, myPart
        ? h("code", { class: "hash own-part", dataset: { part: myPart } }, myPart)
        : h("span", { class: "muted" }, started ? t("fair.your_part_none") : t(current.round > 1 ? "fair.your_part_continue" : "fair.your_part_pending"))));
    }
    facts.push(
      h("dt", null, t("fair.client_seed")), h("dd", null, started ? h("code", { class: "hash" }, current.client_seed) : h("span", { class: "muted" }, t("fair.client_seed_pending"))),
      h("dt", null, t("fair.server_seed")), h("dd", null, h("span", { class: "muted" }, t("fair.server_seed_hidden"))));
    parts.push(h("h3", null, t("fair.round_n", { n: num(current.round) })));
    parts.push(h("dl", { class: "fair-facts" }, facts));
  }
  return h("div", { class: "fair-current" }, parts);
}

/** Every seat's part of a revealed client seed, whose it is, and what was checked. */
function partsList(st, c) {
  const players = table(st).players;
  return h("ul", { class: "part-list" }, c.parts.map((p) => {
    const player = players[p.seat];
    const who = p.own ? t("seat.you") : player ? playerName(player, players) : t("seat.number", { n: num(p.seat + 1) });
    let tag;
    if (p.bot) tag = p.derived ? t("fair.part.bot_ok") : t("fair.part.bot_bad");
    else if (p.own) {
      const sent = c.ownPart && c.ownPart.sent;
      tag = p.ok === null ? t("fair.part.own_unknown") : p.ok ? (sent ? t("fair.part.own_ok") : t("fair.part.own_derived")) : (sent ? t("fair.part.own_bad") : t("fair.part.own_derived_bad"));
    } else tag = p.derived ? t("fair.part.player_derived") : t("fair.part.player");
    const state = p.ok === true ? "ok" : p.ok === false ? "bad" : "info";
    return h("li", { class: ["part-item", state], dataset: { seat: String(p.seat) } },
      h("span", { class: "part-who" }, who),
      h("code", { class: "hash part-value", dir: "ltr" }, p.part),
      h("span", { class: "part-tag" }, tag));
  }));
}

function checkText(c) {
  if (c.id === "parts") {
    const bits = [];
    bits.push(c.count === c.seats ? t("fair.parts.count_ok", { count: c.seats, n: num(c.seats) })
      : t("fair.parts.count_bad", { count: c.count, parts: num(c.count), n: num(c.seats) }));
    if (c.parts && c.parts.some((p) => p.bot)) {
      bits.push(c.badBots.length ? t("fair.parts.bots_bad") : t("fair.parts.bots_ok"));
    }
    const own = c.ownPart;
    if (own) {
      if (own.ok === null) bits.push(t("fair.parts.own_unknown"));
      else if (own.sent) bits.push(own.ok ? t("fair.parts.own_ok") : t("fair.parts.own_bad"));
      else bits.push(own.ok ? t("fair.parts.own_derived_ok") : t("fair.parts.own_derived_bad"));
    }
    return bits.join(" ");
  }
  const key = `fair.check.${c.id}.${c.ok === true ? "ok" : c.ok === false ? "bad" : "info"}`;
  return t(key, {
    count: c.count ?? c.deals ?? 0, n: c.count ?? c.deals ?? 0,
    cards: (c.wrong || []).map((w) => (typeof w === "string" ? cardShort(w) : cardShort(w.card))).join(" "),
  });
}

function fairResult(st, r) {
  const result = st.verifications[r.round];
  const verdict = !result ? "pending" : result.verdict || (result.fair ? "fair" : "unfair");
  const details = [];
  details.push(h("dl", { class: "fair-facts" },
    h("dt", null, t("fair.server_seed")), h("dd", null, h("code", { class: "hash" }, r.server_seed)),
    h("dt", null, t("fair.commitment")), h("dd", null, h("code", { class: "hash" }, r.commitment)),
    h("dt", null, t("fair.client_seed")), h("dd", null, h("code", { class: "hash" }, r.client_seed)),
    h("dt", null, t("fair.nonce")), h("dd", null, num(r.nonce))));
  if (result) {
    details.push(h("ul", { class: "checks" }, result.checks.map((c) => h("li", { class: c.ok === true ? "ok" : c.ok === false ? "bad" : "info", dataset: { check: c.id } },
      h("span", { class: "check-mark", "aria-hidden": "true" }, c.ok === true ? "✓" : c.ok === false ? "✗" : "•"),
      " ", h("span", { class: "check-text" }, checkText(c)),
      c.id === "parts" && c.parts ? partsList(st, c) : null))));
    if (result.deck) {
      details.push(h("details", { class: "deck" }, h("summary", null, t("fair.deck")),
        h("p", { class: "deck-cards", dir: "ltr" }, result.deck.map(cardShort).join(" "))));
    }
    if (result.source === "record") details.push(h("p", { class: "hint" }, t("fair.from_record")));
  }
  const detail = verdictDetail(result);
  const icon = verdict === "fair" ? "✓" : verdict === "unfair" ? "✗" : verdict === "unverifiable" ? "?" : "…";
  return h("div", { class: ["fair-result", verdict], dataset: { round: String(r.round), verdict, key: `round-${r.round}` } },
    h("div", { class: "verdict" },
      h("span", { class: "verdict-icon", "aria-hidden": "true" }, icon),
      h("div", null, h("strong", null, verdictTitle(result, r.round)), detail ? h("div", { class: "verdict-detail" }, detail) : null)),
    // Keyed by verdict: a verdict that changes opens (or closes) the details afresh.
    h("details", { class: "fair-details", open: verdict === "unfair", dataset: { key: `details-${verdict}` } }, h("summary", null, t("fair.details")), details));
}

export function renderFairResults(st) {
  const revealed = st.game ? table(st).fairness.revealed.slice().reverse() : [];
  return h("div", { class: "fair-results" }, revealed.map((r) => fairResult(st, r)));
}
