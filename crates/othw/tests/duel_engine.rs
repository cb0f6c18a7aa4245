//! The exact duel calculator against the engine itself: for each matchup, every sequence of
//! dice the engine can roll in one attack is played through the game's own commands, and the
//! chances of what happened (hits taken, winner, breaks, rampages, retreat tests failed, the
//! generals put out of action) are added up exactly. They must equal the calculator's
//! fractions to the last digit.
//!
//! To keep the enumeration small, each matchup names the faces that can make a difference in
//! it (every score to hit, leadership, rally, Risk and Fate boundary of the fight): the dice
//! are enumerated by class of faces (one face standing for those that act alike), each class
//! weighted by its number of faces.
mod common;
use common::*;
use othw::combat::{Aspect, aspect};
use othw::data::FateResult;
use othw::duel::{DuelOdds, Fighter, Ratio};
use othw::state::{Command, Event, State, Status, TestKind, UnitId};
use tabletop::dice::{DiceSource, Die};
use tabletop::grid::GridFacing;
use tabletop::rules::{Actor, RuleSet, Side};

/// Dice that walk through every sequence of face classes, depth first, after a fixed first
/// few.
struct Walk {
    /// Faces rolled first, as given (the phase-end roll), and how many of them were rolled.
    prefix: Vec<u8>,
    fixed: usize,
    /// The faces standing for each class, and how many faces each stands for.
    classes: Vec<(u8, u128)>,
    /// The classes of this sequence (by index), and how many of them were rolled.
    seq: Vec<usize>,
    used: usize,
}

impl DiceSource for Walk {
    fn face(&mut self, die: Die) -> u8 {
        assert_eq!(die, Die::D6);
        if self.fixed < self.prefix.len() {
            self.fixed += 1;
            return self.prefix[self.fixed - 1];
        }
        if self.used == self.seq.len() {
            self.seq.push(0);
        }
        let c = self.seq[self.used];
        self.used += 1;
        self.classes[c].0
    }
}

impl Walk {
    /// The next sequence (false when all are done): the last class that can go up goes up,
    /// and what followed it is forgotten.
    fn advance(&mut self) -> bool {
        self.seq.truncate(self.used);
        while let Some(&last) = self.seq.last() {
            if last + 1 < self.classes.len() {
                *self.seq.last_mut().expect("not empty") += 1;
                (self.used, self.fixed) = (0, 0);
                return true;
            }
            self.seq.pop();
        }
        false
    }

    /// The chance of the sequence just rolled.
    fn chance(&self) -> Ratio {
        self.seq[..self.used]
            .iter()
            .fold(Ratio::ONE, |p, &c| p.times(Ratio::new(self.classes[c].1, 6)))
    }
}

/// Face classes from the boundaries: each boundary `b` starts a class at face `b`.
fn classes(boundaries: &[u8]) -> Vec<(u8, u128)> {
    let mut starts: Vec<u8> = vec![1];
    starts.extend(boundaries.iter().copied().filter(|b| (2..=6).contains(b)));
    starts.sort_unstable();
    starts.dedup();
    starts
        .iter()
        .enumerate()
        .map(|(i, &s)| {
            let end = starts.get(i + 1).copied().unwrap_or(7);
            (s, u128::from(end - s))
        })
        .collect()
}

/// What one attack did, added up over the dice.
#[derive(Debug, PartialEq)]
struct Tally {
    hits_taken: [Vec<Ratio>; 2],
    wins: [Ratio; 2],
    breaks: [Ratio; 2],
    rampages: [Ratio; 2],
    retreat: [Vec<Ratio>; 2],
    general_out: [Ratio; 2],
    draw: Ratio,
}

fn add(v: &mut Vec<Ratio>, k: usize, p: Ratio) {
    if v.len() <= k {
        v.resize(k + 1, Ratio::ZERO);
    }
    v[k] = v[k].plus(p);
}

