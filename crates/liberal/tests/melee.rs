//! Hand-to-hand (LIB-HTH-01..17): a red unit moves into contact with a blue one 3" away on a
//! 36" table, and the fights are scripted die by die (attacker, defender, the loser's fate).

mod common;
use common::*;
use liberal::data::Fate;
use liberal::state::{Command, Event, Flag, Formation, Phase, Stage, Status};
use tabletop::rules::Side;

/// Red `red` at (36, 16) facing north, blue `blue` at (36, 19) facing south, plus `more`.
fn duel(red_ty: &str, red: &str, blue_ty: &str, blue: &str, more: &str) -> T {
    let body = unit("red", red_ty, 36.0, 16.0, 0.0, red)
        + &unit("blue", blue_ty, 36.0, 19.0, 180.0, blue)
        + more;
    T::at_red_turn(&scenario_h(36.0, "", &body))
}

const FOUR: &str = "figures = 4\nofficers = false";
const EIGHT: &str = "figures = 8\nofficers = false";

/// Red moves into contact with unit 1.
fn charge(t: &mut T, dice: &[u8]) -> Vec<Event> {
    t.declare(Side::Red, vec![normal(0, 36.0, 19.0)], dice)
}

/// The side asked to re-form, if any.
fn reform_pending(t: &T) -> Option<usize> {
    match &t.st.phase {
        Phase::Turn { stage: Stage::Reform { unit, .. }, .. } => Some(*unit),
        _ => None,
    }
}

#[test]
fn lib_hth_01_contact_starts_a_hand_to_hand() {
    // "LIB-HTH-01": red's normal move ends touching blue: no fire, a hand-to-hand.
    let mut t = duel("infantry", FOUR, "infantry", FOUR, "");
    let ev = charge(&mut t, &fights("aaaa", 3));
    let mv = moves_of(&ev, 0);
    assert!(mv[0].1.iter().any(|r| r == "LIB-HTH-01"));
    assert!(all_volleys(&ev).is_empty());
    let m = &melees(&ev)[0];
    assert_eq!((m.attacker, m.defenders.clone()), (0, vec![1]));
    assert!(m.rules.iter().any(|r| r == "LIB-HTH-01"));
    assert_eq!(t.st.units[0].place.formation, Formation::Line, "in the attacker's formation");
    assert!(m.attacker_won);
    assert_eq!(reform_pending(&t), Some(0));
    t.side(Side::Red, Command::Reform { formation: None }, &[]);
    // Blue has no one left in the ranks: red has won.
    assert_eq!(t.st.outcome.as_ref().and_then(|o| o.winner), Some(Side::Red));
}

#[test]
fn lib_hth_02_the_defender_gathers_units_within_6_inches() {
    // "LIB-HTH-02": blue's line 2 stands about 5" from red's front rank and joins; line 3,
    // 24" off, does not. Red loses every fight.
    let more = unit("blue", "infantry", 42.0, 19.0, 180.0, FOUR)
        + &unit("blue", "infantry", 60.0, 19.0, 180.0, FOUR);
    let mut t = duel("infantry", FOUR, "infantry", FOUR, &more);
    let ev = charge(&mut t, &fights("dddd", 3));
    let m = &melees(&ev)[0];
    assert_eq!(m.defenders, vec![1, 2]);
    assert!(!m.attacker_won);
    assert!(m.rules.iter().any(|r| r == "LIB-HTH-02"));
    // Lined up as wide as red's front rank (2): blue's front rank is unit 1's first two.
    assert_eq!(m.fights[0].defender, (1, 0));
    assert_eq!(t.st.units[0].strength(), 0);
    assert_eq!(reform_pending(&t), Some(1));
    t.side(Side::Blue, Command::Reform { formation: None }, &[]);
    assert_eq!(t.st.outcome.as_ref().and_then(|o| o.winner), Some(Side::Blue));
}

