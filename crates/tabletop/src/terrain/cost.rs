//! Path costs: the exact integral of a rule set's per-inch multiplier along a path, plus
//! surcharges for crossing linear features' centrelines, and how far a budget carries along a
//! path.
//!
//! A rule set prices ground through [`CostModel`]. The path is a polyline; each segment is split
//! by [`Table::pieces`](super::Table::pieces) into pieces of uniform ground, each costing its
//! length times the model's multiplier. Wherever the path meets a centreline (strictly inside a
//! segment, or at a vertex between two segments; not at the path's very start or end) the model's
//! crossing surcharge is added, once per feature at that point.

use super::FeatureRef;
use super::Table;
use super::split::{CentrelineCrossing, Ground, Item, Scratch, walk};
use crate::geometry::{Point, Vec2};
use std::ops::ControlFlow;

/// Costs within this of a budget are taken as fitting it, so that a path costing exactly its
/// budget is completed despite rounding.
pub const COST_TOLERANCE: f64 = 1e-9;

/// How a rule set prices terrain.
pub trait CostModel {
    /// The cost per inch of moving over `ground` in the unit `direction` (1 for firm ground), or
    /// `None` when the ground is impassable. A multiplier that is negative or not finite counts
    /// as impassable.
    fn multiplier(&self, table: &Table, ground: &Ground, direction: Vec2) -> Option<f64>;

    /// The surcharge for crossing the centreline of `table.lines[feature]` (a hedge or wall),
    /// given the ground of the piece leading up to the crossing point (so a rule can tell a gap,
    /// ford or bridge, whose region the point is in); `None` when it cannot be crossed there.
    fn crossing_cost(&self, table: &Table, feature: usize, ground: &Ground) -> Option<f64>;
}

/// One priced piece of a path.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CostedPiece {
    /// Where it starts.
    pub from: Point,
    /// Where it ends.
    pub to: Point,
    /// Distance along the whole path to its start, in inches.
    pub start: f64,
    /// Its length in inches.
    pub length: f64,
    /// The ground under it.
    pub ground: Ground,
    /// The model's multiplier.
    pub multiplier: f64,
    /// `length × multiplier`.
    pub cost: f64,
}

/// A surcharge paid where a path met a centreline.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CrossingCharge {
    /// The feature (index into `table.lines`).
    pub feature: usize,
    /// Where.
    pub at: Point,
    /// Distance along the path, in inches.
    pub distance: f64,
    /// The surcharge.
    pub cost: f64,
}

/// The cost of a whole path.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PathCost {
    /// Total cost: pieces plus surcharges.
    pub cost: f64,
    /// Total length in inches.
    pub length: f64,
    /// The priced pieces in order (empty when the breakdown was not asked for).
    pub pieces: Vec<CostedPiece>,
    /// The surcharges in order (empty when the breakdown was not asked for).
    pub crossings: Vec<CrossingCharge>,
}

/// Why a path is blocked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BlockReason {
    /// The path has a point that is not finite.
    InvalidPath,
    /// The model found the ground impassable. `entered` is the feature whose band or area the
    /// blocked piece newly entered (linear features first, lowest index first), if any.
    Impassable {
        /// The ground of the blocked piece.
        ground: Ground,
        /// The feature newly entered there.
        entered: Option<FeatureRef>,
    },
    /// The model refused the crossing of this feature's centreline.
    Uncrossable {
        /// The feature (index into `table.lines`).
        feature: usize,
        /// The ground leading up to the crossing point.
        ground: Ground,
    },
}

/// Where and why a path is blocked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Blocked {
    /// The last point reachable: the start of the impassable piece or the crossing point.
    pub at: Point,
    /// Distance along the path to it, in inches.
    pub distance: f64,
    /// Why.
    pub reason: BlockReason,
}

