//! The reaction test, named by the WRG-RT, -RTP, -RFAC, -RDEF and -RRES IDs.
use std::collections::BTreeMap;
use tabletop::geometry::Vec2;
use wrg1969::Data;
use wrg1969::model::{
    ReactionClass as C, ReactionFactor as F, ReactionResult as R, Status, TroopType,
};
use wrg1969::reaction::*;

fn data() -> Data {
    Data::embedded().unwrap()
}

fn total(d: &Data, s: &Situation) -> i32 {
    fixed_factors(d, s).iter().map(|a| a.delta).sum()
}

fn one(d: &Data, s: Situation) -> (i32, String) {
    let f = fixed_factors(d, &s);
    assert_eq!(f.len(), 1, "{f:?}");
    (f[0].delta, f[0].rule.clone())
}

// Checks WRG-RFAC-01.
#[test]
fn wrg_rfac_01_each_friend_within() {
    let d = data();
    assert_eq!(total(&d, &Situation { friends_within: 3, ..Default::default() }), 3);
    assert_eq!(one(&d, Situation { friends_within: 1, ..Default::default() }).1, "WRG-RFAC-01");
}

// Checks WRG-RFAC-02, WRG-RFAC-03, WRG-RFAC-04.
#[test]
fn wrg_rfac_02_to_04_once_only() {
    let d = data();
    assert_eq!(
        one(&d, Situation { other_friends_in_sight: true, ..Default::default() }),
        (1, "WRG-RFAC-02".into())
    );
    assert_eq!(
        one(&d, Situation { friend_advancing_within: true, ..Default::default() }),
        (1, "WRG-RFAC-03".into())
    );
    assert_eq!(
        one(&d, Situation { friend_charging_within: true, ..Default::default() }),
        (1, "WRG-RFAC-04".into())
    );
}

// Checks WRG-RFAC-05.
#[test]
fn wrg_rfac_05_each_secure_flank_at_most_two() {
    let d = data();
    assert_eq!(total(&d, &Situation { flanks_secure: 2, ..Default::default() }), 2);
    assert_eq!(total(&d, &Situation { flanks_secure: 5, ..Default::default() }), 2);
}

// Checks WRG-RFAC-06, WRG-RFAC-07, WRG-RFAC-08, WRG-RFAC-09, WRG-RFAC-10.
#[test]
fn wrg_rfac_06_to_10_plus_one() {
    let d = data();
    for (s, rule) in [
        (Situation { rear_support: true, ..Default::default() }, "WRG-RFAC-06"),
        (Situation { enemy_retiring_within: true, ..Default::default() }, "WRG-RFAC-07"),
        (Situation { enemy_showing_flank_within: true, ..Default::default() }, "WRG-RFAC-08"),
        (Situation { uphill_of_enemy: true, ..Default::default() }, "WRG-RFAC-09"),
        (Situation { friendly_cover_within: true, ..Default::default() }, "WRG-RFAC-10"),
    ] {
        assert_eq!(one(&d, s), (1, rule.into()));
    }
}

// Checks WRG-RFAC-11.
#[test]
fn wrg_rfac_11_two_for_each_enemy_routing() {
    let d = data();
    assert_eq!(total(&d, &Situation { enemies_routing_within: 2, ..Default::default() }), 4);
}

// Checks WRG-RFAC-12.
#[test]
fn wrg_rfac_12_each_enemy_facing() {
    let d = data();
    assert_eq!(total(&d, &Situation { enemies_facing_within: 3, ..Default::default() }), -3);
}

