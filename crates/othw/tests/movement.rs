//! Movement (OTHW-MOV-…): squares and facings, movement points, free facing, forward steps
//! only, interpenetration, group moves, charges, further moves, woods and fords, the board edge.
mod common;
use common::*;
use othw::combat::{Aspect, aspect};
use othw::state::{Command, Event};
use tabletop::grid::GridFacing;
use tabletop::rules::Side;

/// Checks OTHW-MOV-01.
#[test]
fn othw_mov_01_one_unit_a_square_four_facings_front_flank_rear_no_diagonals() {
    // Seen from a target facing north: an attacker to its north is in front, south behind,
    // east or west on a flank.
    assert_eq!(aspect(N, N), Aspect::Front);
    assert_eq!(aspect(N, S), Aspect::Rear);
    assert_eq!(aspect(N, E), Aspect::Flank);
    assert_eq!(aspect(N, W), Aspect::Flank);
    let mut st = battle(&["Heavy Infantry"], &["Infantry"]);
    put(&mut st, 0, 5, 3, N);
    put(&mut st, 1, 6, 4, S); // diagonal: not adjacent, so no attack
    let r = rules();
    assert!(r.reach(&st, 0, true).attacks.is_empty());
    assert_eq!(st.at(at(5, 3)), Some(0));
    assert_eq!(refused(&st, mv(0, 6, 4, N)), "OTHW-MOV-05", "two units never share a square");
}

/// Checks OTHW-MOV-02.
#[test]
fn othw_mov_02_an_m1_unit_either_steps_forward_or_turns_once() {
    let mut st = battle(&["Heavy Infantry"], &["Infantry"]);
    put(&mut st, 0, 5, 3, N);
    let mut ends = rules().reach(&st, 0, false).each_end().collect::<Vec<_>>();
    ends.sort();
    let mut want = vec![(at(5, 4), N), (at(5, 3), E), (at(5, 3), S), (at(5, 3), W)];
    want.sort();
    assert_eq!(ends, want, "1 point: one step forward, or one turn (an about-face costs 1 too)");
    assert_eq!(refused(&st, mv(0, 5, 4, E)), "OTHW-MOV-02", "a step and a turn cost 2");
}

/// Checks OTHW-MOV-03.
#[test]
fn othw_mov_03_free_facing_units_only_pay_for_steps() {
    let mut st = battle(&["Cavalry", "Cataphracts"], &["Infantry"]);
    put(&mut st, 0, 5, 3, N);
    put(&mut st, 1, 9, 3, N);
    let r = rules();
    // Cavalry M3 with free turns: every square within 3 steps, with any facing: 25 squares × 4
    // facings, less the start = 99 ends.
    assert_eq!(r.reach(&st, 0, false).each_end().count(), 99);
    assert!(r.reach(&st, 0, false).has_end(at(5, 0), E));
    // Cataphracts M3 pay 1 a turn: three squares south needs an about-face (1) + 3 steps = 4.
    assert!(!r.reach(&st, 1, false).has_end(at(9, 0), S));
    assert!(r.reach(&st, 1, false).has_end(at(9, 1), S));
}

/// Checks OTHW-MOV-04.
#[test]
fn othw_mov_04_units_only_step_into_their_front_square() {
    let mut st = battle(&["Heavy Infantry", "Light Infantry"], &["Infantry"]);
    put(&mut st, 0, 5, 3, N);
    put(&mut st, 1, 2, 3, N);
    assert_eq!(refused(&st, mv(0, 5, 2, N)), "OTHW-MOV-02", "no backward step");
    assert_eq!(refused(&st, mv(0, 6, 3, N)), "OTHW-MOV-02", "no sideways step");
    // An M2 unit turns (1) then steps (1).
    run(&mut st, mv(1, 2, 2, S), &[3]);
    assert_eq!((st.units[1].pos, st.units[1].facing), (at(2, 2), S));
}

