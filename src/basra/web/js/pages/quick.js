// The lobby's quick match: for the variant and seating chosen in the options (two players,
// three or four alone, two teams: the button says which), one long poll of the ticket open
// at all times, the elapsed time, whether the search is rated (an account's) or casual (a
// guest's), the bot offer (bots in the empty seats), cancelling; and the hand-over from a
// table whose matched opponent never came (requeued: the lobby opens waiting on the new
// ticket). For a seating of two teams, "Play with a partner": an invite link to send, the
// wait for the partner's answer, then both wait as one side (the partner comes through
// /partner/CODE, pages/partner.js, and lands here waiting on their own ticket). A player
// who left too many matches sees the wait before quick match takes them again, ticking; a
// refusal of fair play's (that wait, a ban) stays in words over the button.

import { h, replace } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { api, me } from "../lib/api.js";
import { fairplayRefusal, leaverNotice, refusalWords } from "../lib/standing.js";
import { announce, copyText, errorText, fill, link, navigate, toast, spinner } from "../lib/ui.js";
import { seatingKey } from "../lib/variants.js";

const REQUEUED = "basra.requeued";
/** A long poll's seconds: the server answers sooner on a match or when a bot is offered. The
 * ticket lapses a few seconds after its owner stops waiting, so a new poll follows at once. */
const QUICK_WAIT = 25;
const QUICK_RETRY_MS = 700;
const canShare = () => typeof navigator.share === "function";

/** Hand a quick-match ticket to the lobby (the table's matched opponent never came): the
 * lobby opens on the waiting view for it, with the bot offer and a word on why. */
export function resumeQuickMatch(info) {
  try { sessionStorage.setItem(REQUEUED, JSON.stringify({ ...info, at: Date.now() })); } catch { /* ignore */ }
}

/** The ticket a table handed over in the last minute, once. */
export function takeRequeued() {
  let info = null;
  try {
    info = JSON.parse(sessionStorage.getItem(REQUEUED) || "null");
    sessionStorage.removeItem(REQUEUED);
  } catch { info = null; }
  return info && info.ticket && Date.now() - info.at < 60000 ? info : null;
}

/** The words for a search's variant and seating. */
function words(q) {
  return { variant: t(`variant.${q.variant}.name`), seating: t(`seating.${seatingKey(q)}`) };
}

