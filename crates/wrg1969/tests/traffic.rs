//! Friends in each other's way and blocks that meet badly, played through the game on the
//! hill: a charge barred by a friend standing in front, the line charging through its own
//! skirmish screen, two cohorts converging on one point, and blocks that touch corner to corner
//! without a figure able to strike (WRG-R-08, WRG-MOVE-04, WRG-MOVE-12, WRG-MELEE-01).

mod common;

use common::*;
use tabletop::rules::Side::{Blue, Red};
use wrg1969::orders::{Objective, Order, Verb};
use wrg1969::plan::{Plan, Step, UnitMove};
use wrg1969::report::Note;

fn says<'a>(notes: &'a [Note], what: &[&str]) -> Option<&'a Note> {
    notes.iter().find(|n| what.iter().all(|w| n.text.contains(w)))
}

fn gap(g: &tabletop::game::Game<wrg1969::Wrg1969>, a: u16, b: u16) -> f64 {
    let d = wrg1969::Data::embedded().unwrap();
    let (ua, ub) = (&g.state().units[a as usize], &g.state().units[b as usize]);
    ua.block
        .footprint(&d, ua.troop, ua.at, ua.facing)
        .distance(&ub.block.footprint(&d, ub.troop, ub.at, ub.facing))
}

// Checks WRG-R-08, WRG-MOVE-04, WRG-RT-04.
#[test]
fn wrg_r_08_a_charge_barred_by_a_friend_standing_in_front_is_not_declared_and_goes_round() {
    // The Thracian horse (8" normal, 20" charge) are ordered to attack the Iceni warband 12"
    // ahead, but the second cohort holds squarely between them: a charge runs straight, and
    // only light infantry pass through friends, so the horse do not charge. They march on the
    // warband instead, round the end of the cohort.
    let mut g = load("the_hill.toml")
        .quiet()
        .put(Red, "Ala I Thracum", 30.0, 10.0, 0.0, 6)
        .put(Red, "Legio XX, second cohort", 30.0, 14.0, 0.0, 10)
        .put(Blue, "Warband of the Iceni", 30.0, 26.0, 180.0, 20)
        .order(Red, "Ala I Thracum", attack(1))
        .game(3);
    let (ala, cohort) = (id(&g, "Ala I Thracum"), id(&g, "Legio XX, second cohort"));
    let before = g.state().units[ala as usize].at;
    let notes = quiet_period(&mut g);
    let barred = says(&notes, &["Ala I Thracum do not charge", "Legio XX, second cohort"])
        .unwrap_or_else(|| panic!("no note of the barred charge: {notes:#?}"));
    assert!(cites(barred, "WRG-R-08") && cites(barred, "WRG-MOVE-04"));
    // No charge, so no test before charging (WRG-RT-04).
    let before_charging =
        |n: &&Note| n.text.starts_with("Ala I Thracum test") && cites(n, "WRG-RT-04");
    assert!(!notes.iter().any(|n| before_charging(&n)), "{notes:#?}");
    assert!(says(&notes, &["Ala I Thracum go round Legio XX, second cohort"]).is_some());
    let after = g.state().units[ala as usize].at;
    assert!(after.distance(before) > 4.0, "the horse moved {}", after.distance(before));
    assert!(gap(&g, ala, cohort) > 0.0, "the horse overlap the cohort");
}

// Checks WRG-MOVE-12, WRG-DIS-10, WRG-R-08.
#[test]
fn wrg_move_12_the_line_charges_through_its_own_skirmish_screen() {
    // The Balearic slingers (light infantry) stand 2" in front of the second cohort, which
    // charges the Iceni warband 6" beyond them: the cohort charges through its screen, which is
    // disordered by it, and reaches the warband.
    let mut g = load("the_hill.toml")
        .quiet()
        .put(Red, "Legio XX, second cohort", 30.0, 20.0, 0.0, 10)
        .put(Red, "Balearic slingers", 30.0, 22.6, 0.0, 12)
        .put(Blue, "Warband of the Iceni", 30.0, 28.0, 180.0, 20)
        .order(Red, "Legio XX, second cohort", attack(1))
        .game(3);
    let (cohort, iceni) = (id(&g, "Legio XX, second cohort"), id(&g, "Warband of the Iceni"));
    let notes = quiet_period(&mut g);
    let through = says(&notes, &["Legio XX, second cohort pass through Balearic slingers"])
        .unwrap_or_else(|| panic!("no pass-through: {notes:#?}"));
    assert!(cites(through, "WRG-DIS-10") && cites(through, "WRG-R-08"));
    assert!(says(&notes, &["Legio XX, second cohort charge Warband of the Iceni"]).is_some());
    assert!(gap(&g, cohort, iceni) <= 0.05, "the cohort did not reach the warband");
    assert!(!notes.iter().any(|n| n.text.contains("held up")), "{notes:#?}");
}

