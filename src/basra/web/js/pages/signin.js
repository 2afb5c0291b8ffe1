// /sign-in: an account signs in on this device with its username and password, or with a
// passkey (the browser asks which); the guest held here, if any, is replaced (its games
// stay with it). An account already signed in is told so. Links to making an account and
// back to the lobby.

import { h, replace } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { cachedMe, me, signInWithPassword } from "../lib/api.js";
import { passkeyError, passkeysSupported, signInWithPasskey } from "../lib/passkey.js";
import { announce, errorText, link, loadStyle, navigate, nextPath, spinner, toast } from "../lib/ui.js";

const STYLE = new URL("../../css/account.css", import.meta.url);

export function mount(container) {
  const page = new SignIn(container);
  page.start();
  return { unmount: () => { page.alive = false; }, relabel: () => page.render() };
}

/** A sign-in refusal in words: too many attempts says how long to wait. */
export function signInError(err) {
  if (err && err.code === "auth/too_many_attempts" && err.retryAfter > 0) {
    const minutes = Math.max(1, Math.ceil(err.retryAfter / 60));
    return t("signin.wait", { count: minutes, n: minutes });
  }
  return errorText(err);
}

class SignIn {
  constructor(container) {
    this.container = container;
    this.alive = true;
    this.player = cachedMe();
    this.checked = false;
    this.username = "";
    this.password = "";
    this.error = "";
    this.passkeyError = "";
    this.busy = "";
  }

  async start() {
    this.container.classList.add("page", "account-page", "signin-page");
    await loadStyle(STYLE);
    this.render();
    try { this.player = await me(); } catch { /* offline: what was kept */ }
    this.checked = true;
    this.render();
  }

  render() {
    if (!this.alive) return;
    const player = this.player;
    if (player && player.account) {
      replace(this.container, h("section", { class: "card-box account-box signin-box" },
        h("h1", null, t("signin.title")),
        h("p", { class: "signed-in" }, t("signin.already", { name: player.username })),
        h("div", { class: "actions" },
          link("/account", { class: "btn primary" }, t("signin.to_account")),
          link("/", { class: "btn ghost" }, t("signin.back")))));
      return;
    }
    const username = h("input", {
      id: "signin-username", name: "username", type: "text", autocomplete: "username", autocapitalize: "none",
      spellcheck: "false", dir: "auto", required: true, value: this.username,
      on: { input: (e) => { this.username = e.target.value; } },
    });
    const password = h("input", {
      id: "signin-password", name: "password", type: "password", autocomplete: "current-password", required: true,
      value: this.password, on: { input: (e) => { this.password = e.target.value; } },
    });
    const disabled = !!this.busy;
    const passkey = passkeysSupported()
      ? h("button", { type: "button", class: "btn big passkey-button", id: "signin-passkey", disabled, on: { click: () => this.withPasskey() } },
        this.busy === "passkey" ? spinner() : null, t("signin.passkey"))
      : h("p", { class: "hint passkey-unsupported" }, t("account.passkey.unsupported"));
    const guest = player && !player.account && this.checked
      ? h("p", { class: "hint guest-note" }, t("signin.replaces_guest", { name: player.nickname })) : null;
    replace(this.container, h("section", { class: "card-box account-box signin-box", "aria-labelledby": "signin-title" },
      h("h1", { id: "signin-title" }, t("signin.title")),
      h("p", { class: "lead" }, t("signin.intro")),
      h("form", { class: "account-form", id: "signin-form", novalidate: true, on: { submit: (e) => { e.preventDefault(); this.withPassword(); } } },
        h("label", { for: "signin-username" }, t("signin.username")), username,
        h("label", { for: "signin-password" }, t("signin.password")), password,
        h("p", { class: "field-error", id: "signin-error", role: "alert" }, this.error),
        h("button", { type: "submit", class: "btn primary big", disabled }, this.busy === "password" ? spinner() : null, t("signin.submit"))),
      h("p", { class: "or-line", "aria-hidden": "true" }, h("span", null, t("signin.or"))),
      passkey,
      h("p", { class: "field-error", id: "passkey-error", role: "alert" }, this.passkeyError),
      guest,
      h("p", { class: "signin-links" }, t("signin.no_account"), " ", link("/account", { id: "to-create" }, t("signin.create"))),
      h("p", { class: "signin-links" }, link("/", { class: "back-link" }, t("signin.back")))));
  }

  async run(kind, fn) {
    if (this.busy) return;
    this.busy = kind;
    this.error = "";
    this.passkeyError = "";
    this.render();
    try {
      const player = await fn();
      if (!this.alive) return;
      this.password = "";
      toast(t("signin.done", { name: player.username || player.nickname }), "info");
      announce(t("signin.done", { name: player.username || player.nickname }));
      navigate(nextPath() || "/");
    } catch (err) {
      if (kind === "passkey") this.passkeyError = passkeyError(err);
      else this.error = signInError(err);
      this.busy = "";
      this.render();
      this.container.querySelector(kind === "passkey" ? "#signin-passkey" : "#signin-password")?.focus();
      return;
    }
    this.busy = "";
  }

  withPassword() {
    const username = this.username.trim();
    if (!username || !this.password) {
      this.error = t("signin.missing");
      this.render();
      this.container.querySelector(username ? "#signin-password" : "#signin-username")?.focus();
      return;
    }
    this.run("password", () => signInWithPassword(username, this.password));
  }

  withPasskey() {
    this.run("passkey", () => signInWithPasskey());
  }
}