// Checks WRG-RFAC-13, WRG-RFAC-14, WRG-RFAC-15, WRG-RFAC-16, WRG-RFAC-17, WRG-RFAC-18, WRG-RFAC-19, WRG-RFAC-20, WRG-RFAC-21.
#[test]
fn wrg_rfac_13_to_21_minus_one() {
    let d = data();
    for (s, rule) in [
        (Situation { other_enemy_in_sight: true, ..Default::default() }, "WRG-RFAC-13"),
        (Situation { enemy_cavalry_within: true, ..Default::default() }, "WRG-RFAC-14"),
        (Situation { enemy_advancing_within: true, ..Default::default() }, "WRG-RFAC-15"),
        (Situation { shot_at_by: 10, ..Default::default() }, "WRG-RFAC-16"),
        (Situation { enemy_on_flank: true, ..Default::default() }, "WRG-RFAC-17"),
        (Situation { enemy_in_rear: true, ..Default::default() }, "WRG-RFAC-18"),
        (Situation { downhill_of_enemy: true, ..Default::default() }, "WRG-RFAC-19"),
        (Situation { friend_retiring_within: true, ..Default::default() }, "WRG-RFAC-20"),
        (Situation { disorganised: true, ..Default::default() }, "WRG-RFAC-21"),
        (Situation { retiring: true, ..Default::default() }, "WRG-RFAC-23"),
    ] {
        assert_eq!(one(&d, s), (-1, rule.into()));
    }
}

// Checks WRG-RFAC-16.
#[test]
fn wrg_rfac_16_needs_ten_figures() {
    let d = data();
    assert_eq!(total(&d, &Situation { shot_at_by: 9, ..Default::default() }), 0);
    assert_eq!(total(&d, &Situation { shot_at_by: 25, ..Default::default() }), -1);
}

// Checks WRG-RFAC-22.
#[test]
fn wrg_rfac_22_per_four_figures_lost() {
    let d = data();
    assert_eq!(total(&d, &Situation { figures_lost: 3, ..Default::default() }), 0);
    assert_eq!(total(&d, &Situation { figures_lost: 7, ..Default::default() }), -1);
    assert_eq!(total(&d, &Situation { figures_lost: 8, ..Default::default() }), -2);
}

// Checks WRG-RFAC-24, WRG-RFAC-25.
#[test]
fn wrg_rfac_24_25_minus_two() {
    let d = data();
    assert_eq!(total(&d, &Situation { friends_routing_within: 2, ..Default::default() }), -4);
    assert_eq!(
        one(&d, Situation { unfriendly_cover_within: true, ..Default::default() }),
        (-2, "WRG-RFAC-25".into())
    );
}

fn test_with(s: Situation, signs: BTreeMap<F, Sign>, has_order: bool) -> Outcome {
    let d = data();
    let t = Test {
        class: C::C,
        status: Status::Regular,
        levy: false,
        start_figures: 12,
        figures: 12,
        has_order,
        under_attack: false,
        pursuing: false,
        situation: s,
        dice: vec![3, 3, 4],
        signs,
    };
    work_out(&d, &t).unwrap()
}

// Checks WRG-RFAC-26.
#[test]
fn wrg_rfac_26_general_with_the_unit_either_sign() {
    let s = Situation { general_with_unit: true, ..Default::default() };
    let plus = test_with(s.clone(), BTreeMap::from([(F::GeneralWithUnit, Sign::Plus)]), true);
    let minus = test_with(s, BTreeMap::from([(F::GeneralWithUnit, Sign::Minus)]), true);
    assert_eq!((plus.score, minus.score), (13, 7));
    assert!(plus.factors.iter().any(|a| a.rule == "WRG-RFAC-26"));
}

// Checks WRG-RFAC-27.
#[test]
fn wrg_rfac_27_general_within_unless_retreating() {
    let s = Situation { general_within: true, ..Default::default() };
    let o = test_with(s, BTreeMap::from([(F::GeneralWithin, Sign::Minus)]), true);
    assert_eq!(o.score, 9);
    let r = Situation { general_within: true, general_retreating: true, ..Default::default() };
    assert_eq!(test_with(r, BTreeMap::new(), true).score, 10);
}

