//! The umpire over whole battles: every ready scenario, scripted against scripted and the
//! random player against the scripted general on either side; and the umpire itself, shown a
//! doctored step and melee, says what is wrong.

use bots::RandomBot;
use freemove::Freemove;
use freemove::bot::Scripted;
use freemove::state::Event;
use freemove::umpire::{READY_DIR, Step, Umpire, play, ready_scenarios};
use std::sync::Arc;
use tabletop::game::Game;
use tabletop::rules::Actor;

fn source(name: &str) -> tabletop::Source {
    let text = std::fs::read_to_string(format!("{READY_DIR}/{name}")).unwrap();
    tabletop::Source::new(format!("scenarios/freemove/{name}"), text)
}

fn battle(name: &str, seed: u64, red: &str, blue: &str) -> freemove::umpire::Checked {
    let rules = Arc::new(Freemove::new());
    let (mut s1, mut s2, mut r1, mut r2) = (Scripted, Scripted, RandomBot, RandomBot);
    let red_bot: &mut dyn bots::Bot<Freemove> = if red == "scripted" { &mut s1 } else { &mut r1 };
    let blue_bot: &mut dyn bots::Bot<Freemove> = if blue == "scripted" { &mut s2 } else { &mut r2 };
    play(&rules, &source(name), seed, [red_bot, blue_bot], 20_000)
        .unwrap_or_else(|e| panic!("{name} seed {seed} {red} v {blue}: {e}"))
}

#[test]
fn every_ready_scenario_plays_to_the_end_under_the_umpire() {
    let names = ready_scenarios();
    assert!(names.len() >= 4, "the ready scenarios: {names:?}");
    let mut played = 0;
    for (k, name) in names.iter().enumerate() {
        for (red, blue) in
            [("scripted", "scripted"), ("random", "scripted"), ("scripted", "random")]
        {
            let seed = 1 + k as u64;
            let c = battle(name, seed, red, blue);
            assert!(c.finished, "{name} seed {seed} {red} v {blue} did not finish");
            let shown: Vec<String> = c.violations.iter().take(5).map(|v| v.to_string()).collect();
            assert!(
                c.violations.is_empty(),
                "{name} seed {seed} {red} v {blue}: {} violations: {shown:#?}",
                c.violations.len()
            );
            played += 1;
        }
    }
    assert!(played >= 12);
}

/// The first command of a battle whose events hold what `pick` looks for, with the state
/// before and after it.
fn first_command(
    name: &str,
    pick: impl Fn(&Event) -> bool,
) -> (Arc<Freemove>, Actor, freemove::State, freemove::state::Command, Vec<Event>, freemove::State)
{
    let rules = Arc::new(Freemove::new());
    let c = battle(name, 1, "scripted", "scripted");
    let record = c.game.record();
    let mut g = Game::new(rules.clone(), source(name), 1).unwrap();
    for rc in &record.commands {
        let before = g.state().clone();
        let cmd: freemove::state::Command = serde_json::from_value(rc.command.clone()).unwrap();
        let events = g.submit(rc.actor, cmd.clone()).unwrap().to_vec();
        if events.iter().any(&pick) {
            return (rules, rc.actor, before, cmd, events, g.state().clone());
        }
    }
    panic!("no such command in {name}");
}

#[test]
fn the_umpire_catches_a_step_over_its_allowance_and_a_miscounted_melee() {
    // A step whose cost is logged over its allowance, and not the sum of its items.
    let (rules, actor, before, cmd, mut events, after) =
        first_command("legion_and_host.toml", |e| matches!(e, Event::Stepped { .. }));
    let clean = Umpire.check(
        &rules,
        &Step { index: 0, actor, command: &cmd, before: &before, events: &events, after: &after },
    );
    assert!(clean.is_empty(), "{clean:?}");
    for e in &mut events {
        if let Event::Stepped { cost, .. } = e {
            *cost += 10.0;
        }
    }
    let v = Umpire.check(
        &rules,
        &Step { index: 0, actor, command: &cmd, before: &before, events: &events, after: &after },
    );
    let text: Vec<String> = v.iter().map(|v| v.what.clone()).collect();
    assert!(text.iter().any(|t| t.contains("items add up")), "{text:?}");
    assert!(text.iter().any(|t| t.contains("over its")), "{text:?}");

    // A melee whose loser's loss is not half its points rounded up.
    let (rules, actor, before, cmd, mut events, after) =
        first_command("legion_and_host.toml", |e| matches!(e, Event::Fought { .. }));
    for e in &mut events {
        if let Event::Fought { losses, .. } = e {
            losses.0 += 1;
        }
    }
    let v = Umpire.check(
        &rules,
        &Step { index: 0, actor, command: &cmd, before: &before, events: &events, after: &after },
    );
    assert!(v.iter().any(|v| v.what.contains("melee losses")), "{v:?}");
}
