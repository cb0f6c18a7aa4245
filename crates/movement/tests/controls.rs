//! The browser client's controls for the movement rule set: the menus offer only commands that
//! `check` accepts, a dragged move is measured by the rules' own engine (terrain, direction,
//! facing, wheels) and refused with the rule's ID past the allowance, and the measured action
//! moves the unit where it was dropped.

mod common;

use common::*;
use movement::layout::outline;
use movement::model::Formation;
use movement::state::{Command, State, Step};
use movement::{Movement, Unit};
use tabletop::controls::{Effect, MeasureRequest, Measurement};
use tabletop::geometry::{Facing, Point, Vec2};
use tabletop::rules::{Actor, RuleSet, Side, Viewer};

/// The centre of a unit's outline: the point the client drags.
fn centre(u: &Unit) -> Point {
    outline(&u.pose, u.stands.len(), u.stand_size).centre
}

fn measure(
    r: &Movement,
    st: &State,
    side: Side,
    unit: usize,
    to: Point,
    facing: Option<Facing>,
) -> Measurement {
    r.measure(st, side, &MeasureRequest { unit: unit.to_string(), to, facing })
        .unwrap_or_else(|| panic!("unit {unit} could not be measured"))
}

/// The command an action sends.
fn command_of(effect: &Effect) -> Command {
    match effect {
        Effect::Send { command } => serde_json::from_value(command.clone())
            .unwrap_or_else(|e| panic!("the action's command does not parse: {e}: {command}")),
        other => panic!("movement actions send commands, not {other:?}"),
    }
}

fn steps_of(c: &Command) -> &[Step] {
    match c {
        Command::Move { steps, .. } => steps,
        other => panic!("expected a move, got {other:?}"),
    }
}

/// Every action offered to `side` passes `check`; returns how many there were.
#[track_caller]
fn every_action_passes(r: &Movement, st: &State, side: Side) -> usize {
    let controls = r.controls(st, side);
    let mut n = 0;
    let all = controls.actions.iter().chain(controls.units.iter().flat_map(|u| &u.actions));
    for a in all {
        let c = command_of(&a.effect);
        if let Err(refusal) = r.check(st, Actor::Side(side), &c) {
            panic!("the action '{}' ({c:?}) is refused: {refusal}", a.label);
        }
        assert!(!a.rules.is_empty(), "the action '{}' cites no rule", a.label);
        assert!(a.rules.iter().all(|id| id.starts_with("MOV-")), "{:?}", a.rules);
        n += 1;
    }
    n
}

/// A red light-infantry stand (12") facing north at (10, 10), blue far away, and a wood whose
/// southern edge is at y = 15.
fn wood_text() -> String {
    scenario_text(&format!(
        r#"
[[area]]
name = "Copse"
kind = "wood"
points = [[0.0, 15.0], [30.0, 15.0], [30.0, 40.0], [0.0, 40.0]]
{}{}"#,
        li("Scouts", 10.0, 10.0),
        blue_far()
    ))
}

/// A red light-infantry stand facing north at (10, 10) on open ground.
fn open_text() -> String {
    scenario_text(&format!("{}{}", li("Scouts", 10.0, 10.0), blue_far()))
}

