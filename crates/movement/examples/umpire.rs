//! Plays many battles on every ready scenario (`scenarios/movement/*.toml`) with the scripted
//! and the random bots in every pairing, and runs the umpire of `tests/umpire` over each:
//!
//! ```text
//! cargo run --release -p movement --example umpire -- [BATTLES] [FIRST_SEED]
//! ```
//!
//! BATTLES defaults to 1,000 (spread evenly over the scenarios and the four pairings, seeds
//! counting up from FIRST_SEED, default 1). It prints the violations found, the tally and the
//! time taken, and exits with status 1 if any battle broke a rule.
#[path = "../tests/umpire/mod.rs"]
mod umpire;

use movement::bot::Scripted;
use std::time::Instant;
use umpire::{BotBox, check_game, play, ready_scenarios};

fn bot(name: &str) -> BotBox {
    match name {
        "scripted" => Box::new(Scripted::default()),
        _ => Box::new(bots::RandomBot),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let battles: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let first: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1);
    let scenarios = ready_scenarios();
    let pairs = [
        ("scripted", "scripted"),
        ("scripted", "random"),
        ("random", "scripted"),
        ("random", "random"),
    ];
    let started = Instant::now();
    let (mut played, mut moves, mut checks, mut events, mut bad) =
        (0usize, 0usize, 0usize, 0usize, 0usize);
    let mut wins = [0usize; 3];
    let mut seed = first;
    'outer: loop {
        for (name, text) in &scenarios {
            for (r, b) in pairs {
                if played >= battles {
                    break 'outer;
                }
                let g = play(text, name, seed, &mut bot(r), &mut bot(b));
                let (v, tally) = check_game(&g);
                played += 1;
                moves += tally.moves;
                checks += tally.checks;
                events += tally.events;
                match g.outcome().and_then(|o| o.winner) {
                    Some(tabletop::Side::Red) => wins[0] += 1,
                    Some(tabletop::Side::Blue) => wins[1] += 1,
                    None => wins[2] += 1,
                }
                if !v.is_empty() {
                    bad += 1;
                    println!("{name} {r} v {b} seed {seed}: {} violation(s)", v.len());
                    for x in v.iter().take(5) {
                        println!("  {x}");
                    }
                }
            }
        }
        seed += 1;
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "{played} battles on {} scenarios ({} pairings, seeds {first}..={}): {events} events, {moves} moves, {checks} checks; red won {}, blue {}, drawn {}",
        scenarios.len(),
        pairs.len(),
        seed,
        wins[0],
        wins[1],
        wins[2]
    );
    println!(
        "{bad} battles with violations; {secs:.1} s ({:.1} battles/s)",
        played as f64 / secs.max(1e-9)
    );
    if bad > 0 {
        std::process::exit(1);
    }
}
