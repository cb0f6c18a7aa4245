//! The shooting part of a period on the table: targets, figures in reach, dice, and the
//! losses applied together.
use tabletop::diagnostics::Source;
use tabletop::dice::ScriptedDice;
use tabletop::geometry::{Facing, Vec2};
use wrg1969::Data;
use wrg1969::fire_phase::{Mark, Moments, apply_shots, figures_in_reach, shoot_all};
use wrg1969::model::MissileWeapon;
use wrg1969::orders::{Order, Verb};
use wrg1969::state::*;

fn hill() -> (Data, State) {
    let d = Data::embedded().unwrap();
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let text = std::fs::read_to_string(format!("{root}/scenarios/wrg1969/the_hill.toml")).unwrap();
    let sc = wrg1969::scenario::load(&d, &Source::new("the_hill.toml", text)).unwrap();
    (d, setup(&sc))
}

fn hold_fire(st: &mut State, id: usize) {
    let o = Order { hold_fire: true, ..Order::new(Verb::Hold { at: None }) };
    st.units[id].standing = wrg1969::orders::Standing::Active { order: o };
}

#[test]
fn scenario_orders_name_enemy_units_by_their_ids_in_play() {
    let (_, st) = hill();
    // The Balearic slingers skirmish against the British slingers (list index 4, id 14).
    assert!(matches!(st.units[5].standing.order().unwrap().verb, Verb::Skirmish { unit: 14 }));
    assert!(matches!(st.units[10].standing.order().unwrap().verb, Verb::Attack { unit: 6 }));
}

// Checks WRG-FIRE-07, WRG-ORD-07.
#[test]
fn slingers_shoot_the_nearest_warband_in_reach() {
    let (d, mut st) = hill();
    hold_fire(&mut st, 4);
    hold_fire(&mut st, 9);
    // A warband 8.9" in front of the slingers, facing them.
    st.units[11].at = Vec2::new(34.0, 20.0);
    // Their named target (the British slingers) is out of range: they take the nearest.
    let mut dice = ScriptedDice::new([2, 5]);
    let shots = shoot_all(&d, &st, &Moments::default(), &mut dice);
    assert_eq!(shots.len(), 1, "{shots:?}");
    let s = &shots[0];
    assert_eq!(
        (s.shooter, s.target, s.weapon, s.figures),
        (5, Mark::Unit(11), MissileWeapon::Sling, 12)
    );
    // Sling against medium infantry 3, black higher +1: total 4, 12 figures: 24 men.
    assert_eq!((s.total, s.men), (4, 24));
    assert_eq!(s.rolls.len(), 2);
    assert_eq!(s.rolls[0].rule.as_str(), "WRG-RAND-01");
    let hits = apply_shots(&d, &mut st, &shots);
    assert_eq!(hits[0].figures_removed, 1);
    assert_eq!((st.units[11].block.figures, st.units[11].carried), (39, 4));
    assert!(!hits[0].must_test);
    assert_eq!(hits[0].shot_at_by, 12);
}

// Checks WRG-FIRE-03.
#[test]
fn only_figures_in_range_and_arc_count() {
    let (d, mut st) = hill();
    // The warband off to the slingers' right front: only some figures reach it.
    st.units[11].at = Vec2::new(46.0, 21.0);
    let n = figures_in_reach(&d, &st, &st.units[5], &st.units[11], 12.0, MissileWeapon::Sling);
    assert!(n > 0 && n < 12, "{n}");
    st.units[11].at = Vec2::new(34.0, 23.5);
    assert_eq!(
        figures_in_reach(&d, &st, &st.units[5], &st.units[11], 12.0, MissileWeapon::Sling),
        0
    );
}

// Checks WRG-TAC-04, WRG-TAC-05.
#[test]
fn a_galloping_unshielded_target() {
    let (d, mut st) = hill();
    hold_fire(&mut st, 4);
    hold_fire(&mut st, 9);
    // The British light horse gallop across the slingers' front, 8" away, shields on the
    // wrong side: they pass from the slingers' left to right, showing their right flank.
    st.units[15].at = Vec2::new(34.0, 20.0);
    st.units[15].facing = Facing::from_bearing_degrees(90.0);
    st.units[15].moved = 16.0;
    let mut dice = ScriptedDice::new([3, 5]);
    let shots = shoot_all(&d, &st, &Moments::default(), &mut dice);
    let s = &shots[0];
    assert_eq!(s.target, Mark::Unit(15));
    let rules: Vec<&str> = s.factors.iter().map(|a| a.rule.as_str()).collect();
    assert!(rules.contains(&"WRG-TAC-04") && rules.contains(&"WRG-TAC-05"), "{rules:?}");
    // Sling against light cavalry 1, -1 moving, +1 unshielded, +1 dice: 2.
    assert_eq!(s.total, 2);
}

