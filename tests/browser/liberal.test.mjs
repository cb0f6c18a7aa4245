// The Greensboro Liberal Move game in the browser against the scripted general: the edge and
// the secret deployment from the controls, then step A drafted through the UI (a unit dragged
// onto an enemy shows the liberal move's preview, step by step with the fire each step draws,
// before the order is committed; another unit's order chosen from its menu), sent as one
// declare; the log goes on, and the turn is played through its liberal steps.

import { test } from "node:test";
import assert from "node:assert/strict";
import {
  serverAndBrowser, newPage, shot, createGame, version, versionAbove, settled, commandable,
  pieceCentre, dragPiece,
} from "./harness.mjs";

const env = serverAndBrowser();

/**
 * Waits until the page says this side is to act and its controls have come.
 * @param {import("playwright-core").Page} page
 */
async function myTurn(page, timeout = 60000) {
  await page.waitForFunction(() => /\(you\)/.test(document.querySelector("#status")?.textContent ?? "")
    && document.querySelector("#controls .prompt") !== null, null, { timeout });
  await settled(page, timeout);
}

/** @param {import("playwright-core").Page} page */
async function prompt(page) {
  return (await page.textContent("#controls .prompt")) ?? "";
}

/** @param {import("playwright-core").Page} page */
async function logLines(page) {
  return page.locator("#log .line").count();
}

/**
 * Clicks a button of the controls by its label, and waits for the state to move on.
 * @param {import("playwright-core").Page} page
 * @param {RegExp} label
 */
async function clickAction(page, label) {
  const v = await version(page);
  const button = page.locator("#controls .menu button", { hasText: label }).first();
  try {
    await button.waitFor({ timeout: 15000 });
  } catch (e) {
    await shot(page, "lib-no-such-action");
    throw new Error(`no action ${label} in ${await page.textContent("#controls")}: ${e}`);
  }
  await button.click();
  await versionAbove(page, v);
  assert.equal(await page.isVisible("#message"), false, `no refusal: ${await page.textContent("#message")}`);
}

