// The landing page of an invite link (/join/CODE): nothing is asked. With no session yet a
// guest with a made-up name is made (it can be renamed in the lobby), then the seat is taken
// and the table opens; a code that opens no table says so at once.

import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { api, me, signIn } from "./api.js";
import { errorText, link, navigate, spinner } from "./ui.js";

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
    title.textContent = t(invalid ? "page.invite_invalid.heading" : "lobby.invite.title");
    replace(box, title,
      h("p", { class: ["invite-error", !invalid && "field-error"], role: "alert" },
        invalid ? t("page.invite_invalid.text", { code: params.join }) : errorText(failure)),
      link("/", { class: "btn primary", id: "invite-lobby" }, t("lobby.invite.to_lobby")));
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
