// The lobby's private table: one to invite friends to (rated when asked, for an account at a
// seating of two; else the hint says why not), made with the lobby's options, and joining
// one by its code or its whole invite link. What is typed in the code field and the Rated
// box are kept across every redraw of the box.

import { h, replace } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { api } from "../lib/api.js";
import { variantOf } from "../lib/variants.js";
import { errorText, link, spinner } from "../lib/ui.js";

/** The private-table box of a lobby: `lobby` gives player, variant, level, busy, parts,
 * seatingOf(), tableOptions(), act(), open(). */
export class PrivateTable {
  constructor(lobby) {
    this.lobby = lobby;
    this.rated = false;
    this.listed = false;
    this.joinError = "";
    this.joinCodeDraft = "";
  }

  /** A private table to invite friends to, and joining one by its code. */
  redraw() {
    const lobby = this.lobby;
    const box = lobby.parts.private;
    if (!box || !box.isConnected) return;
    const code = h("input", {
      id: "invite-code", type: "text", autocomplete: "off", autocapitalize: "characters", spellcheck: "false", maxlength: 40,
      placeholder: t("lobby.join.placeholder"), value: this.joinCodeDraft, on: { input: (e) => { this.joinCodeDraft = e.target.value; } },
    });
    const why = this.ratedBlocked();
    replace(box,
      h("p", { class: "muted" }, t("lobby.private.text")),
      h("div", { class: "rated-option" },
        h("label", { class: "inline-field" }, h("input", { type: "checkbox", id: "rated", checked: this.rated && !why, disabled: !!why, "aria-describedby": "rated-hint", on: { change: (e) => { this.rated = e.target.checked; } } }), h("span", null, t("rated.private"))),
        h("p", { id: "rated-hint", class: "hint", dataset: { why } }, why === "account" ? [t("rated.needs_account"), " ", link("/account", null, t("rated.create_account"))] : t(why ? "rated.two_players" : "rated.private_hint"))),
      h("label", { class: "inline-field listed-option" }, h("input", { type: "checkbox", id: "listed", checked: this.listed, on: { change: (e) => { this.listed = e.target.checked; } } }), h("span", null, t("lobby.open.list_it"))),
      h("button", { type: "button", class: "btn big", id: "create-private", disabled: !!lobby.busy, on: { click: () => this.create() } },
        lobby.busy === "private" ? spinner() : null, t("lobby.private.create")),
      h("form", { class: "join-option", on: { submit: (e) => { e.preventDefault(); this.joinCode(code.value); } } },
        h("h3", null, h("label", { for: "invite-code" }, t("lobby.join.title"))),
        h("div", { class: "row" }, code, h("button", { type: "submit", class: "btn", disabled: !!lobby.busy }, t("lobby.join.button"))),
        this.joinError ? h("p", { class: "field-error", role: "alert" }, this.joinError) : null));
  }

  /** Why the private table cannot be rated ("account", "players"), or "". */
  ratedBlocked() {
    const lobby = this.lobby;
    return !lobby.player || !lobby.player.account ? "account" : lobby.seatingOf(variantOf(lobby.variant)).players === 2 ? "" : "players";
  }

  create() {
    const lobby = this.lobby;
    const rated = this.rated && !this.ratedBlocked() ? { rated: true } : {};
    return lobby.act("private", async () => {
      const answer = await api.createPrivate(lobby.tableOptions({ bot_level: lobby.level, ...rated, listed: this.listed }));
      lobby.open(answer.table.id);
    });
  }

  joinCode(raw) {
    let code = String(raw || "").trim();
    const match = code.match(/\/join\/([^/?#\s]+)/);
    if (match) code = match[1];
    if (!code) return;
    this.joinError = "";
    return this.lobby.act("join", async () => {
      try {
        const answer = await api.join(code);
        this.lobby.open(answer.table.id);
      } catch (err) {
        this.joinError = errorText(err);
      }
    });
  }
}
