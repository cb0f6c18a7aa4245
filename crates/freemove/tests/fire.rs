//! Missile fire after the bell, played through the game: who shoots, ranges, killing power in
//! the open, from the flank and against cover, the bowmen's morale and the close-range kill
//! of missile men attacked (FMT-FIRE-*, FMT-DEF-*, FMT-MOR-01).

mod common;
use common::*;
use freemove::state::{Command, Event, Morale, Phase};
use tabletop::rules::{RuleSet, Side};

/// A red shooter at (20, 10) facing north and blue targets; the window runs out at once and
/// the fire phase is reached.
fn at_fire(head: &str, body: &str) -> T {
    let mut t = T::new(&scenario(head, body));
    t.ready(&[6, 1]);
    t.bell(&[]);
    if matches!(t.st.phase, Phase::Rearrange { .. }) {
        t.pass(&[]);
    }
    assert!(matches!(t.st.phase, Phase::Fire { .. }), "{:?}", t.st.phase);
    t
}

fn fire(t: &mut T, side: Side, targets: &[(usize, usize)], faces: &[u8]) {
    t.side(side, Command::Fire { targets: targets.to_vec() }, faces);
}

#[test]
fn only_missile_men_shoot_and_heavy_infantry_only_in_a_fire_and_charge_fmt_fire_01() {
    let body = format!(
        "{}{}{}{}",
        stand("red", "light_infantry", 20.0, 10.0, 0.0),
        stand("red", "heavy_cavalry", 26.0, 10.0, 0.0),
        stand("red", "heavy_infantry", 14.0, 10.0, 0.0),
        stand("blue", "light_infantry", 20.0, 16.0, 180.0)
    );
    let t = at_fire("", &body);
    assert_eq!(
        t.refused(Side::Red, Command::Fire { targets: vec![(1, 3)] }).rule.as_str(),
        "FMT-FIRE-01"
    );
    assert_eq!(
        t.refused(Side::Red, Command::Fire { targets: vec![(2, 3)] }).rule.as_str(),
        "FMT-FIRE-01"
    );
}

#[test]
fn javelins_reach_8_inches_and_bows_12_fmt_fire_02_03() {
    // Light infantry 7.25" and 8.25" from blue; archers 11.25".
    let body = format!(
        "{}{}{}{}",
        stand("red", "light_infantry", 20.0, 10.0, 0.0),
        stand("red", "archers", 30.0, 10.0, 0.0),
        stand("blue", "heavy_infantry", 20.0, 19.0, 180.0),
        stand("blue", "heavy_infantry", 30.0, 23.0, 180.0)
    );
    let mut t = at_fire("", &body);
    // FMT-FIRE-03: one volley each.
    assert_eq!(
        t.refused(Side::Red, Command::Fire { targets: vec![(0, 2), (0, 2)] }).rule.as_str(),
        "FMT-FIRE-03"
    );
    fire(&mut t, Side::Red, &[(0, 2), (1, 3)], &[1, 6]);
    t.assert_logged(&["LI 1 shoots javelins at HI 1", "rolls 1", "killed"]);
    t.assert_logged(&["Ar 2 shoots bows at HI 2", "rolls 6", "killed"]);
    let body = format!(
        "{}{}{}{}",
        stand("red", "light_infantry", 20.0, 10.0, 0.0),
        stand("red", "archers", 30.0, 10.0, 0.0),
        stand("blue", "heavy_infantry", 20.0, 20.0, 180.0),
        stand("blue", "heavy_infantry", 30.0, 21.0, 180.0)
    );
    let t = at_fire("", &body);
    assert_eq!(
        t.refused(Side::Red, Command::Fire { targets: vec![(0, 2)] }).rule.as_str(),
        "FMT-FIRE-02"
    );
}

#[test]
fn a_volley_kills_light_troops_for_sure_and_heavy_on_1_3_or_6_fmt_fire_04_05_06_08() {
    let body = format!(
        "{}{}{}{}{}",
        stand("red", "archers", 20.0, 10.0, 0.0),
        stand("red", "light_infantry", 26.0, 10.0, 0.0),
        stand("red", "light_infantry", 32.0, 10.0, 0.0),
        stand("blue", "light_infantry", 20.0, 16.0, 180.0),
        stand("blue", "heavy_infantry", 26.0, 16.0, 180.0)
    );
    let mut t = at_fire("", &body);
    // Blue's javelins answer too; red first, then blue.
    t.side(Side::Red, Command::Fire { targets: vec![(0, 3), (1, 4), (2, 4)] }, &[]);
    let faces = [2, 3];
    t.side(Side::Blue, Command::Fire { targets: vec![(3, 1)] }, &faces);
    t.assert_logged(&["[FMT-FIRE-05]", "Ar 1 shoots bows at LI 1", "an automatic kill"]);
    t.assert_logged(&["[FMT-FIRE-08]", "Ar 1 shoots bows"]);
    t.assert_logged(&["[FMT-FIRE-06]", "LI 2 shoots javelins at HI 2", "rolls 2", "a miss"]);
    t.assert_logged(&[
        "[FMT-FIRE-06]",
        "LI 3 shoots javelins at HI 2",
        "rolls 3",
        "1 point killed",
    ]);
    // FMT-FIRE-04: one point each, whatever the shooter's points.
    assert_eq!(t.points(3), 3);
    assert_eq!(t.points(4), 7);
    assert_eq!(t.points(1), 3);
    // FMT-FIRE-13: no morale test after javelins.
    assert!(!t.events.iter().any(|e| matches!(e, Event::BowmenMorale { .. })));
}

