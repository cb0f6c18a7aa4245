//! Sets of cells as bits, on boards of at most 128 cells: a bit a cell, in index order (row by
//! row from the south-west corner).

use crate::state::EMPTY;
use tabletop::grid::CellPos;

/// The shape of a board of at most 128 cells, for sets of its cells as bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Cells {
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

/// The bytes of `x` that are not zero, as the low eight bits (bit `j` for byte `j`), without
/// a branch: a byte's top bit is set when the byte is not zero (its low seven bits plus 0x7f
/// carry into the top bit, or the top bit was set), and a multiplication moves the eight top
/// bits side by side into the top byte.
fn nonzero_bytes(x: u64) -> u64 {
    const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let top = ((x & LOW).wrapping_add(LOW) | x) & !LOW;
    (top >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// Byte `j` of each entry is 1 when bit `j` of the entry's index is set (`SPREAD[0b101]` is
/// `0x01_00_01`).
const SPREAD: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut i = 0;
    while i < 256 {
        let mut j = 0;
        while j < 8 {
            if i >> j & 1 == 1 {
                t[i] |= 1 << (8 * j);
            }
            j += 1;
        }
        i += 1;
    }
    t
};

/// The bits of `byte` as the bytes of a word: 1 in byte `k` when bit `k` is set, else 0 (eight
/// cells of a per-cell map at once).
#[inline]
pub(crate) fn spread(byte: u8) -> u64 {
    SPREAD[usize::from(byte)]
}

/// The positions of `cells` that are not `EMPTY` (at most 128), as bits.
pub(crate) fn held(cells: &[u8]) -> u128 {
    const NONE: [u8; 128] = [EMPTY; 128];
    differing(cells, &NONE[..cells.len().min(128)])
}

/// The positions where `a` and `b` differ, as bits (both of the same length, at most 128).
pub(crate) fn differing(a: &[u8], b: &[u8]) -> u128 {
    debug_assert!(a.len() == b.len() && a.len() <= 128, "cell maps of one board");
    let word = |s: &[u8]| u64::from_le_bytes(s.try_into().expect("eight bytes"));
    let (wa, wb) = (a.chunks_exact(8), b.chunks_exact(8));
    let (ta, tb) = (wa.remainder(), wb.remainder());
    // The two halves of the result, each made with shifts of a word.
    let mut half = [0u64; 2];
    for (k, (x, y)) in wa.zip(wb).enumerate() {
        half[k / 8] |= nonzero_bytes(word(x) ^ word(y)) << (8 * (k % 8));
    }
    let mut bits = u128::from(half[0]) | u128::from(half[1]) << 64;
    let start = a.len() - ta.len();
    for (j, (x, y)) in ta.iter().zip(tb).enumerate() {
        bits |= u128::from(x != y) << (start + j);
    }
    bits
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

    #[test]
    fn differing_bytes_by_position() {
        let a: Vec<u8> = (0..100).collect();
        let mut b = a.clone();
        assert_eq!(differing(&a, &b), 0);
        let at = [0, 7, 8, 9, 63, 64, 98, 99];
        for (k, &i) in at.iter().enumerate() {
            b[i] ^= 1 << (k % 8);
        }
        assert_eq!(differing(&a, &b), at.iter().fold(0u128, |m, &i| m | 1 << i));
        assert_eq!(nonzero_bytes(u64::MAX), 0xff);
        assert_eq!(nonzero_bytes(0x8000_0000_0000_0001), 0x81);
        assert_eq!(nonzero_bytes(0x0080_ff01_0000_7f00), 0b0111_0010);
        assert_eq!(nonzero_bytes(0), 0);
    }

    #[test]
    fn spread_bits_to_bytes() {
        assert_eq!(spread(0b101), 0x01_00_01);
        assert_eq!(spread(0xff), 0x0101_0101_0101_0101);
        assert_eq!(spread(0b1000_0010), 0x0100_0000_0000_0100);
        assert_eq!(spread(0), 0);
    }

    #[test]
    fn held_cells_by_position() {
        let mut occ = vec![EMPTY; 100];
        assert_eq!(held(&occ), 0);
        let at = [0, 7, 8, 9, 63, 64, 98, 99];
        for (k, &i) in at.iter().enumerate() {
            occ[i] = k as u8;
        }
        assert_eq!(held(&occ), at.iter().fold(0u128, |m, &i| m | 1 << i));
    }
}
