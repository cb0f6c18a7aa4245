//! The random-game test harness any rule set plugs into.
//!
//! It plays many seeded games from the rule set's own candidate (or legal) commands and checks,
//! at every step, that a clone and a serde round trip of the state hash the same as the state;
//! after every game, that the record replays to the same final state and survives a JSON round
//! trip; throughout, that nothing panics and that every game ends within a bound of commands.

use crate::diagnostics::Source;
use crate::dice::SeededDice;
use crate::game::{Game, Record, state_hash};
use crate::rules::{Pending, RuleSet};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

/// How many games to play and how.
#[derive(Clone, Debug)]
pub struct HarnessConfig {
    /// How many games.
    pub games: u64,
    /// The first game's seed; game `i` uses `seed + i`.
    pub seed: u64,
    /// A game still running after this many commands fails the harness.
    pub max_commands: usize,
    /// Check clone and serde round trips every this many commands (1 = every command).
    pub check_every: usize,
}

impl Default for HarnessConfig {
    fn default() -> Self {
        HarnessConfig { games: 100, seed: 1, max_commands: 10_000, check_every: 1 }
    }
}

/// What the harness saw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HarnessReport {
    /// Games played to their end.
    pub games: u64,
    /// Commands applied over all games.
    pub commands: u64,
    /// The longest game, in commands.
    pub longest: usize,
    /// Games won by red, by blue, and drawn.
    pub red_wins: u64,
    /// Games won by blue.
    pub blue_wins: u64,
    /// Drawn games.
    pub draws: u64,
}

/// A harness failure: which game (by seed), after how many commands, and what went wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("game with seed {seed}, after {commands} commands: {problem}")]
pub struct HarnessFailure {
    /// The failing game's seed: replay it with this seed to reproduce.
    pub seed: u64,
    /// Commands applied before the failure.
    pub commands: usize,
    /// What went wrong.
    pub problem: String,
}

/// Plays `config.games` random games of `rules` on the scenario in `source`.
pub fn run<R: RuleSet>(
    rules: Arc<R>,
    source: &Source,
    config: &HarnessConfig,
) -> Result<HarnessReport, HarnessFailure> {
    let mut report = HarnessReport::default();
    for i in 0..config.games {
        let seed = config.seed.wrapping_add(i);
        let outcome =
            catch_unwind(AssertUnwindSafe(|| play_one(rules.clone(), source, seed, config)));
        let (commands, winner) = match outcome {
            Ok(result) => result?,
            Err(panic) => {
                let what = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "a panic".into());
                return Err(HarnessFailure {
                    seed,
                    commands: 0,
                    problem: format!("panicked: {what}"),
                });
            }
        };
        report.games += 1;
        report.commands += commands as u64;
        report.longest = report.longest.max(commands);
        match winner {
            Some(crate::rules::Side::Red) => report.red_wins += 1,
            Some(crate::rules::Side::Blue) => report.blue_wins += 1,
            None => report.draws += 1,
        }
    }
    Ok(report)
}

fn fail(seed: u64, commands: usize, problem: impl Into<String>) -> HarnessFailure {
    HarnessFailure { seed, commands, problem: problem.into() }
}

/// Checks that a clone and a serde round trip of the state are the same state.
fn check_round_trips<R: RuleSet>(game: &Game<R>, seed: u64) -> Result<(), HarnessFailure> {
    let n = game.command_count();
    let h = game.state_hash();
    let cloned = game.state().clone();
    if state_hash(&cloned) != h {
        return Err(fail(seed, n, "a clone of the state hashes differently"));
    }
    let json = serde_json::to_string(game.state()).map_err(|e| fail(seed, n, e.to_string()))?;
    let back: R::State = serde_json::from_str(&json)
        .map_err(|e| fail(seed, n, format!("the state does not deserialise: {e}")))?;
    if state_hash(&back) != h {
        return Err(fail(seed, n, "the state changes in a serde round trip"));
    }
    Ok(())
}

fn play_one<R: RuleSet>(
    rules: Arc<R>,
    source: &Source,
    seed: u64,
    config: &HarnessConfig,
) -> Result<(usize, Option<crate::rules::Side>), HarnessFailure> {
    let mut game = Game::new(rules.clone(), source.clone(), seed)
        .map_err(|d| fail(seed, 0, format!("the scenario does not validate:\n{d}")))?;
    // The chooser's randomness is separate from the game's dice.
    let mut chooser = SeededDice::new(seed ^ 0x5eed_c40c_e000_0001);
    loop {
        let n = game.command_count();
        if n % config.check_every.max(1) == 0 {
            check_round_trips(&game, seed)?;
        }
        let pending = game.pending();
        if pending == Pending::Over {
            break;
        }
        if n >= config.max_commands {
            return Err(fail(
                seed,
                n,
                format!("the game did not end within {} commands", config.max_commands),
            ));
        }
        let sides = pending.sides();
        if sides.is_empty() {
            return Err(fail(
                seed,
                n,
                format!("nobody may act, but the game is not over: {pending:?}"),
            ));
        }
        let side = sides[chooser.below(sides.len() as u32) as usize];
        let mut candidates = rules.candidates(game.state(), side, &mut chooser);
        if let Some(legal) = rules.legal_commands(game.state(), side) {
            if legal.is_empty() {
                return Err(fail(seed, n, format!("{side} must act but has no legal command")));
            }
            candidates = legal;
        }
        if candidates.is_empty() {
            return Err(fail(seed, n, format!("{side} must act but has no candidate command")));
        }
        let pick = candidates.swap_remove(chooser.below(candidates.len() as u32) as usize);
        let before = game.state_hash();
        if let Err(refusal) = game.submit(crate::rules::Actor::Side(side), pick.clone()) {
            if game.state_hash() != before {
                return Err(fail(seed, n, "a refused command changed the state"));
            }
            return Err(fail(seed, n, format!("candidate {pick:?} was refused: {refusal}")));
        }
    }
    if game.outcome().is_none() {
        return Err(fail(seed, game.command_count(), "the game is over but has no outcome"));
    }
    let record = game.record();
    let json = serde_json::to_string(&record).map_err(|e| fail(seed, 0, e.to_string()))?;
    let back: Record = serde_json::from_str(&json)
        .map_err(|e| fail(seed, 0, format!("the record does not deserialise: {e}")))?;
    if back != record {
        return Err(fail(seed, 0, "the record changes in a JSON round trip"));
    }
    let replayed =
        Game::replay(rules, &back).map_err(|e| fail(seed, 0, format!("replay failed: {e}")))?;
    if replayed.state_hash() != game.state_hash() {
        return Err(fail(seed, game.command_count(), "the replay ends in another state"));
    }
    let winner = game.outcome().and_then(|o| o.winner);
    Ok((game.command_count(), winner))
}

/// The names of the `*.toml` files in a folder (a rule set's ready scenarios), sorted; none if
/// the folder cannot be read.
pub fn toml_files(dir: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok()?.file_name().into_string().ok()).collect())
        .unwrap_or_default();
    names.retain(|n| n.ends_with(".toml"));
    names.sort();
    names
}
