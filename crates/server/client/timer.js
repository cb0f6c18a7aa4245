// The Free Move – Timed Move timer for a real table: works out the window from the armies and
// the losses (the server's referee answers, with the rule set's own formula), counts it down
// and rings a bell when it ends, as the hardware-store timer of the source does.

import { $ } from "./dom.js";
import { postJson } from "./net.js";

/** @typedef {{ text: string, figures: { primary_ms: number, window_ms: number }, rules: string[] }} WindowAnswer */

/** @type {number} the window, in milliseconds */
let windowMs = 0;
/** @type {number | null} */
let ticking = null;
/** @type {number} when the window ends, in performance.now() time */
let endsAt = 0;
/** @type {number | null} when a whole-army move began to be timed */
let measureFrom = null;

/**
 * A number from an input, or the fallback.
 * @param {string} id
 * @param {number} fallback
 * @returns {number}
 */
function num(id, fallback) {
  const v = Number(/** @type {HTMLInputElement} */ ($(id)).value);
  return Number.isFinite(v) ? v : fallback;
}

/** Asks the referee for the window and shows it. */
async function update() {
  const q = {
    question: "window",
    red: Math.max(1, Math.round(num("red", 20))),
    blue: Math.max(1, Math.round(num("blue", 20))),
    lost: Math.max(0, Math.round(num("lost", 0))),
    handling_seconds: Math.min(600, Math.max(0.1, num("handling", 4))),
  };
  try {
    const a = /** @type {WindowAnswer} */ (await postJson("/api/referee/freemove", q));
    windowMs = a.figures.window_ms;
    $("window").textContent = a.text;
    $("rules").textContent = `rules: ${a.rules.join(", ")}`;
    if (ticking === null) show(windowMs);
  } catch (e) {
    $("window").textContent = e instanceof Error ? e.message : String(e);
  }
}

/**
 * Shows a time left as m:ss.
 * @param {number} ms
 */
function show(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  $("clock").textContent = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The bell: three strokes of a struck bell, made with the page's own audio. */
function ring() {
  const rang = $("rang");
  rang.hidden = false;
  rang.textContent = "Ding! The bell: all movement stops (FMT-TIME-10).";
  document.title = "Ding! — Free Move timer";
  try {
    const audio = new AudioContext();
    for (let k = 0; k < 3; k++) {
      const t = audio.currentTime + k * 0.45;
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "triangle";
      osc.frequency.setValueAtTime(1320, t);
      gain.gain.setValueAtTime(0.4, t);
      gain.gain.exponentialRampToValueAtTime(0.001, t + 0.4);
      osc.connect(gain).connect(audio.destination);
      osc.start(t);
      osc.stop(t + 0.42);
    }
  } catch {
    // No sound where the page may not play any: the words and the title still ring.
  }
}

/** Stops the countdown. */
function halt() {
  if (ticking !== null) clearInterval(ticking);
  ticking = null;
}

function start() {
  halt();
  $("rang").hidden = true;
  document.title = "Free Move timer — Strategikon";
  endsAt = performance.now() + windowMs;
  show(windowMs);
  ticking = window.setInterval(() => {
    const left = endsAt - performance.now();
    show(left);
    if (left <= 0) {
      halt();
      ring();
    }
  }, 100);
}

/** "Time!": the move is halted; no combat until another timed move (FMT-TIME-16, 17). */
function time() {
  if (ticking === null) return;
  halt();
  const rang = $("rang");
  rang.hidden = false;
  rang.textContent = "Time! Movement stops; there is no fire or melee until another timed move has been played (FMT-TIME-17).";
}

/** Times a whole army's move: press once to begin and once when every stand has moved. */
function measure() {
  const out = $("measuring");
  if (measureFrom === null) {
    measureFrom = performance.now();
    out.textContent = "timing… move every stand of one army once, then press again";
    $("measure").textContent = "Every stand has moved";
    return;
  }
  const secs = (performance.now() - measureFrom) / 1000;
  measureFrom = null;
  $("measure").textContent = "Time a whole army's move";
  const stands = (num("red", 20) + num("blue", 20)) / 2;
  const per = Math.min(600, Math.max(0.1, secs / Math.max(1, stands)));
  /** @type {HTMLInputElement} */ ($("handling")).value = per.toFixed(1);
  out.textContent = `${secs.toFixed(0)} s for the army: ${per.toFixed(1)} s a stand (FMT-R-02)`;
  update();
}

for (const id of ["red", "blue", "lost", "handling"]) $(id).addEventListener("input", update);
$("start").addEventListener("click", start);
$("stop").addEventListener("click", time);
$("measure").addEventListener("click", measure);
update();