#[test]
fn every_action_offered_at_the_ford_passes_check_for_both_sides() {
    let r = rules();
    let mut g = game(&ford_text());
    let st = g.state().clone();
    let controls = r.controls(&st, Side::Red);
    assert_eq!(controls.prompt, "turn 1: red movement phase");
    // Every red unit may move in the first phase, each dragged freely with menus.
    assert_eq!(controls.units.len(), st.units_of(Side::Red).count());
    assert!(controls.units.iter().all(|u| u.drag == tabletop::controls::Drag::Free));
    let n = every_action_passes(&r, &st, Side::Red);
    assert!(n > 20, "only {n} actions");
    // The global action ends the phase (MOV-GEN-01).
    assert_eq!(command_of(&controls.actions[0].effect), Command::EndPhase);
    // The menus hold changes of facing, wheels, formation changes, a forced march and the gun's
    // unlimbering.
    let spearmen = st.find("Red Spearmen").unwrap();
    let sp = controls.units.iter().find(|u| u.unit == spearmen.to_string()).unwrap();
    assert_eq!(sp.allowance, Some(6.0), "heavy infantry in heavy armor: 6\" (T1)");
    assert!(sp.allowance_text.contains("MOV-GEN-02"), "{}", sp.allowance_text);
    assert!(sp.allowance_text.contains("12.00\" on a forced march [MOV-FM-02]"));
    let kinds: Vec<Command> = sp.actions.iter().map(|a| command_of(&a.effect)).collect();
    let has = |f: &dyn Fn(&Step) -> bool| {
        kinds.iter().any(|c| matches!(c, Command::Move { steps, .. } if steps.iter().any(f)))
    };
    assert!(has(&|s| matches!(s, Step::Face(_))));
    assert!(has(&|s| matches!(s, Step::Wheel { .. })));
    assert!(has(&|s| matches!(s, Step::Form { formation: Formation::Column, .. })));
    assert!(kinds.iter().any(|c| matches!(c, Command::Move { forced_march: true, .. })));
    // The levy may only be in mass (MOV-FORM-07): no other formation is offered.
    let levy = st.find("Red Levy").unwrap();
    let lv = controls.units.iter().find(|u| u.unit == levy.to_string()).unwrap();
    for a in &lv.actions {
        if let Command::Move { steps, .. } = command_of(&a.effect) {
            for s in steps {
                if let Step::Form { formation, .. } = s {
                    assert_eq!(formation, Formation::Mass, "{}", a.label);
                }
            }
        }
    }
    let gun = st.find("Red Gun").unwrap();
    let gn = controls.units.iter().find(|u| u.unit == gun.to_string()).unwrap();
    assert!(gn.actions.iter().any(|a| command_of(&a.effect) == Command::Unlimber { unit: gun }));
    // Blue waits: nothing to command, not even the end of red's phase.
    let blue = r.controls(&st, Side::Blue);
    assert!(blue.units.is_empty() && blue.actions.is_empty());
    // In blue's phase, blue's menus pass check too; the unlimbered bombard may turn, limber up
    // or shoot, but not be dragged (MOV-LIMB-03).
    end(&mut g);
    let st = g.state().clone();
    assert!(every_action_passes(&r, &st, Side::Blue) > 20);
    let bombard = st.find("Blue Bombard").unwrap();
    let controls = r.controls(&st, Side::Blue);
    let bb = controls.units.iter().find(|u| u.unit == bombard.to_string()).unwrap();
    assert_eq!(bb.drag, tabletop::controls::Drag::None);
    assert!(bb.actions.iter().any(|a| command_of(&a.effect) == Command::Shoot { unit: bombard }));
    assert!(r.controls(&st, Side::Red).units.is_empty());
}

#[test]
fn a_short_move_in_the_open_costs_its_length_and_fits() {
    // MOV-TER-02, MOV-DIR-01: firm ground forward costs 1" an inch.
    let r = rules();
    let st = game(&ford_text()).state().clone();
    let spearmen = st.find("Red Spearmen").unwrap();
    let from = centre(&st.units[spearmen]);
    let m = measure(&r, &st, Side::Red, spearmen, from + Vec2::new(0.0, 2.5), None);
    close(m.length, 2.5);
    close(m.cost, m.length);
    close(m.within, m.length);
    close(m.allowance, 6.0);
    assert!(m.rule.is_none() && m.reason.is_none(), "{m:?}");
    let action = m.action.expect("a legal move has an action");
    assert!(action.rules.contains(&"MOV-GEN-01".to_string()));
    assert_eq!(m.path.first(), Some(&from));
    assert!((m.path.last().unwrap().distance(from + Vec2::new(0.0, 2.5))) < 1e-9);
    assert!(m.notes.iter().any(|n| n.contains("firm ground") && n.contains("[MOV-TER-02]")));
}

