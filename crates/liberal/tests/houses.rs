//! Combat in houses (LIB-HOUSE-01..06).

mod common;
use common::*;
use liberal::state::{Choice, Formation};
use tabletop::rules::Side;

const FOUR: &str = "figures = 4\nofficers = false";

/// A village area (a house) round (x, y), `r` inches each way.
fn house(x: f64, y: f64, r: f64) -> String {
    format!(
        "[[area]]\nname = \"Inn\"\nkind = \"village\"\npoints = [[{a:?}, {b:?}], [{c:?}, {b:?}], [{c:?}, {d:?}], [{a:?}, {d:?}]]\n\n",
        a = x - r,
        b = y - r,
        c = x + r,
        d = y + r
    )
}

/// Red's 4 at (36, 16) facing north; 9 blue in a house at (36, 21).
fn at_house() -> T {
    let body = unit("red", "infantry", 36.0, 16.0, 0.0, FOUR)
        + &unit("blue", "infantry", 36.0, 21.0, 180.0, "figures = 9\nofficers = false")
        + &house(36.0, 21.0, 0.5);
    let t = T::at_red_turn(&scenario_h(36.0, "", &body));
    assert_eq!(t.st.units[1].place.formation, Formation::House);
    t
}

/// Red attacks the house.
fn storm(t: &mut T, dice: &[u8]) -> Vec<liberal::state::Event> {
    t.declare(Side::Red, vec![normal(0, 36.0, 19.7)], dice)
}

#[test]
fn lib_house_01_figures_in_a_house_add_one() {
    // "LIB-HOUSE-01": red 4 against the house's 4 + 1: red loses the fight.
    let mut t = at_house();
    let mut dice = vec![4, 4, 3];
    dice.extend(fights("dd", 3));
    let ev = storm(&mut t, &dice);
    let m = &melees(&ev)[0];
    assert!(m.house);
    assert_eq!(m.fights[0].defender_roll, (4, 1));
    assert!(!m.fights[0].attacker_won);
    assert!(m.rules.iter().any(|r| r == "LIB-HOUSE-01"));
}

/// Red B (12) ahead of a house of `n` blue at (36, 26) and red C (12) off its flank, facing
/// the house (`c_facing` 301) or away from it (121).
fn house_under_fire(n: usize, c_facing: f64) -> T {
    let body = unit("red", "infantry", 36.0, 12.0, 0.0, "figures = 12")
        + &unit("red", "infantry", 56.0, 14.0, c_facing, "figures = 12")
        + &unit("blue", "infantry", 36.0, 26.0, 180.0, &format!("figures = {n}"))
        + &house(36.0, 26.0, 1.0);
    T::at_red_turn(&scenario_h(36.0, "", &body))
}

#[test]
fn lib_house_02_a_house_fires_as_a_square() {
    // "LIB-HOUSE-02": 16 in a house fired on by one unit fire back with half: 8.
    let mut t = house_under_fire(16, 121.0);
    let mut dice = volley_script(&t, 0, 2, true, 1, 5);
    dice.extend(volley_script(&t, 2, 0, true, 1, 5));
    let ev = t.declare(Side::Red, vec![order(0, Choice::StandFast { target: Some(2) })], &dice);
    let v = &volleys_of(&ev, 2)[0].0;
    assert_eq!(v.figures, 8);
    assert!(v.basis.contains("half"), "{}", v.basis);
    assert!(T::cites(&ev, "LIB-HOUSE-02"));
    // The house gives heavy cover to those inside.
    assert_eq!(volleys_of(&ev, 0)[0].0.cover, 2);
    // Fired on from two directions at once, all 16 fire.
    let mut t = house_under_fire(16, 301.0);
    let mut dice = volley_script(&t, 0, 2, true, 1, 5);
    dice.extend(volley_script(&t, 1, 2, true, 1, 5));
    dice.extend(volley_script(&t, 2, 0, true, 2, 5));
    let named = |u: usize| order(u, Choice::StandFast { target: Some(2) });
    let ev = t.declare(Side::Red, vec![named(0), named(1)], &dice);
    assert_eq!(volleys_of(&ev, 2)[0].0.figures, 16);
}

