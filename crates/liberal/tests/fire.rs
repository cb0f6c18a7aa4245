//! Rifle fire (LIB-FIRE-01..08), played through red's first declaration.

mod common;
use common::*;
use liberal::state::{Event, Formation, Status};
use tabletop::rules::Side;

/// A red unit of `ty` at (x, ry) facing north and a blue line of 24 at (36, by) facing north,
/// its back to red, so it never fires back.
fn at_backs(ty: &str, x: f64, ry: f64, red: &str, by: f64) -> T {
    let body = unit("red", ty, x, ry, 0.0, red) + &unit("blue", "infantry", 36.0, by, 0.0, "");
    T::at_red_turn(&scenario("", &body))
}

/// As [`at_backs`] on a 36" table.
fn at_backs36(ty: &str, ry: f64, red: &str, by: f64) -> T {
    let body = unit("red", ty, 36.0, ry, 0.0, red) + &unit("blue", "infantry", 36.0, by, 0.0, "");
    T::at_red_turn(&scenario_h(36.0, "", &body))
}

#[test]
fn lib_fire_01_small_arms_ranges() {
    // "LIB-FIRE-01": infantry 24", dismounted cavalry 18", mounted cavalry 12".
    // Infantry at 23" fires: 24 firers, long band (1 per 6): 4 casualties, no remainder.
    let mut t = at_backs("infantry", 36.0, 8.0, "", 33.0);
    let ev = t.declare(Side::Red, vec![stand(0)], &[5, 5, 5, 5]);
    let v = volleys_of(&ev, 0);
    assert_eq!(v.len(), 1);
    assert!((v[0].0.distance - 23.0).abs() < 0.01, "{}", v[0].0.distance);
    assert_eq!((v[0].0.figures, v[0].0.band.as_str(), v[0].0.casualties), (24, "long", 4));
    assert!(T::cites(&ev, "LIB-FIRE-01"));
    // At 24.5" it does not.
    let mut t = at_backs("infantry", 36.0, 6.5, "", 33.0);
    let ev = t.declare(Side::Red, vec![stand(0)], &[]);
    assert!(all_volleys(&ev).is_empty());
    // Dismounted light cavalry reach 18": at 14" they fire (12 firers, long: 2).
    let mut t = at_backs36("light_cavalry", 16.0, "mounted = false", 32.0);
    let ev = t.declare(Side::Red, vec![stand(0)], &[5, 5]);
    let v = volleys_of(&ev, 0);
    assert_eq!(v.len(), 1);
    assert!((v[0].0.distance - 14.0).abs() < 0.01);
    assert_eq!(v[0].0.casualties, 2);
    // Mounted, the same cavalry at 14" cannot fire: 12" mounted.
    let mut t = at_backs36("light_cavalry", 16.0, "", 32.0);
    let ev = t.declare(Side::Red, vec![stand(0)], &[]);
    assert!(all_volleys(&ev).is_empty());
    // Mounted heavy cavalry at 9" fire, both ranks within 12".
    let mut t = at_backs36("heavy_cavalry", 16.0, "", 27.0);
    let ev = t.declare(Side::Red, vec![stand(0)], &[5, 5]);
    let v = volleys_of(&ev, 0);
    assert_eq!(v.len(), 1);
    assert!((v[0].0.distance - 9.0).abs() < 0.01);
    assert_eq!(v[0].0.figures, 12);
    assert!(T::cites(&ev, "LIB-FIRE-02"));
}

#[test]
fn lib_fire_02_mounted_cavalry_fire_only_standing_fast() {
    // "LIB-FIRE-02" (LIB-R-18): mounted cavalry 9" from the enemy.
    let mut t = at_backs36("light_cavalry", 16.0, "", 27.0);
    // Moving 1" on, they do not fire, though the target is then 8" away.
    let ev = t.declare(Side::Red, vec![normal(0, 36.0, 17.0)], &[]);
    assert!(all_volleys(&ev).is_empty());
    assert!(t.rules.small_arms_range(&t.st.units[0], false).is_none());
    assert_eq!(t.st.units[1].strength(), 24);
    // Standing fast they fire: 12 firers at 9", long band: 2 casualties.
    let mut t = at_backs36("light_cavalry", 16.0, "", 27.0);
    let ev = t.declare(Side::Red, vec![stand(0)], &[3, 3]);
    let v = volleys_of(&ev, 0);
    assert_eq!(v.len(), 1);
    assert_eq!((v[0].0.figures, v[0].0.casualties), (12, 2));
    assert!(T::cites(&ev, "LIB-FIRE-02"));
    assert_eq!(t.st.units[1].strength(), 22);
}

