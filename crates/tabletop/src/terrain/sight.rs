//! Line of sight: what a sight line passes through, the ground's elevation along it, and a
//! rule set's verdict.
//!
//! [`Table::sight`] lists every area and every linear feature's band the segment passes
//! through (one [`Obstruction`] per stretch inside, with exact entry and exit) and the ground's
//! elevation profile along it, which is piecewise linear (see [`slope`](super::slope)), so its
//! highest point and its highest point above any straight sight line are found exactly at the
//! profile's breakpoints. A [`SightRule`] decides what blocks; [`DefaultSightRule`] is a
//! sensible default.

use super::convex::{boxes_meet, segment_box};
use super::polygon::LENGTH_TOLERANCE;
use super::slope::{HillScratch, Linear, hill_trace};
use super::{AreaKind, FeatureRef, Table};
use crate::geometry::Point;

/// Elevation differences within this (contour levels) count as level.
pub const HEIGHT_TOLERANCE: f64 = 1e-9;

/// A stretch of a sight line inside one area or one feature's band.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Obstruction {
    /// The area or linear feature.
    pub feature: FeatureRef,
    /// Parameter where the line enters it (`0` at the observer, `1` at the target).
    pub enter: f64,
    /// Parameter where it leaves.
    pub exit: f64,
    /// The length inside, in inches.
    pub length: f64,
}

impl Obstruction {
    /// True when the stretch starts at the observer (the observer is inside).
    pub fn holds_start(&self) -> bool {
        self.enter <= 0.0
    }

    /// True when the stretch ends at the target (the target is inside).
    pub fn holds_end(&self) -> bool {
        self.exit >= 1.0
    }
}

/// A linear stretch of the ground profile: elevation `e0` at parameter `t0` to `e1` at `t1`
/// (one-sided limits, so a cliff shows as a jump between spans).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProfileSpan {
    /// Start parameter.
    pub t0: f64,
    /// End parameter.
    pub t1: f64,
    /// Elevation at the start, in contour levels.
    pub e0: f64,
    /// Elevation at the end.
    pub e1: f64,
}

/// What lies along a sight line.
#[derive(Clone, Debug, PartialEq)]
pub struct Sight {
    /// The observer's point.
    pub from: Point,
    /// The target's point.
    pub to: Point,
    /// The distance between them, in inches.
    pub length: f64,
    /// Every area and band the line passes through, ordered by entry, then areas before lines,
    /// then by index.
    pub obstructions: Vec<Obstruction>,
    /// The ground profile from `from` to `to`, covering `[0, 1]` in order (empty for a
    /// zero-length line).
    pub profile: Vec<ProfileSpan>,
    /// Ground elevation at the observer.
    pub start_elevation: f64,
    /// Ground elevation at the target.
    pub end_elevation: f64,
    /// The highest ground along the line, ends included (as limits from between them, which
    /// differ from `start_elevation` or `end_elevation` only at a slope-less hill's cliff).
    pub max_elevation: f64,
}

impl Sight {
    /// How far the ground between the endpoints rises above the straight line from the
    /// observer's eye (`eye_a` above the ground at `from`) to the target's (`eye_b` above the
    /// ground at `to`), in levels: the maximum over the open segment of ground minus sight line.
    /// Negative when the ground stays below the line everywhere; `-inf` for a zero-length line.
    pub fn clearance_deficit(&self, eye_a: f64, eye_b: f64) -> f64 {
        let za = self.start_elevation + eye_a;
        let zb = self.end_elevation + eye_b;
        let mut worst = f64::NEG_INFINITY;
        // Every span has positive length inside [0, 1], so its end values are limits of
        // points strictly between the observers.
        for s in &self.profile {
            for (t, e) in [(s.t0, s.e0), (s.t1, s.e1)] {
                worst = worst.max(e - (za + (zb - za) * t));
            }
        }
        worst
    }

    /// True when the ground between rises above the sight line between the two eyes by more
    /// than [`HEIGHT_TOLERANCE`].
    pub fn ground_blocks(&self, eye_a: f64, eye_b: f64) -> bool {
        self.clearance_deficit(eye_a, eye_b) > HEIGHT_TOLERANCE
    }
}

/// A rule set's verdict on what blocks sight.
pub trait SightRule {
    /// True when the line described by `sight`, between eyes `eye_a` and `eye_b` levels above
    /// the ground at its two ends, is blocked.
    fn blocks(&self, table: &Table, sight: &Sight, eye_a: f64, eye_b: f64) -> bool;
}

/// The default sight rule:
///
/// * woods, dense trees and villages block a line that passes through them, except that an
///   observer or target inside one sees (and is seen) through up to `see_into` inches of it from
///   its own position (default 2"): a stretch inside such an area blocks when it is longer than
///   `see_into` if it holds an endpoint, and when it has any length (more than 1e-9") otherwise;
/// * hills block when the ground between the two rises above the straight line between the
///   observers' eyes ([`Sight::ground_blocks`]);
/// * marsh, rough ground and every linear feature (walls and hedges included) do not block.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DefaultSightRule {
    /// How far into a blocking area an observer inside it sees, in inches.
    pub see_into: f64,
}

