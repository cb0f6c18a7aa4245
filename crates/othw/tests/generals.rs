//! Generals (OTHW-GEN-…): attachment, exemption, rerolls, attack dice, rallies, Risk to
//! General and the Fate roll, Hannibal and Alexander, losing a general, optional abilities.
mod common;
use common::*;
use othw::data::FateResult;
use othw::state::{Command, Event, Status};
use tabletop::rules::{RuleSet, Side, Viewer};

fn with_general(general: &str, red: &[&str], blue: &[&str]) -> othw::State {
    battle_with(red, blue, Some(general), None, "")
}

fn risks(ev: &[Event]) -> Vec<(u8, bool, bool)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Risk { roll, fate, ignored, .. } => Some((roll.value, *fate, *ignored)),
            _ => None,
        })
        .collect()
}

fn fate(ev: &[Event]) -> Option<(u8, i8, FateResult)> {
    ev.iter().find_map(|e| match e {
        Event::Fate { roll, total, result, .. } => Some((roll.value, *total, *result)),
        _ => None,
    })
}

/// Checks OTHW-GEN-01.
#[test]
fn othw_gen_01_one_general_with_one_unit_taking_no_square() {
    let st = with_general("Generic general", &["Infantry", "Infantry"], &["Infantry"]);
    let g = st.side(Side::Red).general.as_ref().expect("a general");
    assert_eq!((g.unit, &*g.name), (0, "Generic general"));
    assert_eq!(st.at(at(0, 0)), Some(0), "the square holds the unit, not the general");
    assert!(st.side(Side::Blue).general.is_none());
    let view = rules().view(&st, Viewer::Side(Side::Blue));
    assert!(view.units[0].general && !view.units[1].general);
}

/// Checks OTHW-GEN-02.
#[test]
fn othw_gen_02_his_unit_skips_the_phase_end_roll_and_keeps_its_actions_after_a_one() {
    let mut st = with_general("Generic general", &["Infantry", "Infantry"], &["Infantry"]);
    run(&mut st, mv(1, 1, 1, N), &[1]);
    assert!(st.phase_over);
    let ev = run(&mut st, mv(0, 0, 1, N), &[]);
    assert!(!ev.iter().any(|e| matches!(e, Event::PhaseEndRoll { .. })));
    assert_eq!(st.units[0].pos, at(0, 1));
}

/// Checks OTHW-GEN-03.
#[test]
fn othw_gen_03_his_unit_may_reroll_a_failed_test_at_a_risk() {
    let mut st = with_general("Generic general", &["Infantry"], &["Infantry"]);
    run(&mut st, mv(0, 0, 1, N), &[]);
    // Further move: 2 fails (L5), the reroll 5 passes and stands; Risk 3, safe.
    let ev = run(&mut st, mv(0, 0, 2, N), &[2, 5, 3]);
    assert!(ev.iter().any(|e| matches!(e, Event::Test { reroll: true, passed: true, .. })));
    assert_eq!(risks(&ev), vec![(3, false, false)]);
    assert_eq!(st.units[0].pos, at(0, 2));
    // The reroll stands even if it fails: no third try.
    next_turn(&mut st);
    run(&mut st, mv(0, 0, 3, N), &[]);
    run(&mut st, mv(0, 0, 4, N), &[2, 2, 3]);
    assert_eq!(st.units[0].pos, at(0, 3));
}

/// Checks OTHW-GEN-04.
#[test]
fn othw_gen_04_his_attack_dice_are_added_when_his_unit_attacks_at_a_risk() {
    let mut st = with_general("Generic general", &["Heavy Infantry"], &["Infantry"]);
    put(&mut st, 0, 5, 3, N);
    put(&mut st, 1, 5, 4, S);
    let c = Command::Attack { unit: 0, from: at(5, 3), facing: N, general_dice: true };
    // 3 + 1 dice [6, 2, 2, 2]; back [2, 2]; Risk 3; B0 loses and passes (5).
    let ev = run(&mut st, c, &[6, 2, 2, 2, 2, 2, 3, 5]);
    assert!(
        ev.iter().any(
            |e| matches!(e, Event::Combat { attacker_rolls, .. } if attacker_rolls.len() == 4)
        )
    );
    assert_eq!(risks(&ev).len(), 1);
}

