//! The shared random-game harness on every ready WRG scenario: clone and serde round trips,
//! replay equality, no panics, every sampled command accepted, games end within a bound.

use std::sync::Arc;
use tabletop::harness::{HarnessConfig, run};
use wrg1969::Wrg1969;

fn harness(name: &str, seed: u64) {
    let path = format!("{}/../../scenarios/wrg1969/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("the scenario is there");
    let source = tabletop::Source::new(format!("scenarios/wrg1969/{name}"), text);
    let games = if cfg!(debug_assertions) { 4 } else { 40 };
    let report = run(
        Arc::new(Wrg1969::new()),
        &source,
        &HarnessConfig { games, seed, max_commands: 200, check_every: 5 },
    )
    .unwrap_or_else(|f| panic!("{name}: {f}"));
    assert_eq!(report.games, games);
    assert_eq!(report.red_wins + report.blue_wins + report.draws, games);
    // Two sides write orders, then plan each of the 30 periods.
    assert!(report.commands >= games * 2, "{report:?}");
    eprintln!("{name}: {report:?}");
}

#[test]
fn random_games_at_the_ford_pass_the_harness() {
    harness("the_ford.toml", 1);
}

#[test]
fn random_games_on_the_hill_pass_the_harness() {
    harness("the_hill.toml", 100);
}

#[test]
fn random_games_at_the_wells_pass_the_harness() {
    harness("the_wells.toml", 200);
}

#[test]
fn random_games_at_the_bridge_pass_the_harness() {
    harness("the_bridge.toml", 300);
}

#[test]
fn random_games_at_the_camp_pass_the_harness() {
    harness("the_camp.toml", 400);
}
