//! A game in play, its record, and replay with state-hash checkups.
//!
//! A [`Record`] is everything needed to reproduce a battle: the rule set's ID and version, the
//! scenario's text, the seed and the commands in order. Each recorded command also carries the
//! hash of the state after it, so replay can report the first command where a record diverges.

use crate::diagnostics::{Diagnostics, Source};
use crate::dice::{DiceSource, SeededDice};
use crate::rules::{Actor, LogLine, Narrate, Outcome, Pending, Refusal, RuleSet};
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::sync::Arc;

std::thread_local! {
    static HASHING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// True while [`state_hash`] is writing a state out on this thread (compact JSON, as
/// `serde_json::to_writer` writes it). A state's `Serialize` may then write a part from a cache
/// of that part's JSON, provided the bytes are the same as it would write anew: the hash of a
/// large state then costs little more than reading it.
pub fn hashing() -> bool {
    HASHING.with(|h| h.get())
}

/// The FNV-1a 64-bit hash of a state's serde form: stable across runs and platforms.
pub fn state_hash<T: Serialize>(state: &T) -> u64 {
    /// Marks the thread as hashing while alive, and puts back what it found.
    struct Hashing(bool);
    impl Drop for Hashing {
        fn drop(&mut self) {
            HASHING.with(|h| h.set(self.0));
        }
    }
    struct Fnv(u64);
    impl Write for Fnv {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            for b in buf {
                self.0 ^= *b as u64;
                self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
            }
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    let _hashing = Hashing(HASHING.with(|h| h.replace(true)));
    serde_json::to_writer(&mut h, state).expect("a game state always serialises");
    h.0
}

/// A hash written as 16 hex digits (JSON numbers cannot hold every `u64` exactly).
pub fn hash_hex(h: u64) -> String {
    format!("{h:016x}")
}

/// One command of a record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordedCommand {
    /// Who gave it.
    pub actor: Actor,
    /// The command, in the rule set's serde form.
    pub command: serde_json::Value,
    /// The state hash after it, as 16 hex digits; absent in hand-written records.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hash: Option<String>,
}

/// A game record: {rule set and version, scenario, seed, commands}.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// The rule set's ID.
    pub ruleset: String,
    /// The rule set's version when the game was played.
    pub version: String,
    /// Where the scenario came from (a file name), for messages.
    pub scenario_name: String,
    /// The scenario's full text, so a record stands alone.
    pub scenario: String,
    /// The game's seed.
    pub seed: u64,
    /// The commands in order.
    pub commands: Vec<RecordedCommand>,
}

/// Why a replay failed.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// The record is for another rule set.
    #[error("the record is for rule set '{found}', not '{expected}'")]
    WrongRuleSet {
        /// The rule set replaying.
        expected: String,
        /// The record's.
        found: String,
    },
    /// The scenario in the record does not validate.
    #[error("the record's scenario does not validate:\n{0}")]
    Scenario(Diagnostics),
    /// A command does not parse as a command of this rule set.
    #[error("command {index} does not parse: {message}")]
    BadCommand {
        /// 0-based index.
        index: usize,
        /// The parser's message.
        message: String,
    },
    /// A command was refused on replay.
    #[error("command {index} was refused on replay: {refusal}")]
    Refused {
        /// 0-based index.
        index: usize,
        /// The refusal.
        refusal: Refusal,
    },
    /// The state after a command differs from the one recorded.
    #[error("the record diverges at command {index}: state hash {actual}, recorded {recorded}")]
    Diverged {
        /// 0-based index of the first command whose resulting state differs.
        index: usize,
        /// The recorded hash.
        recorded: String,
        /// The hash replay computed.
        actual: String,
    },
}

/// A game in play: the rules, the scenario, the state, the dice, the log and the record.
pub struct Game<R: RuleSet> {
    rules: Arc<R>,
    scenario: R::Scenario,
    source: Source,
    seed: u64,
    state: R::State,
    dice: SeededDice,
    events: Vec<R::Event>,
    commands: Vec<RecordedCommand>,
    /// Index into `events` where each command's events start (for undo and replay steps).
    command_starts: Vec<usize>,
    /// Whether each command drew from the dice (for undo: a command that rolled cannot be
    /// taken back).
    rolled: Vec<bool>,
    /// Whether each recorded command carries the hash of the state after it.
    hashing: bool,
}

impl<R: RuleSet> Clone for Game<R> {
    fn clone(&self) -> Self {
        Game {
            rules: self.rules.clone(),
            scenario: self.scenario.clone(),
            source: self.source.clone(),
            seed: self.seed,
            state: self.state.clone(),
            dice: self.dice.clone(),
            events: self.events.clone(),
            commands: self.commands.clone(),
            command_starts: self.command_starts.clone(),
            rolled: self.rolled.clone(),
            hashing: self.hashing,
        }
    }
}

impl<R: RuleSet> Game<R> {
    /// Starts a game from a scenario file's text and a seed.
    pub fn new(rules: Arc<R>, source: Source, seed: u64) -> Result<Self, Diagnostics> {
        let scenario = rules.load_scenario(&source)?;
        Ok(Self::from_scenario(rules, scenario, source, seed))
    }

    /// Starts a game from an already validated scenario.
    pub fn from_scenario(rules: Arc<R>, scenario: R::Scenario, source: Source, seed: u64) -> Self {
        let mut dice = SeededDice::new(seed);
        let (state, events) = rules.setup(&scenario, &mut dice);
        Game {
            rules,
            scenario,
            source,
            seed,
            state,
            dice,
            events,
            commands: Vec::new(),
            command_starts: Vec::new(),
            rolled: Vec::new(),
            hashing: true,
        }
    }

