// The Strategikon server protocol. Generated from crates/server/src/protocol.rs by
// ts-rs; do not edit: `cargo test -p server --test protocol` regenerates it.

export type JsonValue = number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null;

/**
 * A side of the battle.
 */
export type SideName = "red" | "blue";

/**
 * Who a connection is: one side's general, or a spectator.
 */
export type Role = "red" | "blue" | "spectator";

/**
 * A bot that can command a side.
 */
export type BotEntry = { 
/**
 * Its name, as a side's player spec takes it (`mcts`, or `mcts:200` with parameters).
 */
name: string, 
/**
 * What it does and which parameters it takes.
 */
about: string, };

/**
 * A ready scenario.
 */
export type ScenarioEntry = { 
/**
 * Its name, for [`CreateGame::scenario`].
 */
name: string, 
/**
 * The first line of its description.
 */
about: string, };

/**
 * A rule set the server plays (`GET /api/rulesets`).
 */
export type RuleSetEntry = { 
/**
 * Its ID.
 */
id: string, 
/**
 * Its version.
 */
version: string, 
/**
 * The bots that can command a side.
 */
bots: Array<BotEntry>, 
/**
 * The ready scenarios.
 */
scenarios: Array<ScenarioEntry>, 
/**
 * Whether `POST /api/referee/{id}` answers questions for it.
 */
referee: boolean, };

/**
 * A request to create a game (`POST /api/games`): a ready scenario by name, or an uploaded
 * scenario file's text; and for each side `human` or a bot spec (`scripted`, `mcts:200`).
 */
export type CreateGame = { 
/**
 * The rule set; optional for an upload that names its own (`ruleset = "…"`).
 */
ruleset?: string, 
/**
 * A ready scenario's name (see [`RuleSetEntry::scenarios`]).
 */
scenario?: string, 
/**
 * An uploaded scenario file's text, instead of a ready one.
 */
scenario_text?: string, 
/**
 * The uploaded file's name, for diagnostics (`upload.toml` if not given).
 */
scenario_file?: string, 
/**
 * Red's player: `human` or a bot spec.
 */
red: string, 
/**
 * Blue's player: `human` or a bot spec.
 */
blue: string, };

/**
 * A human side's seat in a new game.
 */
export type SeatLink = { 
/**
 * The side.
 */
side: SideName, 
/**
 * The secret token: whoever holds it commands the side. Shown once; the server keeps
 * only its hash.
 */
token: string, 
/**
 * The link to give the player (the token is in the fragment, which browsers never send).
 */
link: string, };

/**
 * A game created (the answer to `POST /api/games`).
 */
export type Created = { 
/**
 * The game's ID.
 */
id: string, 
/**
 * The link to watch it.
 */
spectator: string, 
/**
 * One secret link per human side.
 */
seats: Array<SeatLink>, };

/**
 * Who plays a side.
 */
export type PlayerInfo = { "kind": "human" } | { "kind": "bot", 
/**
 * The bot spec, such as `mcts:200`.
 */
spec: string, };

/**
 * What anyone with the game's ID may know of it (`GET /api/games/{id}`, and in
 * [`ServerMessage::Welcome`]).
 */
export type GameInfo = { 
/**
 * The game's ID.
 */
id: string, 
/**
 * The rule set.
 */
ruleset: string, 
/**
 * The rule set's version the game is played under.
 */
version: string, 
/**
 * The scenario's file name.
 */
scenario_name: string, 
/**
 * Red's player, then blue's.
 */
players: Array<PlayerInfo>, 
/**
 * Whether the battle is over (then its record may be downloaded).
 */
finished: boolean, };

/**
 * An error from the REST API, with the scenario's problems when it does not validate, each
 * as `file:line:column: field: message`.
 */
export type ApiError = { 
/**
 * What went wrong.
 */
error: string, 
/**
 * A scenario's problems, one a line.
 */
diagnostics?: Array<string>, };