#[test]
fn lib_hth_03_the_front_ranks_fight_first() {
    // "LIB-HTH-03": the first fights pair red's front rank with blue's front rank.
    let mut t = duel("infantry", FOUR, "infantry", FOUR, "");
    let ev = charge(&mut t, &fights("aaaa", 3));
    let m = &melees(&ev)[0];
    assert_eq!(m.fights[0].attacker, (0, 0));
    assert_eq!(m.fights[0].defender, (1, 0));
    assert_eq!(m.fights[1].defender, (1, 1));
    assert!(m.fights[..2].iter().all(|f| f.attacker.1 < 2), "front rank of 2");
    assert!(m.rules.iter().any(|r| r == "LIB-HTH-03"));
}

#[test]
fn lib_hth_04_single_fights_low_total_loses() {
    // "LIB-HTH-04": 4 against 2: red wins, blue's man takes a fate die of 5 (wounded); then 2
    // against 4: red's man loses (3, dead); then three red wins.
    let mut dice = vec![4, 2, 5, 2, 4, 3];
    dice.extend(fights("aaa", 3));
    let mut t = duel("infantry", FOUR, "infantry", FOUR, "");
    let ev = charge(&mut t, &dice);
    let m = &melees(&ev)[0];
    let f = &m.fights[0];
    assert_eq!((f.attacker_roll, f.defender_roll, f.attacker_won), ((4, 0), (2, 0), true));
    assert_eq!((f.fate_die, f.fate), (5, Fate::Wounded));
    let f = &m.fights[1];
    assert_eq!((f.attacker, f.defender), ((0, 1), (1, 1)));
    assert!(!f.attacker_won);
    assert_eq!(f.fate, Fate::Dead);
    assert_eq!(m.fights.len(), 5);
    assert!(matches!(t.st.units[1].figures[0].status, Status::Wounded { .. }));
    assert_eq!(t.st.units[0].figures[1].status, Status::Dead);
    assert!(m.rules.iter().any(|r| r == "LIB-HTH-04"));
}

#[test]
fn lib_hth_05_tie_winners_and_ties() {
    // "LIB-HTH-05": grenadiers win a tie (3 against 3) outright.
    let mut dice = vec![3, 3, 3];
    dice.extend(fights("aaa", 3));
    let mut t = duel("grenadiers", FOUR, "infantry", FOUR, "");
    let ev = charge(&mut t, &dice);
    let f = &melees(&ev)[0].fights[0];
    assert!(f.attacker_won);
    assert_eq!(f.rerolls, 0);
    // Infantry against infantry: a tie is thrown again (LIB-R-05).
    let mut dice = vec![3, 3, 6, 1, 3];
    dice.extend(fights("aaa", 3));
    let mut t = duel("infantry", FOUR, "infantry", FOUR, "");
    let ev = charge(&mut t, &dice);
    let f = &melees(&ev)[0].fights[0];
    assert_eq!((f.rerolls, f.attacker_roll.0, f.attacker_won), (1, 6, true));
    // Grenadiers against heavy cavalry, both tie-winners: 3 + 0 against 2 + 1 is thrown again.
    let mut dice = vec![3, 2, 1, 6, 3];
    dice.extend(fights("ddd", 3));
    let mut t = duel("grenadiers", FOUR, "heavy_cavalry", FOUR, "");
    let ev = charge(&mut t, &dice);
    let f = &melees(&ev)[0].fights[0];
    assert_eq!((f.rerolls, f.defender_roll, f.attacker_won), (1, (6, 1), false));
    assert!(melees(&ev)[0].rules.iter().any(|r| r == "LIB-HTH-05"));
}