    /// Whether each command's record carries the hash of the state after it (on at first).
    /// The hash is what lets a replay find the first command where a record diverges; a
    /// game whose record is never kept, such as one of a simulation's, can save the work,
    /// which is most of a command's cost after the rules' own (the whole state is written
    /// out to be hashed).
    pub fn set_hashing(&mut self, on: bool) {
        self.hashing = on;
    }

    /// The rules.
    pub fn rules(&self) -> &R {
        &self.rules
    }

    /// The validated scenario.
    pub fn scenario(&self) -> &R::Scenario {
        &self.scenario
    }

    /// The current state.
    pub fn state(&self) -> &R::State {
        &self.state
    }

    /// Every event so far, set-up included.
    pub fn events(&self) -> &[R::Event] {
        &self.events
    }

    /// The narrated log.
    pub fn log(&self) -> Vec<LogLine> {
        self.events.iter().map(|e| e.narrate()).collect()
    }

    /// Where each command's events start in [`Game::events`]: the events before the first
    /// start are the set-up's.
    pub fn command_starts(&self) -> &[usize] {
        &self.command_starts
    }

    /// How many commands have been applied.
    pub fn command_count(&self) -> usize {
        self.commands.len()
    }

    /// The commands applied so far, as recorded (each with the state hash after it).
    pub fn commands(&self) -> &[RecordedCommand] {
        &self.commands
    }

    /// Whether the command at `index` rolled any die (drew from the game's generator); `None`
    /// past the last command. A command that rolled cannot be taken back without the roll
    /// being seen, so undo is allowed only over commands that did not.
    pub fn rolled_dice(&self, index: usize) -> Option<bool> {
        self.rolled.get(index).copied()
    }

    /// Who must decide what now.
    pub fn pending(&self) -> Pending {
        self.rules.pending(&self.state)
    }

    /// The result, once over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.rules.outcome(&self.state)
    }

    /// The hash of the current state.
    pub fn state_hash(&self) -> u64 {
        state_hash(&self.state)
    }

    /// Checks and carries out a command. On refusal nothing changes: not the state, not the
    /// dice, not the log. On success returns the new events.
    pub fn submit(&mut self, actor: Actor, command: R::Command) -> Result<&[R::Event], Refusal> {
        self.rules.check(&self.state, actor, &command)?;
        let saved_dice = self.dice.clone();
        let events = match self.rules.perform(&mut self.state, actor, &command, &mut self.dice) {
            Ok(ev) => ev,
            Err(refusal) => {
                self.dice = saved_dice;
                return Err(refusal);
            }
        };
        let rolled = self.dice != saved_dice;
        let start = self.events.len();
        self.command_starts.push(start);
        self.events.extend(events);
        let value = serde_json::to_value(&command).expect("commands always serialise");
        let hash = self.hashing.then(|| hash_hex(self.state_hash()));
        self.commands.push(RecordedCommand { actor, command: value, hash });
        self.rolled.push(rolled);
        Ok(&self.events[start..])
    }

    /// Parses a command from its JSON form and submits it.
    pub fn submit_json(
        &mut self,
        actor: Actor,
        command: serde_json::Value,
    ) -> Result<&[R::Event], Refusal> {
        let cmd: R::Command = serde_json::from_value(command).map_err(|e| Refusal {
            rule: crate::rules::RuleId::new("CORE-CMD"),
            reason: format!("the command does not parse: {e}"),
        })?;
        self.submit(actor, cmd)
    }

    /// The dice generator (for bots that need the game's own randomness in tests only; bots
    /// normally carry their own).
    pub fn dice_mut(&mut self) -> &mut dyn DiceSource {
        &mut self.dice
    }

    /// The game's record.
    pub fn record(&self) -> Record {
        Record {
            ruleset: self.rules.id().to_string(),
            version: self.rules.version().to_string(),
            scenario_name: self.source.name.clone(),
            scenario: self.source.text.clone(),
            seed: self.seed,
            commands: self.commands.clone(),
        }
    }

    /// Replays a record, checking the state hash after every command that carries one, and
    /// returns the game as it stands after the last command.
    pub fn replay(rules: Arc<R>, record: &Record) -> Result<Self, ReplayError> {
        if record.ruleset != rules.id() {
            return Err(ReplayError::WrongRuleSet {
                expected: rules.id().to_string(),
                found: record.ruleset.clone(),
            });
        }
        let source = Source::new(record.scenario_name.clone(), record.scenario.clone());
        let mut game = Game::new(rules, source, record.seed).map_err(ReplayError::Scenario)?;
        for (index, rc) in record.commands.iter().enumerate() {
            let cmd: R::Command = serde_json::from_value(rc.command.clone())
                .map_err(|e| ReplayError::BadCommand { index, message: e.to_string() })?;
            game.submit(rc.actor, cmd)
                .map_err(|refusal| ReplayError::Refused { index, refusal })?;
            if let Some(recorded) = &rc.hash {
                // The hash `submit` just recorded (the replaying game hashes every state).
                let actual = game.commands.last().and_then(|c| c.hash.clone()).unwrap_or_default();
                if &actual != recorded {
                    return Err(ReplayError::Diverged {
                        index,
                        recorded: recorded.clone(),
                        actual,
                    });
                }
            }
        }
        Ok(game)
    }
}
