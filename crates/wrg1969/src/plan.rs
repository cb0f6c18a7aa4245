//! A side's secret plan for one period (WRG-R-08): the moves it directs unit by unit, the
//! orders its General dictates or signals, where the General rides, and which units break off
//! a fight. Both sides plan in secret; the period is resolved when both have.
//!
//! A unit the plan does not direct follows its order (or its reaction result, rout or
//! pursuit) by itself: a plan may be empty.

use crate::orders::Order;
use serde::{Deserialize, Serialize};

/// What a side directs one of its units to do this period, within its order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Step {
    /// Halt where it stands (WRG-ORD-05).
    Halt,
    /// Move the standard to a point, ending with a facing (degrees clockwise from north;
    /// the present facing when absent) (WRG-MOVE-02).
    MoveTo {
        /// Inches.
        x: f64,
        /// Inches.
        y: f64,
        /// Final facing, degrees.
        #[serde(default)]
        facing: Option<f64>,
    },
    /// Charge an enemy unit (WRG-MOVE-04 .. -07).
    Charge {
        /// The enemy unit's id.
        target: u16,
    },
    /// Wheel about a flank figure, positive to the right (WRG-MOVE-14).
    Wheel {
        /// Degrees.
        degrees: f64,
    },
    /// Step straight back without turning (WRG-MOVE-03).
    StepBack {
        /// Inches.
        inches: f64,
    },
    /// Re-form with this many figures abreast, keeping the standard (WRG-MOVE-15, -16).
    Form {
        /// Figures in the front rank.
        files: u32,
    },
}

/// One directed move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitMove {
    /// The unit's id.
    pub unit: u16,
    /// What it does.
    pub step: Step,
}

/// A new order dictated this period (WRG-CHORD-01, -02, -10).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Dictation {
    /// The unit's id.
    pub unit: u16,
    /// The order.
    pub order: Order,
}

/// Where the General rides this period, and the unit he joins (WRG-CHORD-04, -10).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeneralMove {
    /// Inches.
    pub x: f64,
    /// Inches.
    pub y: f64,
    /// The unit he joins there, if any.
    #[serde(default)]
    pub join: Option<u16>,
}

/// How the owner wants a unit's ± reaction factors signed this period (WRG-R-17).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitStance {
    /// The unit's id.
    pub unit: u16,
    /// Steady (the engine's choice), rouse (pluses) or restrain (minuses).
    pub stance: crate::reaction::Stance,
}

/// A side's plan for one period.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Plan {
    /// Directed moves; every other unit follows its order.
    #[serde(default)]
    pub moves: Vec<UnitMove>,
    /// Orders dictated: by messenger, or at once to the unit the General is with or one
    /// awaiting an order after its test (WRG-RRES-05).
    #[serde(default)]
    pub dictate: Vec<Dictation>,
    /// A pre-arranged signal to give, by its place in the side's list (WRG-CHORD-07, -08).
    #[serde(default)]
    pub signal: Option<u8>,
    /// Where the General rides.
    #[serde(default)]
    pub general: Option<GeneralMove>,
    /// Units in hand-to-hand that break off (WRG-BRK-01).
    #[serde(default)]
    pub break_off: Vec<u16>,
    /// Units the side asks to take an optional reaction test at the start of the period
    /// (WRG-RT-01).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub test: Vec<u16>,
    /// The side's standing choice of signs for its units' ± reaction factors (WRG-R-17);
    /// steady for units not listed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stances: Vec<UnitStance>,
}