impl Default for DefaultSightRule {
    fn default() -> Self {
        DefaultSightRule { see_into: 2.0 }
    }
}

impl SightRule for DefaultSightRule {
    fn blocks(&self, table: &Table, sight: &Sight, eye_a: f64, eye_b: f64) -> bool {
        for o in &sight.obstructions {
            let FeatureRef::Area(i) = o.feature else {
                continue;
            };
            let Some(area) = table.areas.get(i) else {
                continue;
            };
            if matches!(area.kind, AreaKind::Wood | AreaKind::DenseTrees | AreaKind::Village) {
                let allow = if o.holds_start() || o.holds_end() { self.see_into } else { 0.0 };
                if o.length > allow + LENGTH_TOLERANCE {
                    return true;
                }
            }
        }
        sight.ground_blocks(eye_a, eye_b)
    }
}

/// True when `b` (eye `eye_b` levels above its ground) can be seen from `a` (eye `eye_a`
/// above its ground) under `rule`.
pub fn line_of_sight(
    table: &Table,
    a: Point,
    eye_a: f64,
    b: Point,
    eye_b: f64,
    rule: &dyn SightRule,
) -> bool {
    let sight = table.sight(a, b);
    !rule.blocks(table, &sight, eye_a, eye_b)
}

impl Table {
    /// What lies along the line from `a` to `b`: the areas and bands it passes through and the
    /// ground's elevation profile.
    pub fn sight(&self, a: Point, b: Point) -> Sight {
        let len = a.distance(b);
        let start_elevation = self.elevation(a);
        let end_elevation = self.elevation(b);
        let mut sight = Sight {
            from: a,
            to: b,
            length: len,
            obstructions: Vec::new(),
            profile: Vec::new(),
            start_elevation,
            end_elevation,
            max_elevation: start_elevation.max(end_elevation),
        };
        if !(len > 0.0) || !len.is_finite() {
            return sight;
        }
        let tol_t = LENGTH_TOLERANCE / len;
        let sb = segment_box(a, b);
        let mut params = Vec::new();
        let mut iv = Vec::new();
        let mut hs = HillScratch::default();
        let mut hills: Vec<Linear> = Vec::new();
        for (i, area) in self.areas.iter().enumerate() {
            if !area.polygon.bounds().is_some_and(|bb| boxes_meet(bb, sb)) {
                continue;
            }
            area.polygon.segment_intervals_into(a, b, &mut params, &mut iv);
            for &(t0, t1) in &iv {
                sight.obstructions.push(Obstruction {
                    feature: FeatureRef::Area(i),
                    enter: t0,
                    exit: t1,
                    length: (t1 - t0) * len,
                });
            }
            if area.is_slope_hill() {
                if self.slope_band > 0.0 && self.slope_band.is_finite() {
                    hill_trace(area, self.slope_band, a, b, &iv, &mut hs, &mut hills);
                } else {
                    hills.extend(iv.iter().map(|&(t0, t1)| Linear {
                        t0,
                        t1,
                        alpha: area.height,
                        beta: 0.0,
                    }));
                }
            }
        }
        let mut segs = Vec::new();
        for (j, line) in self.lines.iter().enumerate() {
            if !line.bounds().is_some_and(|bb| boxes_meet(bb, sb)) {
                continue;
            }
            line.segments_into(&mut segs);
            line.band_intervals_into(&segs, a, b, &mut iv);
            for &(t0, t1) in &iv {
                sight.obstructions.push(Obstruction {
                    feature: FeatureRef::Line(j),
                    enter: t0,
                    exit: t1,
                    length: (t1 - t0) * len,
                });
            }
        }
        sight
            .obstructions
            .sort_by(|x, y| x.enter.total_cmp(&y.enter).then_with(|| x.feature.cmp(&y.feature)));

        // The profile: breakpoints of every hill's pieces, and their sum between them.
        params.clear();
        params.push(0.0);
        params.push(1.0);
        for l in &hills {
            params.push(l.t0);
            params.push(l.t1);
        }
        params.sort_by(f64::total_cmp);
        let mut max_e = f64::NEG_INFINITY;
        for w in params.windows(2) {
            let (u0, u1) = (w[0], w[1]);
            if !(u1 - u0 > tol_t) {
                continue;
            }
            let m = (u0 + u1) / 2.0;
            let (mut e0, mut e1) = (0.0, 0.0);
            for l in hills.iter().filter(|l| l.t0 <= m && m <= l.t1) {
                e0 += l.at(u0);
                e1 += l.at(u1);
            }
            max_e = max_e.max(e0).max(e1);
            match sight.profile.last_mut() {
                // Extend a span that continues on the same line.
                Some(last)
                    if last.t1 == u0
                        && (last.e1 - e0).abs() <= HEIGHT_TOLERANCE
                        && ((last.e1 - last.e0) * (u1 - u0) - (e1 - e0) * (last.t1 - last.t0))
                            .abs()
                            <= HEIGHT_TOLERANCE * (u1 - last.t0) =>
                {
                    last.t1 = u1;
                    last.e1 = e1;
                }
                _ => sight.profile.push(ProfileSpan { t0: u0, t1: u1, e0, e1 }),
            }
        }
        if max_e.is_finite() {
            sight.max_elevation = max_e;
        }
        sight
    }
}
