// The table as an interactive SVG built in the DOM from a scene (the `tabletop` render model's
// JSON): cloth, terrain areas, rivers and roads with their fords and bridges, the square grid
// with its cells and coordinates, pieces rotated to their facing with the front edge marked,
// and marks. One SVG user unit is one inch. The table's y grows north (up the table), the
// screen's down: every point is drawn at (x, height - y).

import { svg } from "./dom.js";

/** @typedef {{ x: number, y: number }} Point */
/** @typedef {{ centre: Point, facing: Point, width: number, depth: number }} Rect */
/** @typedef {{ name: string, kind: string, polygon: { points: Point[] }, height: number }} Area */
/** @typedef {{ kind: string, at: number, width: number }} Crossing */
/** @typedef {{ name: string, kind: string, path: Point[], width: number, crossings: Crossing[] }} Line */
/** @typedef {{ width: number, height: number, areas: Area[], lines: Line[], slope_band: number }} TableModel */
/** @typedef {{ id?: string, outline: Rect, stands: Rect[], side: string | null, label: string, detail: string }} Piece */
/** @typedef {{ points: Point[], label: string }} Mark */
/** @typedef {{ cols: number, rows: number, cell: number, cells?: (string | null)[], coordinates?: boolean }} Grid */
/** @typedef {{ title: string, table: TableModel, pieces: Piece[], marks: Mark[], grid?: Grid | null }} Scene */

/** The margin round the table, in inches (room for the grid's coordinates). */
const MARGIN = 1.5;

/** Fill and outline of each kind of terrain area. */
const AREA_STYLE = /** @type {Record<string, [string, string]>} */ ({
  hill: ["#d8c58a", "#7a6030"],
  wood: ["url(#stk-wood)", "#24451b"],
  dense_trees: ["url(#stk-dense)", "#142e10"],
  village: ["url(#stk-village)", "#5e4632"],
  marsh: ["url(#stk-marsh)", "#3f6a6a"],
  rough: ["url(#stk-rough)", "#6f6a3a"],
  open: ["none", "#9a8f5a"],
});

/** Colour and edge of each kind of linear feature, and its dash if any. */
const LINE_STYLE = /** @type {Record<string, [string, string, string?]>} */ ({
  river: ["#4a86c5", "#2b5688"],
  stream: ["#5e9fd8", "#356a9a"],
  paved_road: ["#a59d90", "#6e665a"],
  dirt_road: ["#a97b45", "#7a5228"],
  wall: ["#9d958a", "#4d4740", "0.5 0.08"],
  hedge: ["#2f5f22", "#173512"],
});

// A grid cell's terrain kind (normalised: trimmed, lower case, spaces and hyphens as `_`) as
// the server's SVG draws it: keep these in step with `cell_fill` in
// crates/tabletop/src/render.rs (the same kinds, synonyms, fills and named cells).

/** The kinds of open ground: no fill. */
const CELL_OPEN = new Set(["", "clear", "open", "grass", "plain", "field"]);

/** The fill of each other known kind; an unknown kind gets `url(#stk-unknown)` and its name. */
const CELL_FILL = /** @type {Record<string, string>} */ ({
  hill: "#c9b77e", hills: "#c9b77e", high_ground: "#c9b77e",
  wood: "url(#stk-wood)", woods: "url(#stk-wood)", forest: "url(#stk-wood)", trees: "url(#stk-wood)",
  dense_trees: "url(#stk-dense)", dense_wood: "url(#stk-dense)", jungle: "url(#stk-dense)",
  village: "url(#stk-village)", town: "url(#stk-village)", building: "url(#stk-village)",
  buildings: "url(#stk-village)", city: "url(#stk-village)",
  marsh: "url(#stk-marsh)", swamp: "url(#stk-marsh)", mud: "url(#stk-marsh)", bog: "url(#stk-marsh)",
  rough: "url(#stk-rough)", brush: "url(#stk-rough)", scrub: "url(#stk-rough)", rocks: "url(#stk-rough)",
  river: "#4a86c5", water: "#4a86c5", lake: "#4a86c5", stream: "#4a86c5", sea: "#4a86c5",
  road: "#a97b45", paved_road: "#a97b45", dirt_road: "#a97b45", track: "#a97b45",
  ford: "#8fb8d8",
  bridge: "#7b5a3a",
  wall: "#9d958a",
  hedge: "#2f5f22",
  impassable: "#5a5248", cliff: "#5a5248", mountain: "#5a5248",
});

