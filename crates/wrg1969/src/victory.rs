//! Victory: the points of the figures still on the table plus the umpire's award for terrain
//! held (WRG-VIC-01 .. -03), and prisoners (WRG-CHAMP-10, -11).

use crate::model::TroopType;
use serde::{Deserialize, Serialize};

/// The most terrain points there are to award (WRG-VIC-01).
pub const TERRAIN_POINTS_MAX: u32 = 200;

/// Who holds a terrain feature (WRG-VIC-02, -03).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Hold {
    /// Nobody occupies it or blocks the enemy's way to it.
    Nobody,
    /// Held, and no enemy can charge the holders next period: full value.
    Secure,
    /// Held, but an enemy could charge the holders next period: half value.
    Contested,
}

/// How a side stands toward a feature.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Standing {
    /// Its troops occupy the feature.
    pub occupies: bool,
    /// Its troops block the enemy's direct access to it.
    pub blocks: bool,
    /// Some enemy unit could charge those troops next period (WRG-R-40).
    pub enemy_can_charge: bool,
}

/// A side's hold on a feature (WRG-VIC-02, -03).
pub fn hold(s: Standing) -> Hold {
    if !(s.occupies || s.blocks) {
        Hold::Nobody
    } else if s.enemy_can_charge {
        Hold::Contested
    } else {
        Hold::Secure
    }
}

/// The points a side earns for a feature of `value`: full when held securely, half when
/// contested; the other side earns none (WRG-VIC-02, -03).
pub fn feature_points(value: u32, h: Hold) -> u32 {
    match h {
        Hold::Nobody => 0,
        Hold::Secure => value,
        Hold::Contested => value / 2,
    }
}

/// A side's final score: the points of its remaining figures plus its terrain points, the
/// terrain capped at 200 (WRG-VIC-01).
pub fn score(remaining_figure_points: u32, terrain_points: u32) -> u32 {
    remaining_figure_points + terrain_points.min(TERRAIN_POINTS_MAX)
}

/// The winner by score: `Some(0)` or `Some(1)`, `None` for a draw (WRG-VIC-01).
pub fn winner(scores: [u32; 2]) -> Option<usize> {
    match scores[0].cmp(&scores[1]) {
        std::cmp::Ordering::Greater => Some(0),
        std::cmp::Ordering::Less => Some(1),
        std::cmp::Ordering::Equal => None,
    }
}

/// Guard figures needed for prisoners: one per 5 and one for any odd men over
/// (WRG-CHAMP-10).
pub fn guards_needed(prisoners: u32) -> u32 {
    prisoners.div_ceil(5)
}

/// Whether `guard` troops may guard prisoners of `prisoner` type: captured cavalry lose their
/// horses, so any troops may guard anyone once taken (WRG-CHAMP-11).
pub fn may_guard(guard: TroopType, prisoner: TroopType) -> bool {
    let _ = prisoner;
    !guard.is_engine()
}

/// The type prisoners march as: captured horsemen are on foot (WRG-CHAMP-11).
pub fn prisoner_type(captured: TroopType) -> TroopType {
    if captured.is_mounted() { TroopType::MediumInfantry } else { captured }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Checks WRG-VIC-01.
    #[test]
    fn wrg_vic_01_remaining_points_plus_terrain() {
        assert_eq!(score(540, 150), 690);
        assert_eq!(score(540, 260), 740);
        assert_eq!(winner([690, 650]), Some(0));
        assert_eq!(winner([600, 650]), Some(1));
        assert_eq!(winner([600, 600]), None);
    }

    // Checks WRG-VIC-02.
    #[test]
    fn wrg_vic_02_held_securely_full_value() {
        let s = Standing { occupies: true, ..Default::default() };
        assert_eq!(hold(s), Hold::Secure);
        assert_eq!(feature_points(100, hold(s)), 100);
        let b = Standing { blocks: true, ..Default::default() };
        assert_eq!(hold(b), Hold::Secure);
        assert_eq!(hold(Standing::default()), Hold::Nobody);
    }

    // Checks WRG-VIC-03.
    #[test]
    fn wrg_vic_03_chargeable_holders_get_half() {
        let s = Standing { occupies: true, enemy_can_charge: true, ..Default::default() };
        assert_eq!(hold(s), Hold::Contested);
        assert_eq!(feature_points(100, hold(s)), 50);
        assert_eq!(feature_points(100, Hold::Nobody), 0);
    }

    // Checks WRG-CHAMP-10.
    #[test]
    fn wrg_champ_10_one_guard_per_five() {
        assert_eq!(guards_needed(10), 2);
        assert_eq!(guards_needed(11), 3);
        assert_eq!(guards_needed(4), 1);
        assert_eq!(guards_needed(0), 0);
    }

    // Checks WRG-CHAMP-11.
    #[test]
    fn wrg_champ_11_captured_cavalry_walk() {
        assert_eq!(prisoner_type(TroopType::HeavyCavalry), TroopType::MediumInfantry);
        assert!(may_guard(TroopType::LightInfantry, TroopType::HeavyCavalry));
        assert_eq!(prisoner_type(TroopType::LightInfantry), TroopType::LightInfantry);
    }
}
