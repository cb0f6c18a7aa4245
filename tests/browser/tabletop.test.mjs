// The browser tabletop end to end: a real server, Debian's Chromium, real games. Each test
// plays its own game; screenshots of every step go to target/browser-artifacts/.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  serverAndBrowser, newPage, shot, createGame, version, versionAbove, settled, commandable,
  pieceCentre, piecePlace, dragPiece,
} from "./harness.mjs";

const env = serverAndBrowser();

/**
 * Waits until the page says it is this side's turn and its controls have come.
 * @param {import("playwright-core").Page} page
 */
async function myTurn(page, timeout = 60000) {
  await page.waitForFunction(() => document.querySelector("#status")?.textContent?.includes("(you)")
    && document.querySelector("#controls .prompt") !== null, null, { timeout });
  await settled(page, timeout);
}

/** @param {import("playwright-core").Page} page */
async function logLines(page) {
  return page.locator("#log .line").count();
}

/**
 * Makes one move with the mouse: a unit dragged onto one of its lit squares (the first offered
 * action of a square with several); if no unit may be dragged to squares, the first action of
 * the menus. Returns what it did.
 * @param {import("playwright-core").Page} page
 */
async function makeMove(page) {
  for (const unit of await commandable(page)) {
    const from = await pieceCentre(page, unit);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(from.x + 6, from.y + 6, { steps: 2 });
    const target = page.locator(".table-overlay rect.target").first();
    if (await target.count()) {
      const box = await target.boundingBox();
      assert.ok(box);
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 10 });
      await shot(page, `${unit}-drag-to-square`);
      await page.mouse.up();
      const chooser = page.locator(".chooser .menu button").first();
      if (await chooser.count()) await chooser.click();
      return `dragged ${unit} to a square`;
    }
    await page.keyboard.press("Escape");
    await page.mouse.up();
  }
  await page.locator("#controls .menu button").first().click();
  return "chose the first action";
}

/**
 * Clicks the action that ends the side's phase.
 * @param {import("playwright-core").Page} page
 */
async function endPhase(page) {
  await page.locator("#controls .menu button", { hasText: /end/i }).first().click();
}

