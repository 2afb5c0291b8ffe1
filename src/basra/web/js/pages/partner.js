// The landing page of a partner invite link (/partner/CODE): who invites, to what (variant
// and seating), Accept or Decline. With no session yet a guest with a made-up name is made
// first. Accepting puts both in the team pool as one side: the lobby opens waiting on this
// player's ticket ("You and NAME are looking for the other side together"). An invite that
// is gone, answered, expired or one's own says so, with the way to the lobby.

import { h, replace } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { api, me, signIn } from "../lib/api.js";
import { seatingKey } from "../lib/variants.js";
import { errorText, link, navigate, spinner } from "../lib/ui.js";
import { resumeQuickMatch } from "./quick.js";

export function mount(container, params) {
  let alive = true;
  let invite = null;
  let failure = null;
  let busy = false;
  let declined = false;
  container.classList.add("page", "partner-page");
  const box = h("section", { class: "card-box invite-box partner-box", "aria-labelledby": "partner-title", "aria-live": "polite" });

  const back = () => h("p", null, link("/", { class: "btn", id: "partner-lobby" }, t("partner.to_lobby")));

  const render = () => {
    if (!alive) return;
    const title = h("h1", { id: "partner-title", tabindex: "-1" }, t("partner.title"));
    if (failure) {
      const missing = failure.code === "partner/not_found";
      replace(box, title, h("p", { class: "field-error partner-error", role: "alert", dataset: { code: failure.code || null } },
        missing ? t("partner.not_found") : errorText(failure)), back());
      return;
    }
    if (!invite) {
      replace(box, title, h("p", { class: "muted" }, spinner(), " ", t("partner.loading")));
      return;
    }
    const what = { name: invite.host.name, variant: t(`variant.${invite.variant}.name`), seating: t(`seating.${seatingKey(invite)}`) };
    if (declined) {
      replace(box, title, h("p", { role: "status", class: "partner-declined" }, t("partner.declined", what)), back());
      return;
    }
    if (invite.yours) {
      replace(box, title, h("p", { class: "partner-own" }, t("partner.own")), back());
      return;
    }
    if (invite.status !== "waiting") {
      replace(box, title, h("p", { class: "partner-closed", dataset: { status: invite.status } }, t("partner.closed", what)), back());
      return;
    }
    replace(box, title,
      h("p", { class: "partner-text" }, t("partner.text", what)),
      h("div", { class: "row partner-answers" },
        h("button", { type: "button", class: "btn primary big", id: "partner-accept", disabled: busy, on: { click: accept } }, busy ? spinner() : null, t("partner.accept")),
        h("button", { type: "button", class: "btn ghost", id: "partner-decline", disabled: busy, on: { click: decline } }, t("partner.decline"))));
  };

  const fail = (err) => { failure = err; busy = false; render(); box.querySelector("#partner-title")?.focus(); };

  const accept = async () => {
    busy = true;
    render();
    try {
      const ticket = await api.partnerAccept(params.code);
      resumeQuickMatch({ ticket: ticket.ticket, variant: ticket.variant, players: ticket.players, teams: ticket.teams, offer: false, notice: "partnered", partnerName: invite.host.name });
      if (alive) navigate("/", { replace: true });
    } catch (err) { fail(err); }
  };

  const decline = async () => {
    busy = true;
    render();
    try {
      await api.partnerDecline(params.code);
      declined = true;
      busy = false;
      render();
    } catch (err) { fail(err); }
  };

  replace(container, box);
  render();
  (async () => {
    try {
      if (!(await me())) await signIn();
      invite = await api.partnerInvitation(params.code);
      render();
      box.querySelector("#partner-accept")?.focus();
    } catch (err) { fail(err); }
  })();
  return { unmount() { alive = false; }, relabel: render };
}
