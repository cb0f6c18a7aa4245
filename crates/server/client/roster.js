// The roster sheet: one row a unit, the viewer's own side in full, the other as far as the
// rules let it see, grouped by side.

import { el } from "./dom.js";

/** @typedef {import("./protocol").RosterRow} RosterRow */

/**
 * Draws the roster into `root`.
 * @param {HTMLElement} root
 * @param {RosterRow[]} rows
 * @param {string | null} own the viewer's side, listed first
 */
export function drawRoster(root, rows, own) {
  if (rows.length === 0) {
    root.replaceChildren(el("p", { class: "hint", text: "This rule set keeps no roster sheet." }));
    return;
  }
  // The viewer's own side first, then red before blue.
  const rank = (/** @type {string} */ side) => (side === own ? 0 : side === "red" ? 1 : 2);
  const sides = [...new Set(rows.map((r) => r.side))].sort((a, b) => rank(a) - rank(b));
  const tables = sides.map((side) => {
    const head = el("tr", {}, ...["unit", "type", "strength", "losses", "state"].map((h) => el("th", { text: h })));
    const body = rows.filter((r) => r.side === side).map((r) => el("tr", { "data-unit": r.unit },
      el("td", { text: r.label }), el("td", { text: r.kind }), el("td", { text: r.strength, class: "num" }),
      el("td", { text: r.losses, class: "num" }), el("td", { text: r.state })));
    return el("table", { class: `roster ${side}` },
      el("caption", { text: side === own ? `${side} (yours)` : side }), el("thead", {}, head), el("tbody", {}, ...body));
  });
  root.replaceChildren(...tables);
}
