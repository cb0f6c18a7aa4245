//! The Free Move – Timed Move War Game (ancients on moving trays, Morschauser roster points) as
//! a Strategikon rule set.
//!
//! Both sides move at once against one clock: each measured step of a stand keeps its side's
//! hands busy for a handling time and lands when that time ends, so the number of steps a side
//! makes in a window, not the speed of a hand, is what the clock limits. Stands that touch an
//! enemy freeze. When the bell rings the sides tidy up, shoot, test the bowmen's morale, throw
//! the Fire and Charge javelins and fight the melees: dice times points, shock and close-range
//! kills first, two rounds unless the melee is for a defensive position, pull-outs, retreats of
//! three moves, recovery rolls and bonus moves that can roll up a line. Every number lives in
//! `data/*.toml`; every event and refusal cites its FMT rule ID; `docs/rulings/freemove.md`
//! records the interpretations and the defaults for what the source leaves out.
//!
//! Time is an input: every timed command carries its game time in milliseconds. The simulated
//! clock (`battle`, `sim`, tests) asks the side whose hands are free first; the server stamps a
//! live player's commands as they arrive. The rules are the same code in both.

pub mod bot;
pub mod clock;
pub mod combat;
pub mod data;
pub mod geom;
pub mod narrate;
pub mod referee;
pub mod rules_impl;
pub mod scenario;
pub mod state;
pub mod umpire;
pub mod view;

pub use data::Data;
pub use scenario::Scenario;
pub use state::{Command, Event, Phase, Stand, StandId, State};

/// The rule set's ID.
pub const ID: &str = "freemove";

/// The Free Move – Timed Move rule set: its data tables and nothing else.
#[derive(Clone, Debug, PartialEq)]
pub struct Freemove {
    /// The data tables.
    pub data: Data,
}

impl Default for Freemove {
    fn default() -> Self {
        Freemove::new()
    }
}

impl Freemove {
    /// The rule set with its embedded tables.
    pub fn new() -> Freemove {
        // The embedded tables are part of the program; the test suite pins that they load.
        let data = Data::embedded().unwrap_or_else(|e| panic!("embedded freemove data: {e}"));
        Freemove { data }
    }

    /// The rule set with other tables (house rules, variants).
    pub fn with_data(data: Data) -> Freemove {
        Freemove { data }
    }
}
