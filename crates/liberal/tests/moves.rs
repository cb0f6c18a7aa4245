//! Unit choices and movement (LIB-CHOICE-01..09).

mod common;
use common::*;
use liberal::state::{Choice, Command, Event, Formation, Order, Phase, Place, Placement, Stage};
use tabletop::geometry::{Facing, Point};
use tabletop::rules::Side;

/// Blue's infantry far off in the north-east corner, out of every range.
fn far_blue() -> String {
    unit("blue", "infantry", 62.0, 44.0, 180.0, "")
}

fn game(red: &str) -> T {
    T::at_red_turn(&scenario("", &(red.to_string() + &far_blue())))
}

/// A normal move with a final facing and a formation.
fn normal_to(
    unit: usize,
    x: f64,
    y: f64,
    facing: Option<f64>,
    formation: Option<Formation>,
) -> Order {
    order(
        unit,
        Choice::Normal { to: Point::new(x, y), facing, formation, mount: None, target: None },
    )
}

/// A gun's move.
fn gun_to(unit: usize, x: f64, y: f64) -> Order {
    order(
        unit,
        Choice::Gun {
            to: Some(Point::new(x, y)),
            facing: None,
            target: None,
            shot: liberal::state::Shot::Round,
        },
    )
}

fn moved(ev: &[Event], unit: usize) -> liberal::state::Moved {
    ev.iter()
        .find_map(|e| match e {
            Event::Moved { moved, .. } if moved.unit == unit => Some(moved.clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("unit {unit} moves"))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

#[test]
fn lib_choice_01_every_unit_takes_exactly_one_option() {
    // "LIB-CHOICE-01"
    let red = unit("red", "infantry", 20.0, 10.0, 0.0, "")
        + &unit("red", "infantry", 40.0, 10.0, 0.0, "");
    let mut t = game(&red);
    let two = Command::Declare { orders: vec![normal(0, 20.0, 13.0), stand(0)] };
    assert_eq!(t.refused_rule(Side::Red, two), "LIB-CHOICE-01");
    // Units left out stand fast: the declaration holds one choice for each red unit.
    let ev = t.declare(Side::Red, vec![normal(0, 20.0, 13.0)], &[]);
    let orders = ev
        .iter()
        .find_map(|e| match e {
            Event::Declared { orders, .. } => Some(orders.clone()),
            _ => None,
        })
        .expect("declared");
    assert!(T::cites(&ev, "LIB-CHOICE-01"));
    assert_eq!(orders.len(), 2);
    assert_eq!(orders[0].unit, 0);
    assert!(matches!(orders[0].choice, Choice::Normal { .. }));
    assert_eq!(orders[1].unit, 1);
    assert!(matches!(orders[1].choice, Choice::StandFast { .. }));
    assert_eq!(t.st.units[0].place.at, Point::new(20.0, 13.0));
    assert_eq!(t.st.units[1].place.at, Point::new(40.0, 10.0));
}

#[test]
fn lib_choice_02_a_line_moves_6_not_6_1() {
    // "LIB-CHOICE-02"
    let mut t = game(&unit("red", "infantry", 20.0, 10.0, 0.0, ""));
    let c = Command::Declare { orders: vec![normal(0, 20.0, 16.1)] };
    assert_eq!(t.refused_rule(Side::Red, c), "LIB-CHOICE-02");
    let ev = t.declare(Side::Red, vec![normal(0, 20.0, 16.0)], &[]);
    let m = moved(&ev, 0);
    assert!(close(m.used, 6.0) && close(m.allowance, 6.0), "{m:?}");
    assert!(T::cites(&ev, "LIB-CHOICE-02"));
    assert_eq!(t.st.units[0].place.at, Point::new(20.0, 16.0));
    assert!(matches!(t.st.phase, Phase::Turn { side: Side::Blue, .. }));
}

#[test]
fn lib_choice_03_the_road_rate_only_for_a_column_wholly_on_the_road() {
    // "LIB-CHOICE-03": a road runs north along x = 20.
    let red = unit("red", "infantry", 20.0, 10.0, 0.0, "formation = \"column\"")
        + &unit("red", "infantry", 40.0, 10.0, 0.0, "formation = \"column\"")
        + &unit("red", "infantry", 20.0, 16.0, 0.0, "figures = 8");
    let road = "[[line]]\nname = \"Pike\"\nkind = \"dirt_road\"\nwidth = 2.0\npoints = [[20, 0], [20, 48]]\n";
    let mut t = T::at_red_turn(&scenario("", &(red + &far_blue() + road)));
    // Off the road a column has 9"; a line on the road still 6"; leaving the road loses the rate.
    let off = Command::Declare { orders: vec![normal(1, 40.0, 19.5)] };
    assert_eq!(t.refused_rule(Side::Red, off), "LIB-CHOICE-02");
    let line = Command::Declare { orders: vec![normal(2, 20.0, 22.5)] };
    assert_eq!(t.refused_rule(Side::Red, line), "LIB-CHOICE-02");
    let leaves = Command::Declare { orders: vec![normal_to(0, 26.0, 18.0, Some(0.0), None)] };
    assert_eq!(t.refused_rule(Side::Red, leaves), "LIB-CHOICE-02");
    // On the road, in column, 12".
    let ev = t.declare(Side::Red, vec![normal(0, 20.0, 22.0), normal(1, 40.0, 19.0)], &[]);
    let m = moved(&ev, 0);
    assert!(close(m.used, 12.0) && close(m.allowance, 12.0), "{m:?}");
    assert!(ev.iter().any(|e| matches!(e, Event::Moved { moved, rules, .. }
        if moved.unit == 0 && rules.iter().any(|r| r.as_str() == "LIB-CHOICE-03"))));
    assert!(close(moved(&ev, 1).allowance, 9.0));
    assert_eq!(t.st.units[0].place.at, Point::new(20.0, 22.0));
}

#[test]
fn lib_choice_04_guns_move_only_at_column_or_road_rate() {
    // "LIB-CHOICE-04": horse guns 12" (15" on a road), foot guns 6" (9").
    let red = unit("red", "horse_artillery", 10.0, 10.0, 0.0, "")
        + &unit("red", "foot_artillery", 30.0, 10.0, 0.0, "")
        + &unit("red", "foot_artillery", 50.0, 10.0, 0.0, "")
        + &unit("red", "horse_artillery", 60.0, 4.0, 90.0, "");
    let road = "[[line]]\nname = \"Pike\"\nkind = \"dirt_road\"\nwidth = 2.0\npoints = [[50, 0], [50, 48]]\n\n\
                [[line]]\nname = \"Lane\"\nkind = \"dirt_road\"\nwidth = 2.0\npoints = [[40, 4], [72, 4]]\n";
    let mut t = T::at_red_turn(&scenario("", &(red + &far_blue() + road)));
    for (o, rule) in [
        (gun_to(0, 10.0, 22.1), "LIB-CHOICE-04"),
        (gun_to(1, 30.0, 16.1), "LIB-CHOICE-04"),
        (gun_to(2, 50.0, 19.1), "LIB-CHOICE-04"),
        (gun_to(3, 44.9, 4.0), "LIB-CHOICE-04"),
        (normal(0, 10.0, 12.0), "LIB-SEQ-03"),
    ] {
        assert_eq!(t.refused_rule(Side::Red, Command::Declare { orders: vec![o] }), rule);
    }
    let ev = t.declare(
        Side::Red,
        vec![
            gun_to(0, 10.0, 22.0),
            gun_to(1, 30.0, 16.0),
            gun_to(2, 50.0, 19.0),
            gun_to(3, 45.0, 4.0),
        ],
        &[],
    );
    for (u, a) in [(0, 12.0), (1, 6.0), (2, 9.0), (3, 15.0)] {
        let m = moved(&ev, u);
        assert!(close(m.allowance, a) && close(m.used, a), "unit {u}: {m:?}");
    }
    assert!(T::cites(&ev, "LIB-CHOICE-04"));
    assert_eq!(t.st.units[2].place.at, Point::new(50.0, 19.0));
}

#[test]
fn lib_choice_05_a_formation_change_limits_the_move_and_guns_never_change() {
    // "LIB-CHOICE-05": infantry line to column 6" (though a column moves 9"), column to line
    // 9" (though a line moves 6"); light cavalry line to column 9" (a column moves 15").
    let red = unit("red", "infantry", 10.0, 10.0, 0.0, "")
        + &unit("red", "infantry", 25.0, 10.0, 0.0, "formation = \"column\"")
        + &unit("red", "light_cavalry", 40.0, 10.0, 0.0, "")
        + &unit("red", "foot_artillery", 55.0, 10.0, 0.0, "");
    let mut t = game(&red);
    for (o, rule) in [
        (normal_to(0, 10.0, 16.1, None, Some(Formation::Column)), "LIB-CHOICE-05"),
        (normal_to(1, 25.0, 19.1, None, Some(Formation::Line)), "LIB-CHOICE-05"),
        (normal_to(2, 40.0, 19.1, None, Some(Formation::Column)), "LIB-CHOICE-05"),
        (normal_to(3, 55.0, 12.0, None, Some(Formation::Column)), "LIB-SEQ-03"),
    ] {
        assert_eq!(t.refused_rule(Side::Red, Command::Declare { orders: vec![o] }), rule);
    }
    // A gun has no formation to be drawn up in.
    let mut t2 = T::new(&scenario("", &(red.clone() + &far_blue())), &[6, 1]);
    t2.side(Side::Red, Command::ChooseEdge { south: true }, &[]);
    let p = Placement {
        unit: 3,
        place: Place {
            at: Point::new(55.0, 10.0),
            facing: Facing::from_bearing_degrees(0.0),
            formation: Formation::Column,
        },
    };
    assert_eq!(
        t2.refused_rule(Side::Red, Command::Deploy { placements: vec![p] }),
        "LIB-CHOICE-05"
    );
    let ev = t.declare(
        Side::Red,
        vec![
            normal_to(0, 10.0, 16.0, None, Some(Formation::Column)),
            normal_to(1, 25.0, 19.0, None, Some(Formation::Line)),
            normal_to(2, 40.0, 19.0, None, Some(Formation::Column)),
        ],
        &[],
    );
    for (u, a, f) in
        [(0, 6.0, Formation::Column), (1, 9.0, Formation::Line), (2, 9.0, Formation::Column)]
    {
        let m = moved(&ev, u);
        assert!(close(m.allowance, a) && close(m.used, a), "unit {u}: {m:?}");
        assert_eq!(t.st.units[u].place.formation, f);
    }
    assert!(T::cites(&ev, "LIB-CHOICE-05"));
}

#[test]
fn lib_choice_06_a_square_moves_at_most_4_inches() {
    // "LIB-CHOICE-06": a square of infantry, and a line of grenadiers forming square.
    let red = unit("red", "infantry", 12.0, 10.0, 0.0, "formation = \"square\"")
        + &unit("red", "grenadiers", 30.0, 10.0, 0.0, "")
        + &unit("red", "light_cavalry", 50.0, 10.0, 0.0, "");
    let mut t = game(&red);
    for (o, rule) in [
        (normal(0, 12.0, 14.1), "LIB-CHOICE-06"),
        (normal_to(1, 30.0, 14.1, None, Some(Formation::Square)), "LIB-CHOICE-06"),
        (normal_to(2, 50.0, 12.0, None, Some(Formation::Square)), "LIB-SQUARE-01"),
    ] {
        assert_eq!(t.refused_rule(Side::Red, Command::Declare { orders: vec![o] }), rule);
    }
    let ev = t.declare(
        Side::Red,
        vec![normal(0, 12.0, 14.0), normal_to(1, 30.0, 14.0, None, Some(Formation::Square))],
        &[],
    );
    for u in [0, 1] {
        let m = moved(&ev, u);
        assert!(close(m.allowance, 4.0) && close(m.used, 4.0), "unit {u}: {m:?}");
        assert_eq!(t.st.units[u].place.formation, Formation::Square);
    }
    assert!(T::cites(&ev, "LIB-CHOICE-06"));
}

#[test]
fn lib_choice_07_a_unit_standing_fast_stays_and_fires_in_step_d() {
    // "LIB-CHOICE-07": four red against four blue 15" apart (medium band, 1 a 4: one casualty
    // each way, no remainder die). Red's count die 3 kills blue's third figure; blue fires back
    // (LIB-R-20) and its die 3 kills red's third.
    let body = unit("red", "infantry", 36.0, 16.0, 0.0, "figures = 4")
        + &unit("blue", "infantry", 36.0, 31.0, 180.0, "figures = 4");
    let mut t = T::at_red_turn(&scenario("", &body));
    let before = t.st.units[0].place;
    let ev = t.declare(Side::Red, vec![stand(0)], &[3, 3]);
    assert!(
        !ev.iter().any(|e| matches!(e, Event::Moved { .. })),
        "standing fast, it does not move"
    );
    assert_eq!(t.st.units[0].place, before);
    let fired = ev
        .iter()
        .find_map(|e| match e {
            Event::Fired { volley, rules, .. } if volley.firer == 0 => {
                Some((volley.clone(), rules.clone()))
            }
            _ => None,
        })
        .expect("red fires");
    assert_eq!((fired.0.target, fired.0.figures, fired.0.casualties), (1, 4, 1));
    assert!(fired.1.iter().any(|r| r.as_str() == "LIB-CHOICE-07"));
    assert!(fired.1.iter().any(|r| r.as_str() == "LIB-SEQ-05"));
    assert_eq!(t.st.units[1].strength(), 3);
    assert_eq!(t.st.units[0].strength(), 3);
}

#[test]
fn lib_choice_08_a_gun_with_fewer_than_2_figures_cannot_move() {
    // "LIB-CHOICE-08"
    let red = unit("red", "horse_artillery", 10.0, 10.0, 0.0, "figures = 1")
        + &unit("red", "horse_artillery", 30.0, 10.0, 0.0, "figures = 2");
    let mut t = game(&red);
    let c = Command::Declare { orders: vec![gun_to(0, 10.0, 14.0)] };
    assert_eq!(t.refused_rule(Side::Red, c), "LIB-CHOICE-08");
    let ev = t.declare(Side::Red, vec![gun_to(1, 30.0, 14.0)], &[]);
    assert_eq!(moved(&ev, 1).to.at, Point::new(30.0, 14.0));
    assert!(T::cites(&ev, "LIB-CHOICE-08") || T::cites(&ev, "LIB-CHOICE-04"));
    assert_eq!(t.st.units[0].place.at, Point::new(10.0, 10.0));
}

#[test]
fn lib_choice_09_a_unit_moves_the_way_it_declared_and_may_stop_short() {
    // "LIB-CHOICE-09": 3" to the right, keeping its facing, is less than the full 6".
    let mut t = game(&unit("red", "infantry", 20.0, 10.0, 0.0, ""));
    let off = Command::Declare { orders: vec![normal_to(0, 20.0, -2.0, None, None)] };
    assert_eq!(t.refused_rule(Side::Red, off), "LIB-CHOICE-09");
    let bad = Command::Declare { orders: vec![normal_to(0, 20.0, 13.0, Some(400.0), None)] };
    assert_eq!(t.refused_rule(Side::Red, bad), "LIB-CHOICE-09");
    let ev = t.declare(Side::Red, vec![normal_to(0, 23.0, 10.0, Some(0.0), None)], &[]);
    let m = moved(&ev, 0);
    assert!(close(m.used, 3.0) && close(m.allowance, 6.0), "{m:?}");
    assert!(T::cites(&ev, "LIB-CHOICE-09"));
    assert_eq!(t.st.units[0].place.at, Point::new(23.0, 10.0));
    assert_eq!(t.st.units[0].place.facing, Facing::from_bearing_degrees(0.0));
    // Without a facing the unit faces the way it moved.
    let mut t = game(&unit("red", "infantry", 20.0, 10.0, 0.0, ""));
    t.declare(Side::Red, vec![normal(0, 20.0, 14.0)], &[]);
    assert_eq!(t.st.units[0].place.facing, Facing::from_bearing_degrees(0.0));
    assert!(matches!(t.st.phase, Phase::Turn { side: Side::Blue, stage: Stage::Declare, .. }));
}