test("O/THW against the computer: drag a unit to a square, the computer answers", async () => {
  const { page, context, errors } = await newPage(env.browser);
  await page.goto(env.server.url);
  await page.selectOption("#ruleset", "othw");
  await page.selectOption("#scenario", "open_field");
  await page.selectOption("#my-side", "red");
  await page.selectOption("#opponent", "scripted");
  await shot(page, "a1-home");
  await page.click("#play-computer");
  await page.waitForURL(/\/game\/[0-9a-f]+#token=/);
  await myTurn(page);
  await shot(page, "a2-my-turn");
  const v0 = await version(page);
  const lines0 = await logLines(page);
  const did = await makeMove(page);
  await versionAbove(page, v0);
  await page.waitForFunction((n) => document.querySelectorAll("#log .line").length > n, lines0);
  await shot(page, "a3-moved");
  assert.ok(did, did);
  // End the phase; the computer plays its own and hands the turn back.
  await myTurn(page);
  const ended = await version(page);
  await endPhase(page);
  // Our command is version ended + 1; the computer's come after it (nothing is undone here, so
  // the version only grows), and then it is our turn again.
  await versionAbove(page, ended + 1, 60000);
  await page.waitForFunction(() => document.querySelector("#status")?.textContent?.includes("(you)"), undefined, { timeout: 60000 });
  await shot(page, "a4-computer-answered");
  assert.ok((await logLines(page)) > lines0);
  assert.deepEqual(errors, []);
  await context.close();
});

/**
 * Opens the link of the side to act in a human-v-human game.
 * @param {{ seats: { side: string, link: string }[] }} game
 */
async function openActingSide(game) {
  for (const seat of game.seats) {
    const { page, context, errors } = await newPage(env.browser);
    await page.goto(env.server.url + seat.link);
    await page.waitForSelector("#status:not(:empty)");
    await page.waitForFunction(() => /to act|waiting for|may act/.test(document.querySelector("#status")?.textContent ?? ""));
    if ((await page.textContent("#status"))?.includes("(you)")) {
      await myTurn(page);
      return { page, context, errors, side: seat.side };
    }
    await context.close();
  }
  throw new Error("no side is to act");
}

/**
 * Drags a free-moving unit in a few directions until the measurement offers a move; returns the
 * unit, leaving the mouse pressed at a spot whose drop is allowed.
 * @param {import("playwright-core").Page} page
 */
async function dragToAllowedSpot(page) {
  for (const unit of await commandable(page)) {
    const from = await pieceCentre(page, unit);
    for (const [dx, dy] of [[0, -40], [0, 40], [40, 0], [-40, 0], [0, -20], [0, 20]]) {
      await dragPiece(page, unit, { x: from.x + dx, y: from.y + dy });
      const ok = await page.waitForFunction(() => {
        const t = document.querySelector("#measure")?.textContent ?? "";
        return t.includes("drop:") ? "yes" : t.includes("cannot end here") || t.includes("no measurement") ? "no" : null;
      }, null, { timeout: 10000 }).then((h) => h.jsonValue()).catch(() => "no");
      if (ok === "yes") return unit;
      await page.keyboard.press("Escape");
      await page.mouse.up();
    }
  }
  throw new Error("no unit could be dragged to an allowed spot");
}

test("movement: a free drag shows the measured path, dropping moves the unit, undo takes it back", async () => {
  const game = await createGame(env.server.url, { ruleset: "movement", scenario: "ford", red: "human", blue: "human" });
  const { page, context, errors } = await openActingSide(game);
  await shot(page, "b1-ford");
  const v0 = await version(page);
  const unit = await dragToAllowedSpot(page);
  const green = await page.$eval(".table-overlay polyline.path-within", (p) => p.getAttribute("points") ?? "");
  assert.ok(green.split(" ").length >= 2, `a green path is drawn: ${green}`);
  await shot(page, "b2-measured-drag");
  const before = await piecePlace(page, unit);
  await page.mouse.up();
  await versionAbove(page, v0);
  await page.waitForFunction(([u, t]) => document.querySelector(`#table g.piece[data-unit="${u}"] .body`)?.getAttribute("points") !== t, [unit, before]);
  await shot(page, "b3-moved");
  assert.notEqual(await piecePlace(page, unit), before);
  // No die was rolled: the move may be taken back, and the piece goes back.
  await page.waitForSelector("#undo:not([disabled])");
  await page.click("#undo");
  await page.waitForFunction((v) => document.querySelector("#version")?.textContent === `version ${v}`, v0);
  await page.waitForFunction(([u, t]) => document.querySelector(`#table g.piece[data-unit="${u}"] .body`)?.getAttribute("points") === t, [unit, before]);
  await shot(page, "b4-undone");
  assert.deepEqual(errors, []);
  await context.close();
});

test("two people play each other, each sees the other's move", async () => {
  const game = await createGame(env.server.url, { ruleset: "othw", scenario: "open_field", red: "human", blue: "human" });
  const a = await openActingSide(game);
  const otherSeat = game.seats.find((s) => s.side !== a.side);
  assert.ok(otherSeat);
  const b = await newPage(env.browser);
  await b.page.goto(env.server.url + otherSeat.link);
  await b.page.waitForSelector("#status:not(:empty)");
  const v0 = await version(a.page);
  const bLines = await logLines(b.page);
  await makeMove(a.page);
  await versionAbove(b.page, v0);
  await b.page.waitForFunction((n) => document.querySelectorAll("#log .line").length > n, bLines);
  await shot(b.page, "c1-other-side-sees-move");
  // A ends its phase; B moves; A sees it.
  await myTurn(a.page);
  await endPhase(a.page);
  await myTurn(b.page);
  const v1 = await version(a.page);
  await makeMove(b.page);
  await versionAbove(a.page, v1);
  await shot(a.page, "c2-first-side-sees-reply");
  assert.deepEqual([...a.errors, ...b.errors], []);
  await a.context.close();
  await b.context.close();
});

test("a move the rules refuse shows its rule ID and changes nothing", async () => {
  const game = await createGame(env.server.url, { ruleset: "movement", scenario: "ford", red: "human", blue: "human" });
  const { page, context } = await openActingSide(game);
  const v0 = await version(page);
  const [unit] = await commandable(page);
  assert.ok(unit, "a unit may move");
  const before = await piecePlace(page, unit);
  // Far beyond any allowance: to the other side of the table.
  const box = await page.locator("#table").boundingBox();
  assert.ok(box);
  const from = await pieceCentre(page, unit);
  const to = { x: from.x, y: from.y < box.y + box.height / 2 ? box.y + box.height - 30 : box.y + 30 };
  await dragPiece(page, unit, to);
  await page.waitForFunction(() => (document.querySelector("#measure")?.textContent ?? "").length > 0, null, { timeout: 10000 });
  await shot(page, "d1-beyond-allowance");
  await page.mouse.up();
  await page.waitForSelector("#message.refused:not([hidden])");
  const text = (await page.textContent("#message")) ?? "";
  assert.match(text, /\[[A-Z0-9]+(-[A-Z0-9]+)+\]/, `the refusal names its rule: ${text}`);
  await shot(page, "d2-refused");
  assert.equal(await version(page), v0);
  assert.equal(await piecePlace(page, unit), before);
  await context.close();
});

test("a command the server refuses shows its rule ID in the banner and the log, and changes nothing", async () => {
  const game = await createGame(env.server.url, { ruleset: "othw", scenario: "open_field", red: "human", blue: "human" });
  const { page, context } = await openActingSide(game);
  await myTurn(page);
  const v0 = await version(page);
  const lines = await logLines(page);
  // Typed, as a rule designer or umpire may: a move from the first square to the far corner,
  // out of any unit's reach (or not the side's unit at all). The server's check refuses it.
  await page.locator("#typed summary").click();
  await page.fill("#typed-command", JSON.stringify({ kind: "move", unit: 0, to: { col: 11, row: 7 }, facing: "north" }));
  await page.click("#typed-send");
  await page.waitForSelector("#message.refused:not([hidden])");
  const text = (await page.textContent("#message")) ?? "";
  assert.match(text, /\[OTHW-[A-Z]+-\d+\]/, `the refusal names its rule: ${text}`);
  const note = (await page.locator("#log .note").last().textContent()) ?? "";
  assert.match(note, /OTHW-[A-Z]+-\d+/, `the log notes the refusal with its rule: ${note}`);
  assert.equal(await logLines(page), lines, "no event was added");
  await shot(page, "d3-server-refused");
  assert.equal(await version(page), v0);
  // Nonsense is answered too, without reaching the server.
  await page.fill("#typed-command", "{ not json");
  await page.click("#typed-send");
  await page.waitForSelector("#message.error:not([hidden])");
  assert.equal(await version(page), v0);
  await context.close();
});

test("a spectator sees the table and the log but no controls", async () => {
  const game = await createGame(env.server.url, { ruleset: "othw", scenario: "open_field", red: "human", blue: "scripted" });
  const { page, context, errors } = await newPage(env.browser);
  await page.goto(env.server.url + game.spectator);
  await page.waitForSelector("#table g.piece");
  await page.waitForFunction(() => document.querySelector("#role")?.textContent === "watching");
  await shot(page, "e1-spectator");
  assert.equal(await page.isVisible("#side-panel"), false);
  assert.equal(await page.locator("#controls button").count(), 0);
  assert.equal(await page.locator("#table g.piece.commandable").count(), 0);
  const v0 = await version(page);
  const piece = page.locator("#table g.piece").first();
  const b = await piece.boundingBox();
  assert.ok(b);
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + 80, b.y + 80, { steps: 8 });
  assert.equal(await page.locator(".table-overlay .ghost").count(), 0, "nothing to drag");
  await page.mouse.up();
  assert.equal(await version(page), v0);
  assert.deepEqual(errors, []);
  await context.close();
});