// Checks WRG-FIRE-14, WRG-FIRE-10, WRG-FIRE-12, WRG-TAC-01, WRG-RFAC-16.
#[test]
fn engines_and_archers_join_in_and_losses_come_off_together() {
    let (d, mut st) = hill();
    st.units[11].at = Vec2::new(34.0, 20.0);
    st.units[11].carried = 19;
    // With the slingers in front of the legion too, the archers would shoot over two units:
    // not allowed (WRG-FIRE-12).
    let mut dice = ScriptedDice::new([1, 6, 1, 6, 1, 6, 1, 6, 1, 6]);
    let shots = shoot_all(&d, &st, &Moments::default(), &mut dice);
    assert_eq!(shots.iter().map(|s| s.shooter).collect::<Vec<_>>(), vec![5, 9]);
    // The slingers step aside and hold their shot.
    st.units[5].at = Vec2::new(12.0, 10.0);
    hold_fire(&mut st, 5);
    let mut dice = ScriptedDice::new([1, 6, 1, 6, 1, 6, 1, 6, 1, 6]);
    let shots = shoot_all(&d, &st, &Moments::default(), &mut dice);
    // Archers (4) and scorpions (9), each with one pair of dice.
    assert_eq!(shots.iter().map(|s| s.shooter).collect::<Vec<_>>(), vec![4, 9]);
    assert_eq!(dice.used, 4);
    // The regular archers shoot over the second cohort in front of them, at -1.
    let archers = &shots[0];
    assert!(archers.factors.iter().any(|a| a.rule == "WRG-TAC-01"), "{:?}", archers.factors);
    // Bow against MI 3, -1 overhead, +1 dice: 3; both ranks, 12 figures: 19 men
    // (WRG-FIRE-13).
    assert_eq!((archers.figures, archers.total, archers.men), (12, 3, 19));
    // The scorpions count as 5 crossbowmen each: crossbow against MI 1, +1: 2; 10: 13 men.
    let scorpions = &shots[1];
    assert_eq!(
        (scorpions.weapon, scorpions.figures, scorpions.men),
        (MissileWeapon::Crossbow, 10, 13)
    );
    let hits = apply_shots(&d, &mut st, &shots);
    // 19 carried + 19 + 13 = 51 men: 2 figures off, 11 carried.
    assert_eq!(hits[0].men, 32);
    assert_eq!((hits[0].figures_removed, st.units[11].carried), (2, 11));
    assert_eq!(st.units[11].block.figures, 38);
    assert_eq!(hits[0].shot_at_by, 12 + 10);
}

// Checks WRG-RT-06.
#[test]
fn three_figures_lost_to_missiles_call_for_a_test() {
    let (d, mut st) = hill();
    let shot = |men| wrg1969::fire_phase::Shot {
        shooter: 5,
        target: Mark::Unit(11),
        step: 20,
        weapon: MissileWeapon::Sling,
        figures: 12,
        counted: vec![],
        rolls: vec![],
        factors: vec![],
        total: 0,
        reading: wrg1969::casualty::men_lost(&d, 0, 12),
        men,
        rules: vec![],
    };
    let hits = apply_shots(&d, &mut st, &[shot(30), shot(29)]);
    assert_eq!((hits[0].figures_removed, hits[0].must_test), (2, false));
    let hits = apply_shots(&d, &mut st, &[shot(21)]);
    // 19 carried + 21 = 40: two more, but only this period's count matters.
    assert_eq!((hits[0].figures_removed, hits[0].must_test), (2, false));
    let hits = apply_shots(&d, &mut st, &[shot(60)]);
    assert_eq!((hits[0].figures_removed, hits[0].must_test), (3, true));
}

// Checks WRG-FIRE-08, WRG-FIRE-09.
#[test]
fn light_horse_cannot_shoot_through_their_own_foot() {
    let (d, mut st) = hill();
    // Horse archers would be needed to test cavalry over infantry: the Numidians (javelins,
    // 3") stand behind the slingers with the warband just beyond.
    st.units[8].at = Vec2::new(34.0, 12.0);
    st.units[5].at = Vec2::new(34.0, 13.6);
    st.units[11].at = Vec2::new(34.0, 15.5);
    let n = figures_in_reach(&d, &st, &st.units[8], &st.units[11], 6.0, MissileWeapon::HandHurled);
    assert_eq!(n, 0);
    // With the slingers gone the Numidians reach the warband.
    st.units[5].at = Vec2::new(60.0, 3.0);
    assert!(
        figures_in_reach(&d, &st, &st.units[8], &st.units[11], 6.0, MissileWeapon::HandHurled) > 0
    );
}

// Checks WRG-FIRE-02.
#[test]
fn ammunition_never_runs_out() {
    let (d, mut st) = hill();
    hold_fire(&mut st, 4);
    hold_fire(&mut st, 9);
    st.units[11].at = Vec2::new(34.0, 20.0);
    // Period after period the slingers shoot as fully as at first.
    for _ in 0..20 {
        let mut dice = ScriptedDice::new([3, 3]);
        let shots = shoot_all(&d, &st, &Moments::default(), &mut dice);
        assert_eq!((shots.len(), shots[0].figures), (1, 12));
        st.units[11].block.figures = 40;
    }
}
