// The game page (`/game/{id}#token=…`): the table, the side's controls, the battle log, the
// roster sheet and undo, over the game connection. A spectator (no token) sees everything but
// the controls.

import { $, el, button, errorText } from "./dom.js";
import { GameConnection, getJson } from "./net.js";
import { Table } from "./table.js";
import { View } from "./view.js";
import { Drags } from "./drag.js";
import { ControlsPanel, menu } from "./controls.js";
import { BattleLog } from "./log.js";
import { drawRoster } from "./roster.js";
import { replayLink } from "./replay.js";
import { refereePanel } from "./referee.js";
import { ClockPanel } from "./clock.js";

/** @typedef {import("./protocol").ServerMessage} ServerMessage */
/** @typedef {import("./protocol").PendingInfo} PendingInfo */
/** @typedef {import("./protocol").Role} Role */
/** @typedef {import("./protocol").Action} Action */
/** @typedef {import("./protocol").JsonValue} JsonValue */
/** @typedef {import("./protocol").RuleSetEntry} RuleSetEntry */
/** @typedef {import("./table.js").Scene} Scene */

/**
 * Opens game `id`, commanding the side of `token` (or watching without one).
 * @param {string} id
 * @param {string | null} token
 */
export function game(id, token) {
  $("game").hidden = false;
  const root = /** @type {SVGSVGElement} */ (/** @type {unknown} */ ($("table")));
  const table = new Table(root);
  const view = new View(root, () => table.extent(), [table.top]);
  const log = new BattleLog($("log"));
  /** @type {Role} */
  let role = "spectator";
  let version = 0;
  let over = false;
  let scenarioName = "";
  /** @type {ClockPanel | null} */
  let clock = null;

  const conn = new GameConnection(id, token, receive, (open) => {
    $("connection").textContent = open ? "connected" : "reconnecting…";
    $("connection").className = open ? "ok" : "bad";
  });
  /** @param {import("./protocol").ClientMessage} m */
  const send = (m) => conn.send(m);
  /** @param {unknown} command */
  const command = (command) => {
    clearMessage();
    send({ type: "command", version, command: /** @type {JsonValue} */ (command) });
  };

  const panel = new ControlsPanel($("controls"), command, (unit) => decorate(unit), () => drags.clearPlans());
  /**
   * The unit's controls, if this page may command it (a spectator commands nothing).
   * @param {string} unit
   */
  const control = (unit) => (role === "spectator" ? undefined : panel.control(unit));
  const drags = new Drags(table, view, $("measure"), {
    control,
    select: (unit) => panel.select(unit),
    measure: (unit, spot) => send({ type: "measure", version, unit, ...spot }),
    perform: (action) => panel.perform(action),
    refuse: (text) => showMessage(`cannot move there: ${text}`, "refused"),
    choose: (actions, x, y) => chooser(actions, x, y, (a) => panel.perform(a)),
  });
  // The background pans, and so does a piece that cannot be dragged now.
  view.enablePanning((target) => {
    const unit = Drags.unitAt(target);
    return unit === null || (control(unit)?.drag.kind ?? "none") === "none";
  });

  $("zoom-buttons").replaceChildren(
    button("+", () => view.zoom(1.25), { title: "zoom in", class: "zoom-in" }),
    button("−", () => view.zoom(0.8), { title: "zoom out", class: "zoom-out" }),
    button("fit", () => view.fit(), { title: "the whole table" }),
  );
  $("undo").addEventListener("click", () => { clearMessage(); send({ type: "undo", version }); });
  $("sync").addEventListener("click", () => send({ type: "sync" }));
  // For rule designers and umpires: any command typed as the rule set's JSON (as in records);
  // the server checks it like any other and refuses it with the rule that forbids it.
  $("typed-send").addEventListener("click", () => {
    const text = /** @type {HTMLTextAreaElement} */ ($("typed-command")).value;
    let typed;
    try {
      typed = JSON.parse(text);
    } catch (e) {
      showMessage(`not JSON: ${errorText(e)}`, "error");
      return;
    }
    command(typed);
  });

  /**
   * Marks the pieces the side may command, and the selected one.
   * @param {string | null} selected
   */
  function decorate(selected = panel.selected) {
    for (const [unit, g] of table.pieces) {
      g.classList.toggle("commandable", !!panel.control(unit));
      g.classList.toggle("selected", unit === selected);
    }
  }

  /** @param {ServerMessage} m */
  function receive(m) {
    switch (m.type) {
      case "welcome": {
        role = m.role;
        $("title").textContent = `${m.game.ruleset}: ${m.game.scenario_name}`;
        scenarioName = m.game.scenario_name;
        $("role").textContent = role === "spectator" ? "watching" : `you command ${role}`;
        $("role").className = `role ${role}`;
        $("side-panel").hidden = role === "spectator";
        clock = new ClockPanel($("clock"), command, role !== "spectator");
        addReferee(m.game.ruleset);
        break;
      }
      case "state": {
        const changed = m.version !== version;
        version = m.version;
        log.update(m.log_from, m.lines);
        $("status").textContent = status(m.pending, m.turn, role);
        document.title = tabTitle(m.pending, role, scenarioName);
        /** @type {HTMLButtonElement} */ ($("undo")).disabled = !m.can_undo;
        $("version").textContent = `version ${m.version}`;
        if (m.outcome && !over) {
          over = true;
          $("outcome").replaceChildren(
            el("b", { text: m.outcome.winner ? `${m.outcome.winner} wins` : "a draw" }), `: ${m.outcome.reason} `,
            replayLink(id), " ", el("a", { href: `/api/games/${id}/record`, download: `strategikon-${id}.json`, text: "download the record" }));
        }
        clock?.update(m.clock);
        // In a timed window the state moves on as steps land: a drag goes on over it.
        if (changed && !m.clock) drags.cancel();
        send({ type: "scene" });
        send({ type: "roster" });
        if (role !== "spectator") send({ type: "controls" });
        break;
      }
      case "scene": {
        const scene = /** @type {Scene} */ (/** @type {unknown} */ (m.scene));
        if (table.draw(scene)) view.fit();
        decorate();
        // Stands the rules hold fast (frozen in contact) are marked.
        for (const p of scene.pieces) {
          if (p.id && /\bfrozen\b/.test(p.detail)) table.pieces.get(p.id)?.classList.add("frozen");
        }
        // Which state the table shows (tests and scripts wait for it to catch up).
        $("table").dataset.version = String(m.version);
        break;
      }
      case "clock":
        clock?.update(m.clock, m.note);
        if (m.note) log.note(`clock: ${m.note}`);
        break;
      case "ping":
        send({ type: "pong", t: m.t });
        break;
      case "controls":
        if (m.version === version) {
          panel.update(m.version, m.controls);
          decorate();
          $("controls").dataset.version = String(m.version);
        }
        break;
      case "measured":
        drags.measured(m.measurement);
        break;
      case "roster":
        drawRoster($("roster"), m.rows, role === "spectator" ? null : role);
        break;
      case "refused":
        showMessage(`[${m.rule}] ${m.reason}`, "refused", m.rule);
        drags.cancel();
        break;
      case "error":
        showMessage(`${m.code}: ${m.message}`, "error");
        drags.cancel();
        if (m.code === "stale") send({ type: "sync" });
        break;
    }
  }

  /**
   * Shows a refusal or an error above the table, and notes it in the log.
   * @param {string} text
   * @param {"refused" | "error"} kind
   * @param {string} [rule]
   */
  function showMessage(text, kind, rule) {
    const box = $("message");
    box.className = `message ${kind}`;
    box.replaceChildren(el("b", { text: kind === "refused" ? "Refused " : "Error " }), el("span", { class: "text", text }));
    box.hidden = false;
    log.note(`${kind}: ${text}`, rule);
  }

  function clearMessage() {
    $("message").hidden = true;
  }

  /** @param {string} ruleset */
  async function addReferee(ruleset) {
    const sets = /** @type {RuleSetEntry[]} */ (await getJson("/api/rulesets").catch(() => []));
    if (sets.find((r) => r.id === ruleset)?.referee) {
      $("game-referee").hidden = false;
      $("game-referee-body").replaceChildren(refereePanel([ruleset], ruleset));
    }
  }
}

