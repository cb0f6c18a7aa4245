//! Victory and army morale (OTHW-VIC-…): the starting value, its drops, attrition, the end of
//! the battle and who won.
mod common;
use common::*;
use othw::state::{Command, Event, Status};
use tabletop::rules::{Actor, Pending, RuleSet, Side};

fn fleeing(st: &mut othw::State, u: u8, col: i32, row: i32) {
    put(st, u, col, row, S);
    st.units[u as usize].status = Status::Fleeing;
    st.units[u as usize].sp = 0;
}

fn morale_steps(ev: &[Event]) -> Vec<(u8, u8)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Morale { from, to, .. } => Some((*from, *to)),
            _ => None,
        })
        .collect()
}

/// Checks OTHW-VIC-01.
#[test]
fn othw_vic_01_starting_morale_is_a_quarter_of_non_skirmishers_up_plus_four_plus_the_general() {
    // Rome: 10 non-skirmishers → 3 + 4 + 1 (generic general) = 8; Carthage: 10 → 7 + 2 (Hannibal).
    for name in ["open_field.toml", "river_ford.toml", "hills_woods.toml"] {
        let st = state(&ready(name));
        assert_eq!((st.side(Side::Red).am, st.side(Side::Blue).am), (8, 9), "{name}");
    }
    // Generic: red 9 non-skirmishers → 3 + 4 + 1 = 8; blue 8 → 2 + 4 + 1 = 7.
    let st = state(&ready("generic.toml"));
    assert_eq!((st.side(Side::Red).am, st.side(Side::Blue).am), (8, 7));
}

/// Checks OTHW-VIC-02.
#[test]
fn othw_vic_02_the_worked_example_sixteen_non_skirmishers_give_eight() {
    let m = rules().data.morale;
    assert_eq!(m.starting(16), 8);
    for (n, am) in [(12, 7), (13, 8), (10, 7), (6, 6), (1, 5)] {
        assert_eq!(m.starting(n), am, "N = {n}");
    }
}

/// Checks OTHW-VIC-03.
#[test]
fn othw_vic_03_a_non_skirmisher_broken_by_combat_costs_one_point() {
    let mut st = battle(&["Heavy Infantry"], &["Infantry"]);
    put(&mut st, 0, 5, 3, N);
    put(&mut st, 1, 5, 4, N);
    st.units[1].sp = 1;
    let ev = fight(&mut st, 0, N, &[3, 6, 2, 2]);
    assert_eq!(morale_steps(&ev), vec![(20, 19)]);
    assert!(logged(&ev, "[OTHW-VIC-03]"));
}

/// Checks OTHW-VIC-04.
#[test]
fn othw_vic_04_a_slaughtered_fugitive_costs_one_point_skirmishers_included() {
    let mut st = battle(&["Heavy Infantry"], &["Skirmishers"]);
    put(&mut st, 0, 5, 3, N);
    fleeing(&mut st, 1, 5, 4);
    let ev = fight(&mut st, 0, N, &[3]);
    assert_eq!(morale_steps(&ev), vec![(20, 19)]);
    assert!(logged(&ev, "[OTHW-VIC-04]"));
}

/// Checks OTHW-VIC-05.
#[test]
fn othw_vic_05_each_general_lost_costs_one_point() {
    let mut st = battle_with(&["Infantry"], &["Infantry"], Some("Generic general"), None, "");
    run(&mut st, mv(0, 0, 1, N), &[]);
    // Further move: fail, reroll pass, Risk 1, Fate 1: removed.
    let ev = run(&mut st, mv(0, 0, 2, N), &[2, 5, 1, 1]);
    assert_eq!(morale_steps(&ev), vec![(20, 19)]);
    assert!(logged(&ev, "[OTHW-VIC-05]"));
}

/// Checks OTHW-VIC-06.
#[test]
fn othw_vic_06_at_six_or_less_each_point_lost_costs_units_with_l_at_least_that_value_one_sp() {
    let mut st = battle(&["Heavy Infantry"], &["Infantry", "Levies", "Infantry"]);
    st.sides[1].am = 7;
    put(&mut st, 0, 5, 3, N);
    fleeing(&mut st, 1, 5, 4);
    // 7 → 6: L6 units (the levies B1 and the spare) lose 1; the L5 infantry B2 does not.
    let ev = fight(&mut st, 0, N, &[3]);
    assert_eq!(morale_steps(&ev), vec![(7, 6)]);
    let bs = blue_spare(&st);
    assert_eq!((st.units[2].sp, st.units[bs as usize].sp, st.units[3].sp), (3, 3, 4));
}

