// Dragging pieces on the table. A press on a piece and a release without moving selects it; a
// drag moves a ghost of it (one transform a frame, coalesced by requestAnimationFrame, the rest
// of the drawing untouched):
//
// - Drag::free: each frame's point is sent to be measured, one request in flight at a time (the
//   latest point goes when the answer comes); the measured path is drawn green as far as the
//   allowance lasts and red beyond, with cost, allowance and notes. Shift turns the ghost to
//   face the pointer instead (its bearing goes with the measure). On release the drop point's
//   measurement decides: its action is performed, or its rule and reason are shown.
// - Drag::squares: the target squares are lit; dropping on one performs its action (several
//   actions for one square: the player chooses), anywhere else cancels.

import { pieceShape, subPath, pathLength, fmt, bearingOf, cellName } from "./table.js";
import { svg } from "./dom.js";

/** @typedef {import("./table.js").Table} Table */
/** @typedef {import("./table.js").Point} Point */
/** @typedef {import("./table.js").Piece} Piece */
/** @typedef {import("./view.js").View} View */
/** @typedef {import("./protocol").UnitControl} UnitControl */
/** @typedef {import("./protocol").Measurement} Measurement */
/** @typedef {import("./protocol").Action} Action */
/** @typedef {import("./protocol").SquareTarget} SquareTarget */
/** @typedef {{ x: number, y: number, bearing?: number }} Spot where a dragged unit would stand */

/**
 * What the drag needs from the page.
 * @typedef {object} DragHooks
 * @property {(unit: string) => UnitControl | undefined} control the unit's controls, if it may be commanded
 * @property {(unit: string | null) => void} select a piece was clicked (null: the background)
 * @property {(unit: string, spot: Spot) => void} measure ask the server to measure (answer through `measured`)
 * @property {(action: Action) => void} perform perform a dropped move's action
 * @property {(text: string) => void} refuse say why a drop does nothing
 * @property {(actions: Action[], clientX: number, clientY: number) => void} choose let the player pick one of a square's actions
 */

/** Pixels a press must move before it is a drag rather than a click. */
const THRESHOLD = 4;

export class Drags {
  /**
   * @param {Table} table
   * @param {View} view
   * @param {HTMLElement} readout where the measurement is written
   * @param {DragHooks} hooks
   */
  constructor(table, view, readout, hooks) {
    this.table = table;
    this.view = view;
    this.readout = readout;
    this.hooks = hooks;
    /** The press or drag under way, and the piece pressed. */
    /** @type {null | { pointer: number, unit: string, piece: Piece, startX: number, startY: number, grab: Point, origin: Point, facing: number, dragging: boolean, control?: UnitControl, ghost?: SVGGElement }} */
    this.press = null;
    /** The animation frame that will draw the drag, if one is asked for. */
    this.frame = 0;
    this.resetDrag();
    /** Moves put into the draft, drawn where they end until the draft starts afresh. */
    /** @type {Map<string, SVGGElement>} */
    this.plans = new Map();
    /** The lit target squares by "col,row". @type {Map<string, { rect: SVGRectElement, targets: SquareTarget[] }>} */
    this.squares = new Map();
    /** @type {string | null} */
    this.hovered = null;
    /** Where a press on the background began (a click there clears the selection). */
    /** @type {{ x: number, y: number } | null} */
    this.background = null;
    /** The measured path: green within the allowance, red beyond (updated in place). */
    this.within = svg("polyline", { class: "path-within", points: "" });
    this.beyond = svg("polyline", { class: "path-beyond", points: "" });
    /** Where each leg of a measured path of several legs ends (a liberal move's steps), numbered. */
    this.steps = svg("g", { class: "path-steps" });
    this.table.overlay.append(svg("g", { class: "measure" }, this.within, this.beyond, this.steps));
    const root = table.root;
    root.addEventListener("pointerdown", (ev) => this.down(ev));
    root.addEventListener("pointermove", (ev) => this.move(ev));
    root.addEventListener("pointerup", (ev) => this.up(ev));
    root.addEventListener("pointercancel", () => this.cancel());
    window.addEventListener("keydown", (ev) => {
      if (ev.key === "Escape") this.cancel();
      if (ev.key === "Shift") this.shift(true);
    });
    window.addEventListener("keyup", (ev) => { if (ev.key === "Shift") this.shift(false); });
  }

  /**
   * Shift pressed or let go mid-drag: the ghost turns (or moves) without waiting for the
   * pointer to move.
   * @param {boolean} held
   */
  shift(held) {
    if (!this.press?.dragging || !this.last) return;
    this.last = { ...this.last, shift: held };
    this.schedule();
  }

