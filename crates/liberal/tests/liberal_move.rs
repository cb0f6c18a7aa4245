//! The liberal move (LIB-LIBERAL-01..14).

mod common;
use common::*;
use liberal::state::{Choice, Command, Event, Formation, Leg, Objective, Order, Phase, Stage};
use tabletop::geometry::{Facing, Point};
use tabletop::rules::{Actor, RuleSet, Side, Viewer};

/// Blue's infantry far off in the north-east corner, out of every range.
fn far_blue() -> String {
    unit("blue", "infantry", 62.0, 44.0, 180.0, "figures = 4")
}

fn game(body: &str) -> T {
    T::at_red_turn(&scenario("", body))
}

/// A liberal move to a point.
fn to_point(unit: usize, x: f64, y: f64, formation: Option<Formation>) -> Order {
    order(unit, Choice::Liberal { objective: Objective::Point { at: Point::new(x, y) }, formation })
}

fn go_on() -> Command {
    Command::Advance { call_off: Vec::new(), reform: Vec::new() }
}

/// The forward and back steps of a unit in these events: (used, allowance, forward).
fn steps(ev: &[Event], unit: usize) -> Vec<(f64, f64, bool)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Moved { moved, forward_step, .. } if moved.unit == unit => {
                Some((moved.used, moved.allowance, *forward_step))
            }
            _ => None,
        })
        .collect()
}

fn fired_by(ev: &[Event], unit: usize) -> Vec<liberal::state::Volley> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Fired { volley, .. } if volley.firer == unit => Some(volley.clone()),
            _ => None,
        })
        .collect()
}

fn stage(t: &T) -> Stage {
    match &t.st.phase {
        Phase::Turn { stage, .. } => stage.clone(),
        p => panic!("not in a turn: {p:?}"),
    }
}