#[test]
fn heavy_troops_shot_in_the_flank_lose_a_point_for_sure_fmt_fire_07_r_39() {
    let body = format!(
        "{}{}",
        stand("red", "light_infantry", 20.0, 10.0, 0.0),
        stand("blue", "heavy_infantry", 20.0, 15.0, 90.0)
    );
    let mut t = at_fire("", &body);
    fire(&mut t, Side::Red, &[(0, 1)], &[]);
    t.assert_logged(&["[FMT-FIRE-07]", "[FMT-R-39]", "shot in flank or rear", "an automatic kill"]);
    assert_eq!(t.points(1), 7);
}

#[test]
fn bowmen_shooting_at_each_other_test_their_morale_fmt_mor_01_fire_13_mor_03() {
    let body = format!(
        "{}{}",
        stand("red", "archers", 20.0, 10.0, 0.0),
        stand("blue", "archers", 20.0, 20.0, 180.0)
    );
    let mut t = at_fire("", &body);
    fire(&mut t, Side::Red, &[(0, 1)], &[]);
    // Both 3 points after the volleys: red 3 × 2 = 6 against blue 3 × 5 = 15.
    fire(&mut t, Side::Blue, &[(1, 0)], &[2, 5]);
    t.assert_logged(&[
        "[FMT-MOR-01]",
        "red 3 points, dice 2",
        "blue 3 points, dice 5",
        "red's bowmen retreat",
    ]);
    t.assert_logged(&["[FMT-MOR-03]", "Ar 1 falls back 3 move(s)"]);
    let s = &t.st.stands[0];
    assert!(
        (s.rect.centre.y - (10.0 - 18.0)).abs() < 1e-6 || s.rect.centre.y < 10.0,
        "{:?}",
        s.rect
    );
    assert!(matches!(s.morale, Morale::Broken { .. }));
}

#[test]
fn fire_at_troops_in_cover_rolls_for_every_volley_fmt_def_01_02_03_04() {
    let hill = "[[area]]\nname = \"Knoll\"\nkind = \"hill\"\npoints = [[16.0, 14.0], [36.0, 14.0], [36.0, 22.0], [16.0, 22.0]]\n";
    let body = format!(
        "{}{}{}{}{}{hill}",
        stand("red", "archers", 20.0, 10.0, 0.0),
        stand("red", "archers", 26.0, 10.0, 0.0),
        stand("red", "archers", 32.0, 10.0, 0.0),
        stand("blue", "light_infantry", 20.0, 17.0, 180.0),
        stand("blue", "heavy_infantry", 32.0, 17.0, 180.0)
    );
    let mut t = at_fire("", &body);
    t.side(Side::Red, Command::Fire { targets: vec![(0, 3), (1, 3), (2, 4)] }, &[]);
    t.side(Side::Blue, Command::Fire { targets: vec![(3, 0)] }, &[2, 3, 1]);
    t.assert_logged(&[
        "[FMT-DEF-01]",
        "[FMT-DEF-02]",
        "Ar 1 shoots bows at LI 1",
        "defensive position",
        "rolls 2",
        "a miss",
    ]);
    t.assert_logged(&["[FMT-DEF-02]", "Ar 2 shoots bows at LI 1", "rolls 3", "killed"]);
    t.assert_logged(&[
        "[FMT-DEF-03]",
        "[FMT-DEF-04]",
        "Ar 3 shoots bows at HI 2",
        "rolls 1",
        "a miss",
    ]);
}

