//! Plays many battles under the umpire (`freemove::umpire`): every ready scenario, each pairing
//! of the scripted general and the random player, seeds 1, 2, … and prints the violations found,
//! grouped, each with a battle that shows it.
//!
//! `cargo run --release -p freemove --example umpire -- [GAMES]`: GAMES battles in all (default
//! 1,000), spread over the scenarios and pairings.
//!
//! `… --example umpire -- --show SCENARIO.toml SEED RED BLUE` plays one battle and prints every
//! violation with the log of the command that made it.

use bots::RandomBot;
use freemove::Freemove;
use freemove::bot::Scripted;
use freemove::umpire::{READY_DIR, play, ready_scenarios};
use std::collections::BTreeMap;
use std::sync::Arc;
use tabletop::rules::Narrate;

const MAX_COMMANDS: usize = 20_000;

fn battle(
    rules: &Arc<Freemove>,
    name: &str,
    seed: u64,
    red: &str,
    blue: &str,
) -> freemove::umpire::Checked {
    let text = std::fs::read_to_string(format!("{READY_DIR}/{name}")).unwrap();
    let src = tabletop::Source::new(format!("scenarios/freemove/{name}"), text);
    let (mut s1, mut s2, mut r1, mut r2) = (Scripted, Scripted, RandomBot, RandomBot);
    let red_bot: &mut dyn bots::Bot<Freemove> = if red == "scripted" { &mut s1 } else { &mut r1 };
    let blue_bot: &mut dyn bots::Bot<Freemove> = if blue == "scripted" { &mut s2 } else { &mut r2 };
    play(rules, &src, seed, [red_bot, blue_bot], MAX_COMMANDS)
        .unwrap_or_else(|e| panic!("{name} seed {seed} {red} v {blue}: {e}"))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rules = Arc::new(Freemove::new());
    if let Some(i) = args.iter().position(|a| a == "--show") {
        let [name, seed, red, blue, ..] = &args[i + 1..] else {
            panic!("--show SCENARIO.toml SEED RED BLUE");
        };
        let c = battle(&rules, name, seed.parse().expect("a seed"), red, blue);
        let starts = c.game.command_starts().to_vec();
        for v in &c.violations {
            println!("VIOLATION {v}");
            // The command and the three before it.
            let s = starts.get(v.command.saturating_sub(3)).copied().unwrap_or(0);
            let e = starts.get(v.command + 1).copied().unwrap_or(c.game.events().len());
            for ev in &c.game.events()[s..e] {
                let ids: Vec<String> = ev.rules().iter().map(|r| r.as_str().to_string()).collect();
                println!("  [{}] {}", ids.join(","), ev.describe());
            }
        }
        println!("{} violations", c.violations.len());
        return;
    }
    let games: u64 = args.iter().find_map(|a| a.parse().ok()).unwrap_or(1000);
    let names = ready_scenarios();
    let pairings = [
        ("scripted", "scripted"),
        ("scripted", "random"),
        ("random", "scripted"),
        ("random", "random"),
    ];
    let mut kinds: BTreeMap<String, (usize, String)> = BTreeMap::new();
    let (mut played, mut unfinished, mut total, mut commands) = (0u64, 0u64, 0usize, 0usize);
    'all: for seed in 1.. {
        for name in &names {
            for (red, blue) in pairings {
                if played >= games {
                    break 'all;
                }
                let c = battle(&rules, name, seed, red, blue);
                played += 1;
                commands += c.game.command_count();
                unfinished += u64::from(!c.finished);
                total += c.violations.len();
                for v in &c.violations {
                    let key: String =
                        v.what.chars().filter(|c| !c.is_ascii_digit()).take(60).collect();
                    let e = kinds.entry(key).or_insert_with(|| {
                        (0, format!("{name} --seed {seed} --red {red} --blue {blue}: {v}"))
                    });
                    e.0 += 1;
                }
            }
        }
    }
    println!(
        "{played} battles ({} scenarios × {} pairings), {commands} commands, {unfinished} unfinished, {total} violations",
        names.len(),
        pairings.len()
    );
    let mut rows: Vec<_> = kinds.into_iter().collect();
    rows.sort_by_key(|r| std::cmp::Reverse(r.1.0));
    for (_, (n, example)) in rows {
        println!("{n:6}  {example}");
    }
    if total > 0 {
        std::process::exit(1);
    }
}
