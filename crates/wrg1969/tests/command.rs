//! Command played through the game at the wells: the General's rides at his figure's pace with
//! one gallop a trip, joining a unit and ordering it at once, messengers riding, arriving and
//! caught, signals, halts, and orders crossed out (WRG-CHORD, WRG-ORD, WRG-GEN-01, -02).

mod common;

use common::*;
use tabletop::geometry::Point;
use tabletop::rules::Side::{Blue, Red};
use tabletop::rules::{Actor, RuleSet};
use wrg1969::orders::{Objective, Order, Verb};
use wrg1969::plan::{Dictation, GeneralMove, Plan, Step, UnitMove};
use wrg1969::report::{Fact, Note, Rider};
use wrg1969::{Command, Wrg1969};

fn ride(x: f64, y: f64) -> Plan {
    Plan { general: Some(GeneralMove { x, y, join: None }), ..Plan::default() }
}

fn refused(g: &tabletop::game::Game<Wrg1969>, plan: Plan) -> Option<String> {
    g.rules()
        .check(g.state(), Actor::Side(Red), &Command::Plan(plan))
        .err()
        .map(|e| e.rule.as_str().to_string())
}

fn rode(notes: &[Note]) -> Vec<(&Note, f64, f64)> {
    notes
        .iter()
        .filter_map(|n| match n.fact {
            Some(Fact::Rode { rider: Rider::General { side: Red }, spent, allowance, .. }) => {
                Some((n, spent, allowance))
            }
            _ => None,
        })
        .collect()
}

/// The wells, all quiet, with the Parthian levy slingers standing in sight of the Roman
/// General, something for new orders to answer (WRG-CHORD-01).
fn in_sight() -> Setup {
    load("the_wells.toml").quiet().put(Blue, "Levy slingers", 20.0, 15.0, 180.0, 10)
}

fn advance(x: f64, y: f64) -> Order {
    Order::new(Verb::Advance { to: Objective::Point { x, y } })
}

// Checks WRG-CHORD-04, WRG-CHORD-03, WRG-M-01, WRG-R-42, WRG-TERR-04.
#[test]
fn wrg_chord_04_the_general_rides_at_his_figures_pace_with_one_gallop_a_trip() {
    let mut g = load("the_wells.toml").quiet().general(Red, 45.0, 4.0).game(1);
    // The Roman General is a heavy cavalryman: 8" a period, 18" at the gallop.
    // 12" is more than his normal move: he gallops, the first period of his trip.
    let notes = period(&mut g, ride(45.0, 16.0), Plan::default());
    let (n, spent, allowance) = rode(&notes)[0];
    assert!(n.text.contains("gallops 12.0\""), "{}", n.text);
    assert!(cites(n, "WRG-CHORD-03") && cites(n, "WRG-R-42"));
    assert_eq!(allowance, 18.0);
    assert!((spent - 12.0).abs() < 1e-6);
    assert_eq!(part(n, "WRG-CHORD-03"), Some(10.0));
    // Riding on, the trip's gallop is spent: 8" at most.
    assert_eq!(refused(&g, ride(45.0, 4.0)).as_deref(), Some("WRG-CHORD-04"));
    let notes = period(&mut g, ride(50.0, 16.0), Plan::default());
    assert_eq!(rode(&notes)[0].2, 8.0);
    // A period without riding ends the trip; the next may gallop again.
    period(&mut g, Plan::default(), Plan::default());
    assert!(refused(&g, ride(50.0, 4.0)).is_none());
    // Up the ridge's slope every inch costs 4 (WRG-TERR-04): 1" of flat and 3" of slope is
    // 13", past even a walk... while 1" and 1" is 5".
    period(&mut g, ride(50.0, 17.0), Plan::default());
    period(&mut g, Plan::default(), Plan::default());
    let notes = period(&mut g, ride(50.0, 19.0), Plan::default());
    let (_, spent, allowance) = rode(&notes)[0];
    assert_eq!(allowance, 8.0);
    assert!((spent - 5.0).abs() < 0.05, "{spent}");
    assert_eq!(g.state().generals[0].at, Point::new(50.0, 19.0));
}

