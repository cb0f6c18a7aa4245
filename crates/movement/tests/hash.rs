//! The record's state hash: the parts of the state written from a cache while it is taken
//! give exactly the hash of the state written anew, command after command, with two games
//! taking turns on one thread (each then misses the other's cache).
mod common;

use bots::Bot;
use movement::Movement;
use movement::bot::Scripted;
use std::sync::Arc;
use tabletop::{Actor, Game, SeededDice, Side, Source};

/// The FNV-1a hash of the state's JSON written out in full (not while hashing).
fn fresh_hash(state: &movement::State) -> u64 {
    let bytes = serde_json::to_vec(state).expect("it serialises");
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

#[test]
fn cached_parts_hash_as_the_state_written_anew() {
    let rules = Arc::new(Movement::new());
    let text = common::ford_text();
    let mut games: Vec<Game<Movement>> = (1..=2)
        .map(|seed| Game::new(rules.clone(), Source::new("ford.toml", text.clone()), seed))
        .collect::<Result<_, _>>()
        .expect("it loads");
    let mut bots = [Scripted::default(), Scripted::default()];
    let mut rng = SeededDice::new(5);
    let mut checked = 0;
    for _ in 0..400 {
        for g in &mut games {
            if g.outcome().is_some() {
                continue;
            }
            let side: Side = g.pending().sides()[0];
            let c =
                bots[side.index()].choose(g.rules(), g.state(), side, &mut rng).expect("a move");
            g.submit(Actor::Side(side), c).expect("accepted");
            let recorded = g.commands().last().and_then(|c| c.hash.clone()).expect("a hash");
            assert_eq!(recorded, tabletop::game::hash_hex(fresh_hash(g.state())));
            assert_eq!(g.state_hash(), fresh_hash(g.state()));
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} commands");
}
