//! A square-grid board for grid rule sets: cells with terrain, four facings, orthogonal
//! adjacency and Manhattan distance.
//!
//! Cells are addressed by [`CellPos`] `(col, row)` with `(0, 0)` at the south-west corner:
//! columns grow east, rows grow north, as on the continuous table. Positions are signed so that
//! stepping off the board is representable; [`Grid::in_bounds`] says whether a position is on
//! it. The cells are stored row by row from the south (`index = row × cols + col`).

use serde::{Deserialize, Serialize};

/// A cell position: column (west to east) and row (south to north).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct CellPos {
    /// Column, 0 at the west edge.
    pub col: i32,
    /// Row, 0 at the south edge.
    pub row: i32,
}

impl CellPos {
    /// A position from its column and row.
    pub const fn new(col: i32, row: i32) -> CellPos {
        CellPos { col, row }
    }

    /// The position one step away in `facing` (which may be off the board).
    pub fn step(self, facing: GridFacing) -> CellPos {
        let (dc, dr) = facing.delta();
        CellPos::new(self.col.saturating_add(dc), self.row.saturating_add(dr))
    }

    /// The Manhattan distance: orthogonal steps between the two cells.
    pub fn manhattan(self, o: CellPos) -> u32 {
        self.col.abs_diff(o.col).saturating_add(self.row.abs_diff(o.row))
    }
}

/// The terrain of one cell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CellTerrain {
    /// Open ground.
    #[default]
    Open,
    /// Woods.
    Wood,
    /// A hill.
    Hill,
    /// A river.
    River,
    /// A ford across a river.
    Ford,
    /// A village or built-up area.
    Village,
    /// Marsh.
    Marsh,
    /// Rough ground.
    Rough,
}

/// One cell of the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Cell {
    /// What the cell is.
    pub terrain: CellTerrain,
}

/// One of the four grid facings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GridFacing {
    /// Towards higher rows.
    North,
    /// Towards higher columns.
    East,
    /// Towards lower rows.
    South,
    /// Towards lower columns.
    West,
}

impl GridFacing {
    /// The four facings clockwise from north.
    pub const ALL: [GridFacing; 4] =
        [GridFacing::North, GridFacing::East, GridFacing::South, GridFacing::West];

    /// The (column, row) step of one cell forward.
    pub const fn delta(self) -> (i32, i32) {
        match self {
            GridFacing::North => (0, 1),
            GridFacing::East => (1, 0),
            GridFacing::South => (0, -1),
            GridFacing::West => (-1, 0),
        }
    }

    /// Turned 90° clockwise.
    pub const fn turned_right(self) -> GridFacing {
        match self {
            GridFacing::North => GridFacing::East,
            GridFacing::East => GridFacing::South,
            GridFacing::South => GridFacing::West,
            GridFacing::West => GridFacing::North,
        }
    }

    /// Turned 90° anticlockwise.
    pub const fn turned_left(self) -> GridFacing {
        match self {
            GridFacing::North => GridFacing::West,
            GridFacing::West => GridFacing::South,
            GridFacing::South => GridFacing::East,
            GridFacing::East => GridFacing::North,
        }
    }

    /// Turned about.
    pub const fn reversed(self) -> GridFacing {
        match self {
            GridFacing::North => GridFacing::South,
            GridFacing::East => GridFacing::West,
            GridFacing::South => GridFacing::North,
            GridFacing::West => GridFacing::East,
        }
    }

    /// The number of quarter turns from `self` to `o` by the shorter way (0, 1 or 2).
    pub fn quarter_turns_to(self, o: GridFacing) -> u8 {
        let d = (o as u8 + 4 - self as u8) % 4;
        if d == 3 { 1 } else { d }
    }
}

/// A rectangular board of `cols × rows` cells.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Grid {
    /// Number of columns (west to east).
    pub cols: u32,
    /// Number of rows (south to north).
    pub rows: u32,
    /// The cells, row by row from the south; `cols × rows` of them in a well-formed grid.
    pub cells: Vec<Cell>,
}

impl Grid {
    /// A board of open ground.
    pub fn new(cols: u32, rows: u32) -> Grid {
        Grid { cols, rows, cells: vec![Cell::default(); cols as usize * rows as usize] }
    }

