// The landing page of an invite link (/join/CODE): nothing is asked. With no session yet a
// guest with a made-up name is made (it can be renamed in the lobby), then the seat is taken
// and the table opens; a code that opens no table says so at once. A rated table's seat is
// for accounts: a guest is offered to make one (/account?next=/join/CODE), and comes back
// here to take the seat once it is made.

import { h, replace } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { api, me, signIn } from "../lib/api.js";
import { errorText, link, navigate, spinner } from "../lib/ui.js";

export function mount(container, params) {
  let alive = true;
  let failure = null;
  container.classList.add("page", "invite-page");
  const box = h("section", { class: "card-box invite-box", "aria-labelledby": "invite-title", "aria-live": "polite" });

  const render = () => {
    if (!alive) return;
    const title = h("h2", { id: "invite-title", tabindex: "-1" });
    if (!failure) {
      title.textContent = t("lobby.invite.title");
      replace(box, title,
        h("p", null, t("lobby.invite.text", { code: params.join })),
        h("p", { class: "muted" }, spinner(), " ", t("lobby.invite.joining")));
      return;
    }
    // A code that opens no table has the words of the server's own page for it.
    const invalid = failure.code === "table/not_found";
    const rated = failure.code === "table/rated_needs_account";
    title.textContent = t(invalid ? "page.invite_invalid.heading" : "lobby.invite.title");
    const back = `/join/${encodeURIComponent(params.join)}`;
    replace(box, title,
      h("p", { class: ["invite-error", !invalid && !rated && "field-error"], role: "alert", dataset: { code: failure.code || null } },
        invalid ? t("page.invite_invalid.text", { code: params.join }) : errorText(failure)),
      rated ? [
        h("p", { class: "muted invite-rated-hint" }, t("lobby.invite.rated_back")),
        h("p", null, link(`/account?next=${encodeURIComponent(back)}`, { class: "btn primary big", id: "invite-account" }, t("rated.create_account"))),
        h("p", null, link("/", { id: "invite-lobby" }, t("lobby.invite.to_lobby")))]
        : link("/", { class: "btn primary", id: "invite-lobby" }, t("lobby.invite.to_lobby")));
  };

  replace(container, box);
  render();
  (async () => {
    try {
      if (!(await me())) await signIn();
      const answer = await api.join(params.join);
      if (alive) navigate(`/table/${encodeURIComponent(answer.table.id)}`, { replace: true });
    } catch (err) {
      failure = err;
      render();
      if (alive) box.querySelector("#invite-title")?.focus();
    }
  })();
  return { unmount() { alive = false; }, relabel: render };
}
