// The browser tabletop's entry point: `/` is the home page, `/game/{id}` a game (the side's
// token in the fragment: `#token=…`), `/game/{id}?replay` a finished game's replay.

import { $, errorText } from "./dom.js";
import { home } from "./home.js";
import { game } from "./game.js";
import { replay } from "./replay.js";

window.addEventListener("error", (e) => {
  const box = $("fatal");
  box.textContent = `client error: ${e.message}`;
  box.hidden = false;
});

const at = location.pathname.match(/^\/game\/([0-9a-f]{32})\/?$/);
const params = new URLSearchParams(location.search);
if (at && params.has("replay")) {
  replay(at[1], Number(params.get("step") ?? 0) || 0).catch((e) => { $("replay-error").textContent = errorText(e); });
} else if (at) {
  game(at[1], new URLSearchParams(location.hash.slice(1)).get("token"));
} else {
  home().catch((e) => { $("create-error").textContent = errorText(e); });
}