#[test]
fn only_bows_shoot_from_or_at_a_house_fmt_def_05_06() {
    // FMT-DEF-05, FMT-DEF-06: only bowmen shoot at or from a house; javelins have no effect there.
    let house = "[[area]]\nname = \"Mill\"\nkind = \"village\"\npoints = [[18.5, 14.5], [21.5, 14.5], [21.5, 17.5], [18.5, 17.5]]\n";
    let body = format!(
        "{}{}{}{house}",
        stand("red", "light_infantry", 20.0, 10.0, 0.0),
        stand("red", "archers", 24.0, 10.0, 0.0),
        stand("blue", "light_infantry", 20.0, 16.0, 180.0)
    );
    let mut t = at_fire("", &body);
    assert_eq!(
        t.refused(Side::Red, Command::Fire { targets: vec![(0, 2)] }).rule.as_str(),
        "FMT-DEF-06"
    );
    // The men in the house may not throw their javelins out of it either: blue has nothing to
    // shoot, and red's volley is the whole fire phase.
    let (st, blue, red) = (&t.st, &t.st.stands[2], &t.st.stands[0]);
    assert_eq!(t.rules.may_target(st, blue, red).unwrap_err().rule.as_str(), "FMT-DEF-06");
    assert_eq!(t.rules.pending(&t.st).sides(), vec![Side::Red]);
    fire(&mut t, Side::Red, &[(1, 2)], &[6]);
    t.assert_logged(&["[FMT-DEF-02]", "Ar 2 shoots bows at LI 1", "rolls 6"]);
}

/// Blue heavy infantry steps into contact with red light infantry (or archers) at (20, 10).
fn charged(head: &str, red: &str, faces_after: &[u8]) -> T {
    let body = format!(
        "{}{}",
        stand("red", red, 20.0, 10.0, 0.0),
        stand("blue", "heavy_infantry", 20.0, 13.0, 180.0)
    );
    let mut t = T::new(&scenario(head, &body));
    t.ready(&[6, 1]);
    t.step(Side::Blue, 1, 20.0, 11.0, None);
    t.done(Side::Red, &[]);
    t.done(Side::Blue, faces_after);
    t
}

#[test]
fn missile_men_attacked_kill_a_point_of_the_attacker_first_fmt_fire_09_10() {
    // Melee dice red 6, blue 1: the attacker lost a point before them.
    let t = charged("", "light_infantry", &[6, 1]);
    t.assert_logged(&["[FMT-FIRE-09]", "HI 1 loses 1 point(s) to close-range volley"]);
    t.assert_logged(&["melee 1, round 1", "HI 1: 7 points"]);
    // FMT-FIRE-10: the attacker, in contact, could not have shot while charging.
    let body = format!(
        "{}{}",
        stand("red", "light_infantry", 20.0, 10.0, 0.0),
        stand("blue", "light_infantry", 20.0, 13.0, 180.0)
    );
    let mut t = T::new(&scenario("", &body));
    t.ready(&[6, 1]);
    t.step(Side::Blue, 1, 20.0, 11.0, None);
    t.side(Side::Red, Command::Wait { at_ms: 0, until_ms: 4000 }, &[]);
    let st = &t.st;
    let s = &st.stands[1];
    assert_eq!(t.rules.may_shoot(st, s).unwrap_err().rule.as_str(), "FMT-FIRE-10");
}

#[test]
fn the_close_range_kill_may_need_a_die_fmt_fire_11() {
    // FMT-FIRE-11, the variant: a 1 means no volley; then the melee dice.
    let t = charged("close_range_die = true", "archers", &[1, 6, 1]);
    assert!(!t.logged(&["to close-range volley"]));
    let t = charged("close_range_die = true", "archers", &[4, 6, 1]);
    t.assert_logged(&["[FMT-FIRE-09]", "close-range volley"]);
}

#[test]
fn shaken_missile_men_neither_shoot_nor_volley_when_attacked_fmt_fire_12_mor_05() {
    let body = format!(
        "{}{}",
        stand("red", "light_infantry", 20.0, 10.0, 0.0),
        stand("blue", "heavy_infantry", 20.0, 13.0, 180.0)
    );
    let mut t = T::new(&scenario("", &body));
    t.st.stands[0].morale = Morale::Broken { roll_from: 5 };
    t.ready(&[6, 1]);
    assert_eq!(t.rules.may_shoot(&t.st, &t.st.stands[0]).unwrap_err().rule.as_str(), "FMT-FIRE-12");
    t.step(Side::Blue, 1, 20.0, 11.0, None);
    t.done(Side::Red, &[]);
    t.done(Side::Blue, &[6, 1]);
    assert!(!t.logged(&["to close-range volley"]));
    t.assert_logged(&["[FMT-FIRE-12]", "[FMT-MOR-05]", "shaken: no close-range volley"]);
    // FMT-MOR-05: it fights at its full points.
    t.assert_logged(&["melee 1, round 1", "LI 1: 4 points"]);
}
