// What the browser tests share: a real `strategikon serve` on a free port with a throwaway
// database, Debian's Chromium driven by playwright-core (never a downloaded browser), the REST
// calls that set games up, and screenshots kept as artifacts in target/browser-artifacts/.

import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { before, after } from "node:test";
import { chromium } from "playwright-core";

/** The repository's root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** Where screenshots go. */
export const ARTIFACTS = join(ROOT, "target", "browser-artifacts");

/** The binary under test: $STRATEGIKON_BIN, or the debug build in the cargo target folder. */
export function binary() {
  if (process.env.STRATEGIKON_BIN) return process.env.STRATEGIKON_BIN;
  const target = process.env.CARGO_TARGET_DIR ? resolve(ROOT, process.env.CARGO_TARGET_DIR) : join(ROOT, "target");
  return join(target, "debug", "strategikon");
}

/**
 * Starts `strategikon serve` on 127.0.0.1:0 with a fresh SQLite file; resolves once it prints
 * its address.
 * @returns {Promise<{ url: string, stop: () => Promise<void> }>}
 */
export async function startServer() {
  const bin = binary();
  if (!existsSync(bin)) throw new Error(`no binary at ${bin}: build it with cargo build -p strategikon, or set STRATEGIKON_BIN`);
  const dir = mkdtempSync(join(tmpdir(), "strategikon-browser-"));
  const child = spawn(bin, ["serve", "--addr", "127.0.0.1:0", "--database", join(dir, "games.db")], {
    cwd: ROOT, stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d) => { stderr += d; });
  const url = await new Promise((ok, fail) => {
    let out = "";
    const timer = setTimeout(() => fail(new Error(`serve printed no address in 30 s: ${out}${stderr}`)), 30000);
    child.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/serving at (http:\/\/[^\s/]+)\//);
      if (m) {
        clearTimeout(timer);
        ok(m[1]);
      }
    });
    child.on("exit", (code) => fail(new Error(`serve exited (${code}): ${stderr}`)));
  });
  const stop = async () => {
    if (child.exitCode === null) {
      const gone = new Promise((ok) => child.once("exit", ok));
      child.kill("SIGTERM");
      await Promise.race([gone, new Promise((ok) => setTimeout(ok, 5000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
    }
    rmSync(dir, { recursive: true, force: true });
  };
  return { url, stop };
}

/**
 * Starts a server and a browser before a test file's tests and stops them after; the returned
 * object holds them while the tests run.
 */
export function serverAndBrowser() {
  const ctx = /** @type {{ server: { url: string, stop: () => Promise<void> }, browser: import("playwright-core").Browser }} */ ({});
  before(async () => {
    ctx.server = await startServer();
    ctx.browser = await launch();
  });
  after(async () => {
    await ctx.browser?.close();
    await ctx.server?.stop();
  });
  return ctx;
}

/** Launches Debian's Chromium, headless. */
export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

/**
 * A new page of its own context, its console errors and page errors collected.
 * @param {import("playwright-core").Browser} browser
 */
export async function newPage(browser) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  /** @type {string[]} */
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  return { page, context, errors };
}

/**
 * Keeps a screenshot of the page as target/browser-artifacts/NAME.png.
 * @param {import("playwright-core").Page} page
 * @param {string} name
 */
export async function shot(page, name) {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/**
 * Creates a game through the REST API.
 * @param {string} url
 * @param {Record<string, string>} body
 * @returns {Promise<{ id: string, spectator: string, seats: { side: string, token: string, link: string }[] }>}
 */
export async function createGame(url, body) {
  const r = await fetch(`${url}/api/games`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const json = await r.json();
  if (!r.ok) throw new Error(`create failed: ${JSON.stringify(json)}`);
  return json;
}

/**
 * The state version the page shows.
 * @param {import("playwright-core").Page} page
 */
export async function version(page) {
  const text = (await page.textContent("#version")) ?? "";
  const m = text.match(/version (\d+)/);
  return m ? Number(m[1]) : -1;
}

/**
 * Waits until the table and the controls show the state the page is at (no redraw pending).
 * @param {import("playwright-core").Page} page
 */
export async function settled(page, timeout = 30000) {
  await page.waitForFunction(() => {
    const v = document.querySelector("#version")?.textContent?.match(/version (\d+)/)?.[1];
    const shown = (/** @type {HTMLElement | null} */ (document.querySelector("#table")))?.dataset.version;
    const controls = (/** @type {HTMLElement | null} */ (document.querySelector("#controls")))?.dataset.version;
    return v !== undefined && shown === v && (controls === undefined || controls === v);
  }, null, { timeout });
}

/**
 * Waits until the page's version is above `v`.
 * @param {import("playwright-core").Page} page
 * @param {number} v
 * @param {number} [timeout]
 */
export async function versionAbove(page, v, timeout = 30000) {
  await page.waitForFunction((v) => {
    const m = document.querySelector("#version")?.textContent?.match(/version (\d+)/);
    return m && Number(m[1]) > v;
  }, v, { timeout });
  return version(page);
}

/**
 * The centre of a unit's piece on the screen.
 * @param {import("playwright-core").Page} page
 * @param {string} unit
 */
export async function pieceCentre(page, unit) {
  // The table may be redrawn while we look (a new state): look again.
  for (let attempt = 0; attempt < 20; attempt++) {
    const body = page.locator(`#table g.piece[data-unit="${unit}"] .body`);
    await body.waitFor({ state: "visible", timeout: 5000 });
    const box = await body.boundingBox().catch(() => null);
    if (box) return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    await page.waitForTimeout(50);
  }
  throw new Error(`no piece ${unit}`);
}

/**
 * The IDs of the pieces the side may command now (outlined).
 * @param {import("playwright-core").Page} page
 * @returns {Promise<string[]>}
 */
export async function commandable(page) {
  return page.$$eval("#table g.piece.commandable", (gs) => gs.map((g) => /** @type {SVGGElement} */ (g).dataset.unit ?? ""));
}

/**
 * Where a unit's piece is drawn: its outline's corners, as the SVG has them.
 * @param {import("playwright-core").Page} page
 * @param {string} unit
 */
export async function piecePlace(page, unit) {
  const points = await page.$eval(`#table g.piece[data-unit="${unit}"] .body`, (g) => g.getAttribute("points") ?? "");
  if (!points) throw new Error(`the piece of ${unit} has no outline`);
  return points;
}

/**
 * Presses the mouse on a unit's piece and moves it by steps to a screen point (not released).
 * @param {import("playwright-core").Page} page
 * @param {string} unit
 * @param {{ x: number, y: number }} to
 */
export async function dragPiece(page, unit, to) {
  const from = await pieceCentre(page, unit);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + 8, from.y + 8, { steps: 2 });
  await page.mouse.move(to.x, to.y, { steps: 12 });
}
