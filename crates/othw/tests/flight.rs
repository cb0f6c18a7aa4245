//! Flight and pursuit (OTHW-FLT-…).
mod common;
use common::*;
use othw::state::{Command, Event, GoneHow, Status, flags};
use tabletop::rules::Side;

fn fleeing(st: &mut othw::State, u: u8, col: i32, row: i32) {
    put(st, u, col, row, tabletop::grid::GridFacing::South);
    st.units[u as usize].status = Status::Fleeing;
    st.units[u as usize].sp = 0;
}

/// Checks OTHW-FLT-01.
#[test]
fn othw_flt_01_a_unit_at_zero_breaks_and_flees_a_rampaging_elephant_is_removed() {
    let mut st = battle(&["Heavy Infantry", "Heavy Infantry"], &["Infantry", "Elephants"]);
    put(&mut st, 0, 5, 3, N);
    put(&mut st, 2, 5, 4, N); // rear to R0
    st.units[2].sp = 1;
    fight(&mut st, 0, N, &[3, 6, 2, 2]);
    assert_eq!(st.units[2].status, Status::Fleeing);
    put(&mut st, 1, 8, 3, N);
    put(&mut st, 3, 8, 4, N);
    st.units[3].status = Status::Rampaging;
    st.units[3].sp = 1;
    fight(&mut st, 1, N, &[3, 6, 2, 2, 1]);
    assert_eq!((st.units[3].status, st.units[3].gone), (Status::Gone, Some(GoneHow::Destroyed)));
}

/// Checks OTHW-FLT-02.
#[test]
fn othw_flt_02_broken_in_its_own_phase_it_flees_at_once_otherwise_it_waits() {
    // R0 (infantry, 1 SP) attacks and loses: it breaks in red's phase, faces south and flees 1.
    let mut st = battle(&["Infantry"], &["Heavy Infantry"]);
    put(&mut st, 0, 5, 3, N);
    put(&mut st, 1, 5, 4, S);
    st.units[0].sp = 1;
    // [3] phase end; R0 [2, 2]; B0 [6, 2, 2]; B0's follow-up test 1 fails.
    let ev = fight(&mut st, 0, N, &[3, 2, 2, 6, 2, 2, 1]);
    assert_eq!(
        (st.units[0].status, st.units[0].pos, st.units[0].facing),
        (Status::Fleeing, at(5, 2), S)
    );
    assert!(logged(&ev, "[OTHW-FLT-02]"));
    // Broken in the enemy's phase (OTHW-FLT-01's test): it stays until its own step 1.
    let mut st = battle(&["Heavy Infantry"], &["Infantry"]);
    put(&mut st, 0, 5, 3, N);
    put(&mut st, 1, 5, 4, N);
    st.units[1].sp = 1;
    fight(&mut st, 0, N, &[3, 6, 2, 2]);
    assert_eq!((st.units[1].status, st.units[1].pos), (Status::Fleeing, at(5, 4)));
    end_phase(&mut st, &[]);
    assert_eq!((st.units[1].pos, st.units[1].facing), (at(5, 5), N), "it flees in blue's step 1");
}

/// Checks OTHW-FLT-03.
#[test]
fn othw_flt_03_fugitives_move_their_full_m_toward_their_edge_woods_limiting() {
    let mut st = battle_with(
        &["Infantry"],
        &["Cavalry", "Cavalry"],
        None,
        None,
        &terrain("wood", &[(8, 4)]),
    );
    fleeing(&mut st, 1, 5, 3);
    fleeing(&mut st, 2, 8, 3);
    end_phase(&mut st, &[]);
    assert_eq!(st.units[1].pos, at(5, 6), "3 squares north");
    assert_eq!(st.units[2].pos, at(8, 4), "into the wood, and no further");
}

