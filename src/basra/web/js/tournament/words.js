// What the tournament pages say of an event (docs/PROTOCOL.md, "Tournaments": EVENT): its
// format ("Arena · 45 min", "Swiss · 7 rounds"), its chips (variant, rated or casual, short
// or full matches, a password), the countdown to its start or its end or the round it is
// at, times of day, and a refusal in one line. Shared by the list (/tournaments) and an
// event's page.

import { h } from "../lib/dom.js";
import { currentLanguage, num, t } from "../lib/i18n.js";
import { errorText } from "../lib/ui.js";
import { fairplayRefusal, refusalWords } from "../lib/standing.js";

const SECOND = 1000;
const DAY = 24 * 3600 * SECOND;

function locale() {
  const lang = currentLanguage();
  return `${lang === "sr" ? "sr-Latn" : lang}-u-nu-latn`;
}

/** "Arena · 45 min" or "Swiss · 7 rounds". */
export function formatText(event) {
  return event.format === "swiss"
    ? t("tournament.format.swiss", { count: event.rounds || 0, n: num(event.rounds || 0) })
    : t("tournament.format.arena", { count: event.minutes || 0, n: num(event.minutes || 0) });
}

/** The event's marks: variant, format, rated or casual, short or full matches, password. */
export function eventChips(event) {
  return [
    h("span", { class: "chip tour-variant" }, t(`variant.${event.variant}.name`)),
    h("span", { class: "chip tour-format", dataset: { format: event.format } }, formatText(event)),
    h("span", { class: ["chip", event.rated ? "rated-chip" : "tour-casual"] }, t(event.rated ? "rated.badge" : "tournament.casual")),
    h("span", { class: "chip tour-length" }, t(event.length === "full" ? "tournament.length.full" : "tournament.length.short")),
    event.password ? h("span", { class: "chip tour-locked" }, t("tournament.password_chip")) : null,
  ];
}

/** A duration as a clock, read left to right in every language: "4:05", "1:02:03", or days. */
export function clock(ms) {
  const total = Math.max(0, Math.ceil(ms / SECOND));
  const days = Math.floor((total * SECOND) / DAY);
  if (days >= 2) return t("tournament.days", { count: days, n: num(days) });
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const two = (n) => String(n).padStart(2, "0");
  return hours ? `${hours}:${two(minutes)}:${two(seconds)}` : `${minutes}:${two(seconds)}`;
}

/** A time of day in the reader's language ("19:45", "7:45 PM"). */
export function timeOfDay(iso) {
  return new Intl.DateTimeFormat(locale(), { hour: "numeric", minute: "2-digit" }).format(new Date(iso));
}

/** A date and time ("12 Mar 2026, 19:45"). */
export function dateAndTime(iso) {
  return new Intl.DateTimeFormat(locale(), { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
}

const ms = (iso) => (iso ? Date.parse(iso) : NaN);

/** Where the event stands now: {key, words, clock} (key: starts, starting, ends, last,
 * round, finished, cancelled; clock only while counting down). */
export function standing(event, now = Date.now()) {
  const start = ms(event.starts_at);
  const end = ms(event.ends_at);
  if (event.status === "cancelled") return { key: "cancelled", words: t("tournament.status.cancelled") };
  if (event.status === "finished") return { key: "finished", words: t("tournament.status.finished") };
  if (event.status === "upcoming") {
    return start > now ? { key: "starts", words: t("tournament.starts_in"), clock: clock(start - now) }
      : { key: "starting", words: t("tournament.starting") };
  }
  if (event.format === "swiss") {
    return { key: "round", words: t("tournament.round_of", { n: num(Math.max(event.round || 0, 1)), of: num(event.rounds || 0) }) };
  }
  return end > now ? { key: "ends", words: t("tournament.ends_in"), clock: clock(end - now) }
    : { key: "last", words: t("tournament.last_matches") };
}

/** The standing line as an element (the clock a left-to-right island, a timer role so
 * screen readers do not read every second out). */
export function standingTag(event, now, attrs = {}) {
  const s = standing(event, now);
  return h("p", { ...attrs, class: ["tour-when", attrs.class], dataset: { when: s.key } },
    s.words, s.clock ? [" ", h("bdi", { class: "tour-clock", dir: "ltr", role: "timer", "aria-live": "off" }, s.clock)] : null);
}

/** Whether the results may still change (ten minutes after the end: a complaint window). */
export function provisional(event, now = Date.now()) {
  return !!event.final_at && ms(event.final_at) > now;
}

/** A refusal in one line: the catalogue's words for its code; an option the server names
 * in its own words; fair play's (a leaver's wait with its time, a ban: lib/standing.js). */
export function refusalText(err) {
  const code = (err && err.code) || "";
  if (code === "tournament/bad_options" && err.message) return t("tournament.error.options", { message: err.message });
  if (fairplayRefusal(err)) return refusalWords(err);
  const text = errorText(err);
  return text === t("error.generic") && err && err.message ? err.message : text;
}
