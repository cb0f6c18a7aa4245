//! Finished games' replays, stepped at the same cost anywhere in the game.
//!
//! The first request for a game's replay plays its record once, checking every recorded state
//! hash, and keeps the whole log, where each step's lines end, and a copy of the game every
//! [`CHECKPOINT_EVERY`] commands. A step then starts from the checkpoint at or before it and
//! applies at most that many commands: the last step of a long game costs what the first does.
//! A frame carries only the log lines the viewer does not have yet (`from`). The most recently
//! stepped games are kept ([`KEPT`]); the others are dropped and built again when asked for.

use crate::protocol::{LogEntry, OutcomeInfo, ReplayFrame};
use std::sync::{Arc, Mutex};
use tabletop::host::{HostedGame, HostedRuleSet};
use tabletop::{Actor, Record, Viewer};

/// Commands between two kept copies of a replayed game.
pub const CHECKPOINT_EVERY: usize = 16;

/// How many games' replays are kept at once.
pub const KEPT: usize = 8;

/// A finished game played once, ready to be stepped.
pub struct Replay {
    record: Record,
    /// The game after 0, N, 2N, … commands (each behind a lock only to be shared: a step
    /// copies it).
    checkpoints: Vec<Mutex<Box<dyn HostedGame>>>,
    /// The whole log.
    log: Vec<LogEntry>,
    /// How many log lines there are after each step (0 ..= the commands).
    lines_at: Vec<usize>,
}

impl Replay {
    /// Plays `record` once, keeping what stepping needs; an error if it does not replay.
    pub fn build(rules: &dyn HostedRuleSet, record: Record) -> Result<Replay, String> {
        let mut start = record.clone();
        start.commands.clear();
        let mut game = rules.replay(&start).map_err(|e| e.to_string())?;
        game.set_hashing(true);
        let mut log: Vec<LogEntry> = game.log().iter().map(LogEntry::from).collect();
        let mut lines_at = vec![log.len()];
        let mut checkpoints = vec![Mutex::new(game.boxed_clone())];
        for (index, rc) in record.commands.iter().enumerate() {
            let lines = game
                .submit(rc.actor, rc.command.clone())
                .map_err(|r| format!("command {index} is refused on replay: {r}"))?;
            if let Some(recorded) = &rc.hash {
                let actual = game.recorded(index).and_then(|c| c.hash).unwrap_or_default();
                if &actual != recorded {
                    return Err(format!(
                        "the replay diverges at command {index}: recorded state {recorded}, \
                         replayed {actual}"
                    ));
                }
            }
            log.extend(lines.iter().map(LogEntry::from));
            lines_at.push(log.len());
            if (index + 1) % CHECKPOINT_EVERY == 0 {
                checkpoints.push(Mutex::new(game.boxed_clone()));
            }
        }
        Ok(Replay { record, checkpoints, log, lines_at })
    }

    /// How many commands the game has.
    pub fn steps(&self) -> u64 {
        self.record.commands.len() as u64
    }

    /// The frame after `step` commands (at most [`Replay::steps`]), with the log from line
    /// `from` (the lines the viewer already has); an error if a command no longer applies.
    pub fn frame(&self, step: u64, from: u64) -> Result<ReplayFrame, String> {
        let step = step.min(self.steps()) as usize;
        let base = step / CHECKPOINT_EVERY;
        let mut game =
            self.checkpoints[base].lock().unwrap_or_else(|e| e.into_inner()).boxed_clone();
        for rc in &self.record.commands[base * CHECKPOINT_EVERY..step] {
            game.submit_quietly(rc.actor, rc.command.clone())
                .map_err(|r| format!("a command is refused on replay: {r}"))?;
        }
        let scene = game.scene(Viewer::Umpire);
        let done = step.checked_sub(1).map(|i| &self.record.commands[i]);
        let end = self.lines_at[step];
        let log_from = (from as usize).min(end);
        Ok(ReplayFrame {
            step: step as u64,
            steps: self.steps(),
            actor: done.map(|c| match c.actor {
                Actor::Side(side) => side.to_string(),
                Actor::Umpire => "umpire".to_string(),
            }),
            command: done.map(|c| c.command.clone()),
            svg: tabletop::render::to_svg(&scene),
            scene: serde_json::to_value(&scene).unwrap_or_default(),
            turn: game.turn(),
            log_from: log_from as u64,
            lines: self.log[log_from..end].to_vec(),
            outcome: game.outcome().map(OutcomeInfo::from),
        })
    }
}

/// The replays kept, the most recently stepped last.
#[derive(Default)]
pub struct Replays {
    kept: Mutex<Vec<(String, Arc<Replay>)>>,
}

impl Replays {
    /// The replay of game `id`, if kept (it becomes the most recent).
    pub fn get(&self, id: &str) -> Option<Arc<Replay>> {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        let i = kept.iter().position(|(k, _)| k == id)?;
        let entry = kept.remove(i);
        let replay = entry.1.clone();
        kept.push(entry);
        Some(replay)
    }

    /// Keeps `replay` as game `id`'s, dropping the least recently stepped past [`KEPT`].
    pub fn keep(&self, id: &str, replay: Arc<Replay>) {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        kept.retain(|(k, _)| k != id);
        kept.push((id.to_string(), replay));
        let excess = kept.len().saturating_sub(KEPT);
        kept.drain(..excess);
    }
}
