// The table's sounds, made with Web Audio (nothing to download): a deal, a card laid, a
// capture, a basra, your turn, and a tick in the clock's last ten seconds. On by default;
// the mute is the "sound" setting (lib/settings.js: remembered, and an account's kept). The audio starts only after the player has
// touched the page (browsers refuse sound before that), and never throws.

import { setting } from "../lib/settings.js";
import { saveSettings } from "../lib/accountsettings.js";

// The mute is the "sound" setting (lib/settings.js; the /settings page shows it too). A mute
// kept the old way (localStorage "basra.sound") becomes the setting once.
const STORE_KEY = "basra.sound";
try {
  const old = localStorage.getItem(STORE_KEY);
  if (old !== null) {
    localStorage.removeItem(STORE_KEY);
    if (old === "off") saveSettings({ sound: false });
  }
} catch { /* storage blocked */ }

let context = null;
/** The names of the sounds asked for, the latest last (what a test can read). */
export const heard = [];

export function muted() {
  return !setting("sound");
}

export function setMuted(off) {
  saveSettings({ sound: !off });
}

function audio() {
  if (context) return context;
  const Context = window.AudioContext || window.webkitAudioContext;
  const active = navigator.userActivation ? navigator.userActivation.hasBeenActive : true;
  if (!Context || !active) return null;
  try { context = new Context(); } catch { context = null; }
  return context;
}

/** One tone: `freq` Hz (sliding to `to`), starting `at` s from now for `length` s. */
function tone(ctx, { freq, to = freq, at = 0, length = 0.12, type = "sine", gain = 0.18 }) {
  const start = ctx.currentTime + at;
  const osc = ctx.createOscillator();
  const amp = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, start);
  if (to !== freq) osc.frequency.exponentialRampToValueAtTime(to, start + length);
  amp.gain.setValueAtTime(0.0001, start);
  amp.gain.exponentialRampToValueAtTime(gain, start + 0.01);
  amp.gain.exponentialRampToValueAtTime(0.0001, start + length);
  osc.connect(amp).connect(ctx.destination);
  osc.start(start);
  osc.stop(start + length + 0.02);
}

/** A short burst of filtered noise: a card sliding on the felt. */
function swish(ctx, at = 0, length = 0.07, gain = 0.25) {
  const frames = Math.max(1, Math.floor(ctx.sampleRate * length));
  const buffer = ctx.createBuffer(1, frames, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / frames);
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = 2400;
  const amp = ctx.createGain();
  amp.gain.value = gain;
  source.connect(filter).connect(amp).connect(ctx.destination);
  source.start(ctx.currentTime + at);
}

const SOUNDS = {
  deal: (ctx) => { for (let i = 0; i < 4; i++) swish(ctx, i * 0.08); },
  play: (ctx) => { swish(ctx, 0, 0.06); tone(ctx, { freq: 180, to: 90, length: 0.08, gain: 0.12 }); },
  capture: (ctx) => { swish(ctx, 0, 0.06); tone(ctx, { freq: 520, at: 0.03, length: 0.09 }); tone(ctx, { freq: 780, at: 0.1, length: 0.12 }); },
  basra: (ctx) => { [523, 659, 784, 1047].forEach((freq, i) => tone(ctx, { freq, at: i * 0.08, length: 0.22, type: "triangle", gain: 0.2 })); },
  turn: (ctx) => { tone(ctx, { freq: 880, length: 0.18, gain: 0.12 }); tone(ctx, { freq: 1320, at: 0.12, length: 0.25, gain: 0.1 }); },
  tick: (ctx) => { tone(ctx, { freq: 1500, length: 0.04, type: "square", gain: 0.05 }); },
};

/** Play a sound by name (nothing when muted or before the player touched the page). */
export function play(name) {
  heard.push(name);
  if (heard.length > 50) heard.shift();
  if (muted() || !SOUNDS[name]) return;
  const ctx = audio();
  if (!ctx) return;
  try {
    if (ctx.state === "suspended") ctx.resume();
    SOUNDS[name](ctx);
  } catch { /* no sound is never an error */ }
}
