//! Combat (OTHW-CMB-…): one unit against one, standing combat and charges, striking back,
//! dice and hit numbers, terrain, hits, resolution order, results, retreats, follow-ups and
//! elephants' rampages.
//!
//! The usual set-up: R0 at F4 (5, 3) facing north, B0 at F5 (5, 4) facing south. Dice are listed
//! in the order the engine rolls them: the phase-end roll, the attacker's dice, the defender's
//! dice, then tests.
mod common;
use common::*;
use othw::Othw;
use othw::combat::{Aspect, Combatant, profile};
use othw::data::{Class, Special, Specials};
use othw::state::{Command, Event, GoneHow, Status};
use tabletop::grid::CellTerrain;
use tabletop::rules::Side;

fn face_off(red: &str, blue: &str) -> othw::State {
    let mut st = battle(&[red], &[blue]);
    put(&mut st, 0, 5, 3, N);
    put(&mut st, 1, 5, 4, S);
    st
}

fn combat_event(ev: &[Event]) -> (usize, usize, u8, u8) {
    ev.iter()
        .find_map(|e| match e {
            Event::Combat {
                attacker_rolls, defender_rolls, attacker_need, defender_need, ..
            } => Some((attacker_rolls.len(), defender_rolls.len(), *attacker_need, *defender_need)),
            _ => None,
        })
        .expect("a combat")
}

fn c(class: Class, specials: &[Special], a: u8, d: u8, s: u8, terrain: CellTerrain) -> Combatant {
    Combatant { class, specials: Specials::of(specials), a, d, s, sp: s, terrain }
}

/// Checks OTHW-CMB-01.
#[test]
fn othw_cmb_01_one_unit_fights_one_enemy_and_several_may_attack_it_in_turn() {
    let mut st = battle(&["Heavy Infantry", "Heavy Infantry"], &["Infantry"]);
    put(&mut st, 0, 5, 3, N);
    put(&mut st, 2, 5, 4, S);
    put(&mut st, 1, 4, 4, E);
    // R0 from the front: a drawn round.
    let ev = fight(&mut st, 0, N, &[3, 2, 2, 2, 2, 2]);
    assert_eq!(ev.iter().filter(|e| matches!(e, Event::Combat { .. })).count(), 1);
    // R1 from B0's flank, a separate action: 1 hit, B0 cannot strike back; B0 tests (5, L5).
    let ev = fight(&mut st, 1, E, &[3, 6, 2, 2, 5]);
    assert_eq!(combat_event(&ev).1, 0);
    assert_eq!(st.units[2].sp, 3);
}

/// Checks OTHW-CMB-02.
#[test]
fn othw_cmb_02_standing_combat_needs_an_enemy_in_front_and_free_facers_turn_for_it() {
    let mut st = battle(&["Cavalry", "Heavy Infantry"], &["Infantry", "Infantry"]);
    put(&mut st, 0, 5, 3, N);
    put(&mut st, 2, 6, 3, W);
    put(&mut st, 1, 8, 3, N);
    put(&mut st, 3, 9, 3, W);
    // The cavalry turns east for free and fights: a standing combat, not a charge.
    let ev = fight(&mut st, 0, E, &[3, 2, 2, 2, 2]);
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Action { rule, .. } if rule.as_str() == "OTHW-CMB-02"))
    );
    assert_eq!(st.units[0].facing, E);
    // Heavy infantry (M1) with the enemy on its flank cannot fight it.
    let c = Command::Attack { unit: 1, from: at(8, 3), facing: E, general_dice: false };
    assert_eq!(refused(&st, c), "OTHW-MOV-08");
    let c = Command::Attack { unit: 1, from: at(8, 3), facing: N, general_dice: false };
    assert_eq!(refused(&st, c), "OTHW-CMB-03", "nobody in front");
}

/// Checks OTHW-CMB-03.
#[test]
fn othw_cmb_03_only_a_target_facing_its_attacker_strikes_back() {
    let mut st = face_off("Heavy Infantry", "Infantry");
    let ev = fight(&mut st, 0, N, &[3, 2, 2, 2, 2, 2]);
    assert_eq!(combat_event(&ev).1, 2, "front: the infantry rolls its 2 dice back");
    let mut st = face_off("Heavy Infantry", "Infantry");
    st.units[1].facing = E;
    let ev = fight(&mut st, 0, N, &[3, 2, 2, 2]);
    assert_eq!(combat_event(&ev).1, 0, "flank: no dice back");
    st.units[1].facing = N;
}