/// Every sequence of dice for `attack` from `st`, after the phase-end roll (a 6) when the
/// attacker makes one.
fn enumerate(st: &State, attack: &Command, boundaries: &[u8]) -> (Tally, usize) {
    let r = rules();
    let Command::Attack { unit: att, from, facing, .. } = *attack else { panic!("an attack") };
    let def = st.at(from.step(facing)).expect("a target");
    let ids = [att, def];
    let side_of = |u: UnitId| st.units[u as usize].side;
    let prefix = if st.has_general(att) { vec![] } else { vec![6] };
    let mut walk =
        Walk { prefix, fixed: 0, classes: classes(boundaries), seq: Vec::new(), used: 0 };
    let tests = |u: UnitId| usize::from(st.units[u as usize].retreat_tests) + 1;
    let mut t = Tally {
        hits_taken: [Vec::new(), Vec::new()],
        wins: [Ratio::ZERO; 2],
        breaks: [Ratio::ZERO; 2],
        rampages: [Ratio::ZERO; 2],
        retreat: [vec![Ratio::ZERO; tests(att)], vec![Ratio::ZERO; tests(def)]],
        general_out: [Ratio::ZERO; 2],
        draw: Ratio::ZERO,
    };
    let mut runs = 0;
    loop {
        let ev = r.execute(st, Actor::Side(st.phasing), attack, &mut walk).expect("runs");
        runs += 1;
        let p = walk.chance();
        let mut result = None;
        for e in &ev {
            match e {
                Event::Result { attacker_hits, defender_hits, winner, .. } => {
                    result = Some((*attacker_hits, *defender_hits, *winner));
                }
                Event::Status { unit, status: Status::Fleeing, .. } => {
                    let i = ids.iter().position(|u| u == unit).expect("a fighter");
                    t.breaks[i] = t.breaks[i].plus(p);
                }
                Event::Status { unit, status: Status::Rampaging, .. } => {
                    let i = ids.iter().position(|u| u == unit).expect("a fighter");
                    t.rampages[i] = t.rampages[i].plus(p);
                }
                Event::Fate { side, result, .. } if *result != FateResult::NearMiss => {
                    let i = ids.iter().position(|&u| side_of(u) == *side).expect("a side");
                    t.general_out[i] = t.general_out[i].plus(p);
                }
                _ => {}
            }
        }
        let (ha, hd, winner) = result.expect("a round was fought");
        add(&mut t.hits_taken[0], usize::from(ha), p);
        add(&mut t.hits_taken[1], usize::from(hd), p);
        match winner {
            None => t.draw = t.draw.plus(p),
            Some(w) => {
                let i = ids.iter().position(|&u| u == w).expect("a fighter");
                t.wins[i] = t.wins[i].plus(p);
                // The loser's retreat tests, each counted once (a reroll decides its test).
                let l = ids[1 - i];
                let retreats: Vec<(bool, bool)> =
                    ev.iter()
                        .filter_map(|e| match e {
                            Event::Test {
                                unit, kind: TestKind::Retreat, passed, reroll, ..
                            } if *unit == l => Some((*passed, *reroll)),
                            _ => None,
                        })
                        .collect();
                if !retreats.is_empty() {
                    let decided = retreats
                        .iter()
                        .enumerate()
                        .filter(|(k, (_, rr))| *rr || retreats.get(k + 1).is_none_or(|n| !n.1))
                        .map(|(_, x)| x.0)
                        .collect::<Vec<bool>>();
                    let fails = decided.iter().filter(|passed| !**passed).count();
                    t.retreat[1 - i][fails] = t.retreat[1 - i][fails].plus(p);
                }
            }
        }
        if !walk.advance() {
            break;
        }
    }
    (t, runs)
}

/// The calculator's answer in the tally's shape.
fn tally_of(o: &DuelOdds) -> Tally {
    let trim = |v: &[Ratio]| {
        let mut v = v.to_vec();
        while v.last().is_some_and(|p| *p == Ratio::ZERO) {
            v.pop();
        }
        v
    };
    let sides = [&o.attacker, &o.defender];
    Tally {
        hits_taken: sides.map(|s| trim(&s.hits_taken)),
        wins: sides.map(|s| s.wins),
        breaks: sides.map(|s| s.breaks),
        rampages: sides.map(|s| s.rampages),
        retreat: sides.map(|s| s.retreat.clone()),
        general_out: sides.map(|s| s.general_out),
        draw: o.draw,
    }
}

/// Sets up `attacker` (red, unit 0) against `defender` (blue, unit 1) in the middle of the
/// board, the attacker on the defender's `asp` side, with the generals named; neither side
/// follows up (a follow-up test is not part of the round).
fn matchup(
    attacker: &str,
    defender: &str,
    red_general: Option<&str>,
    blue_general: Option<&str>,
    asp: Aspect,
    extra: &str,
) -> State {
    let mut st = battle_with(&[attacker], &[defender], red_general, blue_general, extra);
    put(&mut st, 1, 5, 4, GridFacing::South);
    match asp {
        Aspect::Front => put(&mut st, 0, 5, 3, N),
        Aspect::Flank => put(&mut st, 0, 4, 4, E),
        Aspect::Rear => put(&mut st, 0, 5, 5, S),
    }
    for s in &mut st.sides {
        s.orders.follow_up = false;
    }
    assert_eq!(aspect(st.units[1].facing, st.units[0].facing.reversed()), asp);
    st
}

/// Enumerates the attack of unit 0 on unit 1 through the engine and compares it with the
/// calculator, exactly.
#[track_caller]
fn agree(st: &State, general_dice: bool, boundaries: &[u8]) -> Tally {
    assert_eq!(st.phasing, Side::Red);
    let r = rules();
    let x = &st.units[0];
    let c = Command::Attack { unit: 0, from: x.pos, facing: x.facing, general_dice };
    r.check(st, RED, &c).expect("the attack is legal");
    let (engine, runs) = enumerate(st, &c, boundaries);
    let asp = aspect(st.units[1].facing, st.units[0].facing.reversed());
    let fa = Fighter::of_unit(st, &st.units[0], st.board.terrain(st.units[0].pos));
    let fd = Fighter::of_unit(st, &st.units[1], st.board.terrain(st.units[1].pos));
    let calc = tally_of(&r.duel(&fa, &fd, asp, general_dice));
    assert_eq!(engine, calc, "{runs} dice sequences");
    eprintln!("{runs} dice sequences agree");
    engine
}

