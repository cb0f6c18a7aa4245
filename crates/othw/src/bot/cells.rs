//! Sets of cells as bits, on boards of at most 128 cells: a bit a cell, in index order (row by
//! row from the south-west corner).

use tabletop::grid::CellPos;

/// The shape of a board of at most 128 cells, for sets of its cells as bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Cells {
    /// Columns and rows.
    pub cols: i32,
    pub rows: i32,
    /// Every cell of the board.
    pub full: u128,
    /// The cells with a neighbour to the west, and to the east.
    pub west: u128,
    pub east: u128,
}

impl Cells {
    /// The shape of a `cols` × `rows` board, or none when it has more than 128 cells (or
    /// none at all).
    pub fn new(cols: i32, rows: i32) -> Option<Cells> {
        if cols <= 0 || rows <= 0 || cols * rows > 128 {
            return None;
        }
        let n = (cols * rows) as usize;
        let full = if n == 128 { !0u128 } else { (1u128 << n) - 1 };
        let (mut west, mut east) = (0u128, 0u128);
        for i in 0..n {
            let c = i as i32 % cols;
            if c != 0 {
                west |= 1 << i;
            }
            if c != cols - 1 {
                east |= 1 << i;
            }
        }
        Some(Cells { cols, rows, full, west, east })
    }

    /// The cell at `p`, or no cell when it is off the board.
    pub fn at(&self, p: CellPos) -> u128 {
        if p.col >= 0 && p.col < self.cols && p.row >= 0 && p.row < self.rows {
            1 << (p.row * self.cols + p.col)
        } else {
            0
        }
    }

    /// The cells of `set` and their neighbours.
    pub fn around(&self, set: u128) -> u128 {
        let step = self.cols as u32;
        set | (set & self.east) << 1
            | (set & self.west) >> 1
            | (set << step) & self.full
            | set >> step
    }

    /// The cells within `k` squares of `set`.
    pub fn grow(&self, mut set: u128, k: u32) -> u128 {
        for _ in 0..k {
            let grown = self.around(set);
            if grown == set {
                break;
            }
            set = grown;
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_stay_on_the_board() {
        let c = Cells::new(3, 2).expect("six cells");
        // The south-east corner (index 2): west and north of it only.
        assert_eq!(c.around(1 << 2), 1 << 2 | 1 << 1 | 1 << 5);
        // The north-west corner (index 3).
        assert_eq!(c.around(1 << 3), 1 << 3 | 1 << 4 | 1 << 0);
        assert_eq!(c.grow(1 << 0, 5), c.full);
        assert_eq!(c.at(CellPos::new(2, 1)), 1 << 5);
        assert_eq!(c.at(CellPos::new(3, 0)), 0);
        assert!(Cells::new(12, 11).is_none());
        assert_eq!(Cells::new(16, 8).map(|c| c.full), Some(!0));
    }
}
