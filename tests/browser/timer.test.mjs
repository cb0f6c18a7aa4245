// The Free Move timer for a real table: the window from the armies and the losses (the
// referee's answer), the countdown, "Time!" and the bell.

import { test } from "node:test";
import assert from "node:assert/strict";
import { serverAndBrowser, newPage, shot } from "./harness.mjs";

const env = serverAndBrowser();

test("the timer works out the window, counts it down and rings the bell", async () => {
  const { page, context, errors } = await newPage(env.browser);
  await page.goto(env.server.url);
  await page.click("#timer-link");
  await page.waitForSelector("#window:has-text('on the timer')");
  // 4 s a stand, 20 and 20 stands: 40 s (FMT-R-02); half the stands lost: 20 s (FMT-R-03).
  assert.match((await page.textContent("#window")) ?? "", /^40 s on the timer/);
  await page.fill("#lost", "20");
  await page.waitForSelector("#window:has-text('20 s on the timer')");
  assert.match((await page.textContent("#rules")) ?? "", /FMT-TIME-03/);
  await page.click("#start");
  await page.waitForFunction(() => /^0:1\d$/.test(document.querySelector("#clock")?.textContent ?? ""));
  await page.click("#stop");
  assert.match((await page.textContent("#rang")) ?? "", /Time!.*FMT-TIME-17/);
  await shot(page, "t1-timer-time-called");
  // The shortest window is 15 s; let it run out.
  await page.fill("#lost", "39");
  await page.waitForSelector("#window:has-text('15 s on the timer')");
  await page.click("#start");
  await page.waitForSelector("#rang:has-text('Ding!')", { timeout: 20_000 });
  assert.equal(await page.textContent("#clock"), "0:00");
  await shot(page, "t2-timer-bell");
  assert.deepEqual(errors, []);
  await context.close();
});
