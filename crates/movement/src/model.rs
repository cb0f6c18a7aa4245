//! The vocabulary of the chapter: troop types, armor classes, discipline, formations and
//! morale states.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A troop type (T1 rows), or a piece of artillery, or another creature with its own rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TroopType {
    /// Light infantry.
    LightInfantry,
    /// Medium infantry.
    MediumInfantry,
    /// Heavy infantry.
    HeavyInfantry,
    /// Light cavalry.
    LightCavalry,
    /// Medium cavalry.
    MediumCavalry,
    /// Heavy cavalry.
    HeavyCavalry,
    /// An artillery piece or siege engine (its rate comes from its piece class).
    Artillery,
    /// A creature outside T1, whose rate is given in its own profile (MOV-GEN-10).
    Creature,
}

impl TroopType {
    /// The six humanoid types of T1.
    pub const HUMANOID: [TroopType; 6] = [
        TroopType::LightInfantry,
        TroopType::MediumInfantry,
        TroopType::HeavyInfantry,
        TroopType::LightCavalry,
        TroopType::MediumCavalry,
        TroopType::HeavyCavalry,
    ];

    /// True for horse.
    pub fn mounted(self) -> bool {
        matches!(self, TroopType::LightCavalry | TroopType::MediumCavalry | TroopType::HeavyCavalry)
    }

    /// The snake-case name.
    pub fn name(self) -> &'static str {
        match self {
            TroopType::LightInfantry => "light_infantry",
            TroopType::MediumInfantry => "medium_infantry",
            TroopType::HeavyInfantry => "heavy_infantry",
            TroopType::LightCavalry => "light_cavalry",
            TroopType::MediumCavalry => "medium_cavalry",
            TroopType::HeavyCavalry => "heavy_cavalry",
            TroopType::Artillery => "artillery",
            TroopType::Creature => "creature",
        }
    }
}

/// An armor class (the four classes are a proposed default, NIS).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Armor {
    /// No armor.
    Unarmored,
    /// Light armor.
    Light,
    /// Medium armor.
    Medium,
    /// Heavy armor.
    Heavy,
}

/// Discipline levels named by the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Discipline {
    /// Excellent.
    Excellent,
    /// Good.
    Good,
    /// Poor.
    Poor,
    /// Wild.
    Wild,
}

/// The class of an artillery piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PieceClass {
    /// A light piece.
    Light,
    /// A heavy piece.
    Heavy,
    /// A siege engine.
    Siege,
}

/// The five formations (MOV-FORM-01).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Formation {
    /// Line: at least as wide as deep.
    Line,
    /// Column: deeper than wide.
    Column,
    /// Circle: a closed ring facing outward.
    Circle,
    /// Open order: skirmishers with gaps of at most 2".
    OpenOrder,
    /// Mass: about as deep as wide.
    Mass,
}

impl fmt::Display for Formation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Formation::Line => "line",
            Formation::Column => "column",
            Formation::Circle => "circle",
            Formation::OpenOrder => "open order",
            Formation::Mass => "mass",
        })
    }
}

/// Morale states named by the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoraleState {
    /// Firm.
    Firm,
    /// Checked.
    Checked,
    /// Shaken.
    Shaken,
    /// Broken.
    Broken,
}

impl fmt::Display for MoraleState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MoraleState::Firm => "Firm",
            MoraleState::Checked => "checked",
            MoraleState::Shaken => "shaken",
            MoraleState::Broken => "Broken",
        })
    }
}

/// A change of facing (MOV-FACE-01).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Turn {
    /// 90° to the right.
    Right,
    /// 90° to the left.
    Left,
    /// 180° to the rear (one change, MOV-R-08).
    About,
}

/// Weather, which drives dirt roads (MOV-TER-10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Weather {
    /// Dry (the default).
    #[default]
    Dry,
    /// Wet.
    Wet,
}

/// What happens when units meet in melee contact. The chapter leaves combat to other chapters;
/// a scenario chooses whether an umpire resolves it by hand or the engine stands in with morale
/// checks (a project rule, NIS, cited as `MOV-GAME-MELEE` and `MOV-GAME-RALLY`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Melee {
    /// The umpire resolves melee by hand with the umpire commands (the default).
    #[default]
    Umpire,
    /// At the end of every movement phase each unit in melee contact takes a T6 morale check
    /// with the depth bonus; a unit that fails drops one morale state and, shaken or Broken,
    /// is driven off. A unit driven off takes a morale check at the start of each of its side's
    /// phases and rallies on a pass.
    MoraleChecks,
}

/// A table edge, for a side's deployment edge (flight goes toward it, MOV-R-24).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Edge {
    /// The south edge (y = 0).
    South,
    /// The north edge (y = table height).
    North,
    /// The west edge (x = 0).
    West,
    /// The east edge (x = table width).
    East,
}