/// Checks OTHW-GEN-05.
#[test]
fn othw_gen_05_his_rally_dice_cancel_hits_on_five_or_six_at_a_risk() {
    let mut st = battle_with(&["Heavy Infantry"], &["Infantry"], None, Some("Generic general"), "");
    put(&mut st, 0, 5, 3, N);
    put(&mut st, 1, 5, 4, S);
    // 2 hits on B0; its general's rally die 5 cancels one; Risk 3; B0 loses 1-0 and passes (5).
    let ev = fight(&mut st, 0, N, &[3, 6, 6, 2, 2, 2, 5, 3, 5]);
    assert!(ev.iter().any(|e| matches!(e, Event::Cancelled { cancelled: 1, .. })));
    assert_eq!(st.units[1].sp, 3);
    // Hannibal's 2 rally dice [6, 6] never cancel more hits than were scored (1).
    let mut st = battle_with(&["Heavy Infantry"], &["Infantry"], None, Some("Hannibal"), "");
    put(&mut st, 0, 5, 3, N);
    put(&mut st, 1, 5, 4, S);
    let ev = fight(&mut st, 0, N, &[3, 6, 2, 2, 2, 2, 6, 6, 3]);
    assert!(ev.iter().any(|e| matches!(e, Event::Cancelled { cancelled: 1, .. })));
    assert_eq!(st.units[1].sp, 4);
}

/// Checks OTHW-GEN-06.
#[test]
fn othw_gen_06_risk_to_general_calls_for_a_fate_roll_on_a_one_only() {
    for (risk, fate_follows) in [(1u8, true), (2, false), (6, false)] {
        let mut st = with_general("Generic general", &["Infantry"], &["Infantry"]);
        run(&mut st, mv(0, 0, 1, N), &[]);
        let dice: Vec<u8> = if fate_follows { vec![2, 5, risk, 6] } else { vec![2, 5, risk] };
        let ev = run(&mut st, mv(0, 0, 2, N), &dice);
        assert_eq!(fate(&ev).is_some(), fate_follows, "risk {risk}");
    }
}

/// Checks OTHW-GEN-07.
#[test]
fn othw_gen_07_fate_removes_him_on_one_or_two_costs_a_turn_on_three_or_four() {
    let fate_of = |general: &str, face: u8| {
        let mut st = with_general(general, &["Infantry"], &["Infantry"]);
        run(&mut st, mv(0, 0, 1, N), &[]);
        let ev = run(&mut st, mv(0, 0, 2, N), &[2, 5, 1, face]);
        (st, fate(&ev).expect("a fate roll"))
    };
    let (st, f) = fate_of("Generic general", 2);
    assert_eq!(f, (2, 2, FateResult::Removed));
    assert!(st.side(Side::Red).general.as_ref().is_some_and(|g| g.lost));
    assert_eq!(st.side(Side::Red).am, 19);
    let (mut st, f) = fate_of("Generic general", 3);
    assert_eq!(f.2, FateResult::MissesTurn);
    // Red's next phase (phase 3): no general, so R0 rolls the phase-end die; phase 5: back.
    next_turn(&mut st);
    assert_eq!(st.phase_no, 3);
    let ev = run(&mut st, mv(0, 0, 3, N), &[4]);
    assert!(ev.iter().any(|e| matches!(e, Event::PhaseEndRoll { .. })));
    next_turn(&mut st);
    let ev = run(&mut st, mv(0, 0, 4, N), &[]);
    assert!(!ev.iter().any(|e| matches!(e, Event::PhaseEndRoll { .. })));
    let (_, f) = fate_of("Generic general", 5);
    assert_eq!(f.2, FateResult::NearMiss);
}

