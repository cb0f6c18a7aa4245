//! Plays many battles under the umpire (`wrg1969::umpire`): every ready scenario, each pairing
//! of the scripted general and the random player, seeds 1, 2, … and prints the violations found,
//! grouped, each with a battle that shows it.
//!
//! `cargo run --release -p wrg1969 --example umpire -- [GAMES] [--loose]`: GAMES battles in all
//! (default 1,000), spread over the scenarios and pairings; `--loose` leaves out the check that
//! every move is accounted for by the log.

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
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/wrg1969");
    let mut names: Vec<String> = std::fs::read_dir(root)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".toml"))
        .collect();
    names.sort();
    let rules = Arc::new(Wrg1969::new());
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