// Checks WRG-RFAC-28, WRG-RFAC-29.
#[test]
fn wrg_rfac_28_29_cover_and_square() {
    let s = Situation { behind_cover: true, in_square: true, ..Default::default() };
    let o = test_with(
        s,
        BTreeMap::from([(F::BehindCover, Sign::Plus), (F::InSquare, Sign::Minus)]),
        true,
    );
    assert_eq!(o.score, 10);
    assert!(o.factors.iter().any(|a| a.rule == "WRG-RFAC-28" && a.delta == 2));
    assert!(o.factors.iter().any(|a| a.rule == "WRG-RFAC-29" && a.delta == -2));
}

// Checks WRG-RFAC-30.
#[test]
fn wrg_rfac_30_everything_adds_up_without_a_cap() {
    let d = data();
    let s = Situation {
        enemies_facing_within: 5,
        friends_routing_within: 3,
        figures_lost: 12,
        unfriendly_cover_within: true,
        disorganised: true,
        ..Default::default()
    };
    assert_eq!(total(&d, &s), -5 - 6 - 3 - 2 - 1);
}

// Checks WRG-RTP-03.
#[test]
fn wrg_rtp_03_score_is_dice_plus_factors() {
    let o = test_with(
        Situation { friends_within: 2, enemy_cavalry_within: true, ..Default::default() },
        BTreeMap::new(),
        true,
    );
    assert_eq!((o.dice_total, o.score), (10, 11));
}

// Checks WRG-RTP-04.
#[test]
fn wrg_rtp_04_chart_by_order_and_class_column() {
    let d = data();
    // Score 9: chart 1 carry on for every class; chart 2 differs by class.
    for c in [C::A, C::B, C::C, C::D, C::E] {
        assert_eq!(read_chart(&d, true, c, 9).result, R::CarryOn, "{c}");
    }
    assert_eq!(read_chart(&d, false, C::A, 9).result, R::MoveTowardEnemy);
    assert_eq!(read_chart(&d, false, C::C, 9).result, R::FallBack);
    assert_eq!(read_chart(&d, false, C::E, 9).result, R::FallBack);
    let o = test_with(Situation::default(), BTreeMap::new(), false);
    assert_eq!((o.chart, o.result), (2, R::MoveTowardEnemy));
}

#[test]
fn t11_chart_one_band_edges() {
    let d = data();
    let cases = [
        (
            C::A,
            [
                (-2, R::Break),
                (-1, R::Retire),
                (2, R::Retire),
                (3, R::Halt),
                (4, R::CarryOn),
                (13, R::CarryOn),
                (14, R::ActAsGeneralWishes),
                (16, R::ActAsGeneralWishes),
                (17, R::UncontrolledAdvance),
            ],
        ),
        (
            C::B,
            [
                (-1, R::Break),
                (0, R::Retire),
                (2, R::Retire),
                (3, R::Halt),
                (4, R::Halt),
                (5, R::CarryOn),
                (14, R::ActAsGeneralWishes),
                (15, R::ActAsGeneralWishes),
                (16, R::UncontrolledAdvance),
            ],
        ),
        (
            C::C,
            [
                (1, R::Break),
                (2, R::Retire),
                (3, R::Retire),
                (4, R::Halt),
                (5, R::Halt),
                (6, R::CarryOn),
                (13, R::CarryOn),
                (15, R::ActAsGeneralWishes),
                (16, R::UncontrolledAdvance),
            ],
        ),
        (
            C::D,
            [
                (2, R::Break),
                (3, R::Retire),
                (4, R::Retire),
                (5, R::Halt),
                (6, R::Halt),
                (7, R::CarryOn),
                (12, R::CarryOn),
                (13, R::ActAsGeneralWishes),
                (14, R::UncontrolledAdvance),
            ],
        ),
        (
            C::E,
            [
                (3, R::Break),
                (4, R::Retire),
                (5, R::Retire),
                (6, R::Halt),
                (8, R::Halt),
                (9, R::CarryOn),
                (12, R::CarryOn),
                (13, R::ActAsGeneralWishes),
                (14, R::UncontrolledAdvance),
            ],
        ),
    ];
    for (c, rows) in cases {
        for (score, want) in rows {
            assert_eq!(read_chart(&d, true, c, score).result, want, "class {c} score {score}");
        }
    }
}

