//! The browser client's controls: they offer every legal command exactly once and nothing
//! else, in words with the rules they apply, only to the side whose phase it is; the roster
//! lists every unit with its strength; a finished battle offers nothing and does not panic.
mod common;
use common::*;
use othw::bot::Scripted;
use othw::state::{Command, State, Status};
use othw::{Orders, Othw};
use tabletop::controls::{Action, Controls, Drag, Effect, MeasureRequest};
use tabletop::dice::SeededDice;
use tabletop::geometry::Point;
use tabletop::grid::GridFacing;
use tabletop::rules::{Actor, RuleSet, Side, Viewer};

/// The open-field battle at its start (Rome, red, moves first).
fn open_field(seed: u64) -> (Othw, State, SeededDice) {
    let r = rules();
    let sc = load(&ready("open_field.toml"));
    let mut dice = SeededDice::new(seed);
    let (st, _) = r.setup(&sc, &mut dice);
    (r, st, dice)
}

/// Every action the controls offer: the unit menus, the square targets and the side's own
/// actions, each with the unit it is filed under (if any).
fn offered(c: &Controls) -> Vec<(Option<&str>, &Action)> {
    let mut out: Vec<(Option<&str>, &Action)> = Vec::new();
    for u in &c.units {
        out.extend(u.actions.iter().map(|a| (Some(u.unit.as_str()), a)));
        if let Drag::Squares { targets } = &u.drag {
            out.extend(targets.iter().map(|t| (Some(u.unit.as_str()), &t.action)));
        }
    }
    out.extend(c.actions.iter().map(|a| (None, a)));
    out
}

/// The command an action sends.
fn command_of(a: &Action) -> Command {
    match &a.effect {
        Effect::Send { command } => serde_json::from_value(command.clone())
            .unwrap_or_else(|e| panic!("'{}' sends no command: {e}", a.label)),
        Effect::Draft { .. } => panic!("'{}' drafts: O/THW has no drafts", a.label),
    }
}

/// JSON texts of commands, sorted (commands have no order of their own).
fn sorted(commands: &[Command]) -> Vec<String> {
    let mut v: Vec<String> =
        commands.iter().map(|c| serde_json::to_string(c).expect("serialises")).collect();
    v.sort();
    v
}

/// Checks the controls of `side` against the rules: every offered command passes `check`, the
/// commands other than standing orders are exactly `legal_commands` (none missing, none twice,
/// none extra), each unit's entries concern that unit, and each square target moves the unit to
/// that square. Returns the controls.
#[track_caller]
fn assert_exact(r: &Othw, st: &State, side: Side) -> Controls {
    let c = r.controls(st, side);
    let mut commands = Vec::new();
    for (unit, a) in offered(&c) {
        let cmd = command_of(a);
        if let Err(e) = r.check(st, Actor::Side(side), &cmd) {
            panic!("'{}' is offered but refused: {e}", a.label);
        }
        if let Some(u) = unit {
            let concerns = match &cmd {
                Command::Move { unit, .. }
                | Command::Attack { unit, .. }
                | Command::Mahouts { unit } => unit.to_string(),
                other => panic!("'{}' ({other:?}) filed under unit {u}", a.label),
            };
            assert_eq!(concerns, u, "'{}' is filed under another unit", a.label);
        }
        if !matches!(cmd, Command::Orders { .. }) {
            commands.push(cmd);
        }
    }
    for u in &c.units {
        if let Drag::Squares { targets } = &u.drag {
            for t in targets {
                match command_of(&t.action) {
                    Command::Move { to, .. } => {
                        assert_eq!(
                            (to.col as u32, to.row as u32),
                            (t.col, t.row),
                            "{}",
                            t.action.label
                        )
                    }
                    other => panic!("square target sends {other:?}"),
                }
            }
        }
    }
    let legal = r.legal_commands(st, side).expect("O/THW lists its commands");
    assert_eq!(commands.len(), legal.len(), "each legal command offered once");
    assert_eq!(sorted(&commands), sorted(&legal), "the offered commands are the legal ones");
    c
}

/// Plays `n` commands chosen by the scripted player for whichever side is phasing, checking
/// the controls of both sides before each; stops early if the battle ends.
fn play(r: &Othw, st: &mut State, dice: &mut SeededDice, n: usize) -> Vec<Controls> {
    let mut bot = Scripted::new();
    let mut seen = Vec::new();
    for _ in 0..n {
        if st.outcome.is_some() {
            break;
        }
        let side = st.phasing;
        seen.push(assert_exact(r, st, side));
        let other = r.controls(st, side.other());
        assert!(other.units.is_empty() && other.actions.is_empty());
        let (c, _) = bot.best(r, st, side).expect("a command");
        for e in r.execute(st, Actor::Side(side), &c, dice).expect("executes") {
            r.apply(st, &e);
        }
    }
    seen
}

