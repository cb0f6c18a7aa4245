// The home page's other paths: an uploaded scenario that does not validate, a game set up side
// by side with its links, and the referee answering an example question.

import { test } from "node:test";
import assert from "node:assert/strict";
import { serverAndBrowser, newPage, shot } from "./harness.mjs";

const env = serverAndBrowser();

test("an uploaded scenario that does not validate shows every problem with its place", async () => {
  const { page, context } = await newPage(env.browser);
  await page.goto(env.server.url);
  await page.waitForSelector("#ruleset option", { state: "attached" });
  await page.click("#upload-box summary");
  await page.check("#use-upload");
  await page.fill("#upload", 'ruleset = "othw"\n[scenario]\nname = 5\n');
  await page.click("#create");
  await page.waitForSelector("#create-error ul.diagnostics li");
  const problems = await page.locator("#create-error ul.diagnostics li").allTextContents();
  assert.ok(problems.some((p) => /^upload\.toml:3:\d+: scenario\.name: /.test(p)), problems.join("\n"));
  assert.equal(await page.locator("#created li").count(), 0);
  await shot(page, "g1-upload-diagnostics");
  await context.close();
});

test("a game set up side by side hands out a secret link per person and the spectators' link", async () => {
  const { page, context, errors } = await newPage(env.browser);
  await page.goto(env.server.url);
  await page.waitForSelector("#ruleset option", { state: "attached" });
  await page.selectOption("#ruleset", "movement");
  await page.selectOption("#red", "human");
  await page.selectOption("#blue", "random");
  await page.click("#create");
  await page.waitForSelector("#created li.spectator");
  const seats = await page.locator("#created li.seat").count();
  assert.equal(seats, 1, "one person, one secret link");
  assert.match((await page.textContent("#created li.seat.red a")) ?? "", /\/game\/[0-9a-f]+#token=/);
  assert.doesNotMatch((await page.textContent("#created li.spectator a")) ?? "", /token/);
  await shot(page, "g2-created");
  assert.deepEqual(errors, []);
  await context.close();
});

test("the referee answers an example question, its rules as badges", async () => {
  const { page, context, errors } = await newPage(env.browser);
  await page.goto(env.server.url);
  await page.waitForSelector(".referee-ruleset option", { state: "attached" });
  await page.selectOption(".referee-ruleset", "movement");
  await page.waitForSelector(".referee-example option:nth-child(2)", { state: "attached" });
  await page.selectOption(".referee-example", { label: "worked example" });
  assert.match(await page.inputValue(".referee-question"), /path_cost/);
  await page.click("#referee button.ask");
  await page.waitForSelector(".referee-answer dl.json");
  assert.ok(await page.locator(".referee-answer .rule").count() > 0, "the answer's rules show as badges");
  await shot(page, "g3-referee");
  assert.deepEqual(errors, []);
  await context.close();
});