    /// True when the cell vector has exactly `cols × rows` cells (a deserialized board may not).
    pub fn is_well_formed(&self) -> bool {
        self.cells.len() as u64 == self.cols as u64 * self.rows as u64
    }

    /// True when the position is on the board.
    pub fn in_bounds(&self, p: CellPos) -> bool {
        p.col >= 0 && p.row >= 0 && (p.col as u32) < self.cols && (p.row as u32) < self.rows
    }

    /// The index of the cell in `cells`, when on the board.
    pub fn index(&self, p: CellPos) -> Option<usize> {
        self.in_bounds(p).then(|| p.row as usize * self.cols as usize + p.col as usize)
    }

    /// The position of the cell at `index`, when there is one.
    pub fn pos(&self, index: usize) -> Option<CellPos> {
        let cols = self.cols as usize;
        (cols > 0 && index < cols * self.rows as usize)
            .then(|| CellPos::new((index % cols) as i32, (index / cols) as i32))
    }

    /// The cell at `p`, when on the board.
    pub fn cell(&self, p: CellPos) -> Option<&Cell> {
        self.index(p).and_then(|i| self.cells.get(i))
    }

    /// The cell at `p`, mutably, when on the board.
    pub fn cell_mut(&mut self, p: CellPos) -> Option<&mut Cell> {
        self.index(p).and_then(move |i| self.cells.get_mut(i))
    }

    /// The terrain at `p`, when on the board.
    pub fn terrain(&self, p: CellPos) -> Option<CellTerrain> {
        self.cell(p).map(|c| c.terrain)
    }

    /// Sets the terrain at `p`; false when `p` is off the board.
    pub fn set_terrain(&mut self, p: CellPos, t: CellTerrain) -> bool {
        match self.cell_mut(p) {
            Some(c) => {
                c.terrain = t;
                true
            }
            None => false,
        }
    }