/// Checks OTHW-CMB-04.
#[test]
fn othw_cmb_04_each_die_at_the_score_hits_once_a_round_and_a_one_never_hits() {
    let mut st = face_off("Lancers", "Infantry");
    // Lancers 3 dice need 6 against D6: [6, 5, 1] is one hit; one round only.
    let ev = fight(&mut st, 0, N, &[3, 6, 5, 1, 2, 2, 5]);
    assert_eq!(ev.iter().filter(|e| matches!(e, Event::Combat { .. })).count(), 1);
    assert_eq!(st.units[1].sp, 3);
    // Even if a rule asked for 1+, a 1 would not hit: the score is raised to 2.
    let mut data = Othw::new().data;
    data.rules.combat.rear_hit = 1;
    let a = c(Class::Infantry, &[], 2, 6, 4, CellTerrain::Open);
    assert_eq!(profile(&data, &a, &a, Aspect::Rear, 0, |_| ()).need, 2);
}

/// Checks OTHW-CMB-05.
#[test]
fn othw_cmb_05_attack_dice_are_modified_in_a_fixed_order() {
    let data = Othw::new().data;
    // A Legion (A3, Throwing Spears) in woods against a unit in a ford, with 1 general die:
    // 3 → +1 spears = 4 → forest sets 1 → +1 ford = 2 → +1 general = 3.
    let legion = c(Class::Infantry, &[Special::ThrowingSpears], 3, 6, 4, CellTerrain::Wood);
    let target = c(Class::Infantry, &[], 2, 6, 4, CellTerrain::Ford);
    assert_eq!(profile(&data, &legion, &target, Aspect::Front, 1, |_| ()).dice, 3);
    // A Warband (loose order) in the same place with Alexander's 2: forest 2 → +1 → +2 = 5.
    let wb =
        c(Class::Infantry, &[Special::Impetuous, Special::LooseOrder], 3, 5, 4, CellTerrain::Wood);
    assert_eq!(profile(&data, &wb, &target, Aspect::Front, 2, |_| ()).dice, 5);
    // In the open the spears add after the base: 4.
    let legion = c(Class::Infantry, &[Special::ThrowingSpears], 3, 6, 4, CellTerrain::Open);
    let open = c(Class::Infantry, &[], 2, 6, 4, CellTerrain::Open);
    assert_eq!(profile(&data, &legion, &open, Aspect::Front, 0, |_| ()).dice, 4);
}

/// Checks OTHW-CMB-06.
#[test]
fn othw_cmb_06_the_score_is_the_targets_defence_and_three_from_the_rear() {
    let data = Othw::new().data;
    let inf = c(Class::Infantry, &[], 2, 6, 4, CellTerrain::Open);
    let chariot = c(Class::Chariot, &[], 3, 4, 2, CellTerrain::Open);
    assert_eq!(profile(&data, &inf, &inf, Aspect::Front, 0, |_| ()).need, 6);
    assert_eq!(profile(&data, &inf, &inf, Aspect::Flank, 0, |_| ()).need, 6);
    assert_eq!(profile(&data, &inf, &inf, Aspect::Rear, 0, |_| ()).need, 3);
    assert_eq!(profile(&data, &inf, &chariot, Aspect::Front, 0, |_| ()).need, 4);
    // In play: a rear attack by heavy infantry needs 3.
    let mut st = face_off("Heavy Infantry", "Infantry");
    st.units[1].facing = N;
    let ev = fight(&mut st, 0, N, &[3, 3, 3, 2, 5]);
    assert_eq!(combat_event(&ev).2, 3);
    assert_eq!(st.units[1].sp, 2);
}

/// Checks OTHW-CMB-07.
#[test]
fn othw_cmb_07_in_woods_both_sides_roll_one_die_or_two_in_loose_order() {
    let mut st =
        battle_with(&["Heavy Infantry"], &["Warband"], None, None, &terrain("wood", &[(5, 4)]));
    put(&mut st, 0, 5, 3, N);
    put(&mut st, 1, 5, 4, S);
    // Heavy infantry (A3) fights into the wood with 1 die; the warband in it rolls 2.
    let ev = fight(&mut st, 0, N, &[3, 2, 2, 2]);
    assert_eq!(combat_event(&ev).0, 1);
    assert_eq!(combat_event(&ev).1, 2);
}

