//! The sequence of each side's turn (LIB-SEQ-01..08).

mod common;
use common::*;
use liberal::state::{Choice, Command, Event, Objective, Order, Phase, Shot, Stage};
use tabletop::geometry::Point;
use tabletop::rules::Side;

fn game(body: &str) -> T {
    T::at_red_turn(&scenario("", body))
}

fn to_point(unit: usize, x: f64, y: f64) -> Order {
    order(
        unit,
        Choice::Liberal { objective: Objective::Point { at: Point::new(x, y) }, formation: None },
    )
}

fn gun(unit: usize, to: Option<(f64, f64)>, target: Option<usize>) -> Order {
    order(
        unit,
        Choice::Gun {
            to: to.map(|(x, y)| Point::new(x, y)),
            facing: None,
            target,
            shot: Shot::Round,
        },
    )
}

fn go_on() -> Command {
    Command::Advance { call_off: Vec::new(), reform: Vec::new() }
}

fn pos(ev: &[Event], f: impl Fn(&Event) -> bool) -> usize {
    ev.iter().position(f).expect("the event")
}

fn turn_begins(ev: &[Event]) -> Vec<(Side, u32)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::TurnBegins { side, game_turn, .. } => Some((*side, *game_turn)),
            _ => None,
        })
        .collect()
}

fn far_apart() -> String {
    unit("red", "infantry", 10.0, 8.0, 0.0, "figures = 4")
        + &unit("blue", "infantry", 62.0, 44.0, 180.0, "figures = 4")
}

#[test]
fn lib_seq_01_the_sides_alternate_first_mover_first_in_each_game_turn() {
    // "LIB-SEQ-01"
    let mut t = game(&far_apart());
    let mut seen = Vec::new();
    for side in [Side::Red, Side::Blue, Side::Red, Side::Blue] {
        let ev = t.declare(side, Vec::new(), &[]);
        assert!(T::cites(&ev, "LIB-SEQ-01"));
        seen.extend(turn_begins(&ev));
    }
    assert_eq!(seen, vec![(Side::Blue, 1), (Side::Red, 2), (Side::Blue, 2), (Side::Red, 3)]);
    assert_eq!(t.st.game_turn, 3);
    assert_eq!(t.refused_rule(Side::Blue, Command::Declare { orders: Vec::new() }), "LIB-SEQ-08");
}

#[test]
fn lib_seq_02_step_a_states_each_units_move_and_direction() {
    // "LIB-SEQ-02"
    let body = unit("red", "infantry", 10.0, 8.0, 0.0, "figures = 4")
        + &unit("red", "infantry", 30.0, 8.0, 0.0, "figures = 4")
        + &unit("red", "infantry", 50.0, 8.0, 0.0, "figures = 4")
        + &unit("blue", "infantry", 62.0, 44.0, 180.0, "figures = 4");
    let mut t = game(&body);
    let enemy = Command::Declare { orders: vec![normal(3, 62.0, 40.0)] };
    assert_eq!(t.refused_rule(Side::Red, enemy), "LIB-SEQ-02");
    let none = Command::Declare { orders: vec![stand(9)] };
    assert_eq!(t.refused_rule(Side::Red, none), "LIB-SEQ-02");
    let ev = t.declare(Side::Red, vec![normal(0, 10.0, 12.0), to_point(1, 30.0, 14.0)], &[]);
    let declared = ev
        .iter()
        .find_map(|e| match e {
            Event::Declared { side, orders, .. } => Some((*side, orders.clone())),
            _ => None,
        })
        .expect("declared");
    assert_eq!(declared.0, Side::Red);
    assert!(
        matches!(declared.1[0].choice, Choice::Normal { to, .. } if to == Point::new(10.0, 12.0))
    );
    assert!(
        matches!(declared.1[1].choice, Choice::Liberal { objective: Objective::Point { at }, .. } if at == Point::new(30.0, 14.0))
    );
    assert!(matches!(declared.1[2].choice, Choice::StandFast { .. }));
    assert!(T::cites(&ev[..1], "LIB-SEQ-02"));
    assert!(matches!(ev[0], Event::Declared { .. }), "step A comes first");
}

#[test]
fn lib_seq_03_step_b_moves_the_guns_and_names_each_guns_one_target() {
    // "LIB-SEQ-03": the horse gun moves 6" and fires at the named blue unit 28" off; the to-hit
    // die 1 misses.
    let body = unit("red", "horse_artillery", 20.0, 10.0, 0.0, "")
        + &unit("red", "infantry", 40.0, 8.0, 0.0, "figures = 4")
        + &unit("blue", "infantry", 20.0, 44.0, 180.0, "figures = 4");
    let mut t = game(&body);
    let own = Command::Declare { orders: vec![gun(0, None, Some(1))] };
    assert_eq!(t.refused_rule(Side::Red, own), "LIB-SEQ-03");
    let not_a_gun = Command::Declare { orders: vec![gun(1, None, Some(2))] };
    assert_eq!(t.refused_rule(Side::Red, not_a_gun), "LIB-SEQ-03");
    let ev = t.declare(Side::Red, vec![gun(0, Some((20.0, 16.0)), Some(2))], &[1]);
    let moved = pos(&ev, |e| matches!(e, Event::Moved { moved, .. } if moved.unit == 0));
    let fired = pos(&ev, |e| matches!(e, Event::Cannon { .. }));
    assert!(moved < fired);
    assert!(ev.iter().any(|e| matches!(e, Event::Moved { moved, rules, .. }
        if moved.unit == 0 && rules.iter().any(|r| r.as_str() == "LIB-SEQ-03"))));
    assert!(
        ev.iter().any(|e| matches!(e, Event::Cannon { shot, .. } if shot.target == 2 && !shot.hit))
    );
    assert_eq!(t.st.units[0].place.at, Point::new(20.0, 16.0));
}

