//! A unit on the table: figures in ranks and files behind a standard at the centre
//! (WRG-R-04, WRG-ARMY-09, WRG-SCALE-16), its footprint, and how losses come off.

use crate::Data;
use crate::model::TroopType;
use serde::{Deserialize, Serialize};
use tabletop::geometry::{Facing, Point, Rect};

/// A block of figures: how many, and how many abreast.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Block {
    /// Figures in the unit.
    pub figures: u32,
    /// Figures in the front rank.
    pub files: u32,
}

impl Block {
    /// A block, the files clamped to 1 .. figures.
    pub fn new(figures: u32, files: u32) -> Block {
        Block { figures, files: files.clamp(1, figures.max(1)) }
    }

    /// Ranks, the last one possibly short (WRG-R-04).
    pub fn ranks(&self) -> u32 {
        self.figures.div_ceil(self.files.max(1))
    }

    /// Figures in the front rank.
    pub fn front_rank(&self) -> u32 {
        self.files.min(self.figures)
    }

    /// Figures in the rank behind the front one.
    pub fn second_rank(&self) -> u32 {
        self.figures.saturating_sub(self.files).min(self.files)
    }

    /// The unit's frontage and depth in inches: frontages from T1 exactly, depths as
    /// recommended (WRG-SCALE-16).
    pub fn size(&self, data: &Data, troop: TroopType) -> (f64, f64) {
        let b = data.base(troop);
        (self.front_rank() as f64 * b.front, self.ranks() as f64 * b.depth)
    }

    /// The unit's footprint with its standard at `standard` (the centre, WRG-ARMY-09).
    pub fn footprint(
        &self,
        data: &Data,
        troop: TroopType,
        standard: Point,
        facing: Facing,
    ) -> Rect {
        let (w, d) = self.size(data, troop);
        Rect::new(standard, facing, w, d)
    }

    /// Takes `n` figures off: from the rear rank first, then from the flanks of the front rank
    /// once it is the only one, so the standard stays central (WRG-R-04).
    pub fn lose(&mut self, n: u32) {
        self.figures = self.figures.saturating_sub(n);
        self.files = self.files.min(self.figures).max(1);
    }

    /// Re-forms on `files` abreast, keeping the standard where it is (WRG-MOVE-15). Returns
    /// the farthest any figure moves, which the move then loses (WRG-MOVE-16): the change of
    /// the half-width or of the half-depth, whichever is greater.
    pub fn reform(&mut self, data: &Data, troop: TroopType, files: u32) -> f64 {
        let (w0, d0) = self.size(data, troop);
        *self = Block::new(self.figures, files);
        let (w1, d1) = self.size(data, troop);
        ((w1 - w0).abs() / 2.0).max((d1 - d0).abs() / 2.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabletop::geometry::Vec2;

    fn data() -> Data {
        Data::embedded().unwrap()
    }

    #[test]
    fn ranks_and_files() {
        let b = Block::new(20, 8);
        assert_eq!((b.ranks(), b.front_rank(), b.second_rank()), (3, 8, 8));
        let b = Block::new(10, 8);
        assert_eq!((b.ranks(), b.second_rank()), (2, 2));
        assert_eq!(Block::new(5, 0).files, 1);
        assert_eq!(Block::new(5, 9).files, 5);
    }

    // Checks WRG-SCALE-16.
    #[test]
    fn wrg_scale_16_footprint_from_the_bases() {
        let d = data();
        // 20 legionaries 10 abreast: 5" by 1.5".
        let b = Block::new(20, 10);
        assert_eq!(b.size(&d, TroopType::MediumInfantry), (5.0, 1.5));
        let r = b.footprint(
            &d,
            TroopType::MediumInfantry,
            Vec2::new(30.0, 6.0),
            Facing::from_bearing_degrees(0.0),
        );
        assert!((r.front_centre().y - 6.75).abs() < 1e-9);
        // 12 light horse 6 abreast: 6.75" by 3".
        assert_eq!(Block::new(12, 6).size(&d, TroopType::LightCavalry), (6.75, 3.0));
    }

    #[test]
    fn losses_come_off_the_rear_then_the_flanks() {
        let mut b = Block::new(12, 6);
        b.lose(3);
        assert_eq!((b.figures, b.files, b.ranks()), (9, 6, 2));
        b.lose(4);
        assert_eq!((b.figures, b.files, b.ranks()), (5, 5, 1));
        b.lose(9);
        assert_eq!((b.figures, b.files), (0, 1));
    }

    // Checks WRG-MOVE-15, WRG-MOVE-16, WRG-ARMY-09.
    #[test]
    fn wrg_move_15_reforming_about_the_standard() {
        let d = data();
        let mut b = Block::new(16, 4);
        // From 4 abreast (2" x 3") to 8 abreast (4" x 1.5"): the flank figures move 1".
        let moved = b.reform(&d, TroopType::MediumInfantry, 8);
        assert_eq!((b.files, b.ranks()), (8, 2));
        assert!((moved - 1.0).abs() < 1e-12);
        // The standard is the footprint's centre whatever the formation.
        let at = Vec2::new(10.0, 10.0);
        let r = b.footprint(&d, TroopType::MediumInfantry, at, Facing::from_bearing_degrees(90.0));
        assert!((r.centre - at).length() < 1e-12);
    }
}