#[test]
fn at_the_start_the_controls_offer_exactly_the_legal_commands() {
    let (r, st, _) = open_field(1);
    let c = assert_exact(&r, &st, Side::Red);
    assert_eq!(c.prompt, r.pending(&st).what());
    assert!(!c.units.is_empty(), "Rome has units to command");
    let end = c.actions.last().expect("actions");
    assert_eq!(end.label, "End the phase");
    assert_eq!(end.rules, ["OTHW-SEQ-09"]);
}

#[test]
fn the_side_not_pending_gets_nothing_to_command() {
    let (r, st, _) = open_field(1);
    let c = r.controls(&st, Side::Blue);
    assert!(c.units.is_empty());
    assert!(c.actions.is_empty());
    assert!(c.draft.is_none());
    assert!(c.prompt.contains("Rome"), "{}", c.prompt);
}

#[test]
fn labels_are_words_that_name_their_rules() {
    let (r, st, _) = open_field(1);
    let c = r.controls(&st, Side::Red);
    for (_, a) in offered(&c) {
        assert!(
            !a.label.contains('{') && !a.label.contains('"') && !a.label.contains("kind"),
            "raw label: {}",
            a.label
        );
        assert!(a.label.chars().next().is_some_and(char::is_uppercase), "{}", a.label);
        assert!(!a.rules.is_empty(), "'{}' names no rule", a.label);
        assert!(a.rules.iter().all(|x| x.starts_with("OTHW-")), "{:?}", a.rules);
    }
    for u in &c.units {
        if let Drag::Squares { targets } = &u.drag {
            for t in targets {
                let l = &t.action.label;
                assert!(l.starts_with("Move to ") && l.contains(" facing "), "{l}");
                assert!(t.action.rules.contains(&"OTHW-MOV-02".to_string()), "{l}");
            }
        }
    }
}

#[test]
fn a_unit_reaching_a_square_with_several_facings_gets_one_target_for_each() {
    let (r, st, _) = open_field(1);
    let c = r.controls(&st, Side::Red);
    // Free-facing cavalry may end on a square facing any way.
    let cav = c
        .units
        .iter()
        .find(|u| st.units[u.unit.parse::<usize>().unwrap()].m >= 3)
        .expect("Rome has horse");
    let Drag::Squares { targets } = &cav.drag else { panic!("the horse may move") };
    let (col, row) = (targets[0].col, targets[0].row);
    let here: Vec<&str> = targets
        .iter()
        .filter(|t| (t.col, t.row) == (col, row))
        .map(|t| t.action.label.as_str())
        .collect();
    assert_eq!(here.len(), 4, "{here:?}");
    for f in ["north", "east", "south", "west"] {
        assert!(here.iter().any(|l| l.ends_with(&format!("facing {f}"))), "{here:?}");
    }
}

#[test]
fn allowance_is_the_profile_move_in_squares() {
    let (r, st, _) = open_field(1);
    let c = r.controls(&st, Side::Red);
    for u in &c.units {
        let x = &st.units[u.unit.parse::<usize>().unwrap()];
        assert_eq!(u.label, &*x.name);
        assert_eq!(u.allowance, Some(f64::from(x.m)), "{}", u.label);
        let squares = if x.m == 1 { "1 square ".to_string() } else { format!("{} squares ", x.m) };
        assert!(u.allowance_text.starts_with(&squares), "{}", u.allowance_text);
        assert!(u.allowance_text.contains(&x.type_name.to_lowercase()), "{}", u.allowance_text);
        assert!(u.allowance_text.contains("[OTHW-MOV-02]"), "{}", u.allowance_text);
    }
}

#[test]
fn standing_orders_are_offered_as_toggles_that_change_one_order() {
    let (r, st, _) = open_field(1);
    let c = r.controls(&st, Side::Red);
    let orders: Vec<Orders> = c
        .actions
        .iter()
        .filter_map(|a| match command_of(a) {
            Command::Orders { orders } => Some(orders),
            _ => None,
        })
        .collect();
    let now = Orders::default();
    assert!(orders.len() >= 3, "reroll, rally and follow-up at least: {orders:?}");
    for o in &orders {
        let changed = [
            o.reroll != now.reroll,
            o.rally != now.rally,
            o.follow_up != now.follow_up,
            o.phalanx != now.phalanx,
        ];
        assert_eq!(changed.iter().filter(|&&x| x).count(), 1, "{o:?}");
    }
    assert!(
        c.actions
            .iter()
            .any(|a| a.label.contains("reroll") && a.rules.contains(&"OTHW-GEN-03".to_string()))
    );
}