#[test]
fn a_move_into_a_wood_pays_double_for_the_inches_inside() {
    // MOV-TER-12: light woods ×2 (T3), charged for the stand centre's inches inside.
    let r = rules();
    let st = state(&wood_text());
    let u = &st.units[0];
    let from = centre(u);
    let m = measure(&r, &st, Side::Red, 0, from + Vec2::new(0.0, 8.0), None);
    // The centre starts half a stand behind the front at y = 10 and ends 8" further north;
    // the wood starts at y = 15.
    let inside = from.y + 8.0 - 15.0;
    assert!(inside > 0.0 && inside < 8.0);
    close(m.length, 8.0);
    close(m.cost, 8.0 + inside * (2.0 - 1.0));
    assert!(m.cost > m.length);
    close(m.within, m.length);
    assert!(m.action.is_some(), "{m:?}");
    assert!(
        m.notes.iter().any(|n| n.contains("light woods ×2") && n.contains("[MOV-TER-12]")),
        "{:?}",
        m.notes
    );
}

#[test]
fn a_move_past_the_allowance_is_refused_with_the_rule_and_the_allowance_runs_out_on_the_way() {
    // MOV-GEN-01: a move costs at most the allowance; light infantry has 12" (T1).
    let r = rules();
    let st = state(&open_text());
    let from = centre(&st.units[0]);
    let m = measure(&r, &st, Side::Red, 0, from + Vec2::new(0.0, 15.0), None);
    close(m.length, 15.0);
    close(m.cost, 15.0);
    close(m.allowance, 12.0);
    assert!(m.within < m.length);
    assert!((m.within - 12.0).abs() < 1e-3, "within {}", m.within);
    assert_eq!(m.rule.as_deref(), Some("MOV-GEN-01"));
    assert!(m.reason.as_deref().is_some_and(|s| s.contains("12.00")), "{:?}", m.reason);
    assert!(m.action.is_none());
    // The player is told a forced march would cover it (MOV-FM-02: 24").
    assert!(m.notes.iter().any(|n| n.contains("MOV-FM-02")), "{:?}", m.notes);
    // Backward, the allowance lasts half as far (MOV-DIR-02: ×2).
    let m = measure(&r, &st, Side::Red, 0, from - Vec2::new(0.0, 8.0), None);
    close(m.cost, 16.0);
    assert!((m.within - 6.0).abs() < 1e-3, "within {}", m.within);
    assert_eq!(m.rule.as_deref(), Some("MOV-GEN-01"));
}

#[test]
fn sending_the_measured_action_moves_the_unit_to_the_dropped_point() {
    let r = rules();
    let mut g = game(&ford_text());
    let spearmen = g.state().find("Red Spearmen").unwrap();
    let to = centre(&g.state().units[spearmen]) + Vec2::new(-0.5, 3.0);
    let m = measure(&r, g.state(), Side::Red, spearmen, to, None);
    let c = command_of(&m.action.expect("legal").effect);
    let ev = ok(&mut g, RED, c);
    close(moved_cost(&ev), m.cost);
    let u = &g.state().units[spearmen];
    assert!(centre(u).distance(to) < 1e-9, "ended at {:?}, dropped at {to:?}", centre(u));
    assert_eq!(u.pose.facing, Facing::NORTH);
    // It has moved: it may not be dragged again this phase (MOV-GEN-01).
    assert!(
        r.measure(
            g.state(),
            Side::Red,
            &MeasureRequest { unit: spearmen.to_string(), to, facing: None }
        )
        .is_none()
    );
}

#[test]
fn a_drop_facing_sideways_turns_first_then_advances_when_that_is_cheaper() {
    // MOV-DIR-06: turning first and moving forward (1" + 5") beats moving sideways (10").
    let r = rules();
    let mut g = game(&open_text());
    let to = centre(&g.state().units[0]) + Vec2::new(5.0, 0.0);
    let m = measure(&r, g.state(), Side::Red, 0, to, Some(Facing::EAST));
    close(m.cost, 6.0);
    let c = command_of(&m.action.expect("legal").effect);
    assert!(matches!(steps_of(&c)[0], Step::Face(movement::Turn::Right)), "{c:?}");
    ok(&mut g, RED, c);
    let u = &g.state().units[0];
    assert!(centre(u).distance(to) < 1e-9);
    assert!(u.pose.facing.vector().distance(Facing::EAST.vector()) < 1e-9);
}