test("the replay viewer steps through a finished game and the record downloads", async () => {
  const game = await createGame(env.server.url, { ruleset: "othw", scenario: "open_field", red: "scripted", blue: "scripted" });
  const deadline = Date.now() + 120000;
  for (;;) {
    const info = await (await fetch(`${env.server.url}/api/games/${game.id}`)).json();
    if (info.finished) break;
    assert.ok(Date.now() < deadline, "the bots finish the battle in two minutes");
    await new Promise((ok) => setTimeout(ok, 500));
  }
  const { page, context, errors } = await newPage(env.browser);
  await page.goto(env.server.url + game.spectator);
  await page.waitForSelector(".outcome a.replay-link");
  await shot(page, "f1-finished");
  await page.click(".outcome a.replay-link");
  await page.waitForFunction(() => /step 0 of \d+/.test(document.querySelector("#replay-step")?.textContent ?? ""));
  const steps = Number((await page.textContent("#replay-step"))?.match(/of (\d+)/)?.[1]);
  assert.ok(steps > 1, `the game has steps: ${steps}`);
  await shot(page, "f2-replay-start");
  await page.click("#replay-buttons button.next");
  await page.waitForFunction(() => /^step 1 of/.test(document.querySelector("#replay-step")?.textContent ?? ""));
  assert.notEqual(await page.textContent("#replay-command"), "the table as set up");
  await page.click("#replay-buttons button.last");
  await page.waitForFunction((n) => (document.querySelector("#replay-step")?.textContent ?? "").startsWith(`step ${n} of`), steps);
  assert.ok(((await page.textContent("#replay-outcome")) ?? "").length > 0, "the last step shows the outcome");
  await shot(page, "f3-replay-end");
  await page.locator("#replay-slider").fill(String(Math.floor(steps / 2)));
  await page.waitForFunction((n) => (document.querySelector("#replay-step")?.textContent ?? "").startsWith(`step ${n} of`), Math.floor(steps / 2));
  await shot(page, "f4-replay-middle");
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#replay-record")]);
  const record = JSON.parse(readFileSync(/** @type {string} */ (await download.path()), "utf8"));
  assert.equal(record.commands.length, steps);
  assert.deepEqual(errors, []);
  await context.close();
});