/// OTHW-FLT-01 and OTHW-CMB-12: a winner left alone at 0 breaks, in the engine and in the
/// calculator alike. Scythed Chariots (A3 at 5+, S2) attack a Warband (A3 at 4+ against D4):
/// the chariots break whenever they take 2 hits or more, winning or not, which is 1/2.
#[test]
fn othw_flt_01_the_duel_breaks_a_winner_at_0_as_the_engine_does() {
    let st = matchup("Scythed Chariots", "Warband", None, None, Aspect::Front, "");
    let t = agree(&st, false, &[4, 5]);
    assert_eq!(t.breaks[0], Ratio::new(1, 2));
}

/// A custom type that takes one retreat test (fewer dice to enumerate).
fn one_test(name: &str, class: &str, a: u8, d: u8, s: u8, l: u8, specials: &[&str]) -> String {
    utype(name, class, 1, a, d, s, l, specials) + "retreat_tests = 1\n"
}

/// OTHW-GEN-04 to GEN-07 and GEN-03: the generic general's attack die, then his Risk test
/// (a Fate roll of 1-4 puts him out of action), then his rally (only while he is in action)
/// and its Risk test, then his unit's retreat test with his reroll and its Risk test, as the
/// engine plays them.
#[test]
fn othw_gen_06_the_generals_risks_come_where_the_engine_takes_them() {
    let extra = one_test("Riders", "cavalry", 1, 5, 2, 5, &["free_facing"])
        + &one_test("Foot", "infantry", 1, 5, 2, 5, &[]);
    let st = matchup("Riders", "Foot", Some("Generic general"), None, Aspect::Front, &extra);
    // Scores: 5 to hit both ways, L5, Risk 1, Fate 1-2 | 3-4 | 5-6, rally 5.
    agree(&st, true, &[2, 3, 5]);
}

/// OTHW-TRT-04, TRT-01: a Phalanx's cancel test against an Archers' reroll.
#[test]
fn othw_trt_04_phalanx_and_archers_agree_with_the_engine() {
    let extra = one_test("Pikes", "infantry", 1, 5, 2, 4, &["phalanx"])
        + &one_test("Bows", "infantry", 1, 5, 3, 5, &["archers"]);
    let st = matchup("Bows", "Pikes", None, None, Aspect::Front, &extra);
    // Scores: 5 to hit, L4 and L5.
    agree(&st, false, &[4, 5]);
}

/// OTHW-GEN-08, GEN-05, GEN-03: Hannibal's two rally dice, his Fate modifier on each Risk test
/// (removed only on a 1, away on 2-3) and his reroll of the retreat test.
#[test]
fn othw_gen_08_hannibals_rally_and_fate_agree_with_the_engine() {
    let extra = one_test("Riders", "cavalry", 1, 5, 2, 5, &["free_facing"])
        + &one_test("Foot", "infantry", 1, 5, 2, 5, &[]);
    let st = matchup("Riders", "Foot", None, Some("Hannibal"), Aspect::Front, &extra);
    // Scores: 5 to hit, L5, Risk 1, Hannibal's Fate 1 | 2-3 | 4-6, rally 5.
    agree(&st, false, &[2, 4, 5]);
}

/// OTHW-GEN-09: Alexander's first failed attack Risk is ignored, so his dice never cost him
/// the rally or the rerolls in that round.
#[test]
fn othw_gen_09_alexanders_attack_risk_is_ignored_in_the_duel_as_in_the_engine() {
    let st = matchup("Skirmishers", "Light Infantry", Some("Alexander"), None, Aspect::Rear, "");
    // Scores: 3 to hit from the rear, L6 and L5, Risk 1, Fate 1-2 | 3-4 | 5-6, rally 5.
    let t = agree(&st, true, &[2, 3, 5, 6]);
    assert_eq!(t.general_out[0], Ratio::ZERO, "no rally or reroll without a loss");
}

/// OTHW-CMB-18 and TRT-07: an Indian elephant against an African one, front to front: each
/// needs 6 but the Indian 5, and a losing elephant rampages on 1-3.
#[test]
fn othw_trt_07_elephants_rampage_in_the_duel_as_in_the_engine() {
    let extra = utype("Indians", "elephant", 2, 1, 6, 2, 5, &["hit_all_on_5", "rampage", "indian"])
        + &utype("Africans", "elephant", 2, 1, 6, 2, 5, &["hit_all_on_5", "rampage", "african"]);
    let st = matchup("Indians", "Africans", None, None, Aspect::Front, &extra);
    // Scores: 5 and 6 to hit, L5, rampage 1 | 2 | 3 | 4-6.
    let t = agree(&st, false, &[2, 3, 4, 5, 6]);
    assert!(t.rampages[1] != Ratio::ZERO && t.rampages[0] != Ratio::ZERO);
}