// Checks WRG-CHORD-10, WRG-CHORD-11, WRG-CHORD-01.
#[test]
fn wrg_chord_10_the_general_joins_a_unit_and_orders_it_at_once() {
    let mut g = in_sight().game(2);
    let cohort = id(&g, "Legio XX, first cohort");
    let join = GeneralMove { x: 0.0, y: 0.0, join: Some(cohort) };
    let notes = period(&mut g, Plan { general: Some(join), ..Plan::default() }, Plan::default());
    let n = notes.iter().find(|n| cites(n, "WRG-CHORD-10")).expect("he joins them");
    assert!(cites(n, "WRG-CHORD-11"), "{}", n.text);
    assert_eq!(g.state().generals[0].attached, Some(cohort));
    // At their head he orders them without a messenger, and they act on it at once.
    let free = g.state().free_messengers[0];
    let d = Dictation { unit: cohort, order: advance(31.0, 12.0) };
    let notes = period(&mut g, Plan { dictate: vec![d], ..Plan::default() }, Plan::default());
    let n = notes.iter().find(|n| n.text.contains("at their head, gives")).expect("told");
    assert!(cites(n, "WRG-CHORD-10"));
    assert_eq!(g.state().free_messengers[0], free);
    let u = &g.state().units[cohort as usize];
    assert!(u.at.y > 6.5, "they moved off at once: {:?}", u.at);
    // He moves with them.
    assert_eq!(g.state().generals[0].at, u.at);
}

// Checks WRG-CHORD-02, WRG-CHORD-03, WRG-CHORD-06, WRG-ORD-02, WRG-ORD-04.
#[test]
fn wrg_chord_02_a_messenger_gallops_out_the_unit_digests_then_acts() {
    let mut g = in_sight().game(3);
    quiet_period(&mut g);
    let ala = id(&g, "Ala Petriana");
    let d = Dictation { unit: ala, order: advance(62.0, 16.0) };
    let notes = period(&mut g, Plan { dictate: vec![d], ..Plan::default() }, Plan::default());
    let n = notes.iter().find(|n| n.text.contains("dictates a new order")).expect("dictated");
    assert!(cites(n, "WRG-CHORD-01") && cites(n, "WRG-CHORD-06"));
    // He sets out next period, at the gallop, and reaches the ala 18" off.
    let notes = quiet_period(&mut g);
    let out = notes.iter().find(|n| cites(n, "WRG-CHORD-03")).expect("he rides");
    assert!(out.text.contains("gallops"), "{}", out.text);
    let arrived = notes.iter().find(|n| n.text.contains("messenger reaches")).expect("arrives");
    assert!(cites(arrived, "WRG-CHORD-06"));
    assert!(
        g.state().units[ala as usize]
            .standing
            .order()
            .is_some_and(|o| o.verb == Verb::Hold { at: None })
    );
    // The period after, they take it up.
    let notes = quiet_period(&mut g);
    let n = notes.iter().find(|n| n.text.contains("take up their new order")).expect("taken");
    assert!(cites(n, "WRG-CHORD-02") && cites(n, "WRG-ORD-02") && cites(n, "WRG-ORD-04"));
    assert!(cites(n, "WRG-CHORD-12"), "their old order is altered: {}", n.text);
    assert_eq!(g.state().units[ala as usize].standing.order(), Some(&advance(62.0, 16.0)));
    // Back at his General he is free again.
    for _ in 0..3 {
        quiet_period(&mut g);
    }
    assert!(g.state().messengers.is_empty());
}

// Checks WRG-CHORD-05.
#[test]
fn wrg_chord_05_a_messenger_who_runs_into_the_enemy_fights_as_20_men() {
    let mut g = in_sight()
        .put(Red, "Ala Petriana", 37.0, 26.0, 0.0, 6)
        .put(Blue, "Cataphracts of the Suren", 37.0, 14.0, 180.0, 8)
        .game(4);
    quiet_period(&mut g);
    let ala = id(&g, "Ala Petriana");
    let d = Dictation { unit: ala, order: advance(37.0, 30.0) };
    period(&mut g, Plan { dictate: vec![d], ..Plan::default() }, Plan::default());
    let notes = quiet_period(&mut g);
    let ride = notes.iter().find(|n| cites(n, "WRG-CHORD-03")).expect("he rides");
    assert!(ride.text.contains("runs into Cataphracts"), "{}", ride.text);
    let fight = notes.iter().find(|n| n.text.contains("catch red's messenger")).expect("caught");
    assert!(cites(fight, "WRG-CHORD-05") && cites(fight, "WRG-MELEE-05"));
    assert!(fight.text.contains("one figure of 20 men"));
    // Dead or beaten off, he brings no order.
    let fate = notes
        .iter()
        .find(|n| n.text.contains("messenger falls") || n.text.contains("messenger is beaten off"));
    assert!(fate.is_some());
    quiet_period(&mut g);
    assert!(g.state().units[ala as usize].incoming.is_none());
    assert_eq!(
        g.state().units[ala as usize].standing.order().map(|o| &o.verb),
        Some(&Verb::Hold { at: None })
    );
}

