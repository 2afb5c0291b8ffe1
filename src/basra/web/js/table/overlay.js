// The overlays: a round's summary (its breakdown, the page's fairness verdict; while the
// next round waits, Continue, the countdown and who is still looking) and the match end
// (winner, totals, each player's rating change in a rated match, or that it was not rated
// when it ended before both had played, the last round, rematch,
// the record and its replay; who resigned; a tournament's match: back to the event). Buttons act through data-action ("ready", "close-overlay", "rematch",
// "fair-details", "nav").

import { h } from "../lib/dom.js";
import { t, num } from "../lib/i18n.js";
import { recordUrl } from "../lib/api.js";
import { playerName } from "../lib/ui.js";
import { signedNumber, signedTag } from "../lib/cards.js";
import { roundBreakdown } from "../lib/scoring.js";
import { mySide, myTurn, nextRoundInfo, readied, table, view } from "./state.js";
import { breakdownTable } from "./breakdown.js";
import { seatName, sideName, trophy } from "./names.js";
import { verdictDetail, verdictTitle } from "./fairpanel.js";
import { backLink } from "./back.js";

function totalsTable(st, totals, winner) {
  const me = mySide(st);
  const rows = totals.map((total, side) => h("tr", { class: [side === me && "mine", side === winner && "winner"] },
    h("th", { scope: "row" }, sideName(st, side)), h("td", null, num(total))));
  return h("table", { class: "totals-table" },
    h("caption", { class: "sr-only" }, t("end.final_scores")),
    h("tbody", null, rows));
}

/** A rated match's rating changes (table.result.ratings): "You 1512 +12" per player; or,
 * when it was aborted (too little play: no ratings) or finished unrated (a player may not
 * play rated yet, or the pair played rated often today), one line saying it was not
 * rated (the server's reason as its tooltip). */
function ratingChanges(st) {
  const result = table(st).result;
  const changes = result && Array.isArray(result.ratings) ? result.ratings : [];
  if (!changes.length) {
    if (result && result.unrated) return h("p", { class: "end-aborted", dataset: { notice: "unrated" }, title: result.unrated }, t("rated.unrated"));
    return result && result.aborted ? h("p", { class: "end-aborted", dataset: { notice: "aborted" } }, t("rated.aborted")) : null;
  }
  return h("section", { class: "end-ratings-box", "aria-labelledby": "end-ratings-title" },
    h("h3", { id: "end-ratings-title" }, t("rated.end_title")),
    h("ul", { class: "end-ratings" }, changes.map((r) => {
      const name = seatName(st, r.seat);
      const label = r.label || num(r.after);
      const change = signedNumber(r.change);
      return h("li", { class: ["end-rating", r.seat === st.seat && "mine"], dataset: { seat: String(r.seat), change: String(r.change) } },
        h("span", { class: "sr-only" }, t("rated.end_line", { name, after: label, change })),
        h("span", { class: "who", "aria-hidden": "true" }, name),
        h("bdi", { class: "after", dir: "ltr", "aria-hidden": "true" }, label),
        h("span", { "aria-hidden": "true" }, signedTag(r.change, r.change > 0 ? "up" : r.change < 0 ? "down" : null)));
    })));
}

function matchEnd(st, o, breakdown, ctx) {
  const v = view(st);
  const tb = table(st);
  const won = v.winner !== null && v.winner === mySide(st);
  const title = v.winner === null ? t("end.over")
    : st.seat === null ? t("end.winner", { name: sideName(st, v.winner) })
      : won ? t("end.you_won") : t("end.you_lost", { name: sideName(st, v.winner) });
  const body = [];
  body.push(h("div", { class: ["end-banner", won ? "won" : "lost"] }, won ? trophy() : null, h("h2", { id: "overlay-title" }, title)));
  if (tb.resigned !== null && tb.resigned !== undefined) {
    body.push(h("p", { class: "resigned-line", dataset: { seat: String(tb.resigned) } },
      tb.resigned === st.seat ? t("end.you_resigned") : t("end.resigned", { name: playerName(tb.players[tb.resigned], tb.players) })));
  }
  body.push(totalsTable(st, v.totals, v.winner));
  body.push(ratingChanges(st));
  if (breakdown) body.push(h("details", { class: "last-round" }, h("summary", null, t("end.last_round", { n: num(breakdown.round) })), breakdownTable(st, breakdown)));
  const me = st.seat !== null ? tb.players[st.seat] : null;
  const asked = me && me.rematch;
  const others = tb.players.filter((p) => p.kind === "human" && p.seat !== st.seat);
  const actions = [];
  // A tournament's match: back to the event (it pairs the players again), no rematch.
  const event = tb.kind === "tournament";
  if (event) {
    const back = backLink(ctx);
    if (back) actions.push(back);
  } else if (tb.rematch_table) {
    actions.push(h("a", { class: "btn primary", href: `/table/${encodeURIComponent(tb.rematch_table)}`, dataset: { autofocus: "", focusKey: "go-rematch", action: "nav" } }, t("end.go_rematch")));
  } else if (st.seat !== null && !st.closed) {
    actions.push(h("button", { class: "btn primary", type: "button", disabled: !!asked, dataset: { autofocus: "", focusKey: "rematch", action: "rematch" } }, asked ? t("end.rematch_waiting") : t("end.rematch")));
  }
  actions.push(h("a", { class: "btn", href: recordUrl(tb.id), download: `basra-${tb.id}.json`, dataset: { focusKey: "record", autofocus: actions.length ? undefined : "" } }, t("end.record")));
  if (tb.status === "finished") {
    actions.push(h("a", { class: "btn watch-replay", href: `/replay/${encodeURIComponent(tb.id)}`, dataset: { action: "nav", focusKey: "replay" } }, t("replay.watch")));
  }
  actions.push(h("a", { class: "btn ghost", href: "/", dataset: { action: "nav" } }, t("nav.lobby")));
  body.push(h("div", { class: "overlay-actions" }, actions));
  if (others.length && !st.closed && st.seat !== null && !event) {  // a spectator has no rematch to wait for
    body.push(h("ul", { class: "rematch-list" }, others.map((p) => h("li", null, playerName(p, tb.players), " — ", p.rematch ? t("end.wants_rematch") : t("end.no_answer")))));
  }
  if (st.closed) body.push(h("p", { class: "hint closed-note", dataset: { notice: "closed" } }, t("end.closed")));
  return body;
}

