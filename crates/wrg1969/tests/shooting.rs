//! Shooting played through the game at the wells and the ford: the moment of the period a unit
//! shoots at, who may shoot while moving, charging or retreating, overhead fire, crew-served
//! weapons, engines and beasts as targets, cover, and the General alone (WRG-FIRE, WRG-TAC,
//! WRG-GEN-03). Each test sets units where it needs them, plays a period and reads the log.

mod common;

use common::*;
use tabletop::rules::Side::{Blue, Red};
use wrg1969::orders::{Objective, Order, Verb};
use wrg1969::plan::{Plan, Step, UnitMove};
use wrg1969::report::Fact;

fn hold() -> Order {
    Order::new(Verb::Hold { at: None })
}

fn advance(x: f64, y: f64) -> Order {
    Order::new(Verb::Advance { to: Objective::Point { x, y } })
}

/// The Roman slingers facing north at the wells, everyone else quiet, the royal horse archers
/// and the cataphracts out of the way.
fn slingers_at_the_wells() -> Setup {
    load("the_wells.toml")
        .quiet()
        .put(Red, "Balearic slingers", 36.0, 16.0, 0.0, 12)
        .order(Red, "Balearic slingers", hold())
        .put(Blue, "Royal horse archers", 6.0, 40.0, 180.0, 8)
        .put(Blue, "Cataphracts of the Suren", 24.0, 44.0, 180.0, 8)
}

// Checks WRG-FIRE-01, WRG-TAC-04.
#[test]
fn wrg_fire_01_a_target_that_rides_out_of_range_is_shot_while_it_was_near() {
    // Horse archers 6" in front of the slingers ride 10" away: out of sling range by the end
    // of the move, in it at its start.
    let mut g = slingers_at_the_wells()
        .put(Blue, "Horse archers of the right", 36.0, 26.0, 180.0, 4)
        .order(Blue, "Horse archers of the right", advance(36.0, 36.0))
        .game(3);
    let (slingers, archers) = (id(&g, "Balearic slingers"), id(&g, "Horse archers of the right"));
    let notes = quiet_period(&mut g);
    let shots = shots(&notes);
    let shot = shots.iter().find(|s| s.1 == slingers).expect("the slingers shoot");
    assert_eq!(shot.2, Some(archers));
    // Taken while the horse archers were still in range, not where they ended.
    assert!(shot.3 < 20, "shot at step {}", shot.3);
    assert!(shot.0.text.contains(&format!("at step {} of 20", shot.3)), "{}", shot.0.text);
    assert!(cites(shot.0, "WRG-FIRE-01"));
    // They moved 10": -1 (WRG-TAC-04).
    assert_eq!(part(shot.0, "WRG-TAC-04"), Some(-1.0));
    // Where they ended, nothing of the slingers reaches them.
    let d = wrg1969::Data::embedded().unwrap();
    let st = g.state();
    let n = wrg1969::fire_phase::figures_in_reach(
        &d,
        st,
        &st.units[slingers as usize],
        &st.units[archers as usize],
        12.0,
        wrg1969::model::MissileWeapon::Sling,
    );
    assert_eq!(n, 0);
}

// Checks WRG-FIRE-04.
#[test]
fn wrg_fire_04_a_unit_does_not_shoot_while_it_charges() {
    // The Thracian horse (javelins) charge the horse archers 10" off; they do not shoot on the
    // way in, while the slingers, standing, do.
    let mut g = slingers_at_the_wells()
        .put(Red, "Ala I Thracum", 50.0, 20.0, 0.0, 6)
        .order(Red, "Ala I Thracum", attack(2))
        .put(Blue, "Horse archers of the left", 50.0, 30.0, 180.0, 10)
        .order(Blue, "Horse archers of the left", Order { no_evade: true, ..hold() })
        .game(5);
    let ala = id(&g, "Ala I Thracum");
    let notes = quiet_period(&mut g);
    assert!(notes.iter().any(|n| n.text.contains("Ala I Thracum charge")), "no charge");
    assert!(shots(&notes).iter().all(|s| s.1 != ala), "the chargers shot");
}

