//! Traits and specials (OTHW-TRT-…) and what the unit statistics mean (OTHW-STAT-…).
mod common;
use common::*;
use othw::Othw;
use othw::combat::{Aspect, Combatant, leadership_passes, leadership_sixths, profile};
use othw::data::{Class, Special, Specials};
use othw::state::{Event, Status};
use tabletop::grid::CellTerrain;
use tabletop::rules::Side;

fn c(class: Class, specials: &[Special], a: u8, d: u8, s: u8) -> Combatant {
    Combatant {
        class,
        specials: Specials::of(specials),
        a,
        d,
        s,
        sp: s,
        terrain: CellTerrain::Open,
    }
}

fn skirmisher() -> Combatant {
    c(
        Class::Skirmisher,
        &[Special::HitElephants5, Special::VsSkirmishersA3, Special::Interpenetration],
        1,
        5,
        2,
    )
}

fn elephant(kind: Special) -> Combatant {
    c(
        Class::Elephant,
        &[Special::HitAllOn5, Special::D5VsSkirmishers, Special::Rampage, kind],
        3,
        6,
        4,
    )
}

fn data() -> othw::Data {
    Othw::new().data
}

/// Checks OTHW-TRT-01.
#[test]
fn othw_trt_01_archers_roll_three_against_skirmishers_and_light_cavalry_and_reroll_a_miss() {
    let d = data();
    let archers = c(Class::Infantry, &[Special::Archers], 2, 5, 3);
    let lc = c(Class::LightCavalry, &[Special::FreeFacing], 1, 5, 3);
    let inf = c(Class::Infantry, &[], 2, 6, 4);
    assert_eq!(profile(&d, &archers, &skirmisher(), Aspect::Front, 0, |_| ()).dice, 3);
    assert_eq!(profile(&d, &archers, &lc, Aspect::Front, 0, |_| ()).dice, 3);
    assert_eq!(profile(&d, &archers, &inf, Aspect::Front, 0, |_| ()).dice, 2);
    // In play: against infantry (D6), [6, 2]: the miss is rerolled once (6): 2 hits; B0 tests (5).
    let mut st = battle_with(
        &["Bowmen"],
        &["Infantry"],
        None,
        None,
        &utype("Bowmen", "infantry", 1, 2, 5, 3, 5, &["archers"]),
    );
    put(&mut st, 0, 5, 3, N);
    put(&mut st, 1, 5, 4, S);
    let ev = fight(&mut st, 0, N, &[3, 6, 2, 2, 2, 6, 5]);
    assert_eq!(ev.iter().filter(|e| matches!(e, Event::Reroll { .. })).count(), 1);
    assert_eq!(st.units[1].sp, 2);
}

/// Checks OTHW-TRT-02.
#[test]
fn othw_trt_02_hoplites_against_hoplites_roll_three_and_count_defence_five() {
    let d = data();
    let hop = c(Class::Infantry, &[Special::Hoplites], 2, 6, 4);
    let inf = c(Class::Infantry, &[], 2, 6, 4);
    let p = profile(&d, &hop, &hop, Aspect::Front, 0, |_| ());
    assert_eq!((p.dice, p.need), (3, 5));
    let p = profile(&d, &hop, &inf, Aspect::Front, 0, |_| ());
    assert_eq!((p.dice, p.need), (2, 6));
}