  /** Draws the last pointer position at the next animation frame (once, however many moves). */
  schedule() {
    if (!this.frame) this.frame = requestAnimationFrame(() => this.draw());
  }

  /**
   * The unit of the piece under an event's target, if any.
   * @param {EventTarget | null} target
   * @returns {string | null}
   */
  static unitAt(target) {
    const g = target instanceof Element ? target.closest("g.piece[data-unit]") : null;
    return g instanceof SVGGElement ? g.dataset.unit ?? null : null;
  }

  /** @param {PointerEvent} ev */
  down(ev) {
    if (ev.button !== 0) return;
    const unit = Drags.unitAt(ev.target);
    if (!unit) {
      this.background = { x: ev.clientX, y: ev.clientY };
      return;
    }
    const piece = this.table.pieceOf(unit);
    if (!piece) return;
    // A drag still under way (its drop awaiting a measurement, say) ends: its ghost goes, and
    // its late answer, for another unit, is ignored (see `measured`).
    if (this.press?.dragging) this.cancel();
    this.table.root.setPointerCapture(ev.pointerId);
    const at = this.view.toSvg(ev.clientX, ev.clientY);
    this.press = {
      pointer: ev.pointerId, unit, piece, startX: ev.clientX, startY: ev.clientY,
      grab: this.table.tablePoint(at.x, at.y), origin: piece.outline.centre,
      facing: bearingOf(piece.outline.facing), dragging: false,
    };
  }

  /** @param {PointerEvent} ev */
  move(ev) {
    const p = this.press;
    if (!p || ev.pointerId !== p.pointer) return;
    if (!p.dragging) {
      if (Math.hypot(ev.clientX - p.startX, ev.clientY - p.startY) < THRESHOLD) return;
      const control = this.hooks.control(p.unit);
      if (!control || control.drag.kind === "none") return;
      this.start(p, control);
    }
    this.last = { clientX: ev.clientX, clientY: ev.clientY, shift: ev.shiftKey };
    this.schedule();
  }

  /**
   * Starts dragging: the ghost, and the target squares of a grid drag.
   * @param {NonNullable<Drags["press"]>} p
   * @param {UnitControl} control
   */
  start(p, control) {
    this.resetDrag();
    p.dragging = true;
    p.control = control;
    this.hooks.select(p.unit);
    p.ghost = svg("g", { class: "ghost" });
    this.turnGhost(p.facing);
    this.placeGhost(p.origin);
    this.table.overlay.append(p.ghost);
    this.table.root.classList.add("dragging");
    this.spot = { x: p.origin.x, y: p.origin.y };
    if (control.drag.kind === "squares") this.lightSquares(control.drag.targets);
  }

  /** Draws the latest pointer position: one ghost transform, one square lit. */
  draw() {
    this.frame = 0;
    const p = this.press, e = this.last;
    if (!p?.ghost || !e || !this.spot) return;
    const at = this.view.toSvg(e.clientX, e.clientY);
    const t = this.table.tablePoint(at.x, at.y);
    /** @type {Spot} */
    let spot;
    if (e.shift && p.control?.drag.kind === "free") {
      // Turn to face the pointer, standing where it stands.
      const dx = t.x - this.spot.x, dy = t.y - this.spot.y;
      if (Math.hypot(dx, dy) < 0.2) return;
      spot = { x: this.spot.x, y: this.spot.y, bearing: Math.round(bearingOf({ x: dx, y: dy })) };
    } else {
      spot = { x: p.origin.x + t.x - p.grab.x, y: p.origin.y + t.y - p.grab.y };
      if (this.spot.bearing !== undefined) spot.bearing = this.spot.bearing;
    }
    if ((spot.bearing ?? p.facing) !== (this.spot.bearing ?? p.facing)) this.turnGhost(spot.bearing ?? p.facing);
    this.spot = spot;
    this.placeGhost(spot);
    if (p.control?.drag.kind === "free") this.ask(spot);
    else this.hover(spot);
  }

  /**
   * Draws the ghost's piece turned to a bearing, round the ghost's origin (only when it turns).
   * @param {number} bearing
   */
  turnGhost(bearing) {
    const p = this.press;
    if (p?.ghost) p.ghost.replaceChildren(pieceShape(p.piece, { x: 0, y: 0 }, bearing));
  }