/// Checks OTHW-FLT-04.
#[test]
fn othw_flt_04_a_fugitive_leaving_by_its_own_edge_is_removed_without_more_morale_loss() {
    let mut st = battle(&["Infantry"], &["Cavalry"]);
    fleeing(&mut st, 1, 5, 6);
    end_phase(&mut st, &[]);
    assert_eq!((st.units[1].status, st.units[1].gone), (Status::Gone, Some(GoneHow::FledOff)));
    assert_eq!(st.side(Side::Blue).am, 20);
}

/// Checks OTHW-FLT-05.
#[test]
fn othw_flt_05_an_enemy_in_the_flight_path_slaughters_the_fugitive() {
    let mut st = battle(&["Infantry"], &["Cavalry"]);
    fleeing(&mut st, 1, 5, 3);
    put(&mut st, 0, 5, 5, S);
    let ev = end_phase(&mut st, &[]);
    assert_eq!((st.units[1].status, st.units[1].gone), (Status::Gone, Some(GoneHow::Slaughtered)));
    assert_eq!(st.side(Side::Blue).am, 19);
    assert!(logged(&ev, "[OTHW-FLT-05]"));
}

/// Checks OTHW-FLT-06.
#[test]
fn othw_flt_06_fugitives_pass_through_friends_but_stop_short_of_them_and_may_be_stuck() {
    let mut st = battle(&["Infantry"], &["Cavalry", "Infantry", "Cavalry", "Infantry"]);
    // Through a friend into the empty square beyond.
    fleeing(&mut st, 1, 5, 3);
    put(&mut st, 2, 5, 5, S);
    // Stopping short of a friend on the last square.
    fleeing(&mut st, 3, 8, 4);
    put(&mut st, 4, 8, 7, S);
    // An M1 fugitive with a friend right behind cannot move: it stays, unharmed.
    put(&mut st, 0, 2, 1, N);
    let mut st2 = st.clone();
    end_phase(&mut st, &[]);
    assert_eq!(st.units[1].pos, at(5, 6));
    assert_eq!(st.units[3].pos, at(8, 6));
    fleeing(&mut st2, 2, 5, 4);
    put(&mut st2, 1, 5, 5, S);
    st2.units[1].status = Status::Ready;
    st2.units[1].sp = 3;
    end_phase(&mut st2, &[]);
    assert_eq!((st2.units[2].pos, st2.units[2].status), (at(5, 4), Status::Fleeing));
}

/// Checks OTHW-FLT-07.
#[test]
fn othw_flt_07_an_enemy_attack_or_a_pursuer_next_to_it_slaughters_a_fugitive_without_dice() {
    let mut st = battle(&["Heavy Infantry"], &["Infantry"]);
    put(&mut st, 0, 5, 3, N);
    fleeing(&mut st, 1, 5, 4);
    // Only the phase-end die is rolled.
    let ev = fight(&mut st, 0, N, &[3]);
    assert!(!ev.iter().any(|e| matches!(e, Event::Combat { .. })));
    assert_eq!((st.units[1].status, st.units[1].gone), (Status::Gone, Some(GoneHow::Slaughtered)));
    assert_eq!(st.side(Side::Blue).am, 19);
}

/// Checks OTHW-FLT-08.
#[test]
fn othw_flt_08_the_winner_that_broke_a_unit_pursues_it_even_left_at_one() {
    let mut st = battle(&["Skirmishers"], &["Skirmishers"]);
    put(&mut st, 0, 5, 3, N);
    put(&mut st, 1, 5, 4, S);
    st.units[0].sp = 1;
    st.units[1].sp = 1;
    let ev = fight(&mut st, 0, N, &[3, 6, 6, 2, 5, 2, 2]);
    assert_eq!(st.units[0].sp, 1);
    assert_eq!(st.units[0].pursuing, Some(1));
    assert!(logged(&ev, "[OTHW-FLT-08]"));
}