/// Checks OTHW-TRT-03.
#[test]
fn othw_trt_03_throwing_spears_add_a_die_at_full_strength_attacking_and_defending() {
    let d = data();
    let mut legion = c(Class::Infantry, &[Special::ThrowingSpears], 3, 6, 4);
    let inf = c(Class::Infantry, &[], 2, 6, 4);
    assert_eq!(profile(&d, &legion, &inf, Aspect::Front, 0, |_| ()).dice, 4);
    legion.sp = 3;
    assert_eq!(
        profile(&d, &legion, &inf, Aspect::Front, 0, |_| ()).dice,
        3,
        "lost after the first SP"
    );
    // Defending: the Roman legion strikes back with 4 dice.
    let mut st = battle_with(
        &["Infantry"],
        &["Legion"],
        None,
        None,
        &utype("Legion", "infantry", 1, 3, 6, 4, 4, &["throwing_spears"]),
    );
    put(&mut st, 0, 5, 3, N);
    put(&mut st, 1, 5, 4, S);
    let ev = fight(&mut st, 0, N, &[3, 2, 2, 2, 2, 2, 2]);
    assert!(
        ev.iter().any(
            |e| matches!(e, Event::Combat { defender_rolls, .. } if defender_rolls.len() == 4)
        )
    );
}

/// Checks OTHW-TRT-04.
#[test]
fn othw_trt_04_a_full_strength_phalanx_cancels_a_hit_on_a_test_and_flank_attackers_need_five() {
    let d = data();
    let phalanx = c(Class::Infantry, &[Special::Phalanx], 2, 6, 4);
    let inf = c(Class::Infantry, &[], 2, 6, 4);
    assert_eq!(profile(&d, &inf, &phalanx, Aspect::Flank, 0, |_| ()).need, 5);
    assert_eq!(profile(&d, &inf, &phalanx, Aspect::Front, 0, |_| ()).need, 6);
    assert_eq!(profile(&d, &inf, &phalanx, Aspect::Rear, 0, |_| ()).need, 3);
    // In play: 1 hit, cancelled by a passed test (4 against L4): a draw, 4 SP kept.
    let types = utype("Phalangites", "infantry", 1, 2, 6, 4, 4, &["phalanx"]);
    let mut st = battle_with(&["Heavy Infantry"], &["Phalangites"], None, None, &types);
    put(&mut st, 0, 5, 3, N);
    put(&mut st, 1, 5, 4, S);
    fight(&mut st, 0, N, &[3, 6, 2, 2, 2, 2, 4]);
    assert_eq!(st.units[1].sp, 4);
    // Below full strength there is no test: the hit stands and B0 tests to retreat (5).
    let mut st = battle_with(&["Heavy Infantry"], &["Phalangites"], None, None, &types);
    put(&mut st, 0, 5, 3, N);
    put(&mut st, 1, 5, 4, S);
    st.units[1].sp = 3;
    fight(&mut st, 0, N, &[3, 6, 2, 2, 2, 2, 5]);
    assert_eq!(st.units[1].sp, 2);
}

/// Checks OTHW-TRT-05.
#[test]
fn othw_trt_05_loose_order_ignores_terrain_limits_and_fights_with_two_dice_in_woods() {
    let d = data();
    let mut wb = c(Class::Infantry, &[Special::Impetuous, Special::LooseOrder], 3, 5, 4);
    let mut inf = c(Class::Infantry, &[], 2, 6, 4);
    wb.terrain = CellTerrain::Wood;
    assert_eq!(profile(&d, &wb, &inf, Aspect::Front, 0, |_| ()).dice, 2);
    wb.terrain = CellTerrain::Ford;
    assert_eq!(
        profile(&d, &inf, &wb, Aspect::Front, 0, |_| ()).dice,
        2,
        "no ford bonus against loose order"
    );
    inf.terrain = CellTerrain::Ford;
    wb.terrain = CellTerrain::Open;
    assert_eq!(
        profile(&d, &wb, &inf, Aspect::Front, 0, |_| ()).dice,
        4,
        "but it gets one against others"
    );
    // Movement: light infantry (loose order, M2) crosses two wood squares.
    let mut st = battle_with(
        &["Light Infantry"],
        &["Infantry"],
        None,
        None,
        &terrain("wood", &[(5, 4), (5, 5)]),
    );
    put(&mut st, 0, 5, 3, N);
    assert!(rules().reach(&st, 0, false).has_end(at(5, 5), N));
}