fn movers(t: &T) -> Vec<liberal::state::Mover> {
    match &t.st.phase {
        Phase::Turn { movers, .. } => movers.clone(),
        _ => Vec::new(),
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

fn blues_turn(t: &T) -> bool {
    matches!(t.st.phase, Phase::Turn { side: Side::Blue, stage: Stage::Declare, .. })
}

#[test]
fn lib_liberal_01_a_liberal_move_has_no_distance_limit() {
    // "LIB-LIBERAL-01": 30" in one turn, five normal moves of 6".
    let mut t = game(&(unit("red", "infantry", 10.0, 8.0, 0.0, "") + &far_blue()));
    let mut ev = t.declare(Side::Red, vec![to_point(0, 10.0, 38.0, None)], &[]);
    for _ in 0..4 {
        ev.extend(t.side(Side::Red, go_on(), &[]));
    }
    let s = steps(&ev, 0);
    assert_eq!(s.len(), 5);
    let total: f64 = s.iter().map(|x| x.0).sum();
    assert!(close(total, 30.0), "{s:?}");
    assert!(T::cites(&ev, "LIB-LIBERAL-01"));
    assert_eq!(t.st.units[0].place.at, Point::new(10.0, 38.0));
    assert!(blues_turn(&t));
}

#[test]
fn lib_liberal_02_the_objective_is_stated_stored_and_shown() {
    // "LIB-LIBERAL-02"
    let mut t = game(
        &(unit("red", "infantry", 10.0, 8.0, 0.0, "")
            + &unit("red", "infantry", 30.0, 8.0, 0.0, "")
            + &far_blue()),
    );
    let off = Command::Declare { orders: vec![to_point(0, 10.0, 50.0, None)] };
    assert_eq!(t.refused_rule(Side::Red, off), "LIB-LIBERAL-02");
    let friend = Command::Declare {
        orders: vec![order(
            0,
            Choice::Liberal { objective: Objective::Unit { unit: 1 }, formation: None },
        )],
    };
    assert_eq!(t.refused_rule(Side::Red, friend), "LIB-LIBERAL-02");
    let ev = t.declare(Side::Red, vec![to_point(0, 10.0, 38.0, None)], &[]);
    assert!(T::cites(&ev, "LIB-LIBERAL-02"));
    let log = T::log(&ev).join("\n");
    assert!(log.contains("liberal move to (10.0, 38.0)"), "{log}");
    // Blue sees the objective of the move under way.
    let v = t.rules.view(&t.st, Viewer::Side(Side::Blue));
    assert!(v.orders.iter().any(|o| o.unit == 0
        && matches!(o.choice, Choice::Liberal { objective: Objective::Point { at }, .. } if at == Point::new(10.0, 38.0))));
    assert_eq!(v.movers.len(), 1);
    assert_eq!(v.movers[0].objective, Objective::Point { at: Point::new(10.0, 38.0) });
}

#[test]
fn lib_liberal_03_an_assault_a_flank_or_rear_shift_or_a_better_position_are_all_legal() {
    // "LIB-LIBERAL-03"
    let mut t = game(&(unit("red", "infantry", 20.0, 14.0, 0.0, "") + &far_blue()));
    let red = Actor::Side(Side::Red);
    for o in [
        order(0, Choice::Liberal { objective: Objective::Unit { unit: 1 }, formation: None }),
        to_point(0, 40.0, 14.0, None),
        to_point(0, 20.0, 8.0, None),
        to_point(0, 24.0, 20.0, None),
    ] {
        let c = Command::Declare { orders: vec![o.clone()] };
        assert!(t.rules.check(&t.st, red, &c).is_ok(), "{o:?}");
    }
    // The move to the rear is played: the unit turns about and goes back 6".
    let ev = t.declare(Side::Red, vec![to_point(0, 20.0, 8.0, None)], &[]);
    assert!(T::cites(&ev, "LIB-LIBERAL-03"));
    assert_eq!(t.st.units[0].place.at, Point::new(20.0, 8.0));
    assert_eq!(t.st.units[0].place.facing, Facing::from_bearing_degrees(180.0));
    assert!(blues_turn(&t));
}

#[test]
fn lib_liberal_04_steps_of_one_normal_move_the_last_shorter() {
    // "LIB-LIBERAL-04": 15" in line: 6, 6 and 3.
    let mut t = game(&(unit("red", "infantry", 10.0, 8.0, 0.0, "") + &far_blue()));
    let mut ev = t.declare(Side::Red, vec![to_point(0, 10.0, 23.0, None)], &[]);
    assert_eq!(stage(&t), Stage::Liberal { step: 1 });
    ev.extend(t.side(Side::Red, go_on(), &[]));
    ev.extend(t.side(Side::Red, go_on(), &[]));
    let s = steps(&ev, 0);
    assert_eq!(s.len(), 3);
    for (x, want) in s.iter().zip([6.0, 6.0, 3.0]) {
        assert!(close(x.0, want) && close(x.1, 6.0) && x.2, "{s:?}");
    }
    assert!(T::cites(&ev, "LIB-LIBERAL-04"));
    assert_eq!(t.st.units[0].place.at, Point::new(10.0, 23.0));
}

/// Red's four on a liberal move north towards blue's four, 15" apart after the first step.
fn advance_on_blue() -> T {
    let body = unit("red", "infantry", 36.0, 10.0, 0.0, "figures = 4")
        + &unit("blue", "infantry", 36.0, 31.0, 180.0, "figures = 4")
        + &far_blue();
    game(&body)
}

#[test]
fn lib_liberal_05_every_enemy_in_range_fires_after_each_step() {
    // "LIB-LIBERAL-05": after the first step blue's four (15": medium, 1 a 4) fire at the
    // mover: die 3, red's third figure dead; the mover fires back (die 3). The blue unit in
    // the far corner has no range and does not fire.
    let mut t = advance_on_blue();
    let ev = t.declare(Side::Red, vec![to_point(0, 36.0, 22.0, None)], &[3, 3]);
    let blue = fired_by(&ev, 1);
    assert_eq!(blue.len(), 1);
    assert_eq!((blue[0].target, blue[0].casualties), (0, 1));
    assert!(fired_by(&ev, 2).is_empty());
    // Red's return fire is worked out from its strength before the exchange (LIB-FIRE-03).
    assert_eq!(fired_by(&ev, 0)[0].figures, 4);
    assert!(ev.iter().any(|e| matches!(e, Event::Fired { volley, rules, .. }
        if volley.firer == 1 && rules.iter().any(|r| r.as_str() == "LIB-LIBERAL-05"))));
    // The fire comes after the step.
    let step =
        ev.iter().position(|e| matches!(e, Event::Moved { forward_step: true, .. })).unwrap();
    let fire = ev.iter().position(|e| matches!(e, Event::Fired { .. })).unwrap();
    assert!(step < fire);
    assert_eq!(t.st.units[0].strength(), 3);
    // The second step, 9" off: three blue firers, 0 a 4 and a remainder die of 3 in 4: a 4
    // misses; red's three the same.
    let ev = t.side(Side::Red, go_on(), &[4, 4]);
    assert_eq!(fired_by(&ev, 1).len(), 1);
    assert_eq!(fired_by(&ev, 1)[0].casualties, 0);
    assert!(blues_turn(&t));
}

#[test]
fn lib_liberal_06_the_mover_fires_back_only_into_its_front_cone() {
    // "LIB-LIBERAL-06": red moves east along y = 14; blue's four stand to the north facing
    // south. On the last step blue has red in its cone (15": one casualty, die 3); blue is off
    // red's left, outside its 20° cone, so red does not fire.
    let body = unit("red", "infantry", 20.0, 14.0, 90.0, "figures = 4")
        + &unit("blue", "infantry", 38.0, 30.0, 180.0, "figures = 4")
        + &far_blue();
    let mut t = game(&body);
    let mut ev = t.declare(Side::Red, vec![to_point(0, 38.0, 14.0, None)], &[]);
    ev.extend(t.side(Side::Red, go_on(), &[]));
    assert!(ev.iter().all(|e| !matches!(e, Event::Fired { .. })));
    let ev = t.side(Side::Red, go_on(), &[3]);
    assert_eq!(fired_by(&ev, 1).len(), 1, "blue fires at the mover");
    assert!(fired_by(&ev, 0).is_empty(), "the mover has nothing in its front cone");
    assert!(T::cites(&ev, "LIB-LIBERAL-05"));
    // "LIB-LIBERAL-06" is the movers' own return fire: given a target ahead, it fires.
    let mut t = advance_on_blue();
    let ev = t.declare(Side::Red, vec![to_point(0, 36.0, 16.0, None)], &[3, 3]);
    assert!(ev.iter().any(|e| matches!(e, Event::Fired { volley, rules, .. }
        if volley.firer == 0 && rules.iter().any(|r| r.as_str() == "LIB-LIBERAL-06"))));
}

#[test]
fn lib_liberal_07_a_formation_change_on_a_step_takes_that_steps_change_rate() {
    // "LIB-LIBERAL-07": a column forming line moves 9" on that step (column to line), then 6"
    // a step in line.
    let body = unit("red", "infantry", 20.0, 10.0, 0.0, "formation = \"column\"") + &far_blue();
    let mut t = game(&body);
    let mut ev = t.declare(Side::Red, vec![to_point(0, 20.0, 30.0, Some(Formation::Line))], &[]);
    assert_eq!(t.st.units[0].place.formation, Formation::Line);
    ev.extend(t.side(Side::Red, go_on(), &[]));
    ev.extend(t.side(Side::Red, go_on(), &[]));
    let s = steps(&ev, 0);
    assert!(close(s[0].0, 9.0) && close(s[0].1, 9.0), "{s:?}");
    assert!(close(s[1].0, 6.0) && close(s[1].1, 6.0), "{s:?}");
    assert!(close(s[2].0, 5.0), "{s:?}");
    assert!(ev.iter().any(|e| matches!(e, Event::Moved { moved, rules, .. }
        if moved.allowance == 9.0 && rules.iter().any(|r| r.as_str() == "LIB-LIBERAL-07"))));
    // A house is no formation to change to.
    let t = game(&(unit("red", "infantry", 20.0, 10.0, 0.0, "") + &far_blue()));
    let c = Command::Declare { orders: vec![to_point(0, 20.0, 30.0, Some(Formation::House))] };
    assert_eq!(t.refused_rule(Side::Red, c), "LIB-LIBERAL-07");
}

#[test]
fn lib_liberal_08_called_off_after_a_step_the_unit_goes_back_a_normal_move_a_step() {
    // "LIB-LIBERAL-08": two steps out, called off, two steps back to the start, with the
    // start's facing (LIB-R-42).
    let mut t = game(&(unit("red", "infantry", 10.0, 8.0, 0.0, "") + &far_blue()));
    let start = t.st.units[0].place;
    t.declare(Side::Red, vec![to_point(0, 10.0, 38.0, None)], &[]);
    t.side(Side::Red, go_on(), &[]);
    assert_eq!(t.st.units[0].place.at, Point::new(10.0, 20.0));
    let ev = t.side(Side::Red, Command::Advance { call_off: vec![0], reform: Vec::new() }, &[]);
    assert!(ev.iter().any(|e| matches!(e, Event::Leg { unit: 0, leg: Leg::Back, .. })));
    let back = steps(&ev, 0);
    assert_eq!(back.len(), 2, "{back:?}");
    assert!(back.iter().all(|s| !s.2 && close(s.0, 6.0)), "{back:?}");
    assert!(T::cites(&ev, "LIB-LIBERAL-08"));
    assert_eq!(t.st.units[0].place, start);
    assert!(blues_turn(&t));
}

#[test]
fn lib_liberal_09_no_calling_off_before_the_first_step_is_complete() {
    // "LIB-LIBERAL-09": the owner is first asked after the first forward step.
    let mut t = game(&(unit("red", "infantry", 10.0, 8.0, 0.0, "") + &far_blue()));
    assert_eq!(
        t.refused_rule(Side::Red, Command::Advance { call_off: vec![0], reform: Vec::new() }),
        "LIB-SEQ-07"
    );
    let ev = t.declare(Side::Red, vec![to_point(0, 10.0, 38.0, None)], &[]);
    assert!(ev.iter().any(|e| matches!(e, Event::Moved { forward_step: true, .. })));
    assert_eq!(stage(&t), Stage::Liberal { step: 1 });
    assert_eq!(movers(&t)[0].steps, 1);
    assert!(T::cites(&ev, "LIB-LIBERAL-09"));
    // A unit that is not on a liberal move cannot be called off.
    assert_eq!(
        t.refused_rule(Side::Red, Command::Advance { call_off: vec![1], reform: Vec::new() }),
        "LIB-LIBERAL-08"
    );
}

#[test]
fn lib_liberal_10_going_back_the_unit_is_fired_on_and_does_not_fire() {
    // "LIB-LIBERAL-10": the exchange after the first step (dice 3, 3); called off, it walks
    // back 6" to 21" from blue (long: 1 a 6; three firers, a remainder die 2 of 6 hits) and
    // takes the count die 4 (wounded); it fires nothing back.
    let mut t = advance_on_blue();
    t.declare(Side::Red, vec![to_point(0, 36.0, 28.0, None)], &[3, 3]);
    let ev = t.side(Side::Red, Command::Advance { call_off: vec![0], reform: Vec::new() }, &[2, 4]);
    let blue = fired_by(&ev, 1);
    assert_eq!(blue.len(), 1);
    assert_eq!((blue[0].target, blue[0].casualties), (0, 1));
    assert!(fired_by(&ev, 0).is_empty());
    assert!(ev.iter().any(|e| matches!(e, Event::Moved { moved, forward_step: false, rules, .. }
        if moved.unit == 0 && rules.iter().any(|r| r.as_str() == "LIB-LIBERAL-10"))));
    assert_eq!(t.st.units[0].strength(), 2);
    assert_eq!(t.st.units[0].place.at, Point::new(36.0, 10.0));
}

#[test]
fn lib_liberal_11_a_unit_at_its_objective_has_finished_for_the_turn() {
    // "LIB-LIBERAL-11"
    let mut t = game(&(unit("red", "infantry", 10.0, 8.0, 0.0, "") + &far_blue()));
    let ev = t.declare(Side::Red, vec![to_point(0, 10.0, 12.0, None)], &[]);
    assert!(ev.iter().any(|e| matches!(e, Event::Leg { unit: 0, leg: Leg::Done, rules, .. }
        if rules.iter().any(|r| r.as_str() == "LIB-LIBERAL-11"))));
    assert_eq!(steps(&ev, 0).len(), 1);
    assert_eq!(t.st.units[0].place.at, Point::new(10.0, 12.0));
    assert!(blues_turn(&t), "no further step: the turn passes");
}

/// Red's light cavalry in column (15" a step) 13" from blue's two foot.
fn charge() -> T {
    let body = unit("red", "light_cavalry", 36.0, 17.0, 0.0, "figures = 4\nformation = \"column\"")
        + &unit("blue", "infantry", 36.0, 30.0, 180.0, "figures = 2\nofficers = false")
        + &far_blue();
    game(&body)
}

#[test]
fn lib_liberal_12_contact_is_fought_out_before_the_move_is_finished() {
    // "LIB-LIBERAL-12": the charge touches blue on its first step. Two single fights, red
    // 5 + 1 against 2, each loser dead (fate 3): blue's rank and unit are gone.
    let mut t = charge();
    let ev = t.declare(
        Side::Red,
        vec![order(0, Choice::Liberal { objective: Objective::Unit { unit: 1 }, formation: None })],
        &[5, 2, 3, 5, 2, 3],
    );
    let melee = ev.iter().position(|e| matches!(e, Event::Melee { .. })).expect("a melee");
    let done = ev
        .iter()
        .position(|e| matches!(e, Event::Leg { unit: 0, leg: Leg::Done, .. }))
        .expect("the move ends");
    assert!(melee < done);
    assert!(ev.iter().any(|e| matches!(e, Event::Melee { attacker: 0, attacker_won: true, fights, .. } if fights.len() == 2)));
    assert!(T::cites(&ev, "LIB-LIBERAL-12"));
    assert!(!fired_by(&ev, 1).iter().any(|_| true), "units in contact do not fire");
    // The winner may re-form (LIB-HTH-14); then the turn passes.
    assert_eq!(stage(&t), Stage::Reform { unit: 0, step: 1, queue: Vec::new() });
    t.side(Side::Red, Command::Reform { formation: None }, &[]);
    assert!(blues_turn(&t));
    assert_eq!(t.st.units[1].strength(), 0);
}

#[test]
fn lib_liberal_13_all_liberal_movers_step_together() {
    // "LIB-LIBERAL-13": both move one step, then the owner is asked; then both again.
    let body = unit("red", "infantry", 10.0, 8.0, 0.0, "")
        + &unit("red", "infantry", 30.0, 8.0, 0.0, "")
        + &far_blue();
    let mut t = game(&body);
    let ev = t.declare(
        Side::Red,
        vec![to_point(0, 10.0, 20.0, None), to_point(1, 30.0, 26.0, None)],
        &[],
    );
    let moves: Vec<usize> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Moved { moved, forward_step: true, .. } => Some(moved.unit),
            _ => None,
        })
        .collect();
    assert_eq!(moves, vec![0, 1]);
    assert!(matches!(ev.last(), Some(Event::Staged { stage: Stage::Liberal { step: 1 } })));
    assert!(T::cites(&ev, "LIB-LIBERAL-13"));
    let ev = t.side(Side::Red, go_on(), &[]);
    assert_eq!(steps(&ev, 0).len(), 1);
    assert_eq!(steps(&ev, 1).len(), 1);
    assert_eq!(stage(&t), Stage::Liberal { step: 2 });
    let ev = t.side(Side::Red, go_on(), &[]);
    assert!(steps(&ev, 0).is_empty(), "unit 0 is at its objective");
    assert_eq!(steps(&ev, 1).len(), 1);
    assert!(blues_turn(&t));
}

