//! A dyn-safe adapter over [`RuleSet`], so the CLI and the server can host any rule set by its
//! ID, speaking JSON for commands, views and events.
//!
//! A hosted rule set also lists the bots that can command a side in it and makes them by
//! name. Bots are registered on the [`Host`] as factories ([`Host::with_bot`]): this crate
//! knows no bot; the `bots` crate registers its rule-set-independent ones (`random`, `mcts`)
//! for any rule set, and a rule-set crate registers its scripted bot the same way.

use crate::controls::{Controls, MeasureRequest, Measurement, RosterRow};
use crate::diagnostics::{Diagnostics, Source};
use crate::dice::SeededDice;
use crate::game::{Game, Record, RecordedCommand, ReplayError};
use crate::render::Scene;
use crate::rules::{
    Actor, LogLine, Narrate, Outcome, Pending, Refusal, RuleSet, Side, Summary, Viewer,
};
use std::any::Any;
use std::fmt;
use std::sync::Arc;

/// A bot's name and what it does, for listings and messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotInfo {
    /// The name a user gives, such as `mcts`.
    pub name: String,
    /// One line on what it does and which parameters it takes.
    pub about: String,
}

/// A bot as a user names it: `NAME` or `NAME:PARAMS`, where the parameters are comma-separated
/// `key=value` pairs, and a bare value stands for the key `budget`: `random`, `mcts:2000`,
/// `mcts:2s`, `mcts:iterations=500,depth=40`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotSpec {
    /// The bot's name.
    pub name: String,
    /// Its parameters in the order given.
    pub params: Vec<(String, String)>,
}

impl BotSpec {
    /// A bot with no parameters.
    pub fn named(name: impl Into<String>) -> BotSpec {
        BotSpec { name: name.into(), params: Vec::new() }
    }

    /// Parses `NAME[:PARAMS]`; a message on malformed text.
    pub fn parse(text: &str) -> Result<BotSpec, String> {
        let text = text.trim();
        let (name, rest) = match text.split_once(':') {
            Some((n, r)) => (n.trim(), Some(r)),
            None => (text, None),
        };
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || "_-".contains(c)) {
            return Err(format!(
                "'{text}' is not a bot: write NAME or NAME:PARAMS, such as random, mcts or mcts:2000"
            ));
        }
        let mut params = Vec::new();
        if let Some(rest) = rest {
            for part in rest.split(',') {
                let part = part.trim();
                let (key, value) = match part.split_once('=') {
                    Some((k, v)) => (k.trim(), v.trim()),
                    None => ("budget", part),
                };
                if key.is_empty() || value.is_empty() {
                    return Err(format!(
                        "'{text}': bot parameters are comma-separated key=value pairs (or a bare budget), \
                         not '{part}'"
                    ));
                }
                if params.iter().any(|(k, _): &(String, String)| k == key) {
                    return Err(format!("'{text}': the parameter '{key}' is given twice"));
                }
                params.push((key.to_string(), value.to_string()));
            }
        }
        Ok(BotSpec { name: name.to_string(), params })
    }

    /// What the spec asks a bot to spend on a decision, when it names a budget by the
    /// project's keys (`budget`, a bare value, or `iterations` or `time`): a whole number is
    /// iterations, a time ends in `s` or `ms`. `None` when it names none or the value is not
    /// one (the bot itself says what is wrong with it).
    pub fn spend(&self) -> Option<Spend> {
        let (key, value) = self
            .params
            .iter()
            .find(|(k, _)| matches!(k.as_str(), "budget" | "iterations" | "time"))?;
        let iterations = || value.parse::<u64>().ok().map(Spend::Iterations);
        let time = || parse_time(value).map(Spend::Time);
        match key.as_str() {
            "iterations" => iterations(),
            "time" => time(),
            _ => iterations().or_else(time),
        }
    }

    /// The value of a parameter, if given.
    pub fn param(&self, key: &str) -> Option<&str> {
        self.params.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// An error naming the first parameter not in `known`, if any, for factories to refuse
    /// parameters they do not take.
    pub fn only(&self, known: &[&str]) -> Result<(), String> {
        match self.params.iter().find(|(k, _)| !known.contains(&k.as_str())) {
            None => Ok(()),
            Some((k, _)) if known.is_empty() => {
                Err(format!("the bot '{}' takes no parameters, not '{k}'", self.name))
            }
            Some((k, _)) => Err(format!(
                "the bot '{}' has no parameter '{k}': it takes {}",
                self.name,
                known.join(", ")
            )),
        }
    }
}