/// Why an [`Advance`] stopped.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Stop {
    /// It reached the end of the path.
    End,
    /// The budget ran out (or the next surcharge would exceed what is left).
    Budget,
    /// The path is blocked.
    Blocked(Blocked),
}

/// How far a budget carries along a path.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Advance {
    /// Distance travelled, in inches.
    pub distance: f64,
    /// Cost spent.
    pub cost: f64,
    /// Where it ends.
    pub end: Point,
    /// Why it stopped.
    pub stop: Stop,
}

#[inline]
fn valid_multiplier(m: Option<f64>) -> Option<f64> {
    m.filter(|m| m.is_finite() && *m >= 0.0)
}

fn first_entered(g: &Ground, prev: &Ground) -> Option<FeatureRef> {
    g.bands
        .minus(prev.bands)
        .first()
        .map(FeatureRef::Line)
        .or_else(|| g.areas.minus(prev.areas).first().map(FeatureRef::Area))
}

/// One event along a path, as the walker reports it.
enum Step {
    Piece { piece: super::split::PathPiece, start: f64, dir: Vec2, prev: Ground },
    Meet { meet: CentrelineCrossing, distance: f64 },
}

/// Walks a polyline segment by segment, handing pieces and meetings to `f`.
fn walk_path(
    table: &Table,
    path: &[Point],
    s: &mut Scratch,
    mut f: impl FnMut(Step) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let mut offset = 0.0;
    let mut prev = Ground::default();
    // The last segment of positive length: meetings at its end are the path's end, not a vertex.
    let last = path.windows(2).rposition(|w| w[0] != w[1]).unwrap_or(0);
    for (k, w) in path.windows(2).enumerate() {
        let (a, b) = (w[0], w[1]);
        let len = a.distance(b);
        let Some(dir) = (b - a).normalized() else {
            continue;
        };
        walk(table, a, b, k < last, s, |item| match item {
            Item::Piece(piece) => {
                let step = Step::Piece { piece, start: offset + piece.t0 * len, dir, prev };
                prev = piece.ground;
                f(step)
            }
            Item::Meet(meet) => f(Step::Meet { meet, distance: offset + meet.t * len }),
        })?;
        offset += len;
    }
    ControlFlow::Continue(())
}

fn invalid(path: &[Point]) -> Option<Blocked> {
    path.iter().any(|p| !p.is_finite()).then(|| Blocked {
        at: path.first().copied().filter(|p| p.is_finite()).unwrap_or(Point::ZERO),
        distance: 0.0,
        reason: BlockReason::InvalidPath,
    })
}

/// The cost of moving along `path` (a polyline) under `model`, with the per-piece breakdown.
pub fn path_cost<M: CostModel + ?Sized>(
    table: &Table,
    path: &[Point],
    model: &M,
) -> Result<PathCost, Blocked> {
    path_cost_with(table, path, model, true, &mut Scratch::default())
}

/// [`path_cost`] reusing `scratch`; with `breakdown` false the pieces and surcharges are not
/// recorded (nothing is allocated once `scratch` is warm).
pub fn path_cost_with<M: CostModel + ?Sized>(
    table: &Table,
    path: &[Point],
    model: &M,
    breakdown: bool,
    scratch: &mut Scratch,
) -> Result<PathCost, Blocked> {
    if let Some(b) = invalid(path) {
        return Err(b);
    }
    let mut out = PathCost::default();
    let mut blocked = None;
    let _ = walk_path(table, path, scratch, |step| match step {
        Step::Piece { piece, start, dir, prev } => {
            let Some(m) = valid_multiplier(model.multiplier(table, &piece.ground, dir)) else {
                blocked = Some(Blocked {
                    at: piece.from,
                    distance: start,
                    reason: BlockReason::Impassable {
                        ground: piece.ground,
                        entered: first_entered(&piece.ground, &prev),
                    },
                });
                return ControlFlow::Break(());
            };
            let cost = piece.length * m;
            out.cost += cost;
            out.length += piece.length;
            if breakdown {
                out.pieces.push(CostedPiece {
                    from: piece.from,
                    to: piece.to,
                    start,
                    length: piece.length,
                    ground: piece.ground,
                    multiplier: m,
                    cost,
                });
            }
            ControlFlow::Continue(())
        }
        Step::Meet { meet, distance } => {
            let Some(c) = valid_multiplier(model.crossing_cost(table, meet.feature, &meet.ground))
            else {
                blocked = Some(Blocked {
                    at: meet.at,
                    distance,
                    reason: BlockReason::Uncrossable { feature: meet.feature, ground: meet.ground },
                });
                return ControlFlow::Break(());
            };
            out.cost += c;
            if breakdown {
                out.crossings.push(CrossingCharge {
                    feature: meet.feature,
                    at: meet.at,
                    distance,
                    cost: c,
                });
            }
            ControlFlow::Continue(())
        }
    });
    match blocked {
        Some(b) => Err(b),
        None => Ok(out),
    }
}

