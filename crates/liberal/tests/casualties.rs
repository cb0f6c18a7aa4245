//! The casualty count along the formation (LIB-CAS).

mod common;
use common::*;
use liberal::data::Fate;
use liberal::state::{Event, Status};
use tabletop::rules::Side;

/// Red infantry 24 strong in line 12" from a blue line of 24: red stands fast and fires.
fn facing_lines() -> T {
    let body = unit("red", "infantry", 36.0, 16.0, 0.0, "")
        + &unit("blue", "infantry", 36.0, 32.0, 180.0, "");
    T::at_red_turn(&scenario("", &body))
}

#[test]
fn lib_cas_06_the_worked_count_dice_3_4_4_6_on_two_ranks_of_12() {
    let mut t = facing_lines();
    // 24 firers at 16" − (0.75) ≈ 15.25": medium band (1 per 4) → 6 casualties, no remainder;
    // the count's dice 3, 4, 4, 6, then 3 and 3 for the last two; blue returns fire (LIB-R-20):
    // 24 figures, medium, 6 casualties, dice 1 ×6... use 5s.
    let count = [3, 4, 4, 6, 3, 3];
    let back = [5, 5, 5, 5, 5, 5];
    let mut dice = count.to_vec();
    dice.extend(back);
    let ev = t.declare(Side::Red, vec![stand(0)], &dice);
    for l in T::log(&ev) {
        eprintln!("{l}");
    }
    let fired = ev
        .iter()
        .find_map(|e| match e {
            Event::Fired { volley, hits, .. } if volley.firer == 0 => {
                Some((volley.clone(), hits.clone()))
            }
            _ => None,
        })
        .expect("red fires");
    assert_eq!(fired.0.figures, 24);
    assert_eq!(fired.0.casualties, 6);
    let numbers: Vec<usize> = fired.1.iter().map(|h| h.number).collect();
    assert_eq!(&numbers[..4], &[3, 7, 11, 17], "third dead, 4 on wounded, 4 on wounded, 6 on dead");
    let fates: Vec<Fate> = fired.1.iter().map(|h| h.fate).collect();
    assert_eq!(&fates[..4], &[Fate::Dead, Fate::Wounded, Fate::Wounded, Fate::Dead]);
    // Figure 17 is the second rank's fifth from the left.
    let blue = &t.st.units[1];
    assert_eq!(blue.figures[16].status, Status::Dead);
    assert!(matches!(blue.figures[6].status, Status::Wounded { .. }));
    assert!(T::cites(&ev, "LIB-CAS-06") || T::cites(&ev, "LIB-CAS-04"));
}

/// Red `red` infantry at (36, ry) facing north and a blue line of 24 (or `blue`) at (36, by)
/// facing north, its back to red: it never fires back.
fn at_backs(red: &str, ry: f64, blue_ty: &str, by: f64) -> T {
    let body =
        unit("red", "infantry", 36.0, ry, 0.0, red) + &unit("blue", blue_ty, 36.0, by, 0.0, "");
    T::at_red_turn(&scenario("", &body))
}

#[test]
fn lib_cas_01_no_casualties_nothing_happens() {
    // "LIB-CAS-01": 4 firers at 20" (long, 1 per 6): none for the 6, and the remainder die (a 6)
    // above the remainder 4: 0 casualties, no count, nothing applied.
    let mut t = at_backs("figures = 4", 10.0, "infantry", 32.0);
    let ev = t.declare(Side::Red, vec![stand(0)], &[6]);
    let (v, hits) = &volleys_of(&ev, 0)[0];
    assert_eq!((v.figures, v.base, v.extra, v.casualties), (4, 0, 0, 0));
    assert!(hits.is_empty());
    assert!(!ev.iter().any(|e| matches!(e, Event::HitsApplied { .. })));
    assert_eq!(t.st.units[1].strength(), 24);
    assert!(T::cites(&ev, "LIB-CAS-01"));
}

#[test]
fn lib_cas_02_one_die_per_casualty_read_in_order() {
    // "LIB-CAS-02" (LIB-R-04): 24 firers at 5.5" (short, 1 per 3): 8 casualties, 8 dice, read
    // in the order thrown.
    let body = unit("red", "infantry", 36.0, 16.0, 0.0, "")
        + &unit("blue", "infantry", 36.0, 23.5, 0.0, "");
    let mut t = T::at_red_turn(&scenario_h(36.0, "", &body));
    let dice = [3, 2, 4, 5, 6, 3, 2, 4];
    let ev = t.declare(Side::Red, vec![stand(0)], &dice);
    let (v, hits) = &volleys_of(&ev, 0)[0];
    assert_eq!(v.casualties, 8);
    assert_eq!(hits.iter().map(|h| h.die).collect::<Vec<_>>(), dice.to_vec());
    assert_eq!(t.st.units[1].strength(), 16);
    assert!(T::cites(&ev, "LIB-CAS-02"));
}

