//! What a Free Move battle costs on the simulated clock, and what one tick of the real-time
//! loop costs.
//!
//! - `battle`: a whole battle, the scripted general on both sides, on each ready scenario
//!   (battles a second is one over the median);
//! - `scale`: the same on `legion_and_host.toml` laid side by side k times (k = 1, 2, 4, 8; the
//!   table k times as wide, every stand and piece of terrain copied), for the growth exponent
//!   log(cost ratio) / log 2;
//! - `tick`: at 4× the ready armies, in a timed move with a step under way, the clock's tick that
//!   lands it and both sides' views sent afterwards (what the server does at each landing; a
//!   tick is due every handling time of 4 s at most).
//!
//! Run with `cargo bench -p freemove --bench battles`.

use freemove::Freemove;
use freemove::state::{Command, State};
use std::sync::Arc;
use tabletop::diagnostics::Source;
use tabletop::dice::SeededDice;
use tabletop::game::Game;
use tabletop::rules::{Actor, RuleSet, Side, Viewer};

fn main() {
    divan::main();
}

#[path = "scaled.rs"]
mod scaled;
use scaled::{scaled, text};

const READY: [&str; 4] = ["legion_and_host", "horse_archers", "walled_farm", "grid_skirmish"];

fn play(text: &str, seed: u64) -> usize {
    let rules = Arc::new(Freemove::new());
    let mut g = Game::new(rules.clone(), Source::new("bench", text), seed).expect("it loads");
    g.set_hashing(false);
    let mut n = 0;
    while g.outcome().is_none() && n < 50_000 {
        let side = g.pending().sides()[0];
        let c = freemove::bot::decide(&rules, g.state(), side);
        g.submit(Actor::Side(side), c).expect("the general's command is legal");
        n += 1;
    }
    n
}

#[divan::bench(args = READY, sample_count = 20)]
fn battle(bencher: divan::Bencher, name: &str) {
    let t = text(name);
    let mut seed = 0;
    bencher.bench_local(|| {
        seed += 1;
        play(&t, seed)
    });
}

#[divan::bench(args = [1, 2, 4, 8], sample_count = 5, sample_size = 1)]
fn scale(bencher: divan::Bencher, k: usize) {
    let t = scaled(k);
    let mut seed = 0;
    bencher.bench_local(|| {
        seed += 1;
        play(&t, seed)
    });
}

/// A state at 4× in the first timed move with a step under way.
fn mid_window() -> (Freemove, State, u64) {
    let rules = Freemove::new();
    let mut g =
        Game::new(Arc::new(Freemove::new()), Source::new("bench", scaled(4)), 1).expect("it loads");
    while g.state().clock().is_none() {
        let side = g.pending().sides()[0];
        let c = freemove::bot::decide(&rules, g.state(), side);
        g.submit(Actor::Side(side), c).expect("legal");
    }
    // On until a step is under way: in real time it lands at the clock's next tick.
    while !g.state().clock().is_some_and(|c| c.hands.iter().any(|h| h.flight.is_some())) {
        let side = g.pending().sides()[0];
        let c = freemove::bot::decide(&rules, g.state(), side);
        g.submit(Actor::Side(side), c).expect("legal");
    }
    let lands = g
        .state()
        .clock()
        .and_then(|c| c.hands.iter().filter_map(|h| h.flight.as_ref().map(|f| f.lands_ms)).min())
        .expect("steps under way");
    (rules, g.state().clone(), lands)
}

#[divan::bench(sample_count = 50)]
fn tick(bencher: divan::Bencher) {
    let (rules, st, at) = mid_window();
    bencher.with_inputs(|| st.clone()).bench_local_values(|mut s| {
        let mut dice = SeededDice::new(1);
        let ev = rules
            .perform(&mut s, Actor::Umpire, &Command::Tick { at_ms: at }, &mut dice)
            .expect("a tick");
        let views =
            [rules.view(&s, Viewer::Side(Side::Red)), rules.view(&s, Viewer::Side(Side::Blue))];
        (ev.len(), views.len())
    });
}
