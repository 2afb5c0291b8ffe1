// Building DOM safely: every piece of text goes in through textContent or a text node,
// never through innerHTML, so names typed by people can never become markup.

import { motionOff } from "./settings.js";

export { motionPace } from "./settings.js";

const SVG_NS = "http://www.w3.org/2000/svg";

function apply(el, attrs) {
  if (!attrs) return el;
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "text") el.textContent = String(value);
    else if (key === "class") el.setAttribute("class", Array.isArray(value) ? value.filter(Boolean).join(" ") : value);
    else if (key === "on") {
      for (const [ev, fn] of Object.entries(value)) el.addEventListener(ev, fn);
      el.basraListeners = true;
    }
    else if (key === "style" && typeof value === "object") for (const [p, v] of Object.entries(value)) el.style.setProperty(p, v);
    else if (key === "dataset") for (const [k, v] of Object.entries(value)) { if (v !== undefined && v !== null) el.dataset[k] = v; }
    else if (key === "props") Object.assign(el, value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** h("button", {class: "x", on: {click}}, "text", childNode) */
export function h(tag, attrs, ...children) {
  return append(apply(document.createElement(tag), attrs), children);
}

/** The same in the SVG namespace. */
export function s(tag, attrs, ...children) {
  return append(apply(document.createElementNS(SVG_NS, tag), attrs), children);
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

export function replace(el, ...children) {
  clear(el);
  return append(el, children);
}

/** Whether nothing should move: the device asks for less motion, or the player's setting is
 * "off" (lib/settings.js). */
export const reducedMotion = () => motionOff();

// ---------------------------------------------------------------- morph

// The table draws each region as a fresh tree and morphs the live one into it: nodes that
// stay (same tag, same data-key) are kept with their focus, hover and running animations;
// only attributes and text that differ are written. The table's handlers are delegated
// (data-action on the element, one listener on the page), so a kept node needs none; a
// node built with its own `on` listeners is replaced, never morphed.

const keyOf = (node) => (node.nodeType === 1 ? node.getAttribute("data-key") : null);

function sameKind(a, b) {
  return a.nodeType === b.nodeType && a.nodeName === b.nodeName && keyOf(a) === keyOf(b)
    && !a.basraListeners && !b.basraListeners;
}

function morphAttributes(from, to) {
  for (const { name } of Array.from(from.attributes)) {
    // A <details> the player opened or closed stays as they left it.
    if (name === "open" && from.nodeName === "DETAILS") continue;
    if (!to.hasAttribute(name)) from.removeAttribute(name);
  }
  for (const { name, value } of Array.from(to.attributes)) {
    if (name === "open" && from.nodeName === "DETAILS") continue;
    if (from.getAttribute(name) === value) continue;
    // Styles through the CSSOM: the Content-Security-Policy refuses a style attribute set
    // as markup (setAttribute), never one set property by property.
    if (name === "style") from.style.cssText = to.style.cssText;
    else from.setAttribute(name, value);
  }
}

function morphChildren(parent, target) {
  const wanted = Array.from(target.childNodes);
  const keyed = new Map();
  for (const node of parent.childNodes) {
    const key = keyOf(node);
    if (key !== null) keyed.set(key, node);
  }
  let i = 0;
  for (const node of wanted) {
    const key = keyOf(node);
    const here = parent.childNodes[i] || null;
    let keep = null;
    if (key !== null) keep = keyed.get(key) || null;
    else if (here && keyOf(here) === null) keep = here;
    if (keep && !sameKind(keep, node)) keep = null;
    if (keep) {
      if (keep.nodeType === 1) morph(keep, node);
      else if (keep.nodeValue !== node.nodeValue) keep.nodeValue = node.nodeValue;
      if (keep !== here) parent.insertBefore(keep, here);
      if (key !== null) keyed.delete(key);
    } else {
      parent.insertBefore(node, here);
    }
    i += 1;
  }
  while (parent.childNodes.length > i) parent.lastChild.remove();
}

/** Make `live` look like `target` (an element of the same tag), keeping what can be kept. */
export function morph(live, target) {
  morphAttributes(live, target);
  morphChildren(live, target);
  return live;
}
