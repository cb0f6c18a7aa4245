// The referee panel: a question in the rule set's JSON, posted to the server's referee, and the
// answer laid out as nested lists and tables. Example questions come from
// referee-examples.json (copies of scenarios/*/referee/).

import { el, button, ruleBadge, errorText } from "./dom.js";
import { postJson, getJson, ApiFailure } from "./net.js";

/** @typedef {Record<string, { name: string, question: unknown }[]>} Examples */

/** @type {Promise<Examples> | null} */
let examples = null;

/**
 * A referee panel for the rule sets that have one.
 * @param {string[]} rulesets
 * @param {string} [only] the one rule set to ask about (a game's)
 * @returns {HTMLElement}
 */
export function refereePanel(rulesets, only) {
  examples ??= /** @type {Promise<Examples>} */ (getJson("/referee-examples.json").catch(() => ({})));
  const which = el("select", { class: "referee-ruleset" }, ...rulesets.map((r) => el("option", { value: r, text: r })));
  if (only) which.value = only;
  const example = el("select", { class: "referee-example" });
  const question = el("textarea", { rows: 10, class: "referee-question", spellcheck: "false", placeholder: "The question, as JSON" });
  const answer = el("div", { class: "referee-answer" });
  const fill = async () => {
    const list = (await examples)?.[which.value] ?? [];
    example.replaceChildren(el("option", { value: "", text: list.length ? "— an example question —" : "(no examples)" }),
      ...list.map((e, i) => el("option", { value: String(i), text: e.name })));
  };
  example.addEventListener("change", async () => {
    const e = (await examples)?.[which.value]?.[Number(example.value)];
    if (example.value !== "" && e) question.value = JSON.stringify(e.question, null, 2);
  });
  which.addEventListener("change", fill);
  fill();
  const ask = async () => {
    answer.replaceChildren();
    /** @type {unknown} */
    let q;
    try {
      q = JSON.parse(question.value);
    } catch (e) {
      answer.replaceChildren(el("p", { class: "error", text: `The question is not JSON: ${errorText(e)}` }));
      return;
    }
    try {
      const a = await postJson(`/api/referee/${which.value}`, q);
      answer.replaceChildren(el("h4", { text: "The referee answers" }), jsonView(a));
    } catch (e) {
      const msg = e instanceof ApiFailure ? e.message : String(e);
      answer.replaceChildren(el("p", { class: "error", text: msg }));
    }
  };
  return el("div", { class: "referee" },
    el("p", {}, el("label", {}, "Rule set ", which), " ", el("label", {}, "Start from ", example)),
    question, el("p", {}, button("Ask the referee", ask, { class: "primary ask" })), answer);
}

/**
 * A JSON value laid out for reading: objects as definition lists, lists of like objects as
 * tables, other lists as numbered lists.
 * @param {unknown} v
 * @returns {Node}
 */
function jsonView(v) {
  if (v === null || v === undefined) return el("span", { class: "null", text: "—" });
  if (Array.isArray(v)) {
    if (v.length === 0) return el("span", { class: "null", text: "none" });
    const objects = v.every((x) => x && typeof x === "object" && !Array.isArray(x));
    if (objects) {
      const keys = [...new Set(v.flatMap((x) => Object.keys(x)))];
      if (keys.length <= 8) {
        return el("table", { class: "json" },
          el("thead", {}, el("tr", {}, ...keys.map((k) => el("th", { text: k.replace(/_/g, " ") })))),
          el("tbody", {}, ...v.map((x) => el("tr", {}, ...keys.map((k) => el("td", {}, jsonView(x[k])))))));
      }
    }
    return el("ol", { class: "json" }, ...v.map((x) => el("li", {}, jsonView(x))));
  }
  if (typeof v === "object") {
    const dl = el("dl", { class: "json" });
    for (const [k, x] of Object.entries(v)) dl.append(el("dt", { text: k.replace(/_/g, " ") }), el("dd", {}, jsonView(x)));
    return dl;
  }
  if (typeof v === "string" && RULE_ID.test(v)) return ruleBadge(v);
  return el("span", { class: typeof v, text: String(v) });
}

/** A rule ID, as the rule sets write them (`MOV-TER-02`, `WRG-ORD-01`). */
const RULE_ID = /^[A-Z][A-Z0-9]*(-[A-Z0-9]+)+$/;
