// Catalogues and language choice. Every string people see lives in i18n/<lang>.json; the
// code only names keys. Values may be plural objects ({"one": ..., "other": ...}) chosen
// with Intl.PluralRules, and hold {placeholders}.

export const LANGUAGES = Object.freeze(["en", "ar", "fr", "sr"]);
const RTL = new Set(["ar"]);
const STORE_KEY = "basra.lang";

let lang = "en";
let catalogue = {};
let fallback = {};
const listeners = new Set();

async function fetchCatalogue(code) {
  // Relative to this module, so a versioned static prefix (/static/v<hash>/) carries over.
  const response = await fetch(new URL(`../../i18n/${code}.json`, import.meta.url));
  if (!response.ok) throw new Error(`catalogue ${code}: ${response.status}`);
  return response.json();
}

/** The language to start with: the one chosen before, else the browser's, else English. */
export function initialLanguage() {
  try {
    const saved = localStorage.getItem(STORE_KEY);
    if (LANGUAGES.includes(saved)) return saved;
  } catch { /* storage may be blocked */ }
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
    if (["sh", "hr", "bs", "me", "cnr"].includes(base)) return "sr";
  }
  return "en";
}

export function currentLanguage() {
  return lang;
}

export function isRTL() {
  return RTL.has(lang);
}

export async function setLanguage(code, { remember = true } = {}) {
  if (!LANGUAGES.includes(code)) code = "en";
  const [cat, fb] = await Promise.all([
    fetchCatalogue(code),
    code === "en" || Object.keys(fallback).length ? Promise.resolve(null) : fetchCatalogue("en"),
  ]);
  if (fb) fallback = fb;
  if (code === "en") fallback = cat;
  catalogue = cat;
  lang = code;
  if (remember) {
    try { localStorage.setItem(STORE_KEY, code); } catch { /* ignore */ }
  }
  const root = document.documentElement;
  root.lang = code === "sr" ? "sr-Latn" : code;
  root.dir = RTL.has(code) ? "rtl" : "ltr";
  translateStatic(document);
  for (const fn of listeners) fn(code);
}

export function onLanguageChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function lookup(key) {
  if (Object.prototype.hasOwnProperty.call(catalogue, key)) return catalogue[key];
  if (Object.prototype.hasOwnProperty.call(fallback, key)) return fallback[key];
  return undefined;
}

export function has(key) {
  return lookup(key) !== undefined;
}

let pluralRules = null;
let pluralLang = null;

function plural(value, n) {
  if (pluralLang !== lang) {
    pluralRules = new Intl.PluralRules(lang === "sr" ? "sr-Latn" : lang);
    pluralLang = lang;
  }
  if (n === 0 && value.zero !== undefined) return value.zero;
  return value[pluralRules.select(n)] ?? value.other;
}

/** The text for `key` with {placeholders} filled in; `count` chooses a plural form. */
export function t(key, params = {}) {
  let value = lookup(key);
  if (value === undefined) {
    console.warn("i18n: missing key", key);
    return key;
  }
  if (typeof value === "object") value = plural(value, Number(params.count ?? 0));
  return String(value).replace(/\{(\w+)\}/g, (m, name) =>
    Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : m);
}

/** Numbers with Latin digits, grouped as the language does. */
/** The text of `key` with its {placeholders} filled by nodes (an isolated number, a card's
 * tag), as a list of strings and nodes: the sentence keeps the page's direction and each
 * node its own; `count` chooses a plural. */
export function tNodes(key, params, count) {
  const marks = Object.fromEntries(Object.keys(params).map((name) => [name, `\u0000${name}\u0000`]));
  if (count !== undefined) marks.count = num(count);
  const text = t(key, marks);
  return text.split("\u0000").map((part, i) => (i % 2 ? params[part] : part)).filter((part) => part !== "");
}

export function num(n) {
  return new Intl.NumberFormat(`${lang === "sr" ? "sr-Latn" : lang}-u-nu-latn`).format(n);
}

/** A day ("2026-12-07") in words, in the page's language, with Latin digits. */
export function dateLong(day) {
  return new Intl.DateTimeFormat(`${lang === "sr" ? "sr-Latn" : lang}-u-nu-latn`, { dateStyle: "long", timeZone: "UTC" })
    .format(new Date(`${day}T12:00:00Z`));
}

export function dateTime(iso) {
  const date = new Date(iso);
  return new Intl.DateTimeFormat(`${lang === "sr" ? "sr-Latn" : lang}-u-nu-latn`,
    { dateStyle: "medium", timeStyle: "short" }).format(date);
}

/** Fill elements marked data-i18n (text), data-i18n-aria, -title, -placeholder. */
export function translateStatic(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-aria]")) el.setAttribute("aria-label", t(el.dataset.i18nAria));
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
}
