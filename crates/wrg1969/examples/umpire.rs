//! Plays many battles under the umpire (`wrg1969::umpire`): every ready scenario, each pairing
//! of the scripted general and the random player, seeds 1, 2, … and prints the violations found,
//! grouped, each with a battle that shows it.
//!
//! `cargo run --release -p wrg1969 --example umpire -- [GAMES] [--loose]`: GAMES battles in all
//! (default 1,000), spread over the scenarios and pairings; `--loose` leaves out the check that
//! every move is accounted for by the log.
//!
//! `… --example umpire -- --show SCENARIO.toml SEED RED BLUE` plays one battle and prints, for
//! every command that broke a rule, the violations, the period's log and where each unit stood
//! before and after.

use bots::RandomBot;
use std::collections::BTreeMap;
use std::sync::Arc;
use wrg1969::Wrg1969;
use wrg1969::bot::Scripted;
use wrg1969::umpire::{Umpire, play};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: u64 = args.iter().find_map(|a| a.parse().ok()).unwrap_or(1000);
    let umpire = Umpire { moves_accounted: !args.iter().any(|a| a == "--loose") };
    let root = wrg1969::umpire::READY_DIR;
    let names = wrg1969::umpire::ready_scenarios();
    let rules = Arc::new(Wrg1969::new());
    if let Some(i) = args.iter().position(|a| a == "--show") {
        show(&rules, root, &args[i + 1..], umpire);
        return;
    }
    let pairings = [
        ("scripted", "scripted"),
        ("scripted", "random"),
        ("random", "scripted"),
        ("random", "random"),
    ];
    let mut kinds: BTreeMap<String, (usize, String)> = BTreeMap::new();
    let (mut played, mut unfinished, mut total) = (0u64, 0u64, 0usize);
    'all: for seed in 1.. {
        for name in &names {
            let text = std::fs::read_to_string(format!("{root}/{name}")).unwrap();
            let src = tabletop::Source::new(format!("scenarios/wrg1969/{name}"), text);
            for (red, blue) in pairings {
                if played >= games {
                    break 'all;
                }
                let (mut s1, mut s2, mut r1, mut r2) = (Scripted, Scripted, RandomBot, RandomBot);
                let red_bot: &mut dyn bots::Bot<Wrg1969> =
                    if red == "scripted" { &mut s1 } else { &mut r1 };
                let blue_bot: &mut dyn bots::Bot<Wrg1969> =
                    if blue == "scripted" { &mut s2 } else { &mut r2 };
                let c = play(&rules, &src, seed, [red_bot, blue_bot], umpire, 400)
                    .unwrap_or_else(|e| panic!("{name} seed {seed} {red} v {blue}: {e}"));
                played += 1;
                unfinished += u64::from(!c.finished);
                total += c.violations.len();
                for v in &c.violations {
                    let key: String =
                        v.what.chars().filter(|c| !c.is_ascii_digit()).take(70).collect();
                    let e = kinds.entry(key).or_insert_with(|| {
                        (0, format!("{name} seed {seed} --red {red} --blue {blue}: {v}"))
                    });
                    e.0 += 1;
                }
            }
        }
    }
    println!("{played} battles, {unfinished} unfinished, {total} violations");
    let mut rows: Vec<_> = kinds.into_iter().collect();
    rows.sort_by_key(|r| std::cmp::Reverse(r.1.0));
    for (_, (n, example)) in rows {
        println!("{n:6}  {example}");
    }
    if total > 0 {
        std::process::exit(1);
    }
}

/// Plays one battle and prints what went wrong, with the logs of the commands that broke rules.
fn show(rules: &Arc<Wrg1969>, root: &str, args: &[String], umpire: Umpire) {
    let [name, seed, red, blue, ..] = args else {
        panic!("--show SCENARIO.toml SEED RED BLUE");
    };
    let seed: u64 = seed.parse().expect("a seed");
    let text = std::fs::read_to_string(format!("{root}/{name}")).unwrap();
    let src = tabletop::Source::new(format!("scenarios/wrg1969/{name}"), text);
    let (mut s1, mut s2, mut r1, mut r2) = (Scripted, Scripted, RandomBot, RandomBot);
    let red_bot: &mut dyn bots::Bot<Wrg1969> = if red == "scripted" { &mut s1 } else { &mut r1 };
    let blue_bot: &mut dyn bots::Bot<Wrg1969> = if blue == "scripted" { &mut s2 } else { &mut r2 };
    let c = play(rules, &src, seed, [red_bot, blue_bot], umpire, 400).expect("the battle");
    let bad: std::collections::BTreeSet<usize> = c.violations.iter().map(|v| v.command).collect();
    let record = c.game.record();
    let mut game = tabletop::game::Game::new(rules.clone(), src.clone(), seed).unwrap();
    for (i, entry) in record.commands.iter().enumerate() {
        let before = game.state().clone();
        let command = serde_json::from_value(entry.command.clone()).unwrap();
        let events = game.submit(entry.actor, command).unwrap().to_vec();
        if !bad.contains(&i) {
            continue;
        }
        println!("=== command {i} (period {}) ===", game.state().period);
        for v in c.violations.iter().filter(|v| v.command == i) {
            println!("VIOLATION {}", v.what);
        }
        for e in &events {
            if let wrg1969::rules_impl::Event::Noted(n) = e {
                println!(
                    "  [{}] {}",
                    n.rules.iter().map(|r| r.as_str()).collect::<Vec<_>>().join(","),
                    n.text
                );
                if let Some(f @ wrg1969::report::Fact::Moved { .. }) = &n.fact {
                    println!("      {f:?}");
                    for t in &n.totals {
                        println!(
                            "      {} = {}: {:?}",
                            t.what,
                            t.value,
                            t.parts
                                .iter()
                                .map(|p| (p.rule.as_str(), p.what.as_str(), p.value))
                                .collect::<Vec<_>>()
                        );
                    }
                }
            }
        }
        for (b, a) in before.units.iter().zip(&game.state().units) {
            if b.on_table() || a.on_table() {
                println!(
                    "  {:<40} {:?} ({:.2},{:.2}) f{:.1} -> ({:.2},{:.2}) f{:.1} {:?}",
                    a.name,
                    a.side,
                    b.at.x,
                    b.at.y,
                    b.facing.bearing_degrees(),
                    a.at.x,
                    a.at.y,
                    a.facing.bearing_degrees(),
                    a.motion
                );
            }
        }
    }
    println!("{} violations", c.violations.len());
}
