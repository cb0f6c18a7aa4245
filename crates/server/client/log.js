// The battle log: the lines the server narrates, every die with its rule, the rule IDs shown as
// badges; and the client's own notes (refusals, errors) among them.

import { el, ruleBadge } from "./dom.js";

/** @typedef {import("./protocol").LogEntry} LogEntry */

export class BattleLog {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.root = root;
    /** How many of the server's lines are drawn. */
    this.count = 0;
  }

  /**
   * The lines of a state: the first `from` kept, these after them (an undo shortens the log).
   * @param {number} from
   * @param {LogEntry[]} lines
   */
  update(from, lines) {
    const keep = Math.min(from, this.count);
    this.count = keep + lines.length;
    // Drop the drawn lines past `keep` (the client's notes after them go too), then add.
    const drawn = [...this.root.children];
    let server = 0;
    for (const node of drawn) {
      if (node.classList.contains("line")) server++;
      if (server > keep) node.remove();
    }
    for (const l of lines) this.root.append(line(l));
    this.scroll();
  }

  /**
   * A note of the client's own (a refusal, an error), among the lines.
   * @param {string} text
   * @param {string} [rule]
   */
  note(text, rule) {
    this.root.append(el("div", { class: "note" }, ...(rule ? [ruleBadge(rule)] : []), el("span", { text })));
    this.scroll();
  }

  /** Keeps the newest line in sight. */
  scroll() {
    this.root.scrollTop = this.root.scrollHeight;
  }
}

/**
 * One log line: its rule badges and its text, the leading bracketed rule IDs (which the badges
 * show) left out.
 * @param {LogEntry} l
 * @returns {HTMLElement}
 */
function line(l) {
  const text = l.rules.length ? l.text.replace(/^\s*(\[[^\]]*\]\s*)+/, "") : l.text;
  return el("div", { class: "line" }, el("span", { class: "rules" }, ...l.rules.map(ruleBadge)), el("span", { class: "text", text }));
}
