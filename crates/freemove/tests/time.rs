//! The timed move played through the game: the window, the hands, steps landing in time order,
//! contact freezing, the bell, "Time!" and grid mode (FMT-TIME-*, FMT-R-01..11).

mod common;
use common::*;
use freemove::state::{Command, Event, Morale, Phase};
use tabletop::geometry::Point;
use tabletop::rules::{Pending, RuleSet, Side, Viewer};

/// Ten heavy infantry a side, in lines far apart.
fn lines(head: &str, extra: &str) -> String {
    scenario(
        head,
        &format!(
            "[[stand]]\nside = \"red\"\ntype = \"heavy_infantry\"\nat = [4.0, 5.0]\ncount = 10\n\n\
             [[stand]]\nside = \"blue\"\ntype = \"heavy_infantry\"\nat = [24.0, 30.0]\nfacing = 180.0\ncount = 10\n\n{extra}"
        ),
    )
}

#[test]
fn the_window_opens_when_both_sides_are_ready_and_lasts_half_an_army_move_fmt_time_01_02_05() {
    let mut t = T::new(&lines("", ""));
    assert!(matches!(t.rules.pending(&t.st), Pending::Both { .. }));
    t.side(Side::Red, Command::Ready(Default::default()), &[]);
    // FMT-TIME-01: red alone is not enough.
    assert!(matches!(t.st.phase, Phase::Ready { .. }));
    assert_eq!(t.rules.pending(&t.st).sides(), vec![Side::Blue]);
    t.side(Side::Blue, Command::Ready(Default::default()), &[6, 1]);
    // FMT-TIME-02, FMT-R-02: 4 s a step × 20 stands / 4 = 20 s (the time to move half the
    // average army once).
    let c = t.st.clock().expect("the window is open");
    assert_eq!(c.length_ms, 20_000);
    t.assert_logged(&["[FMT-TIME-02]", "20s on the clock", "red wins the initiative"]);
    // FMT-TIME-05: in it a side moves half its ten stands one step each, and no more.
    for k in 0..5 {
        t.step(Side::Red, k, 4.0 + 2.0 * k as f64, 7.0, None);
        if k < 4 {
            assert!(t.rules.pending(&t.st).sides().contains(&Side::Red));
        }
    }
    assert!(!t.rules.pending(&t.st).sides().contains(&Side::Red), "five steps fill the window");
}

#[test]
fn the_window_shrinks_as_the_armies_are_destroyed_fmt_time_03_04() {
    for (lost, want) in [(9, 120_000), (10, 60_000), (15, 30_000), (18, 15_000)] {
        let mut t = T::new(&lines("window_seconds = 120", ""));
        for s in t.st.stands.iter_mut().take(lost) {
            s.on_table = false;
        }
        t.ready(&[6, 1]);
        assert_eq!(t.st.clock().unwrap().length_ms, want, "{lost} of 20 lost");
        if want < 120_000 {
            t.assert_logged(&["[FMT-TIME-03]"]);
        }
        if want < 60_000 {
            t.assert_logged(&["[FMT-TIME-04]"]);
        }
    }
}

#[test]
fn steps_are_measured_one_move_length_at_a_time_fmt_time_06_07_r_05() {
    let mut t = T::new(&lines("", ""));
    t.ready(&[6, 1]);
    // FMT-TIME-07: 4.5" is more than a heavy infantry move.
    let r = t.refused(Side::Red, t.step_cmd(Side::Red, 0, 4.0, 9.5, None));
    assert_eq!(r.rule.as_str(), "FMT-TIME-07");
    // FMT-TIME-06: the same stand steps again and again, a chain of measured steps, with a
    // free turn at the end of each (FMT-R-05).
    t.step(Side::Red, 0, 4.0, 9.0, Some(90.0));
    t.done(Side::Blue, &[]);
    // Blue is done: nothing can come between, so each step lands at once.
    t.step(Side::Red, 0, 4.0, 13.0, None);
    assert_eq!(t.st.stands[0].rect.centre, Point::new(4.0, 13.0));
    t.step(Side::Red, 0, 4.0, 17.0, None);
    assert_eq!(t.st.stands[0].rect.centre, Point::new(4.0, 17.0));
    t.assert_logged(&["[FMT-TIME-07]", "HI 1 steps 4\"", "allowance 4\""]);
}