#[test]
fn t12_chart_two_band_edges() {
    let d = data();
    let cases = [
        (
            C::A,
            [
                (-2, R::Break),
                (-1, R::HaltOrRetire),
                (3, R::HaltOrRetire),
                (4, R::FallBack),
                (7, R::FallBack),
                (8, R::MoveTowardEnemy),
                (12, R::MoveTowardEnemy),
                (13, R::ActAsGeneralWishes),
                (16, R::UncontrolledAdvance),
            ],
        ),
        (
            C::B,
            [
                (-1, R::Break),
                (0, R::HaltOrRetire),
                (4, R::HaltOrRetire),
                (5, R::FallBack),
                (8, R::FallBack),
                (9, R::MoveTowardEnemy),
                (12, R::MoveTowardEnemy),
                (15, R::ActAsGeneralWishes),
                (16, R::UncontrolledAdvance),
            ],
        ),
        (
            C::C,
            [
                (1, R::Break),
                (2, R::HaltOrRetire),
                (5, R::HaltOrRetire),
                (6, R::FallBack),
                (9, R::FallBack),
                (10, R::MoveTowardEnemy),
                (13, R::MoveTowardEnemy),
                (14, R::ActAsGeneralWishes),
                (16, R::UncontrolledAdvance),
            ],
        ),
        (
            C::D,
            [
                (2, R::Break),
                (3, R::HaltOrRetire),
                (6, R::HaltOrRetire),
                (7, R::FallBack),
                (10, R::FallBack),
                (11, R::MoveTowardEnemy),
                (13, R::MoveTowardEnemy),
                (14, R::ActAsGeneralWishes),
                (15, R::UncontrolledAdvance),
            ],
        ),
        (
            C::E,
            [
                (3, R::Break),
                (4, R::HaltOrRetire),
                (8, R::HaltOrRetire),
                (9, R::FallBack),
                (11, R::FallBack),
                (12, R::MoveTowardEnemy),
                (13, R::MoveTowardEnemy),
                (14, R::ActAsGeneralWishes),
                (15, R::UncontrolledAdvance),
            ],
        ),
    ];
    for (c, rows) in cases {
        for (score, want) in rows {
            assert_eq!(read_chart(&d, false, c, score).result, want, "class {c} score {score}");
        }
    }
}

// Checks WRG-CLASS-06.
#[test]
fn wrg_class_06_class_picks_the_column_status_the_dice() {
    let d = data();
    // Same class, different status: same band for the same score.
    assert_eq!(read_chart(&d, true, C::D, 7).result, R::CarryOn);
    assert_eq!(wrg1969::random::reaction_die(&d, Status::Barbarian, false), tabletop::Die::D6);
    assert_eq!(wrg1969::random::reaction_die(&d, Status::Regular, false), tabletop::Die::Average);
    // And the class alone moves the band: score 6 carries on for C, halts for D and E.
    assert_eq!(read_chart(&d, true, C::C, 6).result, R::CarryOn);
    assert_eq!(read_chart(&d, true, C::D, 6).result, R::Halt);
}

// Checks WRG-CLASS-01, WRG-CLASS-02, WRG-CLASS-03, WRG-CLASS-04, WRG-CLASS-05.
#[test]
fn wrg_class_01_to_05_guard_holds_where_levies_break() {
    let d = data();
    // The same score of 3 under fire: guard halts, elite and trained retire, levies break.
    let at = |c| effect(read_chart(&d, true, c, 3), true, false);
    assert_eq!(at(C::A), Effect::Halt { periods: 2 });
    assert_eq!(at(C::B), Effect::Halt { periods: 2 });
    assert_eq!(at(C::C), Effect::Retire { periods: 2 });
    assert_eq!(at(C::D), Effect::Retire { periods: 2 });
    assert_eq!(at(C::E), Effect::Break);
}

