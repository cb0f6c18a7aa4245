//! Squares (LIB-SQUARE-01..05).

mod common;
use common::*;
use liberal::state::{Choice, Command, Formation, Phase, Stage};
use tabletop::rules::Side;

const FOUR: &str = "figures = 4\nofficers = false";

#[test]
fn lib_square_01_a_square_moves_4_inches() {
    // "LIB-SQUARE-01" (LIB-CHOICE-06): a red square may go 4", not 4.5".
    let body = unit("red", "infantry", 36.0, 10.0, 0.0, "formation = \"square\"")
        + &unit("blue", "infantry", 36.0, 44.0, 0.0, "");
    let mut t = T::at_red_turn(&scenario("", &body));
    let r = t.refused_rule(Side::Red, Command::Declare { orders: vec![normal(0, 36.0, 14.5)] });
    assert!(r == "LIB-CHOICE-06" || r == "LIB-SQUARE-01", "{r}");
    // Forming square limits the move to 4" as well (LIB-M-05).
    let body2 = unit("red", "infantry", 36.0, 10.0, 0.0, "")
        + &unit("blue", "infantry", 36.0, 44.0, 0.0, "");
    let t2 = T::at_red_turn(&scenario("", &body2));
    let form = order(
        0,
        Choice::Normal {
            to: tabletop::geometry::Point::new(36.0, 15.0),
            facing: None,
            formation: Some(Formation::Square),
            mount: None,
            target: None,
        },
    );
    let r = t2.refused_rule(Side::Red, Command::Declare { orders: vec![form] });
    assert!(r == "LIB-CHOICE-06" || r == "LIB-SQUARE-01", "{r}");
    let ev = t.declare(Side::Red, vec![normal(0, 36.0, 14.0)], &[]);
    let (mv, rules) = &moves_of(&ev, 0)[0];
    assert_eq!(mv.allowance, 4.0);
    assert!((mv.used - 4.0).abs() < 1e-6);
    assert!(rules.iter().any(|r| r == "LIB-CHOICE-06"));
    assert_eq!(t.st.units[0].place.formation, Formation::Square);
}

/// Red's `red` at (36, 16) facing north; a blue square of 24 centred at (36, 22.5) facing
/// south, its south face about 19.4" up; `more` added.
fn at_square(red: &str, more: &str) -> T {
    let body = unit("red", "infantry", 36.0, 16.0, 0.0, red)
        + &unit("blue", "infantry", 36.0, 22.5, 180.0, "formation = \"square\"")
        + more;
    T::at_red_turn(&scenario_h(36.0, "", &body))
}

#[test]
fn lib_square_02_square_figures_add_one() {
    // "LIB-SQUARE-02": red throws 4, the square's man 4 + 1: red loses the fight it would tie.
    let mut t = at_square(FOUR, "");
    let mut dice = vec![4, 4, 3];
    dice.extend(fights("ddd", 3));
    let ev = t.declare(Side::Red, vec![normal(0, 36.0, 19.5)], &dice);
    let m = &melees(&ev)[0];
    assert_eq!(m.fights[0].defender_roll, (4, 1));
    assert!(!m.fights[0].attacker_won);
    assert!(m.fights.iter().all(|f| f.defender_roll.1 == 1));
    assert!(m.rules.iter().any(|r| r == "LIB-SQUARE-02"));
}

#[test]
fn lib_square_03_a_square_fires_with_half_or_all() {
    // "LIB-SQUARE-03": a red square of 24 fires ahead with its front face's 6: half of them, 3.
    let body = unit("red", "infantry", 36.0, 12.0, 0.0, "formation = \"square\"")
        + &unit("blue", "infantry", 36.0, 33.0, 0.0, "");
    let mut t = T::at_red_turn(&scenario("", &body));
    let script = volley_script(&t, 0, 1, true, 1, 5);
    let ev = t.declare(Side::Red, vec![stand(0)], &script);
    let v = &volleys_of(&ev, 0)[0].0;
    assert_eq!(v.figures, 3);
    assert!(v.basis.contains("half"), "{}", v.basis);
    assert!(T::cites(&ev, "LIB-SQUARE-03"));
    // A blue square fired on from its front and its flank at once fires back with all 6 of
    // the face that sees the target (LIB-R-28).
    let body = unit("red", "infantry", 36.0, 12.0, 0.0, "figures = 12")
        + &unit("red", "infantry", 56.0, 14.0, 301.0, "figures = 12")
        + &unit("blue", "infantry", 36.0, 26.0, 180.0, "formation = \"square\"");
    let mut t = T::at_red_turn(&scenario_h(36.0, "", &body));
    let one = t.rules.shooting(&t.st, &t.st.units[2], &t.st.units[0], true, 1).unwrap();
    assert_eq!(one.figures, 3);
    let mut dice = volley_script(&t, 0, 2, true, 1, 5);
    dice.extend(volley_script(&t, 1, 2, true, 1, 5));
    dice.extend(volley_script(&t, 2, 0, true, 2, 5));
    let named = |u: usize| order(u, Choice::StandFast { target: Some(2) });
    let ev = t.declare(Side::Red, vec![named(0), named(1)], &dice);
    let v = &volleys_of(&ev, 2)[0].0;
    assert_eq!((v.target, v.figures), (0, 6));
    assert!(v.basis.contains("two directions"), "{}", v.basis);
}

