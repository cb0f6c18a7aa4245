//! The shared random-game harness on the ready scenario: clone and serde round trips, replay
//! equality, no panics, every candidate legal, games end.
mod common;
use common::*;
use std::sync::Arc;
use tabletop::harness::{HarnessConfig, run};

#[test]
fn random_games_on_the_ford_scenario_pass_the_harness() {
    let source = tabletop::Source::new("scenarios/movement/ford.toml", ford_text());
    let games = if cfg!(debug_assertions) { 3 } else { 20 };
    let report = run(
        Arc::new(rules()),
        &source,
        &HarnessConfig { games, seed: 11, max_commands: 5_000, check_every: 1 },
    )
    .unwrap_or_else(|f| panic!("{f}"));
    assert_eq!(report.games, games);
    assert!(report.commands > games * 16, "{report:?}");
}
