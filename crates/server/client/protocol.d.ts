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
svg?: boolean, } | { "type": "sync", } | { "type": "controls", } | { "type": "measure", 
/**
 * The state version the drag is made against.
 */
version: number, 
/**
 * The unit's ID.
 */
unit: string, 
/**
 * Where its centre would stand, in inches.
 */
x: number, 
/**
 * Where its centre would stand, in inches.
 */
y: number, 
/**
 * The facing it would end with, as a bearing in degrees (0 north, 90 east); none keeps
 * its facing.
 */
bearing?: number, } | { "type": "roster", } | { "type": "pong", 
/**
 * The ping's `t`, as sent.
 */
t: number, };

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
 * A timed window's clock, as the server runs it (in `state` while the pending is `timed`,
 * and in [`ServerMessage::Clock`]). Game time is milliseconds since the window opened; the
 * server is its only clock: game time now is `now_ms + (wall time now - server_ms)`, where a
 * client corrects the wall time by the offset it sees between its clock and `server_ms`.
 */
export type ClockInfo = { 
/**
 * The window's length (when the bell rings), in ms of game time.
 */
length_ms: number, 
/**
 * The game time when this was sent.
 */
now_ms: number, 
/**
 * The server's wall time when this was sent, in ms since the Unix epoch.
 */
server_ms: number, 
/**
 * When this side's hands are free for its next command (none for a spectator, or a side
 * that has finished).
 */
free_ms: number | null, 
/**
 * This side's commands held until its hands are free (at most two), in order.
 */
queued: Array<JsonValue>, 
/**
 * This connection's last measured round trip, in ms.
 */
rtt_ms: number | null, };

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
export type ErrorCode = "bad_message" | "hello_first" | "already_joined" | "bad_token" | "full" | "stale" | "spectator" | "not_your_turn" | "game_over" | "cannot_undo" | "too_long" | "too_heavy" | "bot" | "storage" | "internal" | "queue_full";

/**
 * What choosing an [`Action`] does.
 */
export type Effect = { "kind": "send", 
/**
 * The command.
 */
command: unknown, } | { "kind": "draft", 
/**
 * Where in the draft, as a JSON pointer (`/plan/moves`).
 */
at: string, 
/**
 * The field that identifies an array's entry (`unit`).
 */
key?: string, 
/**
 * The part.
 */
value: unknown, };

/**
 * An entry of a menu: a legal command, or a part of the command being drafted.
 */
export type Action = { 
/**
 * What the entry says ("Charge the Gallic warband", "End the phase").
 */
label: string, 
/**
 * The rule IDs it applies.
 */
rules: Array<string>, 
/**
 * What choosing it does.
 */
effect: Effect, };

/**
 * A command being drafted over several choices, sent whole.
 */
export type Draft = { 
/**
 * The command as it stands before any choice (every unit left to its orders, say).
 */
command: unknown, 
/**
 * The label of the button that sends it ("Send the written orders").
 */
label: string, 
/**
 * The rules that govern it.
 */
rules: Array<string>, };

/**
 * A square a unit may be dragged to on a grid.
 */
export type SquareTarget = { 
/**
 * The column (0 is the west edge).
 */
col: number, 
/**
 * The row (0 is the south edge).
 */
row: number, 
/**
 * What dropping the unit there does.
 */
action: Action, };

/**
 * How a unit may be dragged on the table.
 */
export type Drag = { "kind": "none" } | { "kind": "free" } | { "kind": "squares", 
/**
 * The squares it may end on, each with what ending there does.
 */
targets: Array<SquareTarget>, };

/**
 * One unit the side may command now.
 */
export type UnitControl = { 
/**
 * The unit's ID (its piece in the scene has the same [`crate::render::Piece::id`]).
 */
unit: string, 
/**
 * Its name.
 */
label: string, 
/**
 * Its move allowance now, in the rule set's measure (inches, or squares on a grid).
 */
allowance?: number, 
/**
 * The allowance and what sets it, in words (`12" (light horse, MOV-RATE-01)`).
 */
allowance_text: string, 
/**
 * How it may be dragged.
 */
drag: Drag, 
/**
 * Its menu: everything else it may do now.
 */
actions: Array<Action>, };

/**
 * What the client may offer one side now.
 */