/** The known kinds whose name is written on the cell (as every unknown kind's is). */
const CELL_NAMED = new Set(["ford", "bridge"]);

/** Side colours: fill and edge. */
const SIDE_COLOURS = /** @type {Record<string, [string, string]>} */ ({
  red: ["#c8413a", "#6e1510"],
  blue: ["#3a67c8", "#10286e"],
});

/**
 * The bearing of a facing vector, in degrees clockwise from north.
 * @param {Point} v
 * @returns {number}
 */
export function bearingOf(v) {
  const deg = (Math.atan2(v.x, v.y) * 180) / Math.PI;
  return (deg + 360) % 360;
}

/**
 * A column's letters: A … Z, AA, AB …
 * @param {number} col
 * @returns {string}
 */
function columnName(col) {
  let s = "";
  for (let c = col; ; c = Math.floor(c / 26) - 1) {
    s = String.fromCharCode(65 + (c % 26)) + s;
    if (c < 26) return s;
  }
}

/**
 * A cell's name as players read it (`C4`: column letter, row number from the south).
 * @param {number} col
 * @param {number} row
 */
export function cellName(col, row) {
  return `${columnName(col)}${row + 1}`;
}

/** A drawn table: the SVG and its layers, the scene's coordinates, and its pieces by unit ID. */
export class Table {
  /** @param {SVGSVGElement} root the (empty) SVG element to draw into */
  constructor(root) {
    this.root = root;
    /** @type {Scene | null} */
    this.scene = null;
    this.height = 0;
    /** @type {Map<string, SVGGElement>} */
    this.pieces = new Map();
    /** What the drawn terrain was drawn from, and how many hills it has. */
    this.terrainKey = "";
    this.hills = 0;
    /** Everything on the table is clipped to its edge. */
    this.clip = svg("rect", { x: 0, y: 0, width: 1, height: 1 });
    root.replaceChildren(patterns(), svg("defs", {}, svg("clipPath", { id: "table-clip" }, this.clip)));
    root.classList.add("table-svg");
    this.terrain = root.appendChild(svg("g", { class: "terrain" }));
    this.marks = root.appendChild(svg("g", { class: "marks" }));
    this.pieceLayer = root.appendChild(svg("g", { class: "pieces" }));
    /**
     * A second SVG laid over the first, with the same view: what changes while a piece is
     * dragged (its ghost, the measured path, the lit squares) is drawn here, so that the
     * table below is not painted again every frame.
     */
    this.top = svg("svg", { class: "table-svg table-overlay", "aria-hidden": "true" });
    root.after(this.top);
    /** The square targets of a drag. */
    this.targets = this.top.appendChild(svg("g", { class: "targets" }));
    /** The measured path of a drag, and its ghost piece. */
    this.overlay = this.top.appendChild(svg("g", { class: "overlay" }));
  }

  /**
   * Points as an SVG `points` attribute.
   * @param {Point[]} pts
   */
  points(pts) {
    return pts.map((p) => `${fmt(p.x)},${fmt(this.height - p.y)}`).join(" ");
  }

  /**
   * An SVG point (from the screen) as a table point.
   * @param {number} x
   * @param {number} y
   * @returns {Point}
   */
  tablePoint(x, y) {
    return { x, y: this.height - y };
  }

  /** The whole drawing's extent in SVG coordinates: the table and its margin. */
  extent() {
    const t = this.scene?.table ?? { width: 48, height: 48 };
    return { x: -MARGIN, y: -MARGIN, w: t.width + 2 * MARGIN, h: t.height + 2 * MARGIN };
  }

  /**
   * Draws a scene, replacing the last one.
   * @param {Scene} scene
   * @returns {boolean} whether the table's size changed (the view should fit it again)
   */
  draw(scene) {
    const resized = this.scene?.table.width !== scene.table.width
      || this.scene?.table.height !== scene.table.height;
    this.scene = scene;
    this.height = scene.table.height;
    // Terrain rarely changes during a battle (pieces do): redrawn only when it differs.
    const terrain = JSON.stringify([scene.table, scene.grid ?? null]);
    if (terrain !== this.terrainKey) this.drawTerrain(scene, terrain);
    this.marks.replaceChildren(...scene.marks.map((m) => this.mark(m)));
    this.pieces.clear();
    this.pieceLayer.replaceChildren();
    for (const p of scene.pieces) {
      const g = this.piece(p);
      if (!g) continue;
      this.pieceLayer.append(g);
      if (p.id) this.pieces.set(p.id, g);
    }
    return resized;
  }