#[test]
fn lib_liberal_14_guns_do_not_make_liberal_moves() {
    // "LIB-LIBERAL-14"
    let t = game(&(unit("red", "horse_artillery", 10.0, 8.0, 0.0, "") + &far_blue()));
    let c = Command::Declare { orders: vec![to_point(0, 10.0, 30.0, None)] };
    assert_eq!(t.refused_rule(Side::Red, c), "LIB-LIBERAL-14");
}

#[test]
fn lib_liberal_07_a_formation_change_on_a_later_step() {
    // "LIBERAL-07": "on any of the normal moves of the liberal move" (II.B.6). A column steps
    // 9"; told between steps to form line, its second step is the column-to-line 9" (a line
    // alone moves 6"), and it is in line; its third step is 6".
    let body = unit("red", "infantry", 20.0, 10.0, 0.0, "formation = \"column\"") + &far_blue();
    let mut t = game(&body);
    t.declare(Side::Red, vec![to_point(0, 20.0, 40.0, None)], &[]);
    let reform: Command = serde_json::from_value(serde_json::json!({
        "kind": "advance", "call_off": [], "reform": [[0, "line"]]
    }))
    .expect("an advance");
    let ev = t.side(Side::Red, reform, &[]);
    assert_eq!(t.st.units[0].place.formation, Formation::Line, "LIB-LIBERAL-07");
    let s = steps(&ev, 0);
    assert!(close(s[0].0, 9.0) && close(s[0].1, 9.0), "{s:?}");
    let ev = t.side(Side::Red, go_on(), &[]);
    assert!(close(steps(&ev, 0)[0].0, 6.0));
}

#[test]
fn lib_liberal_12_touching_an_enemy_it_did_not_name_it_stops_and_fights() {
    // "LIB-LIBERAL-12" with LIB-R-39: the charge is aimed at a point beyond blue's two foot;
    // it touches them on the way, stops, and fights as in the assault (the same dice).
    let mut t = charge();
    let ev = t.declare(Side::Red, vec![to_point(0, 36.0, 40.0, None)], &[5, 2, 3, 5, 2, 3]);
    assert!(T::cites(&ev, "LIB-R-39"));
    assert!(ev.iter().any(
        |e| matches!(e, Event::Melee { attacker: 0, defenders, .. } if defenders == &vec![1])
    ));
    assert!(ev.iter().any(|e| matches!(e, Event::Leg { unit: 0, leg: Leg::Done, rules, .. }
        if rules.iter().any(|r| r.as_str() == "LIB-LIBERAL-12"))));
    assert!(t.st.units[0].place.at.y < 30.0, "it stopped at blue's front");
}