export type Controls = { 
/**
 * What the side is deciding, in words.
 */
prompt: string, 
/**
 * The units it may command.
 */
units: Array<UnitControl>, 
/**
 * Actions that belong to no one unit (end the phase, a general's reroll, a signal).
 */
actions: Array<Action>, 
/**
 * The command being drafted, where the rule set takes one for many units.
 */
draft?: Draft, };

/**
 * The measurement of a move dragged to a point: how far, what it costs, how much of it the
 * allowance covers, and what dropping there would do (or the rule that forbids it).
 */
export type Measurement = { 
/**
 * The unit.
 */
unit: string, 
/**
 * The path measured, from where the unit stands (the point the rule set measures from) to
 * the drop point.
 */
path: Array<{ x: number, y: number }>, 
/**
 * The path's length, in inches.
 */
length: number, 
/**
 * The allowance the path uses, terrain and turns counted.
 */
cost: number, 
/**
 * The unit's allowance.
 */
allowance: number, 
/**
 * How far along the path the allowance lasts, in inches (the path's length if it covers
 * all of it): the client draws the path green up to here and red beyond.
 */
within: number, 
/**
 * What the measurement counted, each naming its rule (`wood: 3" at double cost [MOV-TERR-02]`).
 */
notes: Array<string>, 
/**
 * What dropping the unit here does, if the rules allow it.
 */
action?: Action, 
/**
 * Why the rules do not allow it: the rule's ID.
 */
rule?: string, 
/**
 * Why the rules do not allow it, in words.
 */
reason?: string, };

/**
 * A line of a side's roster sheet.
 */
export type RosterRow = { 
/**
 * The side (`red` or `blue`).
 */
side: string, 
/**
 * The unit's ID.
 */
unit: string, 
/**
 * Its name.
 */
label: string, 
/**
 * Its troop type or profile.
 */
kind: string, 
/**
 * Its strength now, in the rule set's measure (figures, strength points).
 */
strength: string, 
/**
 * Losses so far (casualties, hits).
 */
losses: string, 
/**
 * Its state (formed, shaken, routing, fled, its orders where the viewer may see them).
 */
state: string, };

/**
 * One step of a finished game's replay (`GET /api/games/{id}/replay?step=N`): the table and
 * the log after the first `step` commands, as the umpire sees them.
 */
export type ReplayFrame = { 
/**
 * Commands applied (0: the table as set up).
 */
step: number, 
/**
 * Commands in the whole game.
 */
steps: number, 
/**
 * Who gave the command of this step (`red`, `blue`, `umpire`); none at step 0.
 */
actor: string | null, 
/**
 * The command of this step, in the rule set's JSON form.
 */
command: JsonValue | null, 
/**
 * The scene (the `tabletop` render model's JSON).
 */
scene: JsonValue, 
/**
 * The scene drawn as SVG.
 */
svg: string, 
/**
 * The game turn, where the rule set has turns.
 */
turn: number | null, 
/**
 * Where [`ReplayFrame::lines`] start in the log (the lines the viewer said it has, or
 * fewer when it stepped back).
 */
log_from: number, 
/**
 * The log up to this step, from line `log_from`.
 */
lines: Array<LogEntry>, 
/**
 * The result, at the last step.
 */
outcome: OutcomeInfo | null, };

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
can_undo: boolean, 
/**
 * The clock, while a timed window runs.
 */
clock?: ClockInfo, } | { "type": "clock", 
/**
 * The clock.
 */
clock: ClockInfo, 
/**
 * What the server did, in words (a command stamped, queued, dropped at the bell).
 */
note: string | null, } | { "type": "ping", 
/**
 * The server's token for this ping (its wall time in ms).
 */
t: number, } | { "type": "refused", 
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
commands: Array<JsonValue>, } | { "type": "controls", 
/**
 * The state version they are for.
 */
version: number, 
/**
 * The units, their allowances, drags and menus, and the other actions.
 */
controls: Controls, } | { "type": "measured", 
/**
 * The state version it is for.
 */
version: number, 
/**
 * The measurement.
 */
measurement: Measurement | null, } | { "type": "roster", 
/**
 * The state version.
 */
version: number, 
/**
 * One row a unit, the viewer's own side in full, the other as far as it may see.
 */
rows: Array<RosterRow>, } | { "type": "scene", 
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