/// What a bot may spend on one decision.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Spend {
    /// This many iterations of its search.
    Iterations(u64),
    /// This much time.
    Time(std::time::Duration),
}

/// A time as bot specs write it: seconds (`2s`, `1.5s`) or milliseconds (`500ms`), above 0;
/// `None` for anything else.
pub fn parse_time(text: &str) -> Option<std::time::Duration> {
    let (number, scale) = if let Some(n) = text.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = text.strip_suffix('s') {
        (n, 1.0)
    } else {
        return None;
    };
    let secs = number.trim().parse::<f64>().ok()? * scale;
    std::time::Duration::try_from_secs_f64(secs).ok().filter(|d| !d.is_zero())
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        for (i, (k, v)) in self.params.iter().enumerate() {
            f.write_str(if i == 0 { ":" } else { "," })?;
            // A budget given first is written bare, as users write it: `mcts:2000`.
            if i == 0 && k == "budget" {
                f.write_str(v)?;
            } else {
                write!(f, "{k}={v}")?;
            }
        }
        Ok(())
    }
}

impl std::str::FromStr for BotSpec {
    type Err = String;
    fn from_str(s: &str) -> Result<BotSpec, String> {
        BotSpec::parse(s)
    }
}

/// A bot behind a trait object: it reads a hosted game and proposes a command as JSON.
pub trait HostedBot: Send {
    /// What the bot is, with its settings, for logs and reports (`mcts, 1000 iterations`).
    fn describe(&self) -> String;
    /// The command `side` should give now. All the bot's randomness comes from `rng`, so a bot
    /// given the same game and the same generator chooses the same command (unless it is
    /// budgeted by wall time).
    fn choose(
        &mut self,
        game: &dyn HostedGame,
        side: Side,
        rng: &mut SeededDice,
    ) -> Result<serde_json::Value, String>;

    /// True when the bot, kept from one game to the next, chooses exactly as a new one with the
    /// same settings would, so that a simulation may keep it between games. False unless the
    /// bot says so.
    fn reusable(&self) -> bool {
        false
    }
}

/// Makes a bot from a user's [`BotSpec`], or says what is wrong with its parameters.
pub type BotFactory = Arc<dyn Fn(&BotSpec) -> Result<Box<dyn HostedBot>, String> + Send + Sync>;

/// The concrete game behind a hosted one, if it is a game of `R`.
pub fn game_of<R: RuleSet>(game: &dyn HostedGame) -> Option<&Game<R>> {
    game.as_any().downcast_ref::<Game<R>>()
}

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
    /// Reads a scenario once, for starting many games of it ([`HostedScenario::new_game`]).
    fn load(&self, source: Source) -> Result<Box<dyn HostedScenario>, Diagnostics>;
    /// Replays a record, checking every recorded state hash.
    fn replay(&self, record: &Record) -> Result<Box<dyn HostedGame>, ReplayError>;
    /// The bots that can command a side, in the order registered.
    fn bots(&self) -> Vec<BotInfo>;
    /// Makes the bot `spec` names; an unknown name or a bad parameter is an error message
    /// (an unknown name's message lists the known ones).
    fn new_bot(&self, spec: &BotSpec) -> Result<Box<dyn HostedBot>, String>;
}

/// A scenario read once, behind a trait object: games of it start without reading the file
/// again (a simulation starts thousands).
pub trait HostedScenario: Send + Sync {
    /// Starts a game of it with `seed`, as [`HostedRuleSet::new_game`] would from its file.
    fn new_game(&self, seed: u64) -> Box<dyn HostedGame>;
}

/// A scenario of rule set `R`, read.
struct Loaded<R: RuleSet> {
    rules: Arc<R>,
    scenario: R::Scenario,
    source: Source,
}

impl<R: RuleSet> HostedScenario for Loaded<R> {
    fn new_game(&self, seed: u64) -> Box<dyn HostedGame> {
        let (rules, scenario) = (self.rules.clone(), self.scenario.clone());
        Box::new(Game::from_scenario(rules, scenario, self.source.clone(), seed))
    }
}

