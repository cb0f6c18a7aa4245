// The replay viewer of a finished game: the table and the log after each command, stepped with
// buttons or a slider, and the record to download.

import { $, el, button, errorText } from "./dom.js";
import { getJson } from "./net.js";
import { Table } from "./table.js";
import { View } from "./view.js";
import { BattleLog } from "./log.js";
import { describe } from "./draft.js";

/** @typedef {import("./protocol").ReplayFrame} ReplayFrame */
/** @typedef {import("./protocol").GameInfo} GameInfo */
/** @typedef {import("./table.js").Scene} Scene */

/**
 * Opens the replay of game `id` at a step.
 * @param {string} id
 * @param {number} step
 */
export async function replay(id, step) {
  $("replay").hidden = false;
  const info = /** @type {GameInfo} */ (await getJson(`/api/games/${id}`));
  $("replay-title").textContent = `Replay: ${info.ruleset} — ${info.scenario_name}`;
  const record = /** @type {HTMLAnchorElement} */ ($("replay-record"));
  record.href = `/api/games/${id}/record`;
  record.download = `strategikon-${id}.json`;
  /** @type {HTMLAnchorElement} */ ($("replay-back")).href = `/game/${id}`;
  const root = /** @type {SVGSVGElement} */ (/** @type {unknown} */ ($("replay-table")));
  const table = new Table(root);
  const view = new View(root, () => table.extent(), [table.top]);
  view.enablePanning(() => true);
  const log = new BattleLog($("replay-log"));
  const slider = /** @type {HTMLInputElement} */ ($("replay-slider"));
  let current = -1, steps = 0, asked = 0;

  /** @param {number} n */
  const show = async (n) => {
    const want = ++asked;
    try {
      // Only the log lines this viewer lacks come back.
      const f = /** @type {ReplayFrame} */ (await getJson(`/api/games/${id}/replay?step=${n}&from=${log.count}`));
      if (want !== asked) return;
      current = f.step;
      steps = f.steps;
      if (table.draw(/** @type {Scene} */ (/** @type {unknown} */ (f.scene)))) view.fit();
      log.update(f.log_from, f.lines);
      slider.max = String(f.steps);
      slider.value = String(f.step);
      $("replay-step").textContent = `step ${f.step} of ${f.steps}` + (f.turn !== null ? `, turn ${f.turn}` : "");
      $("replay-command").textContent = f.actor ? `${f.actor}: ${describe(f.command)}` : "the table as set up";
      $("replay-outcome").textContent = f.outcome ? `${f.outcome.winner ?? "nobody"} wins: ${f.outcome.reason}` : "";
      history.replaceState(null, "", `/game/${id}?replay&step=${f.step}`);
    } catch (e) {
      $("replay-error").textContent = errorText(e);
    }
  };
  $("replay-buttons").replaceChildren(
    button("« first", () => show(0), { class: "first" }),
    button("◀ previous", () => show(Math.max(0, current - 1)), { class: "prev" }),
    button("next ▶", () => show(Math.min(steps, current + 1)), { class: "next" }),
    button("last »", () => show(steps), { class: "last" }),
    button("fit", () => view.fit()),
  );
  slider.addEventListener("input", () => show(Number(slider.value)));
  window.addEventListener("keydown", (ev) => {
    if (ev.target instanceof HTMLInputElement && ev.target !== slider) return;
    if (ev.key === "ArrowRight") show(Math.min(steps, current + 1));
    if (ev.key === "ArrowLeft") show(Math.max(0, current - 1));
  });
  await show(step);
}

/**
 * A link to the replay of game `id`.
 * @param {string} id
 * @returns {HTMLElement}
 */
export function replayLink(id) {
  return el("a", { href: `/game/${id}?replay`, class: "replay-link", text: "Watch the replay" });
}