function roundEnd(st, o, breakdown, ctx) {
  const tb = table(st);
  const body = [h("h2", { id: "overlay-title" }, t("round_end.title", { n: num(o.round) }))];
  if (breakdown) body.push(breakdownTable(st, breakdown));
  const verdict = st.verifications[o.round];
  body.push(h("p", { class: ["fair-line", verdict ? verdict.verdict || (verdict.fair ? "fair" : "unfair") : "pending"] },
    verdict ? verdictTitle(verdict, o.round) : t("fair.checking"),
    verdict ? h("span", { class: "verdict-detail" }, " ", verdictDetail(verdict)) : null,
    " ", h("a", { href: "#fairness", dataset: { action: "fair-details" } }, t("fair.details"))));
  const seeding = tb.phase === "seeding" && st.seat !== null;
  const current = tb.fairness.current;
  const sent = seeding && current && readied(st, ctx.ev.partsFor(current.round));
  const actions = [];
  if (seeding) {
    // The next round waits for this player: Continue deals it (with every other player's).
    // Once it is said, the line below tells who the round still waits for.
    actions.push(sent
      ? h("button", { class: "btn close-overlay", type: "button", dataset: { autofocus: "", focusKey: "close-overlay", action: "close-overlay" } }, t("round_end.close"))
      : h("button", { class: "btn primary continue", type: "button", dataset: { autofocus: "", focusKey: "next-round", action: "ready" } }, t("round_end.continue")));
  } else {
    const turn = myTurn(st);
    actions.push(h("button", { class: "btn primary close-overlay", type: "button", dataset: { focusKey: "close-overlay", autofocus: "", action: "close-overlay" } }, turn ? t("round_end.play") : t("round_end.close")));
  }
  body.push(h("div", { class: "overlay-actions" }, actions));
  if (seeding) body.push(nextRoundLine(st, sent, ctx));
  return body;
}

/** The countdown to the next round, and who is still looking at the summary. */
function nextRoundLine(st, sent, ctx) {
  const next = nextRoundInfo(st, ctx.now);
  const tb = table(st);
  const others = next ? next.waiting.filter((seat) => seat !== st.seat) : [];
  const bits = [];
  if (next) bits.push(h("span", { class: "countdown", dataset: { second: String(next.second) } }, t("round_end.countdown", { count: next.second, n: num(next.second) })));
  if (sent) {
    const names = others.map((seat) => playerName(tb.players[seat], tb.players)).join(t("list.and"));
    bits.push(" ", h("span", { class: "waiting-for" }, others.length ? t("round_end.waiting_for", { names }) : t("deal.waiting")));
  }
  if (!next) bits.push(t("round_end.soon"));
  return h("p", { class: "hint next-round-line", role: "timer", "aria-live": "off" }, bits);
}

export function renderOverlay(st, ctx) {
  const o = st.overlay;
  if (!o || !st.game) return h("div", { class: "overlay-host", hidden: true });
  const breakdown = roundBreakdown(view(st), { index: o.index, round: o.round });
  const body = o.kind === "match" ? matchEnd(st, o, breakdown, ctx) : roundEnd(st, o, breakdown, ctx);
  return h("div", { class: "overlay-host" },
    h("div", { class: "overlay-backdrop" },
      h("div", { class: ["overlay-card", `overlay-${o.kind}`], role: "dialog", "aria-modal": "false", "aria-labelledby": "overlay-title", dataset: { key: `overlay-${o.kind}-${o.round}` } }, body)));
}
