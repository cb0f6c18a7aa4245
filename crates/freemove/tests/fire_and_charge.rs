//! Fire and Charge, played through the game (FMT-FC-01..07, FMT-DEF-07).

mod common;
use common::*;
use freemove::state::{Command, Phase, ReadyOrders};
use tabletop::rules::Side;

fn flag(t: &mut T, stands: Vec<usize>, faces: &[u8]) {
    t.side(
        Side::Red,
        Command::Ready(ReadyOrders { fire_and_charge: stands, ..Default::default() }),
        &[],
    );
    t.side(Side::Blue, Command::Ready(ReadyOrders::default()), faces);
}

#[test]
fn only_heavy_infantry_fire_and_charge_and_a_call_stands_fmt_fc_01_02() {
    let body = format!(
        "{}{}{}",
        stand("red", "heavy_infantry", 20.0, 10.0, 0.0),
        stand("red", "light_infantry", 26.0, 10.0, 0.0),
        stand("blue", "light_infantry", 20.0, 16.0, 180.0)
    );
    let mut t = T::new(&scenario("", &body));
    let c = Command::Ready(ReadyOrders { fire_and_charge: vec![1], ..Default::default() });
    assert_eq!(t.refused(Side::Red, c).rule.as_str(), "FMT-FC-01");
    t.ready(&[6, 1]);
    // Called during the move, at no cost in time; it cannot be called twice.
    t.side(Side::Red, Command::FireAndCharge { at_ms: 0, stand: 0 }, &[]);
    t.assert_logged(&["[FMT-FC-02]", "HI 1 calls a Fire and Charge at 0s"]);
    assert_eq!(t.at(Side::Red), 0, "no handling time");
    assert_eq!(
        t.refused(Side::Red, Command::FireAndCharge { at_ms: 0, stand: 0 }).rule.as_str(),
        "FMT-FC-02"
    );
    t.bell(&[]);
    if matches!(t.st.phase, Phase::Rearrange { .. }) {
        t.pass(&[]);
    }
    // Once called, it must be carried out.
    assert_eq!(
        t.refused(Side::Red, Command::Fire { targets: vec![(1, 2)] }).rule.as_str(),
        "FMT-FC-02"
    );
}

#[test]
fn javelins_then_contact_then_one_round_with_the_targets_return_volley_fmt_fc_03_04_05_06() {
    let body = format!(
        "{}{}",
        stand("red", "heavy_infantry", 20.0, 10.0, 0.0),
        stand("blue", "light_infantry", 20.0, 16.0, 180.0)
    );
    let mut t = T::new(&scenario("", &body));
    flag(&mut t, vec![0], &[6, 1]);
    t.bell(&[]);
    assert!(matches!(t.st.phase, Phase::Fire { .. }), "{:?}", t.st.phase);
    t.side(Side::Red, Command::Fire { targets: vec![(0, 1)] }, &[]);
    // Blue's javelins at the heavy infantry: a 2 misses. Then the melee dice, red 3, blue 2.
    t.side(Side::Blue, Command::Fire { targets: vec![(1, 0)] }, &[2, 3, 2]);
    t.assert_logged(&["[FMT-FC-03]", "HI 1 shoots javelins at LI 1", "an automatic kill"]);
    t.assert_logged(&["[FMT-FC-04]", "HI 1 charges home after its javelins"]);
    t.assert_logged(&["[FMT-FC-05]", "HI 1 loses 1 point(s) to the return volley"]);
    t.assert_logged(&[
        "a single round",
        "FMT-FC-06",
        "red: HI 1: 7 points",
        "blue: LI 1: 3 points",
    ]);
    assert!(t.st.melees.is_empty(), "fought in one round");
}

#[test]
fn no_fire_and_charge_on_a_defensive_position_but_hills_with_their_dice_fmt_fc_07_def_07() {
    let wall = "[[line]]\nname = \"Wall\"\nkind = \"wall\"\nwidth = 0.5\npoints = [[0.0, 14.0], [30.0, 14.0]]\n";
    let hill = "[[area]]\nname = \"Hill\"\nkind = \"hill\"\npoints = [[31.0, 15.0], [45.0, 15.0], [45.0, 22.0], [31.0, 22.0]]\n";
    let body = format!(
        "{}{}{}{}{wall}{hill}",
        stand("red", "heavy_infantry", 20.0, 10.0, 0.0),
        stand("red", "heavy_infantry", 38.0, 10.0, 0.0),
        stand("blue", "light_infantry", 20.0, 16.0, 180.0),
        stand("blue", "heavy_infantry", 38.0, 16.0, 180.0)
    );
    let mut t = T::new(&scenario("", &body));
    flag(&mut t, vec![0, 1], &[6, 1]);
    t.bell(&[]);
    assert!(matches!(t.st.phase, Phase::Fire { .. }), "{:?}", t.st.phase);
    assert_eq!(
        t.refused(Side::Red, Command::Fire { targets: vec![(0, 2), (1, 3)] }).rule.as_str(),
        "FMT-FC-07"
    );
    // Against the hill: the cover dice for heavy troops, 3 or 6 (FMT-DEF-07); a 6 kills. Blue's
    // light infantry behind the wall throws at HI 1: a 5 misses. Then HI 2 against HI on the
    // hill, one round: red 6 × 8 = 48, blue 1 × 10.5 (7 points ×1.5).
    t.side(Side::Red, Command::Fire { targets: vec![(1, 3)] }, &[]);
    t.side(Side::Blue, Command::Fire { targets: vec![(2, 0)] }, &[6, 5, 6, 1]);
    t.assert_logged(&["[FMT-DEF-07]", "HI 2 shoots javelins at HI 2", "rolls 6", "killed"]);
    t.assert_logged(&["[FMT-FC-04]", "HI 2 charges home"]);
    t.assert_logged(&["FMT-FC-06", "on a hill, ×1.5", "red wins"]);
    // HI 1's call lapses for want of a target it may charge.
    t.assert_logged(&["[FMT-R-22]", "HI 1's Fire and Charge lapses"]);
}