#[test]
fn lib_seq_04_step_c_guns_fire_at_their_named_targets_only() {
    // "LIB-SEQ-04": gun 0 is told to fire at blue's far unit 4, not the nearer unit 3; gun 1
    // names no target and does not fire. To hit 2, casualties 1, count die 3.
    let body = unit("red", "foot_artillery", 30.0, 10.0, 0.0, "")
        + &unit("red", "foot_artillery", 50.0, 10.0, 0.0, "")
        + &unit("red", "infantry", 5.0, 8.0, 0.0, "figures = 4")
        + &unit("blue", "infantry", 40.0, 32.0, 180.0, "figures = 4")
        + &unit("blue", "infantry", 30.0, 44.0, 180.0, "figures = 4");
    let mut t = game(&body);
    let ev = t.declare(Side::Red, vec![gun(0, None, Some(4)), gun(1, None, None)], &[2, 1, 3]);
    let shots: Vec<_> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Cannon { shot, rules, .. } => Some((shot.clone(), rules.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(shots.len(), 1);
    assert_eq!((shots[0].0.gun, shots[0].0.target, shots[0].0.casualties), (0, 4, 1));
    assert!(shots[0].1.iter().any(|r| r.as_str() == "LIB-SEQ-04"));
    assert_eq!(t.st.units[4].strength(), 3);
    assert_eq!(t.st.units[3].strength(), 4);
}

#[test]
fn lib_seq_05_step_d_normal_movers_move_then_fire_and_stand_fast_units_fire() {
    // "LIB-SEQ-05": red 0 moves 6" up to 15" from blue 2 and fires; red 1 stands 15" from
    // blue 3 and fires; each blue unit fires back (LIB-R-20). Four volleys of one casualty.
    let body = unit("red", "infantry", 20.0, 10.0, 0.0, "figures = 4")
        + &unit("red", "infantry", 50.0, 16.0, 0.0, "figures = 4")
        + &unit("blue", "infantry", 20.0, 31.0, 180.0, "figures = 4")
        + &unit("blue", "infantry", 50.0, 31.0, 180.0, "figures = 4");
    let mut t = game(&body);
    let ev = t.declare(Side::Red, vec![normal(0, 20.0, 16.0)], &[3, 3, 3, 3]);
    let moved = pos(&ev, |e| matches!(e, Event::Moved { moved, .. } if moved.unit == 0));
    let first_fire = pos(&ev, |e| matches!(e, Event::Fired { .. }));
    assert!(moved < first_fire, "the normal mover moves before anyone fires");
    let firers: Vec<(usize, usize)> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Fired { volley, .. } => Some((volley.firer, volley.target)),
            _ => None,
        })
        .collect();
    assert_eq!(firers, vec![(0, 2), (1, 3), (2, 0), (3, 1)]);
    assert!(ev.iter().any(|e| matches!(e, Event::Fired { volley, rules, .. }
        if volley.firer == 0 && rules.iter().any(|r| r.as_str() == "LIB-SEQ-05"))));
    for u in 0..4 {
        assert_eq!(t.st.units[u].strength(), 3, "unit {u}");
    }
}

#[test]
fn lib_seq_06_step_e_runs_until_every_liberal_mover_is_done() {
    // "LIB-SEQ-06": one arrives on the first step, one is called off and walks back, the third
    // arrives on the third step; only then does the turn pass.
    let body = unit("red", "infantry", 10.0, 8.0, 0.0, "figures = 4")
        + &unit("red", "infantry", 25.0, 8.0, 0.0, "figures = 4")
        + &unit("red", "infantry", 40.0, 8.0, 0.0, "figures = 4")
        + &unit("blue", "infantry", 66.0, 44.0, 180.0, "figures = 4");
    let mut t = game(&body);
    let ev = t.declare(
        Side::Red,
        vec![to_point(0, 10.0, 12.0), to_point(1, 25.0, 30.0), to_point(2, 40.0, 24.0)],
        &[],
    );
    assert!(T::cites(&ev, "LIB-SEQ-06"));
    assert!(matches!(
        t.st.phase,
        Phase::Turn { side: Side::Red, stage: Stage::Liberal { step: 1 }, .. }
    ));
    let ev = t.side(Side::Red, Command::Advance { call_off: vec![1], reform: Vec::new() }, &[]);
    assert!(turn_begins(&ev).is_empty());
    assert_eq!(t.st.units[1].place.at, Point::new(25.0, 8.0));
    let ev = t.side(Side::Red, go_on(), &[]);
    assert_eq!(t.st.units[2].place.at, Point::new(40.0, 24.0));
    assert_eq!(turn_begins(&ev), vec![(Side::Blue, 1)]);
}