// Checks WRG-RRES-01.
#[test]
fn wrg_rres_01_break_under_attack_otherwise_retreat() {
    let d = data();
    let b = read_chart(&d, true, C::C, 0);
    assert_eq!(effect(b, true, false), Effect::Break);
    assert_eq!(effect(b, false, false), Effect::Retreat { periods: 3 });
    assert_eq!(order_fate(Effect::Break, true), OrderFate::Cancelled);
    assert_eq!(order_fate(Effect::Retreat { periods: 3 }, true), OrderFate::Suspended);
}

// Checks WRG-RRES-02.
#[test]
fn wrg_rres_02_retire_disorganised_two_periods() {
    let d = data();
    let e = effect(read_chart(&d, true, C::B, 1), false, false);
    assert_eq!(e, Effect::Retire { periods: 2 });
    assert!(e.disorganises());
    assert_eq!(e.rule(), "WRG-RRES-02");
}

// Checks WRG-RRES-03.
#[test]
fn wrg_rres_03_halt_two_periods() {
    let d = data();
    let e = effect(read_chart(&d, true, C::E, 7), false, false);
    assert_eq!(e, Effect::Halt { periods: 2 });
    assert!(!e.disorganises());
    assert_eq!(order_fate(e, true), OrderFate::Suspended);
}

// Checks WRG-RRES-04.
#[test]
fn wrg_rres_04_carry_on() {
    let d = data();
    let e = effect(read_chart(&d, true, C::A, 10), true, false);
    assert_eq!((e, order_fate(e, true)), (Effect::CarryOn, OrderFate::Kept));
}

// Checks WRG-RRES-05.
#[test]
fn wrg_rres_05_new_order_at_once() {
    let d = data();
    let e = effect(read_chart(&d, true, C::D, 13), false, false);
    assert_eq!(e, Effect::NewOrder);
    assert_eq!(order_fate(e, true), OrderFate::Replaced);
    assert_eq!(e.periods(), 0);
}

// Checks WRG-RRES-06.
#[test]
fn wrg_rres_06_uncontrolled_advance_cancels_the_order() {
    let d = data();
    let e = effect(read_chart(&d, true, C::E, 14), false, false);
    assert_eq!(e, Effect::UncontrolledAdvance { periods: 2 });
    assert_eq!(order_fate(e, true), OrderFate::Cancelled);
}

// Checks WRG-RRES-07.
#[test]
fn wrg_rres_07_chart_two_halt_if_pursuing_else_retire() {
    let d = data();
    let b = read_chart(&d, false, C::D, 4);
    assert_eq!(effect(b, false, true), Effect::HaltDisorganised { periods: 1 });
    assert_eq!(effect(b, false, false), Effect::Retire { periods: 2 });
    assert!(effect(b, false, true).disorganises());
}

// Checks WRG-RRES-08, WRG-RRES-09.
#[test]
fn wrg_rres_08_09_fall_back_and_move_toward() {
    let d = data();
    assert_eq!(
        effect(read_chart(&d, false, C::B, 6), false, false),
        Effect::FallBack { periods: 2 }
    );
    assert_eq!(
        effect(read_chart(&d, false, C::B, 10), false, false),
        Effect::MoveTowardEnemy { periods: 2 }
    );
}

// Checks WRG-RRES-10.
#[test]
fn wrg_rres_10_running_results_block_optional_tests() {
    let r = Running::start(Effect::Halt { periods: 2 });
    assert_eq!(replace_running(r, false, Effect::CarryOn), Err("WRG-RRES-10"));
    assert_eq!(
        replace_running(r, true, Effect::Retire { periods: 2 }),
        Ok(Running::start(Effect::Retire { periods: 2 }))
    );
    let r = r.unwrap();
    assert_eq!(r.tick().map(|x| x.left), Some(1));
    assert_eq!(r.tick().and_then(|x| x.tick()), None);
    assert_eq!(
        optional_test(Doing { running_result: true, ..Default::default() }),
        Err("WRG-RRES-10")
    );
}

