// Talking to the server: the REST API (JSON, with its errors and a scenario's diagnostics) and
// the game connection (a WebSocket speaking protocol.d.ts's messages).

/** @typedef {import("./protocol").ApiError} ApiError */
/** @typedef {import("./protocol").ClientMessage} ClientMessage */
/** @typedef {import("./protocol").ServerMessage} ServerMessage */

/** An error answered by the REST API: its sentence and a scenario's problems, one a line. */
export class ApiFailure extends Error {
  /**
   * @param {number} status
   * @param {string} message
   * @param {string[]} diagnostics
   */
  constructor(status, message, diagnostics) {
    super(message);
    this.status = status;
    this.diagnostics = diagnostics;
  }
}

/**
 * Reads a REST answer: its JSON, or an ApiFailure with the server's error and diagnostics.
 * @param {Response} response
 * @returns {Promise<unknown>}
 */
async function answer(response) {
  const text = await response.text();
  /** @type {unknown} */
  let body = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!response.ok) {
    const err = /** @type {Partial<ApiError> | null} */ (body);
    throw new ApiFailure(response.status, err?.error ?? (text || response.statusText),
      err?.diagnostics ?? []);
  }
  return body;
}

/**
 * GETs JSON from the API.
 * @param {string} path
 * @returns {Promise<unknown>}
 */
export async function getJson(path) {
  return answer(await fetch(path, { headers: { accept: "application/json" } }));
}

/**
 * POSTs JSON to the API.
 * @param {string} path
 * @param {unknown} body
 * @returns {Promise<unknown>}
 */
export async function postJson(path, body) {
  return answer(await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(body),
  }));
}

/**
 * The game connection: joins with the side's token (or none to watch), hands every server
 * message to `onMessage`, and reconnects (joining again and so getting a fresh state) if the
 * socket drops.
 */
export class GameConnection {
  /**
   * @param {string} gameId
   * @param {string | null} token
   * @param {(m: ServerMessage) => void} onMessage
   * @param {(open: boolean) => void} onStatus told when the connection opens or drops
   */
  constructor(gameId, token, onMessage, onStatus) {
    this.url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/games/${gameId}/ws`;
    this.token = token;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    /** @type {WebSocket | null} */
    this.socket = null;
    this.retry = 500;
    this.open();
  }

  /** Opens the socket and says hello. */
  open() {
    const ws = new WebSocket(this.url);
    this.socket = ws;
    ws.addEventListener("open", () => {
      this.retry = 500;
      this.send(this.token ? { type: "hello", token: this.token } : { type: "hello" });
      this.onStatus(true);
    });
    ws.addEventListener("message", (ev) => {
      if (typeof ev.data === "string") this.onMessage(/** @type {ServerMessage} */ (JSON.parse(ev.data)));
    });
    ws.addEventListener("close", () => {
      if (this.socket !== ws) return;
      this.onStatus(false);
      setTimeout(() => this.open(), this.retry);
      this.retry = Math.min(this.retry * 2, 10000);
    });
  }

  /**
   * Sends a message (dropped while the socket is not open: the state after reconnecting is
   * fresh anyway).
   * @param {ClientMessage} message
   */
  send(message) {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }
}