test("Liberal Move against the computer: a drafted declare with a previewed liberal move", async () => {
  const game = await createGame(env.server.url, { ruleset: "liberal", scenario: "courthouse", red: "human", blue: "scripted" });
  const seat = game.seats.find((s) => s.side === "red");
  assert.ok(seat);
  const { page, context, errors } = await newPage(env.browser);
  await page.goto(env.server.url + seat.link);
  await myTurn(page);
  await page.waitForFunction(() => /^▶ Your move — /.test(document.title), null, { timeout: 10000 });
  await shot(page, "lib1-start");
  // The edge, if red won the roll.
  if (/edge/.test(await prompt(page))) {
    await clickAction(page, /south edge/);
    await myTurn(page);
  }
  // The secret deployment: the 33rd Foot dragged a little back toward the edge, the plan
  // drawn where it puts it, and committed.
  assert.match(await prompt(page), /secret/);
  assert.ok((await commandable(page)).length > 0, "units to draw up");
  assert.equal(await page.locator("#controls .menu button", { hasText: /Keep the scenario's places/ }).count(), 1);
  const back = await pieceCentre(page, "0");
  await dragPiece(page, "0", { x: back.x + 10, y: back.y + 12 });
  await page.waitForFunction(() => /drop: Plan 33rd Foot here/.test(document.querySelector("#measure")?.textContent ?? ""), null, { timeout: 10000 });
  await page.mouse.up();
  await page.waitForSelector("#controls .draft .choices li");
  assert.equal(await page.locator(".table-overlay .planned").count(), 1, "the plan is drawn");
  const vd = await version(page);
  await page.click("#controls .send-draft");
  await versionAbove(page, vd);
  assert.equal(await page.isVisible("#message"), false, `no refusal: ${await page.textContent("#message")}`);
  // Step A, once the computer has drawn up and, if it moves first, played its turn.
  await page.waitForFunction(() => /declare/.test(document.querySelector("#controls .prompt")?.textContent ?? "")
    && /\(you\)/.test(document.querySelector("#status")?.textContent ?? ""), null, { timeout: 60000 });
  await settled(page);
  await shot(page, "lib2-step-a");
  const lines0 = await logLines(page);
  const mine = await commandable(page);
  assert.ok(mine.includes("1"), `the 23rd Foot may be ordered: ${mine}`);
  // The 23rd Foot dragged onto the 1st Maryland: a liberal move to assault it, previewed.
  await dragPiece(page, "1", await pieceCentre(page, "8"));
  await page.waitForFunction(() => document.querySelectorAll(".table-overlay .path-step").length >= 2, null, { timeout: 10000 });
  await page.waitForFunction(() => /step 1:/.test(document.querySelector("#measure")?.textContent ?? ""), null, { timeout: 10000 });
  const readout = (await page.textContent("#measure")) ?? "";
  assert.match(readout, /liberal move to assault 1st Maryland/);
  assert.match(readout, /casualties expected/);
  const steps = await page.locator(".table-overlay .path-step").count();
  await shot(page, "lib3-liberal-preview");
  await page.mouse.up();
  await page.waitForSelector("#controls .draft .choices li");
  assert.match((await page.textContent("#controls .draft .choices")) ?? "", /liberal move to assault 1st Maryland/);
  assert.equal(await page.locator(".table-overlay .planned").count(), 1, "the planned move is drawn");
  // The liberal move is to take column on its first step: a part put into the order.
  await page.click(`#table g.piece[data-unit="1"] .body`);
  await page.locator("#controls .unit .menu button", { hasText: /form column on the move dragged/ }).first().click();
  assert.equal(await page.locator("#controls .draft .choices li").count(), 2);
  // The Guards grenadiers dragged a little way toward the Virginians: a normal move.
  const from = await pieceCentre(page, "3"), toward = await pieceCentre(page, "9");
  await dragPiece(page, "3", { x: from.x + (toward.x - from.x) * 0.1, y: from.y + (toward.y - from.y) * 0.1 });
  await page.waitForFunction(() => /normal move/.test(document.querySelector("#measure")?.textContent ?? ""), null, { timeout: 10000 });
  assert.equal(await page.locator(".table-overlay .path-step").count(), 0, "a normal move has no steps");
  await page.mouse.up();
  await page.waitForFunction(() => document.querySelectorAll("#controls .draft .choices li").length === 3);
  // The 33rd Foot's order from its menu: form column where it stands.
  await page.click(`#table g.piece[data-unit="0"] .body`);
  await page.locator("#controls .unit .menu button", { hasText: /form column where it stands/ }).first().click();
  assert.equal(await page.locator("#controls .draft .choices li").count(), 4);
  await shot(page, "lib4-drafted");
  // Sent as one declare: the log goes on.
  const v0 = await version(page);
  await page.click("#controls .send-draft");
  await versionAbove(page, v0);
  assert.equal(await page.isVisible("#message"), false, `no refusal: ${await page.textContent("#message")}`);
  await page.waitForFunction((n) => document.querySelectorAll("#log .line").length > n, lines0);
  const log = (await page.textContent("#log")) ?? "";
  assert.match(log, /red declares: .*liberal move to assault/);
  await shot(page, "lib5-declared");
  // The liberal steps: go on until the turn passes (or the battle moves past red's decisions).
  // Each round reads the state the page shows as a whole; an action not (or no longer) offered
  // is looked for again at the next state.
  let goes = 0;
  for (let i = 0; i < 40; i++) {
    await settled(page);
    const { status, now } = await page.evaluate(() => ({
      status: document.querySelector("#status")?.textContent ?? "",
      now: document.querySelector("#controls .prompt")?.textContent ?? "",
    }));
    if (!/\(you\)/.test(status)) break;
    const label = /liberal moves/.test(now) ? /Go on/ : /re-form/.test(now) ? /keeps its/ : null;
    if (!label) break;
    if (goes === 0 && label.source === "Go on") await shot(page, "lib5b-between-steps");
    const button = page.locator("#controls .menu button", { hasText: label }).first();
    if (!(await button.count())) {
      await page.waitForTimeout(100);
      continue;
    }
    const v = await version(page);
    await button.click();
    await versionAbove(page, v);
    assert.equal(await page.isVisible("#message"), false, `no refusal: ${await page.textContent("#message")}`);
    if (label.source === "Go on") goes++;
  }
  // The dice are the server's own: the 23rd Foot may be stopped on its first step (contact,
  // or its officer hit with a 1 turning it back), and then no pause comes.
  const after = (await page.textContent("#log")) ?? "";
  assert.ok(goes >= 1 || /23rd Foot (has finished its move|turns about)/.test(after),
    "red was asked to go on between liberal steps, or its move ended on the first");
  await shot(page, "lib6-after-steps");
  for (let i = 0; i < 3; i++) await page.click("#zoom-buttons .zoom-in");
  await shot(page, "lib7-figures");
  assert.ok(steps >= 2, `the preview had ${steps} steps`);
  assert.ok(await page.locator("#roster tr[data-unit]").count() >= 12, "the roster lists every unit");
  assert.deepEqual(errors, []);
  await context.close();
});