// Checks WRG-RT-01.
#[test]
fn wrg_rt_01_optional_tests_not_while_fighting_running_or_pursuing() {
    assert!(optional_test(Doing::default()).is_ok());
    for d in [
        Doing { in_close_combat: true, ..Default::default() },
        Doing { broken: true, ..Default::default() },
        Doing { first_pursuit_period: true, ..Default::default() },
    ] {
        assert_eq!(optional_test(d), Err("WRG-RT-01"));
    }
}

fn happened() -> Happened {
    Happened {
        nearest_enemy: 30.0,
        figures_before: 12,
        figures_after: 12,
        start_figures: 12,
        tested_within_range: true,
        ..Default::default()
    }
}

// Checks WRG-RT-02.
#[test]
fn wrg_rt_02_first_time_within_fifteen() {
    let d = data();
    let h = Happened { tested_within_range: false, nearest_enemy: 15.0, ..happened() };
    assert_eq!(mandatory(&d, &h, Doing::default()), [Trigger::FirstContactRange]);
    let again = Happened { tested_within_range: true, ..h };
    assert!(mandatory(&d, &again, Doing::default()).is_empty());
    let far = Happened { tested_within_range: false, nearest_enemy: 15.5, ..happened() };
    assert!(mandatory(&d, &far, Doing::default()).is_empty());
}

// Checks WRG-RT-03, WRG-RT-04.
#[test]
fn wrg_rt_03_04_charged_and_before_contact() {
    let d = data();
    let h = Happened { charged: true, ordered_to_contact: true, ..happened() };
    assert_eq!(mandatory(&d, &h, Doing::default()), [Trigger::Charged, Trigger::BeforeContact]);
}

// Checks WRG-RT-05.
#[test]
fn wrg_rt_05_friend_broke_unless_fighting() {
    let d = data();
    let h = Happened { friends_broke_within: 1, ..happened() };
    assert_eq!(mandatory(&d, &h, Doing::default()), [Trigger::FriendBroke]);
    assert!(mandatory(&d, &h, Doing { in_close_combat: true, ..Default::default() }).is_empty());
}

// Checks WRG-RT-06.
#[test]
fn wrg_rt_06_three_figures_to_missiles() {
    let d = data();
    assert!(
        mandatory(&d, &Happened { missile_figures_lost: 2, ..happened() }, Doing::default())
            .is_empty()
    );
    assert_eq!(
        mandatory(&d, &Happened { missile_figures_lost: 3, ..happened() }, Doing::default()),
        [Trigger::MissileLosses]
    );
}

// Checks WRG-RT-07.
#[test]
fn wrg_rt_07_below_half_at_once_even_when_fighting() {
    let d = data();
    let h = Happened { figures_before: 7, figures_after: 5, ..happened() };
    let t = mandatory(&d, &h, Doing { in_close_combat: true, ..Default::default() });
    assert_eq!(t, [Trigger::BelowHalf]);
    assert!(Trigger::BelowHalf.at_once());
    assert!(falls_below_half(12, 6, 5));
    assert!(!falls_below_half(12, 7, 6));
    assert!(!falls_below_half(12, 5, 4));
}

// Checks WRG-RT-08.
#[test]
fn wrg_rt_08_in_close_fight_only_friends_within_three() {
    let s = Situation {
        friends_within: 4,
        other_friends_in_sight: true,
        friends_routing_within: 1,
        enemies_facing_within: 1,
        ..Default::default()
    };
    let c = s.in_close_fight(1);
    assert_eq!(c.friends_within, 1);
    assert!(!c.other_friends_in_sight);
    assert_eq!(c.friends_routing_within, 0);
    assert_eq!(c.enemies_facing_within, 1);
}

// Checks WRG-RT-09.
#[test]
fn wrg_rt_09_below_half_worse_than_halt_leaves_or_surrenders() {
    assert_eq!(
        below_half_consequence(Effect::Retire { periods: 2 }, false, false),
        BelowHalf::LeavesField
    );
    assert_eq!(below_half_consequence(Effect::Break, true, true), BelowHalf::Surrenders);
    assert_eq!(below_half_consequence(Effect::Break, true, false), BelowHalf::LeavesField);
    assert_eq!(below_half_consequence(Effect::Halt { periods: 2 }, true, true), BelowHalf::AsRead);
}

