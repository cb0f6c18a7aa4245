//! A fingerprint of many whole battles: every command given and every event (its serde form, its
//! narration and its rule IDs), for the scripted player against itself and against a uniform
//! pick among the legal commands. Speed work must leave it unchanged: the rules are the rules
//! and the scripted player's choices are its choices. A second test checks that the scripted
//! player, which keeps what it worked out between decisions, chooses as a fresh one would.
//!
//! `OTHW_FINGERPRINT_SEEDS=N` plays N battles of each matchup (default 40); with
//! `OTHW_FINGERPRINT_PRINT=1` the test prints the fingerprints instead of checking them (for
//! another number of battles, or after an intended change of the rules or the player).
mod common;
use common::*;
use othw::Othw;
use othw::bot::{Scripted, Weights};
use std::io::Write;
use tabletop::dice::SeededDice;
use tabletop::rules::{Actor, Narrate, RuleSet, Side};

/// FNV-1a over everything written to it.
struct Fnv(u64);

impl Write for Fnv {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        for b in buf {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Plays battles 1..=n of the open field and returns (fingerprint, commands, events).
fn fingerprint(n: u64, blue_scripted: bool) -> (u64, u64, u64) {
    let r = Othw::new();
    let sc = load(&ready("open_field.toml"));
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    let (mut commands, mut events) = (0, 0);
    for seed in 1..=n {
        let mut dice = SeededDice::new(seed);
        let mut pick = SeededDice::new(seed ^ 0x5eed);
        let (mut st, setup) = r.setup(&sc, &mut dice);
        let mut bots = [Scripted::new(), Scripted::new()];
        let mut log = setup;
        while st.outcome.is_none() {
            let side = st.phasing;
            let c = if side == Side::Red || blue_scripted {
                bots[side.index()].best(&r, &st, side).expect("a command").0
            } else {
                let legal = r.legal(&st, side);
                legal[pick.below(legal.len() as u32) as usize].clone()
            };
            serde_json::to_writer(&mut h, &c).expect("hashes");
            commands += 1;
            let ev = r.execute(&st, Actor::Side(side), &c, &mut dice).expect("executes");
            for e in &ev {
                r.apply(&mut st, e);
            }
            log.extend(ev);
        }
        for e in &log {
            serde_json::to_writer(&mut h, e).expect("hashes");
            let n = e.narrate();
            write!(h, "{}|{:?}", n.text, e.rules()).expect("hashes");
            events += 1;
        }
        write!(h, "{:?}", st.outcome).expect("hashes");
    }
    (h.0, commands, events)
}

#[test]
fn battles_are_unchanged() {
    let n = std::env::var("OTHW_FINGERPRINT_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(40);
    let got = [fingerprint(n, true), fingerprint(n, false)];
    if std::env::var_os("OTHW_FINGERPRINT_PRINT").is_some() {
        println!("{n} battles each: {got:x?}");
        return;
    }
    assert_eq!(n, 40, "the pinned fingerprints are for 40 battles");
    assert_eq!(got, PINNED);
}

/// Scripted v scripted, and scripted v a uniform pick, 40 battles each.
const PINNED: [(u64, u64, u64); 2] =
    [(0x9ebf_d205_be4d_6fcc, 0x98c, 0x2baa), (0x9a3c_330e_1902_1ca9, 0x1046, 0x4c4d)];

/// The scripted player keeps what it worked out from one decision to the next; it must choose
/// exactly as a fresh player would, whatever states it is handed and in whatever order (a
/// search hands it states from anywhere in the tree, for either side).
#[test]
fn a_player_that_remembers_chooses_as_a_fresh_one() {
    remembers_as_fresh(&ready("open_field.toml"));
}

/// The same on a board of 17 × 8 = 136 cells: too big for squares as bits, so the player
/// works out again every unit within reach of a change.
#[test]
fn a_player_that_remembers_chooses_as_a_fresh_one_on_a_big_board() {
    let text =
        ready("open_field.toml").replacen("[scenario]", "[board]\ncols = 17\n\n[scenario]", 1);
    let g = &load(&text).board.grid;
    assert_eq!((g.cols, g.rows), (17, 8));
    remembers_as_fresh(&text);
}

/// Asserts that a scripted player that keeps what it worked out between decisions chooses as
/// a fresh one would, in states of a few battles of the scenario `text`, visited in several
/// orders and with the weights changed now and then.
fn remembers_as_fresh(text: &str) {
    let r = Othw::new();
    let sc = load(text);
    // States from a few battles, scripted against a uniform pick.
    let mut states = Vec::new();
    for seed in 1..=4 {
        let mut dice = SeededDice::new(seed);
        let mut pick = SeededDice::new(seed ^ 0x5eed);
        let (mut st, _) = r.setup(&sc, &mut dice);
        let mut bot = Scripted::new();
        while st.outcome.is_none() {
            states.push(st.clone());
            let side = st.phasing;
            let c = if side == Side::Red {
                bot.best(&r, &st, side).expect("a command").0
            } else {
                let legal = r.legal(&st, side);
                legal[pick.below(legal.len() as u32) as usize].clone()
            };
            for e in r.execute(&st, Actor::Side(side), &c, &mut dice).expect("executes") {
                r.apply(&mut st, &e);
            }
        }
    }
    let fresh: Vec<_> = states.iter().map(|st| Scripted::new().best(&r, st, st.phasing)).collect();
    // In order, backwards, and leaping about, with one player for both sides.
    let n = states.len();
    let orders: [Vec<usize>; 3] =
        [(0..n).collect(), (0..n).rev().collect(), (0..n).map(|i| i * 7919 % n).collect()];
    for order in orders {
        let mut player = Scripted::new();
        for i in order {
            let st = &states[i];
            assert_eq!(player.best(&r, st, st.phasing), fresh[i], "state {i}");
        }
    }
    // And with its weights changed now and then.
    let bold = Weights { approach: 1.5, danger: 0.5, move_min: 0.1, ..Weights::default() };
    let mut player = Scripted::new();
    for (i, st) in states.iter().enumerate() {
        let w = if i / 5 % 2 == 0 { Weights::default() } else { bold.clone() };
        let mut new = Scripted::new();
        new.weights = w.clone();
        player.weights = w;
        assert_eq!(player.best(&r, st, st.phasing), new.best(&r, st, st.phasing), "state {i}");
    }
}
