//! One scripted battle on the legion scenario laid side by side `K` times, for counting its
//! instructions: `valgrind --tool=callgrind target/release/examples/scale K SEED`.

#[path = "../benches/scaled.rs"]
mod scaled;

use freemove::Freemove;
use std::sync::Arc;
use tabletop::diagnostics::Source;
use tabletop::game::Game;
use tabletop::rules::Actor;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let k: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1);
    let seed: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1);
    let rules = Arc::new(Freemove::new());
    let mut g =
        Game::new(rules.clone(), Source::new("scale", scaled::scaled(k)), seed).expect("it loads");
    g.set_hashing(false);
    let mut n = 0;
    while g.outcome().is_none() && n < 100_000 {
        let side = g.pending().sides()[0];
        let c = freemove::bot::decide(&rules, g.state(), side);
        g.submit(Actor::Side(side), c).expect("the general's command is legal");
        n += 1;
    }
    println!("×{k} seed {seed}: {n} commands");
}