/// Checks OTHW-VIC-07.
#[test]
fn othw_vic_07_seven_falling_two_costs_l6_two_l5_one_and_l3_nothing_until_three() {
    let types = utype("Veterans", "infantry", 1, 3, 6, 4, 3, &[]);
    let mut st = battle_with(
        &["Heavy Infantry", "Heavy Infantry"],
        &["Infantry", "Levies", "Infantry", "Infantry", "Veterans"],
        None,
        None,
        &types,
    );
    // R0 = 0, R1 = 1; B0 = 2 (fugitive), B1 = 3 (L6), B2 = 4 (fugitive), B3 = 5 (L5), B4 = 6 (L3).
    st.sides[1].am = 7;
    put(&mut st, 0, 5, 3, N);
    fleeing(&mut st, 2, 5, 4);
    put(&mut st, 1, 8, 3, N);
    fleeing(&mut st, 4, 8, 4);
    fight(&mut st, 0, N, &[3]);
    fight(&mut st, 1, N, &[3]);
    assert_eq!(st.side(Side::Blue).am, 5);
    assert_eq!((st.units[3].sp, st.units[5].sp, st.units[6].sp), (2, 3, 4));
    // Down to 4 and then 3: the L3 veterans lose their first point only at 3.
    st.sides[1].am = 4;
    next_turn(&mut st);
    let b3 = 5u8;
    fleeing(&mut st, b3, 5, 4);
    let ev = fight(&mut st, 0, N, &[3]);
    assert_eq!(morale_steps(&ev), vec![(4, 3)]);
    assert_eq!(st.units[6].sp, 3);
}

/// Checks OTHW-VIC-08.
#[test]
fn othw_vic_08_an_attrition_break_costs_no_point_but_its_general_does() {
    let mut st = battle_with(
        &["Heavy Infantry"],
        &["Levies", "Infantry"],
        None,
        Some("Generic general"),
        "",
    );
    st.sides[1].am = 7;
    st.units[1].sp = 1; // B0, the general's levies
    put(&mut st, 0, 5, 3, N);
    fleeing(&mut st, 2, 5, 4);
    let ev = fight(&mut st, 0, N, &[3]);
    // 7 → 6 (slaughter): B0 (L6) falls to 0 and breaks: no point for that, but its general is
    // lost: 6 → 5.
    assert_eq!(morale_steps(&ev), vec![(7, 6), (6, 5)]);
    assert_eq!(st.units[1].status, Status::Fleeing);
    assert!(st.side(Side::Blue).general.as_ref().is_some_and(|g| g.lost));
    let bs = blue_spare(&st);
    assert_eq!(st.units[bs as usize].sp, 2, "the L6 spare lost a point at 6 and one at 5");
    assert!(logged(&ev, "[OTHW-VIC-08]"));
}

/// Checks OTHW-VIC-09.
#[test]
fn othw_vic_09_morale_stops_at_zero_and_the_battle_ends_by_morale_collapse_or_turn_limit() {
    let mut st = battle(&["Heavy Infantry"], &["Infantry", "Infantry"]);
    st.sides[1].am = 1;
    put(&mut st, 0, 5, 3, N);
    fleeing(&mut st, 1, 5, 4);
    let ev = fight(&mut st, 0, N, &[3]);
    assert_eq!(st.side(Side::Blue).am, 0);
    let o = st.outcome.clone().expect("over");
    assert_eq!(o.winner, Some(Side::Red));
    assert!(logged(&ev, "[OTHW-VIC-09]"));
    let r = rules();
    assert_eq!(r.pending(&st), Pending::Over);
    assert_eq!(
        r.check(&st, Actor::Side(Side::Red), &Command::EndPhase).unwrap_err().rule.as_str(),
        "OTHW-VIC-09"
    );
    // No unit left in the fight: the last ready blue units gone.
    let mut st = battle(&["Heavy Infantry"], &["Infantry"]);
    let bs = blue_spare(&st);
    st.units[bs as usize].status = Status::Fleeing;
    put(&mut st, 0, 5, 3, N);
    put(&mut st, 1, 5, 4, N);
    st.units[1].sp = 1;
    fight(&mut st, 0, N, &[3, 6, 2, 2]);
    assert_eq!(st.outcome.as_ref().and_then(|o| o.winner), Some(Side::Red));
    // The turn limit: after blue's phase of the last turn the side that lost fewer points wins.
    let mut st = battle(&["Heavy Infantry"], &["Infantry"]);
    st.turns = 1;
    st.sides[0].am = 18;
    end_phase(&mut st, &[]);
    assert!(st.outcome.is_none());
    end_phase(&mut st, &[]);
    let o = st.outcome.clone().expect("over at the turn limit");
    assert_eq!(o.winner, Some(Side::Blue));
    assert!(o.reason.contains("red 2, blue 0"), "{}", o.reason);
}
