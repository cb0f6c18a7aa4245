// The placeholder client: see protocol.d.ts for every message. No framework, no build step.
"use strict";
const $ = (id) => document.getElementById(id);
const el = (tag, text) => { const e = document.createElement(tag); if (text !== undefined) e.textContent = text; return e; };
const json = async (r) => { const body = await r.json(); if (!r.ok) throw body; return body; };
window.addEventListener("error", (e) => { const m = $("message") || $("create-error"); if (m) m.textContent = `client error: ${e.message}`; });
const problem = (e) => (e && e.error ? [e.error, ...(e.diagnostics || [])].join("\n") : String(e));

async function home() {
  const sets = await json(await fetch("/api/rulesets"));
  const scenario = $("scenario"), referee = $("referee");
  for (const r of sets) {
    const row = el("tr");
    row.append(el("td", `${r.id} ${r.version}`), el("td", r.scenarios.map((s) => s.name).join(", ")),
      el("td", r.bots.map((b) => b.name).join(", ")));
    $("rulesets").append(row);
    for (const s of r.scenarios) {
      const o = el("option", `${r.id} / ${s.name}`); o.value = `${r.id}/${s.name}`; o.title = s.about;
      o.dataset.bots = JSON.stringify(r.bots.map((b) => b.name)); scenario.append(o);
    }
    if (r.referee) { const o = el("option", r.id); referee.append(o); }
  }
  const players = () => {
    const bots = JSON.parse(scenario.selectedOptions[0]?.dataset.bots || "[]");
    for (const side of ["red", "blue"]) {
      const sel = $(side); sel.replaceChildren(el("option", "human"));
      for (const b of bots) sel.append(el("option", b));
    }
  };
  scenario.onchange = players; players();
  const create = async (body) => {
    $("create-error").textContent = ""; $("created").replaceChildren();
    try {
      const g = await json(await fetch("/api/games", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));
      const link = (label, href) => { const p = el("p", `${label}: `); const a = el("a", location.origin + href); a.href = href; p.append(a); return p; };
      for (const s of g.seats) $("created").append(link(`${s.side} (secret: give it only to that player)`, s.link));
      $("created").append(link("spectators", g.spectator));
    } catch (e) { $("create-error").textContent = problem(e); }
  };
  $("create").onclick = () => create({ scenario: scenario.value, red: $("red").value, blue: $("blue").value });
  $("file").onchange = async () => { const f = $("file").files[0]; if (f) { $("upload").value = await f.text(); $("upload").dataset.name = f.name; } };
  $("create-upload").onclick = () => create({ scenario_text: $("upload").value, scenario_file: $("upload").dataset.name, red: $("red").value, blue: $("blue").value });
  $("ask").onclick = async () => {
    try {
      const q = JSON.parse($("question").value);
      const a = await json(await fetch(`/api/referee/${referee.value}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(q) }));
      $("answer").textContent = JSON.stringify(a, null, 2);
    } catch (e) { $("answer").textContent = problem(e); }
  };
}

function game(id) {
  $("home").hidden = true; $("game").hidden = false;
  const token = new URLSearchParams(location.hash.slice(1)).get("token");
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/games/${id}/ws`);
  let role = "spectator", version = 0, log = [], picture = null;
  const send = (m) => ws.send(JSON.stringify(m));
  ws.onopen = () => send(token ? { type: "hello", token } : { type: "hello" });
  ws.onclose = () => { $("message").textContent = "disconnected: reload the page to reconnect"; };
  ws.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    if (m.type === "welcome") {
      role = m.role;
      $("title").textContent = `${m.game.ruleset}: ${m.game.scenario_name} — you are ${role}`;
    } else if (m.type === "state") {
      version = m.version; $("message").textContent = "";
      log = log.slice(0, m.log_from).concat(m.lines);
      $("log").textContent = log.map((l) => l.text).join("\n"); $("log").scrollTop = 1e9;
      const p = m.pending;
      $("status").textContent = `version ${m.version}` + (m.turn ? `, turn ${m.turn}` : "") + ": " +
        (m.outcome ? `over — ${m.outcome.winner ?? "nobody"} wins: ${m.outcome.reason}` :
          p.kind === "side" ? `${p.side} must ${p.what}` : p.kind === "over" ? "over" : `${(p.waiting || p.sides).join(" and ")}: ${p.what}`);
      $("undo").disabled = !m.can_undo;
      $("record").hidden = !m.outcome; $("record").href = `/api/games/${id}/record`;
      send({ type: "scene", svg: true });
      if (role !== "spectator") send({ type: "candidates" });
    } else if (m.type === "scene" && m.svg) {
      // Drawn as an image, so nothing in it can run.
      if (picture) URL.revokeObjectURL(picture);
      picture = URL.createObjectURL(new Blob([m.svg], { type: "image/svg+xml" }));
      const img = el("img"); img.src = picture; img.alt = "the table"; $("table").replaceChildren(img);
    } else if (m.type === "candidates") {
      $("commands").replaceChildren(...m.commands.slice(0, 200).map((c) => {
        const b = el("button", JSON.stringify(c));
        b.onclick = () => send({ type: "command", version, command: c }); return b;
      }));
    } else if (m.type === "refused") {
      $("message").textContent = `refused [${m.rule}]: ${m.reason}`;
    } else if (m.type === "error") {
      $("message").textContent = `${m.code}: ${m.message}`;
    }
  };
  $("undo").onclick = () => send({ type: "undo", version });
  $("sync").onclick = () => send({ type: "sync" });
  $("send").onclick = () => {
    try { send({ type: "command", version, command: JSON.parse($("raw").value) }); }
    catch (e) { $("message").textContent = `not JSON: ${e}`; }
  };
}

const at = location.pathname.match(/^\/game\/([0-9a-f]{32})$/);
if (at) game(at[1]); else home().catch((e) => { $("create-error").textContent = problem(e); });
