//! `mcts` on the movement rule set (`movement::search`): it plays whole battles through the
//! game, within the rules (the umpire passes them), and the position value it searches by is
//! a share between the sides.
#[path = "umpire/mod.rs"]
mod umpire;

use bots::{Budget, Mcts};
use movement::Movement;
use movement::bot::Scripted;
use movement::search::{MovementHooks, default_config};
use movement::value::position_value;
use std::sync::Arc;
use tabletop::rules::RuleSet;
use tabletop::{Game, Side, Source};
use umpire::{BotBox, check_game, play, ready_scenarios};

fn mcts(iterations: u32) -> BotBox {
    let config = bots::MctsConfig { budget: Budget::Iterations(iterations), ..default_config() };
    Box::new(Mcts::<Movement>::with_hooks(config, Arc::new(MovementHooks)))
}

#[test]
fn mcts_plays_whole_battles_within_the_rules_on_both_sides() {
    let (name, text) =
        ready_scenarios().into_iter().find(|(n, _)| n.ends_with("ford.toml")).unwrap();
    for (seed, red_searches) in [(1, true), (2, false)] {
        let (mut red, mut blue): (BotBox, BotBox) = if red_searches {
            (mcts(12), Box::new(Scripted::default()))
        } else {
            (Box::new(Scripted::default()), mcts(12))
        };
        let g = play(&text, &name, seed, &mut red, &mut blue);
        assert!(g.outcome().is_some(), "seed {seed} did not end");
        let (v, tally) = check_game(&g);
        assert!(v.is_empty(), "seed {seed}: {v:?}");
        assert!(tally.moves > 10, "seed {seed}: only {} moves", tally.moves);
    }
}

#[test]
fn the_position_value_is_a_share_between_the_sides_all_battle_long() {
    let (name, text) =
        ready_scenarios().into_iter().find(|(n, _)| n.ends_with("ford.toml")).unwrap();
    let g = play(&text, &name, 3, &mut (Box::new(Scripted::default()) as BotBox), &mut {
        Box::new(Scripted::default()) as BotBox
    });
    // Replay the battle command by command and value every position on the way.
    let rules = Arc::new(Movement::new());
    let mut replay = Game::new(rules.clone(), Source::new(&name, &*text), 3).unwrap();
    let mut seen = 0;
    for c in g.commands() {
        let state = replay.state();
        let (red, blue) = (position_value(state, Side::Red), position_value(state, Side::Blue));
        assert!((0.0..=1.0).contains(&red), "{red}");
        assert!((red + blue - 1.0).abs() < 1e-9, "red {red} + blue {blue}");
        assert_eq!(rules.evaluate(state, Side::Red), Some(red));
        let command = serde_json::from_value(c.command.clone()).unwrap();
        replay.submit(c.actor, command).unwrap();
        seen += 1;
    }
    assert!(seen > 20);
}