  /**
   * Moves the ghost: one transform.
   * @param {Point} at a table point
   */
  placeGhost(at) {
    this.press?.ghost?.setAttribute("transform", `translate(${fmt(at.x)} ${fmt(this.table.height - at.y)})`);
  }

  /**
   * Asks for a spot's measurement, one request in flight.
   * @param {Spot} spot
   */
  ask(spot) {
    if (this.inFlight) {
      this.queued = spot;
      return;
    }
    this.inFlight = spot;
    this.queued = null;
    if (this.press) this.hooks.measure(this.press.unit, spot);
  }

  /**
   * The server's measurement of the spot in flight: drawn, the next spot sent, a waiting drop
   * decided. An answer for another unit than the one dragged (late, from a cancelled drag) is
   * ignored.
   * @param {Measurement | null} m
   */
  measured(m) {
    if (m && m.unit !== this.press?.unit) return;
    const spot = this.inFlight;
    this.inFlight = null;
    if (!spot || !this.press) return;
    this.answered = { spot, measurement: m };
    this.showMeasurement(m);
    if (this.queued) this.ask(this.queued);
    else if (this.dropAt) this.finishDrop();
  }

  /**
   * Draws a measured path, green within the allowance and red beyond, and writes the figures.
   * @param {Measurement | null} m
   */
  showMeasurement(m) {
    if (!m) {
      this.drawPath([], []);
      this.drawSteps([]);
      this.write(["no measurement: this unit cannot be dragged freely now"], false);
      return;
    }
    const total = pathLength(m.path);
    const within = Math.min(m.within, total);
    this.drawPath(subPath(m.path, 0, within), within < total - 1e-6 ? subPath(m.path, within, total) : []);
    this.drawSteps(m.path);
    const lines = [`${fmt(m.length)}″ measured · cost ${fmt(m.cost)}″ of ${fmt(m.allowance)}″`, ...m.notes];
    if (m.action) lines.push(`drop: ${m.action.label}`);
    else if (m.rule || m.reason) lines.push(`cannot end here: [${m.rule ?? "?"}] ${m.reason ?? ""}`);
    this.write(lines, !m.action && !!(m.rule || m.reason));
  }

  /**
   * Marks the ends of a path's legs when it has more than one (a move made in steps), each
   * numbered; a plain two-point path gets none.
   * @param {Point[]} path
   */
  drawSteps(path) {
    const marks = [];
    if (path.length > 2) {
      for (let i = 1; i < path.length; i++) {
        const p = path[i], y = this.table.height - p.y;
        marks.push(svg("g", { class: "path-step", "data-step": String(i) },
          svg("circle", { cx: fmt(p.x), cy: fmt(y), r: "0.35" }),
          svg("text", { x: fmt(p.x), y: fmt(y + 0.13) }, String(i))));
      }
    }
    this.steps.replaceChildren(...marks);
  }

  /**
   * Sets the measured path's two parts.
   * @param {Point[]} green
   * @param {Point[]} red
   */
  drawPath(green, red) {
    this.within.setAttribute("points", this.table.points(green));
    this.beyond.setAttribute("points", this.table.points(red));
  }

  /**
   * Writes the readout's lines, reusing its elements; the last marked as a refusal if `bad`.
   * @param {string[]} lines
   * @param {boolean} bad
   */
  write(lines, bad) {
    const r = this.readout;
    while (r.children.length > lines.length) r.lastElementChild?.remove();
    while (r.children.length < lines.length) r.append(document.createElement("div"));
    lines.forEach((l, i) => {
      const d = r.children[i];
      if (d.textContent !== l) d.textContent = l;
      d.className = bad && i === lines.length - 1 ? "bad" : "";
    });
    r.hidden = false;
  }

  /**
   * Lights the squares a grid drag may end on.
   * @param {SquareTarget[]} targets
   */
  lightSquares(targets) {
    const grid = this.table.scene?.grid;
    if (!grid) return;
    const c = grid.cell;
    for (const t of targets) {
      const key = `${t.col},${t.row}`;
      const known = this.squares.get(key);
      if (known) {
        known.targets.push(t);
        continue;
      }
      const rect = svg("rect", {
        class: "target", x: fmt(t.col * c), y: fmt(this.table.height - (t.row + 1) * c), width: fmt(c), height: fmt(c),
      }, svg("title", {}, cellName(t.col, t.row)));
      this.table.targets.append(rect);
      this.squares.set(key, { rect, targets: [t] });
    }
  }