#[test]
fn a_drop_at_an_oblique_facing_is_a_wheel() {
    // MOV-WHEEL-04: a stand wheeling 45° pays its frontage × π/4 on the outside.
    let r = rules();
    let mut g = game(&open_text());
    let u = &g.state().units[0];
    let width = u.stand_size.0;
    let to = centre(u) + Vec2::new(0.0, 3.0);
    let m = measure(&r, g.state(), Side::Red, 0, to, Some(Facing::from_bearing_degrees(45.0)));
    let c = command_of(&m.action.expect("legal").effect);
    let steps = steps_of(&c);
    assert!(
        steps
            .iter()
            .any(|s| matches!(s, Step::Wheel { degrees, .. } if (degrees - 45.0).abs() < 1e-9))
    );
    let arc = width * std::f64::consts::FRAC_PI_4;
    assert!(
        m.notes.iter().any(|n| n.starts_with("wheel 45°")
            && n.contains(&format!(": {arc:.2}\" × firm ground ×1 [MOV-TER-02]"))
            && n.ends_with(&format!("= {arc:.2}\""))),
        "{:?}",
        m.notes
    );
    let planned = r.plan_move(g.state(), 0, steps, false, false).unwrap();
    close(m.cost, planned.cost);
    assert!(m.cost > arc);
    ok(&mut g, RED, c);
    let u = &g.state().units[0];
    assert!(centre(u).distance(to) < 1e-6, "ended at {:?}", centre(u));
    assert!((u.pose.facing.bearing_degrees() - 45.0).abs() < 1e-6);
}

#[test]
fn unknown_units_enemy_units_and_odd_points_measure_safely() {
    let r = rules();
    let st = game(&ford_text()).state().clone();
    let req = |unit: &str, to: Point| MeasureRequest { unit: unit.into(), to, facing: None };
    let here = Vec2::new(20.0, 20.0);
    assert!(r.measure(&st, Side::Red, &req("999", here)).is_none());
    assert!(r.measure(&st, Side::Red, &req("Red Spearmen", here)).is_none());
    assert!(r.measure(&st, Side::Red, &req("", here)).is_none());
    let blue = st.find("Blue Knights").unwrap();
    assert!(r.measure(&st, Side::Red, &req(&blue.to_string(), here)).is_none());
    assert!(r.measure(&st, Side::Blue, &req(&blue.to_string(), here)).is_none(), "not its phase");
    let spearmen = st.find("Red Spearmen").unwrap().to_string();
    assert!(r.measure(&st, Side::Red, &req(&spearmen, Vec2::new(f64::NAN, 3.0))).is_none());
    // Off the table: measured, refused, no panic.
    assert!(r.measure(&st, Side::Red, &req(&spearmen, Vec2::new(1e300, 1e300))).is_none());
    for to in [Vec2::new(-50.0, 12.0), Vec2::new(1e12, -1e12), Vec2::new(12.0, 1e150)] {
        let m = r.measure(&st, Side::Red, &req(&spearmen, to)).expect("measured");
        assert!(m.action.is_none() && m.rule.is_some(), "{m:?}");
        assert!(m.within <= m.length && m.within >= 0.0, "{m:?}");
        assert!(serde_json::to_string(&m).is_ok());
    }
    // Across the river outside the ford: refused by MOV-TER-06, the allowance stops at the bank.
    let sp = &st.units[st.find("Red Spearmen").unwrap()];
    let m = r.measure(&st, Side::Red, &req(&spearmen, centre(sp) + Vec2::new(-2.0, 5.5))).unwrap();
    assert!(m.action.is_none());
    assert!(m.within < m.length, "{m:?}");
}

#[test]
fn the_roster_lists_every_unit_with_its_strength_and_state() {
    let r = rules();
    let mut g = game(&ford_text());
    let st = g.state().clone();
    let rows = r.roster(&st, Viewer::Spectator);
    assert_eq!(rows.len(), st.units.len());
    let sp = rows.iter().find(|row| row.label == "Red Spearmen").unwrap();
    assert_eq!(sp.side, "red");
    assert_eq!(sp.unit, st.find("Red Spearmen").unwrap().to_string());
    assert_eq!(sp.kind, "heavy infantry, heavy armor, good");
    assert_eq!(sp.strength, "8 stands, 80 EP");
    assert_eq!(sp.losses, "none");
    assert!(sp.state.starts_with("line, Firm"), "{}", sp.state);
    let bombard = rows.iter().find(|row| row.label == "Blue Bombard").unwrap();
    assert!(bombard.state.contains("unlimbered"), "{}", bombard.state);
    // The umpire's losses show on the sheet (MOV-FM-05 EP).
    let spearmen = st.find("Red Spearmen").unwrap();
    ok(&mut g, Actor::Umpire, Command::SetEndurance { unit: spearmen, stand: Some(0), ep: 7 });
    let rows = r.roster(g.state(), Viewer::Side(Side::Blue));
    let sp = rows.iter().find(|row| row.label == "Red Spearmen").unwrap();
    assert_eq!(sp.strength, "8 stands, 77 EP");
    assert_eq!(sp.losses, "3 EP below 10 a stand");
}