#[test]
fn lib_hth_06_the_losers_fate_and_the_flag() {
    // "LIB-HTH-06": blue's 4 have a commander (0), colours (1) and second officer (3). The
    // commander loses with a fate die of 1: captured (the hand-to-hand column, where fire would
    // make him run); the bearer loses with a 3: on the flag column, dead and the flag taken.
    let mut dice = vec![6, 1, 1, 6, 1, 3];
    dice.extend(fights("aa", 4));
    let mut t = duel("infantry", FOUR, "infantry", "figures = 4", "");
    assert_eq!(t.st.units[1].figures[1].role, liberal::state::Role::Colours);
    let ev = charge(&mut t, &dice);
    let m = &melees(&ev)[0];
    assert_eq!(m.fights[0].fate, Fate::Captured);
    assert_eq!(m.fights[1].fate, Fate::DeadFlagLost);
    assert_eq!(m.fights[2].fate, Fate::Wounded);
    let blue = &t.st.units[1];
    assert_eq!(blue.figures[0].status, Status::Captured);
    assert_eq!(blue.figures[1].status, Status::Dead);
    assert_eq!(blue.flag, Flag::Lost);
    assert_eq!(t.st.side(Side::Red).flags_taken, 1);
    assert!(m.rules.iter().any(|r| r == "LIB-HTH-06"));
}

#[test]
fn lib_hth_07_three_lost_in_a_row_lose_the_rank() {
    // "LIB-HTH-07": 8 against 8, ranks of 4: red wins three in a row; blue's front rank is
    // beaten with one man still in it, who goes back. Then the same against the second rank.
    let mut dice = fights("aaaaaa", 3);
    dice.push(1); // blue's retreat runs into the north edge: the way along it
    let mut t = duel("infantry", EIGHT, "infantry", EIGHT, "");
    let ev = charge(&mut t, &dice);
    let m = &melees(&ev)[0];
    assert_eq!(m.fights.len(), 6);
    assert_eq!(m.ranks.len(), 2);
    assert_eq!(m.ranks[0], (false, vec![(1, 3)]), "the front rank's survivor goes back");
    assert_eq!(m.ranks[1], (false, vec![(1, 7)]));
    assert!(m.attacker_won);
    assert!(m.rules.iter().any(|r| r == "LIB-HTH-07"));
}

#[test]
fn lib_hth_08_a_win_breaks_the_run_and_a_tie_does_not_count() {
    // "LIB-HTH-08": 12 against a rank of 6: red, red, blue (the run is broken), red, red, a tie
    // thrown again, red: only now three in a row.
    let mut dice = fights("aada", 3);
    dice.extend(fights("a", 3));
    dice.extend([3, 3]);
    dice.extend(fights("a", 3));
    dice.push(2); // blue's retreat along the north edge
    let mut t = duel(
        "infantry",
        "figures = 12\nofficers = false",
        "infantry",
        "figures = 6\nofficers = false",
        "",
    );
    let ev = charge(&mut t, &dice);
    let m = &melees(&ev)[0];
    assert_eq!(m.fights.len(), 6);
    assert_eq!(m.fights[5].rerolls, 1);
    assert_eq!(m.ranks.len(), 1);
    assert_eq!(m.ranks[0].1.len(), 1, "one of blue's six left to go back");
    assert!(m.rules.iter().any(|r| r == "LIB-HTH-08"));
}

/// Red's 8 beat blue's 4 with three straight wins; one blue man is left and retreats 18" to
/// the north edge, a die (`way`) choosing the way along it.
fn beaten_back(way: u8) -> (T, Vec<Event>) {
    let mut dice = fights("aaa", 3);
    dice.push(way);
    let mut t = duel("infantry", EIGHT, "infantry", FOUR, "");
    let ev = charge(&mut t, &dice);
    (t, ev)
}