/// Checks OTHW-CMB-08.
#[test]
fn othw_cmb_08_a_die_against_a_unit_in_a_ford_and_a_die_downhill_stacking() {
    let data = Othw::new().data;
    let hill = c(Class::Infantry, &[], 2, 6, 4, CellTerrain::Hill);
    let ford = c(Class::Infantry, &[], 2, 6, 4, CellTerrain::Ford);
    let open = c(Class::Infantry, &[], 2, 6, 4, CellTerrain::Open);
    assert_eq!(
        profile(&data, &open, &ford, Aspect::Front, 0, |_| ()).dice,
        3,
        "+1 against the ford"
    );
    assert_eq!(profile(&data, &hill, &open, Aspect::Front, 0, |_| ()).dice, 3, "+1 downhill");
    assert_eq!(profile(&data, &hill, &ford, Aspect::Front, 0, |_| ()).dice, 4, "both");
    assert_eq!(
        profile(&data, &ford, &hill, Aspect::Front, 0, |_| ()).dice,
        2,
        "uphill from the ford: none"
    );
    assert_eq!(
        profile(&data, &hill, &hill, Aspect::Front, 0, |_| ()).dice,
        2,
        "both on the hill: none"
    );
}

/// Checks OTHW-CMB-09.
#[test]
fn othw_cmb_09_each_hit_removes_a_strength_point_never_below_zero() {
    let mut st = face_off("Heavy Infantry", "Skirmishers");
    st.units[1].facing = N;
    // From the rear, 3 dice at 3+: three hits on a 2 SP skirmisher: 0, not -1.
    let ev = fight(&mut st, 0, N, &[3, 6, 6, 6]);
    assert!(ev.iter().any(|e| matches!(e, Event::Strength { unit: 1, from: 2, to: 0, .. })));
    assert_eq!(st.units[1].sp, 0);
    assert_eq!(st.units[1].status, Status::Fleeing);
}

/// Checks OTHW-CMB-10.
#[test]
fn othw_cmb_10_resolution_runs_rolls_reroll_phalanx_rally_loss_result() {
    let types = utype("Bowmen", "infantry", 1, 2, 5, 3, 5, &["archers"])
        + &utype("Phalangites", "infantry", 1, 2, 5, 4, 4, &["phalanx"]);
    let mut st = battle_with(&["Bowmen"], &["Phalangites"], None, Some("Generic general"), &types);
    put(&mut st, 0, 5, 3, N);
    put(&mut st, 1, 5, 4, S);
    // Phase end 3; bowmen [5, 2] (one hit at 5+); phalanx back [2, 2]; archers reroll the miss:
    // 6, a hit; phalanx test 4 (L4) cancels one; the general's rally die 5 cancels the other;
    // risk 3. No hits stand: a draw.
    let ev = fight(&mut st, 0, N, &[3, 5, 2, 2, 2, 6, 4, 5, 3]);
    let pos = |f: &dyn Fn(&Event) -> bool| ev.iter().position(f).expect("event");
    let order = [
        pos(&|e| matches!(e, Event::Combat { .. })),
        pos(&|e| matches!(e, Event::Reroll { .. })),
        pos(&|e| matches!(e, Event::Cancelled { rule, .. } if rule.as_str() == "OTHW-TRT-04")),
        pos(&|e| matches!(e, Event::Cancelled { rule, .. } if rule.as_str() == "OTHW-GEN-05")),
        pos(&|e| matches!(e, Event::Result { .. })),
    ];
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}\n{:#?}", log_of(&ev));
    assert!(matches!(ev[order[4]], Event::Result { defender_hits: 0, attacker_hits: 0, .. }));
    assert_eq!(st.units[1].sp, 4);
}

/// Checks OTHW-CMB-11.
#[test]
fn othw_cmb_11_more_hits_lose_and_equal_hits_are_a_draw_without_retreat() {
    let mut st = face_off("Heavy Infantry", "Infantry");
    // One hit each: a draw, nobody tests or follows up.
    let ev = fight(&mut st, 0, N, &[3, 6, 2, 2, 6, 2]);
    assert!(!ev.iter().any(|e| matches!(e, Event::Test { .. })));
    assert!(matches!(
        ev.iter().find(|e| matches!(e, Event::Result { .. })),
        Some(Event::Result { winner: None, .. })
    ));
    assert_eq!((st.units[0].sp, st.units[1].sp), (3, 3));
    // Two to one: the infantry loses and tests (5 passes).
    let mut st = face_off("Heavy Infantry", "Infantry");
    let ev = fight(&mut st, 0, N, &[3, 6, 6, 2, 6, 2, 5]);
    assert!(matches!(
        ev.iter().find(|e| matches!(e, Event::Result { .. })),
        Some(Event::Result { winner: Some(0), loser: Some(1), .. })
    ));
}

