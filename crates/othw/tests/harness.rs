//! The shared random-game harness on every ready scenario: clone and serde round trips, replay
//! equality, no panics, every legal command accepted, games end within a bound.
mod common;
use common::*;
use std::sync::Arc;
use tabletop::harness::{HarnessConfig, run};

fn harness(name: &str, seed: u64) {
    harness_of(name, seed, if cfg!(debug_assertions) { 50 } else { 500 });
}

fn harness_of(name: &str, seed: u64, games: u64) {
    let source = tabletop::Source::new(format!("scenarios/othw/{name}"), ready(name));
    let report = run(
        Arc::new(rules()),
        &source,
        &HarnessConfig { games, seed, max_commands: 3_000, check_every: 25 },
    )
    .unwrap_or_else(|f| panic!("{name}: {f}"));
    assert_eq!(report.games, games);
    assert_eq!(report.red_wins + report.blue_wins + report.draws, games);
    assert!(report.longest <= 3_000, "{report:?}");
    assert!(report.commands > games * 10, "{report:?}");
    eprintln!("{name}: {report:?}");
}

#[test]
fn random_games_on_the_open_field_pass_the_harness() {
    harness("open_field.toml", 1);
}

#[test]
fn random_games_at_the_ford_pass_the_harness() {
    harness("river_ford.toml", 1_000);
}

#[test]
fn random_games_in_hills_and_woods_pass_the_harness() {
    harness("hills_woods.toml", 2_000);
}

#[test]
fn random_games_of_generic_troops_pass_the_harness() {
    harness("generic.toml", 3_000);
}

#[test]
fn random_games_of_the_historical_battles_pass_the_harness() {
    let games = if cfg!(debug_assertions) { 20 } else { 300 };
    for (k, name) in ["gaugamela.toml", "raphia.toml", "zama.toml"].into_iter().enumerate() {
        harness_of(name, 4_000 + 1_000 * k as u64, games);
    }
}