#[test]
fn lib_fire_03_fire_is_simultaneous() {
    // "LIB-FIRE-03": two lines of 24 face each other 23" apart; red stands and fires, blue fires
    // back (LIB-R-20) with the strength it had before red's hits.
    let body = unit("red", "infantry", 36.0, 8.0, 0.0, "")
        + &unit("blue", "infantry", 36.0, 31.0, 180.0, "");
    let mut t = T::at_red_turn(&scenario("", &body));
    // Red: 4 casualties, dice 6 ×4 (figures 6, 12, 18, 24 dead); blue: 4, dice 5 ×4.
    let ev = t.declare(Side::Red, vec![stand(0)], &[6, 6, 6, 6, 5, 5, 5, 5]);
    let red = volleys_of(&ev, 0);
    let blue = volleys_of(&ev, 1);
    assert_eq!(red[0].1.iter().map(|h| h.number).collect::<Vec<_>>(), vec![6, 12, 18, 24]);
    assert_eq!(blue[0].0.figures, 24, "blue fires with its strength before red's hits");
    assert_eq!(blue[0].0.casualties, 4);
    // Both volleys are logged before one application of all the hits.
    let applied: Vec<usize> = ev
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e, Event::HitsApplied { .. }))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(applied.len(), 1);
    let last_fired = ev.iter().rposition(|e| matches!(e, Event::Fired { .. })).expect("volleys");
    assert!(last_fired < applied[0]);
    if let Event::HitsApplied { hits } = &ev[applied[0]] {
        let units: Vec<usize> = hits.iter().map(|h| h.0).collect();
        assert_eq!(units, vec![0, 1]);
    }
    assert_eq!((t.st.units[0].strength(), t.st.units[1].strength()), (20, 20));
    assert!(T::cites(&ev, "LIB-FIRE-03") && T::cites(&ev, "LIB-R-20"));
}

#[test]
fn lib_fire_04_the_front_two_ranks_fire() {
    // "LIB-FIRE-04": a line of 24 stands two ranks of 12; both ranks fire, as the front two.
    let mut t = at_backs("infantry", 36.0, 8.0, "", 33.0);
    assert_eq!(t.rules.rank_width(Formation::Line, 24), 12);
    let ev = t.declare(Side::Red, vec![stand(0)], &[5, 5, 5, 5]);
    let v = volleys_of(&ev, 0);
    assert_eq!(v[0].0.figures, 24);
    assert!(v[0].0.basis.contains("front two ranks"), "{}", v[0].0.basis);
    assert!(T::cites(&ev, "LIB-FIRE-04"));
    // A column of 24 is 6 ranks deep, yet fires not with its front two ranks (8) but with half
    // (LIB-FIRE-06, LIB-R-19): the two-rank rule is the line's.
    let mut t = at_backs("infantry", 36.0, 14.0, "formation = \"column\"", 33.0);
    let ev = t.declare(Side::Red, vec![stand(0)], &[5, 5]);
    assert_eq!(volleys_of(&ev, 0)[0].0.figures, 12);
}