/// Checks OTHW-CMB-12.
#[test]
fn othw_cmb_12_when_both_would_break_the_winner_keeps_one_and_a_draw_leaves_both_at_one() {
    let mut st = face_off("Skirmishers", "Skirmishers");
    st.units[0].sp = 1;
    st.units[1].sp = 1;
    // Skirmisher against skirmisher: 3 dice each at 5+. Red 2 hits, blue 1: red wins.
    fight(&mut st, 0, N, &[3, 6, 6, 2, 5, 2, 2]);
    assert_eq!(st.units[0].sp, 1, "the winner stands with 1 SP");
    assert_eq!(st.units[1].status, Status::Fleeing, "only the loser breaks");
    let mut st = face_off("Skirmishers", "Skirmishers");
    st.units[0].sp = 1;
    st.units[1].sp = 1;
    fight(&mut st, 0, N, &[3, 6, 2, 2, 5, 2, 2]);
    assert_eq!((st.units[0].sp, st.units[1].sp), (1, 1));
    assert_eq!((st.units[0].status, st.units[1].status), (Status::Ready, Status::Ready));
}

/// Checks OTHW-CMB-13.
#[test]
fn othw_cmb_13_up_to_three_tests_fall_back_face_away_fall_back() {
    // Heavy infantry beats the infantry 1-0; the infantry (L5) tests; the follow-up test (L4)
    // is failed with a 1 so the winner stays.
    let fight_dice = [3, 6, 2, 2, 2, 2];
    let cases: [(&[u8], (i32, i32), tabletop::grid::GridFacing); 4] = [
        (&[5], (5, 4), S),
        (&[2, 5, 1], (5, 5), S),
        (&[2, 2, 5, 1], (5, 5), N),
        (&[2, 2, 2, 1], (5, 6), N),
    ];
    for (tests, (col, row), facing) in cases {
        let mut st = face_off("Heavy Infantry", "Infantry");
        let dice: Vec<u8> = fight_dice.iter().chain(tests.iter()).copied().collect();
        fight(&mut st, 0, N, &dice);
        assert_eq!(
            (st.units[1].pos, st.units[1].facing),
            (at(col, row), facing),
            "tests {tests:?}"
        );
        assert_eq!(st.units[0].pos, at(5, 3));
    }
}

/// Checks OTHW-CMB-14.
#[test]
fn othw_cmb_14_losers_retreat_directly_away_from_the_winner_an_attacker_backwards() {
    let mut st = face_off("Infantry", "Heavy Infantry");
    // R0 attacks and loses 0-1; it fails once (2) and passes (5): one square back, still facing
    // the enemy; the heavy infantry fails its follow-up test (1).
    fight(&mut st, 0, N, &[3, 2, 2, 6, 2, 2, 2, 5, 1]);
    assert_eq!((st.units[0].pos, st.units[0].facing), (at(5, 2), N));
}

/// Checks OTHW-CMB-15.
#[test]
fn othw_cmb_15_a_retreat_off_the_board_eliminates_the_unit() {
    let mut st = battle(&["Heavy Infantry"], &["Infantry"]);
    put(&mut st, 0, 5, 6, N);
    put(&mut st, 1, 5, 7, S);
    // B0 on the north edge loses and fails: eliminated; blue's morale 20 → 19; R0 then fails its
    // follow-up test (1).
    let ev = fight(&mut st, 0, N, &[3, 6, 2, 2, 2, 2, 2, 1]);
    assert_eq!((st.units[1].status, st.units[1].gone), (Status::Gone, Some(GoneHow::PushedOff)));
    assert_eq!(st.side(Side::Blue).am, 19);
    assert!(logged(&ev, "[OTHW-CMB-15]"));
}

