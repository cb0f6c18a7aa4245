//! Drawing a table or grid as SVG, and as PNG through resvg.

use crate::geometry::{Point, Rect};
use crate::rules::Side;
use crate::terrain::Table;
use serde::{Deserialize, Serialize};

/// A piece on the table: a unit's outline, its stands, its side and its label.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Piece {
    /// The unit's outline (drawn with its facing marked on the front edge).
    pub outline: Rect,
    /// The stands inside it, if they are drawn separately.
    pub stands: Vec<Rect>,
    /// The owning side, or `None` for neutral markers.
    pub side: Option<Side>,
    /// The label drawn on it.
    pub label: String,
    /// A second line: strength, state, casualties.
    pub detail: String,
}

/// A line drawn over the table: a planned path, a measurement.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mark {
    /// The points of the polyline.
    pub points: Vec<Point>,
    /// A label at its end.
    pub label: String,
}

/// Everything needed to draw one moment of a battle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Scene {
    /// A caption drawn above the table.
    pub title: String,
    /// The table and its terrain.
    pub table: Table,
    /// The pieces.
    pub pieces: Vec<Piece>,
    /// Lines to draw over the table.
    pub marks: Vec<Mark>,
}