#[test]
fn the_controls_stay_exact_through_a_scripted_battle() {
    let mut labels = Vec::new();
    for seed in [3u64, 8] {
        let (r, mut st, mut dice) = open_field(seed);
        for c in play(&r, &mut st, &mut dice, 400) {
            labels.extend(offered(&c).into_iter().map(|(_, a)| a.label.clone()));
        }
    }
    // The battle went beyond first moves: charges, standing combats, further moves and group
    // moves were offered in words.
    for want in ["Charge ", "Attack ", "Further move: ", "Group move of "] {
        assert!(labels.iter().any(|l| l.contains(want)), "nothing offered with '{want}'");
    }
}

#[test]
fn a_rampaging_elephant_may_be_put_down_and_attacked_by_its_own_side() {
    let text = scenario_text(
        &(unit("red", "Elephants", "Jumbo", 4, 1, "north")
            + &unit("red", "Infantry", "Foot", 4, 0, "north")
            + &unit("blue", "Infantry", "Enemy", 4, 7, "south")),
    );
    let r = rules();
    let mut st = state(&text);
    st.units[0].status = Status::Rampaging;
    let c = assert_exact(&r, &st, Side::Red);
    let jumbo = c.units.iter().find(|u| u.unit == "0").expect("the elephant has a menu");
    assert!(matches!(jumbo.drag, Drag::None), "a rampaging elephant is not moved by hand");
    assert_eq!(jumbo.allowance, None);
    assert!(jumbo.allowance_text.contains("OTHW-CMB-20"), "{}", jumbo.allowance_text);
    let mahouts = &jumbo.actions[0];
    assert!(mahouts.label.contains("mahouts") && mahouts.label.contains("Jumbo"));
    assert_eq!(mahouts.rules, ["OTHW-CMB-21"]);
    let foot = c.units.iter().find(|u| u.unit == "1").expect("the foot may act");
    let attack = foot.actions.iter().find(|a| a.label.contains("Jumbo")).expect("attack Jumbo");
    assert!(attack.label.starts_with("Attack our rampaging Jumbo"), "{}", attack.label);
    assert!(attack.rules.contains(&"OTHW-CMB-21".to_string()));
}

#[test]
fn the_generals_unit_may_attack_with_or_without_his_dice() {
    let text = scenario_with_generals(
        "Alexander",
        "Generic general",
        &(general_unit("red", "Infantry", "Guard", 4, 1, "north")
            + &unit("blue", "Infantry", "Enemy", 4, 7, "south")
            + &general_unit("blue", "Infantry", "Enemy guard", 8, 7, "south")),
    );
    let r = rules();
    let mut st = state(&text);
    put(&mut st, 0, 4, 6, GridFacing::North);
    let c = assert_exact(&r, &st, Side::Red);
    let guard = &c.units[0];
    let attacks: Vec<(&str, &[String])> = guard
        .actions
        .iter()
        .filter(|a| a.label.starts_with("Attack Enemy"))
        .map(|a| (a.label.as_str(), a.rules.as_slice()))
        .collect();
    assert_eq!(attacks.len(), 2, "{attacks:?}");
    assert_eq!(attacks[0].0, "Attack Enemy (standing combat)");
    assert_eq!(attacks[0].1, ["OTHW-CMB-02", "OTHW-GEN-02"]);
    assert_eq!(attacks[1].0, "Attack Enemy (standing combat), with Alexander's 2 attack dice");
    assert_eq!(attacks[1].1, ["OTHW-CMB-02", "OTHW-GEN-04", "OTHW-GEN-06", "OTHW-GEN-02"]);
}

#[test]
fn after_the_phase_ends_only_the_generals_unit_is_offered() {
    let text = scenario_with_generals(
        "Generic general",
        "Generic general",
        &(general_unit("red", "Infantry", "Guard", 2, 1, "north")
            + &unit("red", "Infantry", "Line", 6, 1, "north")
            + &unit("blue", "Infantry", "Enemy", 4, 7, "south")
            + &general_unit("blue", "Infantry", "Enemy guard", 8, 7, "south")),
    );
    let r = rules();
    let mut st = state(&text);
    st.phase_over = true;
    let c = assert_exact(&r, &st, Side::Red);
    let units: Vec<&str> = c.units.iter().map(|u| u.label.as_str()).collect();
    assert_eq!(units, ["Guard"]);
    let end = c.actions.last().expect("end the phase");
    assert_eq!(end.rules, ["OTHW-SEQ-09", "OTHW-SEQ-07"]);
    let Drag::Squares { targets } = &c.units[0].drag else { panic!("the guard may move") };
    assert!(targets.iter().all(|t| t.action.rules.contains(&"OTHW-GEN-02".to_string())));
}