#[test]
fn a_drop_onto_an_enemy_is_a_charge_under_a_battle_command_that_stops_at_contact() {
    // MOV-GEN-07: a move that ends in contact needs a battle command; MOV-GEN-08: 4/3 allowance.
    let r = rules();
    let text = scenario_text(&format!(
        "{}{}",
        li("Scouts", 10.0, 10.0),
        blue_li("Targets", 10.0, 16.0, 180.0)
    ));
    let mut g = game(&text);
    let from = centre(&g.state().units[0]);
    let into = centre(&g.state().units[1]);
    let m = measure(&r, g.state(), Side::Red, 0, into, None);
    close(m.allowance, 16.0);
    assert!(m.within < m.length, "{m:?}");
    // The allowance lasts to the contact: 6" from the front at y = 10 to the enemy's at y = 16.
    assert!((m.within - 6.0).abs() < 1e-3, "within {}", m.within);
    assert!(m.notes.iter().any(|n| n.contains("MOV-GEN-07")), "{:?}", m.notes);
    let action = m.action.expect("a charge is legal");
    assert!(action.rules.contains(&"MOV-GEN-07".to_string()));
    let c = command_of(&action.effect);
    assert!(matches!(c, Command::Move { battle_command: true, .. }), "{c:?}");
    ok(&mut g, RED, c);
    assert!(r.in_contact(g.state(), 0));
    close(centre(&g.state().units[0]).distance(from), 6.0);
}

#[test]
fn through_a_random_game_every_offer_and_every_measured_action_passes_check() {
    let r = rules();
    let mut g = game(&ford_text());
    let mut rng = tabletop::dice::SeededDice::new(11);
    for _ in 0..16 {
        let Some(side) = g.pending().sides().first().copied() else { break };
        let st = g.state().clone();
        every_action_passes(&r, &st, side);
        // Drags in every direction, near and far, on and off the table, some with a facing.
        for u in r.controls(&st, side).units {
            let id: usize = u.unit.parse().unwrap();
            let from = centre(&st.units[id]);
            for k in 0..4 {
                let angle = (rng.below(360) as f64).to_radians();
                let reach = [0.0, 3.0, 9.0, 40.0][k];
                let to = from + Vec2::new(angle.sin(), angle.cos()) * reach;
                let facing = match rng.below(3) {
                    0 => None,
                    1 => Some(Facing::from_bearing_degrees(rng.below(4) as f64 * 90.0)),
                    _ => Some(Facing::from_bearing_degrees(rng.below(360) as f64)),
                };
                let Some(m) =
                    r.measure(&st, side, &MeasureRequest { unit: u.unit.clone(), to, facing })
                else {
                    assert_eq!(u.drag, tabletop::controls::Drag::None);
                    continue;
                };
                assert!(m.within >= 0.0 && m.within <= m.length + 1e-9, "{m:?}");
                assert!(m.cost.is_finite() && m.cost >= 0.0, "{m:?}");
                match &m.action {
                    Some(a) => {
                        let c = command_of(&a.effect);
                        assert!(r.check(&st, Actor::Side(side), &c).is_ok(), "{m:?}");
                        assert!(m.rule.is_none());
                    }
                    None => assert!(m.rule.is_some() && m.reason.is_some(), "{m:?}"),
                }
            }
        }
        let options = r.candidates(&st, side, &mut rng);
        let c = options[rng.below(options.len() as u32) as usize].clone();
        ok(&mut g, Actor::Side(side), c);
    }
}
