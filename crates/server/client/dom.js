// Small DOM helpers shared by the client's modules. Everything the server sends goes into the
// page as text (textContent, attributes), never as HTML.

/** The SVG namespace. */
const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * The element with this ID; throws if the page lacks it (a bug, not a user error).
 * @param {string} id
 * @returns {HTMLElement}
 */
export function $(id) {
  const e = document.getElementById(id);
  if (!e) throw new Error(`the page has no #${id}`);
  return e;
}

/**
 * An HTML element with attributes (`class`, `title`, `data-*` … set as attributes; `text`
 * as its text) and children.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string | number | boolean | undefined>} [attrs]
 * @param {...(Node | string)} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (k === "text") e.textContent = String(v);
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  e.append(...children);
  return e;
}

/**
 * An SVG element with attributes.
 * @template {keyof SVGElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string | number | undefined>} [attrs]
 * @param {...(Node | string)} children
 * @returns {SVGElementTagNameMap[K]}
 */
export function svg(tag, attrs = {}, ...children) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined) e.setAttribute(k, String(v));
  }
  e.append(...children);
  return e;
}

/**
 * A rule ID as a badge.
 * @param {string} rule
 * @returns {HTMLElement}
 */
export function ruleBadge(rule) {
  return el("span", { class: "rule", text: rule, title: `rule ${rule}` });
}

/**
 * An error's sentence: an Error's message, anything else thrown as a string.
 * @param {unknown} e
 * @returns {string}
 */
export function errorText(e) {
  return e instanceof Error ? e.message : String(e);
}

/**
 * A button that runs `onClick`.
 * @param {string} label
 * @param {() => void} onClick
 * @param {Record<string, string | number | boolean | undefined>} [attrs]
 * @returns {HTMLButtonElement}
 */
export function button(label, onClick, attrs = {}) {
  const b = el("button", { type: "button", ...attrs, text: label });
  b.addEventListener("click", onClick);
  return b;
}