/// Checks OTHW-FLT-09.
#[test]
fn othw_flt_09_pursuers_chase_first_then_test_to_halt() {
    let mut st = battle(&["Cavalry"], &["Infantry"]);
    put(&mut st, 0, 5, 1, N);
    st.units[0].pursuing = Some(1);
    fleeing(&mut st, 1, 5, 4);
    // Blue's step 1: B0 flees to F6. Red's step 1: the cavalry rides F2→F5 (3 squares), next to
    // B0: caught. Then its test: 5 passes (L5): pursuit over, and no more action this phase.
    end_phase(&mut st, &[]);
    assert_eq!(st.units[1].pos, at(5, 5));
    let ev = end_phase(&mut st, &[5]);
    assert_eq!(st.units[0].pos, at(5, 4));
    assert_eq!(st.units[1].gone, Some(GoneHow::Slaughtered));
    assert_eq!(st.units[0].pursuing, None);
    assert!(st.units[0].flag(flags::DONE));
    assert_eq!(refused(&st, mv(0, 5, 5, N)), "OTHW-FLT-09");
    assert!(logged(&ev, "[OTHW-FLT-09]"));
    // A failed test keeps the pursuit going.
    let mut st = battle(&["Cavalry"], &["Cavalry"]);
    put(&mut st, 0, 0, 1, N);
    st.units[0].pursuing = Some(1);
    fleeing(&mut st, 1, 9, 3);
    end_phase(&mut st, &[]);
    end_phase(&mut st, &[2]);
    assert_eq!(st.units[0].pursuing, Some(1));
}

/// Checks OTHW-FLT-10.
#[test]
fn othw_flt_10_a_pursuer_goes_to_the_edge_its_target_left_by_or_halts_if_it_was_destroyed() {
    let mut st = battle(&["Cavalry", "Cavalry"], &["Cavalry", "Infantry"]);
    put(&mut st, 0, 5, 3, N);
    st.units[0].pursuing = Some(2);
    fleeing(&mut st, 2, 5, 6);
    put(&mut st, 1, 8, 2, N);
    st.units[1].pursuing = Some(3);
    fleeing(&mut st, 3, 8, 4);
    st.units[3].status = Status::Gone;
    st.units[3].gone = Some(GoneHow::Slaughtered);
    st.occ.iter_mut().filter(|c| **c == 3).for_each(|c| *c = othw::state::EMPTY);
    // Blue: B0 flees off the north edge at F8.
    end_phase(&mut st, &[]);
    assert_eq!(st.units[2].gone, Some(GoneHow::FledOff));
    // Red's step 1: R0 rides to F8 where B0 left and fails its test (2): it waits there.
    // R1's target was destroyed: it stays put and passes (5).
    end_phase(&mut st, &[2, 5]);
    assert_eq!((st.units[0].pos, st.units[0].pursuing), (at(5, 6), Some(2)));
    assert_eq!((st.units[1].pos, st.units[1].pursuing), (at(8, 2), None));
    next_turn_with(&mut st, &[2]);
    assert_eq!((st.units[0].pos, st.units[0].pursuing), (at(5, 7), Some(2)));
}

fn next_turn_with(st: &mut othw::State, red_step1: &[u8]) {
    end_phase(st, &[]);
    end_phase(st, red_step1);
}

/// Checks OTHW-FLT-11.
#[test]
fn othw_flt_11_pursuers_cannot_be_activated_but_fight_back() {
    let mut st = battle(&["Heavy Infantry"], &["Infantry", "Infantry"]);
    put(&mut st, 0, 5, 3, N);
    st.units[0].pursuing = Some(2);
    fleeing(&mut st, 2, 9, 6);
    assert_eq!(refused(&st, mv(0, 5, 4, N)), "OTHW-FLT-11");
    assert!(
        !rules().legal(&st, Side::Red).iter().any(|c| matches!(c, Command::Move { unit: 0, .. }))
    );
    end_phase(&mut st, &[]);
    // Blue attacks the pursuer from its front: it rolls back its 3 dice.
    put(&mut st, 1, 5, 4, S);
    let ev = fight(&mut st, 1, S, &[3, 2, 2, 2, 2, 2]);
    assert!(
        ev.iter().any(
            |e| matches!(e, Event::Combat { defender_rolls, .. } if defender_rolls.len() == 3)
        )
    );
}

