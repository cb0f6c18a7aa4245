//! Terrain on a continuous table: areas as polygons (hills with heights, woods, dense trees,
//! villages, marsh or mud, brush or rough ground) and linear features as polylines with a width
//! (rivers, streams, roads, walls, hedges) with fords and bridges.
//!
//! Nothing here knows a rule set: a rule set prices terrain through [`CostModel`], and decides
//! what blocks sight through its own predicate.

use crate::geometry::Point;
use serde::{Deserialize, Serialize};

/// A simple polygon (no self-intersections), its vertices in order, not closed (the last vertex
/// joins the first).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Polygon {
    /// The vertices.
    pub points: Vec<Point>,
}

/// What an area of terrain is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AreaKind {
    /// A hill: a contour polygon with a height.
    Hill,
    /// Light or scattered woods.
    Wood,
    /// Dense trees.
    DenseTrees,
    /// A village or built-up area.
    Village,
    /// Marsh or mud.
    Marsh,
    /// Brush or rough ground.
    Rough,
}

/// An area of terrain.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Area {
    /// The name players know it by ("Windmill Hill").
    pub name: String,
    /// What it is.
    pub kind: AreaKind,
    /// Its outline.
    pub polygon: Polygon,
    /// For hills: the height of this contour above the level it stands on, in the table's
    /// height units (1 = one contour level). Zero for other areas.
    pub height: f64,
}

/// What a linear feature is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LineKind {
    /// A river: passable only at fords and bridges under most rules.
    River,
    /// A stream.
    Stream,
    /// A paved road.
    PavedRoad,
    /// A dirt road.
    DirtRoad,
    /// A wall.
    Wall,
    /// A hedge.
    Hedge,
}

/// What kind of crossing a ford or bridge is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CrossingKind {
    /// A ford through the water.
    Ford,
    /// A bridge over it.
    Bridge,
}

/// A ford or bridge on a linear feature: the stretch of the feature from `at - width / 2` to
/// `at + width / 2`, measured in inches along its centreline.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Crossing {
    /// Ford or bridge.
    pub kind: CrossingKind,
    /// Distance along the centreline to the middle of the crossing, in inches.
    pub at: f64,
    /// How wide the crossing is, along the feature, in inches.
    pub width: f64,
}

/// A linear feature: a polyline with a width.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LinearFeature {
    /// The name players know it by.
    pub name: String,
    /// What it is.
    pub kind: LineKind,
    /// The centreline.
    pub path: Vec<Point>,
    /// Its full width in inches (a 3" river is 3 wide).
    pub width: f64,
    /// Fords and bridges along it.
    pub crossings: Vec<Crossing>,
}

/// A table: its size and its terrain. The origin is the south-west corner.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Table {
    /// East–west size in inches.
    pub width: f64,
    /// North–south size in inches.
    pub height: f64,
    /// Areas, in the order given; later areas lie on top when drawn.
    pub areas: Vec<Area>,
    /// Linear features.
    pub lines: Vec<LinearFeature>,
    /// The width of the slope band inside each hill contour, in inches, over which the ground
    /// rises by the contour's height.
    pub slope_band: f64,
}