/**
 * A message from a client on the game connection.
 */
export type ClientMessage = { "type": "hello", 
/**
 * The side's token from its link.
 */
token?: string, } | { "type": "command", 
/**
 * The state version the command was made against (commands applied so far).
 */
version: number, 
/**
 * The command.
 */
command: JsonValue, } | { "type": "undo", 
/**
 * The state version the request was made against.
 */
version: number, } | { "type": "candidates", } | { "type": "scene", 
/**
 * Also draw it as SVG.
 */
svg?: boolean, } | { "type": "sync", };

/**
 * Who must decide what now.
 */
export type PendingInfo = { "kind": "side", 
/**
 * The side.
 */
side: SideName, 
/**
 * What it is deciding.
 */
what: string, } | { "kind": "both", 
/**
 * Sides that have not yet committed.
 */
waiting: Array<SideName>, 
/**
 * What they are deciding.
 */
what: string, } | { "kind": "timed", 
/**
 * Sides that may act.
 */
sides: Array<SideName>, 
/**
 * When the window closes, in milliseconds of game time.
 */
closes_at_ms: number, 
/**
 * What is happening.
 */
what: string, } | { "kind": "over" };

/**
 * How the battle ended.
 */
export type OutcomeInfo = { 
/**
 * The winner; none for a draw.
 */
winner: SideName | null, 
/**
 * Why the battle ended, citing the rule.
 */
reason: string, };

/**
 * One line of the battle log: an event told in words, every die with its rule.
 */
export type LogEntry = { 
/**
 * The text, starting with the rule IDs in brackets.
 */
text: string, 
/**
 * The rule IDs it applied.
 */
rules: Array<string>, };

/**
 * What a connection's error was about.
 */
export type ErrorCode = "bad_message" | "hello_first" | "already_joined" | "bad_token" | "full" | "stale" | "spectator" | "not_your_turn" | "game_over" | "cannot_undo" | "too_long" | "bot" | "storage" | "internal";

/**
 * A message from the server on the game connection.
 */
export type ServerMessage = { "type": "welcome", 
/**
 * The game.
 */
game: GameInfo, 
/**
 * What this connection may do.
 */
role: Role, } | { "type": "state", 
/**
 * The state version: commands applied so far. Commands must carry it.
 */
version: number, 
/**
 * Who must decide what now.
 */
pending: PendingInfo, 
/**
 * The result, once over.
 */
outcome: OutcomeInfo | null, 
/**
 * The rule set's view for this role (its own JSON form): a side sees only what its
 * general may see, a spectator the public view.
 */
view: JsonValue, 
/**
 * The game turn, where the rule set has turns.
 */
turn: number | null, 
/**
 * Where `lines` start in the log: the client keeps its first `log_from` lines and
 * appends these (an undo shortens the log).
 */
log_from: number, 
/**
 * Log lines from `log_from` on.
 */
lines: Array<LogEntry>, 
/**
 * Whether this side may undo now.
 */
can_undo: boolean, } | { "type": "refused", 
/**
 * The state version (unchanged).
 */
version: number, 
/**
 * The rule that forbids it.
 */
rule: string, 
/**
 * Why.
 */
reason: string, } | { "type": "error", 
/**
 * What kind of error.
 */
code: ErrorCode, 
/**
 * Why, in words.
 */
message: string, 
/**
 * The current state version, where it matters (a stale command).
 */
version: number | null, } | { "type": "candidates", 
/**
 * The state version they are for.
 */
version: number, 
/**
 * The commands, in the rule set's JSON form.
 */
commands: Array<JsonValue>, } | { "type": "scene", 
/**
 * The state version.
 */
version: number, 
/**
 * The scene: table, terrain, pieces, marks (the `tabletop` render model's JSON).
 */
scene: JsonValue, 
/**
 * The scene drawn as SVG, if asked for.
 */
svg: string | null, };