test("WRG 1969: orders drafted from the units' menus and a dragged plan, each sent whole", async () => {
  const game = await createGame(env.server.url, { ruleset: "wrg1969", scenario: "the_ford", red: "human", blue: "scripted" });
  const seat = game.seats.find((s) => s.side === "red");
  assert.ok(seat);
  const { page, context, errors } = await newPage(env.browser);
  await page.goto(env.server.url + seat.link);
  await myTurn(page);
  // The written orders: one unit's order changed, the rest as they stand.
  const [first] = await commandable(page);
  assert.ok(first, "units to write orders for");
  await page.click(`#table g.piece[data-unit="${first}"] .body`);
  await page.locator("#controls .unit .menu button.draft").nth(1).click();
  assert.equal(await page.locator("#controls .draft .choices li").count(), 1);
  await shot(page, "h1-orders-drafted");
  const v0 = await version(page);
  await page.click("#controls .send-draft");
  await versionAbove(page, v0);
  // The period's plan: a unit dragged where it is to go, the move put into the plan.
  await page.waitForFunction(() => /plan/.test(document.querySelector("#controls .prompt")?.textContent ?? ""));
  await settled(page);
  const unit = await dragToAllowedSpot(page);
  await page.mouse.up();
  await page.waitForSelector("#controls .draft .choices li");
  assert.equal(await page.locator(".table-overlay .planned").count(), 1, "the planned move is drawn");
  await shot(page, "h2-plan-drafted");
  const v1 = await version(page);
  await page.click("#controls .send-draft");
  await versionAbove(page, v1);
  assert.equal(await page.isVisible("#message"), false, `no refusal: ${await page.textContent("#message")}`);
  await shot(page, "h3-plan-sent");
  assert.ok(unit);
  assert.deepEqual(errors, []);
  await context.close();
});