  /**
   * Draws the cloth, areas, lines and grid.
   * @param {Scene} scene
   * @param {string} key the terrain's key (its JSON), remembered to tell when it changes
   */
  drawTerrain(scene, key) {
    this.terrainKey = key;
    this.hills = 0;
    const t = scene.table;
    const g = this.terrain;
    this.clip.setAttribute("width", fmt(t.width));
    this.clip.setAttribute("height", fmt(t.height));
    const onTable = svg("g", { "clip-path": "url(#table-clip)" });
    g.replaceChildren(
      svg("rect", { class: "table-edge", x: -0.25, y: -0.25, width: t.width + 0.5, height: t.height + 0.5, rx: 0.15 }),
      svg("rect", { class: "cloth", x: 0, y: 0, width: t.width, height: t.height }),
      onTable,
    );
    if (scene.grid) onTable.append(this.gridCells(scene.grid));
    for (const a of t.areas) onTable.append(this.area(a, t.slope_band));
    const order = (/** @type {Line} */ l) => (l.kind === "river" || l.kind === "stream" ? 0 : l.kind.endsWith("road") ? 1 : 2);
    for (const l of [...t.lines].sort((a, b) => order(a) - order(b))) onTable.append(this.line(l));
    if (scene.grid) onTable.append(this.gridLines(scene.grid));
    // Names legible on a big table as on a small one.
    const size = Math.max(0.5, Math.min(t.width, t.height) / 50);
    const names = svg("g", { class: "terrain-names", "font-size": fmt(size), "stroke-width": fmt(size / 5) });
    const named = new Set();
    for (const a of t.areas) {
      if (!a.name || named.has(a.name)) continue;
      named.add(a.name);
      const c = centroid(a.polygon.points);
      if (c) names.append(svg("text", { x: fmt(c.x), y: fmt(t.height - c.y), class: "terrain-name" }, a.name));
    }
    for (const l of t.lines) {
      // A line's name beside its middle, turned to run along it (never upside down).
      const half = subPath(l.path, 0, pathLength(l.path) / 2);
      const [a, b] = half.slice(-2);
      if (!l.name || !a || !b) continue;
      let angle = (Math.atan2(-(b.y - a.y), b.x - a.x) * 180) / Math.PI;
      if (angle > 90) angle -= 180;
      if (angle < -90) angle += 180;
      const x = b.x, y = t.height - b.y - Math.min(l.width, 20) / 2 - size * 0.3;
      names.append(svg("text", { x: fmt(x), y: fmt(y), class: "terrain-name", transform: `rotate(${fmt(angle)} ${fmt(x)} ${fmt(t.height - b.y)})` }, l.name));
    }
    g.append(names);
    if (scene.grid?.coordinates) g.append(this.gridCoordinates(scene.grid));
  }

  /**
   * @param {Area} a
   * @param {number} band the slope band's width
   */
  area(a, band) {
    const [fill, stroke] = AREA_STYLE[a.kind] ?? ["url(#stk-unknown)", "#555"];
    const g = svg("g", { class: `area ${a.kind}` }, svg("title", {}, a.name || a.kind));
    const points = this.points(a.polygon.points);
    const opacity = a.kind === "hill" ? Math.min(0.9, Math.max(0.3, 0.45 + 0.2 * ((a.height || 1) - 1))) : 1;
    g.append(svg("polygon", { points, fill, stroke, "fill-opacity": opacity, "stroke-width": 0.06 }));
    if (a.kind === "hill" && band > 0) {
      // The slope band inside the contour: a stroke twice its width, clipped to the hill.
      const id = `hill-${++this.hills}`;
      g.append(svg("clipPath", { id }, svg("polygon", { points })),
        svg("polygon", { points, class: "slope", "clip-path": `url(#${id})`, "stroke-width": fmt(2 * Math.min(band, 20)) }));
    }
    return g;
  }

