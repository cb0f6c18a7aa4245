//! Shared helpers for the O/THW tests: small scenarios from TOML snippets, scripted dice.
#![allow(dead_code)]

use othw::state::{Command, Event, State, UnitId};
use othw::{Othw, Scenario};
use std::sync::Arc;
use tabletop::diagnostics::Source;
use tabletop::dice::ScriptedDice;
use tabletop::game::Game;
use tabletop::grid::{CellPos, GridFacing};
use tabletop::rules::{Actor, Narrate, RuleSet, Side};

/// The rule set with its embedded tables.
pub fn rules() -> Othw {
    Othw::new()
}

/// A scenario on the default 12 × 8 board, red (generic roster, generic general unless
/// `no_general`) in the south moving first, blue in the north. `extra` holds terrain, custom
/// types and units.
pub fn scenario_text(extra: &str) -> String {
    format!(
        r#"ruleset = "othw"

[scenario]
name = "test"
first = "red"

[[side]]
side = "red"
name = "Red"
roster = "generic"

[[side]]
side = "blue"
name = "Blue"
roster = "generic"

{extra}
"#
    )
}

/// As [`scenario_text`] with generals: `red_general`/`blue_general` name them (the unit
/// entries mark `general = true`).
pub fn scenario_with_generals(red_general: &str, blue_general: &str, extra: &str) -> String {
    scenario_text(extra)
        .replace(
            "roster = \"generic\"\n\n[[side]]",
            &format!("roster = \"generic\"\ngeneral = \"{red_general}\"\n\n[[side]]"),
        )
        .replacen(
            "name = \"Blue\"\nroster = \"generic\"\n",
            &format!("name = \"Blue\"\nroster = \"generic\"\ngeneral = \"{blue_general}\"\n"),
            1,
        )
}

/// A unit entry.
pub fn unit(side: &str, ty: &str, name: &str, col: i32, row: i32, facing: &str) -> String {
    format!(
        "\n[[unit]]\nside = \"{side}\"\ntype = \"{ty}\"\nname = \"{name}\"\nat = [{col}, {row}]\nfacing = \"{facing}\"\n"
    )
}

/// A unit entry with the general.
pub fn general_unit(side: &str, ty: &str, name: &str, col: i32, row: i32, facing: &str) -> String {
    unit(side, ty, name, col, row, facing) + "general = true\n"
}

/// A terrain entry.
pub fn terrain(kind: &str, cells: &[(i32, i32)]) -> String {
    let c: Vec<String> = cells.iter().map(|(a, b)| format!("[{a}, {b}]")).collect();
    format!("\n[[terrain]]\nkind = \"{kind}\"\ncells = [{}]\n", c.join(", "))
}

/// Loads a scenario or panics with its diagnostics.
pub fn load(text: &str) -> Scenario {
    rules()
        .load_scenario(&Source::new("test.toml", text))
        .unwrap_or_else(|e| panic!("scenario does not load:\n{e}"))
}

/// The starting state of a scenario (deployment checks apply: use rows 0-1 and 6-7). Units may
/// then be moved anywhere with [`put`].
pub fn state(text: &str) -> State {
    let r = rules();
    let s = load(text);
    // Seeded dice: only a roll-off for the first player rolls at set-up.
    let (st, _) = r.setup(&s, &mut tabletop::dice::SeededDice::new(1));
    st
}

/// Moves unit `u` to (col, row) facing `f`, keeping occupancy right (test set-up only).
pub fn put(st: &mut State, u: UnitId, col: i32, row: i32, f: GridFacing) {
    let from = st.units[u as usize].pos;
    let e = Event::Placed {
        unit: u,
        name: st.units[u as usize].name.clone(),
        from,
        to: CellPos::new(col, row),
        facing: f,
        how: othw::state::Placement::Move,
        rule: tabletop::rules::RuleId::new("TEST"),
        also: othw::state::Cites::NONE,
    };
    othw::state::apply(st, &e);
}

/// Red as the actor.
pub const RED: Actor = Actor::Side(Side::Red);
/// Blue as the actor.
pub const BLUE: Actor = Actor::Side(Side::Blue);

/// Checks, executes with scripted dice and applies a command; every scripted die must be used.
#[track_caller]
pub fn run(st: &mut State, c: Command, faces: &[u8]) -> Vec<Event> {
    let r = rules();
    let actor = Actor::Side(st.phasing);
    if let Err(e) = r.check(st, actor, &c) {
        panic!("{c:?} refused: {e}");
    }
    let mut dice = ScriptedDice::new(faces.iter().copied());
    let ev = r.execute(st, actor, &c, &mut dice).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(dice.remaining(), 0, "unused dice; events: {:#?}", log_of(&ev));
    for e in &ev {
        r.apply(st, e);
    }
    ev
}

/// The refusal's rule for a command, checking nothing changes.
#[track_caller]
pub fn refused(st: &State, c: Command) -> String {
    let r = rules();
    let before = tabletop::game::state_hash(st);
    let e = r
        .check(st, Actor::Side(st.phasing), &c)
        .err()
        .unwrap_or_else(|| panic!("{c:?} was accepted"));
    assert_eq!(tabletop::game::state_hash(st), before);
    e.rule.to_string()
}

/// The narrated log of events.
pub fn log_of(ev: &[Event]) -> Vec<String> {
    ev.iter().map(|e| e.narrate().text).collect()
}