/// Checks OTHW-GEN-08.
#[test]
fn othw_gen_08_hannibal_adds_one_to_his_fate_rolls() {
    let fate_of = |face: u8| {
        let mut st = with_general("Hannibal", &["Infantry"], &["Infantry"]);
        run(&mut st, mv(0, 0, 1, N), &[]);
        let ev = run(&mut st, mv(0, 0, 2, N), &[2, 5, 1, face]);
        fate(&ev).expect("a fate roll")
    };
    assert_eq!(fate_of(1), (1, 2, FateResult::Removed));
    assert_eq!(fate_of(2), (2, 3, FateResult::MissesTurn));
    assert_eq!(fate_of(3), (3, 4, FateResult::MissesTurn));
    assert_eq!(fate_of(4), (4, 5, FateResult::NearMiss));
}

/// Checks OTHW-GEN-09.
#[test]
fn othw_gen_09_alexander_ignores_his_first_failed_attack_risk_once_a_game() {
    let mut st = with_general("Alexander", &["Heavy Infantry"], &["Infantry"]);
    put(&mut st, 0, 5, 3, N);
    put(&mut st, 1, 5, 4, S);
    let c = Command::Attack { unit: 0, from: at(5, 3), facing: N, general_dice: true };
    // 3 + 2 dice, all miss; back [2, 2]; Risk 1: ignored.
    let ev = run(&mut st, c.clone(), &[2, 2, 2, 2, 2, 2, 2, 1]);
    assert!(
        ev.iter().any(
            |e| matches!(e, Event::Combat { attacker_rolls, .. } if attacker_rolls.len() == 5)
        )
    );
    assert_eq!(risks(&ev), vec![(1, false, true)]);
    assert_eq!(st.side(Side::Red).general.as_ref().map(|g| g.ignore_attack_risk), Some(0));
    next_turn(&mut st);
    // The next 1 counts: a Fate roll (6, a near miss).
    let ev = run(&mut st, c, &[2, 2, 2, 2, 2, 2, 2, 1, 6]);
    assert_eq!(risks(&ev), vec![(1, true, false)]);
    assert_eq!(fate(&ev), Some((6, 6, FateResult::NearMiss)));
}

/// Checks OTHW-GEN-10.
#[test]
fn othw_gen_10_a_general_is_lost_with_his_breaking_unit_costing_one_more_point() {
    let mut st = with_general("Generic general", &["Infantry"], &["Heavy Infantry"]);
    put(&mut st, 0, 5, 3, N);
    put(&mut st, 1, 5, 4, S);
    st.units[0].sp = 1;
    // R0 [2, 2]; B0 [6, 2, 2]: 1 hit; the rally die 2 fails; Risk 3; R0 breaks and flees; B0
    // fails its follow-up test (1).
    let ev = fight(&mut st, 0, N, &[2, 2, 6, 2, 2, 2, 3, 1]);
    assert_eq!(st.units[0].status, Status::Fleeing);
    assert!(st.side(Side::Red).general.as_ref().is_some_and(|g| g.lost));
    assert_eq!(st.side(Side::Red).am, 18, "−1 for the unit, −1 for the general");
    assert!(logged(&ev, "[OTHW-GEN-10]"));
}

/// Checks OTHW-GEN-11.
#[test]
fn othw_gen_11_every_ability_is_optional() {
    let mut st = with_general("Generic general", &["Heavy Infantry"], &["Infantry"]);
    put(&mut st, 0, 5, 3, N);
    put(&mut st, 1, 5, 4, S);
    st.sides[0].orders.rally = false;
    st.sides[0].orders.reroll = false;
    // No general's dice asked: 3 dice [2, 2, 2] and no Risk; hit twice [6, 6], no rally; R0
    // loses and passes its test (4).
    let ev = fight(&mut st, 0, N, &[2, 2, 2, 6, 6, 4]);
    assert!(risks(&ev).is_empty());
    assert!(!ev.iter().any(|e| matches!(e, Event::Cancelled { .. })));
    assert_eq!(st.units[0].sp, 2);
    // Orders are set by a command that costs no action and no die.
    let o = othw::Orders { reroll: false, rally: true, follow_up: false, phalanx: true };
    let ev = run(&mut st, Command::Orders { orders: o }, &[]);
    assert_eq!(st.side(Side::Red).orders, o);
    assert!(logged(&ev, "[OTHW-GEN-11]"));
}
