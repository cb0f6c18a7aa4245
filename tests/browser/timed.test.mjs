// A timed window in the browser (the Free Move): both sides move at once against the server's
// clock. A person plays a short window against the computer: the countdown runs, a dragged
// stand's step is sent (and queued while the hands are busy), the bell closes the window and
// the game move goes on. Screenshots of every step go to target/browser-artifacts/.

import { test } from "node:test";
import assert from "node:assert/strict";
import { serverAndBrowser, newPage, shot, createGame, settled, pieceCentre } from "./harness.mjs";

const env = serverAndBrowser();

/** A small freemove battle with a 6 s window and 1 s to handle a step. */
const SCENARIO = `ruleset = "freemove"

[scenario]
name = "Browser timed test"
description = "A short timed window against the computer."
game_moves = 2
window_seconds = 6
handling_seconds = 1

[table]
width = 48.0
height = 32.0

[[side]]
side = "red"
name = "Red"
edge = "south"

[[side]]
side = "blue"
name = "Blue"
edge = "north"

[[stand]]
side = "red"
type = "heavy_infantry"
name = "Cohort"
at = [12.0, 8.0]
count = 2
number = 1

[[stand]]
side = "blue"
type = "heavy_infantry"
name = "Warband"
at = [36.0, 24.0]
facing = 180.0
count = 2
number = 1
`;

/**
 * Clicks the first action button of the side's menus whose label matches.
 * @param {import("playwright-core").Page} page
 * @param {RegExp} label
 */
async function clickAction(page, label) {
  const b = page.locator("#controls button.action", { hasText: label }).first();
  await b.waitFor({ state: "visible", timeout: 30000 });
  await b.click();
}

/**
 * Drags a piece by (dx, dy) screen pixels and drops it.
 * @param {import("playwright-core").Page} page
 * @param {string} unit
 * @param {number} dx
 * @param {number} dy
 */
async function dragBy(page, unit, dx, dy) {
  const from = await pieceCentre(page, unit);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + 4, from.y + 4, { steps: 2 });
  await page.mouse.move(from.x + dx, from.y + dy, { steps: 10 });
  // Wait for the measurement of the drop point.
  await page.waitForFunction(() => !document.querySelector("#measure")?.hasAttribute("hidden"), null, { timeout: 5000 });
  await page.waitForTimeout(150);
  await page.mouse.up();
}

test("the Free Move's timed window against the computer: countdown, drag, queue, bell", async () => {
  const game = await createGame(env.server.url, { scenario_text: SCENARIO, scenario_file: "timed.toml", red: "human", blue: "scripted" });
  const seat = game.seats.find((s) => s.side === "red");
  assert.ok(seat);
  const { page, context, errors } = await newPage(env.browser);
  await page.goto(env.server.url + seat.link);
  await page.waitForFunction(() => /Turn 1\./.test(document.querySelector("#status")?.textContent ?? ""));
  await settled(page);
  await shot(page, "t1-ready");

  // Ready: the window opens for both sides (the computer is ready at once).
  await clickAction(page, /^Ready/);
  await page.waitForSelector("#clock:not([hidden])", { timeout: 30000 });
  const left0 = Number(await page.getAttribute("#clock", "data-left"));
  assert.ok(left0 > 3000 && left0 <= 6000, `the countdown starts near 6 s: ${left0}`);
  await shot(page, "t2-window-open");

  // Drag a stand forward (north is up): the step is sent; a second drag while the hands are
  // busy is queued.
  await settled(page);
  await dragBy(page, "0", 0, -40);
  await page.waitForFunction(() => /busy/.test(document.querySelector("#clock .hands")?.textContent ?? ""), null, { timeout: 5000 });
  await dragBy(page, "1", 0, -40);
  await page.waitForFunction(() => document.querySelector("#clock")?.getAttribute("data-queued") === "1"
    || /queued/.test(document.querySelector("#clock .clock-note")?.textContent ?? ""), null, { timeout: 5000 });
  await shot(page, "t3-step-queued");
  const left1 = Number(await page.getAttribute("#clock", "data-left"));
  assert.ok(left1 < left0, `the countdown runs: ${left0} then ${left1}`);

  // The bell: the clock goes, and the game move goes on past the window.
  await page.waitForSelector("#clock", { state: "hidden", timeout: 15000 });
  await shot(page, "t4-bell");
  const log = (await page.textContent("#log")) ?? "";
  assert.match(log, /FMT-TIME-10|bell/i, "the log tells of the bell");
  assert.match(log, /Cohort/, "the log tells of the steps");
  // Whatever is asked after the window (rearrangement, fire…), answered by the first whole
  // command offered, until game move 2.
  for (let i = 0; i < 10; i++) {
    const status = (await page.textContent("#status")) ?? "";
    if (/Turn 2\./.test(status) || /over/.test(status)) break;
    if (/\(you\)/.test(status)) {
      await settled(page);
      const b = page.locator("#controls section.global button.action.send").first();
      if (await b.count()) await b.click();
    }
    await page.waitForTimeout(500);
  }
  await page.waitForFunction(() => /Turn 2\.|over/.test(document.querySelector("#status")?.textContent ?? ""), null, { timeout: 15000 });
  await shot(page, "t5-next-game-move");
  assert.deepEqual(errors, []);
  await context.close();
});