#[test]
fn lib_hth_09_along_the_edge_a_die_chooses_the_way() {
    // "LIB-HTH-09" (LIB-R-32): 16" straight back reach the edge; the other 2" go along it, an
    // odd die to the unit's left, an even one to its right.
    for (way, left) in [(1u8, true), (2, false)] {
        let (t, ev) = beaten_back(way);
        let (mv, rules) = moves_of(&ev, 1).pop().expect("the retreat");
        assert!(rules.iter().any(|r| r == "LIB-HTH-09") && rules.iter().any(|r| r == "LIB-R-32"));
        let side = if left { mv.from.facing.left() } else { mv.from.facing.right() };
        let along = (mv.to.at - mv.from.at).dot(side);
        assert!((along - 2.0).abs() < 0.01, "2\" along the edge, not {along}");
        assert!((t.st.units[1].place.at.y - 35.0).abs() < 0.01);
    }
}

#[test]
fn lib_hth_10_the_attacker_moves_on_to_the_next_rank() {
    // "LIB-HTH-10": red beats blue's front rank; its front rank then fights blue's second.
    let mut t = duel("infantry", FOUR, "infantry", FOUR, "");
    let ev = charge(&mut t, &fights("aaaa", 3));
    let m = &melees(&ev)[0];
    assert!(!m.ranks[0].0);
    assert_eq!(m.fights[2].defender, (1, 2), "blue's second rank");
    assert!(m.fights[2].attacker.1 < 2, "red's front rank");
    assert!(m.rules.iter().any(|r| r == "LIB-HTH-10"));
}

#[test]
fn lib_hth_11_the_defender_fills_up_and_takes_the_next_rank() {
    // "LIB-HTH-11" (LIB-R-37): blue wins, loses one, wins: red's front rank is beaten. Blue's
    // front rank fills from its second (figure 2) and fights red's second rank.
    let mut t = duel("infantry", FOUR, "infantry", FOUR, "");
    let ev =
        charge(&mut t, &fights("dadd", 3).into_iter().chain(fights("d", 3)).collect::<Vec<_>>());
    let m = &melees(&ev)[0];
    assert!(m.ranks[0].0, "red lost the first rank fight");
    assert_eq!(m.fights[3].attacker, (0, 2), "red's second rank");
    assert_eq!(m.fights[4].defender, (1, 2), "blue's rear man filled the front rank");
    assert!(!m.attacker_won);
    assert!(m.rules.iter().any(|r| r == "LIB-HTH-11"));
    assert_eq!(reform_pending(&t), Some(1));
}

#[test]
fn lib_hth_12_rank_fights_go_on_until_one_side_has_none() {
    // "LIB-HTH-12": both of blue's ranks are beaten; then it ends.
    let mut t = duel("infantry", FOUR, "infantry", FOUR, "");
    let ev = charge(&mut t, &fights("aaaa", 3));
    let m = &melees(&ev)[0];
    assert_eq!(m.ranks.len(), 2);
    assert!(m.ranks.iter().all(|r| !r.0));
    assert_eq!(m.fights.len(), 4);
    assert!(m.attacker_won && m.rules.iter().any(|r| r == "LIB-HTH-12"));
    assert_eq!(t.st.units[1].strength(), 0);
}

#[test]
fn lib_hth_13_the_losers_end_18_inches_back() {
    // "LIB-HTH-13": the beaten blue man ends 18" from where the unit stood: 16" straight back
    // and 2" along the edge.
    let (_, ev) = beaten_back(1);
    let (mv, rules) = moves_of(&ev, 1).pop().expect("the retreat");
    assert_eq!(mv.allowance, 18.0);
    let d = mv.to.at - mv.from.at;
    let back = d.dot(-mv.from.facing.vector());
    assert!((back - 16.0).abs() < 0.01, "{back}");
    assert!((d.x.abs() + d.y.abs() - 18.0).abs() < 0.01, "18\" in all, not {:?}", d);
    assert!(rules.iter().any(|r| r == "LIB-HTH-13"));
}