/// Checks OTHW-TRT-06.
#[test]
fn othw_trt_06_elephants_need_six_against_elephant_drill_except_from_the_rear() {
    let d = data();
    let drilled = c(Class::Infantry, &[Special::ElephantDrill], 2, 6, 4);
    let drilled5 = c(Class::Infantry, &[Special::ElephantDrill], 2, 5, 4);
    let e = elephant(Special::African);
    assert_eq!(profile(&d, &e, &drilled, Aspect::Front, 0, |_| ()).need, 6);
    assert_eq!(profile(&d, &e, &drilled5, Aspect::Front, 0, |_| ()).need, 6);
    assert_eq!(profile(&d, &e, &drilled5, Aspect::Rear, 0, |_| ()).need, 3);
}

/// Checks OTHW-TRT-07.
#[test]
fn othw_trt_07_indian_elephants_hit_african_ones_on_five_otherwise_six() {
    let d = data();
    let (afr, ind) = (elephant(Special::African), elephant(Special::Indian));
    assert_eq!(profile(&d, &ind, &afr, Aspect::Front, 0, |_| ()).need, 5);
    assert_eq!(profile(&d, &afr, &ind, Aspect::Front, 0, |_| ()).need, 6);
    assert_eq!(profile(&d, &afr, &afr, Aspect::Front, 0, |_| ()).need, 6);
    assert_eq!(profile(&d, &ind, &ind, Aspect::Front, 0, |_| ()).need, 6);
}

/// Checks OTHW-TRT-08.
#[test]
fn othw_trt_08_impetuous_winners_always_follow_up_without_a_test() {
    let mut st = battle(&["Warband"], &["Infantry"]);
    put(&mut st, 0, 5, 3, N);
    put(&mut st, 1, 5, 4, S);
    // Warband [6, 2, 2] (1 hit at 6); back [2, 2]; B0 fails then passes (2, 5); no test for R0.
    let ev = fight(&mut st, 0, N, &[3, 6, 2, 2, 2, 2, 2, 5]);
    assert_eq!(st.units[0].pos, at(5, 4));
    assert!(logged(&ev, "[OTHW-TRT-08]"));
    assert!(!ev.iter().any(|e| matches!(e, Event::Test { unit: 0, .. })));
}

/// Checks OTHW-TRT-09.
#[test]
fn othw_trt_09_free_facing_makes_every_turn_free_in_moves_charges_and_combat() {
    let mut st = battle(&["Cavalry", "Chariots"], &["Infantry"]);
    put(&mut st, 0, 5, 3, N);
    put(&mut st, 1, 8, 3, N);
    let r = rules();
    // Cavalry: about-face and 3 squares south (turns free); chariots (no free facing) only 2.
    assert!(r.reach(&st, 0, false).has_end(at(5, 0), S));
    assert!(!r.reach(&st, 1, false).has_end(at(8, 0), S));
    assert!(r.reach(&st, 1, false).has_end(at(8, 1), S));
    // A charge: cavalry steps north, turns east for free, steps east and enters the enemy's
    // square: 3 points.
    put(&mut st, 2, 7, 4, S);
    assert!(
        r.reach(&st, 0, true).attacks.iter().any(|&(p, f, t)| p == at(6, 4) && f == E && t == 2)
    );
}

/// Checks OTHW-TRT-10.
#[test]
fn othw_trt_10_skirmishers_and_their_friends_pass_through_each_other() {
    let mut st = battle(&["Skirmishers", "Heavy Infantry"], &["Infantry"]);
    put(&mut st, 0, 5, 4, N);
    put(&mut st, 1, 5, 3, N);
    let r = rules();
    // Heavy infantry (M1) cannot end on the skirmisher; light troops would pass; here the
    // skirmisher passes back through the heavy infantry: about-face (1) + 1 step through = no
    // end square free within 2 points; facing south and moving 1 lands on the friend: refused.
    assert!(!r.reach(&st, 1, false).each_end().any(|(p, _)| p == at(5, 4)));
    put(&mut st, 1, 5, 5, S);
    put(&mut st, 0, 5, 6, S);
    st.units[0].facing = tabletop::grid::GridFacing::South;
    assert!(r.reach(&st, 0, false).has_end(at(5, 4), S), "skirmisher through its friend");
}

