//! The Greensboro Liberal Move War Game (Carey Mathews and Larry Brom, 1961) as a Strategikon
//! rule set: horse and musket with one figure a man.
//!
//! Every figure of every unit is tracked, in the order the casualty count walks them. A side's
//! turn runs its fixed steps: it declares each unit's choice (normal move, liberal move with
//! its stated objective, stand fast, a battery's orders), moves its guns, fires them, moves and
//! fires its normal movers, and then advances its liberal movers together one normal move at a
//! time, every enemy in range firing at them after each step, with the right to call a move
//! off and walk back under fire. Volleys use a stand-in firing chart (the original is lost:
//! `data/rules.toml` marks it), casualties are counted along the formation die by die, melees
//! are fought rank by rank from single fights, and every third game turn a night does the
//! bookkeeping. Every number lives in `data/*.toml`; every event and refusal cites its LIB
//! rule ID; `docs/rulings/liberal.md` records the interpretations.

pub mod bot;
pub mod controls;
pub mod data;
pub mod fire;
pub mod formation;
pub mod melee;
pub mod narrate;
pub mod preview;
pub mod referee;
pub mod rules_impl;
pub mod scenario;
pub mod state;
pub mod turn;
pub mod umpire;
pub mod view;

pub use data::Data;
pub use scenario::Scenario;
pub use state::{Command, Event, Phase, State, Unit, UnitId};

/// The rule set's ID.
pub const ID: &str = "liberal";

/// The Greensboro Liberal Move rule set: its data tables and nothing else.
#[derive(Clone, Debug, PartialEq)]
pub struct Liberal {
    /// The data tables.
    pub data: Data,
}

impl Default for Liberal {
    fn default() -> Self {
        Liberal::new()
    }
}

impl Liberal {
    /// The rule set with its embedded tables.
    pub fn new() -> Liberal {
        // The embedded tables are part of the program; the test suite pins that they load.
        let data = Data::embedded().unwrap_or_else(|e| panic!("embedded liberal data: {e}"));
        Liberal { data }
    }

    /// The rule set with other tables (house rules, a found firing chart).
    pub fn with_data(data: Data) -> Liberal {
        Liberal { data }
    }
}