// Checks WRG-RT-10.
#[test]
fn wrg_rt_10_holders_stay_below_their_uncontrolled_threshold() {
    let d = data();
    assert!(holders_stay(&d, C::A, 16));
    assert!(!holders_stay(&d, C::A, 17));
    assert!(holders_stay(&d, C::C, 15));
    assert!(!holders_stay(&d, C::C, 16));
    assert!(holders_stay(&d, C::E, 13));
    assert!(!holders_stay(&d, C::E, 14));
}

// Checks WRG-RT-11.
#[test]
fn wrg_rt_11_end_of_period_tests() {
    for t in [
        Trigger::FirstContactRange,
        Trigger::BeforeContact,
        Trigger::FriendBroke,
        Trigger::MissileLosses,
    ] {
        assert!(!t.at_once(), "{t:?}");
    }
    assert!(Trigger::Charged.at_once());
}

// Checks WRG-RT-12.
#[test]
fn wrg_rt_12_test_where_the_charge_bonus_starts() {
    // Heavy cavalry (8" normal) charging from 14" away: the target tests after 8".
    assert_eq!(charge_test_point(8.0, 14.0), Some(8.0));
    // Across an obstacle the normal part shrinks to 2": test at 2".
    assert_eq!(charge_test_point(2.0, 14.0), Some(2.0));
}

// Checks WRG-RT-13.
#[test]
fn wrg_rt_13_no_test_when_contact_within_the_normal_move() {
    assert_eq!(charge_test_point(8.0, 7.5), None);
    assert_eq!(charge_test_point(8.0, 8.0), None);
}

// Checks WRG-ORD-08.
#[test]
fn wrg_ord_08_countercharge_needs_six_and_carry_on() {
    let hc = TroopType::HeavyCavalry;
    assert!(may_countercharge(hc, hc, true, false, 6, Effect::CarryOn, false));
    assert!(!may_countercharge(hc, hc, true, false, 5, Effect::CarryOn, false));
    assert!(!may_countercharge(hc, hc, true, false, 7, Effect::Halt { periods: 2 }, false));
    assert!(!may_countercharge(hc, hc, true, true, 9, Effect::CarryOn, false));
    assert!(!may_countercharge(
        hc,
        TroopType::HeavyInfantry,
        true,
        false,
        9,
        Effect::CarryOn,
        false
    ));
    assert!(!may_countercharge(hc, hc, false, false, 9, Effect::CarryOn, false));
}

// Checks WRG-RDEF-01, WRG-RDEF-02.
// Checks WRG-DIS-14.
#[test]
fn wrg_dis_14_falling_back_cavalry_cannot_countercharge() {
    let hc = TroopType::HeavyCavalry;
    assert!(may_countercharge(hc, hc, true, false, 9, Effect::CarryOn, false));
    assert!(!may_countercharge(hc, hc, true, false, 9, Effect::CarryOn, true));
}

// Checks WRG-DIS-12.
#[test]
fn wrg_dis_12_reaction_results_that_disorganise() {
    assert!(Effect::Retire { periods: 2 }.disorganises());
    assert!(Effect::HaltDisorganised { periods: 1 }.disorganises());
    assert!(!Effect::Halt { periods: 2 }.disorganises());
    assert!(!Effect::Retreat { periods: 3 }.disorganises());
    assert!(!Effect::FallBack { periods: 2 }.disorganises());
}

// Checks WRG-CHORD-11.
#[test]
fn wrg_chord_11_the_general_steadies_but_the_unit_still_tests() {
    // A unit with its C-in-C throws its test like any other, with the +/-3 factor.
    let s = Situation { general_with_unit: true, ..Default::default() };
    let o = test_with(s, BTreeMap::from([(F::GeneralWithUnit, Sign::Plus)]), true);
    assert_eq!(o.dice_count, 3);
    assert!(o.factors.iter().any(|a| a.rule == "WRG-RFAC-26" && a.delta == 3));
}