/// True when some event's narration contains `needle`.
pub fn logged(ev: &[Event], needle: &str) -> bool {
    log_of(ev).iter().any(|l| l.contains(needle))
}

/// A cell.
pub fn at(col: i32, row: i32) -> CellPos {
    CellPos::new(col, row)
}

/// A move command.
pub fn mv(unit: UnitId, col: i32, row: i32, facing: GridFacing) -> Command {
    Command::Move { unit, to: at(col, row), facing }
}

/// An attack from where the unit stands, keeping or turning to `facing`.
pub fn attack(st: &State, unit: UnitId, facing: GridFacing) -> Command {
    Command::Attack { unit, from: st.units[unit as usize].pos, facing, general_dice: false }
}

/// A charge from `(col, row)` facing `facing`.
pub fn charge(unit: UnitId, col: i32, row: i32, facing: GridFacing) -> Command {
    Command::Attack { unit, from: at(col, row), facing, general_dice: false }
}

/// The text of a ready scenario file.
pub fn ready(name: &str) -> String {
    std::fs::read_to_string(format!("{}/../../scenarios/othw/{name}", env!("CARGO_MANIFEST_DIR")))
        .expect("the ready scenario exists")
}

/// A game on a ready scenario.
pub fn game(name: &str, seed: u64) -> Game<Othw> {
    Game::new(Arc::new(rules()), Source::new(format!("scenarios/othw/{name}"), ready(name)), seed)
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Ends the phase (the state must be in a phase where nothing rolls).
pub fn end_phase(st: &mut State, faces: &[u8]) -> Vec<Event> {
    run(st, Command::EndPhase, faces)
}

pub const N: GridFacing = GridFacing::North;
pub const E: GridFacing = GridFacing::East;
pub const S: GridFacing = GridFacing::South;
pub const W: GridFacing = GridFacing::West;

/// A custom unit type entry.
#[allow(clippy::too_many_arguments)]
pub fn utype(
    name: &str,
    class: &str,
    m: u8,
    a: u8,
    d: u8,
    s: u8,
    l: u8,
    specials: &[&str],
) -> String {
    let sp: Vec<String> = specials.iter().map(|x| format!("\"{x}\"")).collect();
    format!(
        "\n[[unit_type]]\nname = \"{name}\"\nclass = \"{class}\"\nm = {m}\na = {a}\nd = {d}\ns = {s}\nl = {l}\nspecials = [{}]\n",
        sp.join(", ")
    )
}

/// A battle: red units `R0`, `R1`, … (IDs 0..) deployed on row 0, blue units `B0`, … (IDs
/// after red's) on row 7, then a spare red Levies `RS` at K1 and a spare blue Levies `BS` at
/// K8 (so that a phase never ends for want of actions). Generals, when named, are with the
/// first unit of their side. `extra` holds terrain and custom types. Both armies' morale is
/// set to 20 (no attrition) unless a test changes it.
pub fn battle_with(
    red: &[&str],
    blue: &[&str],
    red_general: Option<&str>,
    blue_general: Option<&str>,
    extra: &str,
) -> State {
    let mut text = String::from(extra);
    for (i, t) in red.iter().enumerate() {
        let e = unit("red", t, &format!("R{i}"), i as i32, 0, "north");
        text += &if i == 0 && red_general.is_some() { e + "general = true\n" } else { e };
    }
    for (i, t) in blue.iter().enumerate() {
        let e = unit("blue", t, &format!("B{i}"), i as i32, 7, "south");
        text += &if i == 0 && blue_general.is_some() { e + "general = true\n" } else { e };
    }
    text += &unit("red", "Levies", "RS", 11, 0, "north");
    text += &unit("blue", "Levies", "BS", 11, 7, "south");
    let mut full = scenario_text(&text);
    if let Some(g) = red_general {
        full = full.replacen(
            "name = \"Red\"\nroster = \"generic\"\n",
            &format!("name = \"Red\"\nroster = \"generic\"\ngeneral = \"{g}\"\n"),
            1,
        );
    }
    if let Some(g) = blue_general {
        full = full.replacen(
            "name = \"Blue\"\nroster = \"generic\"\n",
            &format!("name = \"Blue\"\nroster = \"generic\"\ngeneral = \"{g}\"\n"),
            1,
        );
    }
    let mut st = state(&full);
    for s in &mut st.sides {
        s.am = 20;
        s.am_start = 20;
    }
    st
}

/// [`battle_with`] without generals or extras.
pub fn battle(red: &[&str], blue: &[&str]) -> State {
    battle_with(red, blue, None, None, "")
}

/// The ID of the red spare.
pub fn red_spare(st: &State) -> UnitId {
    st.units.iter().find(|u| &*u.name == "RS").map(|u| u.id).expect("spare")
}

/// The ID of the blue spare.
pub fn blue_spare(st: &State) -> UnitId {
    st.units.iter().find(|u| &*u.name == "BS").map(|u| u.id).expect("spare")
}

/// Ends red's phase and blue's, with no dice expected, back to red.
pub fn next_turn(st: &mut State) {
    end_phase(st, &[]);
    end_phase(st, &[]);
}

/// A standing combat (or free turn and combat) by `unit` facing `facing`, with scripted dice.
#[track_caller]
pub fn fight(st: &mut State, unit: UnitId, facing: GridFacing, faces: &[u8]) -> Vec<Event> {
    let c = attack(st, unit, facing);
    run(st, c, faces)
}