/// The generic battle (the ready scenario) with red moving first, and the ID of a unit by
/// side and name.
fn generic() -> othw::State {
    state(&ready("generic.toml").replace("first = \"roll\"", "first = \"red\""))
}

fn id(st: &othw::State, side: Side, name: &str) -> u8 {
    st.units.iter().find(|u| u.side == side && u.name.starts_with(name)).expect("a unit").id
}

/// Checks OTHW-FLT-01 for a winner: the Cataphracts (1 SP left) beat a Warband 2 hits to 1 and
/// fall to 0 themselves; the Warband keeps 3. Only both at 0 keeps the winner at 1
/// (OTHW-CMB-12), so the Cataphracts break and flee at once (red's phase), costing red a point
/// of army morale; nobody pursues them, and the Warband, the loser, still tests to retreat.
#[test]
fn othw_flt_01_a_winner_left_alone_at_zero_breaks_and_flees() {
    let mut st = generic();
    let (cat, wb) = (id(&st, Side::Red, "Cataphracts"), id(&st, Side::Blue, "Warband 1"));
    put(&mut st, cat, 3, 3, N);
    put(&mut st, wb, 3, 4, S);
    st.units[cat as usize].sp = 1;
    let am = st.side(Side::Red).am;
    // Phase end 3; Cataphracts [6 6] at 5+: 2 hits; Warband [6 1 1] at 6+: 1 hit; the
    // Warband's retreat test 6 passes (L5).
    let ev = fight(&mut st, cat, N, &[3, 6, 6, 6, 1, 1, 6]);
    let c = &st.units[cat as usize];
    assert_eq!((c.sp, c.status, c.facing), (0, Status::Fleeing, S));
    assert_eq!(c.pos, at(3, 0), "it fled its full 3 squares towards its own edge");
    let w = &st.units[wb as usize];
    assert_eq!((w.sp, w.status, w.pursuing), (2, Status::Ready, None));
    assert_eq!(st.side(Side::Red).am, am - 1);
    assert!(logged(&ev, "Cataphracts 1 wins the round (2 hits to 1)"));
    assert!(logged(&ev, "[OTHW-FLT-01] Cataphracts 1 breaks and flees"));
    assert!(logged(&ev, "Warband 1 tests for retreat"));
    assert!(!logged(&ev, "[OTHW-FLT-08]"), "a loser does not pursue");
}

/// Checks OTHW-FLT-08 for a break on a blocked retreat (OTHW-CMB-16): the Levies, hit down to
/// 1 SP, fail their test and cannot fall back (a friend stands behind them); the SP lost
/// instead breaks them, and the Heavy Infantry that beat them pursues them.
#[test]
fn othw_flt_08_a_loser_broken_on_a_blocked_retreat_is_pursued() {
    let mut st = generic();
    let hi = id(&st, Side::Red, "Heavy Infantry 1");
    let (lev, wb) = (id(&st, Side::Blue, "Levies 1"), id(&st, Side::Blue, "Warband 1"));
    put(&mut st, hi, 7, 3, N);
    put(&mut st, lev, 7, 4, S);
    put(&mut st, wb, 7, 5, S);
    st.units[lev as usize].sp = 2;
    // Phase end 3; Heavy Infantry [5 1 1] at 5+: 1 hit; Levies [1] at 6+; retreat test 1 fails
    // (L6) and the step back is blocked: 1 → 0.
    let ev = fight(&mut st, hi, N, &[3, 5, 1, 1, 1, 1]);
    let l = &st.units[lev as usize];
    assert_eq!((l.sp, l.status, l.pos), (0, Status::Fleeing, at(7, 4)));
    assert_eq!(st.units[hi as usize].pursuing, Some(lev));
    assert!(logged(&ev, "[OTHW-CMB-16]"));
    assert!(logged(&ev, "[OTHW-FLT-08] Heavy Infantry 1 pursues Levies 1"));
}
