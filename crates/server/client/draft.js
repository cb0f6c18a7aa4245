// The command being drafted (WRG's written orders, a period's plan): parts put into it at JSON
// pointers by the menus' draft effects, shown to the player, sent whole.

/** @typedef {import("./protocol").Effect} Effect */
/** @typedef {Extract<Effect, { kind: "draft" }>} DraftEffect */

/**
 * The keys of a JSON pointer (RFC 6901).
 * @param {string} pointer
 * @returns {string[]}
 */
export function pointerKeys(pointer) {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) throw new Error(`not a JSON pointer: ${pointer}`);
  return pointer.slice(1).split("/").map((k) => k.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/**
 * The draft with a part put in (the given draft is not changed), as the server's rule sets put
 * it: where `at` names an array and `key` is given, the entry whose value[key] equals the
 * value's is replaced, or the value appended (a value that is not an object, or has no `key`
 * field, names no entry and changes nothing, as the server's `apply_draft` in
 * crates/tabletop/src/controls.rs has it); otherwise the value at `at` is set (a field missing
 * from an existing object is added). A pointer into nothing leaves the draft as it was.
 * @param {unknown} draft
 * @param {DraftEffect} effect
 * @returns {unknown}
 */
export function applyDraft(draft, effect) {
  const root = structuredClone(draft);
  const keys = pointerKeys(effect.at);
  const value = structuredClone(effect.value);
  if (keys.length === 0) return value;
  /** @type {any} */
  let parent = root;
  for (const k of keys.slice(0, -1)) {
    if (parent === null || typeof parent !== "object" || !(k in parent)) return root;
    parent = parent[k];
  }
  if (parent === null || typeof parent !== "object") return root;
  const last = keys[keys.length - 1];
  const slot = parent[last];
  const key = effect.key;
  if (Array.isArray(slot) && key !== undefined && key !== null) {
    if (!isObject(value) || !Object.hasOwn(value, key)) return root;
    const id = value[key];
    const at = slot.findIndex((e) => isObject(e) && Object.hasOwn(e, key) && sameJson(e[key], id));
    if (at >= 0) slot[at] = value;
    else slot.push(value);
  } else {
    parent[last] = value;
  }
  return root;
}

/**
 * Whether a JSON value is an object (not null, not an array).
 * @param {unknown} v
 * @returns {v is Record<string, unknown>}
 */
function isObject(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/**
 * Whether two JSON values are equal.
 * @param {unknown} a
 * @param {unknown} b
 */
function sameJson(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * A JSON value in words for the draft panel: `key: value` pairs, lists joined, nested objects
 * in parentheses; enough to read an order (`unit: 3, order: (kind: charge, target: 5)`).
 * @param {unknown} v
 * @returns {string}
 */
export function describe(v) {
  if (v === null || v === undefined) return "—";
  if (Array.isArray(v)) return v.length ? v.map(describe).join("; ") : "none";
  if (typeof v === "object") {
    return Object.entries(v).map(([k, x]) => {
      const inner = describe(x);
      return x !== null && typeof x === "object" && !Array.isArray(x) ? `${k}: (${inner})` : `${k}: ${inner}`;
    }).join(", ");
  }
  return String(v);
}
