//! MOV-DIR: backward and sideways movement.
mod common;
use common::*;
use movement::model::Turn;

fn st() -> movement::State {
    state(&scenario_text(&(li("A", 30.0, 10.0) + &blue_far())))
}

/// MOV-DIR-01
#[test]
fn mov_dir_01_forward_costs_one_inch_per_inch() {
    close(cost(&st(), 0, &[adv(30.0, 17.0)]).unwrap(), 7.0);
    // Oblique but within 45° of the front: still forward.
    close(cost(&st(), 0, &[adv(33.0, 14.0)]).unwrap(), 5.0);
}

/// MOV-DIR-02
#[test]
fn mov_dir_02_backward_costs_double() {
    close(cost(&st(), 0, &[adv(30.0, 7.0)]).unwrap(), 6.0);
}

/// MOV-DIR-03
#[test]
fn mov_dir_03_sideways_costs_double() {
    close(cost(&st(), 0, &[adv(33.0, 10.0)]).unwrap(), 6.0);
    close(cost(&st(), 0, &[adv(27.0, 10.0)]).unwrap(), 6.0);
}

/// MOV-DIR-04
#[test]
fn mov_dir_04_sectors_are_90_degrees_with_45_counting_as_forward() {
    let s = st();
    // Exactly 45°: forward.
    close(cost(&s, 0, &[adv(34.0, 14.0)]).unwrap(), 32f64.sqrt());
    // Just past 45°: sideways.
    let d = (4.0f64 * 4.0 + 3.99 * 3.99).sqrt();
    close(cost(&s, 0, &[adv(34.0, 13.99)]).unwrap(), 2.0 * d);
    // Exactly 45° to the rear: a flank (sideways), which also costs double.
    close(cost(&s, 0, &[adv(33.0, 7.0)]).unwrap(), 2.0 * 18f64.sqrt());
    // A bent path is judged piece by piece: 3" forward then 2" back.
    close(cost(&s, 0, &[adv(30.0, 13.0), adv(30.0, 11.0)]).unwrap(), 3.0 + 4.0);
}

/// MOV-DIR-05
#[test]
fn mov_dir_05_worked_test_back_four_and_left_five() {
    let text = scenario_text(&(li("A", 30.0, 10.0) + &blue_far()));
    let mut g = game(&text);
    let ev = ok(&mut g, RED, mv(0, vec![adv(30.0, 6.0)]));
    close(moved_cost(&ev), 8.0);
    close(12.0 - moved_cost(&ev), 4.0);
    let s = st();
    let c = cost(&s, 0, &[adv(25.0, 10.0)]).unwrap();
    close(c, 10.0);
    close(12.0 - c, 2.0);
}

/// MOV-DIR-06
#[test]
fn mov_dir_06_turning_first_can_be_cheaper() {
    let s = st();
    // Good LI retiring 5": about-face (1") and advance 5" = 6", or back away for 10".
    let backing = cost(&s, 0, &[adv(30.0, 5.0)]).unwrap();
    close(backing, 10.0);
    let p = rules().plan_move(&s, 0, &[face(Turn::About)], false, false).unwrap();
    let at = p.pose.at;
    let turning = cost(&s, 0, &[face(Turn::About), adv(at.x, at.y - 5.0)]).unwrap();
    close(turning, 6.0);
    assert!(turning < backing);
}
