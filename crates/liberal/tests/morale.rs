//! Retreating due to morale (LIB-MORALE-01..05).

mod common;
use common::*;
use liberal::state::{Choice, Command, Event, Leg, Objective, Order, Role, Status};
use tabletop::geometry::Point;
use tabletop::rules::Side;

fn game(body: &str) -> T {
    T::at_red_turn(&scenario("", body))
}

/// Red's eight foot 15" from blue's light cavalry, which cannot reach back (12" mounted):
/// red's volleys are 2 casualties (medium band, 1 a 4), and nothing else fires.
fn volley_at_cavalry(blue: &str) -> T {
    let body = unit("red", "infantry", 36.0, 16.0, 0.0, "figures = 8")
        + &unit("blue", "light_cavalry", 36.0, 31.0, 180.0, blue)
        + &unit("blue", "infantry", 66.0, 44.0, 180.0, "figures = 4");
    game(&body)
}

fn morale_events(ev: &[Event]) -> Vec<(usize, usize, bool)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Morale { unit, figure, going_back, .. } => Some((*unit, *figure, *going_back)),
            _ => None,
        })
        .collect()
}

fn to_point(unit: usize, x: f64, y: f64) -> Order {
    order(
        unit,
        Choice::Liberal { objective: Objective::Point { at: Point::new(x, y) }, formation: None },
    )
}

#[test]
fn lib_morale_01_the_morale_figure_is_the_commander_then_the_second_then_the_colours() {
    // "LIB-MORALE-01": blue's eight cavalry in line: the commander is figure 2, the colours
    // figure 3, the second officer figure 7.
    let mut t = volley_at_cavalry("figures = 8");
    let blue = &t.st.units[1];
    assert_eq!(blue.figures[1].role, Role::Commander);
    assert_eq!(blue.figures[2].role, Role::Colours);
    assert_eq!(blue.figures[6].role, Role::Second);
    assert_eq!(blue.morale_figure(), Some(1));
    // Turn 1: die 2 reaches the commander (walking wounded: he goes to hospital); 4 more on,
    // figure 6 is wounded. No morale blow: the die was not a 1.
    let ev = t.declare(Side::Red, vec![stand(0)], &[2, 4]);
    assert!(morale_events(&ev).is_empty());
    assert_eq!(t.st.units[1].figures[1].status, Status::Hospital);
    assert_eq!(t.st.units[1].morale_figure(), Some(6), "the second officer takes over");
    t.declare(Side::Blue, Vec::new(), &[]);
    // Turn 2: in the ranks now 1, 3, 4, 5, 7, 8; die 4 wounds figure 5, and die 1 reaches the
    // second officer (figure 7): the morale figure hit with a 1.
    let ev = t.declare(Side::Red, vec![stand(0)], &[4, 1]);
    assert_eq!(morale_events(&ev), vec![(1, 6, false)]);
    assert!(T::cites(&ev, "LIB-MORALE-01"));
    // The second officer ran; at blue's turn he is back in the rear rank and again the morale
    // figure (LIB-R-33).
    let blue = &t.st.units[1];
    assert_eq!(blue.figures[7].role, Role::Second);
    assert_eq!(blue.morale_figure(), Some(7));
    // Were both officers gone, the colour bearer would be.
    let mut u = blue.clone();
    for f in u.figures.iter_mut().filter(|f| matches!(f.role, Role::Commander | Role::Second)) {
        f.status = Status::Dead;
    }
    let colours = u.figures.iter().position(|f| f.role == Role::Colours);
    assert_eq!(u.morale_figure(), colours);
}

#[test]
fn lib_morale_02_only_a_1_on_the_morale_figure_tests_morale() {
    // "LIB-MORALE-02": blue's four cavalry: the commander is figure 1.
    let mut t = volley_at_cavalry("figures = 4");
    assert_eq!(t.st.units[1].morale_figure(), Some(0));
    // A 1 on figure 1 (the commander) and 3 on to figure 4.
    let ev = t.declare(Side::Red, vec![stand(0)], &[1, 3]);
    assert_eq!(morale_events(&ev), vec![(1, 0, false)]);
    assert!(T::cites(&ev, "LIB-MORALE-02"));
    // A 1 on anyone else only makes him run: eight cavalry, commander figure 2; die 1 on
    // figure 1, then 2 on to figure 3 (the colours, walking wounded).
    let mut t = volley_at_cavalry("figures = 8");
    let at = t.st.units[1].place;
    let ev = t.declare(Side::Red, vec![stand(0)], &[1, 2]);
    assert!(morale_events(&ev).is_empty());
    let ran = ev.iter().any(|e| {
        matches!(e, Event::HitsApplied { hits }
        if hits[0].1[0].figure == 0 && hits[0].1[0].fate == liberal::data::Fate::Runs)
    });
    assert!(ran, "figure 1 runs");
    assert_eq!(t.st.units[1].place, at, "no morale move");
    // A unit with no leaders at all breaks on a 1 on anyone (LIB-R-13).
    let mut t = volley_at_cavalry("figures = 8\nofficers = false");
    let ev = t.declare(Side::Red, vec![stand(0)], &[3, 1]);
    assert_eq!(morale_events(&ev).len(), 1);
    assert!(T::cites(&ev, "LIB-R-13"));
}

