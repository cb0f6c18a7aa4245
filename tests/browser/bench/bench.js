// The drag benchmark's page: the client's own table, view and drag modules over a synthetic
// scene of 200 units on a terrain-rich 96" x 48" table, no server. Every unit drags freely;
// a measurement comes back a moment after each request, as a real server's would.

import { Table } from "/client/table.js";
import { View } from "/client/view.js";
import { Drags } from "/client/drag.js";

/** @typedef {import("../../../crates/server/client/table.js").Scene} Scene */
/** @typedef {import("../../../crates/server/client/table.js").Piece} Piece */

const W = 96, H = 48;

/** @returns {Scene} */
function scene() {
  /** @type {Piece[]} */
  const pieces = [];
  for (let i = 0; i < 200; i++) {
    const side = i < 100 ? "red" : "blue";
    const k = i % 100, col = k % 20, row = Math.floor(k / 20);
    const cx = 4 + col * 4.5, cy = side === "red" ? 4 + row * 3 : H - 4 - row * 3;
    const facing = side === "red" ? { x: 0, y: 1 } : { x: 0, y: -1 };
    const stands = [0, 1, 2, 3].map((s) => ({ centre: { x: cx - 1.5 + s, y: cy }, facing, width: 1, depth: 1.2 }));
    pieces.push({ id: `u${i}`, outline: { centre: { x: cx, y: cy }, facing, width: 4, depth: 1.2 }, stands, side, label: `Unit ${i}`, detail: "4 stands, Firm" });
  }
  const blob = (/** @type {number} */ x, /** @type {number} */ y, /** @type {number} */ r) =>
    ({ points: Array.from({ length: 16 }, (_, i) => ({ x: x + r * Math.cos(i / 16 * 2 * Math.PI) * (1 + 0.2 * Math.sin(i * 3)), y: y + r * Math.sin(i / 16 * 2 * Math.PI) })) });
  return {
    title: "Drag benchmark",
    table: {
      width: W, height: H, slope_band: 1,
      areas: [
        { name: "Long Hill", kind: "hill", polygon: blob(20, 24, 6), height: 1 },
        { name: "Long Hill", kind: "hill", polygon: blob(20, 24, 3), height: 1 },
        { name: "Great Wood", kind: "wood", polygon: blob(50, 20, 5), height: 0 },
        { name: "Thicket", kind: "dense_trees", polygon: blob(70, 28, 4), height: 0 },
        { name: "Hamlet", kind: "village", polygon: blob(80, 18, 3), height: 0 },
        { name: "Fen", kind: "marsh", polygon: blob(35, 30, 4), height: 0 },
        { name: "Scrub", kind: "rough", polygon: blob(60, 34, 3), height: 0 },
      ],
      lines: [
        { name: "River", kind: "river", width: 2, path: [{ x: 0, y: 22 }, { x: 30, y: 25 }, { x: 60, y: 21 }, { x: 96, y: 24 }], crossings: [{ kind: "ford", at: 40, width: 4 }, { kind: "bridge", at: 70, width: 3 }] },
        { name: "Road", kind: "paved_road", width: 1.5, path: [{ x: 70, y: 0 }, { x: 66, y: 48 }], crossings: [] },
        { name: "Hedge", kind: "hedge", width: 0.4, path: [{ x: 10, y: 36 }, { x: 40, y: 38 }], crossings: [] },
      ],
    },
    pieces,
    marks: [{ points: [{ x: 40, y: 20 }, { x: 40, y: 27 }], label: "The Ford" }],
    grid: null,
  };
}

const root = /** @type {SVGSVGElement} */ (/** @type {unknown} */ (document.getElementById("table")));
const table = new Table(root);
const view = new View(root, () => table.extent(), [table.top]);
table.draw(scene());
view.fit();
root.classList.add("bench");

/** Per frame: the time spent in the drag's frame callback (script), in ms. */
const scriptTimes = /** @type {number[]} */ ([]);

const drags = new Drags(table, view, /** @type {HTMLElement} */ (document.getElementById("measure")), {
  control: (unit) => ({ unit, label: unit, allowance: 12, allowance_text: "12\"", drag: { kind: "free" }, actions: [] }),
  select: () => {},
  measure: (unit, spot) => {
    setTimeout(() => {
      const from = table.pieceOf(unit)?.outline.centre ?? { x: 0, y: 0 };
      const mid = { x: (from.x + spot.x) / 2 + 0.5, y: (from.y + spot.y) / 2 };
      const length = Math.hypot(mid.x - from.x, mid.y - from.y) + Math.hypot(spot.x - mid.x, spot.y - mid.y);
      drags.measured({
        unit, path: [from, mid, { x: spot.x, y: spot.y }], length, cost: length * 1.2, allowance: 12,
        within: Math.min(length, 10), notes: ["open ground [MOV-TER-02]", "wood: 2\" at double cost [MOV-TERR-02]"],
        action: length < 10 ? { label: "Move", rules: [], effect: { kind: "send", command: null } } : undefined,
        rule: length < 10 ? undefined : "MOV-RATE-01", reason: length < 10 ? undefined : "beyond the allowance",
      });
    }, 1);
  },
  perform: () => {},
  refuse: () => {},
  choose: () => {},
});

// Time each frame's drawing work of the drag (the script part).
const draw = drags.draw.bind(drags);
drags.draw = () => {
  const t = performance.now();
  draw();
  scriptTimes.push(performance.now() - t);
};

/** What the benchmark driver reads. */
Object.assign(window, {
  bench: {
    ready: true,
    scriptTimes,
    /** @param {string} unit */
    centre(unit) {
      const r = table.pieces.get(unit)?.querySelector(".body")?.getBoundingClientRect();
      return r ? { x: r.x + r.width / 2, y: r.y + r.height / 2 } : null;
    },
  },
});