// Checks WRG-FIRE-05, WRG-FIRE-14.
#[test]
fn wrg_fire_05_engines_shoot_only_when_they_stood_still() {
    let setup = || {
        slingers_at_the_wells()
            .order(Red, "Balearic slingers", Order { hold_fire: true, ..hold() })
            .put(Red, "Scorpions", 50.0, 12.0, 0.0, 2)
            .order(Red, "Scorpions", advance(50.0, 30.0))
            .put(Blue, "Levy slingers", 50.0, 36.0, 180.0, 10)
    };
    // Moving up, the scorpions do not shoot.
    let mut g = setup().game(1);
    let scorpions = id(&g, "Scorpions");
    let notes = quiet_period(&mut g);
    assert!(g.state().units[scorpions as usize].moved > 0.0);
    assert!(shots(&notes).iter().all(|s| s.1 != scorpions));
    // Standing, they do, as 5 crossbowmen each (WRG-FIRE-14).
    let mut g = setup().order(Red, "Scorpions", hold()).game(1);
    let notes = quiet_period(&mut g);
    let shot = shots(&notes).into_iter().find(|s| s.1 == scorpions).expect("they shoot");
    assert_eq!(shot.4, 10);
    assert!(cites(shot.0, "WRG-FIRE-05") && cites(shot.0, "WRG-FIRE-14"));
    assert_eq!(part(shot.0, "WRG-FIRE-14"), Some(8.0));
}

// Checks WRG-FIRE-06.
#[test]
fn wrg_fire_06_horse_archers_shoot_behind_as_they_evade() {
    // The Thracian horse charge the horse archers 17" off; the horse archers, skirmishing,
    // evade 10" and shoot back over their shoulders at the horse still coming on.
    let mut g = slingers_at_the_wells()
        .put(Red, "Ala I Thracum", 8.0, 26.0, 90.0, 6)
        .order(Red, "Ala I Thracum", attack(1))
        .put(Blue, "Horse archers of the right", 30.25, 26.0, 270.0, 4)
        .order(Blue, "Horse archers of the right", Order::new(Verb::Skirmish { unit: 6 }))
        .game(2);
    let (ala, archers) = (id(&g, "Ala I Thracum"), id(&g, "Horse archers of the right"));
    let notes = quiet_period(&mut g);
    assert!(notes.iter().any(|n| n.text.contains("evade")), "no evade");
    let shot = shots(&notes).into_iter().find(|s| s.1 == archers).expect("they shoot");
    assert_eq!(shot.2, Some(ala));
    assert!(cites(shot.0, "WRG-FIRE-06"), "{}", shot.0.describe());
    // Their figures shoot from the side facing the enemy, which is now behind them.
    let u = &g.state().units[archers as usize];
    assert!(u.facing.vector().x > 0.9, "they ran east: {:?}", u.facing);
}

// Checks WRG-FIRE-10, WRG-FIRE-13, WRG-TAC-01.
#[test]
fn wrg_fire_10_regular_archers_shoot_from_the_second_rank_over_the_first() {
    // The Hamian archers, regular medium foot with composite bows, 6 abreast in 2 ranks.
    let mut g = slingers_at_the_wells()
        .order(Red, "Balearic slingers", Order { hold_fire: true, ..hold() })
        .put(Red, "Cohors I Hamiorum sagittariorum", 24.0, 14.0, 0.0, 6)
        .order(Red, "Cohors I Hamiorum sagittariorum", hold())
        .put(Blue, "Levy slingers", 24.0, 28.0, 180.0, 10)
        .game(4);
    let hamii = id(&g, "Cohors I Hamiorum sagittariorum");
    let notes = quiet_period(&mut g);
    let shot = shots(&notes).into_iter().find(|s| s.1 == hamii).expect("they shoot");
    assert_eq!(shot.4, 12, "both ranks shoot");
    assert_eq!(part(shot.0, "WRG-FIRE-13"), Some(6.0));
    assert_eq!(part(shot.0, "WRG-TAC-01"), Some(-1.0));
    assert!(cites(shot.0, "WRG-FIRE-10"));
}

// Checks WRG-FIRE-11, WRG-FIRE-12.
#[test]
fn wrg_fire_11_overhead_fire_never_falls_on_an_engaged_front_rank() {
    // The archers stand behind the Batavian cohort; the levy slingers stand 2" beyond it, or
    // touch it, fighting.
    let setup = |gap: f64| {
        slingers_at_the_wells()
            .order(Red, "Balearic slingers", Order { hold_fire: true, ..hold() })
            .put(Red, "Cohors I Hamiorum sagittariorum", 24.0, 14.0, 0.0, 8)
            .order(Red, "Cohors I Hamiorum sagittariorum", hold())
            .put(Red, "Cohors I Batavorum", 24.0, 17.0, 0.0, 8)
            .put(Blue, "Levy slingers", 24.0, 18.5 + gap, 180.0, 10)
    };
    let mut g = setup(2.0).game(4);
    let hamii = id(&g, "Cohors I Hamiorum sagittariorum");
    let notes = quiet_period(&mut g);
    let shot = shots(&notes).into_iter().find(|s| s.1 == hamii).expect("over the cohort");
    assert!(cites(shot.0, "WRG-FIRE-12"), "over one friendly unit: {}", shot.0.describe());
    assert_eq!(part(shot.0, "WRG-TAC-01"), Some(-1.0));
    let mut g = setup(0.0).game(4);
    let notes = quiet_period(&mut g);
    assert!(shots(&notes).iter().all(|s| s.1 != hamii), "onto the engaged front rank");
}