#[test]
fn lib_morale_03_a_liberal_mover_hit_turns_about_and_goes_back_under_fire() {
    // "LIB-MORALE-03": red's four (commander figure 1) step to 15" from blue's four. Blue's
    // die 1 reaches the commander: he runs and the unit's morale breaks; red's own return
    // fire (die 3) still goes off in that exchange. Next step it walks back 6" to its start,
    // fired on by blue's three at 21" (long, 1 a 6: a remainder die 6 misses), not firing.
    let body = unit("red", "infantry", 36.0, 10.0, 0.0, "figures = 4")
        + &unit("blue", "infantry", 36.0, 31.0, 180.0, "figures = 4");
    let mut t = game(&body);
    let ev = t.declare(Side::Red, vec![to_point(0, 36.0, 28.0)], &[1, 3, 6]);
    assert_eq!(morale_events(&ev), vec![(0, 0, true)]);
    assert!(ev.iter().any(|e| matches!(e, Event::Leg { unit: 0, leg: Leg::Back, rules, .. }
        if rules.iter().any(|r| r.as_str() == "LIB-MORALE-03"))));
    let back = ev
        .iter()
        .filter(|e| matches!(e, Event::Moved { moved, forward_step: false, .. } if moved.unit == 0))
        .count();
    assert_eq!(back, 1);
    let red_volleys =
        ev.iter().filter(|e| matches!(e, Event::Fired { volley, .. } if volley.firer == 0)).count();
    assert_eq!(red_volleys, 1, "it fired going forward, not going back");
    let blue_volleys =
        ev.iter().filter(|e| matches!(e, Event::Fired { volley, .. } if volley.firer == 1)).count();
    assert_eq!(blue_volleys, 2);
    assert_eq!(t.st.units[0].place.at, Point::new(36.0, 10.0));
    assert!(matches!(t.st.phase, liberal::Phase::Turn { side: Side::Blue, .. }));
}

#[test]
fn lib_morale_04_a_unit_standing_its_ground_counts_its_casualties_then_falls_back() {
    // "LIB-MORALE-04": blue's four cavalry; die 1 on the commander (figure 1), then die 3 on to
    // figure 4 (the second officer, dead): both are counted, then the unit withdraws one
    // normal move, 9" for light cavalry in line, straight to its rear (north).
    let mut t = volley_at_cavalry("figures = 4");
    let ev = t.declare(Side::Red, vec![stand(0)], &[1, 3]);
    let applied = ev
        .iter()
        .position(|e| matches!(e, Event::HitsApplied { hits } if hits[0].1.len() == 2))
        .expect("both hits");
    let morale = ev.iter().position(|e| matches!(e, Event::Morale { .. })).expect("morale");
    let back = ev
        .iter()
        .position(|e| matches!(e, Event::Moved { moved, .. } if moved.unit == 1))
        .expect("the fall back");
    assert!(applied < morale && morale < back);
    assert!(ev[back..].iter().any(|e| matches!(e, Event::Moved { moved, rules, .. }
        if moved.unit == 1 && (moved.used - 9.0).abs() < 1e-6
            && rules.iter().any(|r| r.as_str() == "LIB-MORALE-04"))));
    assert_eq!(t.st.units[1].place.at, Point::new(36.0, 40.0));
    let second = t.st.units[1].figures.iter().find(|f| f.role == Role::Second).unwrap();
    assert_eq!(second.status, Status::Dead);
}