    /// Every position on the board, row by row from the south.
    pub fn positions(&self) -> impl Iterator<Item = CellPos> + '_ {
        (0..self.rows as i32)
            .flat_map(move |r| (0..self.cols as i32).map(move |c| CellPos::new(c, r)))
    }

    /// The orthogonal neighbours of `p` on the board, in the order north, east, south, west.
    pub fn neighbours(&self, p: CellPos) -> impl Iterator<Item = CellPos> + '_ {
        GridFacing::ALL.into_iter().map(move |f| p.step(f)).filter(move |&q| self.in_bounds(q))
    }

    /// The cell in front of `p` for a unit facing `facing`, when on the board.
    pub fn ahead(&self, p: CellPos, facing: GridFacing) -> Option<CellPos> {
        Some(p.step(facing)).filter(|&q| self.in_bounds(q))
    }

    /// The cell behind.
    pub fn behind(&self, p: CellPos, facing: GridFacing) -> Option<CellPos> {
        self.ahead(p, facing.reversed())
    }

    /// The cell to the unit's left.
    pub fn left(&self, p: CellPos, facing: GridFacing) -> Option<CellPos> {
        self.ahead(p, facing.turned_left())
    }

    /// The cell to the unit's right.
    pub fn right(&self, p: CellPos, facing: GridFacing) -> Option<CellPos> {
        self.ahead(p, facing.turned_right())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indexing_starts_south_west_row_major() {
        let g = Grid::new(4, 3);
        assert_eq!(g.cells.len(), 12);
        assert_eq!(g.index(CellPos::new(0, 0)), Some(0));
        assert_eq!(g.index(CellPos::new(3, 0)), Some(3));
        assert_eq!(g.index(CellPos::new(0, 1)), Some(4));
        assert_eq!(g.index(CellPos::new(3, 2)), Some(11));
        assert_eq!(g.index(CellPos::new(4, 0)), None);
        assert_eq!(g.index(CellPos::new(0, -1)), None);
        assert_eq!(g.pos(11), Some(CellPos::new(3, 2)));
        assert_eq!(g.pos(12), None);
        assert_eq!(g.positions().count(), 12);
        assert!(g.positions().enumerate().all(|(i, p)| g.index(p) == Some(i)));
    }

    #[test]
    fn turns_compose() {
        for f in GridFacing::ALL {
            assert_eq!(f.turned_right().turned_left(), f);
            assert_eq!(f.turned_right().turned_right(), f.reversed());
            assert_eq!(f.reversed().reversed(), f);
            assert_eq!(f.quarter_turns_to(f), 0);
            assert_eq!(f.quarter_turns_to(f.turned_left()), 1);
            assert_eq!(f.quarter_turns_to(f.turned_right()), 1);
            assert_eq!(f.quarter_turns_to(f.reversed()), 2);
        }
        assert_eq!(GridFacing::North.turned_right(), GridFacing::East);
        assert_eq!(GridFacing::North.turned_left(), GridFacing::West);
    }

    #[test]
    fn neighbours_stay_on_the_board() {
        let g = Grid::new(3, 3);
        let corner: Vec<_> = g.neighbours(CellPos::new(0, 0)).collect();
        assert_eq!(corner, vec![CellPos::new(0, 1), CellPos::new(1, 0)]);
        let centre: Vec<_> = g.neighbours(CellPos::new(1, 1)).collect();
        assert_eq!(
            centre,
            vec![CellPos::new(1, 2), CellPos::new(2, 1), CellPos::new(1, 0), CellPos::new(0, 1)]
        );
        assert_eq!(g.neighbours(CellPos::new(2, 2)).count(), 2);
        assert_eq!(g.neighbours(CellPos::new(7, 7)).count(), 0);
    }

    #[test]
    fn relative_cells_follow_the_facing() {
        let g = Grid::new(5, 5);
        let p = CellPos::new(2, 2);
        let f = GridFacing::East;
        assert_eq!(g.ahead(p, f), Some(CellPos::new(3, 2)));
        assert_eq!(g.behind(p, f), Some(CellPos::new(1, 2)));
        assert_eq!(g.left(p, f), Some(CellPos::new(2, 3)));
        assert_eq!(g.right(p, f), Some(CellPos::new(2, 1)));
        assert_eq!(g.ahead(CellPos::new(4, 0), f), None);
        assert_eq!(g.right(CellPos::new(4, 0), f), None);
        assert_eq!(g.left(CellPos::new(0, 0), GridFacing::South), Some(CellPos::new(1, 0)));
    }

    #[test]
    fn manhattan_distance() {
        assert_eq!(CellPos::new(0, 0).manhattan(CellPos::new(3, 4)), 7);
        assert_eq!(CellPos::new(-2, 5).manhattan(CellPos::new(1, 1)), 7);
        assert_eq!(CellPos::new(2, 2).manhattan(CellPos::new(2, 2)), 0);
        assert_eq!(CellPos::new(i32::MIN, 0).manhattan(CellPos::new(i32::MAX, 0)), u32::MAX);
    }

    #[test]
    fn terrain_set_and_serde_snake_case() {
        let mut g = Grid::new(2, 2);
        assert!(g.set_terrain(CellPos::new(1, 0), CellTerrain::Ford));
        assert!(!g.set_terrain(CellPos::new(2, 0), CellTerrain::Ford));
        assert_eq!(g.terrain(CellPos::new(1, 0)), Some(CellTerrain::Ford));
        assert_eq!(g.terrain(CellPos::new(0, 0)), Some(CellTerrain::Open));
        let json = serde_json::to_string(&g).unwrap();
        assert!(json.contains("\"ford\""), "{json}");
        let back: Grid = serde_json::from_str(&json).unwrap();
        assert_eq!(back, g);
        assert_eq!(serde_json::to_string(&CellTerrain::Village).unwrap(), "\"village\"");
        assert_eq!(serde_json::to_string(&GridFacing::West).unwrap(), "\"west\"");
    }

    #[test]
    fn malformed_boards_do_not_panic() {
        let g = Grid { cols: 3, rows: 3, cells: vec![Cell::default(); 2] };
        assert!(!g.is_well_formed());
        assert_eq!(g.terrain(CellPos::new(2, 2)), None);
        assert_eq!(g.terrain(CellPos::new(1, 0)), Some(CellTerrain::Open));
        let empty = Grid::new(0, 0);
        assert_eq!(empty.pos(0), None);
        assert_eq!(empty.positions().count(), 0);
    }
}
