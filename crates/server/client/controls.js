// The side's controls: what it is deciding, the selected unit's allowance and menu, the
// actions of no one unit, and the command being drafted with the button that sends it.

import { el, button, ruleBadge } from "./dom.js";
import { applyDraft, describe } from "./draft.js";

/** @typedef {import("./protocol").Controls} Controls */
/** @typedef {import("./protocol").UnitControl} UnitControl */
/** @typedef {import("./protocol").Action} Action */

/**
 * A menu of actions: a button each, labelled by the action, with its rule IDs as badges.
 * @param {Action[]} actions
 * @param {(a: Action) => void} choose
 * @returns {HTMLElement}
 */
export function menu(actions, choose) {
  const list = el("div", { class: "menu" });
  for (const a of actions) {
    const b = el("button", { type: "button", class: `action ${a.effect.kind}`, title: a.rules.join(" ") },
      el("span", { class: "label", text: a.label }), ...a.rules.map(ruleBadge));
    b.addEventListener("click", () => choose(a));
    list.append(b);
  }
  return list;
}

export class ControlsPanel {
  /**
   * @param {HTMLElement} root the panel
   * @param {(command: unknown) => void} send sends a command made against the current version
   * @param {(unit: string | null) => void} onSelect told when the selection changes
   * @param {() => void} onDraftReset told when the draft starts afresh
   */
  constructor(root, send, onSelect, onDraftReset) {
    this.root = root;
    this.send = send;
    this.onSelect = onSelect;
    this.onDraftReset = onDraftReset;
    /** @type {Controls | null} */
    this.controls = null;
    /** The controls' units by unit id. @type {Map<string, UnitControl>} */
    this.units = new Map();
    this.version = -1;
    /** @type {string | null} */
    this.selected = null;
    /** The draft command and the choices put into it, by what they replaced. */
    /** @type {unknown} */
    this.draft = null;
    /** @type {Map<string, string>} */
    this.choices = new Map();
  }

  /**
   * New controls; a new version starts a fresh draft.
   * @param {number} version
   * @param {Controls} controls
   */
  update(version, controls) {
    const fresh = version !== this.version || !this.controls?.draft !== !controls.draft;
    this.version = version;
    this.controls = controls;
    this.units = new Map(controls.units.map((u) => [u.unit, u]));
    if (fresh) this.resetDraft();
    if (this.selected && !this.control(this.selected)) this.selected = null;
    this.render();
  }

  /**
   * The controls of a unit, if the side may command it now.
   * @param {string} unit
   * @returns {UnitControl | undefined}
   */
  control(unit) {
    return this.units.get(unit);
  }

  /** Starts the draft afresh from the controls' command (none if they draft nothing). */
  resetDraft() {
    const d = this.controls?.draft;
    this.draft = d ? structuredClone(d.command) : null;
    this.choices.clear();
    this.onDraftReset();
  }

  /**
   * Selects a unit (its menu shows), or none.
   * @param {string | null} unit
   */
  select(unit) {
    this.selected = unit && this.control(unit) ? unit : null;
    this.onSelect(this.selected);
    this.render();
  }

  /**
   * Performs an action: sends its command, or puts its part into the draft.
   * @param {Action} action
   */
  perform(action) {
    const effect = action.effect;
    if (effect.kind === "send") {
      this.send(effect.command);
      return;
    }
    this.draft = applyDraft(this.draft, effect);
    // A part set over parts put inside it (a unit's whole order over its formation) replaces
    // them: their choices go from the list too.
    for (const k of [...this.choices.keys()]) if (k.startsWith(`${effect.at}/`)) this.choices.delete(k);
    const who = this.selected ? this.control(this.selected)?.label : undefined;
    const id = effect.key && effect.value && typeof effect.value === "object"
      ? JSON.stringify(/** @type {Record<string, unknown>} */ (effect.value)[effect.key]) : "";
    const named = !who || action.label.startsWith(who);
    this.choices.set(`${effect.at}|${id}`, named ? action.label : `${who}: ${action.label}`);
    this.render();
  }

  /** Draws the panel. */
  render() {
    const c = this.controls;
    if (!c) return this.root.replaceChildren();
    /** @type {HTMLElement[]} */
    const parts = [el("p", { class: "prompt", text: c.prompt || "Waiting for the other side." })];
    const unit = this.selected ? this.control(this.selected) : undefined;
    if (unit) {
      const how = unit.drag.kind === "free" ? "drag it on the table (Shift turns it)"
        : unit.drag.kind === "squares" ? "drag it to a lit square" : "";
      parts.push(el("section", { class: "unit", "data-unit": unit.unit },
        el("h3", { text: unit.label }),
        el("p", { class: "allowance", text: unit.allowance_text }),
        ...(how ? [el("p", { class: "hint", text: how })] : []),
        unit.actions.length ? menu(unit.actions, (a) => this.perform(a)) : el("p", { class: "hint", text: "no other action now" })));
    } else if (c.units.length) {
      parts.push(el("p", { class: "hint", text: `Click one of your ${c.units.length} unit${c.units.length === 1 ? "" : "s"} that may act (outlined) to see its allowance and orders.` }));
    }
    if (c.actions.length) {
      parts.push(el("section", { class: "global" }, el("h3", { text: "Actions" }), menu(c.actions, (a) => this.perform(a))));
    }
    if (c.draft) parts.push(this.draftSection(c.draft));
    this.root.replaceChildren(...parts);
  }

  /**
   * The draft: the choices made, the command as it stands, and the button that sends it.
   * @param {import("./protocol").Draft} d
   */
  draftSection(d) {
    /** @type {HTMLElement[]} */
    const rows = [];
    const draft = this.draft;
    if (draft && typeof draft === "object" && !Array.isArray(draft)) {
      for (const [field, value] of Object.entries(draft)) {
        if (Array.isArray(value)) {
          for (const entry of value) {
            const id = entry && typeof entry === "object" && "unit" in entry ? String(entry.unit) : null;
            const rest = id === null ? entry : Object.fromEntries(Object.entries(entry).filter(([k]) => k !== "unit"));
            rows.push(el("li", {}, el("b", { text: id === null ? field : this.units.get(id)?.label ?? `unit ${id}` }), ` ${describe(rest)}`));
          }
        } else {
          rows.push(el("li", {}, el("b", { text: field }), ` ${describe(value)}`));
        }
      }
    }
    return el("section", { class: "draft" },
      el("h3", { text: d.label }, ...d.rules.map(ruleBadge)),
      this.choices.size ? el("ul", { class: "choices" }, ...[...this.choices.values()].map((t) => el("li", { text: t }))) : el("p", { class: "hint", text: "No choice made yet: pick from a unit's menu." }),
      el("details", {}, el("summary", { text: "The command as it stands" }), el("ul", { class: "draft-parts" }, ...rows)),
      el("p", {},
        button(d.label, () => this.send(this.draft), { class: "primary send-draft" }),
        " ",
        button("Start again", () => {
          this.resetDraft();
          this.render();
        })));
  }
}
