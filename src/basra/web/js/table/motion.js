// Motion at the table: FLIP for cards that stay, flights for new plays (hand to floor, or
// hand to the taken cards and on to the side's pile), cards dealt off the stock, and the
// basra burst. Ghost cards fly in the page's .fx-layer; nothing moves under
// prefers-reduced-motion, where a basra still shows, as a banner that stands still. `page` is the table page (table.js): its regions (page.el) and
// its state (page.st); `prev` the game state before the one on screen.

import { h, motionPace, reducedMotion } from "../lib/dom.js";
import { t, num, isRTL } from "../lib/i18n.js";
import { cardFace } from "../lib/cards.js";
import { sideOf } from "../lib/variants.js";
import { mySide, table, view } from "./state.js";
import { seatName } from "./names.js";

function rectOf(el) {
  const r = el.getBoundingClientRect();
  return { left: r.left, top: r.top, width: r.width, height: r.height };
}

export function snapshot(page) {
  const rects = { hand: new Map(), floor: new Map(), seats: new Map(), stock: null };
  for (const el of page.el.hand.querySelectorAll(".hand-card")) rects.hand.set(el.dataset.card, rectOf(el));
  for (const el of page.el.floor.querySelectorAll(".floor-card")) rects.floor.set(el.dataset.card, { rect: rectOf(el), node: el });
  for (const el of page.el.opponents.querySelectorAll("[data-seat-hand]")) rects.seats.set(Number(el.dataset.seatHand), rectOf(el));
  const stock = page.el.stock.querySelector(".stock-pile");
  rects.stock = stock ? rectOf(stock) : rectOf(page.el.stock);
  return rects;
}

function pileTarget(page, seat) {
  const teams = table(page.st).teams;
  let el = page.container.querySelector(`[data-pile-seat="${seat}"]`);
  // A partner's pile is the side's pile.
  if (!el && teams) {
    el = Array.from(page.container.querySelectorAll("[data-pile-seat]"))
      .find((e) => sideOf(Number(e.dataset.pileSeat), teams) === sideOf(seat, teams));
  }
  return el ? rectOf(el) : null;
}

export function animate(page, prev, rects) {
  const v = view(page.st);
  const seat = page.st.seat;
  const motion = !reducedMotion() && !document.hidden;
  const sameRound = prev.view.round === v.round;
  const fresh = sameRound ? v.plays.slice(prev.view.plays.length) : [];
  if (!motion) {
    for (const play of fresh) if (play.basra) celebrate(page, play, false);
    return;
  }
  const animating = new Set();
  // The "slow" setting: every move and its wait take longer (lib/settings.js).
  const pace = motionPace();
  const flip = (el, from, duration = 380, extra = {}) => {
    const to = rectOf(el);
    if (!to.width || !from) return;
    const dx = from.left - to.left;
    const dy = from.top - to.top;
    const sx = from.width / to.width;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1 && Math.abs(sx - 1) < 0.01) return;
    el.animate([
      { transform: `translate(${dx}px, ${dy}px) scale(${sx})`, transformOrigin: "top left", ...(extra.from || {}) },
      { transform: "none", transformOrigin: "top left", ...(extra.to || {}) },
    ], { duration: duration * pace, easing: "cubic-bezier(.2,.7,.2,1)", delay: extra.delay || 0, fill: "backwards" });
  };
  // Cards that stay: slide to their new places.
  for (const el of page.el.floor.querySelectorAll(".floor-card")) {
    const old = rects.floor.get(el.dataset.card);
    if (old) { flip(el, old.rect, 300); animating.add(el.dataset.card); }
  }
  for (const el of page.el.hand.querySelectorAll(".hand-card")) {
    const old = rects.hand.get(el.dataset.card);
    if (old) flip(el, old, 260);
  }
  if (fresh.length > 3) return;
  // The new plays, one after the other.
  fresh.forEach((play, i) => {
    const delay = i * 650 * pace;
    const from = play.seat === seat ? rects.hand.get(play.card) : rects.seats.get(play.seat);
    if (!play.take.length) {
      const el = page.el.floor.querySelector(`[data-card="${play.card}"]`);
      if (el && from) {
        flip(el, from, 420, { delay, from: { opacity: play.seat === seat ? 1 : 0.4 }, to: { opacity: 1 } });
        animating.add(play.card);
      }
      return;
    }
    const taken = play.take.map((c) => rects.floor.get(c)).filter(Boolean);
    const pile = pileTarget(page, play.seat);
    const ghost = makeGhost(page, play.card, from || rects.stock);
    const ghosts = taken.map((f) => ghostOf(page, f.node, f.rect));
    const hit = taken.length ? taken[0].rect : (from || rects.stock);
    const offset = isRTL() ? -hit.width * 0.35 : hit.width * 0.35;
    const start = from || rects.stock;
    const mid = { left: hit.left + offset, top: hit.top - hit.height * 0.1 };
    const moveIn = ghost.animate([
      { transform: "translate(0,0)", opacity: 1 },
      { transform: `translate(${mid.left - start.left}px, ${mid.top - start.top}px)`, opacity: 1 },
    ], { duration: 340 * pace, delay, easing: "cubic-bezier(.2,.7,.2,1)", fill: "forwards" });
    const gather = () => {
      const all = [[ghost, start], ...ghosts.map((g, k) => [g, taken[k].rect])];
      const target = pile || { left: start.left, top: start.top + 200, width: start.width, height: start.height };
      let done = 0;
      for (const [g, origin] of all) {
        const base = g === ghost ? mid : origin;
        const dx = target.left + target.width / 2 - (origin.left + origin.width / 2);
        const dy = target.top + target.height / 2 - (origin.top + origin.height / 2);
        const startT = g === ghost ? `translate(${base.left - origin.left}px, ${base.top - origin.top}px)` : "translate(0,0)";
        g.animate([
          { transform: `${startT} scale(1)`, opacity: 1 },
          { transform: `translate(${dx}px, ${dy}px) scale(0.3)`, opacity: 0.2 },
        ], { duration: 420 * pace, delay: 220 * pace, easing: "cubic-bezier(.5,0,.5,1)", fill: "forwards" }).finished.then(() => {
          g.remove();
          done += 1;
          if (done === all.length && pile) bump(page, play.seat);
        }, () => g.remove());
      }
    };
    moveIn.finished.then(gather, () => ghost.remove());
    for (const g of ghosts) g.animate([{ opacity: 1 }, { opacity: 1 }], { duration: 340 * pace + delay, fill: "forwards" });
    if (play.basra) setTimeout(() => celebrate(page, play, true), delay + 300 * pace);
  });
  // A fresh deal: the new cards come off the stock.
  const dealt = Array.from(page.el.hand.querySelectorAll(".hand-card")).filter((el) => !rects.hand.has(el.dataset.card));
  if (dealt.length && rects.stock) dealt.forEach((el, i) => flip(el, rects.stock, 420, { delay: (120 + i * 90) * pace, from: { opacity: 0.3 }, to: { opacity: 1 } }));
  if (!sameRound || prev.view.round === 0) {
    Array.from(page.el.floor.querySelectorAll(".floor-card")).forEach((el, i) => {
      if (!animating.has(el.dataset.card)) flip(el, rects.stock, 420, { delay: (400 + i * 90) * pace, from: { opacity: 0.3 }, to: { opacity: 1 } });
    });
  }
}

