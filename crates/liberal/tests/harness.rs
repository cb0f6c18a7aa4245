//! The shared random-game harness on every ready scenario (clone and serde round trips, replay
//! equality, no panics, every candidate accepted, games end within a bound), a golden
//! playthrough, and a record that replays to the same state.

use liberal::Liberal;
use std::sync::Arc;
use tabletop::Source;
use tabletop::dice::SeededDice;
use tabletop::game::Game;
use tabletop::harness::{HarnessConfig, run};
use tabletop::host::{Host, HostedRuleSet};
use tabletop::rules::{Actor, Narrate};

const READY: [&str; 3] = ["courthouse.toml", "farm.toml", "crossroads.toml"];

fn text(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/../../scenarios/liberal/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("a ready scenario")
}

/// A scripted battle.
fn battle(name: &str, seed: u64) -> Game<Liberal> {
    let host = liberal::bot::register(bots::with_standard_bots(Host::new(Liberal::new())));
    let mut g = Game::new(
        Arc::new(Liberal::new()),
        Source::new(format!("scenarios/liberal/{name}"), text(name)),
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
fn scripted_battles_on_every_ready_scenario_fire_fight_and_end() {
    for name in READY {
        let g = battle(name, 1);
        let log = g.log();
        let cites = |id: &str| log.iter().any(|l| l.rules.iter().any(|r| r.as_str() == id));
        assert!(cites("LIB-FIRE-07"), "{name}: volleys are fired");
        assert!(cites("LIB-HTH-04"), "{name}: single fights are fought");
        assert!(cites("LIB-LIBERAL-04"), "{name}: liberal moves are made");
        assert!(cites("LIB-M-17"), "{name}: the battle ends");
    }
}

#[test]
fn random_games_on_every_ready_scenario_pass_the_harness() {
    let games = if cfg!(debug_assertions) { 3 } else { 40 };
    for (k, name) in READY.iter().enumerate() {
        let source = Source::new(format!("scenarios/liberal/{name}"), text(name));
        let report = run(
            Arc::new(Liberal::new()),
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

#[test]
fn a_scripted_battle_replays_to_the_same_state() {
    let g = battle("farm.toml", 5);
    let record = g.record();
    let back = Game::<Liberal>::replay(Arc::new(Liberal::new()), &record).expect("it replays");
    assert_eq!(back.state_hash(), g.state_hash());
    assert_eq!(back.log(), g.log());
}

#[test]
fn the_golden_playthrough_is_unchanged() {
    let g = battle("courthouse.toml", 7);
    let log: Vec<String> = g.events().iter().map(|e| e.narrate().text).collect();
    let got = log.join("\n") + "\n";
    let path = format!("{}/tests/golden/courthouse_seed7.txt", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("LIBERAL_BLESS").is_some() {
        std::fs::write(&path, &got).expect("written");
    }
    let want = std::fs::read_to_string(&path).expect("the golden log (LIBERAL_BLESS=1 writes it)");
    if got != want {
        let first = got.lines().zip(want.lines()).position(|(a, b)| a != b).unwrap_or(0);
        panic!(
            "the log differs from line {}:\n got: {}\nwant: {}\n(LIBERAL_BLESS=1 cargo test -p liberal --test harness writes it anew)",
            first + 1,
            got.lines().nth(first).unwrap_or(""),
            want.lines().nth(first).unwrap_or("")
        );
    }
}
