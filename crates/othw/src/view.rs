//! What a viewer sees, and the board drawn as a scene.
//!
//! O/THW has no hidden information (OTHW-M-18): strength, statuses and where the generals are
//! are open to both sides, so every viewer gets the same [`View`]; the type still carries who
//! is looking so that clients can orient the board.

use crate::state::{GoneHow, State, Status, UnitId, cell_name};
use serde::Serialize;
use tabletop::geometry::{Facing, Point, Rect};
use tabletop::grid::{CellTerrain, GridFacing};
use tabletop::render::{GridLayer, Piece, Scene};
use tabletop::rules::{Outcome, Side, Viewer};
use tabletop::terrain::Table;

/// One unit as seen.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct UnitView {
    /// ID.
    pub id: UnitId,
    /// Side.
    pub side: Side,
    /// Name.
    pub name: String,
    /// Type.
    pub type_name: String,
    /// Square (`A1` is the south-west corner), the last one once gone.
    pub square: String,
    /// Column and row.
    pub at: [i32; 2],
    /// Facing.
    pub facing: GridFacing,
    /// Strength left and starting strength.
    pub strength: [u8; 2],
    /// Moves, attack, defence, leadership.
    pub stats: [u8; 4],
    /// Specials by name.
    pub specials: Vec<&'static str>,
    /// Standing.
    pub status: Status,
    /// How it left, once gone.
    pub gone: Option<GoneHow>,
    /// Whom it pursues.
    pub pursuing: Option<UnitId>,
    /// The general is with it.
    pub general: bool,
    /// Has moved, fought, group-moved, made its further move this phase.
    pub done: [bool; 4],
}

/// One side as seen.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SideView {
    /// Side.
    pub side: Side,
    /// Army name.
    pub name: String,
    /// Army morale now and at the start.
    pub army_morale: [u8; 2],
    /// The general's name, if he is still with the army.
    pub general: Option<String>,
    /// The general is away this phase (a missed turn).
    pub general_absent: bool,
}

/// What one viewer sees.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct View {
    /// Who looks.
    pub viewer: Viewer,
    /// Turn and last turn.
    pub turn: [u16; 2],
    /// The phasing side.
    pub phasing: Side,
    /// The phase is over but for the general's unit.
    pub phase_over: bool,
    /// Columns and rows.
    pub board: [u32; 2],
    /// Terrain per cell, row by row from the south-west.
    pub terrain: Vec<CellTerrain>,
    /// Red and blue.
    pub sides: Vec<SideView>,
    /// Every unit.
    pub units: Vec<UnitView>,
    /// The result, once over.
    pub outcome: Option<Outcome>,
}

impl View {
    /// The view of `st` for `viewer`.
    pub fn of(st: &State, viewer: Viewer) -> View {
        let units = st
            .units
            .iter()
            .map(|u| UnitView {
                id: u.id,
                side: u.side,
                name: u.name.to_string(),
                type_name: u.type_name.to_string(),
                square: cell_name(u.pos),
                at: [u.pos.col, u.pos.row],
                facing: u.facing,
                strength: [u.sp, u.s],
                stats: [u.m, u.a, u.d, u.l],
                specials: u.specials.list().into_iter().map(|s| s.name()).collect(),
                status: u.status,
                gone: u.gone,
                pursuing: u.pursuing,
                general: st
                    .side(u.side)
                    .general
                    .as_ref()
                    .is_some_and(|g| !g.lost && g.unit == u.id),
                done: [
                    u.flag(crate::state::flags::MOVED),
                    u.flag(crate::state::flags::FOUGHT),
                    u.flag(crate::state::flags::GROUP_MOVED),
                    u.flag(crate::state::flags::FURTHER),
                ],
            })
            .collect();
        let sides = Side::BOTH
            .iter()
            .map(|&s| {
                let x = st.side(s);
                let g = x.general.as_ref().filter(|g| !g.lost);
                SideView {
                    side: s,
                    name: x.name.to_string(),
                    army_morale: [x.am, x.am_start],
                    general: g.map(|g| g.name.to_string()),
                    general_absent: g.is_some() && st.active_general(s).is_none(),
                }
            })
            .collect();
        View {
            viewer,
            turn: [st.turn, st.turns],
            phasing: st.phasing,
            phase_over: st.phase_over,
            board: [st.board.grid.cols, st.board.grid.rows],
            terrain: st.board.grid.cells.iter().map(|c| c.terrain).collect(),
            sides,
            units,
            outcome: st.outcome.clone(),
        }
    }
}

/// The side of a cell in the drawing, in inches.
pub const CELL: f64 = 4.0;

fn facing_of(f: GridFacing) -> Facing {
    match f {
        GridFacing::North => Facing::NORTH,
        GridFacing::East => Facing::EAST,
        GridFacing::South => Facing::SOUTH,
        GridFacing::West => Facing::WEST,
    }
}

/// The board with its terrain and the units on it (the same for every viewer: open
/// information).
pub fn scene(st: &State, _viewer: Viewer) -> Scene {
    let g = &st.board.grid;
    let table = Table {
        width: f64::from(g.cols) * CELL,
        height: f64::from(g.rows) * CELL,
        areas: Vec::new(),
        lines: Vec::new(),
        slope_band: 0.0,
    };
    let title = match &st.outcome {
        Some(o) => format!("O/THW Ancients — turn {}: {}", st.turn, o.reason),
        None => format!(
            "O/THW Ancients — turn {} of {}, {}'s phase — army morale red {}, blue {}",
            st.turn,
            st.turns,
            st.phasing,
            st.side(Side::Red).am,
            st.side(Side::Blue).am
        ),
    };
    let mut scene = Scene::new(title, table);
    scene.grid = Some(GridLayer {
        cols: g.cols,
        rows: g.rows,
        cell: CELL,
        cells: g
            .cells
            .iter()
            .map(|c| match c.terrain {
                CellTerrain::Open => None,
                CellTerrain::Wood => Some("wood".into()),
                CellTerrain::Hill => Some("hill".into()),
                CellTerrain::River => Some("river".into()),
                CellTerrain::Ford => Some("ford".into()),
                CellTerrain::Village => Some("village".into()),
                CellTerrain::Marsh => Some("marsh".into()),
                CellTerrain::Rough => Some("rough".into()),
            })
            .collect(),
        coordinates: true,
    });
    for u in st.units.iter().filter(|u| u.on_board()) {
        let centre =
            Point::new((f64::from(u.pos.col) + 0.5) * CELL, (f64::from(u.pos.row) + 0.5) * CELL);
        let outline = Rect::new(centre, facing_of(u.facing), CELL * 0.8, CELL * 0.5);
        let general = st.side(u.side).general.as_ref().is_some_and(|g| !g.lost && g.unit == u.id);
        let state = match u.status {
            Status::Ready if u.pursuing.is_some() => " pursuing",
            Status::Fleeing => " FLEEING",
            Status::Rampaging => " RAMPAGING",
            _ => "",
        };
        scene.pieces.push(Piece {
            id: Some(u.id.to_string()),
            outline,
            stands: Vec::new(),
            side: Some(u.side),
            label: format!("{}{}", u.name, if general { " ★" } else { "" }),
            detail: format!("{}/{} SP{state}", u.sp, u.s),
        });
    }
    scene
}