#[test]
fn lib_seq_07_the_steps_run_a_b_c_d_e_in_order() {
    // "LIB-SEQ-07": a gun moves and fires (to hit 1: a miss), a normal mover, a liberal mover.
    let body = unit("red", "horse_artillery", 10.0, 10.0, 0.0, "")
        + &unit("red", "infantry", 30.0, 8.0, 0.0, "figures = 4")
        + &unit("red", "infantry", 50.0, 8.0, 0.0, "figures = 4")
        + &unit("blue", "infantry", 10.0, 44.0, 180.0, "figures = 4");
    let mut t = game(&body);
    let ev = t.declare(
        Side::Red,
        vec![gun(0, Some((10.0, 16.0)), Some(3)), normal(1, 30.0, 14.0), to_point(2, 50.0, 20.0)],
        &[1],
    );
    let a = pos(&ev, |e| matches!(e, Event::Declared { .. }));
    let b = pos(&ev, |e| matches!(e, Event::Moved { moved, .. } if moved.unit == 0));
    let c = pos(&ev, |e| matches!(e, Event::Cannon { .. }));
    let d = pos(&ev, |e| matches!(e, Event::Moved { moved, .. } if moved.unit == 1));
    let e = pos(
        &ev,
        |e| matches!(e, Event::Moved { moved, forward_step: true, .. } if moved.unit == 2),
    );
    assert!(a < b && b < c && c < d && d < e, "{a} {b} {c} {d} {e}");
    assert!(T::cites(&ev, "LIB-SEQ-07"));
    // Out of order commands are refused.
    assert_eq!(t.refused_rule(Side::Red, Command::Declare { orders: Vec::new() }), "LIB-SEQ-07");
    assert_eq!(t.refused_rule(Side::Red, Command::Reform { formation: None }), "LIB-SEQ-07");
    // The declarations stand through step E.
    let declared = match &t.st.phase {
        Phase::Turn { orders, .. } => orders.clone(),
        _ => panic!(),
    };
    t.side(Side::Red, go_on(), &[]);
    let _ = declared;
    assert!(matches!(t.st.phase, Phase::Turn { side: Side::Blue, stage: Stage::Declare, .. }));
    assert_eq!(t.refused_rule(Side::Blue, go_on()), "LIB-SEQ-07");
}

#[test]
fn lib_seq_08_the_other_side_never_moves_and_fires_only_back_or_at_liberal_movers() {
    // "LIB-SEQ-08": red's four stand and fire at blue's four ahead (die 3), which fire back
    // (die 3). Blue's other unit has red's cavalry (moving, so not firing) in its range and
    // cone but does not fire, and no blue unit moves.
    let body = unit("red", "infantry", 36.0, 16.0, 0.0, "figures = 4")
        + &unit("red", "light_cavalry", 50.0, 15.0, 0.0, "figures = 4")
        + &unit("blue", "infantry", 36.0, 31.0, 180.0, "figures = 4")
        + &unit("blue", "infantry", 50.0, 31.0, 180.0, "figures = 4");
    let mut t = game(&body);
    assert_eq!(t.refused_rule(Side::Blue, Command::Declare { orders: Vec::new() }), "LIB-SEQ-08");
    let before: Vec<_> = t.st.units[2..].iter().map(|u| u.place).collect();
    let ev = t.declare(Side::Red, vec![stand(0), normal(1, 50.0, 16.0)], &[3, 3]);
    let firers: Vec<usize> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Fired { volley, .. } => Some(volley.firer),
            _ => None,
        })
        .collect();
    assert_eq!(firers, vec![0, 2]);
    assert!(ev.iter().any(|e| matches!(e, Event::Fired { volley, rules, .. }
        if volley.firer == 2 && rules.iter().any(|r| r.as_str() == "LIB-R-20"))));
    assert!(!ev.iter().any(|e| matches!(e, Event::Moved { moved, .. } if moved.unit >= 2)));
    let after: Vec<_> = t.st.units[2..].iter().map(|u| u.place).collect();
    assert_eq!(before, after);
    // Blue's fire at a liberal mover is its other way of firing, cited to this rule.
    let body = unit("red", "infantry", 36.0, 10.0, 0.0, "figures = 4")
        + &unit("blue", "infantry", 36.0, 31.0, 180.0, "figures = 4");
    let mut t = game(&body);
    let ev = t.declare(Side::Red, vec![to_point(0, 36.0, 16.0)], &[3, 3]);
    assert!(ev.iter().any(|e| matches!(e, Event::Fired { volley, rules, .. }
        if volley.firer == 1 && rules.iter().any(|r| r.as_str() == "LIB-SEQ-08"))));
}