// Checks WRG-GEN-01, WRG-GEN-02.
#[test]
fn wrg_gen_01_the_general_alone_fights_as_his_figure_when_caught() {
    let mut g = load("the_wells.toml")
        .quiet()
        .put(Blue, "Cataphracts of the Suren", 37.0, 14.0, 180.0, 8)
        .game(5);
    let notes = period(&mut g, ride(37.0, 16.0), Plan::default());
    let r = rode(&notes);
    assert!(r[0].0.text.contains("runs into Cataphracts"), "{}", r[0].0.text);
    let fight = notes.iter().find(|n| n.text.contains("catch red's General")).expect("caught");
    assert!(cites(fight, "WRG-CHORD-05"));
    let men =
        fight.totals.iter().find(|t| t.what.contains("Cataphracts") && t.what.contains("men"));
    let lost = men.map_or(0.0, |t| t.value);
    assert!((g.state().generals[0].risk.losses - lost).abs() < 1e-9);
    if lost >= 20.0 {
        assert!(notes.iter().any(|n| cites(n, "WRG-GEN-02")));
    }
}

// Checks WRG-CHORD-07, WRG-CHORD-08, WRG-CHORD-09.
#[test]
fn wrg_chord_08_a_signal_written_before_the_battle_moves_those_who_see_it() {
    // The wells' first Roman signal: advance to (36, 28), by the wells.
    let mut g = load("the_wells.toml").quiet().game(6);
    let cohort = id(&g, "Legio XX, second cohort");
    let notes = period(&mut g, Plan { signal: Some(0), ..Plan::default() }, Plan::default());
    let n = notes.iter().find(|n| cites(n, "WRG-CHORD-08")).expect("given");
    assert!(cites(n, "WRG-CHORD-07") && cites(n, "WRG-CHORD-09"));
    assert!(n.text.contains("Legio XX, second cohort"), "{}", n.text);
    // They act on it next period.
    let notes = quiet_period(&mut g);
    let taken = notes
        .iter()
        .find(|n| n.text.starts_with("Legio XX, second cohort take up"))
        .expect("taken up");
    assert!(cites(taken, "WRG-CHORD-09"));
    assert_eq!(g.state().units[cohort as usize].standing.order(), Some(&advance(36.0, 28.0)));
}

// Checks WRG-ORD-05, WRG-ORD-06.
#[test]
fn wrg_ord_05_a_unit_may_halt_and_keeps_its_order() {
    let mut g =
        load("the_wells.toml").quiet().order(Red, "Ala Petriana", advance(55.0, 16.0)).game(7);
    let ala = id(&g, "Ala Petriana");
    let at = g.state().units[ala as usize].at;
    let halt = UnitMove { unit: ala, step: Step::Halt };
    let notes = period(&mut g, Plan { moves: vec![halt], ..Plan::default() }, Plan::default());
    let n = notes.iter().find(|n| cites(n, "WRG-ORD-05")).expect("halted");
    assert!(cites(n, "WRG-ORD-06"), "{}", n.text);
    assert_eq!(g.state().units[ala as usize].at, at);
    assert_eq!(g.state().units[ala as usize].standing.order(), Some(&advance(55.0, 16.0)));
}

// Checks WRG-CHORD-12, WRG-ORD-13.
#[test]
fn wrg_chord_12_a_broken_units_order_is_crossed_out() {
    // The cataphracts break off from the Thracian horse within their reach: routed.
    let mut g = load("the_wells.toml")
        .quiet()
        .put(Red, "Ala I Thracum", 8.0, 26.0, 90.0, 6)
        .order(Red, "Ala I Thracum", attack(0))
        .put(Blue, "Cataphracts of the Suren", 10.26, 26.0, 270.0, 8)
        .game(8);
    let cats = id(&g, "Cataphracts of the Suren");
    let notes = period(&mut g, Plan::default(), Plan { break_off: vec![cats], ..Plan::default() });
    let n = notes
        .iter()
        .find(|n| cites(n, "WRG-CHORD-12") && n.text.starts_with("Cataphracts"))
        .expect("crossed out");
    assert!(n.text.contains("they broke"), "{}", n.text);
    assert!(g.state().units[cats as usize].standing.order().is_none());
    let _ = Blue;
}
