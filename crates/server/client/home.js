// The home page: pick a rule set and a ready scenario (or upload a scenario file), make each
// side a person or one of the rule set's bots, create the game and hand out its links; or play
// against the computer straight away; and ask the referees.

import { $, el, button } from "./dom.js";
import { getJson, postJson, ApiFailure } from "./net.js";
import { refereePanel } from "./referee.js";

/** @typedef {import("./protocol").RuleSetEntry} RuleSetEntry */
/** @typedef {import("./protocol").CreateGame} CreateGame */
/** @typedef {import("./protocol").Created} Created */

/** Shows the home page. */
export async function home() {
  $("home").hidden = false;
  const sets = /** @type {RuleSetEntry[]} */ (await getJson("/api/rulesets"));
  const ruleset = /** @type {HTMLSelectElement} */ ($("ruleset"));
  const scenario = /** @type {HTMLSelectElement} */ ($("scenario"));
  const red = /** @type {HTMLSelectElement} */ ($("red"));
  const blue = /** @type {HTMLSelectElement} */ ($("blue"));
  const mySide = /** @type {HTMLSelectElement} */ ($("my-side"));
  const opponent = /** @type {HTMLSelectElement} */ ($("opponent"));
  const upload = /** @type {HTMLTextAreaElement} */ ($("upload"));
  const file = /** @type {HTMLInputElement} */ ($("file"));
  const source = () => /** @type {HTMLInputElement} */ ($("use-upload")).checked ? "upload" : "ready";

  ruleset.replaceChildren(...sets.map((r) => el("option", { value: r.id, text: `${r.id} (version ${r.version})` })));
  const current = () => sets.find((r) => r.id === ruleset.value) ?? sets[0];
  const fill = () => {
    const r = current();
    if (!r) return;
    scenario.replaceChildren(...r.scenarios.map((s) => el("option", { value: s.name, title: s.about, text: s.name })));
    $("scenario-about").textContent = r.scenarios[0]?.about ?? "";
    const bots = r.bots.map((b) => el("option", { value: b.name, title: b.about, text: `computer: ${b.name}` }));
    for (const sel of [red, blue]) sel.replaceChildren(el("option", { value: "human", text: "a person (secret link)" }), ...bots.map((b) => b.cloneNode(true)));
    opponent.replaceChildren(...bots);
    const scripted = r.bots.find((b) => b.name === "scripted");
    if (scripted) opponent.value = scripted.name;
    $("bots-about").replaceChildren(...r.bots.map((b) => el("li", {}, el("b", { text: b.name }), ` ${b.about}`)));
  };
  ruleset.addEventListener("change", fill);
  scenario.addEventListener("change", () => {
    $("scenario-about").textContent = current()?.scenarios.find((s) => s.name === scenario.value)?.about ?? "";
    /** @type {HTMLInputElement} */ ($("use-ready")).checked = true;
  });
  upload.addEventListener("input", () => { /** @type {HTMLInputElement} */ ($("use-upload")).checked = true; });
  fill();
  file.addEventListener("change", async () => {
    const f = file.files?.[0];
    if (!f) return;
    upload.value = await f.text();
    upload.dataset.name = f.name;
    /** @type {HTMLInputElement} */ ($("use-upload")).checked = true;
  });

  /**
   * The request for a game with these players.
   * @param {string} r red's player
   * @param {string} b blue's player
   * @returns {CreateGame}
   */
  const request = (r, b) => source() === "upload"
    ? { scenario_text: upload.value, scenario_file: upload.dataset.name || "upload.toml", red: r, blue: b }
    : { ruleset: ruleset.value, scenario: scenario.value, red: r, blue: b };

  /**
   * Creates a game, showing the server's problems with the scenario if it refuses.
   * @param {CreateGame} req
   * @returns {Promise<Created | null>}
   */
  const create = async (req) => {
    const problems = $("create-error");
    problems.replaceChildren();
    try {
      return /** @type {Created} */ (await postJson("/api/games", req));
    } catch (e) {
      const f = e instanceof ApiFailure ? e : new ApiFailure(0, String(e), []);
      problems.append(el("p", { text: f.message }));
      if (f.diagnostics.length) problems.append(el("ul", { class: "diagnostics" }, ...f.diagnostics.map((d) => el("li", { text: d }))));
      return null;
    }
  };

  $("create").addEventListener("click", async () => {
    const g = await create(request(red.value, blue.value));
    if (g) showLinks(g);
  });
  $("play-computer").addEventListener("click", async () => {
    const me = mySide.value, bot = opponent.value;
    const g = await create(me === "red" ? request("human", bot) : request(bot, "human"));
    const seat = g?.seats.find((s) => s.side === me);
    if (seat) location.assign(seat.link);
  });

  const referees = sets.filter((r) => r.referee).map((r) => r.id);
  if (referees.length) $("referee").replaceChildren(refereePanel(referees));
  else $("referee-section").hidden = true;
}

/**
 * The links of a new game: one secret link per person, and the spectators' link.
 * @param {Created} g
 */
function showLinks(g) {
  const link = (/** @type {string} */ href) => {
    const url = new URL(href, location.origin).href;
    const a = el("a", { href: url, text: url, target: "_blank", rel: "noopener" });
    const copy = button("copy", () => navigator.clipboard?.writeText(url));
    return el("span", {}, a, " ", copy);
  };
  $("created").replaceChildren(
    el("h3", { text: "Game created" }),
    el("ul", {},
      ...g.seats.map((s) => el("li", { class: `seat ${s.side}`, "data-side": s.side },
        el("b", { text: `${s.side}: ` }), link(s.link), el("div", { class: "hint", text: "secret: whoever opens it commands this side" }))),
      el("li", { class: "spectator" }, el("b", { text: "spectators: " }), link(g.spectator))),
  );
}
