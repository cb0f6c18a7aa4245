//! The movement part of a period (WRG-MOVE-01, WRG-R-08): both sides move at once, every
//! unit by its order, its reaction result, its rout or pursuit, or the move its side directs
//! in its plan; charges with the charged unit's test, evades and countercharges; terrain and
//! obstacles; units leaving the table.
//!
//! SKELETON: the interface is fixed; the movement itself is being written.

use crate::Data;
use crate::after::Left;
use crate::plan::UnitMove;
use crate::reaction::Trigger;
use crate::report::Note;
use crate::state::State;
use crate::test_phase::Taken;
use tabletop::dice::DiceSource;
use tabletop::rules::{Refusal, Side};

/// What the movement part of a period did, for the rest of the period.
#[derive(Clone, Debug, Default)]
pub struct Movement {
    /// What happened, for the log.
    pub notes: Vec<Note>,
    /// Charge tests taken during the move (WRG-RT-03, -12).
    pub tests: Vec<Taken>,
    /// Charges that reached contact: (charger, target).
    pub charges: Vec<(u16, u16)>,
    /// Units charged this period (WRG-RRES-01 reads "being charged").
    pub under_attack: Vec<u16>,
    /// Tests the movement calls for at the end of the period (WRG-RT-02, -04, -11).
    pub triggers: Vec<(u16, Trigger)>,
    /// Units that left the table this period, and why (WRG-LEAVE, WRG-PURS-06).
    pub left_table: Vec<(u16, Left)>,
}

/// Whether `side` may direct this move in its plan: its own unit, on the table, free to
/// move as it likes (not broken, pursuing, or carrying out a reaction result), the move
/// within its order and its allowance. A refusal names the rule.
pub fn check_move(data: &Data, state: &State, side: Side, m: &UnitMove) -> Result<(), Refusal> {
    let _ = data;
    let u =
        state.units.get(m.unit as usize).filter(|u| u.side == side && u.on_table()).ok_or_else(
            || Refusal::new("WRG-ORD-01", format!("{side} has no unit {} on the table", m.unit)),
        )?;
    let _ = u;
    Err(Refusal::new("WRG-MOVE-02", "directed moves are not built yet"))
}

/// Moves every unit for this period, with both sides' plans in `state.plans`.
pub fn move_all(data: &Data, state: &mut State, dice: &mut dyn DiceSource) -> Movement {
    let _ = (data, state, dice);
    Movement::default()
}
