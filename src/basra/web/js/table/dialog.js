// Dialogs over the table: a native modal <dialog> (the browser keeps the focus inside it
// and Escape closes it), with a title, a body, buttons, and the focus given back to where
// it was when it closes. A confirmation is one of them that answers true or false.

import { h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";

let serial = 0;

/** Whether a dialog is open (keys then belong to it, not to the table). */
export function dialogOpen() {
  return !!document.querySelector("dialog.basra-dialog[open]");
}

/** Open a dialog; `actions` are [{label, value, primary, danger, check}]; the promise gives
 * the value of the button pressed, or null (Escape, the close button). An action's `check`
 * (async, optional) runs first: the dialog stays open unless it answers true (a form that
 * says what is wrong, or sends and shows the server's refusal). */
export function openDialog({ title, body = [], actions = [], kind = "confirm" }) {
  serial += 1;
  const id = `dialog-title-${serial}`;
  const opener = document.activeElement;
  let answer = null;
  const dialog = h("dialog", { class: ["basra-dialog", `dialog-${kind}`], "aria-labelledby": id, dataset: { dialog: kind } });
  const close = (value) => { answer = value; dialog.close(); };
  let checking = false;
  const act = async (a, button) => {
    if (!a.check) { close(a.value); return; }
    if (checking) return;
    checking = true;
    button.setAttribute("aria-disabled", "true");
    let ok = false;
    try { ok = await a.check(); } finally {
      checking = false;
      button.removeAttribute("aria-disabled");
    }
    if (ok && dialog.open) close(a.value);
  };
  const parts = [
    h("div", { class: "dialog-head" },
      h("h2", { id }, title),
      h("button", { class: "btn ghost small dialog-close", type: "button", "aria-label": t("dialog.close"), on: { click: () => close(null) } }, "×")),
    h("div", { class: "dialog-body" }, body),
    actions.length ? h("div", { class: "dialog-actions" }, actions.map((a) => h("button", {
      class: ["btn", a.primary && "primary", a.danger && "danger"], type: "button",
      dataset: { answer: String(a.value), autofocus: a.focus ? "" : undefined },
      on: { click: (event) => act(a, event.currentTarget) },
    }, a.label))) : null];
  dialog.append(...parts.filter(Boolean));
  document.body.append(dialog);
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => {
      dialog.remove();
      if (opener && opener.isConnected && opener.focus) opener.focus({ preventScroll: true });
      resolve(answer);
    });
    dialog.showModal();
    const first = dialog.querySelector("[data-autofocus]");
    if (first) first.focus();
  });
}

/** Ask before something that cannot be taken back: true when the player confirms. `text`
 * is a paragraph, or several (each a string or a node). */
export async function confirmDialog({ title, text, yes, no, danger = false }) {
  const paragraphs = (Array.isArray(text) ? text : [text]).filter(Boolean)
    .map((p) => (p instanceof Node ? p : h("p", null, p)));
  const value = await openDialog({
    title, body: paragraphs,
    actions: [
      { label: no, value: "no", focus: true },
      { label: yes, value: "yes", primary: !danger, danger },
    ],
  });
  return value === "yes";
}