// Checks WRG-R-08, WRG-ORD-04.
#[test]
fn wrg_r_08_two_cohorts_whose_ways_cross_do_not_lock_each_other() {
    // The second and third cohorts stand side by side, 0.1" apart, and are sent across each
    // other's front: the second to a point ahead on the right, the third to one ahead on the
    // left. Each is in the other's way from the first step; one sidles round the other, and
    // over three periods both get on.
    let mut g = load("the_hill.toml")
        .quiet()
        .put(Red, "Legio XX, second cohort", 31.0, 10.0, 0.0, 10)
        .put(Red, "Legio XX, third cohort", 35.6, 10.0, 0.0, 8)
        .order(Red, "Legio XX, second cohort", advance_to(44.0, 22.0))
        .order(Red, "Legio XX, third cohort", advance_to(22.0, 22.0))
        .game(3);
    let (second, third) = (id(&g, "Legio XX, second cohort"), id(&g, "Legio XX, third cohort"));
    assert!(gap(&g, second, third) < 0.2);
    let start = [g.state().units[second as usize].at, g.state().units[third as usize].at];
    let mut stuck = 0;
    for _ in 0..3 {
        let notes = quiet_period(&mut g);
        stuck += notes.iter().filter(|n| n.text.contains(" 0.0\" of their")).count();
    }
    for (k, u) in [second, third].into_iter().enumerate() {
        let moved = g.state().units[u as usize].at.distance(start[k]);
        assert!(moved > 6.0, "{} moved only {moved:.1}\"", g.state().units[u as usize].name);
    }
    assert!(stuck <= 1, "{stuck} moves without a step");
}

// Checks WRG-R-08, WRG-ORD-04.
#[test]
fn wrg_r_08_a_cohort_pressed_against_a_friend_that_stands_sidles_round_it() {
    // The third cohort holds; the second stands right behind it, its front touching the third's
    // rear, and is sent to a point ahead and to the right. It cannot swing to face its way
    // without striking the friend, so it sidles out from behind it keeping its front, and gets
    // on.
    let d = wrg1969::Data::embedded().unwrap();
    let setup = load("the_hill.toml").quiet();
    let depth = |name: &str, files: u32| {
        let u = setup.sc.sides[0].army.units.iter().find(|u| u.name == name).unwrap();
        wrg1969::unit::Block::new(u.figures, files).size(&d, u.troop).1
    };
    let y3 = 10.0
        + depth("Legio XX, second cohort", 10) / 2.0
        + depth("Legio XX, third cohort", 8) / 2.0
        + 0.01;
    let mut g = setup
        .put(Red, "Legio XX, second cohort", 31.0, 10.0, 0.0, 10)
        .put(Red, "Legio XX, third cohort", 31.0, y3, 0.0, 8)
        .order(Red, "Legio XX, second cohort", advance_to(40.0, 24.0))
        .game(3);
    let second = id(&g, "Legio XX, second cohort");
    let start = g.state().units[second as usize].at;
    let mut stuck = 0;
    for _ in 0..2 {
        let notes = quiet_period(&mut g);
        stuck += notes.iter().filter(|n| n.text.contains(" 0.0\" of their")).count();
    }
    let moved = g.state().units[second as usize].at.distance(start);
    assert!(moved > 5.0, "the second cohort moved only {moved:.1}\"");
    assert_eq!(stuck, 0);
}

fn advance_to(x: f64, y: f64) -> Order {
    Order::new(Verb::Advance { to: Objective::Point { x, y } })
}

// Checks WRG-MELEE-01.
#[test]
fn wrg_melee_01_blocks_touching_corner_to_corner_do_not_fight_and_may_move() {
    // The second cohort's front right corner touches the Iceni warband's right rear corner,
    // the blocks at right angles: no figure's front touches the other, so no blow can be
    // struck. They are not in hand-to-hand: no round is fought, and the cohort may be moved.
    let d = wrg1969::Data::embedded().unwrap();
    let setup = load("the_hill.toml").quiet();
    let size = |side: usize, name: &str, files: u32| {
        let u = setup.sc.sides[side].army.units.iter().find(|u| u.name == name).unwrap();
        wrg1969::unit::Block::new(u.figures, files).size(&d, u.troop)
    };
    let (cw, cd) = size(0, "Legio XX, second cohort", 10);
    let (iw, id_) = size(1, "Warband of the Iceni", 10);
    let (cx, cy) = (30.0, 20.0);
    // The warband faces east, the south end of its rear edge on the cohort's front right
    // corner (0.01" off).
    let ix = cx + cw / 2.0 + id_ / 2.0 + 0.01;
    let iy = cy + cd / 2.0 + iw / 2.0 + 0.01;
    let away = Order::new(Verb::Advance { to: Objective::Bearing { degrees: 180.0 } });
    let mut g = setup
        .put(Red, "Legio XX, second cohort", cx, cy, 0.0, 10)
        .put(Blue, "Warband of the Iceni", ix, iy, 90.0, 10)
        .order(Red, "Legio XX, second cohort", away)
        .game(3);
    let (cohort, iceni) = (id(&g, "Legio XX, second cohort"), id(&g, "Warband of the Iceni"));
    assert!(gap(&g, cohort, iceni) <= 0.02, "they do not touch: {}", gap(&g, cohort, iceni));
    // Free to move: a step back is accepted, as it would not be in hand-to-hand (WRG-BRK-01).
    let step = UnitMove { unit: cohort, step: Step::StepBack { inches: 1.0 } };
    let plan = Plan { moves: vec![step], ..Plan::default() };
    let r = tabletop::rules::RuleSet::check(
        g.rules(),
        g.state(),
        tabletop::rules::Actor::Side(Red),
        &wrg1969::Command::Plan(plan.clone()),
    );
    assert!(r.is_ok(), "{r:?}");
    let notes = period(&mut g, plan, Plan::default());
    assert!(!notes.iter().any(|n| n.text.contains(" fight")), "{notes:#?}");
}
