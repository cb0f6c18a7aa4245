//! The shared tabletop core of Strategikon.
//!
//! It holds what every rule set stands on and nothing that belongs to one rule set: plane
//! geometry in inches, terrain and its path costs, a square grid, seeded and scripted dice, the
//! [`rules::RuleSet`] interface, games, records and replay, scenario-file diagnostics, drawing,
//! and a random-game test harness.

pub mod budget;
pub mod controls;
pub mod diagnostics;
pub mod dice;
pub mod game;
pub mod geometry;
pub mod grid;
pub mod harness;
pub mod host;
pub mod render;
pub mod rules;
pub mod table_file;
pub mod terrain;

pub use diagnostics::{Diagnostic, Diagnostics, Source};
pub use dice::{DiceSource, Die, Roll, ScriptedDice, SeededDice};
pub use game::{Game, Record, ReplayError};
pub use geometry::{Facing, Point, Rect, Sector, Vec2};
pub use rules::{
    Actor, Narrate, Outcome, Pending, Refusal, RuleId, RuleSet, Side, SideSummary, Summary,
    TimedClock, Viewer,
};