#[test]
fn the_roster_has_one_row_per_unit_with_its_strength() {
    let (r, mut st, mut dice) = open_field(5);
    let check = |st: &State| {
        let rows = r.roster(st, Viewer::Side(Side::Blue));
        assert_eq!(rows.len(), st.units.len());
        assert_eq!(rows, r.roster(st, Viewer::Spectator), "nothing is hidden");
        for row in &rows {
            let x = &st.units[row.unit.parse::<usize>().unwrap()];
            assert_eq!(row.side, x.side.name());
            assert_eq!(row.label, &*x.name);
            assert_eq!(row.kind, &*x.type_name);
            assert_eq!(row.strength, format!("{}/{}", x.sp, x.s));
            assert_eq!(row.losses, format!("{} SP", x.s - x.sp));
            let want = match x.status {
                Status::Ready if x.pursuing.is_some() => "pursuing",
                Status::Ready => "",
                Status::Fleeing => "fleeing",
                Status::Rampaging => "rampaging",
                Status::Gone => "lost: ",
            };
            assert!(row.state.starts_with(want), "{}: {}", row.label, row.state);
        }
        let first_blue = rows.iter().position(|r| r.side == "blue").expect("blue rows");
        assert!(rows[first_blue..].iter().all(|r| r.side == "blue"), "red rows come first");
        rows
    };
    let rows = check(&st);
    assert!(rows.iter().all(|r| r.losses == "0 SP" && r.state.starts_with("ready")));
    assert!(rows.iter().any(|r| r.state.contains("general Hannibal attached")));
    play(&r, &mut st, &mut dice, 150);
    let rows = check(&st);
    assert!(rows.iter().any(|r| r.losses != "0 SP"), "the battle has cost something");
}

#[test]
fn a_finished_battle_offers_nothing_and_does_not_panic() {
    let (r, mut st, mut dice) = open_field(2);
    play(&r, &mut st, &mut dice, 5000);
    let outcome = st.outcome.clone().expect("the battle ends");
    for side in Side::BOTH {
        let c = r.controls(&st, side);
        assert!(c.units.is_empty() && c.actions.is_empty());
        assert!(c.prompt.contains(&outcome.reason), "{}", c.prompt);
    }
    assert_eq!(r.roster(&st, Viewer::Umpire).len(), st.units.len());
    // O/THW is gridded: nothing is measured.
    let request = MeasureRequest { unit: "0".into(), to: Point::new(2.0, 2.0), facing: None };
    assert!(r.measure(&st, Side::Red, &request).is_none());
}

#[test]
fn moves_are_dragged_and_turns_in_place_are_in_the_menu() {
    let text = scenario_text(
        &(unit("red", "Infantry", "Foot", 4, 1, "north")
            + &unit("blue", "Infantry", "Enemy", 4, 7, "south")),
    );
    let r = rules();
    let st = state(&text);
    let c = assert_exact(&r, &st, Side::Red);
    let foot = &c.units[0];
    assert_eq!(foot.allowance_text, "1 square (infantry) [OTHW-MOV-02]");
    let Drag::Squares { targets } = &foot.drag else { panic!("the foot may step") };
    let labels: Vec<&str> = targets.iter().map(|t| t.action.label.as_str()).collect();
    assert_eq!(labels, ["Move to E3 facing north"]);
    let turns: Vec<&str> = foot.actions.iter().map(|a| a.label.as_str()).collect();
    for f in [GridFacing::East, GridFacing::South, GridFacing::West] {
        let want = format!("Turn to face {}", othw::state::facing_name(f));
        assert!(turns.contains(&want.as_str()), "{turns:?}");
    }
}

#[test]
fn in_woods_the_allowance_is_one_square() {
    let text = scenario_text(
        &(terrain("wood", &[(4, 1)])
            + &unit("red", "Cavalry", "Horse", 4, 1, "north")
            + &unit("red", "Light Infantry", "Lights", 6, 1, "north")
            + &unit("blue", "Infantry", "Enemy", 4, 7, "south")),
    );
    let r = rules();
    let mut st = state(&text);
    put(&mut st, 1, 4, 2, GridFacing::North);
    let c = assert_exact(&r, &st, Side::Red);
    let horse = c.units.iter().find(|u| u.label == "Horse").expect("the horse may move");
    assert_eq!(horse.allowance, Some(1.0));
    assert_eq!(horse.allowance_text, "1 square (in woods or a ford) [OTHW-MOV-11]");
    let Drag::Squares { targets } = &horse.drag else { panic!("the horse may move") };
    assert!(targets.iter().all(|t| t.action.rules.contains(&"OTHW-MOV-11".to_string())));
    // Loose order troops are exempt (OTHW-MOV-11).
    put(&mut st, 1, 4, 1, GridFacing::North);
    put(&mut st, 0, 6, 1, GridFacing::North);
    let c = assert_exact(&r, &st, Side::Red);
    let lights = c.units.iter().find(|u| u.label == "Lights").expect("the lights may move");
    assert_eq!(lights.allowance_text, "2 squares (light infantry) [OTHW-MOV-02]");
}