  /** @param {Line} l */
  line(l) {
    const [colour, edge, dash] = LINE_STYLE[l.kind] ?? ["#888", "#444"];
    const w = l.width > 0 ? Math.min(l.width, 100) : 0.1;
    const points = this.points(l.path);
    const base = (/** @type {string} */ stroke, /** @type {number} */ width) =>
      svg("polyline", { points, stroke, "stroke-width": fmt(width), class: "stroke" });
    const g = svg("g", { class: `line ${l.kind}` }, svg("title", {}, l.name || l.kind.replace("_", " ")),
      base(edge, w + 0.12));
    const top = base(colour, w);
    if (dash) top.setAttribute("stroke-dasharray", dash);
    g.append(top);
    if (l.kind === "river" || l.kind === "stream") g.append(base("#7fb0e0", w * 0.25));
    for (const c of l.crossings) {
      const part = subPath(l.path, c.at - c.width / 2, c.at + c.width / 2);
      if (part.length < 2) continue;
      const pts = this.points(part);
      const piece = (/** @type {string} */ stroke, /** @type {number} */ width) =>
        svg("polyline", { points: pts, stroke, "stroke-width": fmt(width), class: "stroke butt" });
      const cg = svg("g", { class: c.kind }, svg("title", {}, `${c.kind} on ${l.name || l.kind}`));
      if (c.kind === "ford") {
        cg.append(piece("#c7b27a", w), piece("#8fb8d8", w));
        cg.lastElementChild?.setAttribute("stroke-dasharray", "0.12 0.12");
      } else {
        cg.append(piece("#3e2a18", w + 0.7), piece("#8a6440", w + 0.5));
      }
      g.append(cg);
    }
    return g;
  }

  /** @param {Grid} grid */
  gridCells(grid) {
    const g = svg("g", { class: "grid-cells" });
    const c = grid.cell;
    (grid.cells ?? []).forEach((kind, i) => {
      if (!kind) return;
      const norm = kind.trim().toLowerCase().replace(/[ -]/g, "_");
      if (CELL_OPEN.has(norm)) return;
      const col = i % grid.cols, row = Math.floor(i / grid.cols);
      const fill = CELL_FILL[norm] ?? "url(#stk-unknown)";
      const x = col * c, y = this.height - (row + 1) * c;
      const cell = svg("g", { class: `cell ${norm}` }, svg("title", {}, `${cellName(col, row)}: ${kind}`),
        svg("rect", { x: fmt(x), y: fmt(y), width: fmt(c), height: fmt(c), fill }));
      if (!CELL_FILL[norm] || CELL_NAMED.has(norm)) {
        cell.append(svg("text", { x: fmt(x + c / 2), y: fmt(y + c / 2), class: "cell-name", "font-size": fmt(Math.min(0.4, c * 0.18)) }, kind));
      }
      g.append(cell);
    });
    return g;
  }

  /** @param {Grid} grid */
  gridLines(grid) {
    const c = grid.cell, w = grid.cols * c, h = grid.rows * c;
    let d = "";
    for (let col = 0; col <= grid.cols; col++) d += `M${fmt(col * c)},${fmt(this.height - h)}V${fmt(this.height)}`;
    for (let row = 0; row <= grid.rows; row++) d += `M0,${fmt(this.height - row * c)}H${fmt(w)}`;
    return svg("path", { class: "grid-lines", d });
  }

  /** @param {Grid} grid */
  gridCoordinates(grid) {
    const g = svg("g", { class: "grid-coordinates" });
    const c = grid.cell, size = Math.min(0.5, Math.max(0.2, c * 0.3));
    for (let col = 0; col < grid.cols; col++) {
      g.append(svg("text", { x: fmt((col + 0.5) * c), y: fmt(this.height + 0.4 + size), "font-size": fmt(size) }, columnName(col)));
    }
    for (let row = 0; row < grid.rows; row++) {
      g.append(svg("text", { x: fmt(-0.5), y: fmt(this.height - (row + 0.5) * c + size * 0.35), "font-size": fmt(size) }, String(row + 1)));
    }
    return g;
  }

  /**
   * A unit's piece where the scene puts it.
   * @param {Piece} p
   * @returns {SVGGElement | null}
   */
  piece(p) {
    const r = p.outline;
    if (![r.centre.x, r.centre.y, r.width, r.depth, r.facing.x, r.facing.y].every(Number.isFinite)) return null;
    const g = pieceShape(p, { x: r.centre.x, y: this.height - r.centre.y }, bearingOf(r.facing));
    if (p.id) g.dataset.unit = p.id;
    return g;
  }

