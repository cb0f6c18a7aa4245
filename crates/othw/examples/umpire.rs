//! The umpire of `tests/umpire/mod.rs` reads thousands of whole battles: every ready scenario,
//! the scripted player against itself, against a uniform pick among the legal commands, and
//! uniform picks against each other, seeds 1..=N (default 50: 7 × 3 × 50 = 1,050 battles). It
//! prints what it read and every violation, and exits with an error if there is one.
//!
//! `cargo run --release -p othw --example umpire -- [SEEDS]`; with `--show SCENARIO SEED RED BLUE`
//! (players `scripted` or `random`) it prints one battle's log instead.

#[path = "../tests/umpire/mod.rs"]
mod umpire;

use othw::Othw;
use tabletop::rules::RuleSet;
use umpire::{Player, Verdict, umpire_battle};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let r = Othw::new();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/othw");
    if let [flag, name, seed, red, blue] = &args[..]
        && flag == "--show"
    {
        show(
            &r,
            &format!("{dir}/{name}"),
            seed.parse().expect("a seed"),
            [player(red), player(blue)],
        );
        return;
    }
    let seeds: u64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(50);
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("the scenarios folder")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".toml"))
        .collect();
    names.sort();
    let started = std::time::Instant::now();
    let mut verdict = Verdict::default();
    for name in &names {
        let text = std::fs::read_to_string(format!("{dir}/{name}")).expect("the scenario");
        let sc = r.load_scenario(&tabletop::Source::new(name.clone(), text)).expect("it loads");
        let before = verdict.battles;
        for seed in 1..=seeds {
            for players in [
                [Player::Scripted, Player::Scripted],
                [Player::Scripted, Player::Random],
                [Player::Random, Player::Scripted],
                [Player::Random, Player::Random],
            ] {
                // The two mixed pairings take turns, so that each scenario gets three a seed.
                let mixed = players[0] != players[1];
                if mixed && (players[0] == Player::Scripted) != (seed % 2 == 1) {
                    continue;
                }
                umpire_battle(&r, name, &sc, seed, players, &mut verdict);
            }
        }
        println!("{name}: {} battles", verdict.battles - before);
    }
    println!(
        "{} battles on {} scenarios, {} commands, {} events read in {:.1} s: {} violations",
        verdict.battles,
        names.len(),
        verdict.commands,
        verdict.events,
        started.elapsed().as_secs_f64(),
        verdict.violations.len()
    );
    for v in verdict.violations.iter().take(50) {
        println!("{v}");
    }
    if !verdict.violations.is_empty() {
        std::process::exit(1);
    }
}

fn player(name: &str) -> Player {
    match name {
        "scripted" => Player::Scripted,
        "random" => Player::Random,
        other => panic!("unknown player {other}: scripted or random"),
    }
}

/// Prints one battle's log, each command's events after it.
fn show(r: &Othw, path: &str, seed: u64, players: [Player; 2]) {
    use tabletop::rules::Narrate;
    let text = std::fs::read_to_string(path).expect("the scenario");
    let sc = r.load_scenario(&tabletop::Source::new(path, text)).expect("it loads");
    let b = umpire::play(r, &sc, seed, players);
    for e in &b.setup {
        println!("{}", e.narrate().text);
    }
    for (side, c, ev) in &b.commands {
        println!("-- {side}: {c:?}");
        for e in ev {
            println!("{}", e.narrate().text);
        }
    }
    for v in umpire::read(r, &b).0 {
        println!("VIOLATION {v}");
    }
}