/// Checks OTHW-MOV-05.
#[test]
fn othw_mov_05_interpenetration_only_with_friendly_skirmishers_and_never_ending_on_a_unit() {
    // R0 skirmisher, R1 light infantry, R2 light infantry, B0 skirmisher.
    let mut st = battle(&["Skirmishers", "Light Infantry", "Light Infantry"], &["Skirmishers"]);
    put(&mut st, 0, 5, 2, N);
    put(&mut st, 1, 5, 3, N);
    put(&mut st, 2, 5, 1, N);
    put(&mut st, 3, 8, 3, S);
    let r = rules();
    // The skirmisher passes through its friend: two squares on.
    assert!(r.reach(&st, 0, false).has_end(at(5, 4), N));
    // The light infantry behind passes through the skirmisher, but cannot end on R1.
    let ends = r.reach(&st, 2, false).each_end().collect::<Vec<_>>();
    assert!(!ends.iter().any(|(p, _)| *p == at(5, 2) || *p == at(5, 3)));
    assert_eq!(refused(&st, mv(2, 5, 2, N)), "OTHW-MOV-05");
    // Nobody passes through an enemy, not even a skirmisher through a skirmisher.
    put(&mut st, 3, 5, 5, S);
    put(&mut st, 0, 5, 4, N);
    assert!(!r.reach(&st, 0, false).has_end(at(5, 6), N));
}

/// Checks OTHW-MOV-06.
#[test]
fn othw_mov_06_a_group_turns_and_steps_together_keeping_its_shape() {
    let mut st = battle(&["Infantry", "Infantry", "Light Infantry"], &["Infantry"]);
    // R0 R1 R2 in a line on row 0, facing north.
    run(&mut st, Command::GroupMove { units: vec![0, 1, 2], facing: N, steps: 1 }, &[4]);
    assert_eq!([st.units[0].pos, st.units[1].pos, st.units[2].pos], [at(0, 1), at(1, 1), at(2, 1)]);
    // Next turn: a 2-step group move fails because the M1 infantry cannot pay for it.
    next_turn(&mut st);
    assert_eq!(
        refused(&st, Command::GroupMove { units: vec![0, 1, 2], facing: N, steps: 2 }),
        "OTHW-MOV-02"
    );
    // Units not connected are not a group.
    put(&mut st, 2, 5, 1, N);
    assert_eq!(
        refused(&st, Command::GroupMove { units: vec![0, 2], facing: N, steps: 1 }),
        "OTHW-MOV-06"
    );
}

/// Checks OTHW-MOV-07.
#[test]
fn othw_mov_07_a_group_never_enters_an_enemy_square() {
    let mut st = battle(&["Infantry", "Infantry"], &["Infantry"]);
    put(&mut st, 2, 1, 1, S);
    assert_eq!(
        refused(&st, Command::GroupMove { units: vec![0, 1], facing: N, steps: 1 }),
        "OTHW-MOV-07"
    );
    let legal = rules().legal(&st, Side::Red);
    assert!(
        !legal
            .iter()
            .any(|c| matches!(c, Command::GroupMove { steps: 1.., facing: GridFacing::North, .. }))
    );
}

/// Checks OTHW-MOV-08.
#[test]
fn othw_mov_08_a_charge_pays_for_the_entry_step_stays_and_fights() {
    // R0 light infantry (M2) with an enemy on its right flank; R1 heavy infantry (M1) likewise.
    let mut st = battle(&["Light Infantry", "Heavy Infantry"], &["Infantry", "Infantry"]);
    put(&mut st, 0, 3, 3, N);
    put(&mut st, 2, 4, 3, W);
    put(&mut st, 1, 7, 3, N);
    put(&mut st, 3, 8, 3, W);
    // M1: a turn (1) plus the entry step (1) is 2: no charge.
    assert_eq!(refused(&st, charge(1, 7, 3, E)), "OTHW-MOV-08");
    // M2: turn east and charge. Dice: phase end 3; attacker 2 dice [6, 6] vs D6; B0 faces west
    // towards R0, so it strikes back with 2 dice [1, 1]; B0 loses and tests: 5 passes (L5).
    let ev = run(&mut st, charge(0, 3, 3, E), &[3, 6, 6, 1, 1, 5]);
    assert_eq!(st.units[0].pos, at(3, 3), "the charger stays in its own square");
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Action { rule, .. } if rule.as_str() == "OTHW-MOV-08"))
    );
    assert_eq!(st.units[2].sp, 2);
}