/// A game behind a trait object.
pub trait HostedGame: Send {
    /// Checks and carries out a command given as JSON; returns the new log lines.
    fn submit(&mut self, actor: Actor, command: serde_json::Value)
    -> Result<Vec<LogLine>, Refusal>;
    /// [`HostedGame::submit`] without narrating the new events (for a caller that does not
    /// read them).
    fn submit_quietly(&mut self, actor: Actor, command: serde_json::Value) -> Result<(), Refusal>;
    /// Whether each recorded command carries the hash of the state after it
    /// ([`Game::set_hashing`]).
    fn set_hashing(&mut self, on: bool);
    /// Who must decide what now.
    fn pending(&self) -> Pending;
    /// The result, once over.
    fn outcome(&self) -> Option<Outcome>;
    /// What `viewer` may see, as JSON.
    fn view(&self, viewer: Viewer) -> serde_json::Value;
    /// What `viewer` may see, as JSON text (the same as [`HostedGame::view`], written
    /// directly: a server sends views after every command).
    fn view_text(&self, viewer: Viewer) -> String;
    /// The whole narrated log.
    fn log(&self) -> Vec<LogLine>;
    /// The events as JSON (for clients that draw them).
    fn events(&self) -> Vec<serde_json::Value>;
    /// Where each command's events start in [`HostedGame::events`] (set-up events come first).
    fn command_starts(&self) -> Vec<usize>;
    /// The record.
    fn record(&self) -> Record;
    /// The state hash.
    fn state_hash(&self) -> u64;
    /// How many commands have been applied.
    fn command_count(&self) -> usize;
    /// The command at `index` as recorded, with the state hash after it.
    fn recorded(&self, index: usize) -> Option<RecordedCommand>;
    /// Whether the command at `index` rolled any die ([`Game::rolled_dice`]).
    fn rolled_dice(&self, index: usize) -> Option<bool>;
    /// The table as `viewer` may see it.
    fn scene(&self, viewer: Viewer) -> Scene;
    /// What a client may offer `side` now (see [`crate::controls`]).
    fn controls(&self, side: Side) -> Controls;
    /// Measures a move of `side`'s unit dragged to a point.
    fn measure(&self, side: Side, request: &MeasureRequest) -> Option<Measurement>;
    /// The roster sheet as `viewer` may see it.
    fn roster(&self, viewer: Viewer) -> Vec<RosterRow>;
    /// Candidate commands for `side`, as JSON.
    fn candidates(&self, side: Side, rng: &mut SeededDice) -> Vec<serde_json::Value>;
    /// A copy of the game.
    fn boxed_clone(&self) -> Box<dyn HostedGame>;
    /// The turn the game is in ([`RuleSet::turn`]).
    fn turn(&self) -> Option<u32>;
    /// Losses and what is left per side ([`RuleSet::summary`]).
    fn summary(&self) -> Summary;
    /// The timed window's clock ([`RuleSet::timed_clock`]); `None` outside timed windows.
    fn timed_clock(&self) -> Option<crate::rules::TimedClock>;
    /// The concrete game, for code that knows the rule set (bots): see [`game_of`].
    fn as_any(&self) -> &dyn Any;
}

/// Hosts a concrete rule set, with the bots registered for it.
pub struct Host<R: RuleSet> {
    rules: Arc<R>,
    bots: Vec<(BotInfo, BotFactory)>,
}

impl<R: RuleSet> Host<R> {
    /// Hosts `rules`, with no bots yet.
    pub fn new(rules: R) -> Self {
        Host::shared(Arc::new(rules))
    }

    /// Hosts rules already shared, with no bots yet.
    pub fn shared(rules: Arc<R>) -> Self {
        Host { rules, bots: Vec::new() }
    }

    /// The rules.
    pub fn rules(&self) -> &Arc<R> {
        &self.rules
    }

    /// Registers a bot under `name`; a later registration under the same name replaces the
    /// earlier one (so a rule set can replace a generic bot by a tuned one).
    pub fn with_bot(
        mut self,
        name: &str,
        about: &str,
        factory: impl Fn(&BotSpec) -> Result<Box<dyn HostedBot>, String> + Send + Sync + 'static,
    ) -> Self {
        let info = BotInfo { name: name.to_string(), about: about.to_string() };
        let factory: BotFactory = Arc::new(factory);
        match self.bots.iter_mut().find(|(i, _)| i.name == name) {
            Some(slot) => *slot = (info, factory),
            None => self.bots.push((info, factory)),
        }
        self
    }
}