/// Checks OTHW-TRT-11.
#[test]
fn othw_trt_11_skirmishers_hit_elephants_on_five_and_roll_three_against_skirmishers() {
    let d = data();
    let s = skirmisher();
    let p = profile(&d, &s, &elephant(Special::African), Aspect::Front, 0, |_| ());
    assert_eq!((p.dice, p.need), (1, 5));
    let p = profile(&d, &s, &s, Aspect::Front, 0, |_| ());
    assert_eq!((p.dice, p.need), (3, 5));
}

/// Checks OTHW-TRT-12.
#[test]
fn othw_trt_12_elephants_need_at_most_five_against_other_troops() {
    let d = data();
    let e = elephant(Special::African);
    assert_eq!(
        profile(&d, &e, &c(Class::Infantry, &[], 3, 6, 4), Aspect::Front, 0, |_| ()).need,
        5
    );
    assert_eq!(profile(&d, &e, &c(Class::Cavalry, &[], 2, 5, 3), Aspect::Front, 0, |_| ()).need, 5);
    assert_eq!(
        profile(&d, &e, &c(Class::Chariot, &[], 3, 4, 2), Aspect::Front, 0, |_| ()).need,
        4,
        "never worse"
    );
    assert_eq!(profile(&d, &e, &skirmisher(), Aspect::Front, 0, |_| ()).need, 5);
}

/// Checks OTHW-TRT-13.
#[test]
fn othw_trt_13_only_units_with_rampage_roll_on_the_rampage_table() {
    // An elephant-class custom type without the rampage special: it retreats normally.
    let types = utype("Tame Elephants", "elephant", 2, 3, 6, 4, 5, &["hit_all_on_5"]);
    let mut st = battle_with(&["Heavy Infantry"], &["Tame Elephants"], None, None, &types);
    put(&mut st, 0, 5, 3, N);
    put(&mut st, 1, 5, 4, S);
    let ev = fight(&mut st, 0, N, &[3, 6, 2, 2, 2, 2, 2, 5]);
    assert!(!ev.iter().any(|e| matches!(e, Event::Rampage { .. })));
    assert_eq!(st.units[1].status, Status::Ready);
}

// ---------------------------------------------------------------------------------------------
// Unit statistics
// ---------------------------------------------------------------------------------------------

/// Checks OTHW-STAT-01.
#[test]
fn othw_stat_01_m_is_the_movement_points_of_one_move_action() {
    let mut st = battle(&["Light Cavalry", "Infantry"], &["Infantry"]);
    put(&mut st, 0, 5, 1, N);
    put(&mut st, 1, 8, 1, N);
    let r = rules();
    assert!(r.reach(&st, 0, false).has_end(at(5, 5), N), "M4: four squares");
    assert!(!r.reach(&st, 0, false).has_end(at(5, 6), N));
    assert!(!r.reach(&st, 1, false).has_end(at(8, 3), N), "M1: one square");
}

/// Checks OTHW-STAT-02.
#[test]
fn othw_stat_02_a_is_the_number_of_dice_rolled() {
    let mut st = battle(&["Levies", "Lancers"], &["Infantry", "Infantry"]);
    put(&mut st, 0, 2, 3, N);
    put(&mut st, 2, 2, 4, N);
    put(&mut st, 1, 6, 3, N);
    put(&mut st, 3, 6, 4, N);
    let ev = fight(&mut st, 0, N, &[3, 2]);
    assert!(
        ev.iter().any(
            |e| matches!(e, Event::Combat { attacker_rolls, .. } if attacker_rolls.len() == 1)
        )
    );
    let ev = fight(&mut st, 1, N, &[3, 2, 2, 2]);
    assert!(
        ev.iter().any(
            |e| matches!(e, Event::Combat { attacker_rolls, .. } if attacker_rolls.len() == 3)
        )
    );
}

