//! The WRG Ancient Wargames Rules (February 1969) as a Strategikon rule set.
//!
//! This crate holds the rules' tables (T1 to T12 in `data/*.toml`, validated at load, with the
//! doubtful readings as selectable variants), the mechanics of the rules as functions
//! (casualties, shooting, hand-to-hand, reaction tests, movement and terrain, after combat,
//! rout and pursuit, the General's risk, victory), army lists with points and the competition
//! rules, scenario files, the game's state with its secret written orders, messengers and
//! signals, the shooting part of a period, and the referee that answers a tabletop umpire's
//! questions. The rest of the period and the `RuleSet` implementation are the next stage.
//! Every function cites the checklist IDs of `shared/spec/wrg1969.md` it applies; see
//! `docs/rulings/wrg1969.md` for the rulings.

#![warn(missing_docs)]

pub mod after;
pub mod army;
pub mod bot;
pub mod casualty;
pub mod championship;
pub mod combat;
pub mod contact;
pub mod controls;
pub mod data;
pub mod disorder;
pub mod fire;
pub mod fire_phase;
pub mod general;
pub mod ground;
pub mod melee;
pub mod melee_phase;
pub mod model;
pub mod move_phase;
pub mod moves;
pub mod orders;
pub mod period;
pub mod plan;
pub mod random;
pub mod reaction;
pub mod referee;
pub mod report;
pub mod riders;
pub mod rules_impl;
pub mod sample;
pub mod scenario;
pub mod scoring;
pub mod search;
pub mod sight;
pub mod situation;
pub mod state;
pub mod test_phase;
pub mod umpire;
pub mod unit;
pub mod victory;

pub use data::Data;

/// The rule set's ID, as scenario files name it (`ruleset = "wrg1969"`).
pub const ID: &str = "wrg1969";
pub use rules_impl::{Command, Event, Wrg1969};