function makeGhost(page, card, rect) {
  const g = h("div", { class: "card fx-ghost", style: { left: `${rect.left}px`, top: `${rect.top}px`, width: `${rect.width}px`, height: `${rect.height}px` } }, cardFace(card, table(page.st).variant));
  page.el.fx.append(g);
  return g;
}

function ghostOf(page, node, rect) {
  const g = node.cloneNode(true);
  g.removeAttribute("role");
  g.className = "card fx-ghost";
  Object.assign(g.style, { left: `${rect.left}px`, top: `${rect.top}px`, width: `${rect.width}px`, height: `${rect.height}px` });
  page.el.fx.append(g);
  return g;
}

function bump(page, seat) {
  const el = page.container.querySelector(`[data-pile-seat="${seat}"]`);
  if (el) el.animate([{ transform: "scale(1)" }, { transform: "scale(1.25)" }, { transform: "scale(1)" }], { duration: 260 });
}

export function celebrate(page, play, motion) {
  const mine = page.st.seat !== null && sideOf(play.seat, table(page.st).teams) === mySide(page.st);
  const burst = h("div", { class: ["basra-burst", mine ? "mine" : "theirs", motion ? "" : "still"] },
    h("div", { class: "basra-word" }, t("basra.shout")),
    h("div", { class: "basra-who" }, t("basra.by", { name: seatName(page.st, play.seat), points: num(play.basra), count: play.basra })));
  if (motion) for (let i = 0; i < 14; i++) burst.append(h("span", { class: "spark", style: { "--a": `${(i * 360) / 14}deg`, "--d": `${60 + (i % 3) * 30}px` } }));
  page.el.fx.append(burst);
  // Without motion the banner stands still a moment longer (overlay.css: no animation).
  setTimeout(() => burst.remove(), motion ? 1900 : 2600);
}

/** A shake of a hand card that cannot be played now. */
export function nudge(page, card) {
  const el = page.el.hand.querySelector(`[data-card="${card}"]`);
  if (el && !reducedMotion()) el.animate([{ transform: "translateX(0)" }, { transform: "translateX(-5px)" }, { transform: "translateX(5px)" }, { transform: "translateX(0)" }], { duration: 240 });
}
