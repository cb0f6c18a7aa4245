//! Sequence of play (OTHW-SEQ-…): turns and phases, step 1, one action at a time, the
//! phase-end roll, the general's exemption and unused actions, group limits, ending a phase.
mod common;
use common::*;
use othw::state::{Command, Event, Status, flags};
use tabletop::rules::Side;

/// Checks OTHW-SEQ-01.
#[test]
fn othw_seq_01_turns_are_a_phase_for_each_side_first_player_first() {
    let mut st = battle(&["Infantry"], &["Infantry"]);
    assert_eq!((st.turn, st.phasing, st.phase_no), (1, Side::Red, 1));
    end_phase(&mut st, &[]);
    assert_eq!((st.turn, st.phasing, st.phase_no), (1, Side::Blue, 2));
    end_phase(&mut st, &[]);
    assert_eq!((st.turn, st.phasing, st.phase_no), (2, Side::Red, 3));
}

/// Checks OTHW-SEQ-02.
#[test]
fn othw_seq_02_step_one_runs_rampages_then_flight_then_pursuit() {
    // R0 = 0 (fleeing), B0 = 1 elephant (rampaging), B1 = 2 (fleeing), B2 = 3 cavalry pursuing R0.
    let mut st = battle(&["Infantry"], &["Elephants", "Infantry", "Cavalry"]);
    put(&mut st, 1, 2, 4, E);
    st.units[1].status = Status::Rampaging;
    put(&mut st, 2, 5, 4, S);
    st.units[2].status = Status::Fleeing;
    st.units[2].sp = 0;
    put(&mut st, 0, 8, 2, N);
    st.units[0].status = Status::Fleeing;
    st.units[0].sp = 0;
    put(&mut st, 3, 8, 5, S);
    st.units[3].pursuing = Some(0);
    // Red ends; blue's step 1: rampage roll 4 (ahead), flight (no dice), pursuit test 5 (L5 passes).
    let ev = end_phase(&mut st, &[4, 5]);
    let pos = |f: &dyn Fn(&Event) -> bool| ev.iter().position(f).expect("event");
    let rampage = pos(&|e| matches!(e, Event::Rampage { unit: 1, .. }));
    let flight =
        pos(&|e| matches!(e, Event::Placed { unit: 2, how: othw::state::Placement::Flight, .. }));
    let pursuit =
        pos(&|e| matches!(e, Event::Placed { unit: 3, how: othw::state::Placement::Pursuit, .. }));
    assert!(rampage < flight && flight < pursuit, "{:#?}", log_of(&ev));
    assert_eq!(st.units[1].pos, at(4, 4), "the elephant went 2 squares ahead");
    assert_eq!(st.units[2].pos, at(5, 5), "the fugitive fled 1 square north");
    assert_eq!(st.units[3].pos, at(8, 3), "the pursuer reached the square next to R0");
    assert_eq!(st.units[0].status, Status::Gone, "R0 was caught");
    assert_eq!(st.units[3].pursuing, None, "the pursuer passed its test");
    assert_eq!(st.phasing, Side::Blue);
}

/// Checks OTHW-SEQ-03.
#[test]
fn othw_seq_03_an_action_is_one_unit_or_one_group_finished_before_the_next() {
    let mut st = battle(&["Infantry", "Infantry"], &["Infantry"]);
    let ev = run(&mut st, mv(0, 0, 1, N), &[3]);
    assert!(matches!(ev[0], Event::Action { ref units, .. } if units[..] == [0]));
    assert!(matches!(ev[1], Event::PhaseEndRoll { .. }));
    assert!(matches!(ev[2], Event::Placed { unit: 0, .. }));
    assert_eq!(ev.len(), 3);
    assert_eq!(st.units[1].pos, at(1, 0), "the other unit did not move");
    // A group move is one action with one phase-end roll.
    let mut st = battle(&["Infantry", "Infantry"], &["Infantry"]);
    let ev = run(&mut st, Command::GroupMove { units: vec![0, 1], facing: N, steps: 1 }, &[3]);
    assert_eq!(ev.iter().filter(|e| matches!(e, Event::Action { .. })).count(), 1);
    assert_eq!(ev.iter().filter(|e| matches!(e, Event::PhaseEndRoll { .. })).count(), 1);
    assert_eq!((st.units[0].pos, st.units[1].pos), (at(0, 1), at(1, 1)));
}

/// Checks OTHW-SEQ-04.
#[test]
fn othw_seq_04_a_phase_end_roll_of_one_ends_the_phase_after_the_action() {
    let mut st = battle(&["Infantry"], &["Infantry"]);
    let ev = run(&mut st, mv(0, 0, 1, N), &[2]);
    assert!(matches!(ev[1], Event::PhaseEndRoll { ends: false, .. }));
    assert_eq!(st.phasing, Side::Red);
    let rs = red_spare(&st);
    let ev = run(&mut st, mv(rs, 11, 1, N), &[1]);
    assert!(matches!(ev[1], Event::PhaseEndRoll { ends: true, .. }));
    assert_eq!(st.units[rs as usize].pos, at(11, 1), "the action still happens");
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::PhaseOver { rule, .. } if rule.as_str() == "OTHW-SEQ-04"))
    );
    assert_eq!(st.phasing, Side::Blue, "with no general the phase passes at once");
}