#[test]
fn lib_fire_05_the_20_degree_cone() {
    // "LIB-FIRE-05": blue stands about 19" away but some 50° off red's front: no red figure has
    // it within 10° of its facing, so red does not fire.
    let mut t = at_backs("infantry", 12.0, 18.5, "", 31.5);
    assert!(t.rules.shooting(&t.st, &t.st.units[0], &t.st.units[1], true, 1).is_none());
    let ev = t.declare(Side::Red, vec![stand(0)], &[]);
    assert!(all_volleys(&ev).is_empty());
    // Half overlapping: only the figures with blue inside their own cone count in F.
    let mut t = at_backs("infantry", 30.0, 18.5, "", 31.5);
    let s = t.rules.shooting(&t.st, &t.st.units[0], &t.st.units[1], true, 1).expect("some fire");
    assert!(s.figures > 0 && s.figures < 24, "F = {}", s.figures);
    // Turned square to the target, the whole line fires.
    let mut full = at_backs("infantry", 36.0, 18.5, "", 31.5);
    let all = full.rules.shooting(&full.st, &full.st.units[0], &full.st.units[1], true, 1);
    assert_eq!(all.map(|s| s.figures), Some(24));
    let script = volley_script(&t, 0, 1, true, 1, 5);
    let ev = t.declare(Side::Red, vec![stand(0)], &script);
    let v = volleys_of(&ev, 0);
    assert_eq!(v[0].0.figures, s.figures);
    assert!(T::cites(&ev, "LIB-FIRE-05"));
    let script = volley_script(&full, 0, 1, true, 1, 5);
    full.declare(Side::Red, vec![stand(0)], &script);
}

#[test]
fn lib_fire_06_a_column_fires_with_half_its_figures() {
    // "LIB-FIRE-06": a column of 24 (4 abreast) 17" from blue: 12 fire, long band: 2.
    let mut t = at_backs("infantry", 36.0, 14.0, "formation = \"column\"", 33.0);
    let ev = t.declare(Side::Red, vec![stand(0)], &[5, 5]);
    let v = volleys_of(&ev, 0);
    assert_eq!((v[0].0.figures, v[0].0.casualties), (12, 2));
    assert!(v[0].0.basis.contains("column"));
    assert!(T::cites(&ev, "LIB-FIRE-06"));
    // 23 figures: half rounded down is 11: 1 casualty and a remainder die for the other 5.
    let mut t = at_backs("infantry", 36.0, 14.0, "formation = \"column\"\nfigures = 23", 33.0);
    let ev = t.declare(Side::Red, vec![stand(0)], &[6, 5]);
    let v = volleys_of(&ev, 0);
    assert_eq!((v[0].0.figures, v[0].0.base, v[0].0.extra, v[0].0.casualties), (11, 1, 0, 1));
    // A column does not fire at what is outside its front cone.
    let mut t = at_backs("infantry", 12.0, 14.0, "formation = \"column\"", 31.5);
    let ev = t.declare(Side::Red, vec![stand(0)], &[]);
    assert!(all_volleys(&ev).is_empty());
}

#[test]
fn lib_fire_07_the_stand_in_chart_gives_the_casualties() {
    // "LIB-FIRE-07" (LIB-R-01): 12 infantry at about 6" cause 4 (1 per 3); at 20", 2 (1 per 6).
    let body = unit("red", "infantry", 36.0, 16.0, 0.0, "figures = 12")
        + &unit("blue", "infantry", 36.0, 23.5, 0.0, "");
    let mut t = T::at_red_turn(&scenario_h(36.0, "", &body));
    let ev = t.declare(Side::Red, vec![stand(0)], &[3, 4, 4, 6]);
    let (v, hits) = &volleys_of(&ev, 0)[0];
    assert_eq!((v.band.as_str(), v.per_casualty, v.figures, v.casualties), ("short", 3, 12, 4));
    assert!(v.remainder.is_none());
    // The count then picks the figures (LIB-CAS): 3, 7, 11, 17.
    assert_eq!(hits.iter().map(|h| h.number).collect::<Vec<_>>(), vec![3, 7, 11, 17]);
    assert!(T::cites(&ev, "LIB-FIRE-07") && T::cites(&ev, "LIB-R-01"));
    let mut t = at_backs("infantry", 36.0, 10.0, "figures = 12", 32.0);
    let ev = t.declare(Side::Red, vec![stand(0)], &[5, 5]);
    let v = &volleys_of(&ev, 0)[0].0;
    assert!((v.distance - 20.0).abs() < 0.01);
    assert_eq!((v.band.as_str(), v.per_casualty, v.casualties), ("long", 6, 2));
    // 13 at 20": 2, and a d6 for the remainder of 1: a 1 makes a third.
    let mut t = at_backs("infantry", 36.0, 10.0, "figures = 13", 32.0);
    let ev = t.declare(Side::Red, vec![stand(0)], &[1, 5, 5, 5]);
    let v = &volleys_of(&ev, 0)[0].0;
    assert_eq!(v.remainder.as_ref().map(|r| r.value), Some(1));
    assert_eq!((v.base, v.extra, v.casualties), (2, 1, 3));
}

