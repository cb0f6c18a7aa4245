//! Who can see whom: heights of troops and contours, screening, woods and paths
//! (WRG-CHAMP-05 .. -09, WRG-R-02), and the height advantage at streams and bridges
//! (WRG-CHAMP-03, -04).

use crate::model::TroopType;
use serde::{Deserialize, Serialize};
use tabletop::geometry::{Point, Vec2};

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

/// Where the units stand, bucketed in square cells: the broad phase of sight and of every
/// "within" of the reaction test, so that a question about the units near a point looks at the
/// cells around it instead of at every unit on the table.
///
/// The units of a cell are kept in the order they were given (ascending ids), and cells are
/// visited in a fixed order, so everything read through the grid is deterministic.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Grid {
    cell: f64,
    cols: usize,
    rows: usize,
    /// Where each cell's ids begin in `ids` (one more entry than cells).
    start: Vec<u32>,
    ids: Vec<u16>,
}

impl Grid {
    /// A grid of `cell`-inch cells over a table of `width` by `height` holding the units given
    /// as (id, standard). Standards off the table count in the nearest edge cell.
    pub fn new(width: f64, height: f64, cell: f64, units: &[(u16, Point)]) -> Grid {
        let cell = if cell.is_finite() && cell > 0.0 { cell } else { 1.0 };
        let span = |len: f64| {
            let n = (len / cell).ceil();
            if n.is_finite() && n >= 1.0 { (n as usize).min(4096) } else { 1 }
        };
        let (cols, rows) = (span(width), span(height));
        let mut g = Grid { cell, cols, rows, start: vec![0; cols * rows + 1], ids: Vec::new() };
        let cells: Vec<usize> = units.iter().map(|(_, p)| g.index(*p)).collect();
        for &c in &cells {
            g.start[c + 1] += 1;
        }
        for i in 0..cols * rows {
            g.start[i + 1] += g.start[i];
        }
        let mut fill = g.start.clone();
        g.ids = vec![0; units.len()];
        for (k, &c) in cells.iter().enumerate() {
            g.ids[fill[c] as usize] = units[k].0;
            fill[c] += 1;
        }
        g
    }

    fn col(&self, x: f64) -> usize {
        let c = (x / self.cell).floor();
        if c.is_nan() || c < 0.0 { 0 } else { (c as usize).min(self.cols - 1) }
    }

    fn row(&self, y: f64) -> usize {
        let r = (y / self.cell).floor();
        if r.is_nan() || r < 0.0 { 0 } else { (r as usize).min(self.rows - 1) }
    }

    fn index(&self, p: Point) -> usize {
        self.row(p.y) * self.cols + self.col(p.x)
    }

    fn cell_ids(&self, c: usize) -> &[u16] {
        &self.ids[self.start[c] as usize..self.start[c + 1] as usize]
    }

    /// Calls `f` with every unit whose cell meets the box from `min` to `max` (a superset of
    /// the units standing in it), cell by cell, row by row.
    pub fn in_box(&self, min: Point, max: Point, mut f: impl FnMut(u16)) {
        let (c0, c1) = (self.col(min.x), self.col(max.x));
        let (r0, r1) = (self.row(min.y), self.row(max.y));
        for r in r0..=r1 {
            for c in c0..=c1 {
                for &id in self.cell_ids(r * self.cols + c) {
                    f(id);
                }
            }
        }
    }

    /// Calls `f` with every unit whose cell lies within `radius` of `p` (a superset of the
    /// units standing within `radius`).
    pub fn near(&self, p: Point, radius: f64, f: impl FnMut(u16)) {
        let r = Vec2::new(radius, radius);
        self.in_box(p - r, p + r, f);
    }

    /// Calls `f` with the units ring by ring outward from `p`'s cell (the cells at Chebyshev
    /// distance 0, then 1, …), until `f` returns true or every cell has been visited. Returns
    /// whether `f` ever returned true.
    pub fn outward(&self, p: Point, mut f: impl FnMut(u16) -> bool) -> bool {
        let (pc, pr) = (self.col(p.x) as isize, self.row(p.y) as isize);
        let most = self.cols.max(self.rows) as isize;
        for ring in 0..=most {
            for r in (pr - ring).max(0)..=(pr + ring).min(self.rows as isize - 1) {
                let edge = r == pr - ring || r == pr + ring;
                let step = if edge { 1 } else { (2 * ring).max(1) };
                let mut c = pc - ring;
                while c <= pc + ring {
                    if c >= 0 && (c as usize) < self.cols {
                        for &id in self.cell_ids(r as usize * self.cols + c as usize) {
                            if f(id) {
                                return true;
                            }
                        }
                    }
                    c += step;
                }
            }
        }
        false
    }
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