/// Checks OTHW-STAT-03.
#[test]
fn othw_stat_03_d_is_the_score_needed_to_hit() {
    let d = data();
    let inf = c(Class::Infantry, &[], 2, 6, 4);
    let scythed = c(Class::Chariot, &[], 3, 4, 2);
    assert_eq!(profile(&d, &inf, &inf, Aspect::Front, 0, |_| ()).need, 6);
    assert_eq!(profile(&d, &inf, &scythed, Aspect::Front, 0, |_| ()).need, 4);
    // A D6 unit is hit only by 6s: [5, 5] do nothing.
    let mut st = battle(&["Infantry"], &["Heavy Infantry"]);
    put(&mut st, 0, 5, 3, N);
    put(&mut st, 1, 5, 4, E);
    fight(&mut st, 0, N, &[3, 5, 5]);
    assert_eq!(st.units[1].sp, 4);
}

/// Checks OTHW-STAT-04.
#[test]
fn othw_stat_04_s_is_the_starting_strength_and_full_strength_means_sp_equals_s() {
    let st = battle(&["Heavy Infantry", "Skirmishers", "Scythed Chariots"], &["Infantry"]);
    assert_eq!([st.units[0].sp, st.units[1].sp, st.units[2].sp], [4, 2, 2]);
    assert!(st.units.iter().all(|u| u.sp == u.s));
}

/// Checks OTHW-STAT-05.
#[test]
fn othw_stat_05_a_leadership_test_passes_at_or_above_l() {
    for (l, pass_from, sixths) in [(3u8, 3u8, 4u8), (4, 4, 3), (5, 5, 2), (6, 6, 1)] {
        for roll in 1..=6u8 {
            assert_eq!(leadership_passes(roll, l), roll >= pass_from, "L{l} roll {roll}");
        }
        assert_eq!(leadership_sixths(l), sixths);
    }
}

/// Checks OTHW-STAT-06.
#[test]
fn othw_stat_06_tests_serve_retreat_follow_up_further_move_pursuit_and_phalanx_with_rerolls() {
    // A follow-up test by the general's unit: failed (1), rerolled (4 against L4), Risk 3.
    let mut st = battle_with(&["Heavy Infantry"], &["Infantry"], Some("Generic general"), None, "");
    put(&mut st, 0, 5, 3, N);
    put(&mut st, 1, 5, 4, S);
    let ev = fight(&mut st, 0, N, &[6, 2, 2, 2, 2, 2, 5, 1, 4, 3]);
    let kinds: Vec<_> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Test { kind, reroll, need, .. } => Some((*kind, *reroll, *need)),
            _ => None,
        })
        .collect();
    use othw::state::TestKind::*;
    assert_eq!(
        kinds,
        vec![(Retreat, false, 5), (Retreat, false, 5), (FollowUp, false, 4), (FollowUp, true, 4)]
    );
    assert_eq!(st.units[0].pos, at(5, 4));
}

/// Checks OTHW-STAT-07.
#[test]
fn othw_stat_07_skirmishers_do_not_count_for_army_morale_nor_lower_it_when_they_break() {
    let st = state(&ready("open_field.toml"));
    // Rome: 12 units, 2 of them velites: N = 10 → ceil(10/4) + 4 = 7, +1 general = 8.
    assert_eq!(st.side(Side::Red).am, 8);
    let mut st = battle(&["Heavy Infantry"], &["Skirmishers"]);
    put(&mut st, 0, 5, 3, N);
    put(&mut st, 1, 5, 4, N);
    fight(&mut st, 0, N, &[3, 6, 6, 2]);
    assert_eq!(st.units[1].status, Status::Fleeing);
    assert_eq!(st.side(Side::Blue).am, 20);
}