  /** @param {Mark} m */
  mark(m) {
    const g = svg("g", { class: "mark" });
    if (m.points.length >= 2) {
      const points = this.points(m.points);
      g.append(svg("polyline", { points, class: "mark-shadow" }), svg("polyline", { points, class: "mark-line" }));
    }
    const last = m.points[m.points.length - 1];
    if (last && m.label) {
      g.append(svg("text", { x: fmt(last.x + 0.2), y: fmt(this.height - last.y - 0.2), class: "mark-label" }, m.label));
    }
    return g;
  }

  /**
   * The piece of a unit in the scene.
   * @param {string} unit
   * @returns {Piece | undefined}
   */
  pieceOf(unit) {
    return this.scene?.pieces.find((p) => p.id === unit);
  }
}

/**
 * A piece drawn with its centre at an SVG point and its front towards a bearing: body, stands,
 * front edge, facing arrow, and the label and detail upright. Drawn in plain coordinates (no
 * transform on any element), which keeps a table of hundreds of pieces cheap to composite.
 * @param {Piece} p
 * @param {{ x: number, y: number }} at the centre, in SVG coordinates
 * @param {number} bearing degrees clockwise from north
 * @returns {SVGGElement}
 */
export function pieceShape(p, at, bearing) {
  const r = p.outline;
  const [fill, edge] = SIDE_COLOURS[p.side ?? ""] ?? ["#9a9a9a", "#444"];
  const w = Math.abs(r.width), d = Math.abs(r.depth);
  const rad = (bearing * Math.PI) / 180, cos = Math.cos(rad), sin = Math.sin(rad);
  // The piece's own frame (front edge up, at y = -d/2) turned to the bearing and moved to `at`.
  const place = (/** @type {number} */ lx, /** @type {number} */ ly) => `${fmt(at.x + lx * cos - ly * sin)},${fmt(at.y + lx * sin + ly * cos)}`;
  const box = (/** @type {number} */ cx, /** @type {number} */ cy, /** @type {number} */ hw, /** @type {number} */ hd, /** @type {number} */ turn) => {
    const c = Math.cos(turn), s = Math.sin(turn);
    return [[-hw, -hd], [hw, -hd], [hw, hd], [-hw, hd]].map(([x, y]) => place(cx + x * c - y * s, cy + x * s + y * c)).join(" ");
  };
  const g = svg("g", { class: `piece ${p.side ?? "neutral"}` },
    svg("title", {}, `${p.label} ${p.detail}`.trim()),
    svg("polygon", { class: "body", points: box(0, 0, w / 2, d / 2, 0), fill, stroke: edge }));
  const own = (-bearingOf(r.facing) * Math.PI) / 180;
  for (const s of p.stands) {
    // The stand's centre and turn in the piece's frame, from the table's coordinates.
    const dx = s.centre.x - r.centre.x, dy = -(s.centre.y - r.centre.y);
    const lx = dx * Math.cos(own) - dy * Math.sin(own), ly = dx * Math.sin(own) + dy * Math.cos(own);
    const turn = ((bearingOf(s.facing) - bearingOf(r.facing)) * Math.PI) / 180;
    g.append(svg("polygon", { class: "stand", points: box(lx, ly, s.width / 2, s.depth / 2, turn), stroke: edge }));
  }
  g.append(svg("polyline", { class: "front", points: `${place(-w / 2, -d / 2)} ${place(w / 2, -d / 2)}` }));
  const size = Math.min(0.5, Math.max(0.05, Math.min(w, d) * 0.45));
  const tip = -d / 2 + 0.1;
  g.append(svg("polygon", { class: "arrow", points: `${place(0, tip)} ${place(size * 0.6, tip + size)} ${place(-size * 0.6, tip + size)}` }));
  // Text sized to fit the piece's frontage (a glyph is about 0.6 of the font size wide).
  const fit = (/** @type {string} */ text, /** @type {number} */ most) => fmt(Math.max(0.12, Math.min(most, (w * 0.95) / (0.6 * Math.max(1, text.length)))));
  const label = p.label.trim(), detail = p.detail.trim();
  if (label) g.append(svg("text", { class: "piece-label", x: fmt(at.x), y: fmt(at.y + (detail ? 0 : 0.15)), stroke: edge, "font-size": fit(label, 0.42) }, label));
  if (detail) g.append(svg("text", { class: "piece-detail", x: fmt(at.x), y: fmt(at.y + 0.4), stroke: edge, "font-size": fit(detail, 0.32) }, detail));
  return g;
}

