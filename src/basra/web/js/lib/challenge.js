// Challenges between players (docs/PROTOCOL.md 1.8): the dialog that sends one (variant,
// seating, rated, length; from a profile, the friends page or the end of a match), and the
// prompt an incoming one opens (Accept opens the table; Decline says so to the
// challenger). A player in the middle of a match is not interrupted: the prompt waits in
// the bell until the match is over (the table page sets document.body.dataset.playing).

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { cachedMe, request } from "./api.js";
import { defaultVariant, seatingKey, variantNames, variantOf } from "./variants.js";
import { errorText, loadStyle, navigate, toast } from "./ui.js";
import { onNotify } from "./notify.js";
import { openDialog } from "../table/dialog.js";

const STYLE = new URL("../../css/overlay.css", import.meta.url);

/** The challenge's terms in words: "Lebanese, 4 players, two teams · rated". */
export function termsText(c) {
  const parts = [t(`variant.${c.variant}.name`), t(`seating.${seatingKey(c)}`)];
  if (c.length === "short") parts.push(t("challenge.short"));
  parts.push(t(c.rated ? "challenge.rated" : "challenge.casual"));
  return parts.join(" · ");
}

/** Open the dialog to challenge `username` (`name` as shown); sends it on Challenge. */
export async function challengeDialog(username, name) {
  await loadStyle(STYLE);
  const me = cachedMe();
  const account = !!(me && me.account);
  const variant = h("select", { id: "challenge-variant" }, variantNames().map((v) => h("option", { value: v, selected: v === defaultVariant() }, t(`variant.${v}.name`))));
  const seating = h("select", { id: "challenge-seating" });
  const fillSeatings = () => {
    seating.replaceChildren(...variantOf(variant.value).seatings.map((s) => h("option", { value: seatingKey(s) }, t(`seating.${seatingKey(s)}`))));
  };
  fillSeatings();
  variant.addEventListener("change", fillSeatings);
  const rated = h("input", { type: "checkbox", id: "challenge-rated", disabled: !account });
  const short = h("input", { type: "checkbox", id: "challenge-short" });
  const answer = await openDialog({
    kind: "challenge",
    title: t("challenge.title", { name }),
    body: [
      h("label", { class: "field" }, h("span", null, t("lobby.variant.title")), variant),
      h("label", { class: "field" }, h("span", null, t("lobby.seating.label")), seating),
      h("label", { class: "inline-field" }, rated, h("span", null, t("challenge.rated_option"))),
      h("label", { class: "inline-field" }, short, h("span", null, t("challenge.short_option"))),
      h("p", { class: "hint" }, t("challenge.hint")),
    ],
    actions: [{ label: t("challenge.cancel"), value: "no" }, { label: t("challenge.send"), value: "send", primary: true, focus: true }],
  });
  if (answer !== "send") return null;
  const chosen = variantOf(variant.value).seatings.find((s) => seatingKey(s) === seating.value) || { players: 2, teams: false };
  try {
    const made = await request("POST", "/api/challenges", { to: username, variant: variant.value, players: chosen.players, teams: chosen.teams, rated: rated.checked, length: short.checked ? "short" : "full" });
    toast(t("challenge.sent", { name }), "info");
    return made.challenge;
  } catch (err) {
    toast(errorText(err), "error");
    return null;
  }
}

const waiting = [];
let prompting = false;

/** An incoming challenge: asked now, or once the match in play is over. */
export function promptChallenge(challenge) {
  if (!waiting.some((c) => c.id === challenge.id)) waiting.push(challenge);
  showNext();
}

function dropChallenge(id) {
  const at = waiting.findIndex((c) => c.id === id);
  if (at >= 0) waiting.splice(at, 1);
  const open = document.querySelector(`dialog[data-challenge="${CSS.escape(id)}"]`);
  if (open) open.close();
}

async function showNext() {
  if (prompting || document.body.dataset.playing === "true" || !waiting.length) return;
  const challenge = waiting[0];
  if (new Date(challenge.expires_at) <= new Date()) { waiting.shift(); showNext(); return; }
  prompting = true;
  await loadStyle(STYLE);
  const pending = openDialog({
    kind: "incoming-challenge",
    title: t("challenge.incoming_title", { name: challenge.from.name }),
    body: [h("p", { class: "challenge-terms" }, termsText(challenge))],
    actions: [{ label: t("challenge.decline"), value: "decline" }, { label: t("challenge.accept"), value: "accept", primary: true, focus: true }],
  });
  const dialog = document.querySelector("dialog.dialog-incoming-challenge:last-of-type");
  if (dialog) dialog.dataset.challenge = challenge.id;
  const answer = await pending;
  waiting.splice(waiting.indexOf(challenge), 1);
  prompting = false;
  if (answer) await answerChallenge(challenge, answer);
  showNext();
}

/** Accept (the table opens) or decline a challenge. */
export async function answerChallenge(challenge, answer) {
  try {
    if (answer === "accept") {
      const done = await request("POST", `/api/challenges/${encodeURIComponent(challenge.id)}/accept`);
      navigate(`/table/${encodeURIComponent(done.table)}`);
    } else {
      await request("POST", `/api/challenges/${encodeURIComponent(challenge.id)}/decline`);
    }
    return true;
  } catch (err) {
    toast(errorText(err), "error");
    return false;
  }
}

/** Listen for challenges and their answers on the page's socket (from the page's start). */
export function startChallenges() {
  onNotify((message) => {
    if (message.type === "notification") {
      const n = message.notification;
      const challenge = n.body && n.body.challenge;
      if (n.kind === "challenge" && challenge) promptChallenge(challenge);
      if (n.kind === "partner" && n.body && n.body.from) toast(t("bell.partner", { name: n.body.from.name }), "info", 6000);
      if (n.kind === "challenge_answered" && challenge) {
        if (challenge.status === "accepted" && challenge.table) {
          toast(t("challenge.accepted", { name: challenge.to.name }), "info");
          navigate(`/table/${encodeURIComponent(challenge.table)}`);
        } else {
          toast(t("challenge.declined", { name: challenge.to.name }), "info");
        }
      }
    } else if (message.type === "challenge" && message.challenge) {
      dropChallenge(message.challenge.id);
    }
  });
  // A match just ended: what waited is asked now.
  new MutationObserver(() => showNext()).observe(document.body, { attributes: true, attributeFilter: ["data-playing"] });
}