#[test]
fn lib_square_04_one_face_beaten_the_whole_square_retreats() {
    // "LIB-SQUARE-04": red's 6 beat the south face's 6 (two ranks of 3); the whole square,
    // its other faces too, goes back 18" (along the north edge, die 1).
    let mut t = at_square("figures = 6\nofficers = false", "");
    let mut dice = fights("aaaaaa", 3);
    dice.push(1);
    let ev = t.declare(Side::Red, vec![normal(0, 36.0, 19.5)], &dice);
    let m = &melees(&ev)[0];
    assert!(m.attacker_won);
    assert!(m.fights.iter().all(|f| f.defender.1 < 6), "the south face alone fought");
    let (mv, rules) = moves_of(&ev, 1).pop().expect("the square retreats");
    assert!(rules.iter().any(|r| r == "LIB-SQUARE-04"));
    assert_eq!(mv.allowance, 18.0);
    assert_eq!(t.st.units[1].strength(), 18, "the other faces went with it");
    assert_eq!(t.st.units[1].place.at, mv.to.at);
}

#[test]
fn lib_square_05_a_square_supporting_a_melee_loses_its_plus_one() {
    // "LIB-SQUARE-05": blue's square stands about 5" from red's front rank as red attacks a
    // blue line: it is gathered, fights at +0 and is a square no longer.
    let body = unit("red", "infantry", 36.0, 16.0, 0.0, FOUR)
        + &unit("blue", "infantry", 36.0, 19.0, 180.0, FOUR)
        + &unit("blue", "infantry", 43.5, 22.2, 180.0, "formation = \"square\"");
    let mut t = T::at_red_turn(&scenario_h(36.0, "", &body));
    let ev = t.declare(Side::Red, vec![normal(0, 36.0, 19.0)], &fights("aaaadddd", 3));
    let m = &melees(&ev)[0];
    assert_eq!(m.defenders, vec![1, 2]);
    assert_eq!(m.broken, vec![2]);
    let f = &m.fights[4];
    assert_eq!(f.defender.0, 2);
    assert_eq!(f.defender_roll.1, 0, "no +1 out of the square");
    assert!(m.rules.iter().any(|r| r == "LIB-SQUARE-05"));
    assert_eq!(t.st.units[2].place.formation, Formation::Line);
    assert!(t.st.units[2].square_broken);
    assert!(!matches!(t.st.phase, Phase::Turn { stage: Stage::Reform { .. }, .. }));
}

#[test]
fn lib_square_04_a_square_broken_for_its_rear_ranks_stands_if_they_win() {
    // "LIB-SQUARE-04" (LIB-R-29, LIB-SQUARE-05): red's 8 outnumber the south face's 6, so the
    // other faces come in behind it without their +1 and the square is broken. Red beats the
    // face, then loses to the rest. SQUARE-04 is a rule of squares: the body that beat red is
    // no longer one, so it holds its ground in line, and red goes back 18".
    let mut t = at_square("figures = 8\nofficers = false", "");
    let mut dice = fights("aaaaaa", 3);
    dice.extend(fights("dddddd", 3));
    dice.push(1); // red's beaten survivors meet the south edge
    let ev = t.declare(Side::Red, vec![normal(0, 36.0, 19.5)], &dice);
    let m = &melees(&ev)[0];
    assert_eq!(m.ranks.len(), 4);
    assert!(!m.attacker_won);
    assert!(moves_of(&ev, 1).is_empty(), "the broken square does not retreat");
    assert_eq!(t.st.units[1].place.formation, liberal::state::Formation::Line);
    assert!(
        moves_of(&ev, 0).iter().any(|(_, r)| r.iter().any(|x| x == "LIB-HTH-13")),
        "red goes back"
    );
}
