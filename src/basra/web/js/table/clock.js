// The turn clock: the state holds what the server said (ms left as of when it came); every
// animation frame the ring on the seat to play and the bar over this seat's hand move, and
// the seconds are written and announced (at 10 s) as they change, a tick sounding in this
// seat's last ten. The connection banner's
// countdown ticks here too.

import { t, num } from "../lib/i18n.js";
import { announce } from "../lib/ui.js";
import { play } from "./sound.js";

/** Where the clock stands at `now`: {seat, left (ms), fraction, low, second}, or null. */
export function clockInfo(st, now) {
  const c = st.clock;
  if (!c) return null;
  const left = Math.max(0, c.remaining - (now - c.at));
  return { seat: c.seat, left, fraction: c.total ? left / c.total : 0, low: left < 10000, second: Math.ceil(left / 1000) };
}

/** Move the clock's pieces in place (between redraws, which draw them from the state too). */
export function drawClock(ctrl, now) {
  const st = ctrl.st;
  const clock = clockInfo(st, now);
  for (const ring of ctrl.container.querySelectorAll(".clock-ring")) {
    const on = !!clock && clock.seat === Number(ring.dataset.clockSeat);
    ring.classList.toggle("on", on);
    if (!on) continue;
    ring.querySelector(".ring-fg").style.strokeDashoffset = String(100 - clock.fraction * 100);
    ring.classList.toggle("low", clock.low);
  }
  const box = ctrl.el.meBar.querySelector(".turn-clock");
  if (!box) return;
  if (!clock || clock.seat !== st.seat) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  box.style.setProperty("--left", String(clock.fraction));
  box.classList.toggle("low", clock.low);
  const text = t("clock.seconds", { n: num(clock.second) });
  const label = box.querySelector(".turn-clock-text");
  if (label.textContent !== text) {
    label.textContent = text;
    box.setAttribute("aria-label", t("clock.left", { count: clock.second, n: clock.second }));
  }
  // A tick for each of this seat's last ten seconds.
  if (clock.low && clock.second > 0 && ctrl.tickAt !== clock.second) play("tick");
  ctrl.tickAt = clock.second;
  // Once per turn, whichever way the 10 came on screen.
  if (clock.second === 10 && ctrl.clockAnnounced !== st.clock) {
    ctrl.clockAnnounced = st.clock;
    announce(t("clock.left", { count: 10, n: 10 }));
  }
}

/** The frame loop; `onFrame(now)` runs first (the banner's countdown). Returns stop(). */
export function startClock(ctrl, onFrame) {
  let raf = 0;
  const loop = () => {
    raf = requestAnimationFrame(loop);
    if (ctrl.destroyed || !ctrl.st.game || !ctrl.el) return;
    const now = performance.now();
    onFrame(now);
    drawClock(ctrl, now);
  };
  raf = requestAnimationFrame(loop);
  return () => cancelAnimationFrame(raf);
}
