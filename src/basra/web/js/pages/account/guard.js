// What keeps a stolen token from being the account. Adding a passkey or a password,
// removing a passkey, downloading the data and deleting the account need a fresh proof
// (the password or one of the account's passkeys, within the last few minutes: the server
// answers `auth/proof_needed` otherwise); `withProof` runs such an action and, when the
// server asks, opens a dialog for the proof and runs it again. "Sign out everywhere" names
// the passkeys other devices added and offers to remove them first (ticked: the ones added
// since this device signed in), since a passkey outlives every session.

import { h } from "../../lib/dom.js";
import { t, dateTime } from "../../lib/i18n.js";
import { request, session } from "../../lib/api.js";
import { credentialJson, deviceName, passkeyError, passkeysSupported, requestOptions } from "../../lib/passkey.js";
import { announce } from "../../lib/ui.js";
import { openDialog } from "../../table/dialog.js";

/** `fn()`, and once more after a proof if the server asks for one (`player`: the account,
 * to know what it can prove with). A proof refused or cancelled: the server's error. */
export async function withProof(fn, player, passkeys) {
  try {
    return await fn();
  } catch (err) {
    if (!err || err.code !== "auth/proof_needed") throw err;
    if (!(await proofDialog(player, passkeys))) throw err;
    return fn();
  }
}

/** Prove who holds this session with a passkey of this account's (the browser asks). */
export async function proveByPasskey() {
  const { challenge, options } = await request("POST", "/api/sessions/current/proof/options");
  const credential = await navigator.credentials.get({ publicKey: requestOptions(options) });
  return request("POST", "/api/sessions/current/proof", { challenge, credential: credentialJson(credential) });
}

let serial = 0;

/** The proof dialog: the password (if the account has one), or a passkey (if it has any
 * and the browser can); true once the server took the proof, false when closed. */
export function proofDialog(player, passkeys) {
  serial += 1;
  const id = `proof-${serial}`;
  const opener = document.activeElement;
  const usePassword = !!(player && player.has_password);
  const usePasskey = passkeysSupported() && (passkeys === undefined || passkeys === null || passkeys.length > 0);
  const error = h("p", { class: "field-error", id: `${id}-error`, role: "alert" });
  const input = usePassword ? h("input", { id: `${id}-password`, type: "password", autocomplete: "current-password", required: true, "aria-describedby": `${id}-error` }) : null;
  const dialog = h("dialog", { class: ["basra-dialog", "dialog-proof"], "aria-labelledby": `${id}-title`, dataset: { dialog: "proof" } });
  let proved = false;
  let busy = false;
  const buttons = () => Array.from(dialog.querySelectorAll("button, input"));
  const attempt = async (how) => {
    if (busy) return;
    busy = true;
    error.textContent = "";
    for (const b of buttons()) b.disabled = true;
    try {
      const answer = how === "password" ? await request("POST", "/api/sessions/current/proof", { password: input.value })
        : await proveByPasskey();
      session.renew(answer.token);
      proved = true;
      announce(t("account.proof.done"));
      dialog.close();
    } catch (err) {
      error.textContent = how === "password" && err && err.code === "auth/bad_credentials" ? t("account.proof.wrong") : passkeyError(err);
      if (input) input.setAttribute("aria-invalid", "true");
    } finally {
      busy = false;
      for (const b of buttons()) b.disabled = false;
      if (!proved && input) input.focus();
    }
  };
  dialog.append(
    h("div", { class: "dialog-head" },
      h("h2", { id: `${id}-title` }, t("account.proof.title")),
      h("button", { class: "btn ghost small dialog-close", type: "button", "aria-label": t("dialog.close"), on: { click: () => dialog.close() } }, "×")),
    h("form", { class: "dialog-body account-form proof-form", novalidate: true, on: { submit: (e) => { e.preventDefault(); if (input) attempt("password"); } } },
      h("p", null, t("account.proof.intro")),
      // The username, for password managers.
      usePassword ? h("input", { type: "text", name: "username", autocomplete: "username", value: player.username || "", hidden: true, readonly: true }) : null,
      usePassword ? [h("label", { for: input.id }, t("account.proof.password")), input] : null,
      error,
      h("div", { class: "dialog-actions" },
        h("button", { type: "button", class: "btn", dataset: { answer: "cancel" }, on: { click: () => dialog.close() } }, t("account.cancel")),
        usePasskey ? h("button", { type: "button", class: ["btn", !usePassword && "primary"], id: `${id}-passkey`, on: { click: () => attempt("passkey") } }, t("account.proof.passkey")) : null,
        usePassword ? h("button", { type: "submit", class: "btn primary", id: `${id}-submit` }, t("account.proof.submit")) : null)));
  document.body.append(dialog);
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => {
      dialog.remove();
      if (opener && opener.isConnected && opener.focus) opener.focus({ preventScroll: true });
      resolve(proved);
    });
    dialog.showModal();
    (input || dialog.querySelector(`#${id}-passkey`) || dialog.querySelector("button"))?.focus();
  });
}

/** Ask before signing out everywhere, naming the passkeys other devices added and any
 * added since this device signed in (a thief holding this device's token would have added
 * theirs "here"): null when cancelled, else the ids of the passkeys to remove first.
 * `sessions` finds when this device signed in; those other devices added since come
 * ticked (one added here is named, not ticked: it is most likely the owner's own). */
export async function everywhereDialog(passkeys, sessions) {
  const here = (sessions || []).find((s) => s.current);
  const since = here ? Date.parse(here.created_at) : 0;
  const others = (passkeys || []).filter((k) => !k.added_here || Date.parse(k.created_at) >= since);
  // Ticked: added elsewhere since this device signed in; one added here is only named.
  const boxes = others.map((k) => h("input", { type: "checkbox", id: `everywhere-${k.id}`, value: k.id, props: { checked: !k.added_here && Date.parse(k.created_at) >= since } }));
  const list = others.length ? [
    h("p", null, t("account.sessions.everywhere_passkeys")),
    h("ul", { class: "item-list everywhere-passkeys" }, others.map((k, i) => h("li", { class: "item", dataset: { passkey: k.id } },
      boxes[i],
      h("label", { for: boxes[i].id, class: "item-main" },
        h("bdi", { class: "item-name" }, k.name || t("account.passkey.default_name")),
        h("span", { class: "item-meta muted" }, k.added_here ? t("account.sessions.passkey_here", { when: dateTime(k.created_at) })
          : t("account.sessions.passkey_from", { when: dateTime(k.created_at), device: deviceName(k.added_from || "") || t("account.sessions.unknown_device") })))))),
  ] : [];
  const value = await openDialog({
    title: t("account.sessions.everywhere"),
    body: [h("p", null, t("account.sessions.everywhere_text")), ...list],
    actions: [{ label: t("account.cancel"), value: "no", focus: true }, { label: t("account.sessions.everywhere_yes"), value: "yes", danger: true }],
  });
  return value === "yes" ? boxes.filter((b) => b.checked).map((b) => b.value) : null;
}
