//! O/THW Ancients — a gridded One Hour Wargames variant for the Punic Wars — as a Strategikon
//! rule set.
//!
//! Two armies of Rome and Carthage (or generic troops) fight on a square grid. Players alternate
//! phases: fleeing units flee, pursuers chase, rampaging elephants rampage; then the phasing
//! player activates units and groups one action at a time, each action risking the end of the
//! phase on a d6. Combat is one round of attack dice against defence; losers test up to three
//! times or fall back, turn and fall back; broken units flee and are pursued; generals reroll,
//! add dice and rally at a risk to themselves; army morale falls with each loss and, low enough,
//! drains the army's strength. Every number lives in `data/*.toml`; every event and refusal
//! cites its OTHW rule ID; `docs/rulings/othw.md` records the interpretations.

pub mod bot;
mod cells;
pub mod combat;
pub mod controls;
pub mod data;
pub mod duel;
pub mod engine;
pub mod legal;
pub mod rules_impl;
pub mod scenario;
pub mod search;
pub mod state;
pub mod view;

/// The ready scenarios' texts (woods, fords, the river, hills; every troop type and trait among
/// them), for the unit tests that play through battles.
#[cfg(test)]
pub(crate) const READY_SCENARIOS: [&str; 7] = [
    include_str!("../../../scenarios/othw/open_field.toml"),
    include_str!("../../../scenarios/othw/river_ford.toml"),
    include_str!("../../../scenarios/othw/hills_woods.toml"),
    include_str!("../../../scenarios/othw/generic.toml"),
    include_str!("../../../scenarios/othw/gaugamela.toml"),
    include_str!("../../../scenarios/othw/raphia.toml"),
    include_str!("../../../scenarios/othw/zama.toml"),
];

pub use data::Data;
pub use scenario::Scenario;
pub use state::{Command, Event, Orders, State, Unit, UnitId};
pub use view::View;

/// The O/THW Ancients rule set: its data tables and nothing else.
#[derive(Clone, Debug, PartialEq)]
pub struct Othw {
    /// The data tables.
    pub data: Data,
}

impl Default for Othw {
    fn default() -> Self {
        Othw::new()
    }
}

impl Othw {
    /// The rule set with its embedded tables.
    pub fn new() -> Othw {
        // The embedded tables are part of the program; the test suite pins that they load.
        let data = Data::embedded().unwrap_or_else(|e| panic!("embedded othw data: {e}"));
        Othw { data }
    }

    /// The rule set with other tables (house rules, simulations of variants).
    pub fn with_data(data: Data) -> Othw {
        Othw { data }
    }
}