#[test]
fn lib_hth_14_the_winner_may_reform_in_place() {
    // "LIB-HTH-14": red wins and is asked; a house is not a formation; column is taken on the
    // spot.
    let (mut t, _) = beaten_back(1);
    assert_eq!(reform_pending(&t), Some(0));
    let at = t.st.units[0].place.at;
    assert_eq!(
        t.refused_rule(Side::Red, Command::Reform { formation: Some(Formation::House) }),
        "LIB-HTH-14"
    );
    let ev = t.side(Side::Red, Command::Reform { formation: Some(Formation::Column) }, &[]);
    assert!(
        ev.iter().any(|e| matches!(e, Event::Reformed { unit: 0, formation: Formation::Column }))
    );
    assert_eq!(t.st.units[0].place.formation, Formation::Column);
    assert!(t.st.units[0].place.at.distance(at) < 1e-9);
}

#[test]
fn lib_hth_15_guns_are_taken_when_every_defender_is_beaten() {
    // "LIB-HTH-15": red's 4 beat the battery's 4 crew; the gun (spike die 3: not spiked) passes
    // to red as a new, uncrewed battery.
    let mut t = duel("infantry", FOUR, "horse_artillery", "", "");
    let mut dice = fights("aaaa", 3);
    dice.push(3);
    let ev = charge(&mut t, &dice);
    let m = &melees(&ev)[0];
    assert!(m.attacker_won);
    let taken = ev.iter().find_map(|e| match e {
        Event::GunTaken { from, unit } => Some((*from, unit.clone())),
        _ => None,
    });
    let (from, u) = taken.expect("the gun is taken");
    assert_eq!((from, u.side, u.figures.len()), (1, Side::Red, 0));
    assert!(t.st.units[1].gun.is_none());
    assert_eq!(t.st.units[2].side, Side::Red);
    assert!(t.st.units[2].gun.is_some());
    assert_eq!(t.st.side(Side::Red).guns_taken, 1);
    // Red beaten: the gun stays blue's.
    let mut t = duel("infantry", FOUR, "horse_artillery", "", "");
    let ev = charge(&mut t, &fights("dddd", 3));
    assert!(!ev.iter().any(|e| matches!(e, Event::GunTaken { .. } | Event::Spiked { .. })));
    assert!(t.st.units[1].gun.is_some());
    assert_eq!(t.st.units.len(), 2);
}

#[test]
fn lib_hth_16_retreating_troops_may_spike_the_guns_they_leave() {
    // "LIB-HTH-16": a 4 on the die: the gun left behind is spiked.
    let mut t = duel("infantry", FOUR, "horse_artillery", "", "");
    let mut dice = fights("aaaa", 3);
    dice.push(4);
    let ev = charge(&mut t, &dice);
    assert!(ev.iter().any(|e| matches!(e, Event::Spiked { gun: 1, spiked: true, .. })));
    assert!(t.st.units[2].gun.as_ref().unwrap().spiked);
}

#[test]
fn lib_hth_17_contact_on_a_liberal_step_is_fought_at_once() {
    // "LIB-HTH-17": red's liberal assault touches blue on its first step; the fight is fought
    // within that step and ends the move.
    let mut t = duel("infantry", FOUR, "infantry", FOUR, "");
    let ev = t.declare(Side::Red, vec![assault(0, 1)], &fights("aaaa", 3));
    let step = ev.iter().position(|e| matches!(e, Event::Moved { forward_step: true, .. }));
    let fought = ev.iter().position(|e| matches!(e, Event::Melee { .. }));
    let done = ev.iter().position(|e| {
        matches!(e, Event::Leg { unit: 0, leg: liberal::state::Leg::Done, rules, .. }
            if rules.iter().any(|r| r.as_str() == "LIB-HTH-17"))
    });
    let (step, fought, done) =
        (step.unwrap(), fought.unwrap(), done.expect("done after the fight"));
    assert!(step < fought && fought < done);
    assert_eq!(reform_pending(&t), Some(0));
    t.side(Side::Red, Command::Reform { formation: None }, &[]);
    // Blue has no one left in the ranks: red has won.
    assert_eq!(t.st.outcome.as_ref().and_then(|o| o.winner), Some(Side::Red));
}