#[test]
fn lib_house_03_ten_or_fewer_in_a_house_all_fire() {
    // "LIB-HOUSE-03": 10 in a house fired on from one direction fire back with all 10.
    let mut t = house_under_fire(10, 121.0);
    let mut dice = volley_script(&t, 0, 2, true, 1, 5);
    dice.extend(volley_script(&t, 2, 0, true, 1, 5));
    let ev = t.declare(Side::Red, vec![order(0, Choice::StandFast { target: Some(2) })], &dice);
    let v = &volleys_of(&ev, 2)[0].0;
    assert_eq!(v.figures, 10);
    assert!(T::cites(&ev, "LIB-HOUSE-03"));
}

#[test]
fn lib_house_04_troops_in_houses_never_support() {
    // "LIB-HOUSE-04": red attacks a blue line; blue's house 4" off is not gathered.
    let body = unit("red", "infantry", 36.0, 16.0, 0.0, FOUR)
        + &unit("blue", "infantry", 36.0, 19.0, 180.0, FOUR)
        + &unit("blue", "infantry", 41.0, 21.0, 180.0, "figures = 9\nofficers = false")
        + &house(41.0, 21.0, 0.5);
    let mut t = T::at_red_turn(&scenario_h(36.0, "", &body));
    assert_eq!(t.st.units[2].place.formation, Formation::House);
    let ev = t.declare(Side::Red, vec![normal(0, 36.0, 19.0)], &fights("dddd", 3));
    let m = &melees(&ev)[0];
    assert_eq!(m.defenders, vec![1]);
    assert!(m.rules.iter().any(|r| r == "LIB-HOUSE-04"));
    assert_eq!(t.st.units[2].strength(), 9);
}

#[test]
fn lib_house_05_a_house_fight_is_one_contest_of_three_in_a_row() {
    // "LIB-HOUSE-05": red, red, blue, red, red, red: the sixth fight makes three in a row and
    // ends it, with four of the house's nine still standing; no rank by rank.
    let mut t = at_house();
    let mut dice = fights("aadaaa", 3);
    dice.push(1); // the beaten occupants' retreat meets the north edge
    let ev = storm(&mut t, &dice);
    let m = &melees(&ev)[0];
    assert!(m.house && m.attacker_won);
    assert_eq!(m.fights.len(), 6);
    assert_eq!(m.ranks.len(), 1);
    assert_eq!(m.ranks[0].1.len(), 4);
    assert!(m.rules.iter().any(|r| r == "LIB-HOUSE-05"));
    assert!(!m.rules.iter().any(|r| r == "LIB-HTH-10" || r == "LIB-HTH-11"));
}

#[test]
fn lib_house_06_the_loser_of_a_house_fight_retreats_18_inches() {
    // "LIB-HOUSE-06" (LIB-R-30): beaten, the occupants go 18" back and red moves in.
    let mut t = at_house();
    let mut dice = fights("aaa", 3);
    dice.push(1);
    let ev = storm(&mut t, &dice);
    let (mv, rules) = moves_of(&ev, 1).pop().expect("the retreat");
    assert!(rules.iter().any(|r| r == "LIB-HOUSE-06"));
    assert_eq!(mv.allowance, 18.0);
    assert_eq!(t.st.units[1].place.formation, Formation::Line);
    assert_eq!(t.st.units[1].house, None);
    let (_, rules) = moves_of(&ev, 0).pop().expect("red moves in");
    assert!(rules.iter().any(|r| r == "LIB-R-30"));
    assert_eq!(t.st.units[0].place.formation, Formation::House);
    assert!(t.st.units[0].house.is_some());
    // A house fight lost by the attacker: the attacker goes back 18".
    let mut t = at_house();
    let ev = storm(&mut t, &fights("ddd", 3));
    let (mv, rules) = moves_of(&ev, 0).pop().expect("red's retreat");
    assert!(rules.iter().any(|r| r == "LIB-HOUSE-06"));
    assert_eq!(mv.allowance, 18.0);
    assert_eq!(t.st.units[1].place.formation, Formation::House);
}