#[test]
fn lib_fire_08_no_fire_beyond_range_or_cone_and_no_partial_effect() {
    // "LIB-FIRE-08": 24.5" away, named as the target: no volley, no hits, no die.
    let mut t = at_backs("infantry", 36.0, 6.5, "", 33.0);
    let before = t.st.units[1].clone();
    let ev = t.declare(
        Side::Red,
        vec![order(0, liberal::state::Choice::StandFast { target: Some(1) })],
        &[],
    );
    assert!(all_volleys(&ev).is_empty());
    assert!(!ev.iter().any(|e| matches!(e, Event::HitsApplied { .. })));
    assert_eq!(t.st.units[1].figures, before.figures);
    assert!(t.st.units[1].figures.iter().all(|f| f.status == Status::Ranks));
    // Outside the cone (at 19", 50° off the front): the same.
    let mut t = at_backs("infantry", 12.0, 18.5, "", 31.5);
    let ev = t.declare(Side::Red, vec![stand(0)], &[]);
    assert!(all_volleys(&ev).is_empty());
    assert_eq!(t.st.units[1].strength(), 24);
}

/// A line three deep on a scenario's firing ground fires with all three ranks (LIB-FIRE-04:
/// "unless terrain dictates differently"); off it, with two.
#[test]
fn lib_fire_04_a_firing_ground_lets_a_third_rank_fire() {
    use liberal::Liberal;
    use liberal::state::Command;
    use tabletop::diagnostics::Source;
    use tabletop::dice::SeededDice;
    use tabletop::rules::{Actor, RuleSet};
    let mut data = liberal::Data::embedded().expect("the data");
    data.rules.formation.line_ranks = 3;
    let rules = Liberal::with_data(data);
    let figures = |ground: bool| -> usize {
        let extra = if ground {
            "[[area]]\nname = \"Ridge\"\nkind = \"hill\"\npoints = [[20, 4], [52, 4], [52, 18], [20, 18]]\n\n[[firing_ground]]\narea = \"Ridge\"\nranks = 3\n\n"
        } else {
            ""
        };
        let body = format!(
            "{extra}{}{}",
            unit("red", "infantry", 36.0, 17.0, 0.0, "figures = 36\nofficers = false"),
            unit("blue", "infantry", 36.0, 33.0, 180.0, "")
        );
        let sc = rules.load_scenario(&Source::new("t.toml", scenario("", &body))).expect("loads");
        let mut dice = SeededDice::new(3);
        let (mut st, _) = rules.setup(&sc, &mut dice);
        let side = match &st.phase {
            liberal::state::Phase::Edge { side } => *side,
            _ => unreachable!(),
        };
        let south = side == Side::Red;
        for (s, c) in [
            (side, Command::ChooseEdge { south }),
            (Side::Red, Command::Deploy { placements: vec![] }),
            (Side::Blue, Command::Deploy { placements: vec![] }),
        ] {
            rules.perform(&mut st, Actor::Side(s), &c, &mut dice).expect("accepted");
        }
        let first = st.acting().expect("a turn");
        let orders = vec![stand(if first == Side::Red { 0 } else { 1 })];
        let ev = rules
            .perform(&mut st, Actor::Side(first), &Command::Declare { orders }, &mut dice)
            .expect("accepted");
        ev.iter()
            .find_map(|e| match e {
                Event::Fired { volley, .. } if volley.firer == 0 => Some(volley.figures),
                _ => None,
            })
            .expect("red fires")
    };
    assert_eq!(figures(false), 24, "two ranks of 12");
    assert_eq!(figures(true), 36, "LIB-FIRE-04: three ranks of 12 on the firing ground");
}
