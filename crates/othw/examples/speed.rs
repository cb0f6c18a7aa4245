//! Plays whole battles of the open-field scenario straight through the rule set (no `Game`, no
//! hashing) on one thread and prints battles, commands and dice per second (by CPU time where
//! the platform reports it), for the scripted player against itself and for a player picking
//! uniformly among the legal commands against itself.
//!
//! `cargo run --release -p othw --example speed -- [BATTLES] [scripted|random|both] [ROUNDS]`
//! (default 2000 battles, both, 1 round): battles 1..=BATTLES, played ROUNDS times over with
//! the same players (as the benchmark does). Under `valgrind --tool=callgrind`, run it with
//! two numbers of rounds and divide the difference of the instruction counts by the
//! difference of the battles played for the instructions per battle without the set-up.

use othw::Othw;
use othw::bot::Scripted;
use tabletop::dice::{CountingDice, SeededDice};
use tabletop::rules::{Actor, RuleSet};

/// The CPU time of this process so far, in seconds (wall time where it is not available).
fn cpu_seconds(wall: std::time::Instant) -> f64 {
    std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| {
            // utime and stime are fields 14 and 15, counted after the parenthesised name.
            let rest = &s[s.rfind(')')? + 2..];
            let f: Vec<&str> = rest.split(' ').collect();
            let ticks = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
            Some(ticks / 100.0)
        })
        .unwrap_or_else(|| wall.elapsed().as_secs_f64())
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2000);
    let which = args.next().unwrap_or_else(|| "both".into());
    let rounds: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let r = Othw::new();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/othw/open_field.toml");
    let text = std::fs::read_to_string(path).expect("the scenario");
    let sc = r.load_scenario(&tabletop::Source::new(path, text)).expect("it loads");
    for label in ["scripted", "random"] {
        if which != "both" && which != label {
            continue;
        }
        let mut bots = [Scripted::new(), Scripted::new()];
        let wall = std::time::Instant::now();
        let cpu0 = cpu_seconds(wall);
        let (mut commands, mut rolled) = (0u64, 0u64);
        for seed in (0..rounds).flat_map(|_| 1..=n) {
            let mut dice = CountingDice::new(seed);
            let mut pick = SeededDice::new(seed ^ 99);
            let (mut st, _) = r.setup(&sc, &mut dice);
            while st.outcome.is_none() {
                let side = st.phasing;
                let c = if label == "scripted" {
                    bots[side.index()].best(&r, &st, side).expect("a command").0
                } else {
                    let mut legal = r.legal(&st, side);
                    legal.swap_remove(pick.below(legal.len() as u32) as usize)
                };
                r.perform(&mut st, Actor::Side(side), &c, &mut dice).expect("executes");
                commands += 1;
            }
            rolled += dice.rolled;
        }
        let cpu = (cpu_seconds(wall) - cpu0).max(1e-9);
        let wall = wall.elapsed().as_secs_f64();
        println!(
            "{label}: {} battles, {commands} commands, {rolled} dice in {cpu:.3} s CPU \
             ({wall:.3} s wall): {:.0} battles/s, {:.0} commands/s, {:.0} dice/s",
            n * rounds,
            (n * rounds) as f64 / cpu,
            commands as f64 / cpu,
            rolled as f64 / cpu
        );
    }
}