#[test]
fn lib_cas_03_each_die_counts_and_is_the_result() {
    // "LIB-CAS-03": 12 at 20": 2 casualties; a 1 reaches figure 1, who runs; a 2 reaches figure
    // 3, walking wounded.
    let mut t = at_backs("figures = 12", 10.0, "infantry", 32.0);
    let ev = t.declare(Side::Red, vec![stand(0)], &[1, 2]);
    let (_, hits) = &volleys_of(&ev, 0)[0];
    assert_eq!(
        hits.iter().map(|h| (h.number, h.fate)).collect::<Vec<_>>(),
        vec![(1, Fate::Runs), (3, Fate::WalkingWounded)]
    );
    assert!(T::cites(&ev, "LIB-CAS-03"));
    // Blue's turn has begun: the runner is back in the rear rank; the other is in hospital.
    let blue = &t.st.units[1];
    assert_eq!(blue.figures[1].status, Status::Hospital);
}

#[test]
fn lib_cas_04_the_count_runs_rank_by_rank_left_to_right() {
    // "LIB-CAS-04" (LIB-R-03): 18 at 20": 3 casualties, dice 6, 6, 1: figures 6 and 12 (the
    // front rank's last) and 13, the second rank's leftmost.
    let mut t = at_backs("figures = 18", 10.0, "infantry", 32.0);
    let pos = t.rules.positions(&t.st.units[1]);
    let ev = t.declare(Side::Red, vec![stand(0)], &[6, 6, 1]);
    let (_, hits) = &volleys_of(&ev, 0)[0];
    assert_eq!(hits.iter().map(|h| h.number).collect::<Vec<_>>(), vec![6, 12, 13]);
    // Blue faces north: its left is the west. Figure 12 is the front rank's eastmost, 13 the
    // second rank's westmost.
    let (front, second): (Vec<&(usize, tabletop::geometry::Point)>, Vec<_>) =
        pos.iter().partition(|(i, _)| *i < 12);
    let max_x = front.iter().map(|p| p.1.x).fold(f64::MIN, f64::max);
    let min_x = second.iter().map(|p| p.1.x).fold(f64::MAX, f64::min);
    assert_eq!(pos[11].1.x, max_x);
    assert_eq!(pos[12].1.x, min_x);
    assert!(pos[12].1.y < pos[0].1.y, "the second rank stands behind the first");
    assert!(T::cites(&ev, "LIB-CAS-04"));
}

#[test]
fn lib_cas_05_every_count_starts_from_the_same_point() {
    // "LIB-CAS-05": two red lines fire at blue in one exchange. Each count starts before
    // figure 1: the first die 3 reaches figure 3; the second volley's first 3 starts again and,
    // skipping the figure already hit, reaches figure 4.
    let body = unit("red", "infantry", 31.0, 10.0, 0.0, "figures = 12")
        + &unit("red", "infantry", 41.0, 10.0, 0.0, "figures = 12")
        + &unit("blue", "infantry", 36.0, 32.0, 0.0, "");
    let mut t = T::at_red_turn(&scenario("", &body));
    let mut dice = volley_script(&t, 0, 2, true, 1, 3);
    dice.extend(volley_script(&t, 1, 2, true, 1, 3));
    let named = |u: usize| order(u, liberal::state::Choice::StandFast { target: Some(2) });
    let ev = t.declare(Side::Red, vec![named(0), named(1)], &dice);
    let a = &volleys_of(&ev, 0)[0].1;
    let b = &volleys_of(&ev, 1)[0].1;
    assert_eq!((a[0].figure, a[0].number), (2, 3));
    assert_eq!(b[0].figure, 3, "the second count starts again and skips figure 3");
    assert!(T::cites(&ev, "LIB-CAS-05"));
}

