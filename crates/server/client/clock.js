// A timed window's clock in the page: the countdown both sides share (from the server's clock:
// the game time it sent plus what the page's own monotonic clock has counted since), this
// side's hands (busy for how long, or free), the commands queued while they are busy and a
// "Time!" button. The server is the only clock; nothing here decides a moment.

import { el, button } from "./dom.js";

/** @typedef {import("./protocol").ClockInfo} ClockInfo */
/** @typedef {import("./protocol").JsonValue} JsonValue */

/** Game time in seconds, with tenths. @param {number} ms */
const secs = (ms) => `${(Math.max(0, ms) / 1000).toFixed(1)} s`;

/** A queued command in words. @param {JsonValue} c */
function describe(c) {
  if (c && typeof c === "object" && !Array.isArray(c)) {
    const o = /** @type {Record<string, JsonValue>} */ (c);
    const what = String(o.kind ?? "command").replaceAll("_", " ");
    const to = o.to && typeof o.to === "object" && !Array.isArray(o.to) ? /** @type {Record<string, JsonValue>} */ (o.to) : null;
    const where = to && typeof to.x === "number" && typeof to.y === "number" ? ` to (${to.x.toFixed(1)}, ${to.y.toFixed(1)})` : "";
    const who = o.stand !== undefined ? ` stand ${String(o.stand)}` : "";
    return `${what}${who}${where}`;
  }
  return JSON.stringify(c);
}

export class ClockPanel {
  /**
   * @param {HTMLElement} root where the clock is shown (hidden outside timed windows)
   * @param {(command: unknown) => void} command sends a command
   * @param {boolean} player whether this page commands a side (spectators see the countdown only)
   */
  constructor(root, command, player) {
    this.root = root;
    this.player = player;
    /** @type {ClockInfo | null} */
    this.clock = null;
    /** When the clock was received, by the page's monotonic clock. */
    this.at = 0;
    this.countdown = el("b", { class: "countdown" });
    this.hands = el("span", { class: "hands" });
    this.queue = el("ol", { class: "queue" });
    this.note = el("p", { class: "hint clock-note" });
    this.timeButton = button("Time!", () => command({ kind: "call_time", at_ms: 0 }), {
      class: "time-call", title: "call \"Time!\": the timed move ends now for both sides",
    });
    root.replaceChildren(
      el("p", {}, "Time left ", this.countdown, " ", this.hands),
      ...(player ? [this.queue, el("p", { class: "buttons" }, this.timeButton)] : []),
      this.note,
    );
    this.timer = 0;
  }

  /**
   * The clock as the server sent it (in a state or a clock message); none outside a window.
   * @param {ClockInfo | null | undefined} clock
   * @param {string | null} [note]
   */
  update(clock, note) {
    if (note) this.note.textContent = note;
    if (!clock) {
      this.clock = null;
      this.root.hidden = true;
      this.root.dataset.running = "false";
      clearInterval(this.timer);
      this.timer = 0;
      return;
    }
    this.clock = clock;
    this.at = performance.now();
    this.root.hidden = false;
    this.root.dataset.running = "true";
    this.root.dataset.length = String(clock.length_ms);
    this.queue.replaceChildren(...clock.queued.map((c) => el("li", { text: `queued: ${describe(c)}` })));
    this.queue.hidden = clock.queued.length === 0;
    this.root.dataset.queued = String(clock.queued.length);
    if (!this.timer) this.timer = window.setInterval(() => this.draw(), 100);
    this.draw();
  }

  /** The game time now by the server's clock, as far as the page can tell. */
  now() {
    return this.clock ? this.clock.now_ms + (performance.now() - this.at) : 0;
  }

  draw() {
    const c = this.clock;
    if (!c) return;
    const now = this.now();
    const left = c.length_ms - now;
    this.countdown.textContent = left > 0 ? secs(left) : "the bell!";
    this.root.dataset.left = String(Math.round(Math.max(0, left)));
    this.root.classList.toggle("closing", left < 5000);
    if (!this.player) {
      this.hands.textContent = "";
    } else if (c.free_ms === null) {
      this.hands.textContent = "· your side has finished";
    } else if (c.free_ms > now) {
      this.hands.textContent = `· your hands are busy for ${secs(c.free_ms - now)}`;
    } else {
      this.hands.textContent = "· your hands are free";
    }
    this.hands.classList.toggle("busy", c.free_ms !== null && c.free_ms > now);
  }
}