/**
 * A number for an attribute: three decimals at most.
 * @param {number} v
 */
export function fmt(v) {
  return Number.isFinite(v) ? String(Math.round(v * 1000) / 1000) : "0";
}

/**
 * The centroid of a polygon's vertices (good enough to place a name).
 * @param {Point[]} pts
 * @returns {Point | null}
 */
function centroid(pts) {
  if (pts.length === 0) return null;
  const s = pts.reduce((a, p) => ({ x: a.x + p.x, y: a.y + p.y }), { x: 0, y: 0 });
  return { x: s.x / pts.length, y: s.y / pts.length };
}

/**
 * The length of a polyline.
 * @param {Point[]} path
 */
export function pathLength(path) {
  return path.slice(1).reduce((s, p, i) => s + Math.hypot(p.x - path[i].x, p.y - path[i].y), 0);
}

/**
 * The part of a polyline between two distances along it.
 * @param {Point[]} path
 * @param {number} from
 * @param {number} to
 * @returns {Point[]}
 */
export function subPath(path, from, to) {
  /** @type {Point[]} */
  const out = [];
  let walked = 0;
  for (let i = 1; i < path.length; i++) {
    const a = path[i - 1], b = path[i];
    const len = Math.hypot(b.x - a.x, b.y - a.y);
    const at = (/** @type {number} */ d) => {
      const t = len > 0 ? Math.min(1, Math.max(0, (d - walked) / len)) : 0;
      return { x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t };
    };
    if (walked + len >= from && walked <= to) {
      if (out.length === 0) out.push(at(Math.max(from, walked)));
      out.push(at(Math.min(to, walked + len)));
    }
    walked += len;
  }
  return out;
}

/** The terrain patterns, in inches. */
function patterns() {
  const tile = (/** @type {string} */ id, /** @type {number} */ size, /** @type {string} */ bg, /** @type {SVGElement[]} */ ...parts) =>
    svg("pattern", { id, patternUnits: "userSpaceOnUse", width: size, height: size },
      svg("rect", { width: size, height: size, fill: bg }), ...parts);
  const tree = (/** @type {number} */ cx, /** @type {number} */ cy, /** @type {number} */ r, /** @type {string} */ fill) =>
    svg("circle", { cx, cy, r, fill, stroke: "#1c3814", "stroke-width": 0.03 });
  const house = (/** @type {number} */ x, /** @type {number} */ y, /** @type {number} */ w, /** @type {number} */ h) =>
    svg("rect", { x, y, width: w, height: h, fill: "#9b5a3c", stroke: "#4a2a1a", "stroke-width": 0.04 });
  const tuft = (/** @type {number} */ x, /** @type {number} */ y) =>
    svg("path", { d: `M${x},${y} l0.08,-0.18 l0.08,0.18`, fill: "none", stroke: "#4e4a22", "stroke-width": 0.04 });
  return svg("defs", {},
    tile("stk-wood", 1.6, "#4f7f36", tree(0.4, 0.4, 0.3, "#2f5a22"), tree(1.2, 1.1, 0.34, "#3a6a2a"), tree(1.25, 0.3, 0.2, "#2f5a22")),
    tile("stk-dense", 1, "#24461a", tree(0.25, 0.25, 0.26, "#1a3a12"), tree(0.75, 0.75, 0.28, "#2c5420")),
    tile("stk-village", 2, "#c9b48e", house(0.2, 0.3, 0.7, 0.45), house(1.2, 0.2, 0.45, 0.6), house(0.4, 1.2, 0.5, 0.5)),
    tile("stk-marsh", 1.2, "#7f9f78", svg("line", { x1: 0.1, y1: 0.3, x2: 0.5, y2: 0.3, stroke: "#3f7896", "stroke-width": 0.06 }), tuft(0.7, 0.35)),
    tile("stk-rough", 1, "#9a9a62", tuft(0.15, 0.35), tuft(0.6, 0.85)),
    tile("stk-unknown", 0.4, "#b8b8b8", svg("line", { x1: 0, y1: 0.4, x2: 0.4, y2: 0, stroke: "#7a7a7a", "stroke-width": 0.05 })),
  );
}
