//! O/THW knowledge for Monte Carlo tree search ([`OthwHooks`]) and [`register`], which offers
//! the scripted player and the tuned search on a [`Host`].

use crate::Othw;
use crate::bot::{SCRIPTED_ABOUT, Scripted};
use crate::state::{Command, State};
use bots::{Hooks, Hosted};
use std::sync::Arc;
use tabletop::SeededDice;
use tabletop::host::{BotSpec, Host, HostedBot};
use tabletop::rules::Side;

/// O/THW knowledge for Monte Carlo tree search: the rule set's evaluation (army morale and
/// strength kept, own against the enemy's) at the leaves, and play-outs by the scripted player
/// that stop, on each command, with chance [`OthwHooks::stop`] (so play-outs stay short and
/// the evaluation does the rest).
#[derive(Debug)]
pub struct OthwHooks {
    /// The chance that a play-out stops before each command.
    pub stop: f64,
    player: std::sync::Mutex<Scripted>,
}

impl Default for OthwHooks {
    fn default() -> Self {
        OthwHooks { stop: 0.05, player: std::sync::Mutex::new(Scripted::new()) }
    }
}

impl Hooks<Othw> for OthwHooks {
    fn evaluate(&self, rules: &Othw, state: &State, side: Side) -> f64 {
        bots::mcts::default_value(rules, state, side)
    }

    fn playout(
        &self,
        rules: &Othw,
        state: &State,
        side: Side,
        rng: &mut SeededDice,
    ) -> Option<Command> {
        let threshold = (self.stop.clamp(0.0, 1.0) * f64::from(u32::MAX)) as u32;
        if rng.next_u32() < threshold {
            return None;
        }
        let mut player = self.player.lock().unwrap_or_else(|e| e.into_inner());
        player.best(rules, state, side).map(|(c, _)| c)
    }
}

/// Registers the scripted player as `scripted`, and an MCTS bot that searches with
/// [`OthwHooks`] as `mcts-othw`, on an O/THW host (call after `bots::with_standard_bots`).
pub fn register(host: Host<Othw>) -> Host<Othw> {
    let host = host.with_bot("scripted", SCRIPTED_ABOUT, |spec: &BotSpec| {
        spec.only(&[])?;
        Ok(Box::new(Hosted::<Othw, _>::new(Scripted::new())) as Box<dyn HostedBot>)
    });
    bots::with_mcts_hooks(host, "mcts-othw", Arc::new(OthwHooks::default()))
}