#[test]
fn lib_morale_05_the_loser_of_a_hand_to_hand_retreats_18_inches_to_its_rear() {
    // "LIB-MORALE-05": red's four cavalry in column charge blue's two foot. Three fights lost
    // in a row (red 1 + 1 against 6): figure 1 captured, the commander captured (a 1 in
    // hand-to-hand is no morale blow), the colour bearer walking wounded with the flag. Red's
    // rank is beaten and the last man goes back 18" south.
    let body = unit("red", "light_cavalry", 36.0, 17.0, 0.0, "figures = 4\nformation = \"column\"")
        + &unit("blue", "infantry", 36.0, 30.0, 180.0, "figures = 2\nofficers = false")
        + &unit("blue", "infantry", 66.0, 44.0, 180.0, "figures = 4");
    let mut t = game(&body);
    let ev = t.declare(
        Side::Red,
        vec![order(0, Choice::Liberal { objective: Objective::Unit { unit: 1 }, formation: None })],
        &[1, 6, 1, 1, 6, 1, 1, 6, 2],
    );
    assert!(ev.iter().any(|e| matches!(e, Event::Melee { attacker_won: false, .. })));
    assert!(morale_events(&ev).is_empty());
    let from = match ev.iter().find(|e| matches!(e, Event::Melee { .. })) {
        Some(_) => ev
            .iter()
            .find_map(|e| match e {
                Event::Moved { moved, forward_step: true, .. } => Some(moved.to),
                _ => None,
            })
            .expect("the charge"),
        None => unreachable!(),
    };
    let retreat = ev
        .iter()
        .find_map(|e| match e {
            Event::Moved { moved, rules, forward_step: false, .. }
                if moved.unit == 0 && rules.iter().any(|r| r.as_str() == "LIB-MORALE-05") =>
            {
                Some(moved.clone())
            }
            _ => None,
        })
        .expect("the retreat");
    assert!((retreat.used - 18.0).abs() < 1e-6, "{retreat:?}");
    assert!((retreat.to.at.y - (from.at.y - 18.0)).abs() < 1e-6);
    assert_eq!(retreat.to.at.x, from.at.x);
    assert_eq!(t.st.units[0].strength(), 1);
    // Blue won and may re-form.
    t.side(Side::Blue, Command::Reform { formation: None }, &[]);
    assert!(matches!(t.st.phase, liberal::Phase::Turn { side: Side::Blue, .. }));
}

#[test]
fn lib_morale_03_a_blow_on_the_last_step_still_sends_the_unit_back() {
    // "LIB-MORALE-03" with LIB-R-12: the mover reaches its objective on its first step and is
    // hit there (blue's die 1 on the commander; red's return die 3). It still walks back to its
    // start within the same step E, fired on by blue's three at 21" (remainder die 6: a miss).
    let body = unit("red", "infantry", 36.0, 10.0, 0.0, "figures = 4")
        + &unit("blue", "infantry", 36.0, 31.0, 180.0, "figures = 4");
    let mut t = game(&body);
    let ev = t.declare(Side::Red, vec![to_point(0, 36.0, 16.0)], &[1, 3, 6]);
    assert_eq!(morale_events(&ev), vec![(0, 0, true)]);
    assert!(T::cites(&ev, "LIB-R-12"));
    assert_eq!(t.st.units[0].place.at, Point::new(36.0, 10.0), "back at its start");
    assert!(matches!(t.st.phase, liberal::Phase::Turn { side: Side::Blue, .. }));
}

#[test]
fn lib_morale_03_a_unit_already_going_back_keeps_going_back() {
    // "LIB-MORALE-03": red's four go two steps towards blue (exchanges: dice 3, 3, then the
    // remainder dice 4, 4 miss), call the move off, and on the first step back blue's three
    // (15", medium, remainder die 1 of 4 hits) put a 1 on the commander. The unit is already
    // going back: it goes on to its start (where blue's three at 21", long, roll a remainder
    // die 6: a miss), never one move "to its rear" towards the enemy.
    let body = unit("red", "infantry", 36.0, 10.0, 0.0, "figures = 4")
        + &unit("blue", "infantry", 36.0, 31.0, 180.0, "figures = 4");
    let mut t = game(&body);
    t.declare(Side::Red, vec![to_point(0, 36.0, 28.0)], &[3, 3]);
    t.side(Side::Red, Command::Advance { call_off: Vec::new(), reform: Vec::new() }, &[4, 4]);
    assert_eq!(t.st.units[0].place.at, Point::new(36.0, 22.0));
    let ev =
        t.side(Side::Red, Command::Advance { call_off: vec![0], reform: Vec::new() }, &[1, 1, 6]);
    assert_eq!(morale_events(&ev).len(), 1);
    let ys: Vec<f64> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Moved { moved, .. } if moved.unit == 0 => Some(moved.to.at.y),
            _ => None,
        })
        .collect();
    assert!(ys.windows(2).all(|w| w[1] < w[0]), "always back towards the start: {ys:?}");
    assert_eq!(t.st.units[0].place.at, Point::new(36.0, 10.0));
}