#[test]
fn a_whole_step_on_a_road_is_a_column_move_fmt_time_08_09() {
    let road = "[[line]]\nname = \"Via\"\nkind = \"dirt_road\"\nwidth = 2.5\npoints = [[30.0, 0.0], [30.0, 36.0]]\n\n\
                [[area]]\nname = \"Wood\"\nkind = \"wood\"\npoints = [[3.0, 8.0], [9.0, 8.0], [9.0, 20.0], [3.0, 20.0]]\n\n\
                [[area]]\nname = \"Hill\"\nkind = \"hill\"\npoints = [[16.0, 7.0], [22.0, 7.0], [22.0, 14.0], [16.0, 14.0]]\n";
    let mut t = T::new(&scenario(
        "",
        &format!(
            "{}{}{}{}{road}",
            stand("red", "heavy_infantry", 30.0, 5.0, 0.0),
            stand("red", "heavy_infantry", 6.0, 5.0, 0.0),
            stand("red", "heavy_infantry", 18.0, 5.0, 0.0),
            stand("blue", "heavy_infantry", 30.0, 30.0, 180.0)
        ),
    ));
    t.ready(&[6, 1]);
    // FMT-TIME-08: 6" along the road.
    t.step(Side::Red, 0, 30.0, 11.0, None);
    t.done(Side::Blue, &[]);
    t.assert_logged(&["[FMT-TIME-08]", "on a road, 6\""]);
    // Off the road 6" is too far; into the wood each inch costs two (FMT-TIME-09).
    let r = t.refused(Side::Red, t.step_cmd(Side::Red, 1, 6.0, 11.0, None));
    assert_eq!(r.rule.as_str(), "FMT-TIME-07");
    let r = t.refused(Side::Red, t.step_cmd(Side::Red, 1, 6.0, 9.5, None));
    assert!(r.reason.contains("costs 6\""), "{r}");
    t.step(Side::Red, 1, 6.0, 8.5, None);
    t.step(Side::Red, 2, 18.0, 9.0, None);
    t.step(Side::Red, 0, 30.0, 12.0, None);
    t.assert_logged(&["HI 2 steps 3.5\"", "[FMT-TIME-09]", "broken ground"]);
    // Up the hill at no extra cost.
    t.assert_logged(&["HI 3 steps 4\"", "cost 4\" = 4\" open ground"]);
}

#[test]
fn hands_are_busy_while_a_step_is_made_and_it_lands_when_it_ends_fmt_r_01_r_08() {
    let mut t = T::new(&lines("", ""));
    t.ready(&[6, 1]);
    t.step(Side::Red, 0, 4.0, 9.0, None);
    // FMT-R-01: no second order before 4 s.
    let r = t.refused(
        Side::Red,
        Command::Step { at_ms: 1000, stand: 1, to: Point::new(6.0, 9.0), facing: None },
    );
    assert_eq!(r.rule.as_str(), "FMT-R-01");
    // FMT-R-08: blue does not see the step under way; red sees its own.
    let blue = t.rules.view(&t.st, Viewer::Side(Side::Blue));
    assert_eq!(blue.stands[0].at, [4.0, 5.0]);
    assert!(blue.clock.as_ref().unwrap().under_way.is_none());
    let red = t.rules.view(&t.st, Viewer::Side(Side::Red));
    assert!(red.clock.as_ref().unwrap().under_way.as_deref().unwrap().contains("HI 1"));
    // Blue watches until the step has landed, then sees it.
    t.side(Side::Blue, Command::Wait { at_ms: 0, until_ms: 4000 }, &[]);
    assert_eq!(t.st.stands[0].rect.centre, Point::new(4.0, 9.0));
    t.assert_logged(&["[FMT-TIME-14]", "blue watches from 0s to 4s"]);
    t.assert_logged(&["4s: HI 1 steps 4\""]);
}