/// Checks OTHW-CMB-16.
#[test]
fn othw_cmb_16_a_blocked_retreat_step_costs_one_strength_point_instead() {
    let mut st = battle(&["Heavy Infantry"], &["Infantry", "Infantry"]);
    put(&mut st, 0, 5, 3, N);
    put(&mut st, 1, 5, 4, S);
    put(&mut st, 2, 5, 5, S);
    // 1 hit (4 → 3); fail (blocked: 3 → 2); pass.
    let ev = fight(&mut st, 0, N, &[3, 6, 2, 2, 2, 2, 2, 5]);
    assert_eq!((st.units[1].pos, st.units[1].sp), (at(5, 4), 2));
    assert!(ev.iter().any(|e| matches!(e, Event::Strength { rule, from: 3, to: 2, .. } if rule.as_str() == "OTHW-CMB-16")));
    // The river blocks too.
    let mut st =
        battle_with(&["Heavy Infantry"], &["Infantry"], None, None, &terrain("river", &[(5, 5)]));
    put(&mut st, 0, 5, 3, N);
    put(&mut st, 1, 5, 4, S);
    fight(&mut st, 0, N, &[3, 6, 2, 2, 2, 2, 2, 5]);
    assert_eq!((st.units[1].pos, st.units[1].sp), (at(5, 4), 2));
}

/// Checks OTHW-CMB-17.
#[test]
fn othw_cmb_17_the_winner_follows_up_on_a_passed_test_into_the_emptied_square() {
    let mut st = face_off("Heavy Infantry", "Infantry");
    // B0 falls back (2, then 5); R0 passes its follow-up test (4 against L4).
    let ev = fight(&mut st, 0, N, &[3, 6, 2, 2, 2, 2, 2, 5, 4]);
    assert_eq!((st.units[0].pos, st.units[0].facing), (at(5, 4), N));
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Test { kind: othw::state::TestKind::FollowUp, passed: true, .. }
    )));
    // A failed test: it stays. (Impetuous units: OTHW-TRT-08.)
    let mut st = face_off("Heavy Infantry", "Infantry");
    fight(&mut st, 0, N, &[3, 6, 2, 2, 2, 2, 2, 5, 3]);
    assert_eq!(st.units[0].pos, at(5, 3));
}

/// Checks OTHW-CMB-18.
#[test]
fn othw_cmb_18_an_elephant_that_loses_rolls_to_rampage() {
    // Heavy infantry hits the elephant once (6 against D6); the elephant misses [2, 2, 2].
    // Rampage roll 4: no rampage, normal retreat test (5 passes).
    let mut st = face_off("Heavy Infantry", "Elephants");
    let ev = fight(&mut st, 0, N, &[3, 6, 2, 2, 2, 2, 2, 4, 5]);
    assert!(
        ev.iter().any(|e| matches!(e, Event::Rampage { turn: othw::data::RampageTurn::None, .. }))
    );
    assert_eq!((st.units[1].status, st.units[1].pos), (Status::Ready, at(5, 4)));
    // Rampage roll 1: it turns left (south-facing, so east) and rampages 2 squares; R0 fails its
    // follow-up test (1).
    let mut st = face_off("Heavy Infantry", "Elephants");
    fight(&mut st, 0, N, &[3, 6, 2, 2, 2, 2, 2, 1, 1]);
    assert_eq!(st.units[1].status, Status::Rampaging);
    assert_eq!((st.units[1].pos, st.units[1].facing), (at(7, 4), E));
}

/// Checks OTHW-CMB-19.
#[test]
fn othw_cmb_19_a_rampage_attacks_the_first_unit_in_its_way_and_may_leave_the_board() {
    // B0 elephant loses, rolls 1 (east): moves to G5 and meets R1 (levies) at H5 in the flank:
    // 3 dice at 5+ (hit all troops on 5): [5, 5, 2], 2 hits; R1 passes its test (6); R0 fails
    // its follow-up (1).
    let mut st = battle(&["Heavy Infantry", "Levies"], &["Elephants"]);
    put(&mut st, 0, 5, 3, N);
    put(&mut st, 2, 5, 4, S);
    put(&mut st, 1, 7, 4, N);
    fight(&mut st, 0, N, &[3, 6, 2, 2, 2, 2, 2, 1, 5, 5, 2, 6, 1]);
    assert_eq!(st.units[2].pos, at(6, 4));
    assert_eq!(st.units[1].sp, 2, "the rampage hit the elephant's own enemies and friends alike");
    // On the east edge the same roll takes it off the board: destroyed, blue morale 20 → 19.
    let mut st = battle(&["Heavy Infantry"], &["Elephants"]);
    put(&mut st, 0, 10, 3, N);
    put(&mut st, 1, 10, 4, S);
    fight(&mut st, 0, N, &[3, 6, 2, 2, 2, 2, 2, 1, 1]);
    assert_eq!((st.units[1].status, st.units[1].gone), (Status::Gone, Some(GoneHow::Destroyed)));
    assert_eq!(st.side(Side::Blue).am, 19);
}