function elapsed(since) {
  const seconds = Math.floor((Date.now() - since) / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** The quick-match box of a lobby: `lobby` gives variant, level, busy, act(), render(). */
export class QuickMatch {
  constructor(lobby) {
    this.lobby = lobby;
    this.q = null;
    /** A partner invite being answered: { code, link, variant, players, teams }. */
    this.invite = null;
    /** Why the last invite ended ("declined", "expired"), and who declined. */
    this.inviteEnd = null;
    this.timer = 0;
    this.stopped = false;
  }

  content() {
    const q = this.q;
    const lobby = this.lobby;
    if (this.invite) return this.inviteContent();
    if (!q) {
      const options = lobby.tableOptions();
      const many = options.players > 2;
      const wait = leaverNotice(lobby.player);
      return [
        wait || (this.refused ? h("p", { class: "leaver-wait quick-refused", dataset: { code: this.refused.code } }, refusalWords(this.refused, lobby.player)) : null),
        this.inviteEnd ? h("p", { class: "notice partner-ended", role: "status", dataset: { ended: this.inviteEnd.status } }, t(`lobby.partner.${this.inviteEnd.status}`, { name: this.inviteEnd.name || "" })) : null,
        h("button", { type: "button", class: "btn huge", id: "quick-match", disabled: !!lobby.busy, "aria-describedby": "quick-text", dataset: { seating: seatingKey(options) }, on: { click: () => this.find() } },
          lobby.busy === "quick" ? spinner() : null, t("lobby.quick.start")),
        h("span", { id: "quick-text", class: many ? "hint quick-seating" : "sr-only" }, t(many ? "lobby.quick.text_seats" : "lobby.quick.text", words(options))),
        options.teams ? h("button", { type: "button", class: "btn ghost", id: "partner-invite", disabled: !!lobby.busy, "aria-describedby": "partner-hint", on: { click: () => this.invitePartner() } },
          lobby.busy === "partner" ? spinner() : null, t("lobby.partner.start")) : null,
        options.teams ? h("span", { id: "partner-hint", class: "hint" }, t("lobby.partner.hint")) : null,
      ];
    }
    const many = (q.players || 2) > 2;
    return [
      q.notice ? h("p", { class: "notice quick-notice", dataset: { notice: q.notice } }, t(`lobby.quick.${q.notice}`, { name: q.partnerName || "" })) : null,
      h("p", { class: "waiting-line" }, spinner(), " ", t(many ? "lobby.quick.waiting_seats" : "lobby.quick.waiting", words(q)), " ", h("span", { class: "elapsed" }, elapsed(q.since))),
      q.partnerName ? h("p", { class: "hint quick-partner" }, t("lobby.quick.with_partner", { name: q.partnerName })) : null,
      this.ratedLine(),
      q.offer ? h("div", { class: "offer" },
        q.notice ? null : h("p", null, t(many ? "lobby.quick.offer_seats" : "lobby.quick.offer")),
        h("button", { type: "button", class: "btn primary", id: "quick-bot", on: { click: () => this.takeBot() } }, t("lobby.quick.take_bot", { level: t(`bot.level.${lobby.level}`) }))) : null,
      h("button", { type: "button", class: "btn ghost", id: "quick-cancel", on: { click: () => this.cancel() } }, t("lobby.quick.cancel")),
    ];
  }

  /** Whether this search is rated: an account's is (against another account), a guest's is
   * casual, with the way to an account. */
  ratedLine() {
    const player = this.lobby.player;
    if (player && player.account) {
      return h("p", { class: "hint quick-rated", dataset: { rated: "true" } }, t("lobby.quick.rated"));
    }
    return h("p", { class: "hint quick-rated", dataset: { rated: "false" } },
      fill("lobby.quick.casual", { link: link("/account", { class: "quick-to-account" }, t("lobby.quick.casual_link")) }));
  }

  redraw() {
    const box = this.lobby.container.querySelector(".quick-option");
    if (!box) return;
    replace(box, this.content());
    box.classList.toggle("waiting", !!this.q);
  }

  find() {
    const lobby = this.lobby;
    this.inviteEnd = null;
    return lobby.act("quick", async () => {
      const options = lobby.tableOptions();
      let answer;
      try {
        answer = await api.quickMatch({ variant: options.variant, players: options.players, teams: options.teams });
      } catch (err) {
        if (!fairplayRefusal(err)) throw err;
        // The wait as /api/me tells it now, shown over the button and read out once.
        this.refused = err;
        lobby.player = await me().catch(() => lobby.player);
        announce(refusalWords(err, lobby.player));
        return;
      }
      this.refused = null;
      if (answer.status === "matched" && answer.table) {
        navigate(`/table/${encodeURIComponent(answer.table)}`);
        return;
      }
      this.wait({ ticket: answer.ticket, since: Date.now(), offer: answer.bot_offer, variant: answer.variant || lobby.variant, players: answer.players || options.players, teams: answer.teams ?? options.teams, status: answer.status });
    });
  }

  /** Wait on a ticket: one long poll open at all times, and the elapsed time ticking. */
  wait(q) {
    this.q = q;
    clearInterval(this.timer);
    this.poll();
    this.timer = setInterval(() => {
      if (this.stopped || !this.q) { clearInterval(this.timer); return; }
      const el = this.lobby.container.querySelector(".quick-option .elapsed");
      if (el) el.textContent = elapsed(this.q.since);
    }, 1000);
  }

  async poll() {
    while (this.q && !this.stopped) {
      const q = this.q;
      let answer;
      try {
        answer = await api.quickWait(q.ticket, QUICK_WAIT);
      } catch (err) {
        if (this.q !== q) return;
        if (err.code === "queue/not_found") {
          this.q = null;
          clearInterval(this.timer);
          this.redraw();
          toast(t("lobby.quick.lapsed"), "info");
          return;
        }
        // Ask again soon: the ticket lapses a few seconds after the last poll.
        await new Promise((r) => setTimeout(r, QUICK_RETRY_MS));
        continue;
      }
      if (this.q !== q) return;
      q.status = answer.status;
      if (answer.status === "matched" && answer.table) {
        navigate(`/table/${encodeURIComponent(answer.table)}`);
        return;
      }
      if (answer.status === "partner_left") {
        this.q = null;
        clearInterval(this.timer);
        this.inviteEnd = { status: "partner_left", name: q.partnerName };
        this.redraw();
        return;
      }
      if (answer.bot_offer && !q.offer) {
        q.offer = true;
        this.redraw();
      }
    }
  }

  // ---------------------------------------------------------------- a partner

  inviteContent() {
    const invite = this.invite;
    const url = `${location.origin}${invite.link}`;
    return [
      h("p", { class: "partner-send" }, t("lobby.partner.send")),
      h("p", { class: "partner-link" }, h("bdi", { dir: "ltr" }, h("a", { href: invite.link, id: "partner-link", class: "invite-link" }, url))),
      h("div", { class: "row partner-actions" },
        h("button", { type: "button", class: "btn primary", id: "partner-copy", on: { click: () => this.shareInvite(url) } }, t(canShare() ? "lobby.partner.share" : "lobby.partner.copy")),
        h("button", { type: "button", class: "btn ghost", id: "partner-cancel", on: { click: () => this.cancelInvite() } }, t("lobby.partner.cancel"))),
      this.lobby.player && this.lobby.player.account ? h("form", { class: "row partner-send-to", on: { submit: (e) => { e.preventDefault(); this.sendInvite(e.target.querySelector("input").value); } } },
        h("label", { class: "sr-only", for: "partner-to" }, t("lobby.partner.send_to_label")),
        h("input", { id: "partner-to", type: "text", autocomplete: "off", maxlength: 64, placeholder: t("lobby.partner.send_to") }),
        h("button", { type: "submit", class: "btn small" }, t("lobby.partner.send_button"))) : null,
      h("p", { class: "waiting-line" }, spinner(), " ", t("lobby.partner.waiting", words(invite))),
    ];
  }

  /** Send the invite to a friend's bell by their username (accounts). */
  async sendInvite(username) {
    const invite = this.invite;
    const to = String(username || "").trim();
    if (!invite || !to) return;
    try {
      const answer = await api.partnerSend(invite.code, to);
      toast(t("lobby.partner.sent", { name: answer.sent.name }), "info");
    } catch (err) { toast(errorText(err), "error"); }
  }

  invitePartner() {
    const lobby = this.lobby;
    return lobby.act("partner", async () => {
      const options = lobby.tableOptions();
      const answer = await api.partnerInvite({ variant: options.variant, players: options.players, teams: options.teams });
      this.inviteEnd = null;
      this.invite = { code: answer.invite, link: answer.link, variant: answer.variant, players: answer.players, teams: answer.teams };
      this.redraw();
      this.lobby.container.querySelector("#partner-copy")?.focus();
      this.pollInvite();
    });
  }

  async shareInvite(url) {
    if (canShare()) {
      try { await navigator.share({ title: t("app.name"), text: t("lobby.partner.share_text"), url }); return; } catch { /* fall back to copying */ }
    }
    toast(t(await copyText(url) ? "lobby.partner.copied" : "lobby.partner.copy_failed"), "info");
  }

  /** The host's long poll of the invite: it keeps the invite open, and hands the host
   * their ticket once the partner accepts. */
  async pollInvite() {
    while (this.invite && !this.stopped) {
      const invite = this.invite;
      let answer;
      try {
        answer = await api.partnerInvitation(invite.code, QUICK_WAIT);
      } catch (err) {
        if (this.invite !== invite) return;
        if (err.code === "partner/not_found") { this.endInvite("expired"); return; }
        await new Promise((r) => setTimeout(r, QUICK_RETRY_MS));
        continue;
      }
      if (this.invite !== invite) return;
      if (answer.status === "accepted" && answer.ticket) {
        this.invite = null;
        const name = answer.partner ? answer.partner.name : "";
        this.wait({ ticket: answer.ticket, since: Date.now(), offer: false, variant: answer.variant, players: answer.players, teams: answer.teams, status: "waiting", notice: "partnered", partnerName: name });
        announce(t("lobby.quick.partnered", { name }));
        return;
      }
      if (answer.status === "declined" || answer.status === "expired" || answer.status === "cancelled") {
        this.endInvite(answer.status, answer.partner ? answer.partner.name : "");
        return;
      }
    }
  }

  endInvite(status, name = "") {
    this.invite = null;
    this.inviteEnd = status === "cancelled" ? null : { status, name };
    this.redraw();
    if (this.inviteEnd) announce(t(`lobby.partner.${status}`, { name }));
  }

  async cancelInvite() {
    const invite = this.invite;
    this.invite = null;
    this.redraw();
    this.lobby.container.querySelector("#partner-invite")?.focus();
    if (invite) await api.partnerCancel(invite.code).catch(() => null);
  }

  async cancel() {
    const q = this.q;
    this.q = null;
    clearInterval(this.timer);
    this.redraw();
    this.lobby.container.querySelector("#quick-match")?.focus();
    if (q) await api.quickLeave(q.ticket).catch(() => null);
  }

  async takeBot() {
    const q = this.q;
    if (!q) return;
    try {
      const answer = await api.quickBot(q.ticket, this.lobby.level);
      this.q = null;
      navigate(`/table/${encodeURIComponent(answer.table)}`);
    } catch (err) {
      toast(errorText(err), "error");
    }
  }

  /** The lobby goes away: leave the queue if still in it (an open invite lapses when its
   * host stops waiting on it). */
  stop() {
    this.stopped = true;
    clearInterval(this.timer);
    if (this.invite) api.partnerCancel(this.invite.code).catch(() => null);
    this.invite = null;
    if (this.q && this.q.ticket && this.q.status === "waiting") {
      api.quickLeave(this.q.ticket).catch(() => null);
    }
    this.q = null;
  }
}