  /**
   * The lit square under a spot, if any.
   * @param {Spot} spot
   */
  squareAt(spot) {
    const grid = this.table.scene?.grid;
    if (!grid) return null;
    const key = `${Math.floor(spot.x / grid.cell)},${Math.floor(spot.y / grid.cell)}`;
    return this.squares.has(key) ? key : null;
  }

  /**
   * Marks the square under the ghost.
   * @param {Spot} spot
   */
  hover(spot) {
    const key = this.squareAt(spot);
    if (key === this.hovered) return;
    if (this.hovered) this.squares.get(this.hovered)?.rect.classList.remove("hover");
    if (key) this.squares.get(key)?.rect.classList.add("hover");
    this.hovered = key;
  }

  /** @param {PointerEvent} ev */
  up(ev) {
    const b = this.background;
    this.background = null;
    if (b && Math.hypot(ev.clientX - b.x, ev.clientY - b.y) < THRESHOLD) this.hooks.select(null);
    const p = this.press;
    if (!p || ev.pointerId !== p.pointer) return;
    if (!p.dragging) {
      // A click selects; a press that moved without dragging (it panned) does not.
      this.press = null;
      if (Math.hypot(ev.clientX - p.startX, ev.clientY - p.startY) < THRESHOLD) this.hooks.select(p.unit);
      return;
    }
    if (this.frame) {
      cancelAnimationFrame(this.frame);
      this.draw();
    }
    const spot = this.spot;
    if (!spot) return this.cancel();
    if (p.control?.drag.kind === "squares") {
      const key = this.squareAt(spot);
      const targets = key ? this.squares.get(key)?.targets ?? [] : [];
      this.cancel();
      if (targets.length === 1) this.hooks.perform(targets[0].action);
      else if (targets.length > 1) this.hooks.choose(targets.map((t) => t.action), ev.clientX, ev.clientY);
      return;
    }
    this.dropAt = spot;
    if (!this.inFlight && this.answered?.spot !== spot) this.ask(spot);
    if (this.answered?.spot === spot && !this.inFlight) this.finishDrop();
  }

  /** Decides a free drop by its spot's measurement. */
  finishDrop() {
    const m = this.answered?.spot === this.dropAt ? this.answered?.measurement : undefined;
    const unit = this.press?.unit, spot = this.dropAt;
    this.cancel();
    if (m === undefined) return;
    if (m?.action?.effect.kind === "draft" && unit && spot) this.plan(unit, spot);
    if (m?.action) this.hooks.perform(m.action);
    else if (m) this.hooks.refuse(`[${m.rule ?? "?"}] ${m.reason ?? "the rules do not allow this move"}`);
    else this.hooks.refuse("this unit cannot be dragged freely now");
  }

  /**
   * Shows where a drafted move ends: the unit's piece there, outlined.
   * @param {string} unit
   * @param {Spot} spot
   */
  plan(unit, spot) {
    const piece = this.table.pieceOf(unit);
    if (!piece) return;
    this.plans.get(unit)?.remove();
    const g = pieceShape(piece, { x: spot.x, y: this.table.height - spot.y }, spot.bearing ?? bearingOf(piece.outline.facing));
    g.classList.add("planned");
    this.table.overlay.prepend(g);
    this.plans.set(unit, g);
  }

  /** Forgets the drafted moves' pieces. */
  clearPlans() {
    for (const g of this.plans.values()) g.remove();
    this.plans.clear();
  }

  /** Forgets the state of a drag: the pointer position, the ghost's spot, the measuring. */
  resetDrag() {
    /** The last pointer position of the drag, and whether Shift was held (drawn at the next frame). */
    /** @type {null | { clientX: number, clientY: number, shift: boolean }} */
    this.last = null;
    /** Where the ghost stands now. @type {Spot | null} */
    this.spot = null;
    /** Measuring: the spot whose answer is awaited, the next to send, the last answer. */
    /** @type {Spot | null} */ this.inFlight = null;
    /** @type {Spot | null} */ this.queued = null;
    /** @type {{ spot: Spot, measurement: Measurement | null } | null} */ this.answered = null;
    /** A drop waiting for its spot's measurement. @type {Spot | null} */
    this.dropAt = null;
  }

  /** Ends any drag: the ghost, the path, the lit squares go. */
  cancel() {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    this.press?.ghost?.remove();
    this.press = null;
    this.resetDrag();
    this.drawPath([], []);
    this.drawSteps([]);
    this.table.targets.replaceChildren();
    this.squares.clear();
    this.hovered = null;
    this.readout.hidden = true;
    this.table.root.classList.remove("dragging");
  }
}
