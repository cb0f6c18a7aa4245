// Pan and zoom of the table: the SVG's viewBox, moved by dragging the background and scaled
// by the wheel or the buttons round the cursor. The aspect is kept (preserveAspectRatio
// "xMidYMid meet"), so an inch is as long across the table as up it.

/** How far one zoom step scales. */
const STEP = 1.25;

export class View {
  /**
   * @param {SVGSVGElement} root
   * @param {() => { x: number, y: number, w: number, h: number }} extent the whole drawing
   * @param {SVGSVGElement[]} [linked] SVGs laid over `root` that show the same view
   */
  constructor(root, extent, linked = []) {
    this.root = root;
    this.extent = extent;
    this.svgs = [root, ...linked];
    this.box = { ...extent() };
    for (const s of this.svgs) s.setAttribute("preserveAspectRatio", "xMidYMid meet");
    this.apply();
    root.addEventListener("wheel", (ev) => {
      ev.preventDefault();
      this.zoom(ev.deltaY < 0 ? STEP : 1 / STEP, this.toSvg(ev.clientX, ev.clientY));
    }, { passive: false });
  }

  /** Shows the whole table. */
  fit() {
    this.box = { ...this.extent() };
    this.apply();
  }

  /**
   * Zooms by a factor round an SVG point (the centre of the view if none).
   * @param {number} factor above 1 zooms in
   * @param {{ x: number, y: number }} [about]
   */
  zoom(factor, about) {
    const b = this.box;
    const full = this.extent();
    const w = Math.min(full.w * 4, Math.max(full.w / 40, b.w / factor));
    const k = w / b.w;
    const c = about ?? { x: b.x + b.w / 2, y: b.y + b.h / 2 };
    this.box = { x: c.x - (c.x - b.x) * k, y: c.y - (c.y - b.y) * k, w, h: b.h * k };
    this.apply();
  }

  /**
   * Pans by a distance in screen pixels.
   * @param {number} dx
   * @param {number} dy
   */
  panPixels(dx, dy) {
    const s = this.scale();
    this.box.x -= dx / s;
    this.box.y -= dy / s;
    this.apply();
  }

  /** Screen pixels per SVG unit (the same both ways, the aspect being kept). */
  scale() {
    const r = this.root.getBoundingClientRect();
    return Math.min(r.width / this.box.w, r.height / this.box.h) || 1;
  }

  /**
   * A screen point in SVG coordinates.
   * @param {number} clientX
   * @param {number} clientY
   * @returns {{ x: number, y: number }}
   */
  toSvg(clientX, clientY) {
    const m = this.root.getScreenCTM();
    if (!m) return { x: 0, y: 0 };
    const p = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
    return { x: p.x, y: p.y };
  }

  /** Sets the viewBox. */
  apply() {
    const b = this.box;
    for (const s of this.svgs) s.setAttribute("viewBox", `${b.x} ${b.y} ${b.w} ${b.h}`);
  }

  /**
   * Lets the background be dragged to pan: a pointer pressed where `canPan` allows.
   * @param {(target: EventTarget | null) => boolean} canPan
   */
  enablePanning(canPan) {
    /** @type {{ id: number, x: number, y: number } | null} */
    let drag = null;
    this.root.addEventListener("pointerdown", (ev) => {
      if (ev.button !== 0 || !canPan(ev.target)) return;
      drag = { id: ev.pointerId, x: ev.clientX, y: ev.clientY };
      this.root.setPointerCapture(ev.pointerId);
      this.root.classList.add("panning");
    });
    this.root.addEventListener("pointermove", (ev) => {
      if (!drag || ev.pointerId !== drag.id) return;
      this.panPixels(ev.clientX - drag.x, ev.clientY - drag.y);
      drag.x = ev.clientX;
      drag.y = ev.clientY;
    });
    const end = (/** @type {PointerEvent} */ ev) => {
      if (drag && ev.pointerId === drag.id) {
        drag = null;
        this.root.classList.remove("panning");
      }
    };
    this.root.addEventListener("pointerup", end);
    this.root.addEventListener("pointercancel", end);
  }
}
