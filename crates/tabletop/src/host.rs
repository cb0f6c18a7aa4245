//! A dyn-safe adapter over [`RuleSet`], so the CLI and the server can host any rule set by its
//! ID, speaking JSON for commands, views and events.

use crate::diagnostics::{Diagnostics, Source};
use crate::dice::SeededDice;
use crate::game::{Game, Record, ReplayError};
use crate::render::Scene;
use crate::rules::{Actor, LogLine, Narrate, Outcome, Pending, Refusal, RuleSet, Side, Viewer};
use std::sync::Arc;

/// A rule set behind a trait object.
pub trait HostedRuleSet: Send + Sync {
    /// The rule set's ID.
    fn id(&self) -> &'static str;
    /// Its version.
    fn version(&self) -> &'static str;
    /// Checks a scenario file, reporting every problem.
    fn validate(&self, source: &Source) -> Result<(), Diagnostics>;
    /// Starts a game.
    fn new_game(&self, source: Source, seed: u64) -> Result<Box<dyn HostedGame>, Diagnostics>;
    /// Replays a record, checking every recorded state hash.
    fn replay(&self, record: &Record) -> Result<Box<dyn HostedGame>, ReplayError>;
}

/// A game behind a trait object.
pub trait HostedGame: Send {
    /// Checks and carries out a command given as JSON; returns the new log lines.
    fn submit(&mut self, actor: Actor, command: serde_json::Value)
    -> Result<Vec<LogLine>, Refusal>;
    /// Who must decide what now.
    fn pending(&self) -> Pending;
    /// The result, once over.
    fn outcome(&self) -> Option<Outcome>;
    /// What `viewer` may see, as JSON.
    fn view(&self, viewer: Viewer) -> serde_json::Value;
    /// The whole narrated log.
    fn log(&self) -> Vec<LogLine>;
    /// The events as JSON (for clients that draw them).
    fn events(&self) -> Vec<serde_json::Value>;
    /// The record.
    fn record(&self) -> Record;
    /// The state hash.
    fn state_hash(&self) -> u64;
    /// How many commands have been applied.
    fn command_count(&self) -> usize;
    /// The table as `viewer` may see it.
    fn scene(&self, viewer: Viewer) -> Scene;
    /// Candidate commands for `side`, as JSON.
    fn candidates(&self, side: Side, rng: &mut SeededDice) -> Vec<serde_json::Value>;
    /// A copy of the game.
    fn boxed_clone(&self) -> Box<dyn HostedGame>;
}

/// Hosts a concrete rule set.
pub struct Host<R: RuleSet>(pub Arc<R>);

impl<R: RuleSet> HostedRuleSet for Host<R> {
    fn id(&self) -> &'static str {
        self.0.id()
    }
    fn version(&self) -> &'static str {
        self.0.version()
    }
    fn validate(&self, source: &Source) -> Result<(), Diagnostics> {
        self.0.load_scenario(source).map(|_| ())
    }
    fn new_game(&self, source: Source, seed: u64) -> Result<Box<dyn HostedGame>, Diagnostics> {
        Ok(Box::new(Game::new(self.0.clone(), source, seed)?))
    }
    fn replay(&self, record: &Record) -> Result<Box<dyn HostedGame>, ReplayError> {
        Ok(Box::new(Game::replay(self.0.clone(), record)?))
    }
}

impl<R: RuleSet> HostedGame for Game<R> {
    fn submit(
        &mut self,
        actor: Actor,
        command: serde_json::Value,
    ) -> Result<Vec<LogLine>, Refusal> {
        let events = self.submit_json(actor, command)?;
        Ok(events.iter().map(|e| e.narrate()).collect())
    }
    fn pending(&self) -> Pending {
        Game::pending(self)
    }
    fn outcome(&self) -> Option<Outcome> {
        Game::outcome(self)
    }
    fn view(&self, viewer: Viewer) -> serde_json::Value {
        serde_json::to_value(self.rules().view(self.state(), viewer)).expect("views serialise")
    }
    fn log(&self) -> Vec<LogLine> {
        Game::log(self)
    }
    fn events(&self) -> Vec<serde_json::Value> {
        self.events().iter().map(|e| serde_json::to_value(e).expect("events serialise")).collect()
    }
    fn record(&self) -> Record {
        Game::record(self)
    }
    fn state_hash(&self) -> u64 {
        Game::state_hash(self)
    }
    fn command_count(&self) -> usize {
        Game::command_count(self)
    }
    fn scene(&self, viewer: Viewer) -> Scene {
        self.rules().scene(self.state(), viewer)
    }
    fn candidates(&self, side: Side, rng: &mut SeededDice) -> Vec<serde_json::Value> {
        self.rules()
            .candidates(self.state(), side, rng)
            .iter()
            .map(|c| serde_json::to_value(c).expect("commands serialise"))
            .collect()
    }
    fn boxed_clone(&self) -> Box<dyn HostedGame> {
        Box::new(self.clone())
    }
}

/// The rule sets a program hosts, looked up by ID.
#[derive(Default)]
pub struct Registry {
    entries: Vec<Box<dyn HostedRuleSet>>,
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Self {
        Registry::default()
    }

    /// Adds a rule set.
    pub fn add(&mut self, rules: Box<dyn HostedRuleSet>) {
        self.entries.push(rules);
    }

    /// The rule set with this ID.
    pub fn get(&self, id: &str) -> Option<&dyn HostedRuleSet> {
        self.entries.iter().find(|r| r.id() == id).map(|r| r.as_ref())
    }

    /// Every hosted rule set, in the order added.
    pub fn all(&self) -> impl Iterator<Item = &dyn HostedRuleSet> {
        self.entries.iter().map(|r| r.as_ref())
    }

    /// The IDs, comma-separated, for messages.
    pub fn ids(&self) -> String {
        self.entries.iter().map(|r| r.id()).collect::<Vec<_>>().join(", ")
    }
}