/// Checks OTHW-CMB-20.
#[test]
fn othw_cmb_20_a_rampaging_elephant_rolls_each_phase_never_retreats_and_dies_at_zero() {
    let mut st = battle(&["Heavy Infantry", "Heavy Infantry"], &["Elephants"]);
    put(&mut st, 0, 8, 3, N);
    put(&mut st, 1, 8, 1, N);
    put(&mut st, 2, 5, 5, S);
    st.units[2].status = Status::Rampaging;
    // Blue's step 1: roll 5, straight ahead: 2 squares south.
    end_phase(&mut st, &[5]);
    assert_eq!(st.units[2].pos, at(5, 3));
    assert_eq!(refused(&st, mv(2, 5, 2, S)), "OTHW-SEQ-10", "out of its owner's control");
    end_phase(&mut st, &[]);
    // Red's heavy infantry hits it in the flank twice; it loses but does not retreat.
    put(&mut st, 0, 4, 3, E);
    fight(&mut st, 0, E, &[3, 6, 6, 2]);
    assert_eq!(
        (st.units[2].pos, st.units[2].sp, st.units[2].status),
        (at(5, 3), 2, Status::Rampaging)
    );
    // R1 from its front: [6, 6, 2] against its [2, 2, 2] at 5+: at 0 SP it is removed, not
    // broken (blue morale 20 → 19); R1 fails its follow-up test (1).
    put(&mut st, 1, 5, 2, N);
    fight(&mut st, 1, N, &[3, 6, 6, 2, 2, 2, 2, 1]);
    assert_eq!((st.units[2].status, st.units[2].gone), (Status::Gone, Some(GoneHow::Destroyed)));
    assert_eq!(st.side(Side::Blue).am, 19);
}

/// Checks OTHW-CMB-21.
#[test]
fn othw_cmb_21_the_owner_may_attack_its_own_rampaging_elephant_or_have_the_mahouts_do_it() {
    let mut st = battle(&["Elephants", "Heavy Infantry"], &["Infantry"]);
    put(&mut st, 0, 5, 4, N);
    put(&mut st, 1, 5, 3, N);
    st.units[0].status = Status::Rampaging;
    // R1 attacks its own elephant from the rear: 3+, [3, 3, 2]: 2 hits.
    fight(&mut st, 1, N, &[3, 3, 3, 2]);
    assert_eq!(st.units[0].sp, 2);
    // The mahouts: its own 3 dice against its own D6: [6, 6, 2]: 2 hits, 0 SP: destroyed.
    let ev = run(&mut st, Command::Mahouts { unit: 0 }, &[3, 6, 6, 2]);
    assert_eq!(st.units[0].status, Status::Gone);
    assert!(logged(&ev, "[OTHW-CMB-21]"));
    assert_eq!(st.side(Side::Red).am, 19);
}

/// Checks OTHW-CMB-22.
#[test]
fn othw_cmb_22_one_combat_action_a_phase_and_defending_does_not_count() {
    let mut st = battle(&["Heavy Infantry"], &["Infantry", "Infantry"]);
    put(&mut st, 0, 5, 3, N);
    put(&mut st, 1, 5, 4, S);
    fight(&mut st, 0, N, &[3, 2, 2, 2, 2, 2]);
    assert_eq!(refused(&st, attack(&st, 0, N)), "OTHW-CMB-22");
    end_phase(&mut st, &[]);
    // B0 defended in red's phase; it may still fight in its own.
    fight(&mut st, 1, S, &[3, 2, 2, 2, 2, 2]);
}