// Checks WRG-FIRE-09, WRG-FIRE-14, WRG-FIRE-15.
#[test]
fn wrg_fire_09_elephant_crews_shoot_over_their_own_foot_and_lose_whole_elephants() {
    // At the ford the elephants stand behind the Libyan spearmen with the Spartiates beyond.
    let mut g = load("the_ford.toml")
        .quiet()
        .put(Blue, "Libyan spearmen", 37.0, 30.0, 180.0, 8)
        .put(Blue, "Elephants", 37.0, 33.0, 180.0, 4)
        .order(Blue, "Elephants", hold())
        .put(Red, "Spartiates", 37.0, 20.0, 0.0, 8)
        .put(Red, "Cretan archers", 37.0, 16.0, 0.0, 12)
        .order(Red, "Cretan archers", hold())
        .game(6);
    let elephants = id(&g, "Elephants");
    let notes = quiet_period(&mut g);
    let shot = shots(&notes).into_iter().find(|s| s.1 == elephants).expect("they shoot");
    assert!(cites(shot.0, "WRG-FIRE-09"), "{}", shot.0.describe());
    // Three self bows for each elephant (WRG-FIRE-14).
    assert_eq!(shot.4 % 3, 0);
    // Whatever the Cretans did to the elephants comes off whole beasts (WRG-FIRE-15).
    let lost = notes
        .iter()
        .find(|n| matches!(n.fact, Some(Fact::Losses { unit, .. }) if unit == elephants));
    if let Some(n) = lost {
        assert!(cites(n, "WRG-FIRE-15"));
    }
}

// Checks WRG-FIRE-08.
#[test]
fn wrg_fire_08_from_the_knoll_over_lower_troops() {
    // The Cretan archers (light foot, who cannot shoot over troops on the level) stand on the
    // shrine knoll and shoot over the Thessalian horse below at the Spanish cavalry.
    let mut g = load("the_ford.toml")
        .quiet()
        .put(Red, "Cretan archers", 12.0, 17.0, 0.0, 8)
        .order(Red, "Cretan archers", hold())
        .put(Red, "Thessalian horse", 12.0, 21.5, 0.0, 4)
        .put(Blue, "Spanish cavalry", 12.0, 28.0, 180.0, 5)
        .game(8);
    let cretans = id(&g, "Cretan archers");
    let notes = quiet_period(&mut g);
    let shot = shots(&notes).into_iter().find(|s| s.1 == cretans).expect("they shoot");
    assert!(cites(shot.0, "WRG-FIRE-08"), "{}", shot.0.describe());
    assert_eq!(part(shot.0, "WRG-TAC-07"), Some(1.0), "from higher ground");
}

