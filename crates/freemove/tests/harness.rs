//! The shared random-game harness on every ready scenario (clone and serde round trips, replay
//! equality, no panics, every candidate accepted, games end within a bound), a golden
//! playthrough, and a record that replays to the same state.

mod common;
use freemove::Freemove;
use std::sync::Arc;
use tabletop::Source;
use tabletop::dice::SeededDice;
use tabletop::game::Game;
use tabletop::harness::{HarnessConfig, run};
use tabletop::host::{Host, HostedRuleSet};
use tabletop::rules::{Actor, Narrate};

const READY: [&str; 4] =
    ["legion_and_host.toml", "horse_archers.toml", "walled_farm.toml", "grid_skirmish.toml"];

fn text(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/../../scenarios/freemove/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("a ready scenario")
}

#[test]
fn random_games_on_every_ready_scenario_pass_the_harness() {
    let games = if cfg!(debug_assertions) { 3 } else { 40 };
    for (k, name) in READY.iter().enumerate() {
        let source = Source::new(format!("scenarios/freemove/{name}"), text(name));
        let report = run(
            Arc::new(Freemove::new()),
            &source,
            &HarnessConfig {
                games,
                seed: 1 + 1000 * k as u64,
                max_commands: 20_000,
                check_every: 50,
            },
        )
        .unwrap_or_else(|f| panic!("{name}: {f}"));
        assert_eq!(report.red_wins + report.blue_wins + report.draws, games);
        eprintln!("{name}: {report:?}");
    }
}

/// A scripted battle, told as its log.
fn battle(name: &str, seed: u64) -> Game<Freemove> {
    let host = freemove::bot::register(bots::with_standard_bots(Host::new(Freemove::new())));
    let mut g = Game::new(
        Arc::new(Freemove::new()),
        Source::new(format!("scenarios/freemove/{name}"), text(name)),
        seed,
    )
    .expect("it loads");
    let spec = "scripted".parse().expect("a spec");
    let mut bots = [host.new_bot(&spec).expect("a bot"), host.new_bot(&spec).expect("a bot")];
    let mut rng = SeededDice::new(seed);
    let mut n = 0;
    while g.outcome().is_none() {
        let side = g.pending().sides()[0];
        let c = bots[side.index()].choose(&g, side, &mut rng).expect("a command");
        g.submit_json(Actor::Side(side), c).expect("the general's command is legal");
        n += 1;
        assert!(n < 20_000, "the battle ends");
    }
    g
}

#[test]
fn a_scripted_battle_replays_to_the_same_state() {
    let g = battle("horse_archers.toml", 5);
    let record = g.record();
    let back = Game::<Freemove>::replay(Arc::new(Freemove::new()), &record).expect("it replays");
    assert_eq!(back.state_hash(), g.state_hash());
    assert_eq!(back.log(), g.log());
}

#[test]
fn the_golden_playthrough_is_unchanged() {
    let g = battle("legion_and_host.toml", 7);
    let log: Vec<String> = g.events().iter().map(|e| e.narrate().text).collect();
    let got = log.join("\n") + "\n";
    let path = format!("{}/tests/golden/legion_and_host_seed7.txt", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("FREEMOVE_BLESS").is_some() {
        std::fs::write(&path, &got).expect("written");
    }
    let want = std::fs::read_to_string(&path).expect("the golden log (FREEMOVE_BLESS=1 writes it)");
    if got != want {
        let first = got.lines().zip(want.lines()).position(|(a, b)| a != b).unwrap_or(0);
        panic!(
            "the log differs from line {}:\n got: {}\nwant: {}\n(FREEMOVE_BLESS=1 cargo test -p freemove --test harness writes it anew)",
            first + 1,
            got.lines().nth(first).unwrap_or(""),
            want.lines().nth(first).unwrap_or("")
        );
    }
}