/// Checks OTHW-MOV-09.
#[test]
fn othw_mov_09_a_further_move_needs_a_passed_leadership_test() {
    let mut st = battle(&["Infantry"], &["Infantry"]);
    run(&mut st, mv(0, 0, 1, N), &[3]);
    let ev = run(&mut st, mv(0, 0, 2, N), &[3, 5]);
    assert!(ev.iter().any(|e| matches!(e, Event::Test { passed: true, need: 5, .. })));
    assert_eq!(st.units[0].pos, at(0, 2));
    assert_eq!(refused(&st, mv(0, 0, 3, N)), "OTHW-MOV-09", "one further move a phase");
}

/// Checks OTHW-MOV-10.
#[test]
fn othw_mov_10_moved_units_do_not_fight_and_units_that_fought_do_not_move() {
    let mut st = battle(&["Heavy Infantry", "Heavy Infantry"], &["Infantry", "Infantry"]);
    put(&mut st, 0, 3, 2, N);
    put(&mut st, 2, 3, 4, S);
    run(&mut st, mv(0, 3, 3, N), &[3]);
    assert_eq!(refused(&st, attack(&st, 0, N)), "OTHW-MOV-10");
    put(&mut st, 1, 6, 3, N);
    put(&mut st, 3, 6, 4, S);
    // Standing combat: phase end 3, 3 dice all miss, 2 back all miss: a draw.
    fight(&mut st, 1, N, &[3, 2, 2, 2, 2, 2]);
    assert_eq!(refused(&st, mv(1, 6, 3, E)), "OTHW-MOV-10");
}

/// Checks OTHW-MOV-11.
#[test]
fn othw_mov_11_woods_and_fords_allow_one_point_and_no_groups_except_loose_order() {
    let extra = terrain("wood", &[(5, 4), (6, 4)]) + &terrain("ford", &[(2, 4)]);
    let mut st = battle_with(
        &["Cavalry", "Warband", "Infantry", "Infantry"],
        &["Infantry"],
        None,
        None,
        &extra,
    );
    put(&mut st, 0, 5, 3, N); // cavalry below the wood
    put(&mut st, 1, 6, 3, N); // warband (loose order) below the wood
    put(&mut st, 2, 2, 4, N); // infantry in the ford
    put(&mut st, 3, 1, 4, N); // infantry next to it
    let r = rules();
    let cav = r.reach(&st, 0, false).each_end().collect::<Vec<_>>();
    assert!(cav.contains(&(at(5, 4), N)), "one step into the wood");
    assert!(!cav.iter().any(|(p, _)| *p == at(5, 5)), "but no further");
    assert!(cav.contains(&(at(5, 0), S)), "the open ground is at full M");
    let wb = r.reach(&st, 1, false).each_end().collect::<Vec<_>>();
    assert!(wb.contains(&(at(6, 5), N)), "loose order ignores the limit");
    assert_eq!(
        refused(&st, Command::GroupMove { units: vec![2, 3], facing: N, steps: 1 }),
        "OTHW-MOV-11"
    );
    put(&mut st, 0, 5, 4, N);
    let mut squares: Vec<_> =
        r.reach(&st, 0, false).each_end().map(|(p, _)| p).filter(|p| *p != at(5, 4)).collect();
    squares.sort();
    squares.dedup();
    assert_eq!(
        squares,
        vec![at(4, 4), at(5, 3), at(5, 5), at(6, 4)],
        "a cavalry unit starting in the wood moves one square (turns are free)"
    );
}

/// Checks OTHW-MOV-12.
#[test]
fn othw_mov_12_no_unit_leaves_the_board_of_its_own_accord() {
    let mut st = battle(&["Light Cavalry"], &["Infantry"]);
    put(&mut st, 0, 0, 0, S);
    let r = rules();
    assert!(r.reach(&st, 0, false).each_end().all(|(p, _)| st.board.grid.in_bounds(p)));
    assert_eq!(refused(&st, mv(0, 0, -1, S)), "OTHW-MOV-12");
}