// Checks WRG-FIRE-16, WRG-TAC-02.
#[test]
fn wrg_fire_16_engines_are_hit_as_light_infantry_and_stone_throwers_ignore_cover() {
    let setup = |stone: bool| {
        let mut s = slingers_at_the_wells()
            .put(Red, "Balearic slingers", 60.0, 16.0, 0.0, 12)
            .order(Red, "Balearic slingers", Order { hold_fire: true, ..hold() })
            .put(Red, "Scorpions", 36.0, 17.0, 0.0, 2)
            .order(Red, "Scorpions", hold())
            .put(Blue, "Horse archers of the right", 66.0, 40.0, 180.0, 4)
            .put(Blue, "Horse archers of the left", 68.0, 36.0, 180.0, 4)
            .put(Blue, "Levy archers", 36.0, 31.5, 180.0, 15)
            .order(Blue, "Levy archers", hold());
        if stone {
            let i = s.index(Red, "Scorpions");
            let u = &mut s.sc.sides[0].army.units[i];
            u.troop = wrg1969::model::TroopType::StoneThrower;
            u.missile = Some(wrg1969::model::MissileWeapon::StoneThrower);
        }
        s
    };
    // The levy archers in the village of the wells, in cover, shoot at the scorpions.
    let mut g = setup(false).game(9);
    let (scorpions, levy) = (id(&g, "Scorpions"), id(&g, "Levy archers"));
    let notes = quiet_period(&mut g);
    let levy_shot = shots(&notes).into_iter().find(|s| s.1 == levy).expect("the levy shoot");
    assert_eq!(levy_shot.2, Some(scorpions));
    assert!(cites(levy_shot.0, "WRG-FIRE-16"));
    assert!(levy_shot.0.describe().contains("column LI"), "{}", levy_shot.0.describe());
    let engine = shots(&notes).into_iter().find(|s| s.1 == scorpions).expect("they shoot back");
    assert_eq!(
        part(engine.0, "WRG-TAC-02"),
        Some(-1.0),
        "the levy are in cover: {}",
        engine.0.describe()
    );
    // A stone-thrower takes no deduction for the cover.
    let mut g = setup(true).game(9);
    let notes = quiet_period(&mut g);
    let engine = shots(&notes).into_iter().find(|s| s.1 == scorpions).expect("it shoots");
    assert_eq!(part(engine.0, "WRG-TAC-02"), None, "{}", engine.0.describe());
    assert_eq!(engine.4, 6, "a stone-thrower shoots as 3 crossbowmen");
}

// Checks WRG-GEN-03.
#[test]
fn wrg_gen_03_the_general_alone_may_be_shot_at() {
    // The Parthian General rides alone 8" in front of the slingers, far from his units.
    let setup = |x: f64| slingers_at_the_wells().general(Blue, x, 25.0);
    let mut g = setup(36.0).game(11);
    let slingers = id(&g, "Balearic slingers");
    let notes = quiet_period(&mut g);
    let shot = notes
        .iter()
        .find(|n| matches!(n.fact, Some(Fact::Shot { general: Some(Blue), .. })))
        .expect("the slingers single him out");
    assert!(cites(shot, "WRG-GEN-03"));
    assert!(matches!(shot.fact, Some(Fact::Shot { shooter, .. }) if shooter == slingers));
    let losses = g.state().generals[1].risk.losses;
    let men = match shot.fact {
        Some(Fact::Shot { men, .. }) => men,
        _ => 0,
    };
    assert!((losses - men as f64).abs() < 1e-9);
    if men > 0 {
        assert!(notes.iter().any(|n| n.text.contains("blue's General, alone, loses")));
    }
    // With a unit of his within 5" he may not be singled out.
    let mut g = setup(36.0)
        .put(Blue, "Levy slingers", 36.0, 28.5, 180.0, 10)
        .order(Blue, "Levy slingers", Order { hold_fire: true, ..hold() })
        .game(11);
    let notes = quiet_period(&mut g);
    assert!(notes.iter().all(|n| !matches!(n.fact, Some(Fact::Shot { general: Some(_), .. }))));
}

// Checks WRG-ORD-07.
#[test]
fn wrg_ord_07_missile_troops_shoot_unless_their_orders_forbid() {
    let mut g = slingers_at_the_wells().put(Blue, "Levy slingers", 36.0, 26.0, 180.0, 10).game(12);
    let slingers = id(&g, "Balearic slingers");
    let notes = quiet_period(&mut g);
    let shot = shots(&notes).into_iter().find(|s| s.1 == slingers).expect("they shoot");
    assert!(cites(shot.0, "WRG-ORD-07"));
    // Told to hold their shot, they do not.
    let mut g = slingers_at_the_wells()
        .order(Red, "Balearic slingers", Order { hold_fire: true, ..hold() })
        .put(Blue, "Levy slingers", 36.0, 26.0, 180.0, 10)
        .game(12);
    let notes = quiet_period(&mut g);
    assert!(shots(&notes).iter().all(|s| s.1 != slingers));
}

#[test]
fn a_directed_move_is_shot_at_where_it_passes() {
    // Sanity for plans: a planned move of the horse archers across the front.
    let mut g = slingers_at_the_wells()
        .put(Blue, "Horse archers of the left", 50.0, 28.0, 180.0, 4)
        .order(Blue, "Horse archers of the left", advance(50.0, 40.0))
        .game(13);
    let archers = id(&g, "Horse archers of the left");
    let plan =
        Plan { moves: vec![UnitMove { unit: archers, step: Step::Halt }], ..Plan::default() };
    let notes = period(&mut g, Plan::default(), plan);
    assert!(notes.iter().all(|n| n.totals.iter().all(|t| t.adds_up())));
}