/// Checks OTHW-SEQ-05.
#[test]
fn othw_seq_05_the_generals_unit_and_its_group_make_no_phase_end_roll() {
    let mut st = battle_with(
        &["Heavy Infantry", "Infantry"],
        &["Infantry"],
        Some("Generic general"),
        None,
        "",
    );
    // The general's unit moves: no die at all.
    let ev = run(&mut st, mv(0, 0, 1, N), &[]);
    assert!(!ev.iter().any(|e| matches!(e, Event::PhaseEndRoll { .. })));
    // A group including it: no die either (R1 and RS group with nothing; use R1 with the spare
    // far away, so test the group R0+R1 on a fresh phase).
    next_turn(&mut st);
    put(&mut st, 1, 1, 1, N);
    let ev = run(&mut st, Command::GroupMove { units: vec![0, 1], facing: N, steps: 1 }, &[]);
    assert!(!ev.iter().any(|e| matches!(e, Event::PhaseEndRoll { .. })));
    assert_eq!((st.units[0].pos, st.units[1].pos), (at(0, 2), at(1, 2)));
    // Another unit rolls.
    let rs = red_spare(&st);
    let ev = run(&mut st, mv(rs, 11, 1, N), &[4]);
    assert!(ev.iter().any(|e| matches!(e, Event::PhaseEndRoll { .. })));
}

/// Checks OTHW-SEQ-06.
#[test]
fn othw_seq_06_a_failed_further_move_test_ends_the_phase_without_the_move() {
    let mut st = battle(&["Infantry"], &["Infantry"]);
    run(&mut st, mv(0, 0, 1, N), &[3]);
    // Further move: phase-end roll 3, leadership 2 against L5: failed.
    let ev = run(&mut st, mv(0, 0, 2, N), &[3, 2]);
    assert_eq!(st.units[0].pos, at(0, 1), "the move is not made");
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::PhaseOver { rule, .. } if rule.as_str() == "OTHW-SEQ-06"))
    );
    assert_eq!(st.phasing, Side::Blue);
}

/// Checks OTHW-SEQ-07.
#[test]
fn othw_seq_07_after_the_phase_ends_the_generals_unit_uses_its_unused_actions() {
    let mut st = battle_with(
        &["Heavy Infantry", "Infantry"],
        &["Infantry"],
        Some("Generic general"),
        None,
        "",
    );
    run(&mut st, mv(1, 1, 1, N), &[1]);
    assert!(st.phase_over);
    assert_eq!(st.phasing, Side::Red, "the general's unit may still act");
    assert_eq!(refused(&st, mv(red_spare(&st), 11, 1, N)), "OTHW-SEQ-07");
    // The general's unit: its move, then its further move (test 4 against L4), no phase-end roll.
    run(&mut st, mv(0, 0, 1, N), &[]);
    let ev = run(&mut st, mv(0, 0, 2, N), &[4]);
    assert_eq!(st.units[0].pos, at(0, 2));
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::PhaseEnded { rule, .. } if rule.as_str() == "OTHW-SEQ-07"))
    );
    assert_eq!(st.phasing, Side::Blue);
}

/// Checks OTHW-SEQ-08.
#[test]
fn othw_seq_08_one_group_move_per_unit_per_phase_but_individual_moves_still_allowed() {
    let mut st = battle(&["Infantry", "Infantry"], &["Infantry"]);
    run(&mut st, Command::GroupMove { units: vec![0, 1], facing: N, steps: 1 }, &[3]);
    assert!(st.units[0].flag(flags::GROUP_MOVED));
    assert_eq!(
        refused(&st, Command::GroupMove { units: vec![0, 1], facing: N, steps: 1 }),
        "OTHW-SEQ-08"
    );
    // An individual further move is still open to it (leadership 5 passes against L5).
    run(&mut st, mv(0, 0, 2, N), &[3, 5]);
    assert_eq!(st.units[0].pos, at(0, 2));
}

/// Checks OTHW-SEQ-09.
#[test]
fn othw_seq_09_a_phase_ends_voluntarily_or_when_no_action_is_left() {
    let mut st = battle(&["Infantry"], &["Infantry"]);
    let ev = end_phase(&mut st, &[]);
    assert!(logged(&ev, "[OTHW-SEQ-09] red's phase ends: ended by the player"));
    assert_eq!(st.phasing, Side::Blue);
    end_phase(&mut st, &[]);
    // Nothing but R0 left to act: after its move and further move the phase ends by itself.
    let rs = red_spare(&st);
    st.units[rs as usize].flags = flags::MOVED | flags::FURTHER | flags::FOUGHT;
    run(&mut st, mv(0, 0, 1, N), &[3]);
    assert_eq!(st.phasing, Side::Red);
    let ev = run(&mut st, mv(0, 0, 2, N), &[3, 6]);
    assert!(logged(&ev, "[OTHW-SEQ-09] red's phase ends: no action left"));
    assert_eq!(st.phasing, Side::Blue);
}

/// Checks OTHW-SEQ-10.
#[test]
fn othw_seq_10_fleeing_pursuing_and_rampaging_units_cannot_be_activated() {
    let mut st = battle(&["Infantry", "Cavalry", "Elephants"], &["Infantry"]);
    st.units[0].status = Status::Fleeing;
    st.units[1].pursuing = Some(3);
    put(&mut st, 2, 5, 3, N);
    st.units[2].status = Status::Rampaging;
    assert_eq!(refused(&st, mv(0, 0, 1, N)), "OTHW-SEQ-10");
    assert_eq!(refused(&st, mv(1, 1, 1, N)), "OTHW-FLT-11");
    assert_eq!(refused(&st, mv(2, 5, 4, N)), "OTHW-SEQ-10");
    let legal = rules().legal(&st, Side::Red);
    assert!(legal.iter().all(|c| !matches!(c, Command::Move { unit: 0..=2, .. })));
    // The one exception: the mahouts' action on the rampaging elephant.
    assert!(legal.contains(&Command::Mahouts { unit: 2 }));
}
