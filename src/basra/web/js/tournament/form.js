// The list page's "New tournament" form (an account's): name, variant (those played two
// by two), arena minutes (30, 60, 90) or Swiss rounds (3 to 11), the start (in 5, 15 or 60
// minutes, or at a time of the reader's own day), rated, private and a password. It posts
// POST /api/tournaments and hands the new event to `onMade`; a refusal shows in one line
// beside the button. Built once with its own listeners (never morphed), so what is typed
// stays; `values` carries it into a rebuilt form (a new language).

import { h } from "../lib/dom.js";
import { num, t } from "../lib/i18n.js";
import { request } from "../lib/api.js";
import { refusalText } from "./words.js";
import { variantNames, variantOf } from "../lib/variants.js";

const MINUTES = [30, 60, 90];
const ROUNDS = [3, 4, 5, 6, 7, 8, 9, 10, 11];
const STARTS = ["5", "15", "60", "at"];

export const FRESH = Object.freeze({
  name: "", variant: "", format: "arena", minutes: "60", rounds: "7", start: "5", at: "",
  rated: true, private: false, password: "",
});

/** Variants whose rules seat two players alone (what an event plays). */
function duelVariants() {
  return variantNames().filter((name) => (variantOf(name).seatings || []).some((s) => s.players === 2 && !s.teams));
}

/** The body of POST /api/tournaments from the form's values (`now`: ms). */
export function eventBody(v, now = Date.now()) {
  const starts = v.start === "at" ? new Date(v.at) : new Date(now + Number(v.start) * 60000);
  const body = {
    name: v.name.trim(), variant: v.variant, format: v.format,
    starts_at: Number.isNaN(starts.getTime()) ? null : starts.toISOString(),
    rated: !!v.rated, private: !!v.private, password: v.password ? v.password : null,
  };
  if (v.format === "swiss") body.rounds = Number(v.rounds);
  else body.minutes = Number(v.minutes);
  return body;
}

export function newEventForm(values, onMade) {
  const v = values;
  if (!v.variant) v.variant = duelVariants()[0] || "";
  const field = (id, label, control, hint) => h("div", { class: "tour-field" }, h("label", { for: id }, label), control, hint || null);
  const select = (id, key, options) => {
    const el = h("select", { id, name: key, on: { change: () => { v[key] = el.value; shown(); } } },
      options.map(([value, label]) => h("option", { value }, label)));
    el.value = v[key];
    return el;
  };
  const check = (id, key, label) => {
    const box = h("input", { type: "checkbox", id, name: key, checked: !!v[key], on: { change: () => { v[key] = box.checked; } } });
    return h("div", { class: "tour-check" }, box, h("label", { for: id }, label));
  };
  const text = (id, key, attrs) => {
    const input = h("input", { id, name: key, ...attrs, on: { input: () => { v[key] = input.value; } } });
    input.value = v[key];
    return input;
  };
  const radio = (value) => {
    const input = h("input", { type: "radio", name: "format", id: `tn-format-${value}`, value, checked: v.format === value,
      on: { change: () => { if (input.checked) { v.format = value; shown(); } } } });
    return h("div", { class: "tour-check" }, input, h("label", { for: `tn-format-${value}` }, t(`tournament.format_name.${value}`)));
  };
  const minutes = field("tn-minutes", t("tournament.form.minutes"), select("tn-minutes", "minutes", MINUTES.map((n) => [String(n), t("tournament.minutes", { count: n, n: num(n) })])));
  const rounds = field("tn-rounds", t("tournament.form.rounds"), select("tn-rounds", "rounds", ROUNDS.map((n) => [String(n), num(n)])));
  const at = field("tn-at", t("tournament.form.at"), text("tn-at", "at", { type: "datetime-local" }));
  const error = h("p", { class: "field-error tour-form-error", role: "alert" });
  const submit = h("button", { type: "submit", class: "btn primary" }, t("tournament.form.create"));

  function shown() {
    minutes.hidden = v.format !== "arena";
    rounds.hidden = v.format !== "swiss";
    at.hidden = v.start !== "at";
    at.querySelector("input").required = v.start === "at";
  }

  async function send(event) {
    event.preventDefault();
    error.textContent = "";
    submit.disabled = true;
    try {
      const answer = await request("POST", "/api/tournaments", eventBody(v));
      Object.assign(v, FRESH, { variant: v.variant });
      onMade(answer.tournament);
    } catch (err) {
      error.textContent = refusalText(err);
    } finally {
      submit.disabled = false;
    }
  }

  const form = h("form", { class: "tour-form", on: { submit: send } },
    field("tn-name", t("tournament.form.name"), text("tn-name", "name", { type: "text", required: true, maxlength: "60", autocomplete: "off" })),
    field("tn-variant", t("tournament.form.variant"), select("tn-variant", "variant", duelVariants().map((name) => [name, t(`variant.${name}.name`)]))),
    h("fieldset", { class: "tour-formats" }, h("legend", null, t("tournament.form.format")), radio("arena"), radio("swiss")),
    minutes, rounds,
    field("tn-start", t("tournament.form.start"), select("tn-start", "start", STARTS.map((s) => [s, s === "at" ? t("tournament.form.start_at") : t("tournament.form.start_in", { count: Number(s), n: num(Number(s)) })]))),
    at,
    check("tn-rated", "rated", t("tournament.form.rated")),
    check("tn-private", "private", t("tournament.form.private")),
    field("tn-password", t("tournament.form.password"), text("tn-password", "password", { type: "password", maxlength: "64", autocomplete: "new-password" }),
      h("p", { class: "hint" }, t("tournament.form.password_hint"))),
    h("div", { class: "tour-form-end" }, submit, error));
  shown();
  return form;
}
