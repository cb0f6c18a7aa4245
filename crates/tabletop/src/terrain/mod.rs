//! Terrain on a continuous table: areas as polygons (hills with heights, woods, dense trees,
//! villages, marsh or mud, brush or rough ground) and linear features as polylines with a width
//! (rivers, streams, roads, walls, hedges) with fords and bridges.
//!
//! Nothing here knows a rule set: a rule set prices terrain through [`CostModel`], and decides
//! what blocks sight through its own [`SightRule`].
//!
//! All geometry is exact (segment–edge intersections, segment–capsule quadratics, half-plane
//! clipping), never sampled, with one tolerance: boundaries are located to within
//! [`LENGTH_TOLERANCE`] (1e-9 inch), so no piece of a split path is shorter than that.
//!
//! * [`polygon`]: area, containment and inside intervals of [`Polygon`]s;
//! * [`band`]: linear features' bands, fords and bridges, and centreline crossings;
//! * [`slope`]: the hill height field and the rise along a path;
//! * [`split`]: [`Table::pieces`], splitting a segment into pieces of uniform [`Ground`];
//! * [`cost`]: [`CostModel`], [`path_cost`] and [`advance`];
//! * [`sight`]: [`Table::sight`], [`SightRule`] and [`line_of_sight`].

// `!(x > 0.0)` is used on purpose throughout: unlike `x <= 0.0` it is also true for NaN, which
// is how degenerate input is turned away without panicking.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

pub mod band;
mod convex;
pub mod cost;
pub mod polygon;
mod shared;
pub mod sight;
pub mod slope;
pub mod split;

pub use cost::{
    Advance, BlockReason, Blocked, COST_TOLERANCE, CostModel, CostedPiece, CrossingCharge,
    PathCost, Stop, advance, advance_with, path_cost, path_cost_with,
};
pub use polygon::{BOUNDARY_TOLERANCE, LENGTH_TOLERANCE};
pub use shared::SharedTable;
pub use sight::{DefaultSightRule, Obstruction, ProfileSpan, Sight, SightRule, line_of_sight};
pub use split::{CentrelineCrossing, FeatureSet, Ground, MAX_FEATURES, PathPiece, Scratch};

use crate::geometry::{Point, Rect};
use serde::{Deserialize, Serialize};

/// A reference to one terrain feature of a [`Table`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FeatureRef {
    /// `table.areas[i]`.
    Area(usize),
    /// `table.lines[j]`.
    Line(usize),
}

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
    /// Open ground given a name (a ford's approaches, a field to hold): it changes nothing
    /// about movement, sight or cover, and is there to be named by objectives.
    Open,
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

impl Table {
    /// True when `p` is on the table (edges included).
    pub fn contains_point(&self, p: Point) -> bool {
        p.x >= 0.0 && p.y >= 0.0 && p.x <= self.width && p.y <= self.height
    }

    /// True when the whole footprint is on the table (edges included).
    pub fn contains_rect(&self, rect: &Rect) -> bool {
        rect.corners().iter().all(|&c| self.contains_point(c))
    }

    /// The areas sharing a region of positive area with the footprint, in index order.
    pub fn areas_overlapping_rect(&self, rect: &Rect) -> Vec<usize> {
        (0..self.areas.len()).filter(|&i| self.areas[i].polygon.overlaps_rect(rect)).collect()
    }

    /// The linear features whose band shares a region of positive area with the footprint, in
    /// index order.
    pub fn lines_overlapping_rect(&self, rect: &Rect) -> Vec<usize> {
        (0..self.lines.len()).filter(|&j| self.lines[j].band_overlaps_rect(rect)).collect()
    }

    /// True when the footprint shares a region of positive area with area `i` (false for an
    /// index out of range).
    pub fn rect_overlaps_area(&self, rect: &Rect, i: usize) -> bool {
        self.areas.get(i).is_some_and(|a| a.polygon.overlaps_rect(rect))
    }

    /// True when the footprint shares a region of positive area with the band of feature `j`.
    pub fn rect_overlaps_band(&self, rect: &Rect, j: usize) -> bool {
        self.lines.get(j).is_some_and(|l| l.band_overlaps_rect(rect))
    }

    /// True when the footprint shares a region of positive area with the band of feature `j`
    /// outside all its fords and bridges (MOV-TER-06, MOV-R-12).
    pub fn rect_overlaps_band_outside_crossings(&self, rect: &Rect, j: usize) -> bool {
        self.lines.get(j).is_some_and(|l| l.band_overlaps_rect_outside_crossings(rect))
    }

    /// True when the footprint overlaps the band of feature `j` only within its fords and
    /// bridges: it touches the band with positive area, and none of that is outside them.
    pub fn rect_in_crossing(&self, rect: &Rect, j: usize) -> bool {
        self.rect_overlaps_band(rect, j) && !self.rect_overlaps_band_outside_crossings(rect, j)
    }

    /// Problems that make the terrain unusable or only partly used, in a stable order: empty
    /// text means none. Checks finite coordinates, polygons of at least three vertices and
    /// positive area, finite non-negative widths and heights, centrelines of at least one point,
    /// crossings of positive width, and at most [`MAX_FEATURES`] areas and lines (the splitter
    /// ignores the rest).
    pub fn validate(&self) -> Vec<String> {
        let mut out = Vec::new();
        if !(self.width > 0.0
            && self.width.is_finite()
            && self.height > 0.0
            && self.height.is_finite())
        {
            out.push(format!(
                "table size {} x {} is not positive and finite",
                self.width, self.height
            ));
        }
        if !(self.slope_band >= 0.0 && self.slope_band.is_finite()) {
            out.push(format!("slope band {} is not finite and non-negative", self.slope_band));
        }
        if self.areas.len() > MAX_FEATURES {
            out.push(format!("{} areas: only the first {MAX_FEATURES} are used", self.areas.len()));
        }
        if self.lines.len() > MAX_FEATURES {
            out.push(format!(
                "{} linear features: only the first {MAX_FEATURES} are used",
                self.lines.len()
            ));
        }
        for (i, a) in self.areas.iter().enumerate() {
            let name = &a.name;
            if a.polygon.points.iter().any(|p| !p.is_finite()) {
                out.push(format!("area {i} ({name}): a vertex is not finite"));
            } else if a.polygon.points.len() < 3 || a.polygon.area() <= 1e-12 {
                out.push(format!("area {i} ({name}): the outline encloses no area"));
            }
            if !a.height.is_finite() {
                out.push(format!("area {i} ({name}): height is not finite"));
            }
        }
        for (j, l) in self.lines.iter().enumerate() {
            let name = &l.name;
            if l.path.is_empty() {
                out.push(format!("line {j} ({name}): the centreline is empty"));
            }
            if l.path.iter().any(|p| !p.is_finite()) {
                out.push(format!("line {j} ({name}): a centreline point is not finite"));
            }
            if !(l.width >= 0.0 && l.width.is_finite()) {
                out.push(format!(
                    "line {j} ({name}): width {} is not finite and non-negative",
                    l.width
                ));
            }
            for (k, c) in l.crossings.iter().enumerate() {
                if c.stretch().is_none() {
                    out.push(format!("line {j} ({name}): crossing {k} covers no stretch"));
                }
            }
        }
        out
    }
}