/// How far along `path` a budget of `budget` carries under `model`: it stops at the end of the
/// path, where the budget runs out (found exactly within the piece, `distance = spent / m`), in
/// front of a surcharge it cannot pay, or where the path is blocked. A budget that is negative
/// or not finite counts as zero.
pub fn advance<M: CostModel + ?Sized>(
    table: &Table,
    path: &[Point],
    model: &M,
    budget: f64,
) -> Advance {
    advance_with(table, path, model, budget, &mut Scratch::default())
}

/// [`advance`] reusing `scratch`.
pub fn advance_with<M: CostModel + ?Sized>(
    table: &Table,
    path: &[Point],
    model: &M,
    budget: f64,
    scratch: &mut Scratch,
) -> Advance {
    let budget = if budget.is_finite() && budget > 0.0 { budget } else { 0.0 };
    if let Some(b) = invalid(path) {
        return Advance { distance: 0.0, cost: 0.0, end: b.at, stop: Stop::Blocked(b) };
    }
    let mut adv = Advance {
        distance: 0.0,
        cost: 0.0,
        end: path.first().copied().unwrap_or(Point::ZERO),
        stop: Stop::End,
    };
    let _ = walk_path(table, path, scratch, |step| match step {
        Step::Piece { piece, start, dir, prev } => {
            let Some(m) = valid_multiplier(model.multiplier(table, &piece.ground, dir)) else {
                adv.stop = Stop::Blocked(Blocked {
                    at: piece.from,
                    distance: start,
                    reason: BlockReason::Impassable {
                        ground: piece.ground,
                        entered: first_entered(&piece.ground, &prev),
                    },
                });
                return ControlFlow::Break(());
            };
            let cost = piece.length * m;
            let left = budget - adv.cost;
            if cost <= left + COST_TOLERANCE {
                adv.cost += cost;
                adv.distance = start + piece.length;
                adv.end = piece.to;
                ControlFlow::Continue(())
            } else {
                // m > 0 here, since cost > left ≥ 0.
                let go = (left / m).clamp(0.0, piece.length);
                adv.cost += go * m;
                adv.distance = start + go;
                adv.end = piece.from + dir * go;
                adv.stop = Stop::Budget;
                ControlFlow::Break(())
            }
        }
        Step::Meet { meet, distance } => {
            let Some(c) = valid_multiplier(model.crossing_cost(table, meet.feature, &meet.ground))
            else {
                adv.stop = Stop::Blocked(Blocked {
                    at: meet.at,
                    distance,
                    reason: BlockReason::Uncrossable { feature: meet.feature, ground: meet.ground },
                });
                return ControlFlow::Break(());
            };
            if c <= budget - adv.cost + COST_TOLERANCE {
                adv.cost += c;
                ControlFlow::Continue(())
            } else {
                adv.stop = Stop::Budget;
                ControlFlow::Break(())
            }
        }
    });
    adv
}