#[test]
fn the_bell_stops_everything_and_a_step_under_way_never_lands_fmt_time_10() {
    let mut t = T::new(&lines("", ""));
    t.ready(&[6, 1]);
    t.done(Side::Blue, &[]);
    for k in 0..4 {
        t.step(Side::Red, k, 4.0 + 2.0 * k as f64, 9.0, None);
    }
    // At 16 s red begins a step that would land at 20 s: the bell rings then, and it lands at
    // the bell; one begun at 16.5 s would not. Wait half a second first.
    t.side(Side::Red, Command::Wait { at_ms: 16_000, until_ms: 16_500 }, &[]);
    let ev = t.step(Side::Red, 4, 12.0, 9.0, None);
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::WindowClosed { void, .. } if void == &vec![Side::Red])),
        "{ev:?}"
    );
    assert_eq!(t.st.stands[4].rect.centre, Point::new(12.0, 5.0));
    t.assert_logged(&["[FMT-TIME-10]", "does not happen"]);
}

/// Red heavy infantry 0 at (20, 10) and 1 near it at (24, 10), blue heavy infantry at (20, y).
fn facing_off(blue_y: f64, red_type: &str) -> T {
    T::new(&scenario(
        "",
        &format!(
            "{}{}{}",
            stand("red", red_type, 20.0, 10.0, 0.0),
            stand("red", "heavy_infantry", 24.0, 10.0, 0.0),
            stand("blue", "heavy_infantry", 20.0, blue_y, 180.0)
        ),
    ))
}

#[test]
fn contact_freezes_both_stands_and_only_them_fmt_time_11_12_r_07() {
    let mut t = facing_off(13.0, "heavy_infantry");
    t.ready(&[6, 1]);
    t.step(Side::Red, 0, 20.0, 12.0, None);
    t.done(Side::Blue, &[]);
    t.side(Side::Red, Command::Wait { at_ms: 4000, until_ms: 4500 }, &[]);
    // Stopped touching, 1.25" on (FMT-R-07), both frozen (FMT-TIME-11).
    let red = t.st.stands[0].rect.centre;
    assert!((red.y - 11.25).abs() < 0.06, "{red:?}");
    assert!(t.st.stands[0].frozen && t.st.stands[2].frozen);
    t.assert_logged(&["[FMT-TIME-11]", "HI 1 touches HI 1", "frozen"]);
    let r = t.refused(Side::Red, t.step_cmd(Side::Red, 0, 20.0, 9.0, None));
    assert_eq!(r.rule.as_str(), "FMT-TIME-11");
    // FMT-TIME-12: the stand beside it still moves.
    t.step(Side::Red, 1, 26.0, 10.0, None);
}

#[test]
fn a_counter_charge_stops_an_advance_fmt_time_13() {
    let mut t = facing_off(16.0, "heavy_infantry");
    // Red wins the initiative; ties alternate by handling time (FMT-R-06), so at 4 s, in the
    // second turn, blue's step lands first.
    t.ready(&[6, 1]);
    t.step(Side::Red, 0, 20.0, 13.5, None);
    t.step(Side::Blue, 2, 20.0, 12.5, None);
    t.done(Side::Blue, &[]);
    t.done(Side::Red, &[5, 2]);
    // Red's step was stopped after 0.75": blue's counter-charge landed first.
    let stopped = t.events.iter().find_map(|e| match e {
        Event::Stepped { stand: 0, to, .. } => Some(to.centre),
        _ => None,
    });
    let red = stopped.expect("red stepped");
    assert!(red.y < 10.8 && red.y > 10.7, "{red:?}");
    assert!(t.events.iter().any(|e| matches!(e, Event::Contact { mover: 0, met: 2, .. })));
    t.assert_logged(&["[FMT-TIME-13]", "HI 1 touches HI 1"]);
}

#[test]
fn archers_counter_move_away_from_slower_heavy_infantry_fmt_time_14() {
    let mut t = facing_off(15.5, "archers");
    // Blue wins the initiative, so red has the tie at 4 s, the second turn (FMT-R-06).
    t.ready(&[1, 6]);
    // Blue's heavy infantry step 4" at the archers; the archers step back 6" at the same
    // moment, and land first on the tie.
    t.step(Side::Blue, 2, 20.0, 11.5, None);
    t.step(Side::Red, 0, 20.0, 4.0, None);
    t.done(Side::Blue, &[]);
    assert!(
        !t.events.iter().any(|e| matches!(e, Event::Contact { .. })),
        "no contact: the archers got away\n{}",
        t.log().join("\n")
    );
    assert_eq!(t.st.stands[0].rect.centre, Point::new(20.0, 4.0));
    assert_eq!(t.st.stands[2].rect.centre, Point::new(20.0, 11.5));
}

