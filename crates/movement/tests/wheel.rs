//! MOV-WHEEL: wheeling.
mod common;
use common::*;
use movement::state::Step;
use movement::{Formation, Movement};
use std::f64::consts::{FRAC_PI_2, FRAC_PI_4};
use tabletop::geometry::Pivot;
use tabletop::rules::RuleSet;

fn wheel(pivot: Pivot, degrees: f64) -> Step {
    Step::Wheel { pivot, degrees }
}

fn line(files: u32, ranks: u32) -> String {
    scenario_text(
        &(unit(
            "A",
            "red",
            "medium_infantry",
            "medium",
            "good",
            "line",
            files,
            files * ranks,
            30.0,
            20.0,
            0.0,
        ) + &blue_far()),
    )
}

/// MOV-WHEEL-01
#[test]
fn mov_wheel_01_a_wheel_turns_about_a_front_corner_that_stays_still() {
    let s = state(&line(4, 1));
    let before = movement::layout::outline(&s.units[0].pose, 4, (1.5, 1.0));
    let p = rules().plan_move(&s, 0, &[wheel(Pivot::Left, 90.0)], false, false).unwrap();
    let after = movement::layout::outline(&p.pose, 4, (1.5, 1.0));
    assert!(before.front_left().distance(after.front_left()) < 1e-9);
    assert!((after.facing.vector() - tabletop::Facing::WEST.vector()).length() < 1e-9);
    // A circle has no front corner.
    let circle = scenario_text(
        &(unit("C", "red", "medium_infantry", "medium", "good", "circle", 1, 8, 30.0, 20.0, 0.0)
            + &blue_far()),
    );
    assert_eq!(cost(&state(&circle), 0, &[wheel(Pivot::Left, 45.0)]).unwrap_err(), "MOV-WHEEL-01");
    assert_eq!(state(&circle).units[0].pose.formation, Formation::Circle);
}

/// MOV-WHEEL-02
#[test]
fn mov_wheel_02_wheels_mix_with_segments_even_in_a_charge() {
    let text = scenario_text(
        &(unit("A", "red", "medium_infantry", "medium", "good", "line", 2, 2, 30.0, 20.0, 0.0)
            + &unit(
                "B",
                "blue",
                "medium_infantry",
                "medium",
                "good",
                "line",
                2,
                2,
                24.0,
                24.0,
                90.0,
            )),
    );
    let mut g = game(&text);
    // Forward 2", wheel left 90° (3" frontage: 4.71"), then on toward the enemy.
    let ev = ok(
        &mut g,
        RED,
        charge(0, vec![adv(30.0, 22.0), wheel(Pivot::Left, 90.0), adv(10.0, 23.5)]),
    );
    assert!(matches!(
        &ev[0],
        movement::Event::Moved { kind: movement::state::MoveKind::Charge, .. }
    ));
    assert!(rules().in_contact(g.state(), 0));
}

/// MOV-WHEEL-03
#[test]
fn mov_wheel_03_the_wheel_is_measured_on_the_outside_of_the_turn() {
    let s = state(&line(4, 2));
    // Frontage 6", depth ignored by default.
    close(cost(&s, 0, &[wheel(Pivot::Right, 90.0)]).unwrap(), 6.0 * FRAC_PI_2);
    // The literal "farthest stand" switch measures the far rear corner.
    let mut data = Movement::new().data;
    data.geometry.wheel.rear_corner = true;
    let r = Movement::with_data(data);
    let sc = r.load_scenario(&tabletop::Source::new("t", line(4, 2))).unwrap();
    let (st, _) = r.setup(&sc, &mut tabletop::ScriptedDice::new([]));
    close(
        r.plan_move(&st, 0, &[wheel(Pivot::Right, 90.0)], false, false).unwrap().cost,
        6f64.hypot(2.0) * FRAC_PI_2,
    );
}

/// MOV-WHEEL-04
#[test]
fn mov_wheel_04_cost_is_frontage_times_angle() {
    close(cost(&state(&line(4, 1)), 0, &[wheel(Pivot::Left, 90.0)]).unwrap(), 9.42477796);
    let mut data = Movement::new().data;
    data.geometry.stand.foot = [2.0, 1.0];
    let r = Movement::with_data(data);
    let sc = r.load_scenario(&tabletop::Source::new("t", line(2, 1))).unwrap();
    let (st, _) = r.setup(&sc, &mut tabletop::ScriptedDice::new([]));
    let c = r.plan_move(&st, 0, &[wheel(Pivot::Left, 45.0)], false, false).unwrap().cost;
    close(c, 4.0 * FRAC_PI_4);
    // The digest rounds it to 3.14".
    assert_eq!(format!("{c:.2}"), "3.14");
}

/// MOV-WHEEL-05
#[test]
fn mov_wheel_05_forward_wheel_not_doubled_backward_doubled_terrain_along_the_arc() {
    let s = state(&line(4, 1));
    close(cost(&s, 0, &[wheel(Pivot::Left, 30.0)]).unwrap(), 6.0 * 30f64.to_radians());
    close(cost(&s, 0, &[wheel(Pivot::Left, -30.0)]).unwrap(), 2.0 * 6.0 * 30f64.to_radians());
    // In mud the whole arc costs double.
    let mud = "\n[[area]]\nkind = \"marsh\"\npoints = [[0.0, 0.0], [60.0, 0.0], [60.0, 40.0], [0.0, 40.0]]\n";
    let s = state(&scenario_text(
        &(mud.to_string()
            + &unit(
                "A",
                "red",
                "medium_infantry",
                "medium",
                "good",
                "line",
                4,
                4,
                30.0,
                20.0,
                0.0,
            )
            + &blue_far()),
    ));
    close(cost(&s, 0, &[wheel(Pivot::Left, 30.0)]).unwrap(), 2.0 * 6.0 * 30f64.to_radians());
}