/// Checks OTHW-CMB-17 with OTHW-CMB-19: the winner follows up only from where it fought. The
/// cavalry beats an elephant from the rear; the elephant rampages about, fights the cavalry
/// again and, winning that round at 0, is destroyed; the cavalry, beaten, falls back twice. Its
/// first victory gives it no follow-up from its new square three squares away.
#[test]
fn othw_cmb_17_a_winner_driven_back_by_the_losers_rampage_does_not_follow_up() {
    let mut st = battle(&["Cavalry"], &["Elephants"]);
    put(&mut st, 1, 5, 4, S);
    put(&mut st, 0, 5, 5, S);
    st.units[1].sp = 2;
    // Phase end 3; cavalry [3 1] at 3+ (rear): 1 hit; rampage roll 3 (rear); the elephant
    // [5 5 1] at 5+: 2 hits; the cavalry strikes back [6 1] at 6+: 1 hit; its retreat tests
    // [1 1 1] all fail. No follow-up test follows.
    let ev = fight(&mut st, 0, S, &[3, 3, 1, 3, 5, 5, 1, 6, 1, 1, 1, 1]);
    assert_eq!(st.units[1].status, Status::Gone);
    let c = &st.units[0];
    assert_eq!((c.pos, c.facing, c.sp), (at(5, 7), N, 1));
    assert!(!logged(&ev, "follows up"), "{:#?}", log_of(&ev));
}

/// Checks OTHW-CMB-05 (and R-14) in the log: a combat line gives each fighter's dice and score
/// as the sum of its parts, each with its rule, and the event's parts fold to the numbers
/// rolled. Spearmen (A2, throwing spears) on a hill with the generic general's die charge
/// infantry standing in a ford: 2 + 1 + 1 + 1 + 1 = 6 dice at 6+; the infantry strikes back with
/// 2 at 6+. The general's Risk test and rally are logged with their numbers too.
#[test]
fn othw_cmb_05_the_combat_line_lists_every_modifier_with_its_rule() {
    let extra = utype("Spearmen", "infantry", 1, 2, 6, 4, 5, &["throwing_spears"])
        + &terrain("hill", &[(5, 3)])
        + &terrain("ford", &[(5, 4)]);
    let mut st = battle_with(&["Spearmen"], &["Infantry"], Some("Generic general"), None, &extra);
    put(&mut st, 0, 5, 3, N);
    put(&mut st, 1, 5, 4, S);
    let c = Command::Attack { unit: 0, from: at(5, 3), facing: N, general_dice: true };
    // No phase-end roll (the general's unit); 6 dice [6 6 1 1 1 1]; the infantry [6 1]; the
    // Risk test 4; the rally die 5 (cancels the 1 hit); its Risk test 3; the infantry's retreat
    // test 5 passes (L5).
    let ev = run(&mut st, c, &[6, 6, 1, 1, 1, 1, 6, 1, 4, 5, 3, 5]);
    let log = log_of(&ev);
    let line = log.iter().find(|l| l.contains(" attacks ")).expect("a combat line");
    for part in [
        "6 dice (A 2 [OTHW-STAT-02]; +1 throwing spears at full strength [OTHW-TRT-03]; \
         +1 enemy in a ford [OTHW-CMB-08]; +1 downhill [OTHW-CMB-08]; +1 general [OTHW-GEN-04])",
        "needing 6+ (D 6 [OTHW-STAT-03])",
        "[6 6 1 1 1 1]: 2 hits",
        "strikes back with 2 dice (A 2 [OTHW-STAT-02]) needing 6+ (D 6 [OTHW-STAT-03]): [6 1]: 1 hit",
    ] {
        assert!(line.contains(part), "{part}\n in {line}");
    }
    // The parts fold to the numbers rolled.
    let Some(Event::Combat { parts, attacker_rolls, attacker_need, .. }) =
        ev.iter().find(|e| matches!(e, Event::Combat { .. }))
    else {
        panic!("a combat")
    };
    let mine =
        || parts.iter().filter(|p| p.role == othw::state::Role::Attacker).map(|p| p.modifier());
    assert_eq!(
        usize::from(othw::combat::total(mine(), othw::combat::Term::Dice)),
        attacker_rolls.len()
    );
    assert_eq!(othw::combat::total(mine(), othw::combat::Term::Need), *attacker_need);
    assert!(
        log.iter().any(|l| l.contains(
            "risk to red's general for his attack dice: 4 (a 1 calls for a Fate roll), safe"
        )),
        "{log:#?}"
    );
    assert!(
        log.iter()
            .any(|l| l.contains("rallies: [5] (each 5+ cancels a hit): 1 of 1 hit cancelled")),
        "{log:#?}"
    );
    assert!(
        log.iter().any(|l| l.contains("tests for retreat: 5 needing 5+ (leadership 5), passed"))
    );
    assert_eq!((st.units[0].sp, st.units[1].sp), (4, 2));
}
