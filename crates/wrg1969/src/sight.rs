//! Who can see whom: heights of troops and contours, screening, woods and paths
//! (WRG-CHAMP-05 .. -09, WRG-R-02), and the height advantage at streams and bridges
//! (WRG-CHAMP-03, -04).

use crate::model::TroopType;
use serde::{Deserialize, Serialize};

/// How tall a thing stands for sight, on the R-02 scale: foot and engines 1, mounted 2,
/// elephants 3, each contour 4.
pub fn height(troop: TroopType) -> i32 {
    if troop == TroopType::Elephant {
        3
    } else if troop.is_mounted() {
        2
    } else {
        1
    }
}

/// The height of one contour (taller than an elephant, WRG-FIRE-08).
pub const CONTOUR: i32 = 4;

/// A unit for sight: its type and the contour it stands on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    /// Its type.
    pub troop: TroopType,
    /// Its contour (0 = level ground).
    pub contour: i32,
}

impl Standing {
    fn top(self) -> i32 {
        self.contour * CONTOUR + height(self.troop)
    }
}

/// Whether troops standing between a viewer and a target hide it: elephants are seen by
/// everyone; a viewer on a higher contour sees over lower troops; otherwise a screen at least
/// as tall as the target hides it (WRG-CHAMP-05 .. -08, WRG-R-02).
pub fn screened(viewer: Standing, target: Standing, between: &[Standing]) -> bool {
    if target.troop == TroopType::Elephant {
        return false;
    }
    between.iter().any(|s| {
        if viewer.contour > s.contour {
            return false;
        }
        s.top() >= target.top()
    })
}

/// Sight in a wood: 3" (the range of hand-hurled missiles); a single figure on a path sees
/// 10" along it (WRG-CHAMP-09).
pub fn wood_sight(on_path_alone: bool) -> f64 {
    if on_path_alone { 10.0 } else { 3.0 }
}

/// Whether a viewer sees a target `distance` away: in the open sight is unlimited; inside a
/// wood it is limited (WRG-CHAMP-05, -09).
pub fn sees(
    viewer: Standing,
    target: Standing,
    between: &[Standing],
    distance: f64,
    in_wood: bool,
    on_path_alone: bool,
) -> bool {
    if in_wood && distance > wood_sight(on_path_alone) + 1e-9 {
        return false;
    }
    !screened(viewer, target, between)
}

/// Where a fight or shot at a stream happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StreamPlace {
    /// On the bank, at the edge of the bed.
    Bank,
    /// In the stream bed.
    Bed,
    /// On the bridge.
    Bridge,
}

/// Whether troops at `from` count as on higher ground than enemy at `against`: the bank gives
/// no advantage over the bed; the bridge gives none, except to its defenders against attack
/// from the bed (WRG-CHAMP-03, -04).
pub fn stream_higher_ground(from: StreamPlace, against: StreamPlace) -> bool {
    matches!((from, against), (StreamPlace::Bridge, StreamPlace::Bed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use TroopType::*;

    fn at(troop: TroopType, contour: i32) -> Standing {
        Standing { troop, contour }
    }

    // Checks WRG-CHAMP-05.
    #[test]
    fn wrg_champ_05_open_ground_unlimited() {
        assert!(sees(at(MediumInfantry, 0), at(MediumInfantry, 0), &[], 120.0, false, false));
    }

    // Checks WRG-CHAMP-06.
    #[test]
    fn wrg_champ_06_cavalry_see_cavalry_over_infantry() {
        assert!(!screened(at(HeavyCavalry, 0), at(LightCavalry, 0), &[at(MediumInfantry, 0)]));
        // But cavalry screen cavalry.
        assert!(screened(at(HeavyCavalry, 0), at(LightCavalry, 0), &[at(MediumCavalry, 0)]));
    }

    // Checks WRG-CHAMP-07.
    #[test]
    fn wrg_champ_07_elephants_seen_by_all() {
        assert!(!screened(
            at(LightInfantry, 0),
            at(Elephant, 0),
            &[at(HeavyCavalry, 0), at(Elephant, 0)]
        ));
    }

    // Checks WRG-CHAMP-08.
    #[test]
    fn wrg_champ_08_infantry_hide_infantry() {
        assert!(screened(at(HeavyInfantry, 0), at(LightInfantry, 0), &[at(MediumInfantry, 0)]));
        // A viewer on a hill sees over them.
        assert!(!screened(at(HeavyInfantry, 1), at(LightInfantry, 0), &[at(MediumInfantry, 0)]));
    }

    // Checks WRG-CHAMP-09.
    #[test]
    fn wrg_champ_09_woods_three_inches_paths_ten() {
        assert!(sees(at(LightInfantry, 0), at(LightInfantry, 0), &[], 3.0, true, false));
        assert!(!sees(at(LightInfantry, 0), at(LightInfantry, 0), &[], 3.5, true, false));
        assert!(sees(at(LightInfantry, 0), at(LightInfantry, 0), &[], 10.0, true, true));
        assert!(!sees(at(LightInfantry, 0), at(LightInfantry, 0), &[], 10.5, true, true));
    }

    // Checks WRG-CHAMP-03.
    #[test]
    fn wrg_champ_03_no_advantage_from_the_bank() {
        assert!(!stream_higher_ground(StreamPlace::Bank, StreamPlace::Bed));
    }

    // Checks WRG-CHAMP-04.
    #[test]
    fn wrg_champ_04_bridge_defenders_uphill_only_against_the_bed() {
        assert!(stream_higher_ground(StreamPlace::Bridge, StreamPlace::Bed));
        assert!(!stream_higher_ground(StreamPlace::Bridge, StreamPlace::Bank));
    }
}