impl<R: RuleSet> HostedRuleSet for Host<R> {
    fn id(&self) -> &'static str {
        self.rules.id()
    }
    fn version(&self) -> &'static str {
        self.rules.version()
    }
    fn validate(&self, source: &Source) -> Result<(), Diagnostics> {
        self.rules.load_scenario(source).map(|_| ())
    }
    fn new_game(&self, source: Source, seed: u64) -> Result<Box<dyn HostedGame>, Diagnostics> {
        Ok(Box::new(Game::new(self.rules.clone(), source, seed)?))
    }
    fn load(&self, source: Source) -> Result<Box<dyn HostedScenario>, Diagnostics> {
        let scenario = self.rules.load_scenario(&source)?;
        Ok(Box::new(Loaded { rules: self.rules.clone(), scenario, source }))
    }
    fn replay(&self, record: &Record) -> Result<Box<dyn HostedGame>, ReplayError> {
        Ok(Box::new(Game::replay(self.rules.clone(), record)?))
    }
    fn bots(&self) -> Vec<BotInfo> {
        self.bots.iter().map(|(i, _)| i.clone()).collect()
    }
    fn new_bot(&self, spec: &BotSpec) -> Result<Box<dyn HostedBot>, String> {
        match self.bots.iter().find(|(i, _)| i.name == spec.name) {
            Some((_, factory)) => factory(spec),
            None if self.bots.is_empty() => Err(format!(
                "unknown bot '{}': the rule set '{}' has no bots",
                spec.name,
                self.id()
            )),
            None => Err(format!(
                "unknown bot '{}' for the rule set '{}': known bots are {}",
                spec.name,
                self.id(),
                self.bots.iter().map(|(i, _)| i.name.as_str()).collect::<Vec<_>>().join(", ")
            )),
        }
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
    fn submit_quietly(&mut self, actor: Actor, command: serde_json::Value) -> Result<(), Refusal> {
        self.submit_json(actor, command).map(|_| ())
    }
    fn set_hashing(&mut self, on: bool) {
        Game::set_hashing(self, on)
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
    fn view_text(&self, viewer: Viewer) -> String {
        serde_json::to_string(&self.rules().view(self.state(), viewer)).expect("views serialise")
    }
    fn log(&self) -> Vec<LogLine> {
        Game::log(self)
    }
    fn events(&self) -> Vec<serde_json::Value> {
        self.events().iter().map(|e| serde_json::to_value(e).expect("events serialise")).collect()
    }
    fn command_starts(&self) -> Vec<usize> {
        Game::command_starts(self).to_vec()
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
    fn recorded(&self, index: usize) -> Option<RecordedCommand> {
        self.commands().get(index).cloned()
    }
    fn rolled_dice(&self, index: usize) -> Option<bool> {
        Game::rolled_dice(self, index)
    }
    fn scene(&self, viewer: Viewer) -> Scene {
        self.rules().scene(self.state(), viewer)
    }
    fn controls(&self, side: Side) -> Controls {
        self.rules().controls(self.state(), side)
    }
    fn measure(&self, side: Side, request: &MeasureRequest) -> Option<Measurement> {
        self.rules().measure(self.state(), side, request)
    }
    fn roster(&self, viewer: Viewer) -> Vec<RosterRow> {
        self.rules().roster(self.state(), viewer)
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
    fn turn(&self) -> Option<u32> {
        self.rules().turn(self.state())
    }
    fn summary(&self) -> Summary {
        self.rules().summary(self.state())
    }
    fn timed_clock(&self) -> Option<crate::rules::TimedClock> {
        self.rules().timed_clock(self.state())
    }
    fn as_any(&self) -> &dyn Any {
        self
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bot_specs_parse_and_print_back() {
        let s = BotSpec::parse(" mcts:2000, depth = 40 ").unwrap();
        assert_eq!(s.name, "mcts");
        assert_eq!(s.param("budget"), Some("2000"));
        assert_eq!(s.param("depth"), Some("40"));
        assert_eq!(s.to_string(), "mcts:2000,depth=40");
        let later = BotSpec::parse("mcts:depth=4,budget=9").unwrap();
        assert_eq!(BotSpec::parse(&later.to_string()).unwrap(), later);
        assert_eq!(BotSpec::parse(&s.to_string()).unwrap(), s);
        assert_eq!(BotSpec::parse("random").unwrap(), BotSpec::named("random"));
        for bad in ["", ":3", "mc ts", "mcts:", "mcts:a=", "mcts:=3", "mcts:a=1,a=2"] {
            assert!(BotSpec::parse(bad).is_err(), "{bad:?}");
        }
        assert!(s.only(&["budget", "depth"]).is_ok());
        assert!(s.only(&["budget"]).unwrap_err().contains("no parameter 'depth'"));
        assert!(s.only(&[]).unwrap_err().contains("takes no parameters"));
    }
}
