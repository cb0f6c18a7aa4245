//! Shared helpers for the movement tests: small scenarios built from TOML snippets.
#![allow(dead_code, clippy::too_many_arguments)]

use movement::{Movement, Scenario, State};
use std::sync::Arc;
use tabletop::diagnostics::Source;
use tabletop::dice::ScriptedDice;
use tabletop::game::Game;
use tabletop::rules::{Actor, RuleSet, Side};

/// The rule set with its embedded tables.
pub fn rules() -> Movement {
    Movement::new()
}

/// A scenario on an empty 60" × 60" table with red moving first: `extra` holds areas, lines
/// and units.
pub fn scenario_text(extra: &str) -> String {
    format!(
        r#"[scenario]
name = "test"
turns = 4
first = "red"

[[side]]
side = "red"
name = "Red"
edge = "south"

[[side]]
side = "blue"
name = "Blue"
edge = "north"

[table]
width = 60.0
height = 60.0

{extra}
"#
    )
}

/// A unit entry.
pub fn unit(
    name: &str,
    side: &str,
    ty: &str,
    armor: &str,
    disc: &str,
    formation: &str,
    files: u32,
    stands: u32,
    x: f64,
    y: f64,
    facing: f64,
) -> String {
    format!(
        r#"
[[unit]]
name = "{name}"
side = "{side}"
type = "{ty}"
armor = "{armor}"
discipline = "{disc}"
formation = "{formation}"
files = {files}
stands = {stands}
position = [{x}, {y}]
facing = {facing}
"#
    )
}

/// A blue unit far away in the north-east corner (every scenario needs both sides).
pub fn blue_far() -> String {
    unit("Far Blue", "blue", "heavy_infantry", "heavy", "good", "line", 1, 1, 57.0, 58.0, 180.0)
}

/// A red unit far away in the south-west corner.
pub fn red_far() -> String {
    unit("Far Red", "red", "heavy_infantry", "heavy", "good", "line", 1, 1, 2.0, 2.0, 0.0)
}

/// Loads a scenario or panics with its diagnostics.
pub fn load(text: &str) -> Scenario {
    rules()
        .load_scenario(&Source::new("test.toml", text))
        .unwrap_or_else(|e| panic!("scenario does not load:\n{e}"))
}

/// A game on a scenario with scripted dice for set-up.
pub fn game(text: &str) -> Game<Movement> {
    Game::new(Arc::new(rules()), Source::new("test.toml", text.to_string()), 7)
        .unwrap_or_else(|e| panic!("scenario does not load:\n{e}"))
}

/// The starting state (after set-up) of a scenario.
pub fn state(text: &str) -> State {
    let r = rules();
    let s = load(text);
    let (st, _) = r.setup(&s, &mut ScriptedDice::new([]));
    st
}

/// Red as the actor.
pub const RED: Actor = Actor::Side(Side::Red);
/// Blue as the actor.
pub const BLUE: Actor = Actor::Side(Side::Blue);

/// Asserts two costs agree to 1e-6.
#[track_caller]
pub fn close(a: f64, b: f64) {
    assert!((a - b).abs() < 1e-6, "expected {b}, got {a}");
}

/// The ready scenario.
pub fn ford_text() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../scenarios/movement/ford.toml"
    ))
    .expect("the ready scenario exists")
}

use movement::model::Turn;
use movement::state::{Command, Step};

/// An advance of the reference point to (x, y).
pub fn adv(x: f64, y: f64) -> Step {
    Step::Advance { to: [x, y] }
}

/// A change of facing.
pub fn face(t: Turn) -> Step {
    Step::Face(t)
}

/// A normal move.
pub fn mv(unit: usize, steps: Vec<Step>) -> Command {
    Command::Move { unit, forced_march: false, battle_command: false, steps }
}

/// A move under a battle command.
pub fn charge(unit: usize, steps: Vec<Step>) -> Command {
    Command::Move { unit, forced_march: false, battle_command: true, steps }
}

/// A forced march.
pub fn forced(unit: usize, steps: Vec<Step>) -> Command {
    Command::Move { unit, forced_march: true, battle_command: false, steps }
}

/// The planned cost of a move, or the refusal's rule.
pub fn cost(st: &State, unit: usize, steps: &[Step]) -> Result<f64, String> {
    rules().plan_move(st, unit, steps, false, false).map(|p| p.cost).map_err(|r| r.rule.to_string())
}

/// Submits a command that must be refused, checks the state is unchanged, returns the rule.
#[track_caller]
pub fn refused(g: &mut Game<Movement>, actor: Actor, c: Command) -> String {
    let before = g.state_hash();
    let n = g.events().len();
    let r = match g.submit(actor, c) {
        Err(r) => r,
        Ok(e) => panic!("expected a refusal, got {e:?}"),
    };
    assert_eq!(g.state_hash(), before, "a refusal changed the state");
    assert_eq!(g.events().len(), n);
    r.rule.to_string()
}

/// Submits a command that must pass and returns its events.
#[track_caller]
pub fn ok(g: &mut Game<Movement>, actor: Actor, c: Command) -> Vec<movement::Event> {
    match g.submit(actor, c.clone()) {
        Ok(e) => e.to_vec(),
        Err(r) => panic!("{c:?} refused: {r}"),
    }
}

/// Ends the current phase (red then blue), returning the events.
pub fn end(g: &mut Game<Movement>) -> Vec<movement::Event> {
    let side = g.state().phase;
    ok(g, Actor::Side(side), Command::EndPhase)
}

/// A single light-infantry stand (12") at (x, y) facing north, as the first red unit.
pub fn li(name: &str, x: f64, y: f64) -> String {
    unit(name, "red", "light_infantry", "light", "good", "line", 1, 1, x, y, 0.0)
}

/// A single-stand blue light infantry unit at (x, y) facing `facing` degrees.
pub fn blue_li(name: &str, x: f64, y: f64, facing: f64) -> String {
    unit(name, "blue", "light_infantry", "light", "good", "line", 1, 1, x, y, facing)
}

/// The `Moved` event's cost among events.
pub fn moved_cost(ev: &[movement::Event]) -> f64 {
    ev.iter()
        .find_map(|e| match e {
            movement::Event::Moved { cost, .. } => Some(*cost),
            _ => None,
        })
        .expect("a Moved event")
}

/// Checks, executes with scripted dice and applies a command; returns the events.
#[track_caller]
pub fn run(st: &mut State, actor: Actor, c: Command, faces: &[u8]) -> Vec<movement::Event> {
    let r = rules();
    if let Err(e) = r.check(st, actor, &c) {
        panic!("{c:?} refused: {e}");
    }
    let mut dice = ScriptedDice::new(faces.iter().copied());
    let ev = r.execute(st, actor, &c, &mut dice).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(dice.remaining(), 0, "unused dice");
    for e in &ev {
        r.apply(st, e);
    }
    ev
}

/// The refusal rule of a command on a state (without changing it).
pub fn check_rule(st: &State, actor: Actor, c: &Command) -> Option<String> {
    rules().check(st, actor, c).err().map(|r| r.rule.to_string())
}