#[test]
fn no_missile_fire_during_the_timed_move_fmt_time_15() {
    let mut t = facing_off(20.0, "archers");
    t.ready(&[6, 1]);
    t.done(Side::Red, &[]);
    assert!(matches!(t.st.phase, Phase::Window { .. }));
    assert!(!t.events.iter().any(|e| matches!(e, Event::Shot { .. })));
    t.done(Side::Blue, &[]);
    // After the bell and the tidying up, the fire phase: the archers shoot from where they
    // stand.
    t.pass(&[]);
    assert!(matches!(t.st.phase, Phase::Fire { .. }), "{:?}", t.st.phase);
    t.side(Side::Red, Command::Fire { targets: vec![(0, 2)] }, &[3]);
    t.assert_logged(&["[FMT-TIME-15]", "red names its targets"]);
    t.assert_logged(&["Ar 1 shoots bows at HI 1", "rolls 3", "1 point killed"]);
}

#[test]
fn time_called_stops_the_move_and_there_is_no_combat_until_the_next_fmt_time_16_17() {
    let mut t = facing_off(13.0, "heavy_infantry");
    t.ready(&[6, 1]);
    t.step(Side::Red, 0, 20.0, 12.0, None);
    t.done(Side::Blue, &[]);
    t.side(Side::Red, Command::Wait { at_ms: 4000, until_ms: 5000 }, &[]);
    assert!(t.st.stands[0].frozen);
    t.side(Side::Red, Command::CallTime { at_ms: 5000 }, &[]);
    t.assert_logged(&["[FMT-TIME-16]", "calls \"Time!\""]);
    t.assert_logged(&["[FMT-TIME-17]", "no fire or melee in game move 1"]);
    assert!(!t.events.iter().any(|e| matches!(e, Event::Fought { .. })));
    assert_eq!(t.st.game_move, 2);
    // The contact stands: next move the stands are still frozen, and the melee is fought.
    t.ready(&[6, 1]);
    assert!(t.st.stands[0].frozen && t.st.stands[2].frozen);
    t.bell(&[5, 2]);
    assert!(
        t.events.iter().any(|e| matches!(e, Event::Fought { round: 1, .. })),
        "{}",
        t.log().join("\n")
    );
}

#[test]
fn a_stand_driven_back_stands_still_fmt_time_18() {
    let mut t = facing_off(20.0, "heavy_infantry");
    t.st.stands[0].morale = Morale::Broken { roll_from: 3 };
    t.ready(&[6, 1]);
    let r = t.refused(Side::Red, t.step_cmd(Side::Red, 0, 20.0, 12.0, None));
    assert_eq!(r.rule.as_str(), "FMT-TIME-18");
}

#[test]
fn on_the_grid_a_move_is_a_number_of_cells_fmt_time_19() {
    let mut t = T::new(&scenario(
        "grid = 2.0",
        &format!(
            "{}{}",
            stand("red", "heavy_infantry", 11.0, 5.0, 0.0),
            stand("blue", "light_cavalry", 11.0, 31.0, 180.0)
        ),
    ));
    t.ready(&[6, 1]);
    // Heavy infantry: 4" is two 2" cells.
    let r = t.refused(Side::Red, t.step_cmd(Side::Red, 0, 11.0, 11.0, None));
    assert_eq!(r.rule.as_str(), "FMT-TIME-19");
    let r = t.refused(Side::Red, t.step_cmd(Side::Red, 0, 11.5, 7.0, None));
    assert_eq!(r.rule.as_str(), "FMT-TIME-19");
    t.step(Side::Red, 0, 13.0, 7.0, Some(90.0));
    // Light cavalry: four cells.
    t.step(Side::Blue, 1, 11.0, 23.0, None);
    t.bell(&[]);
    assert_eq!(t.st.stands[1].rect.centre, Point::new(11.0, 23.0));
}