/**
 * The tab's title: whether it is this browser's move, so a player in another tab sees it.
 * @param {PendingInfo} p
 * @param {Role} role
 * @param {string} scenario
 */
function tabTitle(p, role, scenario) {
  const name = scenario ? `${scenario} — Strategikon` : "Strategikon";
  if (p.kind === "over") return `Battle over — ${name}`;
  const sides = p.kind === "side" ? [p.side] : p.kind === "both" ? p.waiting : p.sides;
  return sides.some((s) => s === role) ? `▶ Your move — ${name}` : name;
}

/**
 * Who must decide what, in words.
 * @param {PendingInfo} p
 * @param {number | null} turn
 * @param {Role} role
 */
function status(p, turn, role) {
  const you = (/** @type {string} */ side) => (side === role ? `${side} (you)` : side);
  const head = turn !== null ? `Turn ${turn}. ` : "";
  switch (p.kind) {
    case "side": return `${head}${you(p.side)} to act: ${p.what}`;
    case "both": return `${head}waiting for ${p.waiting.map(you).join(" and ")}: ${p.what}`;
    case "timed": return `${head}${p.sides.map(you).join(" and ")} may act: ${p.what}`;
    case "over": return `${head}The battle is over.`;
  }
}

/**
 * A small menu at the pointer to choose one of a square's actions.
 * @param {Action[]} actions
 * @param {number} x
 * @param {number} y
 * @param {(a: Action) => void} choose
 */
function chooser(actions, x, y, choose) {
  document.querySelector(".chooser")?.remove();
  const box = el("div", { class: "chooser", style: `left:${x}px;top:${y}px` });
  const close = () => {
    box.remove();
    document.removeEventListener("pointerdown", outside, true);
  };
  const outside = (/** @type {Event} */ ev) => { if (!(ev.target instanceof Node && box.contains(ev.target))) close(); };
  box.append(menu(actions, (a) => { close(); choose(a); }), button("cancel", close));
  document.body.append(box);
  setTimeout(() => document.addEventListener("pointerdown", outside, true));
}