// Checks WRG-RDEF-01, WRG-RDEF-02.
#[test]
fn wrg_rdef_01_02_within_standard_to_standard_in_view() {
    let a = Vec2::new(0.0, 0.0);
    let b = Vec2::new(9.0, 12.0); // 15" away
    assert!(counts_within(a, b, 15.0, true, false));
    assert!(!counts_within(a, Vec2::new(9.0, 12.1), 15.0, true, false));
    assert!(!counts_within(a, b, 15.0, false, false));
    assert!(!counts_within(a, b, 15.0, true, true));
}

fn sup() -> Supporter {
    Supporter {
        distance: 5.0,
        normal_move: 6.0,
        disorganised: false,
        figures: 6,
        in_close_combat: false,
        can_move_up: true,
    }
}

// Checks WRG-RDEF-03.
#[test]
fn wrg_rdef_03_rear_support() {
    assert!(supports(&sup(), 12));
    assert!(!supports(&Supporter { figures: 5, ..sup() }, 12));
    assert!(!supports(&Supporter { distance: 7.0, ..sup() }, 12));
    assert!(!supports(&Supporter { disorganised: true, ..sup() }, 12));
    assert!(!supports(&Supporter { in_close_combat: true, ..sup() }, 12));
    assert!(!supports(&Supporter { can_move_up: false, ..sup() }, 12));
}

// Checks WRG-RDEF-04.
#[test]
fn wrg_rdef_04_secure_flank() {
    assert!(flank_secure(
        &FlankGuard { friendly_cover_within_one: true, ..Default::default() },
        12
    ));
    assert!(flank_secure(&FlankGuard { impassable: true, ..Default::default() }, 12));
    assert!(flank_secure(&FlankGuard { neighbour: Some(sup()), ..Default::default() }, 12));
    assert!(!flank_secure(
        &FlankGuard {
            neighbour: Some(Supporter { disorganised: true, ..sup() }),
            ..Default::default()
        },
        12
    ));
    assert!(!flank_secure(&FlankGuard::default(), 12));
}

// Checks WRG-RDEF-05, WRG-RDEF-06.
#[test]
fn wrg_rdef_05_06_friendly_and_unfriendly_cover() {
    assert!(cover_is_friendly(CoverKnown::HeldByFriends));
    assert!(cover_is_friendly(CoverKnown::KnownEmpty));
    assert!(!cover_is_friendly(CoverKnown::HeldByEnemy));
    assert!(!cover_is_friendly(CoverKnown::Unknown));
}

#[test]
fn r17_engine_signs_aim_for_the_middle_of_carry_on() {
    // Class C carry on is 6..13, middle 9.5. Dice 10 with the General: +3 gives 13, -3 gives 7:
    // 13 is 3.5 away, 7 is 2.5 away: minus.
    let o = test_with(
        Situation { general_with_unit: true, ..Default::default() },
        BTreeMap::new(),
        true,
    );
    assert_eq!(o.score, 7);
    // A weak unit (dice 10, -6 of factors) takes the plus.
    let weak =
        Situation { general_with_unit: true, enemies_facing_within: 6, ..Default::default() };
    assert_eq!(test_with(weak, BTreeMap::new(), true).score, 7);
}

#[test]
fn dice_count_and_faces_are_checked() {
    let d = data();
    let mut t = Test {
        class: C::C,
        status: Status::Regular,
        levy: false,
        start_figures: 12,
        figures: 7,
        has_order: true,
        under_attack: false,
        pursuing: false,
        situation: Situation::default(),
        dice: vec![3, 3, 4],
        signs: BTreeMap::new(),
    };
    assert_eq!(work_out(&d, &t).unwrap_err().rule, "WRG-RTP-02");
    t.dice = vec![1, 3];
    assert_eq!(work_out(&d, &t).unwrap_err().rule, "WRG-RTP-01");
    t.dice = vec![2, 3];
    assert_eq!(work_out(&d, &t).unwrap().dice_count, 2);
}