#[test]
fn lib_cas_07_a_one_runs_until_his_sides_next_turn() {
    // "LIB-CAS-07" (LIB-R-33): a 1 on figure 1 (a private): he runs, out of the ranks for the
    // rest of red's turn, and at the start of blue's turn rejoins the rear rank.
    let mut t = at_backs("figures = 12", 10.0, "infantry", 32.0);
    let mut st = t.st.clone();
    let before = t.st.units[1].figures[0];
    let ev = t.declare(Side::Red, vec![stand(0)], &[1, 3]);
    let (_, hits) = &volleys_of(&ev, 0)[0];
    assert_eq!((hits[0].figure, hits[0].fate), (0, Fate::Runs));
    for e in &ev {
        t.rules.apply_event(&mut st, e);
        if matches!(e, Event::HitsApplied { .. }) {
            break;
        }
    }
    assert_eq!(st.units[1].figures[0].status, Status::Ran);
    assert!(!st.units[1].in_ranks().contains(&0));
    assert!(T::cites(&ev, "LIB-CAS-07"));
    let back =
        ev.iter().any(|e| matches!(e, Event::Rejoined { units } if units.contains(&(1, vec![0]))));
    assert!(back, "he rejoins as blue's turn begins");
    let blue = &t.st.units[1];
    let last = blue.figures.last().unwrap();
    assert_eq!((last.role, last.status), (before.role, Status::Ranks));
    assert_eq!(blue.figures.len(), 24);
}

#[test]
fn lib_cas_08_a_two_is_walking_wounded_or_a_dead_horse() {
    // "LIB-CAS-08" (LIB-R-34): 12 at 20" hit blue light cavalry twice: a 2 on figure 2 (a dead
    // horse) and a 3 on figure 5; the first goes to hospital until night.
    let mut t = at_backs("figures = 12", 10.0, "light_cavalry", 32.0);
    let ev = t.declare(Side::Red, vec![stand(0)], &[2, 3]);
    let (_, hits) = &volleys_of(&ev, 0)[0];
    assert_eq!((hits[0].number, hits[0].fate), (2, Fate::WalkingWounded));
    assert_eq!(t.st.units[1].figures[1].status, Status::Hospital);
    // Infantry the same: walking wounded.
    let mut t = at_backs("figures = 12", 10.0, "infantry", 32.0);
    t.declare(Side::Red, vec![stand(0)], &[2, 3]);
    assert_eq!(t.st.units[1].figures[1].status, Status::Hospital);
    assert!(!t.st.units[1].in_ranks().contains(&1));
}

#[test]
fn lib_cas_09_three_or_six_dead_four_or_five_wounded_where_he_fell() {
    // "LIB-CAS-09": 24 at 20": 4 casualties, dice 3, 4, 5, 6: figures 3 dead, 7 and 12 wounded
    // (markers where they stood), 18 dead.
    let mut t = at_backs("", 10.0, "infantry", 32.0);
    let pos = t.rules.positions(&t.st.units[1]);
    let ev = t.declare(Side::Red, vec![stand(0)], &[3, 4, 5, 6]);
    let (_, hits) = &volleys_of(&ev, 0)[0];
    assert_eq!(
        hits.iter().map(|h| (h.number, h.fate)).collect::<Vec<_>>(),
        vec![(3, Fate::Dead), (7, Fate::Wounded), (12, Fate::Wounded), (18, Fate::Dead)]
    );
    let blue = &t.st.units[1];
    assert_eq!(blue.figures[2].status, Status::Dead);
    assert_eq!(blue.figures[17].status, Status::Dead);
    assert_eq!(blue.figures[6].status, Status::Wounded { at: pos[6].1 });
    assert_eq!(blue.figures[11].status, Status::Wounded { at: pos[11].1 });
    assert!(T::cites(&ev, "LIB-CAS-09"));
}

/// The table shows the last count walking along the formation: each figure reached, its number,
/// the die and its fate (LIB-CAS-04), drawn where he stood.
#[test]
fn lib_cas_04_the_table_marks_the_figures_the_count_reached() {
    use tabletop::rules::{RuleSet, Viewer};
    let mut t = facing_lines();
    let mut dice = vec![3, 4, 4, 6, 3, 3];
    dice.extend([5, 5, 5, 5, 5, 5]);
    t.declare(Side::Red, vec![stand(0)], &dice);
    let scene = t.rules.scene(&t.st, Viewer::Spectator);
    let labels: Vec<&str> = scene.marks.iter().map(|m| m.label.as_str()).collect();
    for want in ["#3 (3): dead", "#7 (4): wounded", "#11 (4): wounded", "#17 (6): dead"] {
        assert!(labels.contains(&want), "{want} in {labels:?}");
    }
}
