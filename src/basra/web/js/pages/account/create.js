// The guest's side of /account: the form that makes an account of this guest (username
// prefilled from the nickname, a password; a first visit becomes a guest on the way), each
// refusal under the field it is about (which it marks, and the focus goes to), then the
// passkey offer, or back to `?next=`. `page` is the account page (account.js): its drafts,
// errors, busy, input(), errorLine() and act().

import { h } from "../../lib/dom.js";
import { t } from "../../lib/i18n.js";
import { createAccount, signIn } from "../../lib/api.js";
import { passkeysSupported } from "../../lib/passkey.js";
import { limits } from "../../lib/variants.js";
import { announce, link, navigate, nextPath, toast, withNext } from "../../lib/ui.js";

/** A labelled field: its label, its input (`attrs`, from page.input) and a hint under it
 * (the account page's forms use it too). */
export const field = (id, label, attrs, hint = null) => [
  h("label", { for: id }, label),
  // aria-describedby names only lines that are there: the hint when there is one.
  h("input", { id, name: id, ...attrs, "aria-describedby": (attrs["aria-describedby"] || "").split(" ").filter((ref) => ref && (hint || ref !== `${id}-hint`)).join(" ") || undefined }),
  hint ? h("p", { class: "hint", id: `${id}-hint` }, hint) : null,
];

/** The create form's field an error code is about: "username", "password", or null. */
const fieldOf = (code) => (/password/.test(code) ? "password" : /username|nickname/.test(code) ? "username" : null);

export function guestView(page) {
  const nickname = page.player ? page.player.nickname : "";
  const l = limits();
  // The error line sits under the field it is about (which it marks and describes).
  const about = page.errors.create ? page.errorField : null;
  const error = page.errorLine("create");
  return h("section", { class: "card-box account-box create-box", "aria-labelledby": "create-title" },
    h("h1", { id: "create-title" }, t("account.create.title")),
    h("p", { class: "lead" }, t("account.create.intro")),
    h("form", { class: "account-form", id: "create-form", novalidate: true, on: { submit: (e) => { e.preventDefault(); create(page); } } },
      field("create-username", t("account.username"), page.input("create-username", {
        type: "text", autocomplete: "username", autocapitalize: "none", spellcheck: "false", dir: "auto", required: true,
        value: nickname, minlength: l.nickname_min, maxlength: l.nickname_max,
      }, about === "username" ? "create" : null), t("account.create.username_hint")),
      about === "username" ? error : null,
      field("create-password", t("account.password"), page.input("create-password", {
        type: "password", autocomplete: "new-password", required: true, minlength: limits().password_min, maxlength: limits().password_max,
      }, about === "password" ? "create" : null), t("account.password_hint", { n: limits().password_min })),
      about === "username" ? null : error,
      h("button", { type: "submit", class: "btn primary big", id: "create-account", disabled: !!page.busy },
        t("account.create.submit")),
      nextPath() ? h("p", { class: "hint create-next" }, t("account.create.then_back")) : null),
    h("p", { class: "signin-links" }, t("account.create.have_one"), " ", link(withNext("/sign-in"), { id: "to-sign-in" }, t("signin.link"))));
}

async function create(page) {
  const username = page.draft("create-username", page.player ? page.player.nickname : "").trim();
  const password = page.draft("create-password");
  const l = limits();
  const length = Array.from(username).length;
  const badName = length < l.nickname_min || length > l.nickname_max;
  if (badName || password.length < limits().password_min || password.length > limits().password_max) {
    page.errors.create = t(badName ? "error.account.bad_username" : "error.account.weak_password");
    page.errorField = badName ? "username" : "password";
    page.render();
    page.container.querySelector(badName ? "#create-username" : "#create-password")?.focus();
    return;
  }
  // Where to go once the account is made: `?next=` when it is a path of this site
  // ("/join/CODE": back to the invite a guest could not take), else null.
  const next = nextPath();
  const made = await page.act("create", async () => {
    // A first visit becomes a guest first: the account is made of a guest.
    if (!page.player) page.player = await signIn(username);
    page.player = await createAccount(username, password);
    page.drafts = {};
    page.offerPasskey = !next && passkeysSupported();
    announce(t("account.create.done", { name: page.player.username }));
    if (!next) page.loadLists();
  }, "create");
  // Made on the way somewhere (an invite to a rated table): back there.
  if (made && next) {
    toast(t("account.create.done", { name: page.player.username }), "info");
    navigate(next, { replace: true });
    return;
  }
  page.errorField = page.errors.create ? fieldOf(page.errorCodes.create) : null;
  page.render();
  // The focus goes to the field the error is about (else back to the button pressed).
  const focus = !page.errors.create ? "#account-top-title"
    : page.errorField ? `#create-${page.errorField}` : "#create-account";
  page.container.querySelector(focus)?.focus();
}
