//! After hand-to-hand, played through the game on the hill: a cohort holding its ground throws
//! back a warband's charge, tests whether it follows up before it moves, and either follows
//! the warband the way it was pushed or stays where it stood; either way nobody ends inside
//! anybody (WRG-RT-10, WRG-AFTER-05, WRG-TAC-06, WRG-R-08).

mod common;

use common::*;
use tabletop::rules::Side::{Blue, Red};
use wrg1969::report::{Fact, Note};

fn moved(n: &Note) -> Option<(tabletop::geometry::Point, tabletop::geometry::Point)> {
    match n.fact {
        Some(Fact::Moved { from, to, .. }) => Some((from, to)),
        _ => None,
    }
}

// Checks WRG-RT-10, WRG-AFTER-05, WRG-TAC-06, WRG-R-08.
#[test]
fn wrg_rt_10_holders_test_before_they_follow_up_and_may_stay_where_they_stood() {
    let d = wrg1969::Data::embedded().unwrap();
    let (mut stayed, mut followed) = (0, 0);
    for seed in 1..=30 {
        let setup = load("the_hill.toml");
        let cohort_index = setup.index(Red, "Legio XX, second cohort");
        // The cohort holds (every unit holds in a quiet set-up); the warband charges it.
        let mut g = setup
            .quiet()
            .put(Red, "Legio XX, second cohort", 30.0, 20.0, 0.0, 10)
            .put(Blue, "Warband of the Trinovantes", 30.0, 26.0, 180.0, 20)
            .order(Blue, "Warband of the Trinovantes", attack(cohort_index))
            .game(seed);
        let (cohort, warband) =
            (id(&g, "Legio XX, second cohort"), id(&g, "Warband of the Trinovantes"));
        for _ in 0..4 {
            let stood = g.state().units[cohort as usize].at;
            let notes = quiet_period(&mut g);
            let test = notes.iter().position(|n| {
                cites(n, "WRG-RT-10") && n.text.starts_with("Legio XX, second cohort test")
            });
            let pushed = notes
                .iter()
                .position(|n| n.text.starts_with("Warband of the Trinovantes are pushed back"));
            let Some(test) = test else { continue };
            // The test is taken when the warband is thrown back, before the follow-up.
            let pushed = pushed.unwrap_or_else(|| panic!("a test but no push-back: {notes:#?}"));
            assert!(test < pushed, "the test comes after the push-back: {notes:#?}");
            assert!(cites(&notes[pushed], "WRG-AFTER-05"));
            let follow =
                notes.iter().find(|n| n.text.starts_with("Legio XX, second cohort follow up"));
            let now = g.state().units[cohort as usize].at;
            match follow {
                Some(f) => {
                    // They follow up the way the warband went, as far (WRG-TAC-06).
                    let (from, to) = moved(f).expect("the follow-up's move");
                    let (back_from, back_to) = moved(&notes[pushed]).expect("the push-back's move");
                    assert!(from.distance(stood) < 1e-9 && to.distance(now) < 1e-9);
                    assert!(((to - from) - (back_to - back_from)).length() < 1e-6);
                    followed += 1;
                }
                None => {
                    assert!(
                        now.distance(stood) < 1e-9,
                        "stayed, but moved {}",
                        now.distance(stood)
                    );
                    stayed += 1;
                }
            }
            // Nobody ends inside anybody.
            let st = g.state();
            let foot = |i: u16| {
                let u = &st.units[i as usize];
                u.block.footprint(&d, u.troop, u.at, u.facing)
            };
            assert!(foot(cohort).distance(&foot(warband)) >= 0.0);
            assert!(
                !wrg1969::move_phase::sunk(foot(cohort))
                    .overlaps(&wrg1969::move_phase::sunk(foot(warband)))
            );
            break;
        }
    }
    eprintln!("stayed {stayed}, followed up {followed}");
    assert!(stayed > 0 && followed > 0, "stayed {stayed}, followed {followed} in 30 battles");
}
