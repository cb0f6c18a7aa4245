//! `mcts` on the movement rule set: Monte Carlo tree search that knows the chapter's game.
//!
//! The generic search would play every iteration out to the end of the game with random moves,
//! hundreds of checked moves each, and learn little from them. Here the search instead
//!
//! - considers, best first, the scripted general's command for the position, then the rule
//!   set's sampled candidates (so it refines the general's plan rather than wandering);
//! - plays out only a few random commands ([`DEPTH`]) and then values the position reached
//!   with [`crate::value::position_value`]: who is nearer each objective, and what each side
//!   has left to hold them with;
//! - runs [`ITERATIONS`] iterations a decision unless told otherwise.
//!
//! Parameters as for the generic `mcts` (`mcts:500`, `mcts:depth=0`, `mcts:2s`).

use crate::Movement;
use crate::bot::Scripted;
use crate::state::{Command, State};
use bots::{Bot, Budget, Hooks, Hosted, Mcts, MctsConfig};
use std::sync::Arc;
use tabletop::SeededDice;
use tabletop::host::{BotSpec, Host, HostedBot};
use tabletop::rules::{RuleSet, Side};

/// The iterations a decision by default.
pub const ITERATIONS: u32 = 200;

/// The play-out length by default, in commands, before the position is valued.
pub const DEPTH: u32 = 2;

/// How many of the rule set's sampled candidates are searched beside the general's command.
const CANDIDATES: usize = 24;

/// What `mcts` on movement says of itself in listings.
pub const ABOUT: &str = "Monte Carlo tree search with the chapter's game in mind (200 iterations \
a decision): searches the scripted general's command and the sampled candidates, plays out two \
commands and values who is nearer each objective and the strength left; parameters as for the \
generic mcts (a bare budget, iterations=N, time=T, depth=N, c=X, widen=X)";

/// The hooks: the general's command first, short play-outs, the position's value.
#[derive(Clone, Copy, Debug, Default)]
pub struct MovementHooks;

impl Hooks<Movement> for MovementHooks {
    fn informed(&self, _rules: &Movement, _state: &State, _side: Side) -> bool {
        true
    }

    fn options(
        &self,
        rules: &Movement,
        state: &State,
        side: Side,
        rng: &mut SeededDice,
    ) -> Option<Vec<Command>> {
        if rules.outcome(state).is_some() {
            return None;
        }
        let mut out: Vec<Command> = Vec::new();
        if let Ok(c) = Scripted::default().choose(rules, state, side, rng) {
            out.push(c);
        }
        for c in rules.candidates(state, side, rng) {
            if out.len() > CANDIDATES {
                break;
            }
            if !out.contains(&c) && rules.check(state, tabletop::Actor::Side(side), &c).is_ok() {
                out.push(c);
            }
        }
        (!out.is_empty()).then_some(out)
    }
}

/// The default settings: [`ITERATIONS`] a decision, play-outs of [`DEPTH`] commands,
/// exploration 0.3 (values are shares between 0 and 1 that differ by a few hundredths).
pub fn default_config() -> MctsConfig {
    MctsConfig {
        budget: Budget::Iterations(ITERATIONS),
        exploration: 0.3,
        rollout_depth: Some(DEPTH),
        ..MctsConfig::default()
    }
}

/// Registers `mcts` with [`MovementHooks`] in place of the generic search (call after
/// `bots::with_standard_bots`).
pub fn register(host: Host<Movement>) -> Host<Movement> {
    host.with_bot("mcts", ABOUT, |spec: &BotSpec| {
        let config = MctsConfig::from_spec_with(spec, default_config())?;
        Ok(Box::new(Hosted::new(Mcts::with_hooks(config, Arc::new(MovementHooks))))
            as Box<dyn HostedBot>)
    })
}
