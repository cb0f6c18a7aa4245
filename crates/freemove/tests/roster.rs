//! The roster and the tidying up after the bell, played through the game (FMT-ROS-*,
//! FMT-REARR-*).

mod common;
use common::*;
use freemove::state::{Command, Phase};
use tabletop::rules::{RuleSet, Side, Viewer};

#[test]
fn every_tray_has_its_number_points_and_footprint_fmt_ros_01_02_07() {
    let t = T::ready_scenario("legion_and_host.toml");
    let mut seen = std::collections::BTreeSet::new();
    for s in &t.st.stands {
        // FMT-ROS-01: a number unique on its side.
        assert!(seen.insert((s.side, s.number)), "{} twice", s.number);
        // FMT-ROS-02.
        let want = match t.rules.troop(s).id.as_str() {
            "heavy_infantry" | "heavy_cavalry" => 8,
            _ => 4,
        };
        assert_eq!(t.points(s.id), want);
        // FMT-ROS-07, FMT-R-40: 2" of frontage, 1.75" deep.
        assert_eq!((s.rect.width, s.rect.depth), (2.0, 1.75));
    }
    let rows = t.rules.roster(&t.st, Viewer::Side(Side::Red));
    assert_eq!(rows.len(), t.st.stands.len());
    assert!(rows.iter().any(|r| r.label == "Cohort 1 (1)" && r.strength == "8 of 8 points"));
}

#[test]
fn kills_are_marked_against_a_stand_and_at_nought_it_is_removed_fmt_ros_03_04_05_06() {
    let body = format!(
        "{}{}",
        stand("red", "archers", 20.0, 10.0, 0.0),
        stand("blue", "light_infantry", 20.0, 16.0, 180.0)
    );
    let mut t = T::new(&scenario("", &body));
    t.st.stands[1].kills = 3;
    t.ready(&[6, 1]);
    t.bell(&[]);
    t.side(Side::Red, Command::Fire { targets: vec![(0, 1)] }, &[]);
    // FMT-ROS-03: one more kill; its fourth point gone: removed (FMT-ROS-04).
    let ev = t.side(Side::Blue, Command::Fire { targets: vec![(1, 0)] }, &[]);
    let _ = ev;
    t.assert_logged(&["[FMT-ROS-03]", "LI 1 loses 1 point(s) to missile fire"]);
    t.assert_logged(&["[FMT-ROS-04]", "LI 1 is removed"]);
    assert!(!t.st.stands[1].on_table);
    // It shot in the same fire phase, from its last point (fire is all at once): the archers
    // lost a point (FMT-ROS-05: what a stand is worth is what it has left).
    assert_eq!(t.points(0), 3);
    // FMT-ROS-06: the roster shows every kill, when and why.
    let rows = t.rules.roster(&t.st, Viewer::Side(Side::Red));
    let li = rows.iter().find(|r| r.label.starts_with("LI 1")).unwrap();
    assert_eq!(li.state, "removed");
    assert!(li.losses.contains("4 kills") && li.losses.contains("[FMT-FIRE-04]"), "{li:?}");
}

/// Red heavy infantry far from blue; red archers near blue's javelins.
fn tidy() -> T {
    let body = format!(
        "{}{}{}{}",
        stand("red", "heavy_infantry", 10.0, 5.0, 0.0),
        stand("red", "archers", 30.0, 10.0, 0.0),
        stand("blue", "light_infantry", 30.0, 17.0, 180.0),
        stand("blue", "heavy_infantry", 10.0, 30.0, 180.0)
    );
    let mut t = T::new(&scenario("", &body));
    t.ready(&[6, 1]);
    t.bell(&[]);
    assert!(matches!(t.st.phase, Phase::Rearrange { .. }), "{:?}", t.st.phase);
    t
}

#[test]
fn stands_out_of_the_fight_may_be_tidied_sideways_or_back_fmt_rearr_01_02_03() {
    let mut t = tidy();
    // FMT-REARR-02: not forward.
    let c = Command::Rearrange { moves: vec![t.place(0, 10.0, 7.0, 0.0)] };
    assert_eq!(t.refused(Side::Red, c).rule.as_str(), "FMT-REARR-02");
    // FMT-REARR-03: the archers are in missile range of the javelinmen: they stay as they are.
    let c = Command::Rearrange { moves: vec![t.place(1, 32.0, 10.0, 0.0)] };
    assert_eq!(t.refused(Side::Red, c).rule.as_str(), "FMT-REARR-03");
    // FMT-REARR-01: sideways and back, away from every enemy.
    t.side(Side::Red, Command::Rearrange { moves: vec![t.place(0, 7.0, 4.5, 0.0)] }, &[]);
    t.side(Side::Blue, Command::Rearrange { moves: vec![] }, &[]);
    t.assert_logged(&["[FMT-REARR-01]", "HI 1 is rearranged from (10, 5) to (7, 4.5)"]);
    assert_eq!(t.st.stands[0].rect.centre.x, 7.0);
}
